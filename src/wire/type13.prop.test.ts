import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import {
  byte,
  dwPayload,
  encoder,
  fieldsArb,
  idFor,
  mutatedPacketProperty,
  nibble,
  randomBytesProperty,
  serialFramingProperty,
  strictRoundTripProperty,
} from '../../test/support/packet-props.ts';
import { decodeType13, messageResponse, response, type13Codec, type13FromFields } from './type13.ts';
import type { Type13Fields, Type13Packet } from './type13.ts';

/** Every field over its whole range, reserved values included. */
const fields = (payload: fc.Arbitrary<Uint8Array>): fc.Arbitrary<{ f: Type13Fields; ackIdBits: 5 | 6 }> =>
  fieldsArb<Type13Fields>(13, {
    transaction: nibble,
    status: nibble,
    target: byte,
    payload,
  });

/** Packets the constructors build: every strict rule holds. */
const conforming: fc.Arbitrary<Type13Packet> = fc
  .record({
    tt: fc.integer({ min: 0, max: 2 }),
    prio: fc.integer({ min: 0, max: 3 }),
    kind: fc.constantFrom('message', 'noData', 'data'),
    status: fc.constantFrom(0, 3, 7, 12, 13, 14, 15),
    target: byte,
    dw: fc.integer({ min: 1, max: 32 }),
    fill: byte,
  })
  .chain((a) => fc.record({ a: fc.constant(a), dest: idFor(a.tt), src: idFor(a.tt) }))
  .map(({ a, dest, src }) => {
    const base = { prio: a.prio, tt: a.tt, destinationID: dest, sourceID: src };
    if (a.kind === 'message') {
      return messageResponse({ ...base, status: a.status, letter: a.target >> 6, mbox: (a.target >> 4) & 3, msgseg: a.target & 15 });
    }
    // Data: DONE or implementation-defined status only (not ERROR, not RETRY).
    const withData = a.kind === 'data' && a.status !== 3 && a.status !== 7;
    const payload = withData ? new Uint8Array(a.dw * 8).fill(a.fill) : new Uint8Array(0);
    return response({ ...base, status: a.status, targetTID: a.target, payload });
  });

const encode = encoder(type13Codec);

test('Part 1 §4.2.3, Part 2 §4.3.3: encode→decode identity over every field value, reserved ones included (lenient)', () => {
  fc.assert(
    fc.property(fields(fc.uint8Array({ maxLength: 272 })), ({ f, ackIdBits }) => {
      const p = type13FromFields(f);
      const bytes = encode(p, ackIdBits);
      assert.equal(bytes.length, 2 + (f.tt === 0 ? 2 : f.tt === 1 ? 4 : 8) + 2 + f.payload.length);
      assert.deepEqual(decodeType13(bytes, 0, bytes.length, { ackIdBits }), p);
    }),
    fcParams(),
  );
});

test('Part 1 §4.2.3: constructor-built responses decode strictly to themselves, also through serial framing (Part 6 §2.4)', () => {
  fc.assert(strictRoundTripProperty(type13Codec, conforming), fcParams());
});

test('Part 1 §4.2.3: random bytes throw nothing but WireError; a lenient decode re-encodes bit for bit', () => {
  fc.assert(randomBytesProperty(type13Codec), fcParams());
});

test('Part 1 §4.2.3: mutated responses throw nothing but WireError, and the valid packet still decodes afterwards', () => {
  fc.assert(mutatedPacketProperty(type13Codec, conforming), fcParams());
});

test('Part 6 §2.4: through serial framing, identity for whole double-words; random and mutated serial bytes throw only WireError', () => {
  fc.assert(serialFramingProperty(type13Codec, fields(dwPayload(32)), type13FromFields), fcParams());
});
