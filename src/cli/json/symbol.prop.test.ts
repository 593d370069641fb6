import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { toHex } from '../../wire/hex.ts';
import { decodeSymbol, encodeSymbol, symbolLength } from '../../wire/symbol.ts';
import type { SymbolFields } from '../../wire/symbol.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import { toJsonValue } from './common.ts';
import { symbolFromJson } from './symbol.ts';

const int = (max: number) => fc.integer({ min: 0, max });
const fields: fc.Arbitrary<SymbolFields> = fc.oneof(
  fc.record({ link: fc.constant('cs24' as const), stype0: int(7), parameter0: int(31), parameter1: int(31), stype1: int(7), cmd: int(7) }),
  fc.record({ link: fc.constant('cs48' as const), stype0: int(7), parameter0: int(63), parameter1: int(63), stype1: int(7), cmd: int(7), stype2: int(0x3fff) }),
);
interface Voq {
  readonly voqFormat: VoqFormat;
  readonly part12GroupSize: number;
}
const voq = fc.oneof(
  fc.constant<Voq>({ voqFormat: 'seed', part12GroupSize: 0 }),
  int(6).map((g): Voq => ({ voqFormat: 'part12-rev4.1', part12GroupSize: g })),
);

function bytesOf(f: SymbolFields): Uint8Array {
  const out = new Uint8Array(symbolLength(f.link));
  encodeSymbol(f, out, 0);
  return out;
}

test('docs/cli.md: decode → JSON → symbolFromJson → encode reproduces every symbol bit for bit', () => {
  fc.assert(
    fc.property(fields, voq, (f, v) => {
      const bytes = bytesOf(f);
      const opts = { link: f.link, ...v };
      const json = JSON.parse(JSON.stringify(toJsonValue(decodeSymbol(bytes, 0, bytes.length, opts)))) as Record<string, unknown>;
      assert.equal(toHex(bytesOf(symbolFromJson(json, opts))), toHex(bytes));
    }),
    fcParams(),
  );
});

test('docs/cli.md: the labels alone (raw stype0, parameters, stype1, cmd and stype2 removed) give the same bytes', () => {
  fc.assert(
    fc.property(fields, voq, (f, v) => {
      const bytes = bytesOf(f);
      const opts = { link: f.link, ...v };
      const s = decodeSymbol(bytes, 0, bytes.length, opts);
      // implementation-defined parameters and RESERVED cmds have no label to rebuild them from.
      const json = JSON.parse(JSON.stringify(toJsonValue(s))) as Record<string, unknown>;
      const drop = ['stype0', 'stype1', 'stype2', 'crc'];
      if (s.stype0Name !== 'implementation-defined') drop.push('parameter0', 'parameter1');
      if (s.cmdName !== 'RESERVED') drop.push('cmd');
      for (const k of drop) Reflect.deleteProperty(json, k);
      assert.equal(toHex(bytesOf(symbolFromJson(json, opts))), toHex(bytes));
    }),
    fcParams(),
  );
});
