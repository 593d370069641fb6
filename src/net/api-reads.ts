/**
 * The application's MAINTENANCE reads (`readRegister`, `riodp read-reg`). The end point engine
 * has no input for them (its MAINTENANCE reads are discovery's), so the process builds the read
 * request itself and takes the matching response off the link before the engine sees it.
 *
 * Part 1 §4.1.10: "the targetTID of a response is the srcTID of its request", 8 bits, the only
 * link between them; and the response to a read of a switch at hop_count 0 comes from the switch,
 * not from the destinationID asked (Part 3 §2.5), so a response is matched by its targetTID alone.
 * The engine's reads share the 256 IDs. It hands them out round robin (maintenance.ts), so this
 * side takes the ID half way round from the engine's next one and never one the engine has in
 * flight (seen as its requests leave); should the engine still pick an ID a read of ours holds,
 * the response cannot be told apart: it goes to the engine and our read fails ('collision').
 */
import type { Time } from '../engine/contract.ts';
import { attempt } from '../wire/errors.ts';
import { maintenanceReadRequest, maintenanceWriteRequest } from '../wire/type8-build.ts';
import { MAINTENANCE_STATUS } from '../wire/type8.ts';
import type { Type8ReadRequest, Type8Response, Type8WriteRequest } from '../wire/type8.ts';

const TIDS = 256;

interface MyRead {
  readonly tid: number;
  readonly offset: number;
  readonly until: Time;
  /** A word write (the liveness check's route lookup, api-port-check.ts), answered by a write response. */
  readonly write: boolean;
  collided: boolean;
}

export type ReadStart = { readonly ok: true; readonly tid: number; readonly packet: Type8ReadRequest | Type8WriteRequest } | { readonly ok: false; readonly error: string };

/** What a received MAINTENANCE response is: not ours (to the engine), or the outcome of one of our reads. */
export type ReadAnswer =
  | { readonly mine: false }
  | { readonly mine: true; readonly tid: number; readonly value: number }
  | { readonly mine: true; readonly tid: number; readonly error: string; readonly toEngine: boolean };

export interface AppReadsConfig {
  readonly nodeId: number;
  readonly tt: 0 | 1;
  /** How long the engine's own reads wait (its discovery readTimeout), after which their IDs are free again. */
  readonly engineReadTimeout: Time;
}

export class AppReads {
  readonly #config: AppReadsConfig;
  readonly #mine = new Map<number, MyRead>();
  /** The engine's reads in flight: ID → when the engine gives it up. */
  readonly #engine = new Map<number, Time>();
  #engineNext = 0;

  constructor(config: AppReadsConfig) {
    this.#config = config;
  }

  get inFlight(): number {
    return this.#mine.size;
  }

  /** A read request of the engine on its way out. True when it takes an ID a read of ours holds. */
  engineRequest(p: Type8ReadRequest, now: Time): boolean {
    this.#expireEngine(now);
    this.#engine.set(p.srcTID, now + this.#config.engineReadTimeout);
    this.#engineNext = (p.srcTID + 1) % TIDS;
    const mine = this.#mine.get(p.srcTID);
    if (mine === undefined) return false;
    mine.collided = true;
    return true;
  }

  /**
   * A word read of `offset` at `to` with `hop` as hop_count; `timeout` in the same unit as `now`.
   * With `data`: a word write of it instead (same IDs and matching; answered with value 0).
   */
  request(to: number, hop: number, offset: number, now: Time, timeout: Time, data?: number): ReadStart {
    this.#expireEngine(now);
    const tid = this.#freeTid();
    if (tid === undefined) return { ok: false, error: `all ${TIDS} transaction IDs are in flight` };
    const c = this.#config;
    const a = { tt: c.tt, destinationID: to, sourceID: c.nodeId, hopCount: hop, srcTID: tid, byteOffset: offset };
    const built = attempt((): Type8ReadRequest | Type8WriteRequest => data === undefined
      ? maintenanceReadRequest({ ...a, byteCount: 4 })
      : maintenanceWriteRequest({ ...a, data: Uint8Array.of(data >>> 24, (data >>> 16) & 0xff, (data >>> 8) & 0xff, data & 0xff) }));
    if (!built.ok) return { ok: false, error: built.error.message };
    this.#mine.set(tid, { tid, offset, until: now + timeout, write: data !== undefined, collided: false });
    return { ok: true, tid, packet: built.value };
  }

  /** Gives up a read (its time is up); true when it was still in flight. */
  cancel(tid: number): boolean {
    return this.#mine.delete(tid);
  }

  /** A received MAINTENANCE response: ours, or the engine's to pass on. */
  response(p: Type8Response, now: Time): ReadAnswer {
    const mine = this.#mine.get(p.targetTID);
    const expected = mine?.write === true ? 'MAINTENANCE_WRITE_RESPONSE' : 'MAINTENANCE_READ_RESPONSE';
    if (mine === undefined || p.transactionName !== expected || mine.until < now) {
      if (this.#engine.get(p.targetTID) !== undefined) this.#engine.delete(p.targetTID);
      return { mine: false };
    }
    this.#mine.delete(p.targetTID);
    if (mine.collided) {
      this.#engine.delete(p.targetTID);
      return { mine: true, tid: mine.tid, error: `transaction ID ${mine.tid} was taken by the end point's own read meanwhile; try again`, toEngine: true };
    }
    if (p.status !== MAINTENANCE_STATUS.done) return { mine: true, tid: mine.tid, error: `MAINTENANCE ${mine.write ? 'write' : 'read'} response status ${p.statusName} (${p.status})`, toEngine: false };
    if (mine.write) return { mine: true, tid: mine.tid, value: 0 };
    // Part 1 Table 4-3: a word read returns its word in the lane wdptr names.
    const lane = ((mine.offset >>> 2) & 1) * 4;
    if (p.payload.length < 8) return { mine: true, tid: mine.tid, error: `MAINTENANCE read response carries ${p.payload.length} bytes, not a double-word`, toEngine: false };
    const value = new DataView(p.payload.buffer, p.payload.byteOffset + lane, 4).getUint32(0);
    return { mine: true, tid: mine.tid, value };
  }

  #expireEngine(now: Time): void {
    for (const [tid, until] of this.#engine) if (until <= now) this.#engine.delete(tid);
  }

  #freeTid(): number | undefined {
    const start = (this.#engineNext + TIDS / 2) % TIDS;
    for (let i = 0; i < TIDS; i++) {
      const tid = (start + i) % TIDS;
      if (!this.#mine.has(tid) && !this.#engine.has(tid)) return tid;
    }
    return undefined;
  }
}
