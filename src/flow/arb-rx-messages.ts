import { fitsDeviceId } from '../engine/config-checks.ts';
import { flowIdLabel } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { makeCcp, type7Command } from '../wire/type7.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type { ResolvedArbRxConfig } from './arb-rx-config.ts';
import type { ArbMode } from './arbitration-types.ts';

/** The fields an event of the arbitration receiver (arb-rx.ts) carries besides its name. */
export interface ArbRxEventDetail {
  readonly sourceID?: number;
  readonly flowID?: string;
  readonly seq?: number;
}

/** A received CCP as the arbitration receiver reads it: a REQUEST, a RELEASE, or one it ignores (with the event that says so). */
export type ReceivedArbCcp =
  | { readonly kind: 'request'; readonly sourceID: number; readonly flowID: FlowIdLabel; readonly mode: ArbMode; readonly seq: number }
  | { readonly kind: 'release'; readonly sourceID: number; readonly flowID: FlowIdLabel; readonly seq: number }
  | { readonly kind: 'ignore'; readonly name: 'ignored' | 'arbitration-disabled'; readonly detail: ArbRxEventDetail };

/**
 * What a received Type 7 packet asks of the arbitration receiver. The flow's source is the
 * tgtdestinationID (addressing decision in arbitration-types.ts).
 */
export function readArbCcp(p: Type7Packet, c: ResolvedArbRxConfig): ReceivedArbCcp {
  // The raw XON/XOFF and FAM bits are what the wire carried; the labels are derived from them.
  const { command, seq } = type7Command(p.xonXoff, p.fam);
  const flowID = flowIdLabel(p.flowIDCode);
  const sourceID = p.tgtdestinationID;
  const isRequest = command === 'REQUEST_SINGLE_PDU' || command === 'REQUEST_MULTI_PDU';
  if (seq === undefined || (!isRequest && command !== 'RELEASE')) {
    // Congestion XON/XOFF belong to ccp-endpoint; XON(ARB)/XOFF(ARB) travel to transmitters.
    return { kind: 'ignore', name: 'ignored', detail: seq === undefined ? { sourceID } : { sourceID, seq } };
  }
  // §3.4 "For all undefined flowID encodings, there is no action required and the
  // tgtdestinationID is ignored". A CCP for another end point, or from a source whose ID our
  // responses cannot carry, cannot be answered either.
  if (flowID === 'RESERVED' || p.destinationID !== c.localID || !fitsDeviceId(sourceID, c.tt)) return { kind: 'ignore', name: 'ignored', detail: { sourceID, seq } };
  if (!c.enabled) return { kind: 'ignore', name: 'arbitration-disabled', detail: { sourceID, flowID, seq } };
  if (isRequest) return { kind: 'request', sourceID, flowID, mode: command === 'REQUEST_SINGLE_PDU' ? 'single' : 'multi', seq };
  return { kind: 'release', sourceID, flowID, seq };
}

/**
 * XON(ARB)/XOFF(ARB) back to the flow's source: destinationID = the requester, tgtdestinationID
 * = this end point, the request's flowID and Y; SOC "0b1 Source Of Congestion is an End Point"
 * (Table 3-1); rule 12 "may be sent in any flow": the configured responseFlow.
 */
export function arbResponse(c: ResolvedArbRxConfig, command: 'XON_ARB' | 'XOFF_ARB', sourceID: number, flowID: FlowIdLabel, seq: number): Type7Packet {
  return makeCcp({
    destinationID: sourceID, tgtdestinationID: c.localID, tt: c.tt, command, seq, flowID, soc: 1, prio: c.responseFlow.prio, crf: c.responseFlow.crf,
  });
}
