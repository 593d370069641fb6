import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { toHex } from '../../wire/hex.ts';
import { SYMBOL64_LENGTH, decodeSymbol64, encodeSymbol64 } from '../../wire/symbol64.ts';
import type { Symbol64Fields } from '../../wire/symbol64.ts';
import { toJsonValue } from './common.ts';
import { symbol64FromJson } from './symbol64.ts';

const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const fields: fc.Arbitrary<Symbol64Fields> = fc.record(
  { link: fc.constant('cs64' as const), stype0: int(15), parameter0: int(0xfff), parameter1: int(0xfff), stype1: int(0xff), alignment0: int(3), alignment1: int(3) },
  { requiredKeys: ['link', 'stype0', 'parameter0', 'parameter1', 'stype1'] },
);
function bytesOf(f: Symbol64Fields): Uint8Array {
  const out = new Uint8Array(SYMBOL64_LENGTH);
  encodeSymbol64(f, out, 0);
  return out;
}

test('docs/cli.md: CS64 decode → JSON → symbol64FromJson → encode reproduces every symbol bit for bit', () => {
  fc.assert(
    fc.property(fields, int(6), (f, g) => {
      const bytes = bytesOf(f);
      const json = JSON.parse(JSON.stringify(toJsonValue(decodeSymbol64(bytes, 0, 8, { part12GroupSize: g })))) as unknown;
      assert.equal(toHex(bytesOf(symbol64FromJson(json, { part12GroupSize: g }))), toHex(bytes));
    }),
    fcParams(FC_RUNS_JSON),
  );
});

test('docs/cli.md: the CS64 labels alone (raw stype0, parameters and stype1 removed) give the same bytes', () => {
  fc.assert(
    fc.property(fields, int(6), (f, g) => {
      const bytes = bytesOf(f);
      const s = decodeSymbol64(bytes, 0, 8, { part12GroupSize: g });
      const json = JSON.parse(JSON.stringify(toJsonValue(s))) as Record<string, unknown>;
      // RESERVED names and implementation-defined parameters have no label to rebuild them from.
      const drop = ['crc'];
      if (s.stype0Name !== 'RESERVED') drop.push('stype0');
      if (s.stype0Name !== 'RESERVED' && s.stype0Name !== 'implementation-defined') drop.push('parameter0', 'parameter1');
      if (s.stype1Name !== 'RESERVED') drop.push('stype1');
      for (const k of drop) Reflect.deleteProperty(json, k);
      assert.equal(toHex(bytesOf(symbol64FromJson(json, { part12GroupSize: g }))), toHex(bytes));
    }),
    fcParams(FC_RUNS_JSON),
  );
});
