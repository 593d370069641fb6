/**
 * The process side of the application's MAINTENANCE reads (`readRegister`): the transaction IDs
 * and matching of api-reads.ts, plus the promises waiting for an answer and their timeouts (a
 * timer `read:<tid>` of the process's TimerDriver).
 */
import type { Time, TimerOutput } from '../engine/contract.ts';
import type { Packet } from '../wire/packet.ts';
import type { Type8ReadRequest, Type8Response } from '../wire/type8.ts';
import { AppReads } from './api-reads.ts';
import type { AppReadsConfig } from './api-reads.ts';
import type { ApiCounter } from './api-types.ts';

export interface ReadPortHost {
  now(): Time;
  /** Queues the request for the link. */
  send(p: Packet): void;
  timer(t: TimerOutput): void;
  count(name: ApiCounter): void;
}

const PREFIX = 'read:';

export class ReadPort {
  readonly #reads: AppReads;
  readonly #host: ReadPortHost;
  readonly #timeout: Time;
  readonly #waiters = new Map<number, { resolve(v: number): void; reject(e: Error): void }>();
  readonly #timeoutMs: number;

  /** `timeoutMs`: how long a read waits (`api.readTimeoutMs`); the host's time is in ns. */
  constructor(config: AppReadsConfig, timeoutMs: number, host: ReadPortHost) {
    this.#reads = new AppReads(config);
    this.#host = host;
    this.#timeoutMs = timeoutMs;
    this.#timeout = timeoutMs * 1_000_000;
  }

  /** A word read of `offset` at `to` with hop_count `hop`; with `data`, a word write of it (resolves 0). */
  read(to: number, hop: number, offset: number, data?: number): Promise<number> {
    const now = this.#host.now();
    const r = this.#reads.request(to, hop, offset, now, this.#timeout, data);
    if (!r.ok) return Promise.reject(new Error(r.error));
    this.#host.count('readRequests');
    const p = new Promise<number>((resolve, reject) => this.#waiters.set(r.tid, { resolve, reject }));
    this.#host.timer({ kind: 'timer', name: `${PREFIX}${r.tid}`, at: now + this.#timeout });
    this.#host.send(r.packet);
    return p;
  }

  /** A read request of the engine on its way out (its transaction ID is taken). */
  engineRequest(p: Type8ReadRequest): void {
    if (this.#reads.engineRequest(p, this.#host.now())) this.#host.count('tidCollisions');
  }

  /** A received MAINTENANCE response: true when it was ours only (the engine must not see it). */
  response(p: Type8Response): boolean {
    const a = this.#reads.response(p, this.#host.now());
    if (!a.mine) return false;
    this.#answer(a.tid, 'value' in a ? a.value : new Error(a.error));
    return !('toEngine' in a && a.toEngine);
  }

  /** A process timer: true when it was a read's (then timed out if still waiting). */
  timer(name: string): boolean {
    if (!name.startsWith(PREFIX)) return false;
    const tid = Number(name.slice(PREFIX.length));
    if (this.#reads.cancel(tid)) {
      this.#host.count('readTimeouts');
      this.#answer(tid, new Error(`no MAINTENANCE response within ${this.#timeoutMs} ms`));
    }
    return true;
  }

  /** Every read in flight fails (the link went down, the end point closed). */
  failAll(why: string): void {
    for (const [tid, w] of this.#waiters) {
      this.#reads.cancel(tid);
      this.#host.timer({ kind: 'timer', name: `${PREFIX}${tid}`, at: null });
      w.reject(new Error(why));
    }
    this.#waiters.clear();
  }

  #answer(tid: number, v: number | Error): void {
    const w = this.#waiters.get(tid);
    if (w === undefined) return;
    this.#waiters.delete(tid);
    this.#host.timer({ kind: 'timer', name: `${PREFIX}${tid}`, at: null });
    if (typeof v === 'number') {
      this.#host.count('readResponses');
      w.resolve(v);
    } else {
      this.#host.count('readErrors');
      w.reject(v);
    }
  }
}
