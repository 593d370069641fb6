import { flowIdForPacket } from '../../wire/flow-id.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Priority } from './packet.ts';

/**
 * A transaction request flow an end point transmits: Part 9's "series of packets that have a
 * common source identifier and a common destination identifier at some given priority"
 * (Glossary), with its Table 3-1 flowID from the prio and CRF of its packets (Part 9 §2.4.3 Table
 * 2-1, Part 6 Tables 6-6/6-7). The end point's features (feature.ts) see its backlog and hold it
 * back with `blocked` bits; the data path that owns the flow sends its PDUs.
 */
export interface TxFlow {
  /** The host's number for the flow (the simulator's scenario flow). */
  readonly index: number;
  readonly dst: number;
  readonly prio: Priority;
  readonly crf: 0 | 1;
  readonly flowID: FlowIdLabel;
  readonly queue: FlowBacklog;
  /** Part 9: false while an XOFF (or the orphan FIFO) keeps the flow stopped (the `xoff` bit of `blocked`). */
  enabled: boolean;
  /** Why the flow may not send: FLOW_BLOCK bits (feature.ts); 0 when it may. */
  blocked: number;
}

/** A flow's PDUs waiting or being sent. */
export interface FlowBacklog {
  /** PDUs queued, the one being sent included. */
  readonly length: number;
  /** The most PDUs it holds (its traffic management level is length / limit). */
  readonly limit: number;
  /** Payload bytes of the queued PDUs not yet sent. */
  readonly queuedBytes: number;
  /** Payload bytes of the head PDU already sent (0: it has not started). */
  readonly headSent: number;
}

/**
 * Request prio 3 is "Illegal" in Part 9 Table 2-1 and has no flowID: a source's traffic uses prio
 * 0–2. Without CRF support (Part 6 Table 6-6) the CRF bit is not a flow selector, so it must be 0.
 */
export function requestFlowId(prio: number, crf: number, crfSupported: boolean, field: string): FlowIdLabel {
  if (!Number.isInteger(prio) || prio < 0 || prio > 2) throw new RangeError(`${field}.prio must be 0, 1 or 2 (prio 3 is illegal for requests, Part 9 Table 2-1)`);
  if (crf !== 0 && crf !== 1) throw new RangeError(`${field}.crf must be 0 or 1`);
  if (!crfSupported && crf !== 0) throw new RangeError(`${field}.crf must be 0 when CRF is not supported (Part 6 Table 6-6)`);
  const m = flowIdForPacket({ prio, crf, response: false, crfSupported });
  if (m === undefined) throw new RangeError(`${field}.prio has no request flow`);
  return m.flowID;
}
