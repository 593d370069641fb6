/**
 * The receiving side of riodp's file-transfer protocol (api-file-format.ts): `isFileTransfer` tells
 * a file-transfer conduit among the streams peers open, `receiveFile` receives one into a folder
 * (what the end point process does for `riodp recv`). The protocol's course and the sending side
 * are in api-file.ts.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { FILE_TRANSFER_NAME, FILE_TRANSFER_PROTO_ID, decodeFileHeader, encodeFileResult, safeFileName } from './api-file-format.ts';
import type { FileHeader, FileStatusName } from './api-file-format.ts';
import { DEFAULT_MAX_FILE_SIZE, discardPart, existsText, nameTaken, openPart, placePart } from './api-file-store.ts';
import type { OnExists, Part } from './api-file-store.ts';
import { lossText, withTimeout } from './api-file-wait.ts';
import type { Stream, StreamLoss } from './api-types.ts';
import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';

/** What `receiveFile` resolves with: the result it sent back and where it wrote the file. */
export interface FileReceived {
  readonly from: number;
  readonly status: FileStatusName;
  readonly text: string;
  /** From the header; empty when there was no valid header. */
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  /** Where the file was written (status ok only): the header's name, or the numbered name it took when that one was taken. */
  readonly path: string | null;
  readonly ms: number;
}

/**
 * Whether a stream a peer opened carries the file-transfer protocol (§6.2: VENDOR and PROTOCOL_NAME).
 *
 * @example
 * ```ts
 * import { endpointConfig, isFileTransfer, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }, { port: 1, listen: { port: 0 } }], routes: { 1: 0, 2: 1 }, log: 'silent' }));
 * const node = (nodeId: number) => startEndpoint(endpointConfig({ nodeId, switch: { port: sw.addresses[nodeId - 1]!.tcpPort }, protocols: [{ protoID: 0x1234 }], log: 'silent' }));
 * const [a, b] = [await node(1), await node(2)];
 * const s = await a.openStream({ to: 2, protoID: 0x1234 });
 * // Node 2 hands file-transfer conduits to receiveFile, and streams of other protocols to their application:
 * for await (const r of b.incoming()) {
 *   console.log(r.protoID.toString(16), isFileTransfer(r)); // 1234 false
 *   break;
 * }
 * await s.close();
 * await Promise.all([a.close(), b.close()]);
 * await sw.close();
 * ```
 */
export function isFileTransfer(s: Stream): boolean {
  if (s.protoID !== FILE_TRANSFER_PROTO_ID) return false;
  const name = s.attributes.find((a) => a.id === ATTRIBUTE_ID.PROTOCOL_NAME);
  return name === undefined || Buffer.from(name.value).toString('latin1').replace(/\0+$/, '') === FILE_TRANSFER_NAME;
}

/** Options of `receiveFile`. */
export interface ReceiveFileOptions {
  /** How long to wait for the sender's CLOSE after the result. Default 10 000 ms. */
  readonly closeTimeoutMs?: number;
  /** A name the folder already has: write the file under the first free numbered name (default) or refuse it. */
  readonly onExists?: OnExists;
  /** The largest size a header may announce, bytes. Default `DEFAULT_MAX_FILE_SIZE` (4 GiB). */
  readonly maxSize?: number;
  /** Gives the transfer up: the part file is removed and the sender answered `aborted` with the reason's message. */
  readonly signal?: AbortSignal;
}

/** How long a receiver that gives up waits for the sender to take its result and close. */
const ABORT_GRACE_MS = 1000;
const ABORTED = Symbol('aborted');

/** The stream's next PDU, or ABORTED as soon as `signal` aborts (the read is left to the close that follows). */
function readUnless(s: Stream, signal: AbortSignal | undefined): Promise<Uint8Array | null | typeof ABORTED> {
  if (signal === undefined) return s.read();
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      resolve(ABORTED);
    };
    signal.addEventListener('abort', aborted, { once: true });
    s.read().then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', aborted);
    });
  });
}

function isLoss(r: unknown): r is StreamLoss {
  return typeof r === 'object' && r !== null && 'reason' in r && 'stream' in r && 'detail' in r;
}

/** Why the transfer was given up: the application's abort, or a loss on the conduit (status `lost`). */
function abortFailure(s: Stream, signal: AbortSignal | undefined): Failure {
  const r: unknown = signal?.reason;
  if (isLoss(r)) return { status: 'lost', text: lossText(s.remote, r) };
  return { status: 'aborted', text: `the receiver gave the transfer up: ${r instanceof Error ? r.message : String(r)}` };
}

type Failure = { readonly status: FileStatusName; readonly text: string };

/**
 * Receives one file from a file-transfer conduit into `dir`; never throws for what the peer sent.
 * A header over `maxSize`, or naming a file the folder has with `onExists: 'refuse'`, is answered
 * at once, before any data; the part file is removed whatever ends the transfer (api-file-store.ts).
 *
 * @example
 * ```ts
 * import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { endpointConfig, isFileTransfer, parseSwitchConfig, receiveFile, sendFile, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }, { port: 1, listen: { port: 0 } }], routes: { 1: 0, 2: 1 }, log: 'silent' })); // nodes 1 and 2 on ports 0 and 1
 * const node = (nodeId: number) => startEndpoint(endpointConfig({ nodeId, switch: { port: sw.addresses[nodeId - 1]!.tcpPort }, log: 'silent' }));
 * const [a, b] = [await node(1), await node(2)];
 * const file = join(mkdtempSync(join(tmpdir(), 'riodp-')), 'hello.txt');
 * writeFileSync(file, 'hello, node 2');
 * const sending = sendFile(a, 2, file);
 * // Node 2: each conduit a peer opens that carries the file-transfer protocol is received into a folder.
 * for await (const s of b.incoming()) {
 *   if (!isFileTransfer(s)) continue;
 *   const got = await receiveFile(s, mkdtempSync(join(tmpdir(), 'riodp-in-')), { maxSize: 1 << 20 });
 *   console.log(got.from, got.status, got.name, got.path === null ? '' : readFileSync(got.path, 'utf8')); // 1 ok hello.txt hello, node 2
 *   break;
 * }
 * await sending;
 * await Promise.all([a.close(), b.close()]);
 * await sw.close();
 * ```
 */
export async function receiveFile(s: Stream, dir: string, opts: ReceiveFileOptions = {}): Promise<FileReceived> {
  const started = Date.now();
  // A loss of data on the conduit gives the transfer up at once, as an abort does (decision FF5).
  const lossCtl = new AbortController();
  const stopLoss = s.onLoss((l) => {
    if (l.stream.direction === 'rx' && !lossCtl.signal.aborted) lossCtl.abort(l);
  });
  try {
    return await receiveInto(s, dir, opts, started, opts.signal === undefined ? lossCtl.signal : AbortSignal.any([opts.signal, lossCtl.signal]));
  } finally {
    stopLoss();
  }
}

async function receiveInto(s: Stream, dir: string, opts: ReceiveFileOptions, started: number, signal: AbortSignal): Promise<FileReceived> {
  const maxSize = opts.maxSize ?? DEFAULT_MAX_FILE_SIZE;
  const onExists = opts.onExists ?? 'rename';
  const done = async (f: Failure | { status: 'ok'; text: string }, h: FileHeader | null, path: string | null): Promise<FileReceived> => {
    const aborted = f.status === 'aborted' || f.status === 'lost';
    const grace = aborted ? ABORT_GRACE_MS : (opts.closeTimeoutMs ?? 10_000);
    // Given up, the receiver still waits briefly for the sender to take the result and close;
    // otherwise an abort cuts the wait short.
    const until = aborted ? undefined : signal;
    if (s.tx !== null && !s.closed) {
      try {
        await withTimeout(s.send(encodeFileResult(f)), grace, 'result not sent');
        // Data after the result is not the protocol's (a sender refused at its header may still
        // be sending): read and dropped until the sender's CLOSE.
        await withTimeout((async () => {
          for (let p = await readUnless(s, until); p !== null && p !== ABORTED; p = await readUnless(s, until));
        })(), grace, 'no CLOSE');
      } catch {
        // The peer is gone or silent: the conduit is closed from this side below.
      }
    }
    await withTimeout(s.close(), grace, 'no close').catch(() => undefined);
    return { from: s.remote, status: f.status, text: f.text, name: h?.name ?? '', size: h?.size ?? 0, sha256: h?.sha256 ?? '', path, ms: Date.now() - started };
  };
  const first = await readUnless(s, signal).catch((e: unknown) => e as Error);
  if (first === ABORTED) return done(abortFailure(s, signal), null, null);
  if (first instanceof Error) return done({ status: 'header', text: `the conduit failed before a header: ${first.message}` }, null, null);
  if (first === null) return done({ status: 'header', text: 'the conduit closed before a header' }, null, null);
  const decoded = decodeFileHeader(first);
  if (!decoded.ok) return done({ status: 'header', text: decoded.error }, null, null);
  const h = decoded.value;
  const name = safeFileName(h.name);
  if (name === undefined) return done({ status: 'header', text: `unusable file name ${JSON.stringify(h.name)}` }, h, null);
  if (h.size > maxSize) return done({ status: 'too-large', text: `${h.size} bytes is more than the ${maxSize} this receiver takes` }, h, null);
  // Checked again when the file takes its name (placePart): one may appear meanwhile.
  if (onExists === 'refuse' && (await nameTaken(join(dir, name)))) return done({ status: 'exists', text: existsText(name) }, h, null);
  let part: Part;
  try {
    part = await openPart(dir, name);
  } catch (e) {
    return done({ status: 'write', text: `cannot write in ${dir}: ${(e as Error).message}` }, h, null);
  }
  let failure: Failure | null;
  let path: string | null = null;
  try {
    failure = await fill(part, s, h, signal);
    if (failure === null) {
      const placed = await placePart(part, dir, name, onExists);
      if (placed.ok) path = placed.path;
      else failure = placed;
    }
  } catch (e) {
    failure = { status: 'write', text: (e as Error).message };
  } finally {
    await discardPart(part);
  }
  return failure === null ? done({ status: 'ok', text: `${h.size} bytes, SHA-256 checked` }, h, path) : done(failure, h, null);
}

/** Reads the file's bytes into the part and checks their count and SHA-256; null when they are right. */
async function fill(part: Part, s: Stream, h: FileHeader, signal: AbortSignal | undefined): Promise<Failure | null> {
  const hash = createHash('sha256');
  let got = 0;
  while (got < h.size) {
    let pdu;
    try {
      pdu = await readUnless(s, signal);
    } catch (e) {
      return { status: 'size', text: `the conduit failed after ${got} of ${h.size} bytes: ${(e as Error).message}` };
    }
    if (pdu === ABORTED) return abortFailure(s, signal);
    if (pdu === null) return { status: 'size', text: `the conduit closed after ${got} of ${h.size} bytes` };
    if (got + pdu.length > h.size) return { status: 'size', text: `more than the ${h.size} bytes the header announced` };
    hash.update(pdu);
    await part.fh.write(pdu);
    got += pdu.length;
    // Written out: its memory may hold a later PDU (docs/fast-lane.md §12).
    s.release(pdu);
  }
  const sha = hash.digest('hex');
  if (sha !== h.sha256) return { status: 'checksum', text: `SHA-256 ${sha} differs from the header's ${h.sha256}` };
  return null;
}
