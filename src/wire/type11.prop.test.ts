import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import {
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
import { decodeType11, messageSegment, type11Codec, type11FromFields } from './type11.ts';
import type { Type11Fields, Type11Packet } from './type11.ts';

/** Every field over its whole range, reserved values included. */
const fields = (payload: fc.Arbitrary<Uint8Array>): fc.Arbitrary<{ f: Type11Fields; ackIdBits: 5 | 6 }> =>
  fieldsArb<Type11Fields>(11, {
    msglen: nibble,
    ssize: nibble,
    letter: fc.integer({ min: 0, max: 3 }),
    mbox: fc.integer({ min: 0, max: 3 }),
    msgsegXmbox: nibble,
    payload,
  });

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

const encode = encoder(type11Codec);

test('Part 2 §4.2.5 Figure 4-2: encode→decode identity over every field value, reserved ones included (lenient)', () => {
  fc.assert(
    fc.property(fields(fc.uint8Array({ maxLength: 272 })), ({ f, ackIdBits }) => {
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
  fc.assert(strictRoundTripProperty(type11Codec, conforming), fcParams());
});

test('Part 2 §4.2.5: random bytes throw nothing but WireError; a lenient decode re-encodes bit for bit', () => {
  fc.assert(randomBytesProperty(type11Codec), fcParams());
});

test('Part 2 §4.2.5: mutated packets throw nothing but WireError, and the valid packet still decodes afterwards', () => {
  fc.assert(mutatedPacketProperty(type11Codec, conforming), fcParams());
});

test('Part 6 §2.4: through serial framing, identity for whole double-words; random and mutated serial bytes throw only WireError', () => {
  fc.assert(serialFramingProperty(type11Codec, fields(dwPayload(32)), type11FromFields), fcParams());
});
