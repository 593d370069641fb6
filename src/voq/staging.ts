/**
 * The staging queues of one local egress port (voq-backpressure.txt §2.2–§2.4, §4.3) and the
 * congestion it has been told about. A "lane" is one set of staging queues: one lane per VC with
 * per-VC staging (§2.4 "each VC may have a set of staging queues"), a single lane otherwise
 * ("The staging queues may be before the traffic is sorted into its VC").
 *
 * Congestion is kept per lane and downstream port; a queue is blocked while at least one
 * congested port of its lane maps to it (§4.3 e "any congestion for any of the ports associated
 * with the co-mingled traffic results in all that traffic being stopped").
 */
import { Fifo } from '../engine/fifo.ts';

export interface StagedPacket {
  readonly packetId: number | string;
  readonly destID: number;
  readonly vc: number;
  readonly downstreamPort: number;
  /** Arrival order over the whole engine: the "oldest head" tie-break. */
  readonly seq: number;
  /** The time it was staged (for snapshots). */
  readonly stagedAt: number;
}

/** A queue that changed from unblocked to blocked or back. */
export interface QueueChange {
  readonly lane: number;
  readonly queue: number;
  readonly blocked: boolean;
}

export class PortStaging {
  readonly lanes: number;
  readonly queues: number;
  readonly #queueOf: (downstreamPort: number) => number | undefined;
  /** [lane * queues + queue]. */
  readonly #fifos: Fifo<StagedPacket>[];
  /** Congested ports mapped to each queue, [lane * queues + queue]; blocked when > 0. */
  readonly #congestedCount: Int32Array;
  /** Congested downstream ports per lane. */
  readonly #congested: Set<number>[];

  constructor(lanes: number, queues: number, queueOf: (downstreamPort: number) => number | undefined) {
    this.lanes = lanes;
    this.queues = queues;
    this.#queueOf = queueOf;
    this.#fifos = Array.from({ length: lanes * queues }, () => new Fifo<StagedPacket>());
    this.#congestedCount = new Int32Array(lanes * queues);
    this.#congested = Array.from({ length: lanes }, () => new Set<number>());
  }

  queueOf(downstreamPort: number): number | undefined {
    return this.#queueOf(downstreamPort);
  }

  /** Stages a packet; the caller has checked that its downstream port has a queue. */
  enqueue(lane: number, queue: number, p: StagedPacket): void {
    this.#fifo(lane, queue).push(p);
  }

  /**
   * Records a downstream port's status in one lane; returns the queue change it causes, if any.
   * A port that maps to no queue is recorded and blocks nothing.
   */
  setPort(lane: number, downstreamPort: number, congested: boolean): QueueChange | undefined {
    const set = this.#congested[lane] as Set<number>;
    if (set.has(downstreamPort) === congested) return undefined;
    if (congested) set.add(downstreamPort);
    else set.delete(downstreamPort);
    const queue = this.#queueOf(downstreamPort);
    if (queue === undefined) return undefined;
    const i = lane * this.queues + queue;
    const before = this.#congestedCount[i] as number;
    const after = before + (congested ? 1 : -1);
    this.#congestedCount[i] = after;
    if ((before > 0) === (after > 0)) return undefined;
    return { lane, queue, blocked: after > 0 };
  }

  /** Forgets every congested port; returns the queues that unblock, by lane then queue. */
  clearCongestion(): QueueChange[] {
    const changes: QueueChange[] = [];
    for (let lane = 0; lane < this.lanes; lane++) {
      (this.#congested[lane] as Set<number>).clear();
      for (let queue = 0; queue < this.queues; queue++) {
        const i = lane * this.queues + queue;
        if ((this.#congestedCount[i] as number) > 0) changes.push({ lane, queue, blocked: false });
        this.#congestedCount[i] = 0;
      }
    }
    return changes;
  }

  isBlocked(lane: number, queue: number): boolean {
    return (this.#congestedCount[lane * this.queues + queue] ?? 0) > 0;
  }

  isCongested(lane: number, downstreamPort: number): boolean {
    return this.#congested[lane]?.has(downstreamPort) ?? false;
  }

  congestedPorts(lane: number): number[] {
    return [...(this.#congested[lane] ?? [])].sort((a, b) => a - b);
  }

  /**
   * Removes and returns the oldest head of an unblocked queue. §4.3 b: blocked traffic "shall not
   * be committed to a critical resource ... allowing other traffic to pass"; taking heads only
   * keeps each queue in order (§4.3 d), and the oldest head keeps arrival order among the eligible
   * traffic (§4.3 c).
   */
  takeEligible(): { readonly lane: number; readonly queue: number; readonly packet: StagedPacket } | undefined {
    let best: { lane: number; queue: number; packet: StagedPacket } | undefined;
    for (let lane = 0; lane < this.lanes; lane++) {
      for (let queue = 0; queue < this.queues; queue++) {
        if (this.isBlocked(lane, queue)) continue;
        const head = this.#fifo(lane, queue).peek();
        if (head !== undefined && (best === undefined || head.seq < best.packet.seq)) best = { lane, queue, packet: head };
      }
    }
    if (best !== undefined) this.#fifo(best.lane, best.queue).shift();
    return best;
  }

  contents(lane: number, queue: number): StagedPacket[] {
    return this.#fifos[lane * this.queues + queue]?.values() ?? [];
  }

  get size(): number {
    return this.#fifos.reduce((n, f) => n + f.length, 0);
  }

  #fifo(lane: number, queue: number): Fifo<StagedPacket> {
    return this.#fifos[lane * this.queues + queue] as Fifo<StagedPacket>;
  }
}
