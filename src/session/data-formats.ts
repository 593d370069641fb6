import { integerInRange, oneOf, orDefault, positiveInteger } from '../engine/config-checks.ts';
import { DATA2_MAX_PAYLOAD, smpData, smpData1, smpData2 } from '../wire/smp/data.ts';
import type { SmpData, SmpData1, SmpData2 } from '../wire/smp/data.ts';

/**
 * A PDU as DATA (Annex 2 §4.3.1 Table 4-12), DATA1 (§4.3.2 Table 4-13) or DATA2 (§4.3.3
 * Table 4-14) messages, and the receiver's reassembly of multi-message transfers.
 *
 * "The S and E bits are used to segment transfers larger than the maximum PDU length over
 * multiple messages ... If a transfer fits within a single segment, then both the S and E bits
 * are set. PDUs in a multi-segment transfer must be sent in order: Start segment, middle
 * segments, End segment" (§4.3.1).
 *
 * DATA_OFFSET (§3.5.3.3): "the number of octets of data that will be appended to the header of a
 * Data message". Every message has a header, so every message of a transfer carries the Offset
 * octets. They are counted in <Length> (the codec reads exactly <Length> octets after the fixed
 * header, so a receiver that does not know the stream's offset still finds the message's end and
 * its zero pad) and not in PDU-Length, which counts the PDU "exclusive of encapsulation headers".
 */

export type DataFormat = 'DATA' | 'DATA1' | 'DATA2';
export type DataMessage = SmpData | SmpData1 | SmpData2;

export interface DataHeader {
  readonly format: DataFormat;
  readonly sourceID: number;
  readonly streamID: number;
  readonly cos: number;
  /** <Mailbox> field of DATA/DATA1: the receiver's mailbox (§4.3.1) */
  readonly mailbox: number;
  /** DATA2 implementation-specific octet */
  readonly data2Octet?: number;
  /** DATA_OFFSET octets put after the header (§3.5.3.3), default none */
  readonly offsetOctets?: Uint8Array;
  /** Largest SMP message (Type 11 message) in octets: 16 segments x 256 = 4096 (Part 2) by default */
  readonly maxMessage?: number;
}

/** Part 2: a Type 11 message is at most 16 segments of at most 256 octets. */
export const DEFAULT_MAX_MESSAGE = 4096;

/** Fixed header octets: three words for DATA (Table 4-12), four for DATA1 (Table 4-13), one for DATA2 (Table 4-14). */
export const DATA_HEADER_OCTETS: Readonly<Record<DataFormat, number>> = { DATA: 12, DATA1: 16, DATA2: 4 };

/**
 * Largest <Length> of one message: 12 bits in DATA ("S+E+00+Length(4bits)" and an octet), 30
 * in DATA1 ("S+E+Length(6bits)" and three octets); DATA2's 14-bit field is bounded by "the
 * maximum PDU size is 16380 octets" (§4.3.3).
 */
export const DATA_LENGTH_MAX: Readonly<Record<DataFormat, number>> = { DATA: 0xfff, DATA1: 0x3fffffff, DATA2: DATA2_MAX_PAYLOAD };

/** The Offset field of DATA_OFFSET is one octet (§3.5.3.3 Table 3-6). */
export const MAX_OFFSET_OCTETS = 0xff;

/**
 * Largest PDU a format can carry. DATA: a transfer with middle segments states its size in the
 * 16-bit <StreamID/PDU-Length> field, so 65535 octets (a longer PDU always needs middle segments:
 * two messages carry at most 2 x 4095 octets). DATA1: the 32-bit <StreamID/PDU-Length>
 * <Reserved/PDU-Length> word, "transfers of up to 4 gigabytes" (§4.3.2). DATA2: "the maximum PDU
 * size is 16380 octets" (§4.3.3).
 */
export function maxPdu(format: DataFormat): number {
  switch (format) {
    case 'DATA':
      return 0xffff;
    case 'DATA1':
      return 0xffffffff;
    case 'DATA2':
      return DATA2_MAX_PAYLOAD;
  }
}

/**
 * PDU octets one message of `format` carries: the largest message a multiple of 8 octets within
 * `maxMessage` (payloads are padded to 8 octets, §4.3.2 and Part 2), less the header and the
 * Offset octets, and within the format's <Length> field. Zero when nothing fits.
 */
export function pduOctetsPerMessage(format: DataFormat, maxMessage: number, offsetOctets: number): number {
  const room = Math.floor(maxMessage / 8) * 8 - DATA_HEADER_OCTETS[format];
  return Math.max(0, Math.min(room, DATA_LENGTH_MAX[format]) - offsetOctets);
}

/**
 * A PDU as one or more DATA/DATA1/DATA2 messages (S/E bits, PDU-Length in middle segments, §4.3.1).
 *
 * The PDU is the sender's own (an application command), so a header field out of range or a PDU
 * over `maxPdu(format)` throws a `RangeError` naming the field; the engine checks the PDU size
 * first. Without Offset octets each payload is a view of `pdu`. The codec pads each message with
 * zeros to a multiple of 8 octets, not counted in any length field (§4.3.2).
 */
export function pduToDataMessages(pdu: Uint8Array, h: DataHeader): (SmpData | SmpData1 | SmpData2)[] {
  const format = oneOf(h.format, ['DATA', 'DATA1', 'DATA2'], 'format');
  const offset = h.offsetOctets ?? new Uint8Array(0);
  integerInRange(offset.length, 0, MAX_OFFSET_OCTETS, 'offsetOctets.length');
  const maxMessage = positiveInteger(orDefault(h.maxMessage, DEFAULT_MAX_MESSAGE), 'maxMessage');
  const per = pduOctetsPerMessage(format, maxMessage, offset.length);
  if (per < 1) throw new RangeError('maxMessage must leave room for PDU octets after the header and the Offset octets');
  if (pdu.length > maxPdu(format)) throw new RangeError(`pdu.length must be at most ${maxPdu(format)} for ${format}`);
  if (format === 'DATA2') {
    integerInRange(h.data2Octet ?? 0, 0, 0xff, 'data2Octet');
  } else {
    integerInRange(h.sourceID, 0, 0xffff, 'sourceID');
    integerInRange(h.streamID, 0, 0xffff, 'streamID');
    integerInRange(h.cos, 0, 0xff, 'cos');
    integerInRange(h.mailbox, 0, 0xff, 'mailbox');
  }

  const count = Math.max(1, Math.ceil(pdu.length / per));
  const out: DataMessage[] = [];
  for (let i = 0; i < count; i++) {
    const chunk = pdu.subarray(i * per, Math.min(pdu.length, (i + 1) * per));
    const payload = offset.length === 0 ? chunk : withOffset(offset, chunk);
    const s = i === 0 ? 1 : 0;
    const e = i === count - 1 ? 1 : 0;
    out.push(dataMessage(format, h, s, e, pdu.length, payload));
  }
  return out;
}

function withOffset(offset: Uint8Array, chunk: Uint8Array): Uint8Array {
  const p = new Uint8Array(offset.length + chunk.length);
  p.set(offset);
  p.set(chunk, offset.length);
  return p;
}

/**
 * "If either the S or E bit is set, then the StreamID/PDU-Length field contains the StreamID. If
 * neither S nor E is set, then the StreamID/PDU-Length field contains PDU-Length" (§4.3.1).
 */
function dataMessage(format: DataFormat, h: DataHeader, s: number, e: number, pduLength: number, payload: Uint8Array): DataMessage {
  if (format === 'DATA2') return smpData2({ s, e, payload, implementationSpecific: h.data2Octet ?? 0 });
  const where = (s | e) === 1 ? { streamID: h.streamID } : { pduLength };
  const f = { mailbox: h.mailbox, cos: h.cos, sourceID: h.sourceID, s, e, payload, ...where };
  return format === 'DATA' ? smpData(f) : smpData1(f);
}

export type DataResult =
  | { readonly kind: 'pdu'; readonly streamID: number | undefined; readonly pdu: Uint8Array }
  | { readonly kind: 'partial' }
  | {
      readonly kind: 'defect';
      readonly reason: string;
      /**
       * A complete PDU the same message also carried: a single-segment (S and E) message that
       * arrived while another transfer was open. The open transfer is the defect; this PDU is
       * whole and may be delivered.
       */
      readonly pdu?: Uint8Array;
      readonly streamID?: number;
    };

/** Default reassembly limit: 16 MiB, far above an Ethernet MTU (at most 64 KiB, §7.2.1), bounding memory per transfer. */
export const DEFAULT_REASSEMBLY_MAX_PDU = 1 << 24;

interface Transfer {
  readonly from: number;
  readonly mailbox: number | undefined;
  readonly format: DataFormat;
  readonly streamID: number | undefined;
  /** The Offset octets each message of this transfer carries, fixed by its start. */
  readonly offset: number;
  readonly parts: Uint8Array[];
  received: number;
  pduLength: number | undefined;
  /** A defect was reported: the rest of the transfer is discarded until its End or the next Start. */
  abandoned: boolean;
}

/** A multi-message PDU being rebuilt from DATA, DATA1 or DATA2 segments (§4.3), as snapshots show it. */
export interface TransferSnapshot {
  readonly from: number;
  readonly mailbox: number | null;
  readonly format: DataFormat;
  readonly streamID: number | null;
  readonly received: number;
  readonly pduLength: number | null;
  readonly abandoned: boolean;
}

/** The PDUs a `SessionEngine` is rebuilding from DATA segments, and the largest it accepts. */
export interface DataReassemblerSnapshot {
  readonly maxPdu: number;
  readonly transfers: readonly TransferSnapshot[];
}

/** Rebuilds multi-message PDUs; keyed by (source, mailbox, format) because middle segments carry no StreamID. */
export class DataReassembler {
  readonly #maxPdu: number;
  readonly #open = new Map<string, Transfer>();

  constructor(opts?: { readonly maxPdu?: number }) {
    this.#maxPdu = integerInRange(orDefault(opts?.maxPdu, DEFAULT_REASSEMBLY_MAX_PDU), 1, 0xffffffff, 'maxPdu');
  }

  /**
   * One received DATA/DATA1/DATA2 message from node `from`. `mailbox` is the Type 11 mailbox it
   * arrived in; when absent, DATA and DATA1 are keyed by their <Mailbox> field. `offset` is the
   * stream's DATA_OFFSET (§3.5.3.3), looked at on a Start segment (the one naming the stream) and
   * kept for the rest of its transfer. Never throws on what the message holds.
   */
  accept(from: number, mailbox: number | undefined, msg: SmpData | SmpData1 | SmpData2, offset = 0): DataResult {
    integerInRange(offset, 0, MAX_OFFSET_OCTETS, 'offset');
    const format = msg.command;
    const box = mailbox ?? (msg.command === 'DATA2' ? undefined : msg.mailbox);
    const key = `${from}/${box ?? '-'}/${format}`;
    const open = this.#open.get(key);
    const streamID = msg.command === 'DATA2' ? undefined : msg.streamID;
    const limit = Math.min(this.#maxPdu, maxPdu(format));

    if (msg.s === 1) {
      const pending = open !== undefined && !open.abandoned ? open : undefined;
      this.#open.delete(key);
      const prior = pending && `start segment while a transfer is open: ${describe(pending)} abandoned (§4.3.1 "Start segment, middle segments, End segment")`;
      const own = payloadDefect(msg.payload.length, offset, limit);
      if (own !== undefined) {
        // The rest of a broken transfer is then reported as such, not as segments without a start.
        if (msg.e === 0) this.#open.set(key, { from, mailbox: box, format, streamID, offset, parts: [], received: 0, pduLength: undefined, abandoned: true });
        return defect(prior ?? own);
      }
      const data = msg.payload.subarray(offset);
      if (msg.e === 1) {
        const pdu = data.slice();
        if (prior === undefined) return { kind: 'pdu', streamID, pdu };
        return streamID === undefined ? { kind: 'defect', reason: prior, pdu } : { kind: 'defect', reason: prior, pdu, streamID };
      }
      this.#open.set(key, { from, mailbox: box, format, streamID, offset, parts: [data.slice()], received: data.length, pduLength: undefined, abandoned: false });
      return prior === undefined ? { kind: 'partial' } : defect(prior);
    }

    const where = msg.e === 1 ? 'end segment' : 'middle segment';
    if (open === undefined) return defect(`${where} without a start segment (§4.3.1 "Start segment, middle segments, End segment")`);
    if (msg.e === 1) this.#open.delete(key);
    if (open.abandoned) return defect(`${where} of an abandoned transfer`);
    const fail = (reason: string): DataResult => {
      open.abandoned = true;
      return defect(`${reason}: ${describe(open)} abandoned`);
    };

    const pduLength = msg.command === 'DATA2' || msg.e === 1 ? undefined : msg.pduLength;
    if (pduLength !== undefined) {
      if (open.pduLength !== undefined && open.pduLength !== pduLength) return fail(`PDU-Length ${pduLength} differs from the transfer's ${open.pduLength}`);
      if (pduLength > limit) return fail(`PDU-Length ${pduLength} over the limit of ${limit}`);
      open.pduLength = pduLength;
    }
    if (msg.e === 1 && streamID !== open.streamID) return fail(`end segment StreamID ${String(streamID)} is not the start segment's ${String(open.streamID)}`);
    const data = stripOffset(msg.payload, open.offset);
    if (data === undefined) return fail(offsetDefect(msg.payload.length, open.offset));
    const received = open.received + data.length;
    if (received > limit) return fail(overLimit(received, limit));
    if (open.pduLength !== undefined && received > open.pduLength) return fail(`${received} octets received, more than PDU-Length ${open.pduLength}`);
    open.parts.push(data.slice());
    open.received = received;
    if (msg.e === 0) return { kind: 'partial' };
    if (open.pduLength !== undefined && received !== open.pduLength) return fail(`${received} octets received, PDU-Length is ${open.pduLength}`);
    return { kind: 'pdu', streamID: open.streamID, pdu: concat(open.parts, received) };
  }

  /** Forget partial transfers from a node (stream closed / node suspect). */
  dropFrom(from: number): void {
    for (const [key, t] of this.#open) if (t.from === from) this.#open.delete(key);
  }

  /** Forget partial DATA/DATA1 transfers of one stream from a node (the stream was closed, §3.5.1.8). */
  dropStream(from: number, streamID: number): void {
    for (const [key, t] of this.#open) if (t.from === from && t.streamID === streamID) this.#open.delete(key);
  }

  /** Transfers in progress (abandoned ones included until their End or next Start). */
  get size(): number {
    return this.#open.size;
  }

  snapshot(): DataReassemblerSnapshot {
    return {
      maxPdu: this.#maxPdu,
      transfers: [...this.#open.values()].map((t) => ({
        from: t.from,
        mailbox: t.mailbox ?? null,
        format: t.format,
        streamID: t.streamID ?? null,
        received: t.received,
        pduLength: t.pduLength ?? null,
        abandoned: t.abandoned,
      })),
    };
  }
}

function defect(reason: string): DataResult {
  return { kind: 'defect', reason };
}

function describe(t: Transfer): string {
  const stream = t.streamID === undefined ? '' : ` of stream 0x${t.streamID.toString(16)}`;
  return `${t.format} transfer${stream} from ${t.from} (${t.received} octets)`;
}

function overLimit(n: number, limit: number): string {
  return `PDU of ${n} octets is over the limit of ${limit}`;
}

function offsetDefect(length: number, offset: number): string {
  return `payload of ${length} octets is shorter than the ${offset} Offset octets (§3.5.3.3)`;
}

function stripOffset(payload: Uint8Array, offset: number): Uint8Array | undefined {
  return payload.length < offset ? undefined : payload.subarray(offset);
}

function payloadDefect(length: number, offset: number, limit: number): string | undefined {
  if (length < offset) return offsetDefect(length, offset);
  return length - offset > limit ? overLimit(length - offset, limit) : undefined;
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
