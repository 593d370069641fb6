/** A file-transfer conduit for the tests of src/net/api-file.ts: its PDUs given up front, what is sent kept. */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamRef } from '../../src/session/types.ts';
import type { AttributeLike } from '../../src/wire/smp/attributes.ts';
import { FILE_TRANSFER_ATTRIBUTES, decodeFileResult, encodeFileHeader } from '../../src/net/api-file-format.ts';
import type { RiodpEndpoint, Stream, StreamLoss, StreamStatus } from '../../src/net/api-types.ts';

export interface FakeOptions {
  /** Called before each read with the number of reads so far (0 for the first). */
  readonly beforeRead?: (n: number) => Promise<void> | void;
  /** Once the PDUs are read, wait (until close) instead of reporting the end. */
  readonly hang?: boolean;
  /** The read of this number (0-based) throws. */
  readonly failAt?: number;
  /** Sends after this many wait for ever (a stream held by flow control). */
  readonly blockSendsAfter?: number;
  /** Called at each send with the number of PDUs sent before it. */
  readonly onSend?: (n: number) => void;
  /** After `lose`, sends fail as on a closed stream (a loss that closed it). */
  readonly closeOnLoss?: boolean;
  /** A released PDU's bytes are overwritten at once (the reader must be done with them). */
  readonly overwriteReleased?: boolean;
}

/** A conduit whose received PDUs are given up front; what the receiver sends is kept, with the reads made before it. */
export class FakeConduit implements Stream {
  readonly remote = 1;
  readonly protoID = 0x0101;
  readonly attributes: readonly AttributeLike[] = FILE_TRANSFER_ATTRIBUTES;
  readonly tx: StreamRef = { remote: 1, direction: 'tx', streamID: 2 };
  readonly rx: StreamRef = { remote: 1, direction: 'rx', streamID: 3 };
  readonly conduit = true;
  closed = false;
  readonly sent: Uint8Array[] = [];
  /** Reads made when each PDU was sent. */
  readonly readsAtSend: number[] = [];
  reads = 0;
  /** PDUs given back (Stream.release), in order. */
  readonly released: Uint8Array[] = [];
  readonly #in: Uint8Array[];
  readonly #o: FakeOptions;
  #wake: (() => void) | null = null;
  readonly #lossListeners = new Set<(l: StreamLoss) => void>();
  #lost = false;

  constructor(pdus: Uint8Array[], o: FakeOptions = {}) {
    this.#in = [...pdus];
    this.#o = o;
  }

  send(pdu: Uint8Array): Promise<void> {
    this.#o.onSend?.(this.sent.length);
    if (this.#lost && this.#o.closeOnLoss === true) return Promise.reject(new Error('stream tx 1/0x2 is closed'));
    if (this.sent.length >= (this.#o.blockSendsAfter ?? Infinity)) return new Promise<void>(() => undefined);
    this.sent.push(pdu);
    this.readsAtSend.push(this.reads);
    return Promise.resolve();
  }

  onLoss(listener: (l: StreamLoss) => void): () => void {
    this.#lossListeners.add(listener);
    return () => this.#lossListeners.delete(listener);
  }

  /** Reports a loss, as the end point would (Stream.onLoss). */
  lose(l: StreamLoss): void {
    this.#lost = true;
    for (const f of [...this.#lossListeners]) f(l);
  }

  async read(): Promise<Uint8Array | null> {
    const n = this.reads++;
    await this.#o.beforeRead?.(n);
    if (n === this.#o.failAt) throw new Error('stream error');
    const next = this.#in.shift();
    if (next !== undefined || this.closed || this.#o.hang !== true) return next ?? null;
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    return null;
  }

  release(pdu: Uint8Array): void {
    this.released.push(pdu);
    // As the end point may: the memory is reused, so its bytes change at once.
    if (this.#o.overwriteReleased === true) pdu.fill(0xee);
  }

  close(): Promise<void> {
    this.closed = true;
    this.#wake?.();
    return Promise.resolve();
  }

  status(): StreamStatus {
    return { remote: 1, protoID: this.protoID, conduit: true, tx: null, rx: null, closed: this.closed, loss: { pdus: 0, gaps: 0, last: null } };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (let p = await this.read(); p !== null; p = await this.read()) yield p;
  }
}

/** An end point whose only use is openConduit, for the sender. */
export function fakeSender(c: FakeConduit): RiodpEndpoint {
  return { openConduit: () => Promise.resolve(c) } as unknown as RiodpEndpoint;
}

export const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export async function inDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-file-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function resultOf(c: FakeConduit): unknown {
  const last = c.sent.at(-1);
  const r = last === undefined ? undefined : decodeFileResult(last);
  return r?.ok === true ? r.value.status : r;
}

export function carrying(name: string, data: Uint8Array, o: FakeOptions = {}, size = data.length): FakeConduit {
  const pdus = [encodeFileHeader({ name, size, sha256: sha(data) })];
  for (let i = 0; i < data.length; i += 65536) pdus.push(data.subarray(i, i + 65536));
  return new FakeConduit(pdus, o);
}

export const parts = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((f) => f.endsWith('.riodp-part'));
