import type { Counters } from '../../engine/contract.ts';
import type { SwitchCoreParts } from './core-assembly.ts';
import { CLASSES, classOf, isFlowControl, priorityAllowed } from './packet.ts';
import type { SwitchPacket } from './packet.ts';
import type { OutputStage } from './stages.ts';
import type { BufferProbe, SwitchCounter, SwitchHost, SwitchProbe } from './types.ts';

/** What the output side needs of its switch element (core.ts) besides the parts. */
export interface TransmitContext<P extends SwitchPacket> {
  readonly host: SwitchHost<P>;
  readonly probe: SwitchProbe;
  readonly counters: Counters<SwitchCounter>;
  /** Free inputs holding a waiting packet: a decision can do something while there are any. */
  ready(): number;
  /** An output link found nothing to send (SwitchCore.outputIdle). */
  idle(now: number): void;
}

/**
 * The output side of a switch element: a packet that crossed joins its output's queue (or VoQ
 * staging), and leaves by the output's link when pulled, priority 3 … 0, CRF 1 before 0, the
 * switch's own CCPs first in their class, oldest first within a class; the output's congestion
 * point and VoQ generator follow its queue.
 */
export class SwitchTransmit<P extends SwitchPacket> {
  readonly #p: SwitchCoreParts<P>;
  readonly #x: TransmitContext<P>;
  /** Responses the switch made, not yet sent (rare: a Set). */
  readonly #responses = new Set<P>();

  constructor(parts: SwitchCoreParts<P>, context: TransmitContext<P>) {
    this.#p = parts;
    this.#x = context;
  }

  /** A response the switch made crosses to its output: when it leaves, it is not counted as forwarded. */
  response(p: P): void {
    this.#responses.add(p);
  }

  /** A queued packet was dropped with its output's link. */
  dropped(p: P): void {
    this.#responses.delete(p);
  }

  /** Output buffer 0: the packet the crossbar put in output o's register, taken; null when empty. */
  takeRegister(o: number): P | null {
    const out = this.#p.outputs[o] as OutputStage<P>;
    const p = out.register;
    if (p === null) return null;
    out.register = null;
    this.#sent(p, true);
    return p;
  }

  /** The next packet for output o's link (SwitchCore.pull). */
  pull(o: number, now: number, free: number, reserve: number): P | null {
    const s = this.#p;
    const out = s.outputs[o] as OutputStage<P>;
    for (let c = CLASSES - 1; c >= 0; c--) {
      if (!priorityAllowed(c >> 1, free, reserve)) break;
      const own = out.own.peek();
      if (own !== undefined && classOf(own) === c) {
        out.own.shift();
        this.#left(out, own, now, false);
        return own;
      }
      const p = out.takeClass(c) ?? s.staging?.take(o, c, now) ?? null;
      if (p !== null) {
        out.dataCount--;
        this.#left(out, p, now, true);
        if (!s.congestionAtInputs && s.congestion.has(o)) s.own.ccps(o, s.congestion.dequeue(o, p, now), now);
        s.voq?.depth(o, out.dataCount, now);
        if (this.#x.ready() > 0) this.#x.host.requestDecide(now);
        return p;
      }
    }
    this.#x.idle(now);
    return null;
  }

  /** A packet crossed to output o: it joins the output's queue, or its VoQ staging. */
  delivered(o: number, p: P, now: number): void {
    const s = this.#p;
    const out = s.outputs[o] as OutputStage<P>;
    out.dataCount++;
    out.bytes += p.bytes;
    // Type 7 packets keep their order between a port pair (Part 9 §2.4.4 rule 3) in every mode, so
    // they are not staged: staging serves downstream ports, not arrival order (decision SW4).
    if (s.staging === null || isFlowControl(p) || !s.staging.stage(o, p, now)) out.add(p);
    (s.outBuf[o] as BufferProbe).occupancy(now, out.dataCount + out.ownCount, out.bytes);
    if (!s.congestionAtInputs && s.congestion.has(o)) s.own.ccps(o, s.congestion.enqueue(o, p, now), now);
    s.voq?.depth(o, out.dataCount, now);
    this.#x.host.kick(o, now);
  }

  #left(out: OutputStage<P>, p: P, now: number, queued: boolean): void {
    out.bytes -= p.bytes;
    this.#sent(p, queued);
    (this.#p.outBuf[out.index] as BufferProbe).occupancy(now, out.dataCount + out.ownCount, out.bytes);
  }

  /** `queued`: it came from the buffer (forwarded, or a response), not from the switch's own CCPs. */
  #sent(p: P, queued: boolean): void {
    const counters = this.#x.counters;
    counters.packetsOut++;
    if (!queued || (this.#responses.size > 0 && this.#responses.delete(p))) return;
    counters.forwarded++;
  }
}
