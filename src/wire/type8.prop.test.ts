import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decodeType8, encodeType8, type8Codec, type8FromFields, type8Length } from './type8.ts';
import type { Type8Fields, Type8Packet } from './type8.ts';
import { maintenanceReadRequest, maintenanceResponseTo, maintenanceWriteRequest } from './type8-build.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { WireError } from './errors.ts';

const bit = fc.integer({ min: 0, max: 1 });
const byte = fc.integer({ min: 0, max: 0xff });
const nibble = fc.integer({ min: 0, max: 0xf });
const idFor = (tt: number): fc.Arbitrary<number> => fc.integer({ min: 0, max: tt === 0 ? 0xff : tt === 1 ? 0xffff : 0xffffffff });

/** Every field over its whole range, reserved values included; payloads of any length. */
function fieldsArb(maxPayload: number, dw = false): fc.Arbitrary<{ f: Type8Fields; ackIdBits: 5 | 6 }> {
  return fc.record({ ackIdBits: fc.constantFrom<5 | 6>(5, 6), tt: fc.integer({ min: 0, max: 2 }) }).chain(({ ackIdBits, tt }) =>
    fc.record({
      ackIdBits: fc.constant(ackIdBits),
      f: fc.record({
        ackID: fc.integer({ min: 0, max: ackIdBits === 5 ? 31 : 63 }),
        vc: bit,
        crf: bit,
        prio: fc.integer({ min: 0, max: 3 }),
        tt: fc.constant(tt),
        ftype: fc.constant(8),
        destinationID: idFor(tt),
        sourceID: idFor(tt),
        transaction: nibble,
        sizeOrStatus: nibble,
        tid: byte,
        hopCount: byte,
        word: fc.integer({ min: 0, max: 0xffffff }),
        payload: dw
          ? fc.integer({ min: 0, max: maxPayload / 8 }).chain((n) => fc.uint8Array({ minLength: n * 8, maxLength: n * 8 }))
          : fc.uint8Array({ maxLength: maxPayload }),
      }),
    }),
  );
}

/** Packets the constructors build: every strict rule holds. */
const conforming: fc.Arbitrary<Type8Packet> = fc
  .record({
    tt: fc.integer({ min: 0, max: 2 }),
    prio: fc.integer({ min: 0, max: 2 }),
    srcTID: byte,
    hop: byte,
    dwOffset: fc.integer({ min: 0, max: (1 << 21) - 1 }),
    word: bit,
    kind: fc.constantFrom('read', 'write', 'readResponse', 'writeResponse', 'errorResponse'),
    count: fc.constantFrom<4 | 8 | 16 | 32 | 64>(4, 8, 16, 32, 64),
    fill: byte,
  })
  .chain((a) => fc.record({ a: fc.constant(a), dest: idFor(a.tt), src: idFor(a.tt) }))
  .map(({ a, dest, src }): Type8Packet => {
    const base = { prio: a.prio, tt: a.tt, destinationID: dest, sourceID: src, srcTID: a.srcTID, hopCount: a.hop };
    const byteOffset = a.dwOffset * 8 + (a.count === 4 ? a.word * 4 : 0);
    const data = new Uint8Array(a.count).fill(a.fill);
    if (a.kind === 'write') return maintenanceWriteRequest({ ...base, byteOffset, data });
    const read = maintenanceReadRequest({ ...base, byteOffset, byteCount: a.count });
    if (a.kind === 'read') return read;
    if (a.kind === 'readResponse') return maintenanceResponseTo(read, { data });
    const write = maintenanceWriteRequest({ ...base, byteOffset, data });
    return maintenanceResponseTo(a.kind === 'errorResponse' ? read : write, { status: a.kind === 'errorResponse' ? 7 : 0 });
  });

function encode(p: Type8Packet, ackIdBits: 5 | 6 = 6): Uint8Array {
  const out = new Uint8Array(type8Length(p));
  encodeType8(p, out, 0, ackIdBits);
  return out;
}

/** Runs `fn`; anything thrown other than a WireError fails the property. */
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

test('Part 1 §4.1.10, Part 3 §2.5: encode→decode identity over every field value, reserved ones included (lenient)', () => {
  fc.assert(
    fc.property(fieldsArb(80), ({ f, ackIdBits }) => {
      const p = type8FromFields(f);
      const bytes = encode(p, ackIdBits);
      assert.equal(bytes.length, 2 + (f.tt === 0 ? 2 : f.tt === 1 ? 4 : 8) + 6 + f.payload.length);
      assert.deepEqual(decodeType8(bytes, 0, bytes.length, { ackIdBits }), p);
    }),
    fcParams(),
  );
});

test('Part 1 §4.1.10: constructor-built packets decode strictly to themselves, also through serial framing (Part 6 §2.4)', () => {
  fc.assert(
    fc.property(conforming, (p) => {
      const bytes = encode(p);
      assert.deepEqual(decodeType8(bytes, 0, bytes.length, { strict: true }), p);
      const serial = new Uint8Array(serialLength(bytes.length));
      encodeSerial(type8Codec, p, serial, 0);
      const { crc, ...back } = decodeSerial(type8Codec, serial, 0, serial.length, { strict: true });
      assert.equal(typeof crc, 'number');
      assert.deepEqual(back, p);
    }),
    fcParams(),
  );
});

test('Part 1 §4.1.10: random bytes throw nothing but WireError; a lenient decode re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 90 }), fc.boolean(), (raw, force) => {
      const bytes = raw.slice();
      if (force && bytes.length > 1) bytes[1] = (bytes[1]! & 0xf0) | 8;
      onlyWireError(() => decodeType8(bytes, 0, bytes.length, { strict: true }));
      const p = onlyWireError(() => decodeType8(bytes, 0, bytes.length));
      if (p !== undefined) assert.deepEqual(encode(p), bytes);
    }),
    fcParams(),
  );
});

test('Part 1 §4.1.10: mutated packets throw nothing but WireError, and the valid packet still decodes afterwards', () => {
  fc.assert(
    fc.property(conforming, mutation, (p, m) => {
      const bytes = encode(p);
      const bad = mutate(bytes, m);
      onlyWireError(() => decodeType8(bad, 0, bad.length, { strict: true }));
      onlyWireError(() => decodeType8(bad, 0, bad.length));
      assert.deepEqual(decodeType8(bytes, 0, bytes.length, { strict: true }), p);
    }),
    fcParams(),
  );
});

test('Part 6 §2.4: through serial framing, identity for whole double-words; random and mutated serial bytes throw only WireError', () => {
  fc.assert(
    fc.property(fieldsArb(256, true), mutation, fc.uint8Array({ maxLength: 96 }), ({ f }, m, noise) => {
      const p = type8FromFields(f);
      const serial = new Uint8Array(serialLength(type8Length(p)));
      encodeSerial(type8Codec, p, serial, 0);
      const { crc, earlyCrc, ...back } = decodeSerial(type8Codec, serial, 0, serial.length);
      assert.equal(typeof crc, 'number');
      assert.equal(earlyCrc === undefined, type8Length(p) <= 80);
      assert.deepEqual(back, p);
      const bad = mutate(serial, m);
      onlyWireError(() => decodeSerial(type8Codec, bad, 0, bad.length, { strict: true }));
      onlyWireError(() => decodeSerial(type8Codec, noise, 0, noise.length));
      assert.deepEqual(decodeSerial(type8Codec, serial, 0, serial.length).payload, p.payload);
    }),
    fcParams(),
  );
});
