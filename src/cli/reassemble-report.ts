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

/**
 * Rule 7 "the length (provided by the end segment packet header) is checked against the received
 * data count. A mismatch indicates a lost continuation segment": which way the count is off. Fewer
 * bytes is the lost segment the rule names; more cannot come from a loss (a segment arrived twice,
 * or a start or continuation of 4k + 2 bytes read two bytes longer, docs/conformance.md).
 */
function lengthMismatch(length: number, received: number): string {
  return received < length
    ? `${length - received} bytes missing: a continuation segment was lost`
    : `${received - length} bytes extra: more data than the PDU length`;
}

function found(e: DefectEvent): string {
  const size = `${e.segment} segment of ${e.payloadLength} bytes, MTU ${e.mtu}`;
  switch (e.rule) {
    case 3:
    case 6:
      return size;
    case 4:
    case 5:
      // "filled to the MTU size" (§3.2.4): an MTU is a multiple of 4 bytes (§5.5.1 Table 5-6).
      return e.payloadLength % 4 === 0 ? size : `${size}, not a multiple of 4 bytes`;
    case 7:
      return `end segment gives PDU length ${e.length ?? 0}, ${e.received} bytes received, ${lengthMismatch(e.length ?? 0, e.received)}`;
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

/** The counts of a `riodp reassemble` run, for its summary line. */
export interface ReassembleTally {
  /** What the input is made of: hex lines, or the records of a capture (`--pcap`). */
  unit: 'line' | 'record';
  /** Records that hold no packet (control symbols, link management), passed over: `--pcap` only. */
  notPackets: number;
  /** Type 9 packets handed to the engine. */
  packets: number;
  /** Packets that are not Type 9, passed over; the line of the first. */
  notType9: number;
  firstNotType9: number;
  /** Bad lines skipped (`--lenient`). */
  skipped: number;
  pdus: number;
  /** PDUs lost: defects, no free context, no end segment. */
  lost: number;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/**
 * The last stderr line of a run that passed over or skipped a line (docs/cli.md), e.g. `summary: 9
 * Type 9 packets reassembled, 2 packets not Type 9 passed over (first at line 3), 1 bad line
 * skipped; 2 PDUs delivered, 1 lost`.
 */
export function describeSummary(t: ReassembleTally): string {
  const passed = `${count(t.notType9, 'packet')} not Type 9 passed over${t.notType9 > 0 ? ` (first at ${t.unit} ${t.firstNotType9})` : ''}`;
  const symbols = t.unit === 'record' ? `, ${count(t.notPackets, 'record')} without a packet passed over` : '';
  return `summary: ${count(t.packets, 'Type 9 packet')} reassembled, ${passed}${symbols}, ${count(t.skipped, `bad ${t.unit}`)} skipped; ${count(t.pdus, 'PDU')} delivered, ${t.lost} lost`;
}
