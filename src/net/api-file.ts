/**
 * Moving files with riodp's file-transfer protocol (api-file-format.ts) over an end point's API:
 * `sendFile` (what `riodp send` asks the end point process to do) and `receiveFile` (what it does
 * for `riodp recv` with each file-transfer conduit a peer opens).
 *
 * The sender hashes the file first (the header carries its SHA-256), then sends it in 64 KiB
 * PDUs, each `send` waiting for flow control (api-stream.ts), and waits for the receiver's result
 * PDU (stopping early if it comes before the last PDU); then it closes the conduit. The receiver
 * refuses at the header a file over its maximum size or, when told to, a name its folder has;
 * otherwise it writes to a part file beside the target, checks size and SHA-256, gives the file a
 * name no other file has (api-file-store.ts) and answers with the result; the sender closes, so
 * the result cannot be overtaken by the CLOSE (a high-priority message, Annex 2 §3.7.2, goes
 * ahead of data).
 *
 * This file is the sending side; the receiving side is api-file-receive.ts (re-exported here), the
 * time limits and losses both sides give up on are api-file-wait.ts.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FILE_PDU_MAX, FILE_TRANSFER_ATTRIBUTES, FILE_TRANSFER_PROTO_ID, decodeFileResult, encodeFileHeader } from './api-file-format.ts';
import type { FileHeader, FileResult } from './api-file-format.ts';
import { watchLoss, withTimeout } from './api-file-wait.ts';
import type { RiodpEndpoint } from './api-types.ts';

/** What `sendFile` resolves with: the file sent, to whom, how long it took, and the receiver's result. */
export interface FileSent extends FileHeader {
  readonly to: number;
  readonly ms: number;
  readonly result: FileResult;
}

/** Options of `sendFile`. */
export interface SendFileOptions {
  /** The name the receiver writes; default the file's own name. */
  readonly name?: string;
  readonly hop?: number;
  /** How long to wait for the receiver's result after the last PDU. Default 30 000 ms. */
  readonly resultTimeoutMs?: number;
}

/**
 * SHA-256 of a file, hex.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { fileSha256 } from 'riodp/net';
 *
 * const file = join(mkdtempSync(join(tmpdir(), 'riodp-')), 'abc.txt');
 * writeFileSync(file, 'abc');
 * // What `sendFile` puts in the header, and the receiver checks the written file against:
 * console.log(await fileSha256(file)); // ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (FIPS 180-2's "abc")
 * ```
 */
export async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** How long a sender that met a loss waits for its conduit to close before it reports. */
const LOSS_CLOSE_MS = 1000;

/**
 * Sends a file; throws on a refusal, a failed result, or at once when a PDU of the conduit is
 * reported lost (Stream.onLoss: the link down, the receiver gone or restarted): DATA3 has no
 * sequence numbers to resend from, so the transfer is given up, not resumed (decision FF5).
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { endpointConfig, isFileTransfer, parseSwitchConfig, receiveFile, sendFile, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }, { port: 1, listen: { port: 0 } }], routes: { 1: 0, 2: 1 }, log: 'silent' })); // nodes 1 and 2 on ports 0 and 1
 * const node = (nodeId: number) => startEndpoint(endpointConfig({ nodeId, switch: { port: sw.addresses[nodeId - 1]!.tcpPort }, log: 'silent' }));
 * const [a, b] = [await node(1), await node(2)];
 * const file = join(mkdtempSync(join(tmpdir(), 'riodp-')), 'hello.txt');
 * writeFileSync(file, 'hello, node 2\n');
 * // Node 2 takes the first file-transfer conduit a peer opens (as `riodp recv` does):
 * void (async () => { for await (const s of b.incoming()) if (isFileTransfer(s)) return receiveFile(s, mkdtempSync(join(tmpdir(), 'riodp-in-'))); })();
 * const sent = await sendFile(a, 2, file); // header (name, size, SHA-256), the data in 64 KiB PDUs, then node 2's result
 * console.log(sent.name, sent.size, sent.result); // hello.txt 14 { status: 'ok', text: '14 bytes, SHA-256 checked' }
 * await Promise.all([a.close(), b.close()]);
 * await sw.close();
 * ```
 */
export async function sendFile(ep: RiodpEndpoint, to: number, path: string, opts: SendFileOptions = {}): Promise<FileSent> {
  const started = Date.now();
  const st = await stat(path);
  if (!st.isFile()) throw new Error(`${path} is not a file`);
  const header: FileHeader = { name: opts.name ?? basename(path), size: st.size, sha256: await fileSha256(path) };
  const headerPdu = encodeFileHeader(header);
  const c = await ep.openConduit({ to, protoID: FILE_TRANSFER_PROTO_ID, attributes: FILE_TRANSFER_ATTRIBUTES, ...(opts.hop === undefined ? {} : { hop: opts.hop }) });
  const loss = watchLoss(c, to);
  // The loss first: a send on the stream the loss closed fails too, and when both have failed by
  // the time the race looks, the first settled in the list wins.
  const unlessLost = <T>(p: Promise<T>): Promise<T> => Promise.race([loss.lost, p]);
  // The receiver answers before the data's end when it refuses the file at its header (too
  // large, a name it will not replace) or gives up: the sender stops sending then.
  const reply = { came: false };
  const replied = c.read().finally(() => {
    reply.came = true;
  });
  replied.catch(() => undefined);
  try {
    try {
      await unlessLost(c.send(headerPdu));
      const fh = await open(path, 'r');
      try {
        // The next PDU is read from the file while this one is sent: one read at a time, one send
        // at a time, but the two overlap (the file's latency was the transfer's pace, issue 17).
        const readAt = (at: number): Promise<{ buf: Uint8Array; bytesRead: number }> => {
          const buf = new Uint8Array(Math.min(FILE_PDU_MAX, header.size - at));
          return fh.read(buf, 0, buf.length, at).then(({ bytesRead }) => ({ buf, bytesRead }));
        };
        let sent = 0;
        let next = header.size > 0 ? readAt(0) : null;
        while (next !== null && !reply.came) {
          const { buf, bytesRead } = await next;
          if (bytesRead === 0) throw new Error(`${path} ended after ${sent} of ${header.size} bytes`);
          const after = sent + bytesRead;
          next = after < header.size ? readAt(after) : null;
          // A read left behind when the loop ends early (a loss, an answer) settles before close.
          next?.catch(() => undefined);
          await unlessLost(c.send(buf.subarray(0, bytesRead)));
          sent = after;
        }
      } finally {
        await fh.close();
      }
    } catch (e) {
      // A loss says why, whatever failed with it (the stream it closed).
      if (loss.happened()) return await loss.lost;
      // A receiver that answered and closed makes the next send fail: its answer says why.
      if (!reply.came) throw e;
    }
    const answer = await unlessLost(withTimeout(replied, opts.resultTimeoutMs ?? 30_000, 'no result from the receiver'));
    if (answer === null) throw new Error(`node ${to} closed the conduit without a result`);
    const r = decodeFileResult(answer);
    if (!r.ok) throw new Error(`node ${to} answered with something else than a result: ${r.error}`);
    return { ...header, to, ms: Date.now() - started, result: r.value };
  } finally {
    loss.stop();
    // After a loss the peer may be gone: its CLOSE is not waited for long.
    if (loss.happened()) await withTimeout(c.close(), LOSS_CLOSE_MS, 'no close').catch(() => undefined);
    else await c.close();
  }
}

// The receiving side, for the importers of file transfer as one module (index.ts, control-server.ts).
export { isFileTransfer, receiveFile } from './api-file-receive.ts';
export type { FileReceived, ReceiveFileOptions } from './api-file-receive.ts';
export { lossText } from './api-file-wait.ts';
