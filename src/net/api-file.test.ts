import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeFileHeader, encodeFileResult } from './api-file-format.ts';
import { isFileTransfer, receiveFile, sendFile } from './api-file.ts';
import { until } from '../../test/support/net-endpoint.ts';
import { FakeConduit, carrying, fakeSender, inDir, parts, resultOf, sha } from '../../test/support/fake-conduit.ts';


test('riodp file transfer: the receiver writes the file announced by the header, checks size and SHA-256, answers ok and closes; it gives each data PDU back once written (Stream.release)', async () => {
  await inDir(async (dir) => {
    const data = Uint8Array.from({ length: 70_000 }, (_, i) => i & 0xff);
    // Copies: the fake overwrites a released PDU, as reused memory would be.
    const pdus = [data.slice(0, 65536), data.slice(65536)];
    const c = new FakeConduit([encodeFileHeader({ name: 'x.bin', size: data.length, sha256: sha(data) }), ...pdus], { overwriteReleased: true });
    const r = await receiveFile(c, dir);
    assert.deepEqual([r.status, r.name, r.size, r.path, r.from], ['ok', 'x.bin', 70_000, join(dir, 'x.bin'), 1]);
    assert.deepEqual(new Uint8Array(await readFile(join(dir, 'x.bin'))), data);
    assert.deepEqual(c.released, pdus, 'every data PDU is released, after it was hashed and written');
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

test('riodp file transfer: fewer bytes than announced (the conduit closed) or more are answered "size"; what follows the announced bytes is never written', async () => {
  await inDir(async (dir) => {
    const short = new FakeConduit([encodeFileHeader({ name: 'a', size: 10, sha256: '00'.repeat(32) }), new Uint8Array(4)]);
    assert.equal((await receiveFile(short, dir)).text, 'the conduit closed after 4 of 10 bytes');
    const long = new FakeConduit([encodeFileHeader({ name: 'b', size: 2, sha256: '00'.repeat(32) }), new Uint8Array(4)]);
    const r = await receiveFile(long, dir);
    assert.deepEqual([r.status, r.text], ['size', 'more than the 2 bytes the header announced']);
    assert.deepEqual(await readdir(dir), []);
    // PDUs after exactly the announced bytes are not the file's (the result is due then): never written.
    const data = Uint8Array.of(1, 2);
    const after = new FakeConduit([encodeFileHeader({ name: 'c', size: 2, sha256: sha(data) }), data, new Uint8Array(1000)]);
    assert.equal((await receiveFile(after, dir)).status, 'ok');
    assert.deepEqual(new Uint8Array(await readFile(join(dir, 'c'))), data);
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

/** A conduit carrying `data` under `name`: its header, then PDUs of at most 64 KiB. */

test('issue 16 item 5 "never overwrite": a file whose name the folder has is written as "name (1).ext" by default; the event names that path; the old file is untouched', async () => {
  await inDir(async (dir) => {
    await writeFile(join(dir, 'x.bin'), 'old');
    const data = Uint8Array.of(1, 2, 3);
    const c = carrying('x.bin', data);
    const r = await receiveFile(c, dir);
    assert.deepEqual([r.status, r.name, r.path], ['ok', 'x.bin', join(dir, 'x (1).bin')]);
    assert.equal(await readFile(join(dir, 'x.bin'), 'utf8'), 'old');
    assert.deepEqual(new Uint8Array(await readFile(join(dir, 'x (1).bin'))), data);
    assert.equal(resultOf(c), 'ok');
  });
});

test('issue 16 item 5 "or a refusal": with onExists refuse, a name the folder has is answered "exists" right after the header, before any data is read, and nothing is written', async () => {
  await inDir(async (dir) => {
    await writeFile(join(dir, 'x.bin'), 'old');
    const c = carrying('x.bin', new Uint8Array(200_000));
    const r = await receiveFile(c, dir, { onExists: 'refuse' });
    assert.deepEqual([r.status, r.text, r.path], ['exists', "x.bin exists in the receiver's folder, and it refuses to replace files", null]);
    assert.equal(resultOf(c), 'exists');
    assert.deepEqual(c.readsAtSend, [1], 'the result went after the header only');
    assert.equal(await readFile(join(dir, 'x.bin'), 'utf8'), 'old');
    assert.deepEqual(await readdir(dir), ['x.bin']);
  });
});

test('issue 16 item 5 "or a refusal": with onExists refuse, a file of the name that appears during the transfer is not replaced either: "exists" at the end, the part removed', async () => {
  await inDir(async (dir) => {
    const c = carrying('late.txt', Uint8Array.of(1, 2), {
      beforeRead: async (n) => {
        if (n === 1) await writeFile(join(dir, 'late.txt'), 'someone else');
      },
    });
    const r = await receiveFile(c, dir, { onExists: 'refuse' });
    assert.equal(r.status, 'exists');
    assert.equal(await readFile(join(dir, 'late.txt'), 'utf8'), 'someone else');
    assert.deepEqual(await readdir(dir), ['late.txt']);
  });
});

test('issue 16 item 5 "a maximum size": a header announcing more than maxSize is answered "too-large" before any data; exactly maxSize is taken; the default is 4 GiB', async () => {
  await inDir(async (dir) => {
    const big = carrying('big.iso', new Uint8Array(1000));
    const r = await receiveFile(big, dir, { maxSize: 999 });
    assert.deepEqual([r.status, r.text, r.size], ['too-large', '1000 bytes is more than the 999 this receiver takes', 1000]);
    assert.deepEqual(big.readsAtSend, [1]);
    assert.deepEqual(await readdir(dir), []);
    assert.equal((await receiveFile(carrying('fits.iso', new Uint8Array(1000)), dir, { maxSize: 1000 })).status, 'ok');
    // A header's 64-bit size is the sender's word: 4 GiB + 1 is refused without a byte read.
    const huge = new FakeConduit([encodeFileHeader({ name: 'huge', size: 4 * 1024 ** 3 + 1, sha256: '00'.repeat(32) })]);
    assert.equal((await receiveFile(huge, dir)).status, 'too-large');
    assert.deepEqual(await readdir(dir), ['fits.iso']);
  });
});

test('issue 16 item 5 ".part files removed when the transfer fails": while a file arrives its part is .<name>.<pid>.<hex>.riodp-part; after a checksum, size, stream or write failure none is left', async () => {
  await inDir(async (dir) => {
    const seen: string[][] = [];
    const data = new Uint8Array(100_000).fill(7);
    const watch = { beforeRead: async (n: number) => { if (n === 2) seen.push(await parts(dir)); } };
    const cases: [FakeConduit, string][] = [
      [new FakeConduit([encodeFileHeader({ name: 'c', size: 100_000, sha256: '00'.repeat(32) }), data.subarray(0, 65536), data.subarray(65536)], watch), 'checksum'],
      [carrying('s', data.subarray(0, 70_000), watch, 100_000), 'size'],
      [carrying('l', data, watch, 65_537), 'size'],
      [carrying('e', data, { ...watch, failAt: 2 }), 'size'],
    ];
    for (const [c, status] of cases) {
      const r = await receiveFile(c, dir);
      assert.equal(r.status, status, r.text);
      assert.deepEqual(await readdir(dir), [], `nothing left after ${status}: ${r.text}`);
    }
    assert.equal(seen.length, 4);
    for (const p of seen) assert.match(p[0] ?? '', new RegExp(`^\\.[csle]\\.${process.pid}\\.[0-9a-f]{8}\\.riodp-part$`));
    // A name the file system refuses (a numbered name beyond 255 bytes) fails at the end: a write failure.
    const long = 'L'.repeat(255);
    await writeFile(join(dir, long), '');
    const w = await receiveFile(carrying(long, data), dir);
    assert.equal(w.status, 'write');
    assert.deepEqual(await parts(dir), []);
  });
});

test('issue 16 item 5 ".part files removed when the transfer fails": a receiver told to give up (its recv client left, its end point closing) answers "aborted" with the reason, closes the conduit and leaves no part', async () => {
  await inDir(async (dir) => {
    const stop = new AbortController();
    const data = new Uint8Array(100_000);
    const c = carrying('cut.bin', data.subarray(0, 65536), { hang: true }, data.length);
    const receiving = receiveFile(c, dir, { signal: stop.signal });
    await until(() => c.reads >= 3, 3000, 'the wait for data');
    assert.equal((await parts(dir)).length, 1);
    stop.abort(new Error('its riodp recv disconnected'));
    const r = await receiving;
    assert.deepEqual([r.status, r.text], ['aborted', 'the receiver gave the transfer up: its riodp recv disconnected']);
    assert.equal(resultOf(c), 'aborted');
    assert.equal(c.closed, true);
    assert.deepEqual(await readdir(dir), []);
    const early = new AbortController();
    early.abort(new Error('its end point is closing'));
    assert.equal((await receiveFile(new FakeConduit([], { hang: true }), dir, { signal: early.signal })).status, 'aborted', 'before the header too');
  });
});

test('issue 16 item 5: a sender refused at its header stops sending at once and returns the receiver\'s status and text', async () => {
  await inDir(async (dir) => {
    const file = join(dir, 'src.bin');
    await writeFile(file, new Uint8Array(1_000_000));
    const c = new FakeConduit([encodeFileResult({ status: 'too-large', text: '1000000 bytes is more than the 10 this receiver takes' })]);
    const sent = await sendFile(fakeSender(c), 2, file);
    assert.deepEqual(sent.result, { status: 'too-large', text: '1000000 bytes is more than the 10 this receiver takes' });
    assert.ok(c.sent.length <= 2, `the header and at most the PDU under way, not ${c.sent.length} PDUs`);
    assert.equal(c.closed, true);
  });
});
