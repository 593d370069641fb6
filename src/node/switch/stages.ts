import { Ring } from '../../engine/ring.ts';
import type { BufferSpec, Queueing } from './config-types.ts';
import { CLASSES, classOf, isFlowControl } from './packet.ts';
import type { SwitchPacket } from './packet.ts';

/**
 * The buffers of one switch port: the input buffer behind the receiving side of its link and the
 * output queue in front of the transmitting side.
 *
 * Input buffer organisation by queueing mode:
 * - 'input-fifo': one FIFO (issue 7 §2 "one FIFO per input; the head packet contends for its
 *   output"), whatever the priority: the model of Karol et al. 1987.
 * - 'output-queued', 'cioq-voq-backpressure': one FIFO per priority. A packet waits at the input
 *   only while its output queue is full; a FIFO per priority lets a higher-priority packet pass a
 *   lower one held there (Part 6 §6.12 rule 4 "shall accept an error-free packet of priority N if
 *   there is no packet of priority greater than or equal to N that was previously received by the
 *   port and is still waiting"), while one priority keeps its order (§6.11 rules 4–6).
 * - 'input-voq': one virtual output queue per (output, class) (issue 7 §2 "one virtual output
 *   queue per (input, output) (and priority)"), class = prio × 2 + CRF.
 *
 * Type 7 packets (Part 9 §2.4.4 rule 3 "A switch processing element must pass through flow control
 * transactions between an input and output port pair in the order they are received") wait in
 * FIFOs of their own, whatever their priorities: one per input ('output-queued'), one per output
 * at each input ('input-voq'), whose head is offered at its own priority, and before or after the
 * head of its priority's queue by arrival order (`seq`). 'input-fifo' keeps every packet in order.
 */
export class InputStage<P extends SwitchPacket> {
  readonly index: number;
  /** FIFOs: 1 ('input-fifo'); 4 by priority + 1 for Type 7; outputs × CLASSES ('input-voq'). */
  readonly queues: Ring<P>[];
  /** Arrival order of each queued packet, parallel to `queues`. */
  readonly seqs: Ring<number>[];
  /** The output of each queued packet, parallel to `queues` (unused for 'input-voq', where the queue names it). */
  readonly outs: Ring<number>[];
  /** 'input-voq': the Type 7 FIFO for each output, and the arrival order of its packets. */
  readonly fc: Ring<P>[];
  readonly fcSeqs: Ring<number>[];
  /**
   * 'input-voq': packets per (output, priority), [o × 4 + prio], for the iSLIP requests; a Type 7
   * FIFO counts only its head, the one packet of it that may go.
   */
  readonly voqCounts: Int32Array | null;
  /** Index of the Type 7 FIFO in `queues` ('output-queued'), −1 without one. */
  readonly fcQueue: number;
  /** Packets in the buffer, including the one crossing the crossbar. */
  count = 0;
  bytes = 0;
  /** Packets waiting to cross (in the FIFOs). */
  waiting = 0;
  /** The packet crossing the crossbar (an input sends one at a time), its output, and what reaches the output (a request's response). */
  current: P | null = null;
  currentOut = -1;
  crossing: P | null = null;
  #seq = 0;

  constructor(index: number, mode: Queueing, outputs: number) {
    this.index = index;
    const voq = mode === 'input-voq';
    const n = mode === 'input-fifo' ? 1 : voq ? outputs * CLASSES : 5;
    this.queues = Array.from({ length: n }, () => new Ring<P>());
    this.seqs = Array.from({ length: n }, () => new Ring<number>());
    this.outs = voq ? [] : Array.from({ length: n }, () => new Ring<number>());
    this.fc = voq ? Array.from({ length: outputs }, () => new Ring<P>()) : [];
    this.fcSeqs = voq ? Array.from({ length: outputs }, () => new Ring<number>()) : [];
    this.voqCounts = voq ? new Int32Array(outputs * 4) : null;
    this.fcQueue = n === 5 ? 4 : -1;
  }
  /**
   * Why packet `p` may not enter this input, or undefined when it may: its source is not one the
   * port accepts (issue 8 §3: "drops (and counts) packets with any other sourceID, so no endpoint
   * can pose as another"), or its priority has no room (Part 6 §6.12 rule 4: priority p only while
   * more than (3 − p) × reserve places are free; a link that keeps to its credits, or stops when
   * told, never brings one beyond that).
   */
  refusal(p: SwitchPacket, accept: ReadonlySet<number> | null | undefined, buffer: Required<BufferSpec>): 'source-rejected' | 'hold-overrun' | undefined {
    if (accept != null && !accept.has(p.src)) return 'source-rejected';
    if (buffer.packets - this.count <= (3 - p.prio) * buffer.reservePerPriority) return 'hold-overrun';
    return undefined;
  }


  /** Queues a packet for output `o`. */
  push(p: P, o: number): void {
    const seq = this.#seq++;
    if (this.voqCounts !== null) {
      if (isFlowControl(p)) {
        const f = this.fc[o] as Ring<P>;
        if (f.length === 0) this.#countVoq(o, p.prio, 1);
        f.push(p);
        (this.fcSeqs[o] as Ring<number>).push(seq);
      } else {
        const q = o * CLASSES + classOf(p);
        (this.queues[q] as Ring<P>).push(p);
        (this.seqs[q] as Ring<number>).push(seq);
        this.#countVoq(o, p.prio, 1);
      }
    } else {
      const q = this.fcQueue >= 0 ? (isFlowControl(p) ? this.fcQueue : p.prio) : 0;
      (this.queues[q] as Ring<P>).push(p);
      (this.seqs[q] as Ring<number>).push(seq);
      (this.outs[q] as Ring<number>).push(o);
    }
    this.waiting++;
  }

  /**
   * The FIFO whose head a by-priority input offers at priority level `prio`: the older of that
   * priority's head and the Type 7 FIFO's head when the latter has this priority; −1 for none.
   * Only for inputs with a FIFO per priority (`fcQueue` >= 0).
   */
  offerAt(prio: number): number {
    const fq = this.fcQueue;
    const data = this.queues[prio] as Ring<P>;
    const fcHead = (this.queues[fq] as Ring<P>).peek();
    if (fcHead === undefined || fcHead.prio !== prio) return data.length > 0 ? prio : -1;
    if (data.length === 0) return fq;
    return ((this.seqs[fq] as Ring<number>).peek() as number) < ((this.seqs[prio] as Ring<number>).peek() as number) ? fq : prio;
  }

  /**
   * 'input-voq': the FIFO an input matched to output `o` at priority `prio` sends from: CRF 1
   * before CRF 0 (or the class of a maintenance packet), with the Type 7 FIFO's head taking the
   * place its arrival order gives it within its class. Returns a queue index, or −1 − o for the
   * Type 7 FIFO of output o.
   */
  voqQueue(o: number, prio: number): number {
    const crf1 = o * CLASSES + prio * 2 + 1;
    const head = (this.fc[o] as Ring<P>).peek();
    const fcClass = head !== undefined && head.prio === prio ? classOf(head) : -1;
    for (const q of [crf1, crf1 - 1]) {
      const ring = this.queues[q] as Ring<P>;
      if (fcClass === q - o * CLASSES && (ring.length === 0 || ((this.fcSeqs[o] as Ring<number>).peek() as number) < ((this.seqs[q] as Ring<number>).peek() as number))) return -1 - o;
      if (ring.length > 0) return q;
    }
    return -1 - o;
  }

  /** Removes the head of queue `q` (a `voqQueue` result for 'input-voq'), bound for `o`. */
  take(q: number, o: number): P {
    this.waiting--;
    if (this.voqCounts === null) {
      (this.outs[q] as Ring<number>).shift();
      (this.seqs[q] as Ring<number>).shift();
      return (this.queues[q] as Ring<P>).shift() as P;
    }
    if (q >= 0) {
      (this.seqs[q] as Ring<number>).shift();
      const p = (this.queues[q] as Ring<P>).shift() as P;
      this.#countVoq(o, p.prio, -1);
      return p;
    }
    const f = this.fc[o] as Ring<P>;
    (this.fcSeqs[o] as Ring<number>).shift();
    const p = f.shift() as P;
    this.#countVoq(o, p.prio, -1);
    const next = f.peek();
    if (next !== undefined) this.#countVoq(o, next.prio, 1);
    return p;
  }

  /** Removes every waiting packet bound for `o` (its link went down); returns them. */
  removeFor(o: number): P[] {
    const gone: P[] = [];
    const keep = (q: Ring<P>, seqs: Ring<number>, outs: Ring<number> | undefined, all: boolean): void => {
      const n = q.length;
      for (let k = 0; k < n; k++) {
        const p = q.shift() as P;
        const s = seqs.shift() as number;
        const out = outs?.shift() ?? o;
        if (all || out === o) gone.push(p);
        else {
          q.push(p);
          seqs.push(s);
          outs?.push(out);
        }
      }
    };
    if (this.voqCounts === null) {
      for (let q = 0; q < this.queues.length; q++) keep(this.queues[q] as Ring<P>, this.seqs[q] as Ring<number>, this.outs[q], false);
    } else {
      for (let c = 0; c < CLASSES; c++) keep(this.queues[o * CLASSES + c] as Ring<P>, this.seqs[o * CLASSES + c] as Ring<number>, undefined, true);
      keep(this.fc[o] as Ring<P>, this.fcSeqs[o] as Ring<number>, undefined, true);
      this.voqCounts.fill(0, o * 4, o * 4 + 4);
      for (let c = 0; c < CLASSES; c++) this.#countVoq(o, c >> 1, (this.queues[o * CLASSES + c] as Ring<P>).length);
      const head = (this.fc[o] as Ring<P>).peek();
      if (head !== undefined) this.#countVoq(o, head.prio, 1);
    }
    this.waiting -= gone.length;
    return gone;
  }

  #countVoq(o: number, prio: number, by: number): void {
    const counts = this.voqCounts as Int32Array;
    counts[o * 4 + prio] = (counts[o * 4 + prio] as number) + by;
  }
}

/**
 * An output: data packets queued by class (served prio 3 … 0, CRF 1 before 0, FIFO within),
 * forwarded Type 7 packets in one FIFO whose head is served in its class by arrival order (Part 9
 * §2.4.4 rule 3), the CCPs the switch itself made (`own`, ahead of data of their class, in the
 * order the congestion point made them: an XON never passes its XOFF), the output register of an
 * input-queued switch with no output queue, and a flag for the transfer it is receiving (an
 * output receives one packet at a time).
 */
export class OutputStage<P extends SwitchPacket> {
  readonly index: number;
  readonly data: Ring<P>[];
  readonly dataSeqs: Ring<number>[];
  readonly fc = new Ring<P>();
  readonly fcSeqs = new Ring<number>();
  readonly own = new Ring<P>();
  /** Packets in the buffer: queued data, forwarded Type 7 and staged (not the switch's own CCPs). */
  dataCount = 0;
  bytes = 0;
  receiving = false;
  /** Output buffer 0: the packet crossing the crossbar straight onto the link. */
  register: P | null = null;
  #seq = 0;

  constructor(index: number) {
    this.index = index;
    this.data = Array.from({ length: CLASSES }, () => new Ring<P>());
    this.dataSeqs = Array.from({ length: CLASSES }, () => new Ring<number>());
  }

  get ownCount(): number {
    return this.own.length;
  }

  /** Queues a packet in its class, or a forwarded Type 7 packet in the Type 7 FIFO. */
  add(p: P): void {
    const seq = this.#seq++;
    if (isFlowControl(p)) {
      this.fc.push(p);
      this.fcSeqs.push(seq);
      return;
    }
    const c = classOf(p);
    (this.data[c] as Ring<P>).push(p);
    (this.dataSeqs[c] as Ring<number>).push(seq);
  }

  /** The oldest queued packet of class `c` (data or the Type 7 FIFO's head), removed; undefined when none. */
  takeClass(c: number): P | undefined {
    const data = this.data[c] as Ring<P>;
    const head = this.fc.peek();
    if (head !== undefined && classOf(head) === c && (data.length === 0 || (this.fcSeqs.peek() as number) < ((this.dataSeqs[c] as Ring<number>).peek() as number))) {
      this.fcSeqs.shift();
      return this.fc.shift();
    }
    if (data.length === 0) return undefined;
    (this.dataSeqs[c] as Ring<number>).shift();
    return data.shift();
  }

  /** Everything queued here (not staged), removed: the link went down. `own`: the switch's CCPs; `queued`: what the buffer held. */
  /**
   * The port's link went down: everything waiting for it goes (its own CCPs, the queued packets,
   * the one in the register), the counts with it. `queued`: the buffer's packets, which the
   * switch still accounts for (congestion points, responses); `dropped`: how many went in all.
   */
  flush(): { queued: P[]; dropped: number } {
    const own = this.own.toArray();
    const queued = this.fc.toArray();
    for (const d of this.data) queued.push(...d.toArray());
    for (const r of [this.own, this.fc, this.fcSeqs, ...this.data, ...this.dataSeqs] as Ring<unknown>[]) while (r.length > 0) r.shift();
    for (const p of own) this.bytes -= p.bytes;
    for (const p of queued) this.bytes -= p.bytes;
    this.dataCount -= queued.length;
    let dropped = own.length + queued.length;
    if (this.register !== null) {
      this.register = null;
      dropped++;
    }
    return { queued, dropped };
  }
}
