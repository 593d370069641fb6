import { RegisterError } from '../registers/errors.ts';
import type { RegisterSpace } from '../registers/space.ts';
import type { ReadOutput, ReadResultInput } from '../session/discovery-types.ts';
import { attempt } from '../wire/errors.ts';
import { maintenanceReadRequest, maintenanceResponseTo } from '../wire/type8-build.ts';
import { MAINTENANCE_STATUS, isMaintenanceSize } from '../wire/type8.ts';
import type { Type8ReadRequest, Type8Response, Type8WriteRequest } from '../wire/type8.ts';

/**
 * Type 8 MAINTENANCE at an end point (Part 1 §4.1.10, Part 3 §2.5), both ways:
 *
 * - `answerMaintenance`: a read or write request from the network, served from the end point's
 *   own configuration space. Part 1 §4.1.10: "Maintenance transactions ... access CARs and CSRs"
 *   in "a word, a double-word or multiple double-word quantities up to a limit of 64 bytes"; a
 *   request the space cannot serve (another size, misaligned, beyond the space) is answered with
 *   status ERROR (Table 4-7 "0b0111 ERROR: Unrecoverable error detected").
 * - `MaintenanceReads`: discovery's register reads (`read` outputs of `SessionDiscovery`) as read
 *   requests, each under a transaction ID, and the responses matched back to the reads.
 */

export type MaintenanceAnswer =
  | { readonly ok: true; readonly response: Type8Response }
  /** Answered ERROR; `response` is undefined when not even an ERROR response can be built for the request. */
  | { readonly ok: false; readonly response: Type8Response | undefined; readonly reason: string };

function registerAccess(fn: () => Uint8Array | undefined): { ok: true; data: Uint8Array | undefined } | { ok: false; reason: string } {
  try {
    return { ok: true, data: fn() };
  } catch (e) {
    // The register layer throws RegisterError only, for accesses no MAINTENANCE transaction can express.
    if (e instanceof RegisterError) return { ok: false, reason: e.message };
    throw e;
  }
}

/**
 * The write's data. A word write carries a double-word with the word in the lane wdptr names
 * (Part 1 Table 4-4); a double-word write up to wrsize "may not exceed that size but may be smaller".
 */
function writeData(req: Type8WriteRequest): Uint8Array | string {
  const n = req.payload.length;
  const count = req.byteCount;
  if (count === 4) return n === 8 ? req.payload.subarray(req.wdptr * 4, req.wdptr * 4 + 4) : `a word write carries a double-word, not ${n} bytes`;
  if (n === 0 || n % 8 !== 0 || typeof count !== 'number' || n > count) return `${n} bytes of data do not fit a write of ${String(count)} bytes`;
  return req.payload;
}

function errorResponse(req: Type8ReadRequest | Type8WriteRequest, reason: string): MaintenanceAnswer {
  const r = attempt(() => maintenanceResponseTo(req, { status: MAINTENANCE_STATUS.error }));
  return { ok: false, response: r.ok ? r.value : undefined, reason };
}

/** The response to a MAINTENANCE read or write request addressed to this end point. Never throws on what the request holds. */
export function answerMaintenance(space: RegisterSpace, req: Type8ReadRequest | Type8WriteRequest): MaintenanceAnswer {
  const count = req.byteCount;
  if (!isMaintenanceSize(count) || typeof count !== 'number') return errorResponse(req, `${String(count)} bytes: maintenance accesses are a word or 1–8 double-words (Part 1 §4.1.10)`);
  let access: ReturnType<typeof registerAccess>;
  if (req.transactionName === 'MAINTENANCE_READ_REQUEST') {
    access = registerAccess(() => space.read(req.byteOffset, count));
  } else {
    const data = writeData(req);
    if (typeof data === 'string') return errorResponse(req, data);
    access = registerAccess(() => {
      space.write(req.byteOffset, data);
      return undefined;
    });
  }
  if (!access.ok) return errorResponse(req, access.reason);
  const data = access.data;
  const r = attempt(() => maintenanceResponseTo(req, data === undefined ? {} : { data }));
  return r.ok ? { ok: true, response: r.value } : errorResponse(req, r.error.message);
}

// ---- Reads on behalf of discovery ------------------------------------------------------------

/** Part 1 §4.1.10: srcTID is 8 bits. */
const TIDS = 256;

interface ReadInFlight {
  readonly tag: number;
  readonly node: number;
  readonly offset: number;
  /** When the read is given up (discovery's own read timeout). */
  readonly until: number;
}

export interface ReadsConfig {
  readonly nodeId: number;
  readonly tt: number;
  /** How long a read may wait: the discovery engine's readTimeout. */
  readonly readTimeout: number;
}

export type ReadRequestResult = { readonly ok: true; readonly packet: Type8ReadRequest } | { readonly ok: false; readonly error: string };

/**
 * Discovery's reads in flight, by transaction ID. IDs are handed out round robin, so an ID comes
 * back into use only after every other one: a response arriving after its read was given up is
 * then unlikely to meet a new read under the same ID (Part 1 §4.1.10: the targetTID of a response
 * is the srcTID of its request, the only link between them).
 */
export class MaintenanceReads {
  readonly #config: ReadsConfig;
  readonly #byTid = new Map<number, ReadInFlight>();
  #next = 0;

  constructor(config: ReadsConfig) {
    this.#config = config;
  }

  /** A word read of `read.offset` at `read.node` with `read.hop` as hop_count (Part 3 §2.5). */
  request(read: ReadOutput, now: number): ReadRequestResult {
    const tid = this.#freeTid();
    if (tid === undefined) return { ok: false, error: `all ${TIDS} transaction IDs are in flight` };
    const c = this.#config;
    const built = attempt(() => maintenanceReadRequest({ tt: c.tt, destinationID: read.node, sourceID: c.nodeId, hopCount: read.hop, srcTID: tid, byteOffset: read.offset, byteCount: 4 }));
    if (!built.ok) return { ok: false, error: built.error.message };
    this.#byTid.set(tid, { tag: read.tag, node: read.node, offset: read.offset, until: now + c.readTimeout });
    this.#next = (tid + 1) % TIDS;
    return { ok: true, packet: built.value };
  }

  /** The read result a response answers, or undefined when it answers no read in flight. */
  response(p: Type8Response): ReadResultInput | undefined {
    const r = this.#byTid.get(p.targetTID);
    if (r === undefined || r.node !== p.sourceID || p.transactionName !== 'MAINTENANCE_READ_RESPONSE') return undefined;
    this.#byTid.delete(p.targetTID);
    if (p.status !== MAINTENANCE_STATUS.done) return { kind: 'read-result', tag: r.tag, error: `MAINTENANCE read response status ${p.statusName} (${p.status})` };
    // Table 4-3: a word read (rdsize 0b1000) returns its word in the lane wdptr names.
    const lane = ((r.offset >>> 2) & 1) * 4;
    if (p.payload.length < 8) return { kind: 'read-result', tag: r.tag, error: `MAINTENANCE read response carries ${p.payload.length} bytes, not a double-word` };
    const value = new DataView(p.payload.buffer, p.payload.byteOffset + lane, 4).getUint32(0);
    return { kind: 'read-result', tag: r.tag, value };
  }

  /** Forgets reads whose time is up (their discovery read timed out); their IDs become free. */
  expire(now: number): void {
    for (const [tid, r] of this.#byTid) if (r.until <= now) this.#byTid.delete(tid);
  }

  get inFlight(): number {
    return this.#byTid.size;
  }

  snapshot(): { readonly next: number; readonly inFlight: readonly { readonly tid: number; readonly tag: number; readonly node: number; readonly offset: number; readonly until: number }[] } {
    return { next: this.#next, inFlight: [...this.#byTid].sort((a, b) => a[0] - b[0]).map(([tid, r]) => ({ tid, ...r })) };
  }

  #freeTid(): number | undefined {
    for (let i = 0; i < TIDS; i++) {
      const tid = (this.#next + i) % TIDS;
      if (!this.#byTid.has(tid)) return tid;
    }
    return undefined;
  }
}
