/**
 * Moving files with riodp's file-transfer protocol (api-file-format.ts) over an end point's API:
 * `sendFile` (what `riodp send` asks the end point process to do) and `receiveFile` (what it does
 * for `riodp recv` with each file-transfer conduit a peer opens).
 *
 * The sender hashes the file first (the header carries its SHA-256), then sends it in 64 KiB
 * PDUs, each `send` waiting for flow control (api-stream.ts), and waits for the receiver's result
 * PDU; then it closes the conduit. The receiver writes to a temporary file beside the target,
 * checks size and SHA-256, renames it into place (or removes it) and answers with the result; the
 * sender closes, so the result cannot be overtaken by the CLOSE (a high-priority message,
 * Annex 2 §3.7.2, goes ahead of data).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import {
  FILE_PDU_MAX, FILE_TRANSFER_ATTRIBUTES, FILE_TRANSFER_NAME, FILE_TRANSFER_PROTO_ID, decodeFileHeader, decodeFileResult, encodeFileHeader, encodeFileResult,
  safeFileName,
} from './api-file-format.ts';
import type { FileHeader, FileResult, FileStatusName } from './api-file-format.ts';
import type { RiodpEndpoint, Stream } from './api-types.ts';
import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';

export interface FileSent extends FileHeader {
  readonly to: number;
  readonly ms: number;
  readonly result: FileResult;
}

export interface FileReceived {
  readonly from: number;
  readonly status: FileStatusName;
  readonly text: string;
  /** From the header; empty when there was no valid header. */
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  /** Where the file was written (status ok only). */
  readonly path: string | null;
  readonly ms: number;
}

export interface SendFileOptions {
  /** The name the receiver writes; default the file's own name. */
  readonly name?: string;
  readonly hop?: number;
  /** How long to wait for the receiver's result after the last PDU. Default 30 000 ms. */
  readonly resultTimeoutMs?: number;
}

/** SHA-256 of a file, hex. */
export async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} within ${ms} ms`));
    }, ms);
  });
  return Promise.race([p, t]).finally(() => {
    clearTimeout(timer);
  });
}

export async function sendFile(ep: RiodpEndpoint, to: number, path: string, opts: SendFileOptions = {}): Promise<FileSent> {
  const started = Date.now();
  const st = await stat(path);
  if (!st.isFile()) throw new Error(`${path} is not a file`);
  const header: FileHeader = { name: opts.name ?? basename(path), size: st.size, sha256: await fileSha256(path) };
  const headerPdu = encodeFileHeader(header);
  const c = await ep.openConduit({ to, protoID: FILE_TRANSFER_PROTO_ID, attributes: FILE_TRANSFER_ATTRIBUTES, ...(opts.hop === undefined ? {} : { hop: opts.hop }) });
  try {
    await c.send(headerPdu);
    const fh = await open(path, 'r');
    try {
      let sent = 0;
      while (sent < header.size) {
        const buf = new Uint8Array(Math.min(FILE_PDU_MAX, header.size - sent));
        const { bytesRead } = await fh.read(buf, 0, buf.length, sent);
        if (bytesRead === 0) throw new Error(`${path} ended after ${sent} of ${header.size} bytes`);
        await c.send(buf.subarray(0, bytesRead));
        sent += bytesRead;
      }
    } finally {
      await fh.close();
    }
    const reply = await withTimeout(c.read(), opts.resultTimeoutMs ?? 30_000, 'no result from the receiver');
    if (reply === null) throw new Error(`node ${to} closed the conduit without a result`);
    const r = decodeFileResult(reply);
    if (!r.ok) throw new Error(`node ${to} answered with something else than a result: ${r.error}`);
    return { ...header, to, ms: Date.now() - started, result: r.value };
  } finally {
    await c.close();
  }
}

/** Whether a stream a peer opened carries the file-transfer protocol (§6.2: VENDOR and PROTOCOL_NAME). */
export function isFileTransfer(s: Stream): boolean {
  if (s.protoID !== FILE_TRANSFER_PROTO_ID) return false;
  const name = s.attributes.find((a) => a.id === ATTRIBUTE_ID.PROTOCOL_NAME);
  return name === undefined || Buffer.from(name.value).toString('latin1').replace(/\0+$/, '') === FILE_TRANSFER_NAME;
}

export interface ReceiveFileOptions {
  /** How long to wait for the sender's CLOSE after the result. Default 10 000 ms. */
  readonly closeTimeoutMs?: number;
}

/** Receives one file from a file-transfer conduit into `dir`; never throws for what the peer sent. */
export async function receiveFile(s: Stream, dir: string, opts: ReceiveFileOptions = {}): Promise<FileReceived> {
  const started = Date.now();
  const done = async (status: FileStatusName, text: string, h: FileHeader | null, path: string | null): Promise<FileReceived> => {
    const result = { status, text };
    if (s.tx !== null && !s.closed) {
      try {
        await s.send(encodeFileResult(result));
        // Data after the result is not the protocol's; the sender closes.
        await withTimeout((async () => { while ((await s.read()) !== null); })(), opts.closeTimeoutMs ?? 10_000, 'no CLOSE');
      } catch {
        // The peer is gone or silent: the conduit is closed from this side below.
      }
    }
    await s.close().catch(() => undefined);
    return { from: s.remote, status, text, name: h?.name ?? '', size: h?.size ?? 0, sha256: h?.sha256 ?? '', path, ms: Date.now() - started };
  };
  const first = await s.read();
  if (first === null) return done('header', 'the conduit closed before a header', null, null);
  const decoded = decodeFileHeader(first);
  if (!decoded.ok) return done('header', decoded.error, null, null);
  const h = decoded.value;
  const name = safeFileName(h.name);
  if (name === undefined) return done('header', `unusable file name ${JSON.stringify(h.name)}`, h, null);
  const target = join(dir, name);
  const temp = join(dir, `.${name}.${randomBytes(4).toString('hex')}.part`);
  let fh: FileHandle;
  try {
    fh = await open(temp, 'wx');
  } catch (e) {
    return done('write', `cannot write in ${dir}: ${(e as Error).message}`, h, null);
  }
  const hash = createHash('sha256');
  let got = 0;
  let failure: { status: FileStatusName; text: string } | null = null;
  try {
    while (got < h.size) {
      const pdu = await s.read();
      if (pdu === null) {
        failure = { status: 'size', text: `the conduit closed after ${got} of ${h.size} bytes` };
        break;
      }
      if (got + pdu.length > h.size) {
        failure = { status: 'size', text: `more than the ${h.size} bytes the header announced` };
        break;
      }
      hash.update(pdu);
      await fh.write(pdu);
      got += pdu.length;
    }
  } catch (e) {
    failure = { status: 'write', text: (e as Error).message };
  } finally {
    await fh.close().catch(() => undefined);
  }
  const sha = hash.digest('hex');
  if (failure === null && sha !== h.sha256) failure = { status: 'checksum', text: `SHA-256 ${sha} differs from the header's ${h.sha256}` };
  if (failure === null) {
    try {
      await rename(temp, target);
    } catch (e) {
      failure = { status: 'write', text: (e as Error).message };
    }
  }
  if (failure !== null) {
    await unlink(temp).catch(() => undefined);
    return done(failure.status, failure.text, h, null);
  }
  return done('ok', `${h.size} bytes, SHA-256 checked`, h, target);
}
