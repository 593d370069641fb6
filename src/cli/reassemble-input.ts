import { createInterface } from 'node:readline';
import { attempt } from '../wire/errors.ts';
import type { DecodeResult } from '../wire/errors.ts';
import { parseHex } from '../wire/hex.ts';
import { decodeSerialPacket } from '../wire/packet.ts';
import { FTYPE_DATA_STREAMING, isSegmentSizeError } from '../wire/type9.ts';
import type { Type9Packet } from '../wire/type9-types.ts';

/** `riodp reassemble`'s input, hex lines or capture records, as items the run feeds the engine. */

/** What one input line or capture record holds; `at` is its line or record number. */
export type Item =
  | { readonly at: number; readonly kind: 'packet'; readonly packet: Type9Packet }
  | { readonly at: number; readonly kind: 'not-type9' }
  | { readonly at: number; readonly kind: 'not-packet' }
  | { readonly at: number; readonly kind: 'bad'; readonly message: string };

/** The hex lines of the input (blank and `#` lines skipped), numbered from 1. */
export async function* hexLines(input: NodeJS.ReadableStream, lenient: boolean): AsyncGenerator<Item> {
  let n = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    const hex = attempt(() => parseHex(text));
    yield hex.ok ? classify(n, hex.value, 6, lenient) : { at: n, kind: 'bad', message: hex.error.message };
  }
}

/** A packet's bytes: not Type 9 by its ftype (Part 6 §2.3 Figure 2-2), else decoded. */
export function classify(at: number, bytes: Uint8Array, ackIdBits: 5 | 6, lenient: boolean): Item {
  if (bytes.length >= 2 && ((bytes[1] as number) & 0xf) !== FTYPE_DATA_STREAMING) return { at, kind: 'not-type9' };
  let decoded: DecodeResult<Type9Packet> = attempt(() => decodeSerialPacket(bytes, 0, bytes.length, { strict: !lenient, ackIdBits }) as Type9Packet);
  // The segment size is the engine's to judge, by its MTU (rules 3–6): strict decoding would
  // refuse a start that is no MTU at all before rule 4 could find it short or long.
  if (!decoded.ok && isSegmentSizeError(decoded.error)) decoded = attempt(() => decodeSerialPacket(bytes, 0, bytes.length, { ackIdBits }) as Type9Packet);
  return decoded.ok ? { at, kind: 'packet', packet: decoded.value } : { at, kind: 'bad', message: decoded.error.message };
}
