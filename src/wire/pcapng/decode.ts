import { fail, need, WireErrorCode } from '../errors.ts';
import { BYTE_ORDER_MAGIC, CLAUSE_PCAPNG, PCAPNG_BLOCK, PCAPNG_OPTION } from './format.ts';
import type { PcapngDirection, PcapngInterface, PcapngPacket } from './format.ts';

/**
 * pcapng readers. Either byte order, any number of sections (interface numbers restart in each,
 * §4.1), any `if_tsresol`; blocks riodp does not need (name resolution, statistics, custom, simple
 * packets, whose interface and time are unknown) are passed over and counted, as §3.1 allows.
 */

/** An interface as read: its section, and its timestamp unit. */
export interface PcapngInterfaceRead extends PcapngInterface {
  /** The section it belongs to (0 for the first Section Header Block). */
  readonly section: number;
}

/** A packet as read: `data` is a view into the file's bytes. */
export interface PcapngPacketRead extends PcapngPacket {
  /** Its interface in the whole file: an index into `PcapngFile.interfaces`. */
  readonly interface: number;
  /** The timestamp in nanoseconds, whatever the interface's resolution (rounded down). */
  readonly timestampNs: bigint;
  /** Offset of its block in the file, for error messages. */
  readonly offset: number;
}

/** What one block of the file gave. */
export type PcapngItem =
  | { readonly kind: 'interface'; readonly interface: PcapngInterfaceRead }
  | { readonly kind: 'packet'; readonly packet: PcapngPacketRead }
  | { readonly kind: 'skipped'; readonly type: number; readonly offset: number };

/** A whole capture: its interfaces (every section's, in order) and its packets. */
export interface PcapngFile {
  readonly interfaces: readonly PcapngInterfaceRead[];
  readonly packets: readonly PcapngPacketRead[];
  /** Blocks passed over (§3.1: a reader skips the block types it does not handle). */
  readonly skippedBlocks: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function str(bytes: Uint8Array, at: number, len: number, field: string, clause: string): string {
  try {
    return utf8.decode(bytes.subarray(at, at + len));
  } catch {
    fail(WireErrorCode.invalid, field, at, clause, 'the text is not UTF-8');
  }
}

interface RawOption {
  readonly code: number;
  readonly at: number;
  readonly len: number;
}

function options(view: DataView, le: boolean, at: number, end: number, clause: string): RawOption[] {
  const out: RawOption[] = [];
  // A list may end at the block's end without opt_endofopt; §3.5 makes the end marker optional.
  while (at + 4 <= end) {
    const code = view.getUint16(at, le);
    const len = view.getUint16(at + 2, le);
    if (code === PCAPNG_OPTION.endOfOpt) break;
    need(end, at + 4, len, `option ${code}`, clause);
    out.push({ code, at: at + 4, len });
    at += 4 + ((len + 3) & ~3);
  }
  return out;
}

/** Nanoseconds from a count in `tsresol` units (pcapng §4.2 if_tsresol). *
 * @example
 * ```ts
 * import { timestampToNs } from 'riodp/wire';
 *
 * timestampToNs(1_500n, 6); // → 1_500_000n: microseconds (pcapng's default) to nanoseconds
 * timestampToNs(1n, 0x80 | 10); // → 976_562n: 2^-10 s
 * ```
 */
export function timestampToNs(ts: bigint, tsresol: number): bigint {
  const exp = BigInt(tsresol & 0x7f);
  if ((tsresol & 0x80) !== 0) return (ts * 1_000_000_000n) >> exp;
  return exp <= 9n ? ts * 10n ** (9n - exp) : ts / 10n ** (exp - 9n);
}

const DIRECTIONS: readonly (PcapngDirection | undefined)[] = [undefined, 'inbound', 'outbound', undefined];

/**
 * Walks the blocks of a pcapng file, yielding each interface and packet as it comes; `data` of a
 * packet is a view into `bytes`. Throws a WireError (offset, field, clause) at the first block that
 * breaks the format: a file that does not start with a Section Header Block, a block length that
 * is not a multiple of 4 or whose trailing copy differs, a packet that names an interface the
 * section has not described.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { LINKTYPE_USER0, decodeCaptureRecord, readPcapng, writePcapng } from 'riodp/wire';
 *
 * const bytes = writePcapng({ interfaces: [{ name: 'ep', linkType: LINKTYPE_USER0 }], packets: [] }); // or readFileSync('capture.pcapng')
 * for (const item of readPcapng(bytes)) {
 *   if (item.kind !== 'packet') continue;
 *   const r = decodeCaptureRecord(item.packet.data, 0, item.packet.data.length);
 *   console.log(item.packet.timestampNs, r.kindName);
 * }
 * void readFileSync;
 * ```
 */
export function* readPcapng(bytes: Uint8Array): Generator<PcapngItem, void, undefined> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let le = true;
  let section = -1;
  let base = 0;
  let sectionInterfaces: PcapngInterfaceRead[] = [];
  let total = 0;
  let at = 0;
  while (at < bytes.length) {
    need(bytes.length, at, 12, 'block', CLAUSE_PCAPNG.block);
    const type = view.getUint32(at, true);
    if (type === PCAPNG_BLOCK.sectionHeader) {
      need(bytes.length, at + 8, 4, 'byte-order magic', CLAUSE_PCAPNG.shb);
      const magic = view.getUint32(at + 8, true);
      if (magic === BYTE_ORDER_MAGIC) le = true;
      else if (view.getUint32(at + 8, false) === BYTE_ORDER_MAGIC) le = false;
      else fail(WireErrorCode.invalid, 'byte-order magic', at + 8, CLAUSE_PCAPNG.shb, 'not 0x1A2B3C4D in either byte order');
      section += 1;
      base = total;
      sectionInterfaces = [];
    } else if (section < 0) {
      fail(WireErrorCode.invalid, 'block type', at, CLAUSE_PCAPNG.shb, 'a pcapng file starts with a Section Header Block (0x0A0D0D0A)');
    }
    const length = view.getUint32(at + 4, le);
    if (length < 12 || length % 4 !== 0) fail(WireErrorCode.invalid, 'block total length', at + 4, CLAUSE_PCAPNG.block, `${length} is not a multiple of 4 of at least 12`);
    need(bytes.length, at, length, 'block', CLAUSE_PCAPNG.block);
    const end = at + length - 4;
    if (view.getUint32(end, le) !== length) fail(WireErrorCode.invalid, 'block total length', end, CLAUSE_PCAPNG.block, 'the trailing copy differs from the leading one');
    const blockType = le ? type : view.getUint32(at, false);
    if (blockType === PCAPNG_BLOCK.sectionHeader) {
      need(end, at + 12, 12, 'section header', CLAUSE_PCAPNG.shb);
      const major = view.getUint16(at + 12, le);
      if (major !== 1) fail(WireErrorCode.unsupported, 'major version', at + 12, CLAUSE_PCAPNG.shb, `version ${major}; this reader knows 1`);
    } else if (blockType === PCAPNG_BLOCK.interfaceDescription) {
      need(end, at + 8, 8, 'interface description', CLAUSE_PCAPNG.idb);
      let name = `if${sectionInterfaces.length}`;
      let description: string | undefined;
      let tsresol = 6;
      for (const o of options(view, le, at + 16, end, CLAUSE_PCAPNG.idb)) {
        if (o.code === PCAPNG_OPTION.ifName) name = str(bytes, o.at, o.len, 'if_name', CLAUSE_PCAPNG.idb);
        else if (o.code === PCAPNG_OPTION.ifDescription) description = str(bytes, o.at, o.len, 'if_description', CLAUSE_PCAPNG.idb);
        else if (o.code === PCAPNG_OPTION.ifTsresol && o.len >= 1) tsresol = bytes[o.at] as number;
      }
      const iface: PcapngInterfaceRead = {
        section,
        name,
        linkType: view.getUint16(at + 8, le),
        snapLen: view.getUint32(at + 12, le),
        tsresol,
        ...(description === undefined ? {} : { description }),
      };
      sectionInterfaces.push(iface);
      total += 1;
      yield { kind: 'interface', interface: iface };
    } else if (blockType === PCAPNG_BLOCK.enhancedPacket) {
      need(end, at + 8, 20, 'enhanced packet', CLAUSE_PCAPNG.epb);
      const interfaceId = view.getUint32(at + 8, le);
      const iface = sectionInterfaces[interfaceId];
      if (iface === undefined) fail(WireErrorCode.invalid, 'interface id', at + 8, CLAUSE_PCAPNG.epb, `interface ${interfaceId} is not described in this section`);
      const timestamp = (BigInt(view.getUint32(at + 12, le)) << 32n) | BigInt(view.getUint32(at + 16, le));
      const captured = view.getUint32(at + 20, le);
      const originalLength = view.getUint32(at + 24, le);
      need(end, at + 28, captured, 'packet data', CLAUSE_PCAPNG.epb);
      const comments: string[] = [];
      let direction: PcapngDirection | undefined;
      for (const o of options(view, le, at + 28 + ((captured + 3) & ~3), end, CLAUSE_PCAPNG.epb)) {
        if (o.code === PCAPNG_OPTION.comment) comments.push(str(bytes, o.at, o.len, 'opt_comment', CLAUSE_PCAPNG.epb));
        else if (o.code === PCAPNG_OPTION.epbFlags && o.len === 4) direction = DIRECTIONS[view.getUint32(o.at, le) & 3];
      }
      yield {
        kind: 'packet',
        packet: {
          interfaceId,
          interface: base + interfaceId,
          timestamp,
          timestampNs: timestampToNs(timestamp, iface.tsresol ?? 6),
          data: bytes.subarray(at + 28, at + 28 + captured),
          originalLength,
          comments,
          offset: at,
          ...(direction === undefined ? {} : { direction }),
        },
      };
    } else {
      yield { kind: 'skipped', type: blockType, offset: at };
    }
    at += length;
  }
}

/** Reads a whole pcapng file (`readPcapng` collected). *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, decodePcapng, writePcapng } from 'riodp/wire';
 *
 * const file = writePcapng({ interfaces: [{ name: 'sw0.p0.tx', linkType: LINKTYPE_USER0 }], packets: [{ interfaceId: 0, timestamp: 10n, data: Uint8Array.of(0, 1, 0x11) }] });
 * const { interfaces, packets } = decodePcapng(file);
 * interfaces[packets[0]?.interface ?? 0]?.name; // → 'sw0.p0.tx'
 * ```
 */
export function decodePcapng(bytes: Uint8Array): PcapngFile {
  const interfaces: PcapngInterfaceRead[] = [];
  const packets: PcapngPacketRead[] = [];
  let skippedBlocks = 0;
  for (const item of readPcapng(bytes)) {
    if (item.kind === 'interface') interfaces.push(item.interface);
    else if (item.kind === 'packet') packets.push(item.packet);
    else skippedBlocks += 1;
  }
  return { interfaces, packets, skippedBlocks };
}

/** Whether `bytes` starts like a pcapng file (a Section Header Block), for readers that also take other formats. *
 * @example
 * ```ts
 * import { isPcapng, writePcapng } from 'riodp/wire';
 *
 * isPcapng(writePcapng({ interfaces: [], packets: [] })); // → true
 * isPcapng(Uint8Array.of(0xd4, 0xc3, 0xb2, 0xa1)); // → false: a classic pcap file
 * ```
 */
export function isPcapng(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && bytes[0] === 0x0a && bytes[1] === 0x0d && bytes[2] === 0x0d && bytes[3] === 0x0a;
}

