import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { WireError } from './errors.ts';
import { SYMBOL64_LENGTH, buildSymbol64, decodeSymbol64, encodeSymbol64 } from './symbol64.ts';
import type { ControlSymbol64, Symbol64Fields } from './symbol64.ts';

const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });

/** Every raw field over its whole range (Part 6 Figure 3-3), alignment bits mostly zero. */
const fields: fc.Arbitrary<Symbol64Fields> = fc.record(
  { link: fc.constant('cs64' as const), stype0: int(15), parameter0: int(0xfff), parameter1: int(0xfff), stype1: int(0xff), alignment0: int(3), alignment1: int(3) },
  { requiredKeys: ['link', 'stype0', 'parameter0', 'parameter1', 'stype1'] },
);
const groupSize = int(6);

function encode(f: Symbol64Fields): Uint8Array {
  const out = new Uint8Array(SYMBOL64_LENGTH);
  encodeSymbol64(f, out, 0);
  return out;
}

function raw(s: ControlSymbol64): Symbol64Fields {
  const { link, stype0, parameter0, parameter1, stype1, alignment0, alignment1 } = s;
  return { link, stype0, parameter0, parameter1, stype1, ...(alignment0 === undefined ? {} : { alignment0 }), ...(alignment1 === undefined ? {} : { alignment1 }) };
}

function withoutZeroAlignment(f: Symbol64Fields): Symbol64Fields {
  const { alignment0, alignment1, ...rest } = f;
  return { ...rest, ...(alignment0 ? { alignment0 } : {}), ...(alignment1 ? { alignment1 } : {}) };
}

/** A reserved VC_IND is not among them: Part 12 §3.2 "ignore ... without error". */
function hasReserved(s: ControlSymbol64): boolean {
  return (
    s.stype0Name === 'RESERVED' || s.stype1Name === 'RESERVED' || s.rsrv0 !== undefined || s.rsrv1 !== undefined ||
    s.causeName === 'RESERVED' || s.alignment0 !== undefined || s.alignment1 !== undefined
  );
}

test('Part 6 §3.3 Figure 3-3: CS64 encode → decode is the identity over every field value and group size', () => {
  fc.assert(
    fc.property(fields, groupSize, (f, g) => {
      const bytes = encode(f);
      const s = decodeSymbol64(bytes, 0, SYMBOL64_LENGTH, { part12GroupSize: g });
      assert.deepEqual(raw(s), withoutZeroAlignment(f));
      assert.deepEqual(encode(s), bytes);
      assert.deepEqual(buildSymbol64(f, { part12GroupSize: g }), s);
    }),
    fcParams(),
  );
});

test('Part 6 §3.4–§3.5 Table 3-3/3-18, Part 12 §3.2: strict CS64 decoding equals lenient decoding unless a reserved bit, value or alignment is present, and then throws WireError', () => {
  fc.assert(
    fc.property(fields, groupSize, (f, g) => {
      const bytes = encode(f);
      const lenient = decodeSymbol64(bytes, 0, SYMBOL64_LENGTH, { part12GroupSize: g });
      try {
        assert.deepEqual(decodeSymbol64(bytes, 0, SYMBOL64_LENGTH, { part12GroupSize: g, strict: true }), lenient);
        assert.equal(hasReserved(lenient), false);
      } catch (e) {
        assert.ok(e instanceof WireError && (e.code === 'reserved' || (e.code === 'invalid' && e.field.startsWith('alignment'))), String(e));
        assert.equal(hasReserved(lenient), true);
      }
    }),
    fcParams(),
  );
});

test('Part 6 §3.3: decoding random CS64 bytes throws nothing but WireError, and what decodes re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 10 }), int(10), int(10), fc.boolean(), groupSize, (bytes, a, b, strict, g) => {
      const offset = Math.min(a, b);
      const end = Math.max(a, b);
      let s: ControlSymbol64;
      try {
        s = decodeSymbol64(bytes, offset, end, { strict, part12GroupSize: g });
      } catch (e) {
        assert.ok(e instanceof WireError, String(e));
        return;
      }
      assert.deepEqual(encode(s), bytes.subarray(offset, offset + SYMBOL64_LENGTH));
    }),
    fcParams(),
  );
});

test('Part 6 §3.6.5: mutating a valid CS64 yields a WireError or another valid symbol, and the original still decodes', () => {
  fc.assert(
    fc.property(fields, fc.array(fc.tuple(int(7), int(255)), { minLength: 1, maxLength: 4 }), fc.boolean(), (f, edits, strict) => {
      const bytes = encode(f);
      const before = decodeSymbol64(bytes, 0, SYMBOL64_LENGTH);
      const bad = bytes.slice();
      for (const [i, x] of edits) bad[i] = x;
      try {
        assert.deepEqual(encode(decodeSymbol64(bad, 0, SYMBOL64_LENGTH, { strict })), bad);
      } catch (e) {
        assert.ok(e instanceof WireError, String(e));
      }
      assert.deepEqual(decodeSymbol64(bytes, 0, SYMBOL64_LENGTH), before);
    }),
    fcParams(),
  );
});

test('Part 6 §3.6: any single-bit error in CS64 bits 0–61 but the alignment bits 28–29 is a CRC-24 error', () => {
  fc.assert(
    fc.property(fields, int(59), (f, k) => {
      const bytes = encode(f);
      const bit = k < 28 ? k : k + 2;
      bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (0x80 >> (bit & 7));
      assert.throws(() => decodeSymbol64(bytes, 0, SYMBOL64_LENGTH), (e: unknown) => e instanceof WireError && e.code === 'crc' && e.field === 'crc');
    }),
    fcParams(),
  );
});
