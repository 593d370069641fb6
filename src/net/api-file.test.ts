import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamRef } from '../session/types.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { FILE_TRANSFER_ATTRIBUTES, decodeFileResult, encodeFileHeader } from './api-file-format.ts';
import { isFileTransfer, receiveFile } from './api-file.ts';
import type { Stream, StreamStatus } from './api-types.ts';

/** A conduit whose received PDUs are given up front; what the receiver sends is kept. */
class FakeConduit implements Stream {
  readonly remote = 1;
  readonly protoID = 0x0101;
  readonly attributes: readonly AttributeLike[] = FILE_TRANSFER_ATTRIBUTES;
  readonly tx: StreamRef = { remote: 1, direction: 'tx', streamID: 2 };
  readonly rx: StreamRef = { remote: 1, direction: 'rx', streamID: 3 };
  readonly conduit = true;
  closed = false;
  readonly sent: Uint8Array[] = [];
  readonly #in: Uint8Array[];

  constructor(pdus: Uint8Array[]) {
    this.#in = [...pdus];
  }

  send(pdu: Uint8Array): Promise<void> {
    this.sent.push(pdu);
    return Promise.resolve();
  }

  read(): Promise<Uint8Array | null> {
    return Promise.resolve(this.#in.shift() ?? null);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  status(): StreamStatus {
    return { remote: 1, protoID: this.protoID, conduit: true, tx: null, rx: null, closed: this.closed };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (let p = await this.read(); p !== null; p = await this.read()) yield p;
  }
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function inDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-file-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function resultOf(c: FakeConduit): unknown {
  const last = c.sent.at(-1);
  const r = last === undefined ? undefined : decodeFileResult(last);
  return r?.ok === true ? r.value.status : r;
}

test('riodp file transfer: the receiver writes the file announced by the header, checks size and SHA-256, answers ok and closes', async () => {
  await inDir(async (dir) => {
    const data = Uint8Array.from({ length: 70_000 }, (_, i) => i & 0xff);
    const c = new FakeConduit([encodeFileHeader({ name: 'x.bin', size: data.length, sha256: sha(data) }), data.subarray(0, 65536), data.subarray(65536)]);
    const r = await receiveFile(c, dir);
    assert.deepEqual([r.status, r.name, r.size, r.path, r.from], ['ok', 'x.bin', 70_000, join(dir, 'x.bin'), 1]);
    assert.deepEqual(new Uint8Array(await readFile(join(dir, 'x.bin'))), data);
    assert.equal(resultOf(c), 'ok');
    assert.equal(c.closed, true);
    assert.deepEqual(await readdir(dir), ['x.bin'], 'no temporary file is left');
  });
});

test('riodp file transfer: a SHA-256 that differs is answered "checksum" and nothing is written', async () => {
  await inDir(async (dir) => {
    const c = new FakeConduit([encodeFileHeader({ name: 'y', size: 3, sha256: '00'.repeat(32) }), Uint8Array.of(1, 2, 3)]);
    const r = await receiveFile(c, dir);
    assert.equal(r.status, 'checksum');
    assert.equal(resultOf(c), 'checksum');
    assert.deepEqual(await readdir(dir), []);
  });
});

test('riodp file transfer: fewer bytes than announced (the conduit closed) or more are answered "size"', async () => {
  await inDir(async (dir) => {
    const short = new FakeConduit([encodeFileHeader({ name: 'a', size: 10, sha256: '00'.repeat(32) }), new Uint8Array(4)]);
    assert.equal((await receiveFile(short, dir)).text, 'the conduit closed after 4 of 10 bytes');
    const long = new FakeConduit([encodeFileHeader({ name: 'b', size: 2, sha256: '00'.repeat(32) }), new Uint8Array(4)]);
    const r = await receiveFile(long, dir);
    assert.deepEqual([r.status, r.text], ['size', 'more than the 2 bytes the header announced']);
    assert.deepEqual(await readdir(dir), []);
  });
});

test('riodp file transfer: a first PDU that is not a header, or a name that names no file, is answered "header"', async () => {
  await inDir(async (dir) => {
    const junk = new FakeConduit([Uint8Array.of(9, 9, 9)]);
    assert.equal((await receiveFile(junk, dir)).status, 'header');
    assert.equal(resultOf(junk), 'header');
    const dots = new FakeConduit([encodeFileHeader({ name: '..', size: 0, sha256: sha(new Uint8Array(0)) })]);
    const r = await receiveFile(dots, dir);
    assert.deepEqual([r.status, r.text], ['header', 'unusable file name ".."']);
    const empty = new FakeConduit([]);
    assert.equal((await receiveFile(empty, dir)).text, 'the conduit closed before a header');
  });
});

test('riodp file transfer: a path in the name is cut to its last component (the file lands in the folder)', async () => {
  await inDir(async (dir) => {
    const data = Uint8Array.of(7);
    const c = new FakeConduit([encodeFileHeader({ name: '../../up.txt', size: 1, sha256: sha(data) }), data]);
    const r = await receiveFile(c, dir);
    assert.equal(r.path, join(dir, 'up.txt'));
  });
});

test('Annex 2 §6.2: a stream is file transfer when its protocol is 0x0101 and its PROTOCOL_NAME is RIODPFT', () => {
  assert.equal(isFileTransfer(new FakeConduit([])), true);
  const other = Object.assign(new FakeConduit([]), { protoID: 0x1234 });
  assert.equal(isFileTransfer(other), false);
});
