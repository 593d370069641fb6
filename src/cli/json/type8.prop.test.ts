import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { type8FromJson } from './type8.ts';
import { toJsonValue } from './common.ts';
import { decodeType8, encodeType8, type8Length } from '../../wire/type8.ts';
import { WireError } from '../../wire/errors.ts';

const LABELS = ['transactionName', 'statusName', 'byteCount', 'byteLanes', 'byteOffset'];

/** Random bytes made into a Type 8 packet (ftype 8, tt not reserved) that lenient decoding accepts. */
function decoded(raw: Uint8Array) {
  const bytes = raw.slice();
  bytes[1] = (bytes[1]! & 0xc0) | ((bytes[1]! >> 4) % 3 << 4) | 8;
  try {
    return { bytes, p: decodeType8(bytes, 0, bytes.length) };
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

test('docs/cli.md (Part 1 §4.1.10): decode → JSON → encode reproduces the bytes, with or without the labels', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 2, maxLength: 90 }), fc.subarray(LABELS), (raw, drop) => {
      const d = decoded(raw);
      if (d === undefined) return;
      const j = JSON.parse(JSON.stringify(toJsonValue(d.p))) as Record<string, unknown>;
      assert.deepEqual(type8FromJson(j), d.p);
      const p = type8FromJson(Object.fromEntries(Object.entries(j).filter(([k]) => !drop.includes(k))));
      const out = new Uint8Array(type8Length(p));
      encodeType8(p, out, 0);
      assert.deepEqual(out, d.bytes);
    }),
    fcParams(FC_RUNS_JSON),
  );
});
