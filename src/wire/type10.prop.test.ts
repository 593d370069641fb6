import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeType10, encodeType10, type10Codec, type10Length } from './type10.ts';
import type { Type10Packet } from './type10.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { WireError } from './errors.ts';
import { fcParams } from '../../test/support/fc.ts';

const ID_BITS = [8, 16, 32] as const;

const doorbell = fc.integer({ min: 0, max: 2 }).chain((tt) =>
  fc.record({
    ackID: fc.integer({ min: 0, max: 63 }),
    vc: fc.integer({ min: 0, max: 1 }),
    crf: fc.integer({ min: 0, max: 1 }),
    prio: fc.integer({ min: 0, max: 3 }),
    tt: fc.constant(tt),
    ftype: fc.constant(10 as const),
    destinationID: fc.nat({ max: 2 ** ID_BITS[tt]! - 1 }),
    sourceID: fc.nat({ max: 2 ** ID_BITS[tt]! - 1 }),
    rsrv: fc.constant(0),
    srcTID: fc.nat({ max: 255 }),
    info: fc.nat({ max: 0xffff }),
  }).map((r): Type10Packet => ({ ...r })), // fast-check records have a null prototype
);

test('Part 2 §4.2.4: Type 10 encode → decode is the identity over all field ranges (transport and serial, strict)', () => {
  fc.assert(
    fc.property(doorbell, (p) => {
      const t = new Uint8Array(type10Length(p));
      assert.equal(encodeType10(p, t, 0), t.length);
      assert.deepEqual(decodeType10(t, 0, t.length, { strict: true }), p);
      const s = new Uint8Array(serialLength(t.length));
      encodeSerial(type10Codec, p, s, 0);
      const back = decodeSerial(type10Codec, s, 0, s.length, { strict: true });
      assert.deepEqual({ ...back, crc: 0 }, { ...p, crc: 0 });
    }),
    fcParams(),
  );
});

test('Part 2 §4.2.4: random and mutated Type 10 bytes throw only WireError; lenient results re-encode bit for bit', () => {
  fc.assert(
    fc.property(doorbell, fc.uint8Array({ maxLength: 20 }), fc.nat(), fc.nat({ max: 255 }), (p, junk, where, value) => {
      const t = new Uint8Array(type10Length(p));
      encodeType10(p, t, 0);
      const mutated = t.slice();
      mutated[where % mutated.length] = value;
      for (const bytes of [junk, mutated]) {
        try {
          const d = decodeType10(bytes, 0, bytes.length);
          const out = new Uint8Array(type10Length(d));
          encodeType10(d, out, 0);
          assert.deepEqual(out, bytes);
        } catch (e) {
          if (!(e instanceof WireError)) throw e;
        }
      }
      assert.deepEqual(decodeType10(t, 0, t.length), p);
    }),
    fcParams(),
  );
});
