import { ingressQueueOf } from './classifier.ts';
import type { QueueGranularity } from './classifier.ts';
import { designationForQueue } from './tm-operand-match.ts';
import type { QueueScope, TmDesignation } from './tm-operand-match.ts';
import { destinationStreamKey, egressCosId } from './vsid.ts';

/** One of the egress's own queues (§3.3 "Egress queuing should be based on: source ID+cos"). */
export interface OwnQueue {
  readonly key: string;
  readonly scope: QueueScope;
  readonly designation: TmDesignation;
  level: number;
  /** REDUCEs sent in a row above the high watermark. */
  reduceStreak: number;
}

/** The egress's own queues, by key, made at the first level reported for one (TmEgress `queue-level`). */
export class OwnQueues {
  readonly #queues = new Map<string, OwnQueue>();
  readonly #granularity: QueueGranularity;

  constructor(granularity: QueueGranularity) {
    this.#granularity = granularity;
  }

  /** The queues by key, in the order they were made. */
  get all(): ReadonlyMap<string, OwnQueue> {
    return this.#queues;
  }

  /** The queue a source stream's data goes to, made if it is new. */
  get(sourceID: number, cos: number, streamID: number): OwnQueue {
    const g = this.#granularity;
    const key = g.mode === 'stream' ? destinationStreamKey({ sourceID, cos, streamID }) : egressCosId({ sourceID, cos }, g.cosBits);
    let q = this.#queues.get(key);
    if (q === undefined) {
      const id = ingressQueueOf({ destinationID: sourceID, cos, streamID }, g);
      const scope: QueueScope = { peer: sourceID, cos: id.cos, cosFreeBits: id.cosFreeBits, streamID: id.streamID };
      q = { key, scope, designation: designationForQueue(scope, { cos, streamID }), level: 0, reduceStreak: 0 };
      this.#queues.set(key, q);
    }
    return q;
  }
}
