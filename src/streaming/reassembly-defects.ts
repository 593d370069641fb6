import type { DsErrorName, ReassemblerCounterName, ReassemblyRule } from './reassembler-types.ts';

/**
 * The Part 8 error each §3.2.5 reassembly defect sets: the Logical/Transport Layer Error Detect
 * CSR bits 10–14 Part 10 adds (rev 4.1 §5.4 Table 5-3, "end point device only"), and the counter
 * the reassembler keeps for it.
 */
export interface DsError {
  readonly name: DsErrorName;
  readonly bit: number;
  readonly counter: ReassemblerCounterName;
}

const MISSING: DsError = { name: 'MISSING_DATA_STREAMING_CONTEXT', bit: 10, counter: 'missingContext' };
const OPEN_EXISTING: DsError = { name: 'OPEN_EXISTING_DATA_STREAMING_CONTEXT', bit: 11, counter: 'openExistingContext' };
const LONG: DsError = { name: 'LONG_DATA_STREAMING_SEGMENT', bit: 12, counter: 'longSegment' };
const SHORT: DsError = { name: 'SHORT_DATA_STREAMING_SEGMENT', bit: 13, counter: 'shortSegment' };
const PDU_LENGTH: DsError = { name: 'DATA_STREAMING_PDU_LENGTH_ERROR', bit: 14, counter: 'pduLengthError' };

/**
 * Rules 4 and 5 ("does not match the MTU size") split by direction: bit 12 "a payload size greater
 * than the MTU", bit 13 "a start or continuation data streaming segment with a payload size less
 * than the MTU". Rules 3 and 6 only fail on a long segment.
 */
const mtuMismatch = (payloadLength: number, mtu: number): DsError => (payloadLength > mtu ? LONG : SHORT);

export const DEFECT_ERRORS: Readonly<Record<ReassemblyRule, (payloadLength: number, mtu: number) => DsError>> = {
  3: () => LONG,
  4: mtuMismatch,
  5: mtuMismatch,
  6: () => LONG,
  7: () => PDU_LENGTH,
  8: () => MISSING,
  9: () => OPEN_EXISTING,
};
