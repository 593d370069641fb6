import type { Time } from '../engine/contract.ts';
import type { TmRate } from '../wire/type9-tm.ts';
import type { IngressQueueId, PacketFlow, StreamTarget } from './classifier.ts';
import { designationForQueue } from './tm-operand-match.ts';
import type { QueueScope, TmDesignation } from './tm-operand-match.ts';
import { TokenBucket } from './tm-rate.ts';
import type { TmIngressQueueSnapshot } from './tm-snapshot-types.ts';
import type { TmRateConfig } from './tm-types.ts';

/**
 * One ingress queue as traffic management sees it: its on/off state (§3.4.2), its average and
 * peak rates (§3.4.3), the sizes of its ready PDUs and the level the application reports.
 */
export class IngressQueue {
  readonly id: IngressQueueId;
  readonly scope: QueueScope & { readonly key: string };
  /** The first target classified into the queue: its flow and the don't-care fields of the queue's messages. */
  readonly sample: StreamTarget;
  readonly flow: PacketFlow;
  /** Sizes of the ready PDUs, oldest first. */
  readonly ready: number[] = [];
  /** The level the application last reported, n/255. */
  level = 0;
  /** The level of the last Q_STATUS sent; null before the first. */
  lastSentLevel: number | null = null;
  on = true;
  /** Credit modes: whether the queue has asked for credit since it last had some. */
  askedForCredit = false;
  readonly average: TokenBucket;
  readonly peak: TokenBucket;
  /** The gate as last reported, and the mechanism that closed it. */
  gateOpen = true;
  closedBy: 'on-off' | 'credit' | 'rate' | null = null;

  constructor(id: IngressQueueId, sample: StreamTarget, flow: PacketFlow, rate: Required<TmRateConfig>, now: Time) {
    this.id = id;
    this.scope = { key: id.key, peer: id.destinationID, cos: id.cos, cosFreeBits: id.cosFreeBits, streamID: id.streamID };
    this.sample = sample;
    this.flow = flow;
    this.average = new TokenBucket(rate.average, rate.burst, rate.unit, now);
    this.peak = new TokenBucket(rate.peak, rate.peakBurst, rate.unit, now);
  }

  get key(): string {
    return this.id.key;
  }

  bucket(rate: TmRate): TokenBucket {
    return rate === 'peak' ? this.peak : this.average;
  }

  /** The designation of the queue's own messages (Q_STATUS, user messages). */
  designation(): TmDesignation {
    return designationForQueue(this.scope, this.sample);
  }

  /** The level a Q_STATUS reports: the application's, or 1/255 for a queue holding PDUs the application gave no level for. */
  effectiveLevel(): number {
    return this.level > 0 ? this.level : this.ready.length > 0 ? 1 : 0;
  }

  /** When both buckets let the oldest ready PDU go (now when none is ready). */
  rateReadyAt(now: Time): Time {
    const head = this.ready[0];
    if (head === undefined) return now;
    return Math.max(this.average.readyAt(head, now), this.peak.readyAt(head, now));
  }

  toJSON(): TmIngressQueueSnapshot {
    return {
      key: this.key,
      destinationID: this.id.destinationID,
      cos: this.id.cos,
      cosFreeBits: this.id.cosFreeBits,
      streamID: this.id.streamID,
      flow: this.flow,
      ready: this.ready.length,
      readyBytes: this.ready.reduce((a, b) => a + b, 0),
      level: this.level,
      lastSentLevel: this.lastSentLevel,
      on: this.on,
      averageRate: this.average.rate,
      peakRate: this.peak.rate,
      gate: this.gateOpen ? 'open' : 'closed',
      closedBy: this.closedBy,
    };
  }
}
