import { checkRange, checkRoom, fail, WireErrorCode } from '../errors.ts';
import { BYTE_ORDER_MAGIC, CLAUSE_PCAPNG, PCAPNG_BLOCK, PCAPNG_OPTION, TSRESOL_NS } from './format.ts';
import type { PcapngInterface, PcapngPacket, PcapngSection } from './format.ts';

/**
 * pcapng writers, little-endian (pcapng §4.1: the writer picks the byte order and says it with the
 * byte-order magic; every reader accepts both). Each returns the offset after the block.
 */

const utf8 = new TextEncoder();

interface Option {
  readonly code: number;
  readonly value: Uint8Array;
}

const pad4 = (n: number): number => (n + 3) & ~3;

function optionsLength(opts: readonly Option[]): number {
  // Every option is code(2) length(2) value padded to 32 bits; opt_endofopt closes the list (§3.5).
  return opts.length === 0 ? 0 : opts.reduce((n, o) => n + 4 + pad4(o.value.length), 4);
}

function writeOptions(opts: readonly Option[], bytes: Uint8Array, view: DataView, at: number): number {
  if (opts.length === 0) return at;
  for (const o of opts) {
    if (o.value.length > 0xffff) fail(WireErrorCode.range, 'option', at, CLAUSE_PCAPNG.options, `option ${o.code} is ${o.value.length} bytes; at most 65535`);
    view.setUint16(at, o.code, true);
    view.setUint16(at + 2, o.value.length, true);
    bytes.set(o.value, at + 4);
    bytes.fill(0, at + 4 + o.value.length, at + 4 + pad4(o.value.length));
    at += 4 + pad4(o.value.length);
  }
  view.setUint32(at, 0, true);
  return at + 4;
}

const text = (code: number, s: string | undefined): Option[] => (s === undefined ? [] : [{ code, value: utf8.encode(s) }]);

function sectionOptions(s: PcapngSection): Option[] {
  return [...text(PCAPNG_OPTION.comment, s.comment), ...text(PCAPNG_OPTION.shbUserAppl, s.application)];
}

function interfaceOptions(i: PcapngInterface): Option[] {
  return [
    ...text(PCAPNG_OPTION.ifName, i.name),
    ...text(PCAPNG_OPTION.ifDescription, i.description),
    { code: PCAPNG_OPTION.ifTsresol, value: Uint8Array.of(i.tsresol ?? TSRESOL_NS) },
  ];
}

const DIRECTION_BITS = { inbound: 1, outbound: 2 } as const;

function packetOptions(p: PcapngPacket): Option[] {
  const opts: Option[] = (p.comments ?? []).map((c) => ({ code: PCAPNG_OPTION.comment, value: utf8.encode(c) }));
  if (p.direction !== undefined) {
    const v = new Uint8Array(4);
    new DataView(v.buffer).setUint32(0, DIRECTION_BITS[p.direction], true);
    opts.push({ code: PCAPNG_OPTION.epbFlags, value: v });
  }
  return opts;
}

function frame(type: number, bodyLength: number, bytes: Uint8Array, offset: number, clause: string): { view: DataView; total: number } {
  const total = 12 + bodyLength;
  checkRoom(bytes, offset, total, clause);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(offset, type, true);
  view.setUint32(offset + 4, total, true);
  // The block's length again at its end, so that a reader can walk the file backwards (§3.1).
  view.setUint32(offset + total - 4, total, true);
  return { view, total };
}

/** Bytes of the Section Header Block for `s`. *
 * @example
 * ```ts
 * import { encodeSectionHeader, sectionHeaderLength } from 'riodp/wire';
 *
 * const shb = { application: 'riodp' };
 * const out = new Uint8Array(sectionHeaderLength(shb)); // → 44 bytes
 * encodeSectionHeader(shb, out, 0); // → 44
 * ```
 */
export function sectionHeaderLength(s: PcapngSection = {}): number {
  return 12 + 16 + optionsLength(sectionOptions(s));
}

/** Writes a Section Header Block (pcapng §4.1): version 1.0, section length unknown (-1). *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, encodeInterfaceDescription, encodeSectionHeader, interfaceDescriptionLength, sectionHeaderLength } from 'riodp/wire';
 *
 * // Streaming a capture: the header blocks first, then one Enhanced Packet Block per frame.
 * const iface = { name: 'sw0.p0.tx', linkType: LINKTYPE_USER0 };
 * const head = new Uint8Array(sectionHeaderLength() + interfaceDescriptionLength(iface));
 * encodeInterfaceDescription(iface, head, encodeSectionHeader({}, head, 0));
 * ```
 */
export function encodeSectionHeader(s: PcapngSection, bytes: Uint8Array, offset: number): number {
  const opts = sectionOptions(s);
  const { view, total } = frame(PCAPNG_BLOCK.sectionHeader, 16 + optionsLength(opts), bytes, offset, CLAUSE_PCAPNG.shb);
  view.setUint32(offset + 8, BYTE_ORDER_MAGIC, true);
  view.setUint16(offset + 12, 1, true);
  view.setUint16(offset + 14, 0, true);
  view.setBigInt64(offset + 16, -1n, true);
  writeOptions(opts, bytes, view, offset + 24);
  return offset + total;
}

/** Bytes of the Interface Description Block for `i`. *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, interfaceDescriptionLength } from 'riodp/wire';
 *
 * interfaceDescriptionLength({ name: 'sw0.p0.tx', linkType: LINKTYPE_USER0 }); // → 48: 20 bytes of block, if_name, if_tsresol, end of options
 * ```
 */
export function interfaceDescriptionLength(i: PcapngInterface): number {
  return 12 + 8 + optionsLength(interfaceOptions(i));
}

/** Writes an Interface Description Block (pcapng §4.2) with `if_name`, `if_description` and `if_tsresol`. *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, encodeInterfaceDescription, interfaceDescriptionLength } from 'riodp/wire';
 *
 * const iface = { name: 'sw0.p3.rx', linkType: LINKTYPE_USER0, description: 'switch 0 port 3, received' };
 * const idb = new Uint8Array(interfaceDescriptionLength(iface));
 * encodeInterfaceDescription(iface, idb, 0); // → idb.length
 * ```
 */
export function encodeInterfaceDescription(i: PcapngInterface, bytes: Uint8Array, offset: number): number {
  checkRange(i.linkType, 16, 'linkType', CLAUSE_PCAPNG.idb);
  checkRange(i.snapLen ?? 0, 32, 'snapLen', CLAUSE_PCAPNG.idb);
  checkRange(i.tsresol ?? TSRESOL_NS, 8, 'tsresol', CLAUSE_PCAPNG.idb);
  const opts = interfaceOptions(i);
  const { view, total } = frame(PCAPNG_BLOCK.interfaceDescription, 8 + optionsLength(opts), bytes, offset, CLAUSE_PCAPNG.idb);
  view.setUint16(offset + 8, i.linkType, true);
  view.setUint16(offset + 10, 0, true);
  view.setUint32(offset + 12, i.snapLen ?? 0, true);
  writeOptions(opts, bytes, view, offset + 16);
  return offset + total;
}

/** Bytes of the Enhanced Packet Block for `p`. *
 * @example
 * ```ts
 * import { enhancedPacketLength } from 'riodp/wire';
 *
 * enhancedPacketLength({ interfaceId: 0, timestamp: 0n, data: new Uint8Array(15) }); // → 48: 32 bytes of block, 16 of padded data
 * ```
 */
export function enhancedPacketLength(p: PcapngPacket): number {
  return 12 + 20 + pad4(p.data.length) + optionsLength(packetOptions(p));
}

/** Writes an Enhanced Packet Block (pcapng §4.3): the data, padded to 32 bits, and its comments and direction. *
 * @example
 * ```ts
 * import { encodeEnhancedPacket, enhancedPacketLength } from 'riodp/wire';
 *
 * const record = Uint8Array.of(0x00, 0x07, 0x02, 0x00, 0x20, 0x34, 0x00, 0x00, 0x00); // a CS48 record (made up bits)
 * const p = { interfaceId: 0, timestamp: 125_000n, data: record, comments: ['stype1 restart-from-retry'] };
 * const epb = new Uint8Array(enhancedPacketLength(p));
 * encodeEnhancedPacket(p, epb, 0);
 * ```
 */
export function encodeEnhancedPacket(p: PcapngPacket, bytes: Uint8Array, offset: number): number {
  checkRange(p.interfaceId, 32, 'interfaceId', CLAUSE_PCAPNG.epb);
  if (p.timestamp < 0n || p.timestamp > 0xffff_ffff_ffff_ffffn) fail(WireErrorCode.range, 'timestamp', 0, CLAUSE_PCAPNG.epb, 'the timestamp is an unsigned 64-bit count');
  const original = p.originalLength ?? p.data.length;
  checkRange(original, 32, 'originalLength', CLAUSE_PCAPNG.epb);
  if (original < p.data.length) fail(WireErrorCode.range, 'originalLength', 0, CLAUSE_PCAPNG.epb, `${original} is less than the ${p.data.length} bytes captured`);
  const opts = packetOptions(p);
  const dataEnd = offset + 28 + p.data.length;
  const { view, total } = frame(PCAPNG_BLOCK.enhancedPacket, 20 + pad4(p.data.length) + optionsLength(opts), bytes, offset, CLAUSE_PCAPNG.epb);
  view.setUint32(offset + 8, p.interfaceId, true);
  view.setUint32(offset + 12, Number(p.timestamp >> 32n), true);
  view.setUint32(offset + 16, Number(p.timestamp & 0xffff_ffffn), true);
  view.setUint32(offset + 20, p.data.length, true);
  view.setUint32(offset + 24, original, true);
  bytes.set(p.data, offset + 28);
  bytes.fill(0, dataEnd, offset + 28 + pad4(p.data.length));
  writeOptions(opts, bytes, view, offset + 28 + pad4(p.data.length));
  return offset + total;
}

/** A whole capture to write at once. */
export interface PcapngContents {
  readonly section?: PcapngSection;
  readonly interfaces: readonly PcapngInterface[];
  readonly packets: readonly PcapngPacket[];
}

/**
 * A whole pcapng file in one buffer: the section header, the interfaces in order (a packet's
 * `interfaceId` indexes them), then the packets. For captures too large for one buffer, write the
 * blocks one by one with the `encode…` functions.
 *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, captureRecordLength, encodeCaptureRecord, packetFrame, writePcapng } from 'riodp/wire';
 * import { writeFileSync } from 'node:fs';
 * import { join } from 'node:path';
 * import { tmpdir } from 'node:os';
 *
 * const doorbell = packetFrame({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 0, info: 0x1234 });
 * const data = new Uint8Array(captureRecordLength(doorbell));
 * encodeCaptureRecord(doorbell, data, 0);
 * const file = writePcapng({
 *   section: { application: 'my testbench' },
 *   interfaces: [{ name: 'ep1.tx', linkType: LINKTYPE_USER0 }],
 *   packets: [{ interfaceId: 0, timestamp: 1_000n, data, direction: 'outbound' }],
 * });
 * writeFileSync(join(tmpdir(), "doorbell.pcapng"), file); // Wireshark opens it: docs/pcapng.md
 * ```
 */
export function writePcapng(c: PcapngContents): Uint8Array {
  const section = c.section ?? {};
  let size = sectionHeaderLength(section);
  for (const i of c.interfaces) size += interfaceDescriptionLength(i);
  for (const p of c.packets) size += enhancedPacketLength(p);
  const out = new Uint8Array(size);
  let at = encodeSectionHeader(section, out, 0);
  for (const i of c.interfaces) at = encodeInterfaceDescription(i, out, at);
  for (const p of c.packets) {
    if (p.interfaceId >= c.interfaces.length) fail(WireErrorCode.range, 'interfaceId', at, CLAUSE_PCAPNG.epb, `interface ${p.interfaceId} of ${c.interfaces.length}`);
    at = encodeEnhancedPacket(p, out, at);
  }
  return out;
}
