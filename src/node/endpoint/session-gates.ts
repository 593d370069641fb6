/**
 * How the session streams realise a stopped flow (Part 9 §2.4.5 rule 1 "A XOFF flow control
 * transaction stops all transaction request flows of the specified priority and lower targeted to
 * the specified destination"; rule 2 "the transaction request flows for that flowID and flowIDs of
 * higher priority are restarted"): the session stack's Type 9 segmenter flows whose segments may
 * not send are gated, and those that may again are restarted, so that a stopped flow's segments
 * stay in the segmenter and the pulls go to its other flows, other destinations and responses at
 * the full rate of the link (decision FE10). A feature's start-only bit (session-features.ts)
 * stops a segmenter flow too, between PDUs.
 */
import type { Counters } from '../../engine/contract.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { GateFlow } from '../fabric-endpoint-hold.ts';

/** What the gates ask of their end point. */
export interface SessionGatesHost {
  /** Part 9: whether (destinationID, flowID) may send as the CCP engine has it. */
  flowOpen(destinationID: number, flowID: FlowIdLabel): boolean;
  /** Whether a feature stops segmenter flow `flowID` to `destinationID` (a permission missing, no PDU in progress). */
  featureStops(destinationID: number, flowID: FlowIdLabel): boolean;
  /** Stops or restarts a segmenter flow of the session stack. */
  gate(input: { readonly kind: 'gate'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly stopped: boolean }): void;
}

export class SessionGates {
  /** The segmenter flows a gate may stop, in a fixed order: bit i of a `#gated` mask is flow i. */
  readonly #flows: readonly GateFlow[];
  readonly #host: SessionGatesHost;
  readonly #counters: Counters<'gates'>;
  /** Per destination, the flows gated stopped (a bit mask over `#flows`); absent: none. */
  readonly #gated = new Map<number, number>();
  /** While the CCP engine runs: the destinations to gate anew after it. */
  #changed: Set<number> | null = null;

  constructor(flows: readonly GateFlow[], host: SessionGatesHost, counters: Counters<'gates'>) {
    this.#flows = flows;
    this.#host = host;
    this.#counters = counters;
  }

  /**
   * Runs the CCP engine; then every destination whose flows changed is gated anew, and so is every
   * destination already gated: with bounded counters a change may reach a destination the flow
   * outputs do not name.
   */
  aroundCcp(run: () => void): void {
    if (this.#flows.length === 0) {
      run();
      return;
    }
    const changed = new Set<number>(this.#gated.keys());
    this.#changed = changed;
    try {
      run();
    } finally {
      this.#changed = null;
    }
    if (this.#flows.length === 0) return;
    for (const destinationID of [...changed].sort((a, b) => a - b)) this.regate(destinationID);
  }

  /** A flow of `destinationID` changed during the CCP engine's run. */
  changed(destinationID: number): void {
    this.#changed?.add(destinationID);
  }

  /**
   * Gates the session stack's flows to `destinationID` as the CCP engine's state and the features
   * say now: a flow is stopped while the flow the hold would put its packets in may not send.
   */
  regate(destinationID: number): void {
    const flows = this.#flows;
    if (flows.length === 0) return;
    let mask = 0;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i] as GateFlow;
      if (!this.#host.flowOpen(destinationID, f.heldAs) || this.#host.featureStops(destinationID, f.flowID)) mask |= 1 << i;
    }
    const before = this.#gated.get(destinationID) ?? 0;
    if (mask === before) return;
    if (mask === 0) this.#gated.delete(destinationID);
    else this.#gated.set(destinationID, mask);
    for (let i = 0; i < flows.length; i++) {
      const bit = 1 << i;
      if (((mask ^ before) & bit) === 0) continue;
      this.#counters.gates++;
      this.#host.gate({ kind: 'gate', destinationID, flowID: (flows[i] as GateFlow).flowID, stopped: (mask & bit) !== 0 });
    }
  }

  snapshot(): { readonly destinationID: number; readonly flowIDs: FlowIdLabel[] }[] {
    return [...this.#gated].sort((a, b) => a[0] - b[0]).map(([destinationID, mask]) => ({
      destinationID, flowIDs: this.#flows.filter((_, i) => (mask & (1 << i)) !== 0).map((f) => f.flowID),
    }));
  }
}
