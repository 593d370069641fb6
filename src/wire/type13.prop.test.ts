import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decodeType13, encodeType13, messageResponse, response, type13Codec, type13FromFields, type13Length } from './type13.ts';
import type { Type13Fields, Type13Packet } from './type13.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { WireError } from './errors.ts';

const bit = fc.integer({ min: 0, max: 1 });
const nibble = fc.integer({ min: 0, max: 0xf });
const byte = fc.integer({ min: 0, max: 0xff });
const idFor = (tt: number): fc.Arbitrary<number> => fc.integer({ min: 0, max: tt === 0 ? 0xff : tt === 1 ? 0xffff : 0xffffffff });
const dwPayload = (maxDw: number): fc.Arbitrary<Uint8Array> =>
  fc.integer({ min: 0, max: maxDw }).chain((n) => fc.uint8Array({ minLength: n * 8, maxLength: n * 8 }));

/** Every field over its whole range, reserved values included. */
function fieldsArb(payload: fc.Arbitrary<Uint8Array>): fc.Arbitrary<{ f: Type13Fields; ackIdBits: 5 | 6 }> {
  return fc.record({ ackIdBits: fc.constantFrom<5 | 6>(5, 6), tt: fc.integer({ min: 0, max: 2 }) }).chain(({ ackIdBits, tt }) =>
    fc.record({
      ackIdBits: fc.constant(ackIdBits),
      f: fc.record({
        ackID: fc.integer({ min: 0, max: ackIdBits === 5 ? 31 : 63 }),
        vc: bit,
        crf: bit,
        prio: fc.integer({ min: 0, max: 3 }),
        tt: fc.constant(tt),
        ftype: fc.constant(13),
        destinationID: idFor(tt),
        sourceID: idFor(tt),
        transaction: nibble,
        status: nibble,
        target: byte,
        payload,
      }),
    }),
  );
}

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

function encode(p: Type13Packet, ackIdBits: 5 | 6 = 6): Uint8Array {
  const out = new Uint8Array(type13Length(p));
  encodeType13(p, out, 0, ackIdBits);
  return out;
}

function onlyWireError<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

const mutation = fc.record({
  flips: fc.array(fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 0xff }) }), { minLength: 1, maxLength: 4 }),
  cut: fc.option(fc.nat()),
});

function mutate(bytes: Uint8Array, m: { flips: { at: number; xor: number }[]; cut: number | null }): Uint8Array {
  const out = bytes.slice(0, m.cut === null ? bytes.length : m.cut % (bytes.length + 1));
  for (const { at, xor } of m.flips) if (out.length > 0) out[at % out.length]! ^= xor;
  return out;
}

test('Part 1 §4.2.3, Part 2 §4.3.3: encode→decode identity over every field value, reserved ones included (lenient)', () => {
  fc.assert(
    fc.property(fieldsArb(fc.uint8Array({ maxLength: 272 })), ({ f, ackIdBits }) => {
      const p = type13FromFields(f);
      const bytes = encode(p, ackIdBits);
      assert.equal(bytes.length, 2 + (f.tt === 0 ? 2 : f.tt === 1 ? 4 : 8) + 2 + f.payload.length);
      assert.deepEqual(decodeType13(bytes, 0, bytes.length, { ackIdBits }), p);
    }),
    fcParams(),
  );
});

test('Part 1 §4.2.3: constructor-built responses decode strictly to themselves, also through serial framing (Part 6 §2.4)', () => {
  fc.assert(
    fc.property(conforming, (p) => {
      const bytes = encode(p);
      assert.deepEqual(decodeType13(bytes, 0, bytes.length, { strict: true }), p);
      const serial = new Uint8Array(serialLength(bytes.length));
      encodeSerial(type13Codec, p, serial, 0);
      const { crc, earlyCrc, ...back } = decodeSerial(type13Codec, serial, 0, serial.length, { strict: true });
      assert.equal(typeof crc === 'number' && (earlyCrc === undefined) === bytes.length <= 80, true);
      assert.deepEqual(back, p);
    }),
    fcParams(),
  );
});

test('Part 1 §4.2.3: random bytes throw nothing but WireError; a lenient decode re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 90 }), fc.boolean(), (raw, force) => {
      const bytes = raw.slice();
      if (force && bytes.length > 1) bytes[1] = (bytes[1]! & 0xf0) | 13;
      onlyWireError(() => decodeType13(bytes, 0, bytes.length, { strict: true }));
      const p = onlyWireError(() => decodeType13(bytes, 0, bytes.length));
      if (p !== undefined) assert.deepEqual(encode(p), bytes);
    }),
    fcParams(),
  );
});

test('Part 1 §4.2.3: mutated responses throw nothing but WireError, and the valid packet still decodes afterwards', () => {
  fc.assert(
    fc.property(conforming, mutation, (p, m) => {
      const bytes = encode(p);
      const bad = mutate(bytes, m);
      onlyWireError(() => decodeType13(bad, 0, bad.length, { strict: true }));
      onlyWireError(() => decodeType13(bad, 0, bad.length));
      assert.deepEqual(decodeType13(bytes, 0, bytes.length, { strict: true }), p);
    }),
    fcParams(),
  );
});

test('Part 6 §2.4: through serial framing, identity for whole double-words; random and mutated serial bytes throw only WireError', () => {
  fc.assert(
    fc.property(fieldsArb(dwPayload(32)), mutation, fc.uint8Array({ maxLength: 96 }), ({ f }, m, noise) => {
      const p = type13FromFields(f);
      const serial = new Uint8Array(serialLength(type13Length(p)));
      encodeSerial(type13Codec, p, serial, 0);
      const { crc, earlyCrc, ...back } = decodeSerial(type13Codec, serial, 0, serial.length);
      assert.equal(typeof crc === 'number' && (earlyCrc === undefined) === type13Length(p) <= 80, true);
      assert.deepEqual(back, p);
      const bad = mutate(serial, m);
      onlyWireError(() => decodeSerial(type13Codec, bad, 0, bad.length, { strict: true }));
      onlyWireError(() => decodeSerial(type13Codec, noise, 0, noise.length));
      assert.deepEqual(decodeSerial(type13Codec, serial, 0, serial.length).payload, p.payload);
    }),
    fcParams(),
  );
});
