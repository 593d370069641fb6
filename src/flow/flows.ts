import { FLOW_ID_LABELS, flowIdChannel } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';

/**
 * Transaction request flows as Part 9 names them: "a series of packets that have a common source
 * identifier and a common destination identifier at some given priority" (Glossary). Within VC0
 * the flows are ordered A < B < … < F (Table 3-1 "this flow and higher"); each of VC1–VC8 has the
 * single flow nA, which "will result in the VC1-VC8 flow control" of the whole channel.
 */
export const FLOW_COUNT = FLOW_ID_LABELS.length;

/** Index 0..13 of a label in Table 3-1 order (0A..0F, 1A..8A). */
export function flowIndex(label: FlowIdLabel): number {
  return FLOW_ID_LABELS.indexOf(label);
}

export function flowAt(index: number): FlowIdLabel | undefined {
  return FLOW_ID_LABELS[index];
}

/** Virtual channel of a defined flow: 0 for 0A–0F, n for nA. */
export function flowChannel(label: FlowIdLabel): number {
  return flowIdChannel(label) ?? 0;
}

/** Flows of the same channel at or above `label` (§2.4.5 rule 2: "that flowID and flowIDs of higher priority"). */
export function flowsAtOrAbove(label: FlowIdLabel): readonly FlowIdLabel[] {
  return AT_OR_ABOVE[flowIndex(label)] ?? [];
}

/** Flows of the same channel at or below `label` (§2.4.5 rule 1: "the specified priority and lower"). */
export function flowsAtOrBelow(label: FlowIdLabel): readonly FlowIdLabel[] {
  return AT_OR_BELOW[flowIndex(label)] ?? [];
}

const AT_OR_ABOVE: readonly (readonly FlowIdLabel[])[] = FLOW_ID_LABELS.map((l) =>
  FLOW_ID_LABELS.filter((m) => flowChannel(m) === flowChannel(l) && flowIndex(m) >= flowIndex(l)));
const AT_OR_BELOW: readonly (readonly FlowIdLabel[])[] = FLOW_ID_LABELS.map((l) =>
  FLOW_ID_LABELS.filter((m) => flowChannel(m) === flowChannel(l) && flowIndex(m) <= flowIndex(l)));

/** A stable string key for maps: `${id}/${label}`. */
export function flowKey(id: number, label: FlowIdLabel): string {
  return `${id}/${label}`;
}

/** prio/CRF override for messages sent in a chosen flow (§2.4.7 rule 12 "such as a high priority channel"). */
export interface MessageFlow {
  readonly prio: number;
  readonly crf: number;
}
