import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import {
  bit,
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
import { decodeType8, type8Codec, type8FromFields } from './type8.ts';
import type { Type8Fields, Type8Packet } from './type8.ts';
import { maintenanceReadRequest, maintenanceResponseTo, maintenanceWriteRequest } from './type8-build.ts';

/** Every field over its whole range, reserved values included. */
const fields = (payload: fc.Arbitrary<Uint8Array>): fc.Arbitrary<{ f: Type8Fields; ackIdBits: 5 | 6 }> =>
  fieldsArb<Type8Fields>(8, {
    transaction: nibble,
    sizeOrStatus: nibble,
    tid: byte,
    hopCount: byte,
    word: fc.integer({ min: 0, max: 0xffffff }),
    payload,
  });

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

const encode = encoder(type8Codec);

test('Part 1 §4.1.10, Part 3 §2.5: encode→decode identity over every field value, reserved ones included (lenient)', () => {
  fc.assert(
    fc.property(fields(fc.uint8Array({ maxLength: 80 })), ({ f, ackIdBits }) => {
      const p = type8FromFields(f);
      const bytes = encode(p, ackIdBits);
      assert.equal(bytes.length, 2 + (f.tt === 0 ? 2 : f.tt === 1 ? 4 : 8) + 6 + f.payload.length);
      assert.deepEqual(decodeType8(bytes, 0, bytes.length, { ackIdBits }), p);
    }),
    fcParams(),
  );
});

test('Part 1 §4.1.10: constructor-built packets decode strictly to themselves, also through serial framing (Part 6 §2.4)', () => {
  fc.assert(strictRoundTripProperty(type8Codec, conforming), fcParams());
});

test('Part 1 §4.1.10: random bytes throw nothing but WireError; a lenient decode re-encodes bit for bit', () => {
  fc.assert(randomBytesProperty(type8Codec), fcParams());
});

test('Part 1 §4.1.10: mutated packets throw nothing but WireError, and the valid packet still decodes afterwards', () => {
  fc.assert(mutatedPacketProperty(type8Codec, conforming), fcParams());
});

test('Part 6 §2.4: through serial framing, identity for whole double-words; random and mutated serial bytes throw only WireError', () => {
  fc.assert(serialFramingProperty(type8Codec, fields(dwPayload(32)), type8FromFields), fcParams());
});
