import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { int, symbolBytes as encode, symbolFields as fields, voqOptions as voq } from '../../test/support/symbol.ts';
import { WireError } from './errors.ts';
import { buildSymbol, decodeSymbol, symbolLength } from './symbol.ts';
import type { ControlSymbol, SymbolFields, SymbolOptions } from './symbol.ts';

function raw(s: ControlSymbol): SymbolFields {
  const { link, stype0, parameter0, parameter1, stype1, cmd, stype2 } = s;
  return stype2 === undefined ? { link, stype0, parameter0, parameter1, stype1, cmd } : { link, stype0, parameter0, parameter1, stype1, cmd, stype2 };
}

function hasReserved(s: ControlSymbol): boolean {
  return (
    s.rsrv0 !== undefined ||
    s.rsrv1 !== undefined ||
    s.stype1Name === 'RESERVED' ||
    s.cmdName === 'RESERVED' ||
    s.causeName === 'RESERVED' ||
    s.portStatusName === 'RESERVED' ||
    (s.voq !== undefined && s.voq.cmdName !== 'VOQ_BACKPRESSURE' && s.stype2 !== 0)
  );
}

test('Part 6 §3.3 Figure 3-1/3-2: encode → decode is the identity over every field value, both links and VoQ formats', () => {
  fc.assert(
    fc.property(fields, voq, (f, v) => {
      const bytes = encode(f);
      const opts: SymbolOptions = { link: f.link, ...v };
      const s = decodeSymbol(bytes, 0, bytes.length, opts);
      assert.deepEqual(raw(s), { ...f });
      assert.deepEqual(encode(s), bytes);
      assert.deepEqual(buildSymbol(f, v), s);
    }),
    fcParams(),
  );
});

test('Part 6 §3.4–§3.5, VoQ §3.1: strict decoding equals lenient decoding unless a reserved bit or value is present, and then throws WireError', () => {
  fc.assert(
    fc.property(fields, voq, (f, v) => {
      const bytes = encode(f);
      const lenient = decodeSymbol(bytes, 0, bytes.length, { link: f.link, ...v });
      try {
        assert.deepEqual(decodeSymbol(bytes, 0, bytes.length, { link: f.link, ...v, strict: true }), lenient);
        assert.equal(hasReserved(lenient), false);
      } catch (e) {
        assert.ok(e instanceof WireError && e.code === 'reserved', String(e));
        assert.equal(hasReserved(lenient), true);
      }
    }),
    fcParams(),
  );
});

test('Part 6 §3: decoding random bytes throws nothing but WireError, and what decodes re-encodes bit for bit', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 8 }),
      int(8),
      int(8),
      fc.constantFrom('cs24' as const, 'cs48' as const),
      fc.boolean(),
      voq,
      (bytes, a, b, link, strict, v) => {
        const offset = Math.min(a, b);
        const end = Math.max(a, b);
        let s: ControlSymbol;
        try {
          s = decodeSymbol(bytes, offset, end, { link, strict, ...v });
        } catch (e) {
          assert.ok(e instanceof WireError, String(e));
          return;
        }
        assert.deepEqual(encode(s), bytes.subarray(offset, offset + symbolLength(link)));
      },
    ),
    fcParams(),
  );
});

test('Part 6 §3.6: mutating a valid symbol yields a WireError or another valid symbol, and the original still decodes', () => {
  fc.assert(
    fc.property(fields, fc.array(fc.tuple(int(5), int(255)), { minLength: 1, maxLength: 4 }), fc.boolean(), (f, edits, strict) => {
      const bytes = encode(f);
      const before = decodeSymbol(bytes, 0, bytes.length, { link: f.link });
      const bad = bytes.slice();
      for (const [i, x] of edits) bad[i % bad.length] = x;
      try {
        const s = decodeSymbol(bad, 0, bad.length, { link: f.link, strict });
        assert.deepEqual(encode(s), bad);
      } catch (e) {
        assert.ok(e instanceof WireError, String(e));
      }
      assert.deepEqual(decodeSymbol(bytes, 0, bytes.length, { link: f.link }), before);
    }),
    fcParams(),
  );
});

test('Part 6 §3.6: any single-bit error in a CS24 or CS48 is a CRC error', () => {
  fc.assert(
    fc.property(fields, int(47), (f, at) => {
      const bytes = encode(f);
      const bit = at % (bytes.length * 8);
      bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (0x80 >> (bit & 7));
      assert.throws(
        () => decodeSymbol(bytes, 0, bytes.length, { link: f.link }),
        (e: unknown) => e instanceof WireError && e.code === 'crc' && e.field === 'crc',
      );
    }),
    fcParams(),
  );
});
