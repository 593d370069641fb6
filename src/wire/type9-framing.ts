import { need } from './errors.ts';
import { PREFIX_BYTES, idBytes } from './header.ts';
import { CLAUSE_T9 } from './type9-types.ts';

// What serial framing asks of a Type 9 packet (DECISIONS §1): its half-word parity, read from
// the header without decoding the packet, and whether that parity is an assumption.

/**
 * Half-word parity of the logical packet, for serial framing (DECISIONS §1). The header is
 * 3 + ids half-words (2 + ids for a continuation). Single and end segments add the O bit: "This
 * bit makes it possible for the destination to determine the end of a data payload if packet
 * padding is done by the underlying transport" (§4.2). Start and continuation payloads are the
 * MTU, a multiple of 4 bytes (§5.5.1), so they add an even count. Extended packets are taken to
 * be the fixed TM size (header + streamID + 4 bytes), also for reserved xtypes. For start and
 * continuation segments that is an assumption (type9ParityAssumed).
 */
export function type9OddHalfwords(bytes: Uint8Array, offset: number, available: number): boolean {
  const limit = offset + available;
  need(limit, offset, PREFIX_BYTES, 'prefix', CLAUSE_T9);
  const tt = ((bytes[offset + 1] as number) >> 4) & 3;
  const size = idBytes(tt, offset + 1);
  const at = offset + PREFIX_BYTES + 2 * size;
  // Checked from the IDs on, as decodeType9 does: a packet too short for its IDs is reported
  // where it ends, not at a header offset past the end.
  need(limit, offset + PREFIX_BYTES, 2 * size + 2, 'header', CLAUSE_T9);
  const flags = bytes[at + 1] as number;
  const header = 1 + size + 2;
  if (flags & 0x04) return ((header + 2) & 1) === 1;
  const s = flags >> 7;
  const e = (flags >> 6) & 1;
  if (!s && !e) return ((header - 1) & 1) === 1;
  if (s && !e) return (header & 1) === 1;
  return ((header + ((flags >> 1) & 1)) & 1) === 1;
}

/**
 * Start and continuation segments (xh = 0, E = 0): "Start segments and continuation segments are
 * always filled to the MTU size" (§3.2.4), so type9OddHalfwords takes their payload to be a
 * multiple of 4 bytes, and O and P, which would say otherwise, are reserved there (Figures 4-2,
 * 4-3). A payload of 4k + 2 bytes flips the parity: serial framing finds its CRC at the other
 * layout (serial.ts decodeSerial), so the packet reaches the segment size checks instead of being
 * reported as a CRC error.
 */
export function type9ParityAssumed(bytes: Uint8Array, offset: number, available: number): boolean {
  const limit = offset + available;
  if (offset + PREFIX_BYTES > limit) return false;
  const tt = ((bytes[offset + 1] as number) >> 4) & 3;
  if (tt === 3) return false;
  const flagsAt = offset + PREFIX_BYTES + 2 * (tt === 0 ? 1 : tt === 1 ? 2 : 4) + 1;
  if (flagsAt >= limit) return false;
  return ((bytes[flagsAt] as number) & 0x44) === 0;
}
