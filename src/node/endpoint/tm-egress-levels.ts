/**
 * The levels of the egress's own queues (Part 10 §3.3 "Egress queuing should be based on: source
 * ID+cos") as a `FabricEndpoint`'s driver gives them (`tm-level`), and when they go to the egress:
 * at every change, or, with a `levelPeriod`, all of them once a period while any is above 0. The
 * egress's rate policy answers every report at or above its high watermark with a REDUCE that
 * doubles each time (§3.4.5 rule 6 "a second DECREASE with a larger requested decrease amount"), so
 * in the rate modes the reports must come at a pace, not at every packet the driver buffers.
 */
import type { Time } from '../../engine/contract.ts';
import type { FabricTmSnapshot, TmLevelInput } from '../fabric-endpoint-types.ts';

/** A level for the egress's `queue-level` input. */
export interface LevelFeed {
  readonly sourceID: number;
  readonly cos: number;
  readonly streamID: number;
  readonly level: number;
}

/** What to give the egress now, and the sample timer to arm (absent: none). */
export interface LevelsDue {
  readonly levels: readonly LevelFeed[];
  readonly timer?: Time;
}

interface EgressQueue {
  readonly sourceID: number;
  readonly cos: number;
  /** The streamID the driver named; undefined: the last one seen. */
  streamID: number | undefined;
  level: number;
  /** The level last given to the egress; null before the first. */
  fed: number | null;
}

export class EgressLevels {
  /** The sample timer's name (after the end point's `tm:` prefix). */
  static readonly TIMER = 'level';
  /** The period in the TM mode in force (0: every change at once); it follows TM Mode writes (decision R3). */
  readonly #period: () => number;
  readonly #queues = new Map<string, EgressQueue>();
  /** The stream the last PDU of each source + cos came on: the VSID the egress's messages name. */
  readonly #lastStream = new Map<string, number>();
  #armed = false;

  constructor(period: () => number) {
    this.#period = period;
  }

  /** A PDU of `sourceID` in class `cos` arrived on `streamID`. */
  seen(sourceID: number, cos: number, streamID: number): void {
    this.#lastStream.set(`${sourceID}/${cos}`, streamID);
  }

  /** The driver's level (checked by the caller). */
  set(i: TmLevelInput, now: Time): LevelsDue {
    const key = `${i.sourceID}/${i.cos}`;
    let q = this.#queues.get(key);
    if (q === undefined) {
      q = { sourceID: i.sourceID, cos: i.cos, streamID: undefined, level: i.level, fed: null };
      this.#queues.set(key, q);
    }
    q.level = i.level;
    if (i.streamID !== undefined) q.streamID = i.streamID;
    const period = this.#period();
    if (period === 0) return { levels: q.fed === q.level ? [] : [this.#fed(q)] };
    if (this.#armed) return { levels: [] };
    this.#armed = true;
    return { levels: [], timer: now + period };
  }

  /** The sample timer expired: every level goes to the egress; sampling goes on while any queue holds data. */
  sample(now: Time): LevelsDue {
    this.#armed = false;
    const levels = [...this.#queues.values()].map((q) => this.#fed(q));
    const period = this.#period();
    if (period === 0 || !levels.some((l) => l.level > 0)) return { levels };
    this.#armed = true;
    return { levels, timer: now + period };
  }

  snapshot(): FabricTmSnapshot['levels'] {
    return [...this.#queues.values()].map((q) => ({ sourceID: q.sourceID, cos: q.cos, streamID: this.#streamOf(q), level: q.level, fed: q.fed }));
  }

  #fed(q: EgressQueue): LevelFeed {
    q.fed = q.level;
    return { sourceID: q.sourceID, cos: q.cos, streamID: this.#streamOf(q), level: q.level };
  }

  #streamOf(q: EgressQueue): number {
    return q.streamID ?? this.#lastStream.get(`${q.sourceID}/${q.cos}`) ?? 0;
  }
}
