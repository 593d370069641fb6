/**
 * pcapng, the capture file format Wireshark and tshark read (IETF draft-ietf-opsawg-pcapng, "PCAP
 * Next Generation (pcapng) Capture File Format"; the section numbers below are that draft's, -02).
 * riodp writes the blocks every reader understands: one Section Header Block, one Interface
 * Description Block per link direction, one Enhanced Packet Block per captured frame. The layout
 * of riodp's own records inside those blocks is docs/pcapng.md.
 */

/** The clause errors quote. */
export const CLAUSE_PCAPNG = {
  block: 'pcapng §3.1',
  options: 'pcapng §3.5',
  shb: 'pcapng §4.1',
  idb: 'pcapng §4.2',
  epb: 'pcapng §4.3',
} as const;

/** Block types (pcapng §4, §10.1). A reader passes over every other type. *
 * @example
 * ```ts
 * import { PCAPNG_BLOCK, decodePcapng, writePcapng } from 'riodp/wire';
 *
 * const file = writePcapng({ interfaces: [], packets: [] });
 * new DataView(file.buffer).getUint32(0, true) === PCAPNG_BLOCK.sectionHeader; // true
 * decodePcapng(file).skippedBlocks; // → 0: every block was one riodp reads
 * ```
 */
export const PCAPNG_BLOCK = {
  sectionHeader: 0x0a0d0d0a,
  interfaceDescription: 0x00000001,
  simplePacket: 0x00000003,
  nameResolution: 0x00000004,
  interfaceStatistics: 0x00000005,
  enhancedPacket: 0x00000006,
} as const;

/** The Section Header Block's byte-order magic (pcapng §4.1), as the writer's byte order stores it. */
export const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

/** Option codes (pcapng §3.5 common, §4.1–§4.3 per block). *
 * @example
 * ```ts
 * import { PCAPNG_OPTION } from 'riodp/wire';
 *
 * // Options are code(16) | length(16) | value: an if_tsresol of nanoseconds, as an IDB carries it.
 * const opt = Uint8Array.of(PCAPNG_OPTION.ifTsresol, 0, 1, 0, 9, 0, 0, 0); // little-endian, padded to 32 bits
 * ```
 */
export const PCAPNG_OPTION = {
  endOfOpt: 0,
  comment: 1,
  shbHardware: 2,
  shbOs: 3,
  shbUserAppl: 4,
  ifName: 2,
  ifDescription: 3,
  ifTsresol: 9,
  epbFlags: 2,
  epbDropCount: 4,
} as const;

/**
 * LINKTYPE_USER0 (147), one of the link types tcpdump.org reserves for private use: riodp's
 * default, since RapidIO has no link type of its own yet (LINKTYPE_RIO, 124, is reserved without a
 * defined format). docs/pcapng.md says how to point Wireshark's dissector at it.
 *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, decodePcapng, writePcapng } from 'riodp/wire';
 *
 * const file = writePcapng({ interfaces: [{ name: 'sw0.p1.rx', linkType: LINKTYPE_USER0 }], packets: [] });
 * const riodpLinks = decodePcapng(file).interfaces.filter((i) => i.linkType === LINKTYPE_USER0); // → the one interface
 * ```
 */
export const LINKTYPE_USER0 = 147;

/** `if_tsresol` 9: timestamps in nanoseconds (pcapng §4.2: 10^-9 s). *
 * @example
 * ```ts
 * import { LINKTYPE_USER0, TSRESOL_NS, decodePcapng, writePcapng } from 'riodp/wire';
 *
 * // Interfaces from another tool may count microseconds (no if_tsresol): timestampNs converts.
 * const file = writePcapng({ interfaces: [{ name: 'ep', linkType: LINKTYPE_USER0, tsresol: 6 }], packets: [{ interfaceId: 0, timestamp: 3n, data: new Uint8Array(4) }] });
 * decodePcapng(file).packets[0]?.timestampNs; // → 3000n
 * TSRESOL_NS; // → 9, what riodp writes
 * ```
 */
export const TSRESOL_NS = 9;

/** The direction bits of `epb_flags` (pcapng §4.3.1). */
export type PcapngDirection = 'inbound' | 'outbound';

/** One interface: for riodp, one direction of one link (`sw0.p2.tx`). */
export interface PcapngInterface {
  /** `if_name`. */
  readonly name: string;
  /** The link type of its packets; LINKTYPE_USER0 for riodp records. */
  readonly linkType: number;
  /** `if_description`, when there is one. */
  readonly description?: string;
  /**
   * `if_tsresol` as stored: bit 7 clear, the resolution is 10^-n s; set, 2^-n s. Absent in a file
   * means 6 (microseconds, pcapng §4.2); riodp writes 9.
   */
  readonly tsresol?: number;
  /** Most bytes of a packet the capture keeps; 0 for no limit. */
  readonly snapLen?: number;
}

/** One captured frame, as written (`timestamp` in the units of its interface's `tsresol`). */
export interface PcapngPacket {
  /** The index of its interface in its section. */
  readonly interfaceId: number;
  /** 64-bit timestamp in the interface's units (nanoseconds for riodp's interfaces). */
  readonly timestamp: bigint;
  /** The captured bytes. */
  readonly data: Uint8Array;
  /** Length on the link; `data.length` when absent (nothing cut off). */
  readonly originalLength?: number;
  /** `opt_comment` options: defects, drops, what a reader should know. */
  readonly comments?: readonly string[];
  /** `epb_flags` direction, when known. */
  readonly direction?: PcapngDirection;
}

/** The Section Header Block's options riodp writes. */
export interface PcapngSection {
  /** `shb_userappl`: the program that wrote the file. */
  readonly application?: string;
  /** `opt_comment`. */
  readonly comment?: string;
}
