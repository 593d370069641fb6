import { OutputArbiters, seededRandom } from './arbiters.ts';
import type { ArbiterRandom } from './arbiters.ts';
import type { ResolvedSwitchConfig } from './config.ts';
import type { SwitchCoreSnapshot } from './element-types.ts';
import { Islip } from './islip.ts';
import { Pim } from './pim.ts';
import type { VoqMatching } from './voq-matching.ts';
import { Wavefront } from './wavefront.ts';
import { classOf } from './packet.ts';
import type { SwitchPacket } from './packet.ts';
import type { ReadyInputs } from './ready-inputs.ts';
import type { InputStage } from './stages.ts';

/** What the matcher needs of the switch: whether an output can take a packet, and starting a transfer. */
export interface MatchHost<P extends SwitchPacket> {
  /** Whether output o can take `p` across the crossbar now (the iSLIP requests name only a priority, `p` null). */
  accepts(o: number, prio: number, p: P | null, atSlot: boolean): boolean;
  /** Moves the head of input `inp`'s queue `q` towards output `o`. */
  start(inp: InputStage<P>, q: number, o: number, now: number): void;
}

/**
 * The crossbar's decisions, without their timing (which is the host's): which input sends to
 * which output.
 * - 'input-fifo', 'output-queued', 'cioq-voq-backpressure': each free input offers one packet (its
 *   FIFO's head; with a FIFO per priority, the highest-priority head whose output can take it) and
 *   each output with offers takes one: of the highest class offered when the switch arbitrates by
 *   class, then by its arbitration policy (arbiters.ts).
 * - 'input-voq': the configured matcher over the virtual output queues, priority levels 3 … 0:
 *   iSLIP (islip.ts), PIM (pim.ts) or the wave front arbiter (wavefront.ts).
 */
export class Matcher<P extends SwitchPacket> {
  readonly #host: MatchHost<P>;
  readonly #n: number;
  readonly #byClass: boolean;
  readonly #arbiters: OutputArbiters | null;
  readonly #islip: Islip | null;
  readonly #voqMatching: VoqMatching | null;
  /** FIFO modes: requesting inputs per output, [o × n + k], their counts and the highest class among them. */
  readonly #reqList: Int32Array;
  readonly #reqCount: Int32Array;
  readonly #reqClass: Int32Array;
  readonly #topClass: Int32Array;
  /** The queue each requesting input would send from. */
  readonly #candidate: Int32Array;
  /** The ready inputs of a decision, ascending, and the outputs offered something (issue 20: a decision visits these, not every port). */
  readonly #readyList: Int32Array;
  readonly #offered: Int32Array;
  #offeredCount = 0;
  /** The matcher's request levels [i × n + o] and the matching. */
  readonly #requests: Int8Array;
  readonly #match: Int32Array;
  readonly #outputMatched: Uint8Array;

  /**
   * `hostRng`: the host's own stream for `random` and for PIM (the simulator's, seeded per
   * scenario); the configuration's seed comes first, seed 1 last.
   */
  constructor(cfg: ResolvedSwitchConfig, host: MatchHost<P>, hostRng: ArbiterRandom | undefined) {
    const n = cfg.ports;
    const voq = cfg.queueing === 'input-voq';
    // With 'input-voq' the resolver accepts `random` only with matcher pim (voq-matching.ts).
    const rng = cfg.arbitration === 'random' ? (cfg.seed !== null ? seededRandom(cfg.seed) : (hostRng ?? seededRandom(1))) : undefined;
    this.#host = host;
    this.#n = n;
    this.#byClass = cfg.byClass;
    this.#arbiters = voq ? null : new OutputArbiters(cfg.arbitration, n, n, rng, cfg.weights);
    this.#islip = voq && cfg.matcher === 'islip' ? new Islip(n, 4, cfg.iterations) : null;
    this.#voqMatching = !voq ? null
      : cfg.matcher === 'pim' ? new Pim(n, 4, cfg.iterations, rng as ArbiterRandom)
        : cfg.matcher === 'wavefront' ? new Wavefront(n, 4) : this.#islip;
    this.#reqList = new Int32Array(voq ? 0 : n * n);
    this.#reqCount = new Int32Array(voq ? 0 : n);
    this.#reqClass = new Int32Array(voq ? 0 : n);
    this.#topClass = new Int32Array(voq ? 0 : n);
    this.#candidate = new Int32Array(n);
    this.#readyList = new Int32Array(n);
    this.#offered = new Int32Array(voq ? 0 : n);
    this.#requests = new Int8Array(voq ? n * n : 0);
    this.#match = new Int32Array(voq ? n : 0);
    this.#outputMatched = new Uint8Array(voq ? n : 0);
  }

  /** Starts the transfers of one decision; returns whether an input and an output that want each other were left unmatched. */
  decide(inputs: readonly InputStage<P>[], ready: ReadyInputs, now: number, atSlot: boolean): boolean {
    const k = ready.list(this.#readyList);
    return this.#voqMatching !== null ? this.#matchVoq(inputs, k, now, atSlot) : this.#matchFifo(inputs, k, now, atSlot);
  }

  snapshot(): SwitchCoreSnapshot['crossbar'] {
    return {
      arbiter: this.#arbiters === null ? null : { policy: this.#arbiters.policy, pointers: this.#arbiters.pointers() },
      islip: this.#islip === null ? null : { grant: this.#islip.grantPointers(), accept: this.#islip.acceptPointers() },
    };
  }

  #offer(inp: InputStage<P>, q: number, atSlot: boolean): boolean {
    const head = inp.queues[q]?.peek();
    if (head === undefined) return false;
    const o = inp.outs[q]?.peek() as number;
    if (!this.#host.accepts(o, head.prio, head, atSlot)) return false;
    const n = this.#n;
    const k = this.#reqCount[o] as number;
    this.#reqList[o * n + k] = inp.index;
    this.#reqCount[o] = k + 1;
    if (k === 0) this.#offered[this.#offeredCount++] = o;
    this.#candidate[inp.index] = q;
    if (this.#byClass) {
      const c = classOf(head);
      this.#reqClass[inp.index] = c;
      if (k === 0 || c > (this.#topClass[o] as number)) this.#topClass[o] = c;
    }
    return true;
  }

  #matchFifo(inputs: readonly InputStage<P>[], ready: number, now: number, atSlot: boolean): boolean {
    const n = this.#n;
    const reqCount = this.#reqCount;
    this.#offeredCount = 0;
    for (let r = 0; r < ready; r++) {
      const inp = inputs[this.#readyList[r] as number] as InputStage<P>;
      if (inp.fcQueue < 0) {
        this.#offer(inp, 0, atSlot);
        continue;
      }
      for (let prio = 3; prio >= 0; prio--) {
        const q = inp.offerAt(prio);
        if (q >= 0 && this.#offer(inp, q, atSlot)) break;
      }
    }
    const arbiters = this.#arbiters as OutputArbiters;
    // The outputs in ascending order, as a scan of every port would take them: the transfers
    // start, and their events are scheduled, in the same order.
    const offered = this.#offered;
    const m = this.#offeredCount;
    for (let a = 1; a < m; a++) {
      const o = offered[a] as number;
      let b = a - 1;
      for (; b >= 0 && (offered[b] as number) > o; b--) offered[b + 1] = offered[b] as number;
      offered[b + 1] = o;
    }
    for (let a = 0; a < m; a++) {
      const o = offered[a] as number;
      let k = reqCount[o] as number;
      reqCount[o] = 0;
      if (this.#byClass && k > 1) k = this.#keepTopClass(o, k);
      const i = arbiters.pick(o, this.#reqList, o * n, k);
      this.#host.start(inputs[i] as InputStage<P>, this.#candidate[i] as number, o, now);
    }
    // Every output with an offer took one.
    return false;
  }

  /** Compacts output o's offers to those of its highest class, keeping their ascending order. */
  #keepTopClass(o: number, k: number): number {
    const base = o * this.#n;
    const top = this.#topClass[o] as number;
    let kept = 0;
    for (let j = 0; j < k; j++) {
      const i = this.#reqList[base + j] as number;
      if (this.#reqClass[i] === top) this.#reqList[base + kept++] = i;
    }
    return kept;
  }

  #matchVoq(inputs: readonly InputStage<P>[], ready: number, now: number, atSlot: boolean): boolean {
    const n = this.#n;
    const req = this.#requests;
    req.fill(-1);
    for (let r = 0; r < ready; r++) {
      const inp = inputs[this.#readyList[r] as number] as InputStage<P>;
      const counts = inp.voqCounts as Int32Array;
      for (let o = 0; o < n; o++) {
        for (let p = 3; p >= 0; p--) {
          if (counts[o * 4 + p] === 0 || !this.#host.accepts(o, p, null, atSlot)) continue;
          req[inp.index * n + o] = p;
          break;
        }
      }
    }
    const match = this.#match;
    if ((this.#voqMatching as VoqMatching).match(req, match) === 0) return false;
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
      const inp = inputs[i] as InputStage<P>;
      this.#host.start(inp, inp.voqQueue(o, req[i * n + o] as number), o, now);
    }
    return leftover;
  }
}
