import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decodeType11, encodeType11, messageSegment, type11Codec, type11FromFields, type11Length } from './type11.ts';
import type { Type11Fields, Type11Packet } from './type11.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { WireError } from './errors.ts';

const bit = fc.integer({ min: 0, max: 1 });
const nibble = fc.integer({ min: 0, max: 0xf });
const idFor = (tt: number): fc.Arbitrary<number> => fc.integer({ min: 0, max: tt === 0 ? 0xff : tt === 1 ? 0xffff : 0xffffffff });
const dwPayload = (maxDw: number): fc.Arbitrary<Uint8Array> =>
  fc.integer({ min: 0, max: maxDw }).chain((n) => fc.uint8Array({ minLength: n * 8, maxLength: n * 8 }));

/** Every field over its whole range, reserved values included. */
function fieldsArb(payload: fc.Arbitrary<Uint8Array>): fc.Arbitrary<{ f: Type11Fields; ackIdBits: 5 | 6 }> {
  return fc.record({ ackIdBits: fc.constantFrom<5 | 6>(5, 6), tt: fc.integer({ min: 0, max: 2 }) }).chain(({ ackIdBits, tt }) =>
    fc.record({
      ackIdBits: fc.constant(ackIdBits),
      f: fc.record({
        ackID: fc.integer({ min: 0, max: ackIdBits === 5 ? 31 : 63 }),
        vc: bit,
        crf: bit,
        prio: fc.integer({ min: 0, max: 3 }),
        tt: fc.constant(tt),
        ftype: fc.constant(11),
        destinationID: idFor(tt),
        sourceID: idFor(tt),
        msglen: nibble,
        ssize: nibble,
        letter: fc.integer({ min: 0, max: 3 }),
        mbox: fc.integer({ min: 0, max: 3 }),
        msgsegXmbox: nibble,
        payload,
      }),
    }),
  );
}

/** Packets messageSegment builds: every strict rule holds. */
const conforming: fc.Arbitrary<Type11Packet> = fc
  .record({
    tt: fc.integer({ min: 0, max: 2 }),
    prio: fc.integer({ min: 0, max: 2 }),
    letter: fc.integer({ min: 0, max: 3 }),
    msglen: nibble,
    seg: nibble,
    ssize: fc.integer({ min: 9, max: 14 }),
    mailbox: fc.integer({ min: 0, max: 63 }),
    shortDw: fc.integer({ min: 1, max: 32 }),
    fill: fc.integer({ min: 0, max: 0xff }),
  })
  .chain((a) => fc.record({ a: fc.constant(a), dest: idFor(a.tt), src: idFor(a.tt) }))
  .map(({ a, dest, src }) => {
    const segmentSize = 8 << (a.ssize - 9);
    const msgseg = a.seg % (a.msglen + 1);
    const last = msgseg === a.msglen;
    const n = last ? Math.min(segmentSize, a.shortDw * 8) : segmentSize;
    return messageSegment({
      prio: a.prio,
      tt: a.tt,
      destinationID: dest,
      sourceID: src,
      letter: a.letter,
      mailbox: a.msglen === 0 ? a.mailbox : a.mailbox & 3,
      msglen: a.msglen,
      msgseg,
      segmentSize,
      payload: new Uint8Array(n).fill(a.fill),
    });
  });

function encode(p: Type11Packet, ackIdBits: 5 | 6 = 6): Uint8Array {
  const out = new Uint8Array(type11Length(p));
  encodeType11(p, out, 0, ackIdBits);
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

test('Part 2 §4.2.5 Figure 4-2: encode→decode identity over every field value, reserved ones included (lenient)', () => {
  fc.assert(
    fc.property(fieldsArb(fc.uint8Array({ maxLength: 272 })), ({ f, ackIdBits }) => {
      const p = type11FromFields(f);
      assert.equal(f.msglen === 0 ? p.xmbox : p.msgseg, f.msgsegXmbox);
      const bytes = encode(p, ackIdBits);
      assert.equal(bytes.length, 2 + (f.tt === 0 ? 2 : f.tt === 1 ? 4 : 8) + 2 + f.payload.length);
      assert.deepEqual(decodeType11(bytes, 0, bytes.length, { ackIdBits }), p);
    }),
    fcParams(),
  );
});

test('Part 2 §4.2.5: messageSegment packets decode strictly to themselves, also through serial framing (Part 6 §2.4)', () => {
  fc.assert(
    fc.property(conforming, (p) => {
      const bytes = encode(p);
      assert.deepEqual(decodeType11(bytes, 0, bytes.length, { strict: true }), p);
      const serial = new Uint8Array(serialLength(bytes.length));
      encodeSerial(type11Codec, p, serial, 0);
      const { crc, earlyCrc, ...back } = decodeSerial(type11Codec, serial, 0, serial.length, { strict: true });
      assert.equal(typeof crc, 'number');
      assert.equal(earlyCrc === undefined, bytes.length <= 80);
      assert.deepEqual(back, p);
    }),
    fcParams(),
  );
});

test('Part 2 §4.2.5: random bytes throw nothing but WireError; a lenient decode re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 90 }), fc.boolean(), (raw, force) => {
      const bytes = raw.slice();
      if (force && bytes.length > 1) bytes[1] = (bytes[1]! & 0xf0) | 11;
      onlyWireError(() => decodeType11(bytes, 0, bytes.length, { strict: true }));
      const p = onlyWireError(() => decodeType11(bytes, 0, bytes.length));
      if (p !== undefined) assert.deepEqual(encode(p), bytes);
    }),
    fcParams(),
  );
});

test('Part 2 §4.2.5: mutated packets throw nothing but WireError, and the valid packet still decodes afterwards', () => {
  fc.assert(
    fc.property(conforming, mutation, (p, m) => {
      const bytes = encode(p);
      const bad = mutate(bytes, m);
      onlyWireError(() => decodeType11(bad, 0, bad.length, { strict: true }));
      onlyWireError(() => decodeType11(bad, 0, bad.length));
      assert.deepEqual(decodeType11(bytes, 0, bytes.length, { strict: true }), p);
    }),
    fcParams(),
  );
});

test('Part 6 §2.4: through serial framing, identity for whole double-words; random and mutated serial bytes throw only WireError', () => {
  fc.assert(
    fc.property(fieldsArb(dwPayload(32)), mutation, fc.uint8Array({ maxLength: 96 }), ({ f }, m, noise) => {
      const p = type11FromFields(f);
      const serial = new Uint8Array(serialLength(type11Length(p)));
      encodeSerial(type11Codec, p, serial, 0);
      const { crc, earlyCrc, ...back } = decodeSerial(type11Codec, serial, 0, serial.length);
      assert.equal(typeof crc === 'number' && (earlyCrc === undefined) === type11Length(p) <= 80, true);
      assert.deepEqual(back, p);
      const bad = mutate(serial, m);
      onlyWireError(() => decodeSerial(type11Codec, bad, 0, bad.length, { strict: true }));
      onlyWireError(() => decodeSerial(type11Codec, noise, 0, noise.length));
      assert.deepEqual(decodeSerial(type11Codec, serial, 0, serial.length).payload, p.payload);
    }),
    fcParams(),
  );
});
