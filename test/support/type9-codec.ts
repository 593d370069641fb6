/**
 * Helpers of the Type 9 codec's tests (src/wire/type9*.test.ts): a WireError check, the
 * segment narrowing, and a packet encoded at the transport layer and with serial framing.
 */
import assert from 'node:assert/strict';
import { WireError } from '../../src/wire/errors.ts';
import type { WireErrorCode } from '../../src/wire/errors.ts';
import { encodeSerial, serialLength } from '../../src/wire/serial.ts';
import { encodeType9, type9Codec, type9Length } from '../../src/wire/type9.ts';
import type { Type9Packet, Type9Segment } from '../../src/wire/type9.ts';

export function throwsWire(fn: () => unknown, code: WireErrorCode, field?: string, offset?: number): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WireError, `not a WireError: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (field !== undefined) assert.equal(e.field, field);
    if (offset !== undefined) assert.equal(e.offset, offset);
    return true;
  });
}

/** Asserts the segment and narrows the packet to it. */
export function seg<S extends Type9Segment>(p: Type9Packet, s: S): Type9Packet & { readonly segment: S } {
  assert.equal(p.segment, s);
  return p as Type9Packet & { readonly segment: S };
}

/** The packet's transport-layer bytes (no serial framing). */
export function transport(p: Type9Packet): Uint8Array {
  const out = new Uint8Array(type9Length(p));
  assert.equal(encodeType9(p, out, 0), out.length);
  return out;
}

/** The packet with serial framing (ackID, CRCs, padding). */
export function serial(p: Type9Packet): Uint8Array {
  const out = new Uint8Array(serialLength(type9Length(p)));
  encodeSerial(type9Codec, p, out, 0);
  return out;
}

/** A hex vector written with spaces, without them. */
export const hex = (s: string): string => s.replace(/ /g, '');
