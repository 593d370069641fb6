import type { Vsid } from '../streaming/vsid.ts';
import type { DefectEvent, DsErrorName, OpenContextInfo, ReassemblerEvent } from '../streaming/reassembler-types.ts';

/**
 * The stderr lines of `riodp reassemble`: `<clause>: <what was found> (<Part 8 error or outcome>)`,
 * after `riodp: line N: ` (docs/cli.md). A defect names its §3.2.5 reassembly rule as the
 * reassembler reports it; the words in parentheses are the Part 8 Logical/Transport Layer Error
 * Detect CSR error the defect sets (Part 10 rev 4.1 §5.4 Table 5-3).
 */

const ERROR_WORDS: Readonly<Record<DsErrorName, string>> = {
  MISSING_DATA_STREAMING_CONTEXT: 'missing context',
  OPEN_EXISTING_DATA_STREAMING_CONTEXT: 'open existing context',
  LONG_DATA_STREAMING_SEGMENT: 'long segment',
  SHORT_DATA_STREAMING_SEGMENT: 'short segment',
  DATA_STREAMING_PDU_LENGTH_ERROR: 'PDU length error',
};

export function describeVsid(v: Vsid): string {
  return `sourceID ${v.sourceID}, destinationID ${v.destinationID}, cos ${v.cos}, streamID ${v.streamID}`;
}

function pduOf(v: Vsid | null): string {
  return v === null ? 'its PDU' : `the PDU of ${describeVsid(v)}`;
}

function found(e: DefectEvent): string {
  const size = `${e.segment} segment of ${e.payloadLength} bytes, MTU ${e.mtu}`;
  switch (e.rule) {
    case 3:
    case 4:
    case 5:
    case 6:
      return size;
    case 7:
      return `end segment gives PDU length ${e.length ?? 0}, ${e.received} bytes received: a continuation segment was lost`;
    case 8:
      return `${e.segment} segment on the closed context ${e.context}: its start segment was lost`;
    case 9:
      return `${e.segment} segment on the open context ${e.context}: the end segment of ${pduOf(e.vsid)} was lost, ${e.received} bytes discarded`;
  }
}

export function describeDefect(e: DefectEvent): string {
  return `${e.clause}: ${found(e)} (${ERROR_WORDS[e.error]})`;
}

/**
 * Events that lose a PDU without a §3.2.5 defect: no free context (§3.2.4 "The number of contexts
 * that can be supported by a particular destination end point is specified in a CAR") and an
 * abort (segmentation rule 9). Undefined for events that say nothing about a PDU.
 */
export function describeEvent(e: ReassemblerEvent): string | undefined {
  switch (e.name) {
    case 'defective-pdu':
      return describeDefect(e);
    case 'no-context':
      return `Part 10 §3.2.4: start segment on the context ${e.context} with all ${e.contexts} segmentation contexts (SegSupport) open: the PDU of ${describeVsid(e.vsid)} is discarded (no context)`;
    case 'aborted':
      return `Part 10 §3.2.5 segmentation rule 9: the source aborted the PDU of ${describeVsid(e.vsid)} on the context ${e.context}, ${e.received} bytes discarded (abort)`;
    case 'idle-timeout':
    case 'not-data':
    case 'invalid-input':
      return undefined;
  }
}

/**
 * A PDU still open when the input ends: no end segment came, which rule 9 calls "a lost end
 * segment"; the end of the input plays the part of the time-out §3.2.5 suggests "as part of the
 * lost packet detection mechanism".
 */
export function describeUnfinished(c: OpenContextInfo): string {
  return `Part 10 §3.2.5 lost packet detection: the PDU of ${describeVsid(c.vsid)} opened on the context ${c.context} has no end segment at the end of the input, ${c.received} bytes in ${c.segments} segment${c.segments === 1 ? '' : 's'} discarded (lost end segment)`;
}
