import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { onlyWireError } from '../../test/support/packet-props.ts';
import { decodeType9, encodeType9, type9Codec, type9Length } from './type9.ts';
import type { Type9Packet } from './type9.ts';
import { tmMessage, tmOpName, tmOperand } from './type9-tm.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';

/**
 * 'transport': any packet lenient decoding can produce (raw O/P, P on an empty payload, odd
 * pad bytes). 'serial': packets serial framing can delimit — O consistent with the payload of
 * single/end segments, start/continuation payloads a multiple of 4 (the MTU), extended
 * payloads a multiple of 4 (riodp takes them as TM-sized).
 */
type Mode = 'transport' | 'serial';

const bit = fc.integer({ min: 0, max: 1 });
const u8 = fc.integer({ min: 0, max: 255 });
const u16 = fc.integer({ min: 0, max: 0xffff });
const header = fc
  .record({
    ackID: fc.integer({ min: 0, max: 63 }), vc: bit, crf: bit, prio: fc.integer({ min: 0, max: 3 }), tt: fc.integer({ min: 0, max: 2 }),
    id1: fc.integer({ min: 0, max: 0xffffffff }), id2: fc.integer({ min: 0, max: 0xffffffff }), cos: u8,
  })
  .map(({ id1, id2, ...h }) => {
    const mask = h.tt === 0 ? 0xff : h.tt === 1 ? 0xffff : 0xffffffff;
    return { ...h, ftype: 9 as const, destinationID: (id1 & mask) >>> 0, sourceID: (id2 & mask) >>> 0 };
  });
const payload = fc.uint8Array({ maxLength: 256 });

function arbType9(mode: Mode): fc.Arbitrary<Type9Packet> {
  const whole = (b: Uint8Array) => b.subarray(0, b.length & (mode === 'serial' ? ~3 : ~1));
  const tail = (b: Uint8Array, oddRaw: number, padRaw: number, padByte: number) => {
    const n = b.length;
    return {
      odd: mode === 'serial' ? ((n + 1) >> 1) & 1 : oddRaw,
      pad: n & 1 ? 1 : n === 0 ? padRaw : 0,
      ...(n & 1 && padByte !== 0 ? { padByte } : {}),
    };
  };
  const single = fc.tuple(header, fc.integer({ min: 0, max: 7 }), u16, payload, bit, bit, u8, bit).map(
    ([h, rsrv, streamID, p, o, pd, pb, isStart]): Type9Packet =>
      isStart
        ? { ...h, start: 1, end: 0, rsrv, xh: 0, odd: o, pad: pd, segment: 'start', streamID, payload: whole(p) }
        : { ...h, start: 1, end: 1, rsrv, xh: 0, ...tail(p, o, pd, pb), segment: 'single', streamID, payload: p },
  );
  const cont = fc.tuple(header, fc.integer({ min: 0, max: 7 }), payload, bit, bit).map(
    ([h, rsrv, p, o, pd]): Type9Packet => ({ ...h, start: 0, end: 0, rsrv, xh: 0, odd: o, pad: pd, segment: 'continuation', payload: whole(p) }),
  );
  const end = fc.tuple(header, fc.integer({ min: 0, max: 7 }), u16, payload, bit, bit, u8).map(([h, rsrv, length, p, o, pd, pb]): Type9Packet => {
    if (length === 0 && p.length === 0) {
      return { ...h, start: 0, end: 1, rsrv, xh: 0, odd: mode === 'serial' ? 0 : o, pad: pd, segment: 'abort', length: 0, payload: p };
    }
    return { ...h, start: 0, end: 1, rsrv, xh: 0, ...tail(p, o, pd, pb), segment: 'end', length, pduLength: length || 0x10000, payload: p };
  });
  const tm = fc
    .tuple(header, fc.tuple(bit, bit, bit, bit), u16, fc.integer({ min: 0, max: 15 }), bit, fc.integer({ min: 0, max: 7 }), u8, u8, u8)
    .map(([h, [s, e, o, pd], streamID, tmOp, rsrv, wildcard, mask, parameter1, parameter2]): Type9Packet => ({
      ...h, start: s, end: e, xtype: 0, xh: 1, odd: o, pad: pd, segment: 'tm', streamID, tmOp, tmOpName: tmOpName(tmOp), rsrv,
      wildcard, mask, parameter1, parameter2, tm: tmMessage(tmOp, parameter1, parameter2), operand: tmOperand(wildcard, mask),
    }));
  const ext = fc.tuple(header, fc.tuple(bit, bit, bit, bit), fc.integer({ min: 1, max: 7 }), u16, fc.uint8Array({ maxLength: 32 })).map(
    ([h, [s, e, o, pd], xtype, streamID, p]): Type9Packet => ({ ...h, start: s, end: e, xtype, xh: 1, odd: o, pad: pd, segment: 'extended', streamID, payload: whole(p) }),
  );
  return fc.oneof(single, cont, end, tm, ext);
}

// Dev8 single segment of type9.test.ts (Figure 4-1) with its CRC and pad.
const valid = Uint8Array.from([0x00, 0x49, 0x05, 0x06, 0x80, 0xc0, 0xbe, 0xef, 1, 2, 3, 4, 0x81, 0x7e, 0, 0]);

test('Part 10 §4.2–4.3: encode → decode is the identity over all field ranges (transport level)', () => {
  fc.assert(
    fc.property(arbType9('transport'), (p) => {
      const n = type9Length(p);
      const out = new Uint8Array(n);
      assert.equal(encodeType9(p, out, 0), n);
      assert.deepEqual(decodeType9(out, 0, n), p);
    }),
    fcParams(),
  );
});

test('Part 10 §4.2, Part 6 §2.4: encodeSerial → decodeSerial is the identity; O lets framing find the CRC', () => {
  fc.assert(
    fc.property(arbType9('serial'), (p) => {
      const s = new Uint8Array(serialLength(type9Length(p)));
      encodeSerial(type9Codec, p, s, 0);
      const d = decodeSerial(type9Codec, s, 0, s.length);
      // Packets over 80 bytes also carry the early CRC (Part 6 §2.4.1).
      assert.equal(d.earlyCrc !== undefined, type9Length(p) > 80);
      assert.deepEqual(d, { ...p, crc: d.crc, ...(d.earlyCrc === undefined ? {} : { earlyCrc: d.earlyCrc }) });
    }),
    fcParams(),
  );
});

test('Part 10 §4.2: random bytes decode or throw WireError; whatever decodes leniently re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 290 }), fc.integer({ min: 0, max: 3 }), (raw, force) => {
      const bytes = Uint8Array.from(raw);
      // Mostly steer the prefix to ftype 9 and a valid tt so the body parsers are exercised.
      if (force > 0 && bytes.length > 1) bytes[1] = ((bytes[1] as number) & 0xc0) | ((force - 1) << 4) | 9;
      onlyWireError(() => decodeType9(bytes, 0, bytes.length, { strict: true }));
      const p = onlyWireError(() => decodeType9(bytes, 0, bytes.length));
      if (p !== undefined) {
        const out = new Uint8Array(bytes.length);
        assert.equal(encodeType9(p, out, 0), bytes.length);
        assert.deepEqual(out, bytes);
      }
      const cut = bytes.subarray(0, bytes.length & ~3);
      onlyWireError(() => decodeSerial(type9Codec, cut, 0, cut.length));
      onlyWireError(() => decodeSerial(type9Codec, cut, 0, cut.length, { strict: true, ackIdBits: 5 }));
      assert.equal(decodeSerial(type9Codec, valid, 0, valid.length, { strict: true }).segment, 'single');
    }),
    fcParams(),
  );
});

test('Part 10 §4.2, Part 6 §2.4: mutated serial packets throw only WireError and a valid packet still decodes afterwards', () => {
  fc.assert(
    fc.property(arbType9('serial'), fc.array(fc.tuple(fc.nat(), u8), { minLength: 1, maxLength: 4 }), fc.integer({ min: -8, max: 8 }), (p, edits, cut) => {
      const s = new Uint8Array(serialLength(type9Length(p)));
      encodeSerial(type9Codec, p, s, 0);
      const m = s.slice(0, Math.max(0, s.length + Math.min(0, cut)));
      for (const [i, v] of edits) if (m.length > 0) m[i % m.length] = v;
      onlyWireError(() => decodeSerial(type9Codec, m, 0, m.length));
      onlyWireError(() => decodeSerial(type9Codec, m, 0, m.length, { strict: true }));
      onlyWireError(() => decodeType9(m, 0, m.length, { strict: true }));
      onlyWireError(() => decodeType9(m, 0, m.length));
      assert.equal(decodeSerial(type9Codec, s, 0, s.length).segment, p.segment);
    }),
    fcParams(),
  );
});
