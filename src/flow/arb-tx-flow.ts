import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { ArbMode } from './arbitration-types.ts';

/**
 * Per-flow state of the arbitration transmitter. A flow is "a nexus of a source, a destination,
 * and a physical channel" (Annex A.3): here (receiver destinationID, flowID).
 */

/** The REQUEST awaiting XON(ARB)/XOFF(ARB) (rule 11: "not more than one outstanding REQUEST"). */
export interface OutstandingRequest {
  mode: ArbMode;
  seq: number;
  /** Times it was re-sent after a timeout (rule 3, 1). */
  reissues: number;
}

/** A REQUEST the application asked for that cannot be sent yet. */
export interface PendingRequest {
  mode: ArbMode;
  /** True while the retry delay after XOFF(ARB) runs (timer `retry:<dest>/<flow>`). */
  waitingRetry: boolean;
}

export interface CurrentGrant {
  mode: ArbMode;
  seq: number;
  pduInProgress: boolean;
  /** Multi-PDU only: RELEASE goes once the current PDU completes (rules 7, 8). */
  releasing: boolean;
  /** The receiver asked for the resource back with XOFF(ARB) (rule 8). */
  revoked: boolean;
}

/** XON(ARB) for a pipelined REQUEST while the previous grant is still current (§2.2.2). */
export interface HeldGrant {
  mode: ArbMode;
  seq: number;
  revoked: boolean;
}

export interface ArbTxFlow {
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  /** Rule 4: the Y bit the next new REQUEST carries; starts at 0 and advances per new REQUEST. */
  nextSeq: number;
  outstanding: OutstandingRequest | null;
  pending: PendingRequest | null;
  grant: CurrentGrant | null;
  held: HeldGrant | null;
}

export function newFlow(destinationID: number, flowID: FlowIdLabel): ArbTxFlow {
  return { destinationID, flowID, nextSeq: 0, outstanding: null, pending: null, grant: null, held: null };
}

/** The JSON view `ArbTx.state()` returns: a copy, so callers cannot alter the engine. */
export interface ArbTxFlowView {
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  /** Whether arbitration is used towards this receiver (§3.3: both ends support it). */
  readonly arbitrated: boolean;
  /** The sequence bit the flow's next new REQUEST carries (rule 4). */
  readonly seq: number;
  readonly outstanding: { readonly mode: ArbMode; readonly seq: number; readonly reissues: number } | null;
  readonly pending: { readonly mode: ArbMode; readonly waitingRetry: boolean } | null;
  readonly grant: { readonly mode: ArbMode; readonly seq: number; readonly revoked: boolean } | null;
  readonly held: { readonly mode: ArbMode; readonly seq: number; readonly revoked: boolean } | null;
  readonly pduInProgress: boolean;
  readonly releasing: boolean;
}

export function flowView(f: ArbTxFlow, arbitrated: boolean): ArbTxFlowView {
  const g = f.grant;
  return {
    destinationID: f.destinationID,
    flowID: f.flowID,
    arbitrated,
    seq: f.nextSeq,
    outstanding: f.outstanding && { mode: f.outstanding.mode, seq: f.outstanding.seq, reissues: f.outstanding.reissues },
    pending: f.pending && { mode: f.pending.mode, waitingRetry: f.pending.waitingRetry },
    grant: g && { mode: g.mode, seq: g.seq, revoked: g.revoked },
    held: f.held && { mode: f.held.mode, seq: f.held.seq, revoked: f.held.revoked },
    pduInProgress: g?.pduInProgress ?? false,
    releasing: g?.releasing ?? false,
  };
}

/**
 * Whether a new REQUEST may go now. Rule 11: "not more than one outstanding REQUEST". §2.2.2:
 * with pipelining the transmitter may ask during the current grant ("it can start transmitting
 * the data and it may also pipeline another request"), but "a single level of pipelining": not
 * while a pipelined grant is already held. And the Y bit is one bit: a new REQUEST carrying the
 * current grant's Y (possible after XOFF(ARB) rejected the pipelined REQUEST) would read as a
 * re-sent REQUEST of that grant at the receiver, so it waits until that grant ends.
 */
export function canRequest(f: ArbTxFlow, pipelining: boolean): boolean {
  if (f.outstanding !== null || f.held !== null) return false;
  if (f.grant === null) return true;
  return pipelining && f.grant.seq !== f.nextSeq;
}
