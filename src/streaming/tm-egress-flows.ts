import type { PacketFlow } from './classifier.ts';
import { coversStream } from './tm-operand-match.ts';
import type { TmDesignation } from './tm-operand-match.ts';

/** Data flows seen, by source stream. */
interface SeenFlow {
  readonly peer: number;
  readonly cos: number;
  readonly streamID: number;
  readonly flow: PacketFlow;
}

/**
 * The flows the egress has seen data and the ingress's TM messages in, so that every message it
 * sends travels in the flow of the data it concerns (§3.4.5 protocol rule 1).
 */
export class EgressFlows {
  readonly #data = new Map<string, SeenFlow>();
  readonly #tm = new Map<string, PacketFlow>();
  readonly #defaultFlow: PacketFlow;

  constructor(defaultFlow: PacketFlow) {
    this.#defaultFlow = defaultFlow;
  }

  /** A PDU of a source stream arrived in `flow`: the stream's latest. */
  data(sourceID: number, cos: number, streamID: number, flow: PacketFlow): void {
    const key = `${sourceID}/${cos}/${streamID}`;
    this.#data.delete(key);
    this.#data.set(key, { peer: sourceID, cos, streamID, flow: { prio: flow.prio, crf: flow.crf, vc: flow.vc } });
  }

  /** A TM message about designation `key` arrived in `flow`. */
  tm(key: string, flow: PacketFlow): void {
    this.#tm.set(key, flow);
  }

  /** §3.4.5 rule 1: the flow the addressed data last came in, else the ingress's own messages about it, else the default. */
  flowFor(d: TmDesignation, key: string): PacketFlow {
    const seen = [...this.#data.values()];
    for (let i = seen.length - 1; i >= 0; i--) {
      const s = seen[i] as SeenFlow;
      if (coversStream(d, 'egress', s.peer, s.cos, s.streamID)) return s.flow;
    }
    return this.#tm.get(key) ?? this.#defaultFlow;
  }
}
