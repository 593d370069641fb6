import { fitsDeviceId } from '../engine/config-checks.ts';
import { CLAUSE_FLOW_ID } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { TT } from '../wire/header.ts';
import type { Tt } from '../wire/header.ts';
import { PDU_MAX, isFlowIdLabel, isMtu } from '../streaming/segment-pdu.ts';
import { LineError, nameErrorClass } from './line-error.ts';

/**
 * The option values of `riodp segment` and `riodp reassemble`. Commander hands them over as
 * strings and they are checked here, so that every usage error of these commands is one stderr
 * line naming the option, the value, what it must be and the clause (exit 2).
 */
export class UsageError extends LineError {}
nameErrorClass(UsageError, 'UsageError');

export const CLAUSE_MTU = 'Part 10 §5.5.1 Table 5-6 MTU';
const CLAUSE_TT = 'Part 3 §2.4 tt';
const CLAUSE_FIELDS = 'Part 10 §4.2 Table 4-1';
const CLAUSE_MAX_PDU = 'Part 10 §5.4.3 Table 5-5 MaxPDU';
const CLAUSE_SEG_SUPPORT = 'Part 10 §5.4.3 Table 5-5 SegSupport';
/** "0x0000 - 64k segmentation contexts": the field's 0, also accepted as 65536 (as the reassembler takes it). */
const SEG_SUPPORT_MAX = 0x10000;

/** Decimal or 0x hex digits only: Number() alone would also take '', ' 1', '1e3' and '0b1'. */
const NUMBER = /^(?:0x[0-9a-f]+|[0-9]+)$/i;

function bad(option: string, text: string, what: string, clause: string): UsageError {
  return new UsageError(`${option} '${text}' must be ${what} (${clause})`);
}

/** A number given as decimal or 0x hex that `ok` accepts. */
function numberOption(option: string, text: string, ok: (n: number) => boolean, what: string, clause: string): number {
  const n = NUMBER.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || !ok(n)) throw bad(option, text, what, clause);
  return n;
}

function required(option: string, text: string | undefined, what: string, clause: string): string {
  if (text === undefined) throw new UsageError(`${option} is required: ${what} (${clause})`);
  return text;
}

const inRange = (min: number, max: number) => (n: number): boolean => n >= min && n <= max;

export function mtuOption(text: string): number {
  return numberOption('--mtu', text, isMtu, 'a multiple of 4 from 32 to 256', CLAUSE_MTU);
}

/** The smallest transport type whose device IDs hold every ID (Part 3 §2.4: 8, 16 or 32 bits). */
function smallestTt(ids: readonly number[]): Tt {
  const top = Math.max(...ids);
  return top < 0x100 ? TT.dev8 : top < 0x10000 ? TT.dev16 : TT.dev32;
}

export interface SegmentFlags {
  readonly mtu?: string;
  readonly dest?: string;
  readonly src?: string;
  readonly cos?: string;
  readonly stream?: string;
  readonly flow: string;
  readonly tt?: string;
  readonly maxPdu: string;
  readonly json: boolean;
  /** `--pcap`: a capture file to write the segments to as well. */
  readonly pcap?: string;
}

export interface SegmentOptions {
  readonly mtu: number;
  readonly destinationID: number;
  readonly sourceID: number;
  readonly cos: number;
  readonly streamID: number;
  readonly flowID: FlowIdLabel;
  readonly tt: Tt;
  readonly maxPdu: number;
  readonly json: boolean;
}

const DEVICE_ID = 'a device ID of at most 32 bits';
const ID_MAX = 0xffffffff;

export function segmentOptions(f: SegmentFlags): SegmentOptions {
  const mtu = mtuOption(required('--mtu', f.mtu, 'the MTU in bytes, a multiple of 4 from 32 to 256', CLAUSE_MTU));
  const destText = required('--dest', f.dest, 'the destinationID of the segments', CLAUSE_TT);
  const srcText = required('--src', f.src, 'the sourceID of the segments', CLAUSE_TT);
  const destinationID = numberOption('--dest', destText, inRange(0, ID_MAX), DEVICE_ID, CLAUSE_TT);
  const sourceID = numberOption('--src', srcText, inRange(0, ID_MAX), DEVICE_ID, CLAUSE_TT);
  const cos = numberOption('--cos', required('--cos', f.cos, 'the class of service, 0 to 255', CLAUSE_FIELDS), inRange(0, 0xff), 'an integer from 0 to 255', CLAUSE_FIELDS);
  const streamText = required('--stream', f.stream, 'the streamID, 0 to 65535', CLAUSE_FIELDS);
  const streamID = numberOption('--stream', streamText, inRange(0, 0xffff), 'an integer from 0 to 65535', CLAUSE_FIELDS);
  if (!isFlowIdLabel(f.flow)) throw bad('--flow', f.flow, 'one of 0A–0F, 1A–8A', CLAUSE_FLOW_ID);
  let tt = smallestTt([destinationID, sourceID]);
  if (f.tt !== undefined) {
    tt = numberOption('--tt', f.tt, inRange(TT.dev8, TT.dev32), '0 (Dev8), 1 (Dev16) or 2 (Dev32)', CLAUSE_TT) as Tt;
    if (!fitsDeviceId(destinationID, tt)) throw bad('--dest', destText, `a device ID for tt ${tt}`, CLAUSE_TT);
    if (!fitsDeviceId(sourceID, tt)) throw bad('--src', srcText, `a device ID for tt ${tt}`, CLAUSE_TT);
  }
  const maxPdu = numberOption('--max-pdu', f.maxPdu, inRange(1, PDU_MAX), 'an integer from 1 to 65536', CLAUSE_MAX_PDU);
  return { mtu, destinationID, sourceID, cos, streamID, flowID: f.flow, tt, maxPdu, json: f.json };
}

export interface ReassembleFlags {
  readonly mtu: string;
  readonly segSupport: string;
  readonly out?: string;
  readonly outDir?: string;
  readonly lenient: boolean;
  /** `--pcap`: read the packets from a riodp capture instead of hex lines. */
  readonly pcap?: string;
  /** `--interface`: the capture's interface to reassemble. */
  readonly interface?: string;
}

/** Where reassembled PDUs go: concatenated to stdout or one file, or one file each in a folder. */
export type PduDestination =
  | { readonly kind: 'stdout' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'dir'; readonly path: string };

export interface ReassembleOptions {
  readonly mtu: number;
  /** The SegSupport field: 0 is "64k segmentation contexts". */
  readonly segSupport: number;
  readonly destination: PduDestination;
  /** Decode as `riodp decode --lenient` and skip the lines that still cannot be used, instead of stopping at the first. */
  readonly lenient: boolean;
}

export function reassembleOptions(f: ReassembleFlags): ReassembleOptions {
  const mtu = mtuOption(f.mtu);
  const segSupport = numberOption('--seg-support', f.segSupport, inRange(0, SEG_SUPPORT_MAX), 'an integer from 0 (64k contexts) to 65536', CLAUSE_SEG_SUPPORT);
  if (f.out !== undefined && f.outDir !== undefined) throw new UsageError('--out and --out-dir exclude each other: give one place for the PDUs (docs/cli.md)');
  if (f.interface !== undefined && f.pcap === undefined) throw new UsageError('--interface chooses among the interfaces of a capture: it needs --pcap');
  const destination: PduDestination =
    f.out !== undefined ? { kind: 'file', path: f.out } : f.outDir !== undefined ? { kind: 'dir', path: f.outDir } : { kind: 'stdout' };
  return { mtu, segSupport, destination, lenient: f.lenient };
}
