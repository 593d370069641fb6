/**
 * When a source flow asks for a grant and when it may start a PDU (arbitration.ts), from
 * its queue and the ArbTx engine's view of the flow.
 */
import type { ArbTxFlowView } from '../../flow/arb-tx-flow.ts';
import type { TxFlow } from './flows.ts';

/** PDUs of the flow's queue that have not started (the head may be part sent). */
export function pdusToStart(f: TxFlow): number {
  return f.queue.length - (f.queue.headSent > 0 ? 1 : 0);
}

/**
 * Whether the flow has PDUs that no grant or held grant covers, and may ask now. A multi-PDU grant
 * covers the whole backlog (rule 6 "may transmit PDUs continuously"); a single-PDU one covers one
 * PDU that has not started. Nothing is asked while a REQUEST is outstanding or the engine holds one
 * back (`pending`, e.g. the retry delay after XOFF(ARB)): rule 11 allows one outstanding REQUEST,
 * and asking again on its answer keeps the retry delay in force when the answer is XOFF(ARB).
 */
export function wantsRequest(f: TxFlow, s: ArbTxFlowView): boolean {
  const needed = pdusToStart(f);
  if (needed === 0 || s.pending !== null || s.outstanding !== null) return false;
  let covered = 0;
  if (s.grant !== null && !s.releasing) {
    if (s.grant.mode === 'multi') return false;
    if (!s.pduInProgress) covered++;
  }
  if (s.held !== null && !s.held.revoked) {
    if (s.held.mode === 'multi') return false;
    covered++;
  }
  return covered < needed;
}

/** The flow may start a PDU: a current grant that is not being given back (rules 7, 8). */
export function mayStart(s: ArbTxFlowView): boolean {
  return s.grant !== null && !s.releasing;
}
