/** Helpers shared by the Session Management Protocol (Annex 2) message tests. */
import assert from 'node:assert/strict';
import { WireError } from '../../src/wire/errors.ts';
import { parseHex, toHex } from '../../src/wire/hex.ts';
import { decodeSmp, smpBytes } from '../../src/wire/smp/index.ts';
import type { SmpMessage } from '../../src/wire/smp/index.ts';

/** ProtoIDs for the attribute tests: Ethernet, vendor-defined (§3.5.2.3, §6.1, §7.1) and one this annex does not define. */
export const ETH = 0x0102;
export const VENDOR_PROTO = 0x0101;
export const OTHER = 0x1234;

/** Decodes a message from hex (strictly unless told) and checks that it re-encodes to the same octets. */
export function decode(hex: string, strict = true): SmpMessage {
  const b = parseHex(hex);
  const m = decodeSmp(b, 0, b.length, { strict });
  assert.equal(toHex(smpBytes(m)), toHex(b), 'encode(decode(x)) === x');
  return m;
}

/** Strict decoding of the hex throws a WireError with this code at this octet offset. */
export function fails(hex: string, code: string, offset: number): void {
  const b = parseHex(hex);
  assert.throws(
    () => decodeSmp(b, 0, b.length, { strict: true }),
    (e: unknown) => e instanceof WireError && e.code === code && e.offset === offset,
  );
}

/** The hex of a table with its word-separating spaces removed, as toHex writes it. */
export const flat = (hex: string): string => hex.replace(/ /g, '');
