/**
 * Names of the `Probe.count` counters the results single out (issue 7 §3 "counts of CCPs, VoQ
 * symbols and TM messages, … CCP drops, PDU defects"). Components may count anything else under
 * other names; every counter appears in the results' `counts`.
 */
export const COUNT = {
  /** CCPs a congestion point generated. */
  ccpSent: 'ccp.sent',
  /** CCPs that reached an end point (endpoint.ts). */
  ccpReceived: 'ccp.received',
  /** CCPs lost on the way (a full queue dropped them). */
  ccpDropped: 'ccp.dropped',
  /** VoQ backpressure control symbols sent (the name switch.ts counts them under). */
  voqSymbols: 'voq.symbolsSent',
  /** Part 10 traffic management messages sent. */
  tmMessages: 'tm.messages',
  /** PDUs discarded at a destination (the collector counts every `pduDefect`). */
  pduDefects: 'pdu.defects',
} as const;

export type CountName = (typeof COUNT)[keyof typeof COUNT];
