import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { type7FromJson } from './type7.ts';
import { toJsonValue } from './common.ts';
import { decodeType7, encodeType7 } from '../../wire/type7.ts';

const viaJson = (v: unknown): unknown => JSON.parse(JSON.stringify(toJsonValue(v)));

test('docs/cli.md: Type 7 — JSON of any leniently decoded packet parses back and encodes to the same bytes', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 }), fc.uint8Array({ minLength: 14, maxLength: 14 }), (tt, raw) => {
      const n = 4 + 2 * (tt === 2 ? 4 : tt + 1);
      const bytes = raw.slice(0, n);
      bytes[1] = ((bytes[1] as number) & 0xc0) | (tt << 4) | 7;
      // Every 7-typed byte string of the right length decodes leniently (no WireError expected).
      const p = decodeType7(bytes, 0, n);
      const out = new Uint8Array(n);
      encodeType7(type7FromJson(viaJson(p)), out, 0);
      assert.deepEqual(out, bytes);
    }),
    fcParams(FC_RUNS_JSON),
  );
});
