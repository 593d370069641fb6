/**
 * The control channel of `riodp endpoint` (docs/fabric-api.md "Control protocol"): JSON lines over
 * a Unix domain socket. A client writes one request a line; the end point answers each with one
 * response line naming the request's `id`. `recv` subscribes: its first response acknowledges it,
 * then one `event` line per file received, until the client disconnects.
 *
 * ```
 * → {"id":1,"op":"status"}
 * ← {"id":1,"ok":true,"result":{...}}
 * → {"id":2,"op":"send-file","to":2,"path":"/abs/file.bin"}
 * ← {"id":2,"ok":true,"result":{"name":"file.bin","size":1048576,"sha256":"…","to":2,"ms":412,"result":{"status":"ok","text":"…"}}}
 * → {"id":3,"op":"recv","dir":"/abs/out","onExists":"rename","maxSize":4294967296}
 * ← {"id":3,"ok":true,"result":{"dir":"/abs/out","onExists":"rename","maxSize":4294967296,"staleParts":0}}
 * ← {"id":3,"event":"file","file":{"from":1,"status":"ok","name":"file.bin",…}}
 * → {"id":4,"op":"read-reg","to":2,"hop":255,"offset":96}
 * ← {"id":4,"ok":true,"result":{"value":16711682}}          (0x00FF0002: a Dev16 end point 2's Base Device ID CSR, Part 3 §3.5.1: Dev8 ID 0xFF, Dev16 ID 2)
 * → {"id":5,"op":"discover","node":2}
 * ← {"id":5,"ok":true,"result":[{"node":2,…}]}
 * ← {"id":null,"ok":false,"error":"line 1: not JSON"}      (a line that is not a request)
 * ```
 *
 * Bad input is normal input: a line that is not a request is answered with an error (`id` null
 * when it has none) and the connection is kept; a line longer than `MAX_LINE` bytes ends the
 * connection (the rest of it cannot be told from the next request).
 */
import { isAbsolute } from 'node:path';
import { ON_EXISTS } from './api-file-store.ts';
import type { OnExists } from './api-file-store.ts';
import type { FileReceived, FileSent } from './api-file.ts';
import type { EndpointStatus, Peer } from './api-types.ts';

/** Longest request line, bytes. */
export const MAX_LINE = 64 * 1024;

export type ControlRequest =
  | { readonly id: RequestId; readonly op: 'status' }
  | { readonly id: RequestId; readonly op: 'send-file'; readonly to: number; readonly path: string; readonly hop?: number }
  | { readonly id: RequestId; readonly op: 'recv'; readonly dir: string; readonly onExists?: OnExists; readonly maxSize?: number }
  | { readonly id: RequestId; readonly op: 'read-reg'; readonly to: number; readonly hop: number; readonly offset: number }
  | { readonly id: RequestId; readonly op: 'discover'; readonly node?: number; readonly hop?: number };

export type RequestId = number | string;

export const CONTROL_OPS = ['status', 'send-file', 'recv', 'read-reg', 'discover'] as const;
/** An operation of the control channel. */
export type ControlOp = (typeof CONTROL_OPS)[number];

/** The `result` each operation answers with. */
export interface ControlResults {
  /** The end point's `RiodpEndpoint.status()`. */
  readonly status: EndpointStatus;
  readonly 'send-file': FileSent;
  /** The subscription as taken, and the part files of dead processes removed from `dir`. */
  readonly recv: { readonly dir: string; readonly onExists: OnExists; readonly maxSize: number; readonly staleParts: number };
  readonly 'read-reg': { readonly value: number };
  readonly discover: Peer[];
}

export type ControlResponse =
  | { readonly id: RequestId | null; readonly ok: true; readonly result: ControlResults[ControlOp] }
  | { readonly id: RequestId | null; readonly ok: false; readonly error: string }
  | { readonly id: RequestId; readonly event: 'file'; readonly file: FileReceived };

export type Parsed = { readonly ok: true; readonly request: ControlRequest } | { readonly ok: false; readonly id: RequestId | null; readonly error: string };

function isId(v: unknown): v is RequestId {
  return (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && v.length <= 128);
}

function intIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** One request line, checked; never throws. */
export function parseRequest(line: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { ok: false, id: null, error: 'not JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, id: null, error: 'a request is a JSON object' };
  const r = v as Record<string, unknown>;
  if (!isId(r['id'])) return { ok: false, id: null, error: 'id must be an integer or a string of at most 128 characters' };
  const id = r['id'];
  const bad = (error: string): Parsed => ({ ok: false, id, error });
  switch (r['op']) {
    case 'status':
      return { ok: true, request: { id, op: 'status' } };
    case 'send-file': {
      if (!intIn(r['to'], 0, 0xffff)) return bad('to must be a device ID 0..65535');
      if (typeof r['path'] !== 'string' || !isAbsolute(r['path'])) return bad('path must be an absolute path');
      if (r['hop'] !== undefined && !intIn(r['hop'], 0, 255)) return bad('hop must be 0..255');
      return { ok: true, request: { id, op: 'send-file', to: r['to'], path: r['path'], ...(r['hop'] === undefined ? {} : { hop: r['hop'] }) } };
    }
    case 'recv': {
      if (typeof r['dir'] !== 'string' || !isAbsolute(r['dir'])) return bad('dir must be an absolute path');
      const onExists = r['onExists'];
      const maxSize = r['maxSize'];
      if (onExists !== undefined && !(ON_EXISTS as readonly unknown[]).includes(onExists)) return bad(`onExists must be one of ${ON_EXISTS.join(', ')}`);
      if (maxSize !== undefined && !intIn(maxSize, 0, Number.MAX_SAFE_INTEGER)) return bad(`maxSize must be an integer 0..${Number.MAX_SAFE_INTEGER} (bytes)`);
      return {
        ok: true,
        request: { id, op: 'recv', dir: r['dir'], ...(onExists === undefined ? {} : { onExists: onExists as OnExists }), ...(maxSize === undefined ? {} : { maxSize }) },
      };
    }
    case 'read-reg':
      if (!intIn(r['to'], 0, 0xffff)) return bad('to must be a device ID 0..65535');
      if (!intIn(r['hop'], 0, 255)) return bad('hop must be 0..255');
      if (!intIn(r['offset'], 0, 0xfffffc) || r['offset'] % 4 !== 0) return bad('offset must be a word-aligned byte offset 0..0xFFFFFC');
      return { ok: true, request: { id, op: 'read-reg', to: r['to'], hop: r['hop'], offset: r['offset'] } };
    case 'discover': {
      if (r['node'] !== undefined && !intIn(r['node'], 0, 0xffff)) return bad('node must be a device ID 0..65535');
      if (r['hop'] !== undefined && !intIn(r['hop'], 0, 255)) return bad('hop must be 0..255');
      const node = r['node'];
      const hop = r['hop'];
      return { ok: true, request: { id, op: 'discover', ...(node === undefined ? {} : { node }), ...(hop === undefined ? {} : { hop }) } };
    }
    default:
      return bad(`op must be one of ${CONTROL_OPS.join(', ')}`);
  }
}

/**
 * Splits a byte stream into lines: complete lines come out as strings, a partial line is kept.
 * `overflow` turns true (and stays) once a line passes `MAX_LINE` bytes without its newline.
 */
export class LineSplitter {
  #partial = '';
  overflow = false;

  push(chunk: string): string[] {
    if (this.overflow) return [];
    const parts = (this.#partial + chunk).split('\n');
    this.#partial = parts.pop() ?? '';
    if (Buffer.byteLength(this.#partial) > MAX_LINE) {
      this.overflow = true;
      this.#partial = '';
    }
    return parts.filter((l) => l.trim() !== '');
  }
}

/** JSON of a response: Uint8Arrays as hex, so that snapshots and results can be written as they are. */
export function responseLine(r: ControlResponse): string {
  return `${JSON.stringify(r, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))}\n`;
}
