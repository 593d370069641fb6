import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { type9FromJson } from './type9.ts';
import { toJsonValue } from './common.ts';
import { decodeType9, encodeType9 } from '../../wire/type9.ts';
import type { Type9Packet } from '../../wire/type9.ts';
import { WireError } from '../../wire/errors.ts';

const viaJson = (v: unknown): unknown => JSON.parse(JSON.stringify(toJsonValue(v)));

function lenient<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

test('docs/cli.md: Type 9 — JSON of any leniently decoded packet parses back and encodes to the same bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 2, maxLength: 80 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 4 }), (raw, tt, kind) => {
      const bytes = Uint8Array.from(raw);
      bytes[1] = ((bytes[1] as number) & 0xc0) | (tt << 4) | 9;
      // Steer the flags byte towards each header shape: single/start/continuation/end, then TM.
      const flagsAt = 2 + 2 * (tt === 2 ? 4 : tt + 1) + 1;
      if (flagsAt < bytes.length) bytes[flagsAt] = kind === 4 ? ((bytes[flagsAt] as number) & 0xc3) | 0x04 : ((bytes[flagsAt] as number) & 0x3b) | (kind << 6);
      const p: Type9Packet | undefined = lenient(() => decodeType9(bytes, 0, bytes.length));
      if (p === undefined) return;
      const back = type9FromJson(viaJson(p));
      const out = new Uint8Array(bytes.length);
      encodeType9(back, out, 0);
      assert.deepEqual(out, bytes);
    }),
    fcParams(FC_RUNS_JSON),
  );
});
