import { channelPacketFields, flowIdChannel, packetForFlowId } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { makeCcp } from '../wire/type7.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type { ResolvedArbTxConfig } from './arb-tx-config.ts';
import type { ArbMode } from './arbitration-types.ts';

/**
 * Addressing (arbitration-types.ts header): transmitter → receiver messages carry
 * destinationID = receiver and tgtdestinationID = this end point, the flow's source.
 * SOC 1: "0b1 Source Of Congestion is an End Point" (Table 3-1).
 */
export function requestPacket(c: ResolvedArbTxConfig, destinationID: number, flowID: FlowIdLabel, mode: ArbMode, seq: number): Type7Packet {
  // §2.4.7 rule 12: "REQUEST, XON(ARB), and XOFF(ARB) messages may be sent in any flow (such as
  // a high priority channel)": the configured requestFlow.
  return makeCcp({
    destinationID,
    tgtdestinationID: c.localID,
    tt: c.tt,
    command: mode === 'single' ? 'REQUEST_SINGLE_PDU' : 'REQUEST_MULTI_PDU',
    seq,
    flowID,
    soc: 1,
    crfSupported: c.crfSupported,
    prio: c.requestFlow.prio,
    crf: c.requestFlow.crf,
  });
}

/** The VC/prio/CRF header bits of a data packet of `flowID` (DECISIONS §3, Part 6 Table 2-2). */
export function dataFlowFields(flowID: FlowIdLabel, crfSupported: boolean): { readonly vc: number; readonly prio: number; readonly crf: number } {
  const channel = flowIdChannel(flowID) ?? 0;
  if (channel > 0) {
    const f = channelPacketFields(channel);
    if (f !== undefined) return f;
  }
  const p = packetForFlowId(flowID, { response: false, crfSupported });
  return { vc: 0, prio: p?.prio ?? 0, crf: p?.crf ?? 0 };
}

export function releasePacket(c: ResolvedArbTxConfig, destinationID: number, flowID: FlowIdLabel, seq: number): Type7Packet {
  // §2.4.7 rule 12: "RELEASE messages shall be sent in the same flow that the context is
  // allocated for"; §2.4.2 "Flow arbitration has additional requirements for some transactions
  // to be transmitted in the same flow as the data packets". Sent in the data's flow, RELEASE
  // stays behind the PDU's last segment, so the receiver cannot free the context under it.
  const { vc, prio, crf } = dataFlowFields(flowID, c.crfSupported);
  return makeCcp({
    destinationID,
    tgtdestinationID: c.localID,
    tt: c.tt,
    command: 'RELEASE',
    seq,
    flowID,
    soc: 1,
    crfSupported: c.crfSupported,
    vc,
    prio,
    crf,
  });
}
