import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { symbolBytes as bytesOf, symbolFields as fields, voqOptions as voq } from '../../../test/support/symbol.ts';
import { toHex } from '../../wire/hex.ts';
import { decodeSymbol } from '../../wire/symbol.ts';
import { toJsonValue } from './common.ts';
import { symbolFromJson } from './symbol.ts';

test('docs/cli.md: decode → JSON → symbolFromJson → encode reproduces every symbol bit for bit', () => {
  fc.assert(
    fc.property(fields, voq, (f, v) => {
      const bytes = bytesOf(f);
      const opts = { link: f.link, ...v };
      const json = JSON.parse(JSON.stringify(toJsonValue(decodeSymbol(bytes, 0, bytes.length, opts)))) as Record<string, unknown>;
      assert.equal(toHex(bytesOf(symbolFromJson(json, opts))), toHex(bytes));
    }),
    fcParams(FC_RUNS_JSON),
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
    fcParams(FC_RUNS_JSON),
  );
});
