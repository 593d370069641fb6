import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { onlyWireError } from '../../test/support/packet-props.ts';
import { decodeType7, encodeType7, type7Codec, type7Command, type7Length } from './type7.ts';
import type { Type7Packet } from './type7.ts';
import { flowIdLabel } from './flow-id.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';

/** Any Type 7 packet: every field over its whole range, labels derived from the raw fields. */
const arbType7: fc.Arbitrary<Type7Packet> = fc
  .record({
    ackID: fc.integer({ min: 0, max: 63 }),
    vc: fc.integer({ min: 0, max: 1 }),
    crf: fc.integer({ min: 0, max: 1 }),
    prio: fc.integer({ min: 0, max: 3 }),
    tt: fc.integer({ min: 0, max: 2 }),
    id1: fc.integer({ min: 0, max: 0xffffffff }),
    id2: fc.integer({ min: 0, max: 0xffffffff }),
    xonXoff: fc.integer({ min: 0, max: 1 }),
    fam: fc.integer({ min: 0, max: 7 }),
    rsrv: fc.integer({ min: 0, max: 15 }),
    flowIDCode: fc.integer({ min: 0, max: 127 }),
    soc: fc.integer({ min: 0, max: 1 }),
  })
  .map(({ id1, id2, ...f }) => {
    const bits = f.tt === 0 ? 8 : f.tt === 1 ? 16 : 32;
    const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
    return {
      ...f,
      ftype: 7 as const,
      destinationID: (id1 & mask) >>> 0,
      tgtdestinationID: (id2 & mask) >>> 0,
      ...type7Command(f.xonXoff, f.fam),
      flowID: flowIdLabel(f.flowIDCode),
    };
  });

const valid = Uint8Array.from([0x01, 0xc7, 0x12, 0x34, 0x00, 0x04, 0xb0, 0xf2]);

test('Part 9 §3.2 Figure 3-1: encode → decode is the identity over all field ranges (transport and serial)', () => {
  fc.assert(
    fc.property(arbType7, (p) => {
      const n = type7Length(p);
      const out = new Uint8Array(n);
      assert.equal(encodeType7(p, out, 0), n);
      assert.deepEqual(decodeType7(out, 0, n), p);
      const s = new Uint8Array(serialLength(n));
      encodeSerial(type7Codec, p, s, 0);
      const { crc, ...back } = decodeSerial(type7Codec, s, 0, s.length);
      assert.equal(typeof crc, 'number');
      assert.deepEqual(back, p);
    }),
    fcParams(),
  );
});

test('Part 9 §3.2: random bytes decode or throw WireError; whatever decodes leniently re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 20 }), fc.boolean(), (raw, forceType) => {
      const bytes = Uint8Array.from(raw);
      if (forceType && bytes.length > 1) bytes[1] = ((bytes[1] as number) & 0xf0) | 7;
      onlyWireError(() => decodeType7(bytes, 0, bytes.length, { strict: true }));
      const p = onlyWireError(() => decodeType7(bytes, 0, bytes.length));
      if (p !== undefined) {
        const out = new Uint8Array(bytes.length);
        encodeType7(p, out, 0);
        assert.deepEqual(out, bytes);
      }
      onlyWireError(() => decodeSerial(type7Codec, bytes, 0, bytes.length));
      onlyWireError(() => decodeSerial(type7Codec, bytes, 0, bytes.length, { strict: true, ackIdBits: 5 }));
      assert.equal(decodeSerial(type7Codec, valid, 0, valid.length, { strict: true }).command, 'XOFF');
    }),
    fcParams(),
  );
});

test('Part 9 §3.4, Part 6 §2.4: mutated serial CCPs throw only WireError and a valid CCP still decodes afterwards', () => {
  fc.assert(
    fc.property(arbType7, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.integer({ min: -4, max: 4 }), (p, edits, cut) => {
      const s = new Uint8Array(serialLength(type7Length(p)));
      encodeSerial(type7Codec, p, s, 0);
      const m = s.slice(0, Math.max(0, s.length + Math.min(0, cut)));
      for (const [i, v] of edits) if (m.length > 0) m[i % m.length] = v;
      onlyWireError(() => decodeSerial(type7Codec, m, 0, m.length));
      onlyWireError(() => decodeSerial(type7Codec, m, 0, m.length, { strict: true }));
      onlyWireError(() => decodeType7(m, 0, m.length, { strict: true }));
      assert.deepEqual(decodeSerial(type7Codec, s, 0, s.length).flowIDCode, p.flowIDCode);
    }),
    fcParams(),
  );
});
