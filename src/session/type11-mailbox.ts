import { integerInRange } from '../engine/config-checks.ts';
import { MESSAGE_MAX_SEGMENT, ssizeFor } from '../wire/type11.ts';

/**
 * How an Annex 2 message maps onto Part 2 data message packets: the mailbox number, the segments
 * and the double-word pad. Pure functions shared by the Type 11 conveyance and its tests.
 *
 * Mailbox. Annex 2 names a Type 11 contact by "the mailbox ID, formatted according to the
 * definition in Part 2" (Table 5-3; Table 5-6 "the low 8 bits are the mailbox ID"). Part 2 numbers
 * mailboxes 0–63 ("xmbox || mbox ... 0000 00 - mailbox 0 ... 1111 11 - mailbox 63", Table 4-4);
 * the 8-bit ID is that number, so IDs 64–255 name no mailbox. A multi-segment message carries only
 * the 2-bit mbox, its last four bits being msgseg ("For multiple packet messages ... each of four
 * different mailboxes", §2.3.1; "For single packet messages, the letter and mailbox fields instead
 * allow four concurrent letters to sixty-four possible mailboxes"): mailboxes 0–3 take messages of
 * any length, 4–63 single-segment messages only.
 *
 * Every part of the end point that names a mailbox uses these functions, so that a mailbox one
 * part takes is one the others take too: the engine's configuration (`checkMailbox`) and the size
 * of its messages (`messageLimit`), the local advertisement (`checkMailbox`), discovery
 * (`isMailbox`) and the Type 11 conveyance.
 */

/** Part 2 Table 4-4: mailboxes 0–63. */
export const MAILBOX_COUNT = 64;
/** Mailboxes a multi-segment message can reach: mbox alone, 0–3. */
export const MULTI_SEGMENT_MAILBOXES = 4;
/** Part 2 §2.3.1 "A source may generate a single message operation of up to 16 individual packets". */
export const MESSAGE_MAX_SEGMENTS = 16;
/** ssize 0b1001–0b1110: 8 to 256 bytes (Table 4-4). */
export const STANDARD_SEGMENT_SIZES: readonly number[] = [8, 16, 32, 64, 128, 256];
/** Part 2 §3.3.2 "MESSAGE transaction data payloads are always multiples of doubleword quantities". */
export const DOUBLE_WORD = 8;

export function isMailbox(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MAILBOX_COUNT;
}

/** A configured or planned mailbox: 0–63, else a RangeError naming `field`. */
export function checkMailbox(v: unknown, field: string): number {
  return integerInRange(v, 0, MAILBOX_COUNT - 1, field);
}

/** The mbox field of a message to `mailbox` (its low two bits; Table 4-4 "xmbox || mbox"). */
export function mboxOf(mailbox: number): number {
  return mailbox & 3;
}

/** The xmbox field of a single-segment message to `mailbox` (its upper four bits). */
export function xmboxOf(mailbox: number): number {
  return mailbox >> 2;
}

/**
 * The largest message `mailbox` can take when multi-segment messages use `segmentSize` (default
 * 256: "up to 16 individual packets containing as much as 256 data bytes per packet", Part 2
 * §2.3.1): 16 segments for mailboxes 0–3, one segment for 4–63.
 */
export function maxMessageBytes(mailbox: number, segmentSize: number = MESSAGE_MAX_SEGMENT): number {
  return mailbox < MULTI_SEGMENT_MAILBOXES ? MESSAGE_MAX_SEGMENTS * segmentSize : segmentSize;
}

/**
 * The largest message a sender cutting segments of `segmentSize` can put in `mailbox`; undefined
 * when the value names no Part 2 mailbox (decision T2).
 */
export function messageLimit(mailbox: unknown, segmentSize: number = MESSAGE_MAX_SEGMENT): number | undefined {
  return isMailbox(mailbox) ? maxMessageBytes(mailbox, segmentSize) : undefined;
}

/** Whether a message of `length` octets fits in `limit` once padded to whole double-words (the pad travels too). */
export function fitsMessage(length: number, limit: number): boolean {
  return Math.ceil(length / DOUBLE_WORD) * DOUBLE_WORD <= limit;
}

/** How a message of `length` octets (a whole number of double-words, > 0) is cut. */
export interface SegmentPlan {
  /** Segments, 1–16: msglen + 1. */
  readonly segments: number;
  /**
   * ssize in bytes. Multi-segment: `segmentSize`, "the data size of all of the transactions except
   * (possibly) the last" (§3.3.2). Single segment: the smallest standard size that holds it.
   */
  readonly ssizeBytes: number;
  /** The ssize field (Table 4-4). */
  readonly ssize: number;
}

/**
 * One segment when `length` ≤ `segmentSize`, else ⌈length / segmentSize⌉; undefined when that is
 * more than 16 or `length` is not a positive multiple of 8.
 */
export function segmentPlan(length: number, segmentSize: number): SegmentPlan | undefined {
  if (!Number.isInteger(length) || length <= 0 || length % DOUBLE_WORD !== 0) return undefined;
  if (length <= segmentSize) {
    let ssizeBytes = DOUBLE_WORD;
    while (ssizeBytes < length) ssizeBytes *= 2;
    return { segments: 1, ssizeBytes, ssize: ssizeFor(ssizeBytes) as number };
  }
  const segments = Math.ceil(length / segmentSize);
  if (segments > MESSAGE_MAX_SEGMENTS) return undefined;
  return { segments, ssizeBytes: segmentSize, ssize: ssizeFor(segmentSize) as number };
}

/** Octets [start, end) of segment `index` of a message cut by `plan`. */
export function segmentBounds(plan: SegmentPlan, index: number, length: number): { readonly start: number; readonly end: number } {
  const start = index * plan.ssizeBytes;
  return { start, end: Math.min(length, start + plan.ssizeBytes) };
}

/**
 * The message as whole double-words: `bytes` itself when it is one, else a copy with zero octets
 * added (Annex 2 §4.3.2 "If padding is used, the data must contain zeros, and the pad octets are
 * not included in the <S+E+00+Length>, <Length> ... fields": the message's own fields still give
 * its length).
 */
export function padToDoubleWords(bytes: Uint8Array): Uint8Array {
  const rest = bytes.length % DOUBLE_WORD;
  if (rest === 0) return bytes;
  const out = new Uint8Array(bytes.length + DOUBLE_WORD - rest);
  out.set(bytes);
  return out;
}

/**
 * The sender's letter pool a message to (`to`, `mailbox`) draws from: one per (destination, mbox).
 * A response names its segment by letter, mbox and msgseg-or-xmbox only ("The combination of the
 * letter, mbox, and the msgseg or xmbox fields uniquely identifies the message packet ... Care must
 * be taken to prevent aliasing", §4.2.5): segment 1 of a multi-segment message to mailbox 0 and a
 * single-segment message to mailbox 4 (xmbox 1) would be answered alike under the same letter, so
 * every mailbox with the same mbox shares the pool.
 */
export function letterPoolKey(to: number, mailbox: number): string {
  return `${to}/${mboxOf(mailbox)}`;
}
