import type { Rng } from '../kernel/random.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import { OutputArbiters } from './arbiters.ts';
import { Islip } from './islip.ts';
import type { ResolvedSwitchConfig } from './switch-config.ts';
import { priorityAllowed } from './switch-stages.ts';
import type { InputStage, OutputStage } from './switch-stages.ts';
import { CLASSES, classOf } from './switch-voq.ts';
import type { SimPacket } from './types.ts';

/** What the crossbar needs of its switch. */
export interface CrossbarHost {
  /** A transfer ended: the packet is in output o's queue. */
  delivered(o: number, p: SimPacket, now: number): void;
  /** Input i's packet has left its buffer (credit goes back). */
  released(i: number, p: SimPacket, now: number): void;
  /** Output o may have something to send now. */
  kickOutput(o: number, now: number): void;
  /** A transfer started. */
  transferred(): void;
  /** The end of a decision; `atSlot` when it fell on a slot boundary (slotted operation). */
  afterDecide(now: number, atSlot: boolean): void;
  /** Whether the switch holds credits for the next slot boundary. */
  hasPendingCredits(): boolean;
  /** Whether output o's queue has room for `p` (its capacity counts per staging queue with VoQ staging). */
  hasRoom(o: number, p: SimPacket): boolean;
}

const XFER_DONE = 0;
const TICK = 1;
const DECIDE = 2;

/**
 * The switch fabric between input buffers and outputs (issue 7 §2 "crossbar speedup S (a transfer
 * from input to output takes packetTime/S of the output link; an input sends one packet at a time
 * and an output receives one at a time)").
 *
 * Decisions are taken in a DECIDE event that runs after the other events of its instant, so that
 * every arrival and every completed transfer of that instant is seen together:
 * - unslotted: as soon as something changes (an arrival, a transfer's end, room in a full output
 *   queue, an idle output link with no output queue);
 * - slotted (`slot`): at multiples of the crossbar slot slot / S only (Karol et al. 1987 and
 *   McKeown 1999 analyse cell switches whose decisions happen once per cell time, S times with
 *   speedup S); a transfer occupies whole crossbar slots, and output links start packets at
 *   multiples of `slot` only. A TICK at the boundary schedules the DECIDE for the same instant.
 *
 * With `outputQueue: 0` (input-queued modes) an output has no queue: the crossbar connects an
 * input to an idle output link whose receiver has a buffer for the packet's priority, and the
 * packet crosses as it is sent (the input is busy for the packet's wire time; speedup does not
 * apply).
 */
export class Crossbar implements Target {
  readonly #sched: Scheduler;
  readonly #cfg: ResolvedSwitchConfig;
  readonly #inputs: readonly InputStage[];
  readonly #outputs: readonly OutputStage[];
  readonly #host: CrossbarHost;
  readonly #arbiters: OutputArbiters | null;
  readonly #islip: Islip | null;
  readonly #n: number;
  readonly #capacity: number;
  readonly #slot: number;
  readonly #xslot: number;
  /** FIFO modes: requesting inputs per output, [o × n + k], and their counts. */
  readonly #reqList: Int32Array;
  readonly #reqCount: Int32Array;
  /** The queue each requesting input would send from. */
  readonly #candidate: Int32Array;
  /** iSLIP request levels [i × n + o] and the matching. */
  readonly #requests: Int8Array;
  readonly #match: Int32Array;
  readonly #outputMatched: Uint8Array;
  /** Packets waiting at inputs (not crossing). */
  #waiting = 0;
  /** Inputs that are free and hold a waiting packet: only these can make a decision do anything. */
  #ready = 0;
  #decidePending = false;
  #tickPending = false;
  #lastDecideAt = -1;

  constructor(sched: Scheduler, cfg: ResolvedSwitchConfig, inputs: readonly InputStage[], outputs: readonly OutputStage[], host: CrossbarHost, rng: Rng | undefined) {
    const n = cfg.ports;
    this.#sched = sched;
    this.#cfg = cfg;
    this.#inputs = inputs;
    this.#outputs = outputs;
    this.#host = host;
    this.#n = n;
    this.#capacity = cfg.outputQueue;
    this.#slot = cfg.slot ?? 0;
    // With no output queue a packet crosses as it goes on the link, at a slot boundary.
    this.#xslot = this.#capacity === 0 ? this.#slot : (cfg.crossbarSlot ?? 0);
    const voq = cfg.queueing === 'input-voq';
    this.#arbiters = voq ? null : new OutputArbiters(cfg.arbitration, n, n, rng);
    this.#islip = voq ? new Islip(n, 4, cfg.iterations) : null;
    this.#reqList = new Int32Array(voq ? 0 : n * n);
    this.#reqCount = new Int32Array(voq ? 0 : n);
    this.#candidate = new Int32Array(n);
    this.#requests = new Int8Array(voq ? n * n : 0);
    this.#match = new Int32Array(voq ? n : 0);
    this.#outputMatched = new Uint8Array(voq ? n : 0);
  }

  /** A packet for output o entered input `inp`'s buffer. */
  arrive(inp: InputStage, p: SimPacket, o: number, now: number): void {
    let q: number;
    if (inp.voqCounts !== null) {
      q = o * CLASSES + classOf(p);
      const k = o * 4 + p.prio;
      inp.voqCounts[k] = (inp.voqCounts[k] as number) + 1;
    } else {
      q = this.#cfg.queueing === 'input-fifo' ? 0 : p.prio;
      (inp.outs[q] as (typeof inp.outs)[number]).push(o);
    }
    (inp.queues[q] as (typeof inp.queues)[number]).push(p);
    inp.waiting++;
    this.#waiting++;
    if (inp.current === null && inp.waiting === 1) this.#ready++;
    if (this.#ready > 0) this.requestDecide(now);
  }

  /** Whether an output link may start a packet now (slotted: only at multiples of the slot). */
  mayTransmit(now: number): boolean {
    return this.#slot === 0 || now % this.#slot === 0;
  }

  /** An output queue has room again. */
  roomAt(now: number): void {
    if (this.#ready > 0) this.requestDecide(now);
  }

  /** An output link found nothing to send: with no output queue, the crossbar may now fill it. */
  outputIdle(now: number): void {
    if (this.#capacity === 0 && this.#ready > 0) this.requestDecide(now);
  }

  requestDecide(now: number): void {
    if (this.#decidePending || this.#tickPending) return;
    if (this.#xslot === 0) {
      this.#decidePending = true;
      this.#sched.schedule(now, this, DECIDE);
      return;
    }
    let at = Math.ceil(now / this.#xslot) * this.#xslot;
    if (at <= this.#lastDecideAt) at = this.#lastDecideAt + this.#xslot;
    this.#tickPending = true;
    this.#sched.schedule(at, this, TICK);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    switch (kind) {
      case XFER_DONE:
        this.#transferDone(data as number, now);
        return;
      case TICK:
        // Scheduled now, the DECIDE runs after every event already due at this instant.
        this.#tickPending = false;
        this.#decidePending = true;
        this.#sched.schedule(now, this, DECIDE);
        return;
      case DECIDE:
        this.#decide(now);
        return;
      default:
        throw new RangeError(`crossbar ${this.#cfg.name}: unknown event kind ${kind}`);
    }
  }

  snapshot(): Record<string, unknown> {
    return {
      waiting: this.#waiting,
      arbiter: this.#arbiters === null ? null : { policy: this.#arbiters.policy, pointers: this.#arbiters.pointers() },
      islip: this.#islip === null ? null : { grant: this.#islip.grantPointers(), accept: this.#islip.acceptPointers() },
    };
  }

  #decide(now: number): void {
    this.#decidePending = false;
    this.#lastDecideAt = now;
    const slotted = this.#slot !== 0;
    const atSlot = this.mayTransmit(now);
    let wanting = false;
    for (const out of this.#outputs) {
      if (!out.wantsSlot) continue;
      if (atSlot) {
        out.wantsSlot = false;
        this.#host.kickOutput(out.index, now);
      } else wanting = true;
    }
    // iSLIP can leave an input and an output that want each other unmatched (its iterations ran
    // out): they try again at the next decision, the next crossbar slot or, unslotted, at once.
    // Every other wait ends with an event that asks for a decision (a transfer's end, room in a
    // queue, an idle link, a credit).
    const leftover = this.#ready > 0 && (this.#islip !== null ? this.#matchIslip(now, atSlot) : this.#matchFifo(now, atSlot));
    this.#host.afterDecide(now, atSlot);
    if (leftover || (slotted && (wanting || this.#host.hasPendingCredits()))) this.requestDecide(now);
  }

  /** Whether output o can take packet `p` across the crossbar now (the iSLIP requests name only a priority, `p` null). */
  #accepts(o: number, prio: number, p: SimPacket | null, atSlot: boolean): boolean {
    const out = this.#outputs[o] as OutputStage;
    const ch = out.outChannel;
    if (ch === undefined) return false;
    if (this.#capacity > 0) return !out.receiving && (p === null ? out.dataCount < this.#capacity : this.#host.hasRoom(o, p));
    return atSlot && out.register === null && out.controlCount === 0 && ch.idle && priorityAllowed(prio, ch.free, ch.rxSpec.reservePerPriority);
  }

  /**
   * 'input-fifo', 'output-queued', 'cioq-voq-backpressure': each free input offers one packet (its
   * FIFO's head; with a FIFO per priority, the highest-priority head whose output can take it) and
   * each output with offers takes one by its arbitration policy.
   */
  #matchFifo(now: number, atSlot: boolean): boolean {
    const n = this.#n;
    const reqCount = this.#reqCount;
    reqCount.fill(0);
    for (const inp of this.#inputs) {
      if (inp.current !== null || inp.waiting === 0) continue;
      for (let q = inp.queues.length - 1; q >= 0; q--) {
        const head = (inp.queues[q] as (typeof inp.queues)[number]).peek();
        if (head === undefined) continue;
        const o = (inp.outs[q] as (typeof inp.outs)[number]).peek() as number;
        if (!this.#accepts(o, head.prio, head, atSlot)) continue;
        this.#reqList[o * n + (reqCount[o] as number)] = inp.index;
        reqCount[o] = (reqCount[o] as number) + 1;
        this.#candidate[inp.index] = q;
        break;
      }
    }
    const arbiters = this.#arbiters as OutputArbiters;
    for (let o = 0; o < n; o++) {
      const k = reqCount[o] as number;
      if (k === 0) continue;
      const i = arbiters.pick(o, this.#reqList, o * n, k);
      this.#start(this.#inputs[i] as InputStage, this.#candidate[i] as number, o, now);
    }
    // Every output with an offer took one.
    return false;
  }

  /** 'input-voq': iSLIP over the virtual output queues, priority levels 3 … 0. Returns whether a request between an unmatched input and output is left. */
  #matchIslip(now: number, atSlot: boolean): boolean {
    const n = this.#n;
    const req = this.#requests;
    req.fill(-1);
    for (const inp of this.#inputs) {
      if (inp.current !== null || inp.waiting === 0) continue;
      const counts = inp.voqCounts as Int32Array;
      for (let o = 0; o < n; o++) {
        for (let p = 3; p >= 0; p--) {
          if (counts[o * 4 + p] === 0 || !this.#accepts(o, p, null, atSlot)) continue;
          req[inp.index * n + o] = p;
          break;
        }
      }
    }
    const islip = this.#islip as Islip;
    const match = this.#match;
    if (islip.match(req, match) === 0) return false;
    const outputMatched = this.#outputMatched;
    outputMatched.fill(0);
    for (let i = 0; i < n; i++) if ((match[i] as number) >= 0) outputMatched[match[i] as number] = 1;
    let leftover = false;
    for (let i = 0; i < n && !leftover; i++) {
      if (match[i] !== -1) continue;
      for (let o = 0; o < n; o++) {
        if (outputMatched[o] === 0 && (req[i * n + o] as number) >= 0) {
          leftover = true;
          break;
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const o = match[i] as number;
      if (o < 0) continue;
      const inp = this.#inputs[i] as InputStage;
      const p = req[i * n + o] as number;
      const crf1 = o * CLASSES + p * 2 + 1;
      const q = (inp.queues[crf1] as (typeof inp.queues)[number]).length > 0 ? crf1 : crf1 - 1;
      this.#start(inp, q, o, now);
    }
    return leftover;
  }

  #start(inp: InputStage, q: number, o: number, now: number): void {
    const p = (inp.queues[q] as (typeof inp.queues)[number]).shift() as SimPacket;
    if (inp.voqCounts !== null) inp.voqCounts[o * 4 + p.prio] = (inp.voqCounts[o * 4 + p.prio] as number) - 1;
    else (inp.outs[q] as (typeof inp.outs)[number]).shift();
    inp.waiting--;
    this.#waiting--;
    this.#ready--;
    inp.current = p;
    inp.currentOut = o;
    this.#host.transferred();
    const out = this.#outputs[o] as OutputStage;
    const ch = out.outChannel as NonNullable<OutputStage['outChannel']>;
    const wire = ch.packetTime(p.bytes);
    let duration: number;
    if (this.#capacity === 0) {
      out.register = p;
      duration = wire;
      this.#host.kickOutput(o, now);
    } else {
      out.receiving = true;
      duration = this.#slot === 0 ? Math.ceil(wire / this.#cfg.speedup) : Math.ceil(wire / this.#slot) * this.#xslot;
    }
    this.#sched.schedule(now + duration, this, XFER_DONE, inp.index);
  }

  #transferDone(i: number, now: number): void {
    const inp = this.#inputs[i] as InputStage;
    const p = inp.current as SimPacket;
    const o = inp.currentOut;
    inp.current = null;
    inp.currentOut = -1;
    this.#host.released(i, p, now);
    if (this.#capacity > 0) {
      (this.#outputs[o] as OutputStage).receiving = false;
      this.#host.delivered(o, p, now);
    }
    if (inp.waiting > 0) this.#ready++;
    if (this.#ready > 0) this.requestDecide(now);
  }
}
