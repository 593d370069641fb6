import { booleanFlag, deviceIdForTt, fitsDeviceId, integerInRange, orDefault, transportType } from '../engine/config-checks.ts';
import { CLAUSE_FLOW_ID, FLOW_IDS, channelPacketFields, flowIdChannel, packetForFlowId } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { MTU_MAX, MTU_MIN } from '../wire/type9.ts';
import type { Type9AbortPacket, Type9DataPacket } from '../wire/type9-types.ts';
import type { SegmenterRefusal } from './segmenter-types.ts';

/**
 * Part 10 §3.2.5 segmentation rules 2–9 as pure functions: the segments of one PDU (Figures 3-3
 * and 3-4). Shared by the `segmenter` engine (one segment per pull), `riodp segment` and the
 * property tests.
 *
 * Segment payloads are `subarray` views of the PDU payload: nothing is copied, and they never
 * include the P pad byte, which encodeType9 appends (docs/conformance.md, Type 9 payload and the
 * pad byte).
 */

/** "0x0000 - 64kbytes" (Table 4-1 length): the largest PDU a length field can describe. */
export const PDU_MAX = 0x10000;

const CLAUSE_LENGTH = 'Part 10 §4.2 Table 4-1 length';
const CLAUSE_FIELDS = 'Part 10 §4.2 Table 4-1';
const CLAUSE_MAX_PDU = 'Part 10 §3.2.4, §5.4.3 Table 5-5 MaxPDU';
const CLAUSE_TT = 'Part 3 §2.4 tt';

/**
 * Header fields every segment of a PDU shares: "all segments of a PDU must also have that same
 * flowID and cos assignments" (§3.2.4), hence the same prio/CRF/VC, and "all packets making up an
 * individual PDU … must be in the same transaction request flow" (§3.2.4, §2.4).
 */
export interface SegmentHeader {
  readonly tt: number;
  readonly destinationID: number;
  readonly sourceID: number;
  readonly cos: number;
  readonly streamID: number;
  readonly vc: number;
  readonly prio: number;
  readonly crf: number;
}

/** The VC, prio and CRF bits of a flow's request packets. */
export interface FlowBits {
  readonly vc: number;
  readonly prio: number;
  readonly crf: number;
}

/**
 * A flow's header bits: VC0 flows 0A–0F by Part 6 Tables 6-6/6-7 (request prio, CRF when
 * supported), VC1–VC8 flows nA by VC = 1 and PRIO||CRF = n − 1 (Part 6 Table 2-2). Data streaming
 * segments are requests: "the transactions are not acknowledged with a response packet" (§2.2).
 */
export function flowBits(flowID: FlowIdLabel, crfSupported = true): FlowBits | undefined {
  const channel = flowIdChannel(flowID);
  if (channel === undefined) return undefined;
  if (channel === 0) {
    const f = packetForFlowId(flowID, { response: false, crfSupported });
    return f === undefined ? undefined : { vc: 0, prio: f.prio, crf: f.crf };
  }
  return channelPacketFields(channel);
}

export function isFlowIdLabel(v: unknown): v is FlowIdLabel {
  return typeof v === 'string' && Object.hasOwn(FLOW_IDS, v);
}

/** MTU in bytes, 32..256 in 4-byte steps (§5.5.1 Table 5-6). */
export function isMtu(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= MTU_MIN && v <= MTU_MAX && v % 4 === 0;
}

/** Segments of an n-byte PDU: one when n ≤ MTU (rule 5), else ⌈n / MTU⌉ (rules 6–8). */
export function segmentCount(length: number, mtu: number): number {
  return Math.ceil(length / mtu);
}

/**
 * The segment of `payload` that starts at byte `offset` (a multiple of the MTU below the PDU
 * length). Rule 4: the start segment "is filled to the end of the PDU data or to the MTU size";
 * rule 5: a PDU that fits is "re-marked as a single segment"; rule 7: continuation segments "are
 * filled to MTU size"; rule 8: the last is the end segment, "less than or equal to the MTU size".
 * Single and end segments carry O and P per Table 4-2: P = a pad byte makes the payload whole
 * half-words, O = the padded payload is an odd number of half-words.
 */
export function segmentAt(h: SegmentHeader, payload: Uint8Array, offset: number, mtu: number): Type9DataPacket {
  const n = payload.length;
  return segmentOf(h, payload.subarray(offset, Math.min(n, offset + mtu)), offset, n, mtu);
}

/**
 * segmentAt with the payload view `data` already cut (bytes [offset, min(n, offset + mtu)) of an
 * n-byte PDU): the segmenter cuts its views itself (see payloadView).
 */
export function segmentOf(h: SegmentHeader, data: Uint8Array, offset: number, n: number, mtu: number): Type9DataPacket {
  const rest = n - offset;
  if (rest > mtu) {
    if (offset === 0) {
      return {
        ackID: 0, vc: h.vc, crf: h.crf, prio: h.prio, tt: h.tt, ftype: 9, destinationID: h.destinationID, sourceID: h.sourceID,
        cos: h.cos, start: 1, end: 0, rsrv: 0, xh: 0, odd: 0, pad: 0, segment: 'start', streamID: h.streamID, payload: data,
      };
    }
    return {
      ackID: 0, vc: h.vc, crf: h.crf, prio: h.prio, tt: h.tt, ftype: 9, destinationID: h.destinationID, sourceID: h.sourceID,
      cos: h.cos, start: 0, end: 0, rsrv: 0, xh: 0, odd: 0, pad: 0, segment: 'continuation', payload: data,
    };
  }
  const odd = ((rest + 1) >> 1) & 1;
  const pad = rest & 1;
  if (offset === 0) {
    return {
      ackID: 0, vc: h.vc, crf: h.crf, prio: h.prio, tt: h.tt, ftype: 9, destinationID: h.destinationID, sourceID: h.sourceID,
      cos: h.cos, start: 1, end: 1, rsrv: 0, xh: 0, odd, pad, segment: 'single', streamID: h.streamID, payload: data,
    };
  }
  // "0x0000 - 64kbytes": a 65536-byte PDU is written as 0, as the codec reads it.
  return {
    ackID: 0, vc: h.vc, crf: h.crf, prio: h.prio, tt: h.tt, ftype: 9, destinationID: h.destinationID, sourceID: h.sourceID,
    cos: h.cos, start: 0, end: 1, rsrv: 0, xh: 0, odd, pad, segment: 'end', length: n & 0xffff, pduLength: n, payload: data,
  };
}

/**
 * The buffer segment views of `payload` are cut from with `new Uint8Array(buffer, byteOffset + offset,
 * length)`, or null when `payload` is not exactly a Uint8Array. That constructor costs about two thirds
 * of `subarray`, which looks up the species constructor on every call; a subclass (a Node Buffer)
 * keeps `subarray`, so its segments stay of its class. Read once per PDU, as is `byteOffset`: the
 * getters cost as much as a view.
 */
export function viewBuffer(payload: Uint8Array): ArrayBufferLike | null {
  return Object.getPrototypeOf(payload) === Uint8Array.prototype ? payload.buffer : null;
}

/** Bytes [offset, end) of `payload` as a view; `buffer` is viewBuffer(payload), `base` its byteOffset. */
export function payloadView(payload: Uint8Array, buffer: ArrayBufferLike | null, base: number, offset: number, end: number): Uint8Array {
  return buffer === null ? payload.subarray(offset, end) : new Uint8Array(buffer, base + offset, end - offset);
}

/** Rule 9: "an end segment with no data payload and with the length field set to zero". */
export function abortSegment(h: SegmentHeader): Type9AbortPacket {
  return {
    ackID: 0, vc: h.vc, crf: h.crf, prio: h.prio, tt: h.tt, ftype: 9, destinationID: h.destinationID, sourceID: h.sourceID,
    cos: h.cos, start: 0, end: 1, rsrv: 0, xh: 0, odd: 0, pad: 0, segment: 'abort', length: 0, payload: new Uint8Array(0),
  };
}

/** What a PDU's fields are checked for before it is queued. */
export interface PduFields {
  readonly destinationID: unknown;
  readonly cos: unknown;
  readonly streamID: unknown;
  readonly flowID: unknown;
  readonly payload: unknown;
}

export interface PduProblem {
  readonly reason: SegmenterRefusal;
  readonly clause: string;
  /** The input field at fault. */
  readonly field: 'payload' | 'flowID' | 'destinationID' | 'cos' | 'streamID';
  /** What the field must be, worded to follow the field name. */
  readonly detail: string;
}

function problem(reason: SegmenterRefusal, clause: string, field: PduProblem['field'], detail: string): PduProblem {
  return { reason, clause, field, detail };
}

const isBits = (v: unknown, bits: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** bits;

/** Why a PDU cannot be segmented towards a destination with `maxPdu`, or undefined when it can. */
export function pduProblem(p: PduFields, tt: number, maxPdu: number): PduProblem | undefined {
  if (!(p.payload instanceof Uint8Array)) return problem('invalid-payload', 'riodp API', 'payload', 'must be a Uint8Array');
  if (!isFlowIdLabel(p.flowID)) return problem('invalid-flow-id', CLAUSE_FLOW_ID, 'flowID', 'must be one of 0A–0F, 1A–8A');
  if (!fitsDeviceId(p.destinationID, tt)) return problem('invalid-destination-id', CLAUSE_TT, 'destinationID', `must be a device ID for tt ${tt}`);
  if (!isBits(p.cos, 8)) return problem('invalid-cos', CLAUSE_FIELDS, 'cos', 'must be an integer from 0 to 255');
  if (!isBits(p.streamID, 16)) return problem('invalid-stream-id', CLAUSE_FIELDS, 'streamID', 'must be an integer from 0 to 65535');
  const n = p.payload.length;
  if (n === 0) return problem('empty-pdu', CLAUSE_LENGTH, 'payload', 'must be at least 1 byte');
  if (n > PDU_MAX) return problem('pdu-too-long', CLAUSE_LENGTH, 'payload', `must be at most 65536 bytes, not ${n}`);
  if (n > maxPdu) return problem('above-max-pdu', CLAUSE_MAX_PDU, 'payload', `must be at most the destination's MaxPDU of ${maxPdu} bytes, not ${n}`);
  return undefined;
}

export interface SegmentPduArgs {
  readonly payload: Uint8Array;
  /** 32..256 in 4-byte steps. */
  readonly mtu: number;
  readonly destinationID: number;
  readonly sourceID: number;
  /** Default 0 (Dev8). */
  readonly tt?: number;
  readonly cos: number;
  readonly streamID: number;
  readonly flowID: FlowIdLabel;
  /** Default true. */
  readonly crfSupported?: boolean;
  /** The destination's MaxPDU in bytes, 1..65536. Default 65536. */
  readonly maxPdu?: number;
}

/**
 * Every segment of one PDU, start to end (rules 2–8). Bad arguments throw a RangeError naming the
 * field; the engine checks the same rules with pduProblem and refuses instead.
 */
export function segmentPdu(args: SegmentPduArgs): Type9DataPacket[] {
  const tt = transportType(orDefault(args.tt, 0), 'tt');
  if (!isMtu(args.mtu)) throw new RangeError('mtu must be a multiple of 4 from 32 to 256');
  const sourceID = deviceIdForTt(args.sourceID, tt, 'sourceID');
  const crfSupported = booleanFlag(orDefault(args.crfSupported, true), 'crfSupported');
  const maxPdu = integerInRange(orDefault(args.maxPdu, PDU_MAX), 1, PDU_MAX, 'maxPdu');
  const bad = pduProblem(args, tt, maxPdu);
  if (bad !== undefined) throw new RangeError(`${bad.field} ${bad.detail} (${bad.clause})`);
  const bits = flowBits(args.flowID, crfSupported) as FlowBits;
  const h: SegmentHeader = {
    tt, destinationID: args.destinationID, sourceID, cos: args.cos, streamID: args.streamID, vc: bits.vc, prio: bits.prio, crf: bits.crf,
  };
  const { payload, mtu } = args;
  const n = payload.length;
  const buffer = viewBuffer(payload);
  const base = payload.byteOffset;
  const out: Type9DataPacket[] = [];
  for (let offset = 0; offset < n; offset += mtu) {
    out.push(segmentOf(h, payloadView(payload, buffer, base, offset, Math.min(n, offset + mtu)), offset, n, mtu));
  }
  return out;
}
