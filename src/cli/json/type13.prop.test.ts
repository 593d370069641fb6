import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_JSON, fcParams } from '../../../test/support/fc.ts';
import { type13FromJson } from './type13.ts';
import { toJsonValue } from './common.ts';
import { decodeType13, encodeType13, type13Length } from '../../wire/type13.ts';
import { WireError } from '../../wire/errors.ts';

const LABELS = ['transactionName', 'statusName', 'letter', 'mbox', 'msgseg'];

/** Random bytes made into a Type 13 packet (ftype 13, tt not reserved) that lenient decoding accepts. */
function decoded(raw: Uint8Array) {
  const bytes = raw.slice();
  bytes[1] = (bytes[1]! & 0xc0) | ((bytes[1]! >> 4) % 3 << 4) | 13;
  try {
    return { bytes, p: decodeType13(bytes, 0, bytes.length) };
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

test('docs/cli.md (Part 1 §4.2.3, Part 2 §4.3.3): decode → JSON → encode reproduces the bytes, with or without the labels', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 2, maxLength: 90 }), fc.subarray(LABELS), (raw, drop) => {
      const d = decoded(raw);
      if (d === undefined) return;
      const j = JSON.parse(JSON.stringify(toJsonValue(d.p))) as Record<string, unknown>;
      assert.deepEqual(type13FromJson(j), d.p);
      const p = type13FromJson(Object.fromEntries(Object.entries(j).filter(([k]) => !drop.includes(k))));
      const out = new Uint8Array(type13Length(p));
      encodeType13(p, out, 0);
      assert.deepEqual(out, d.bytes);
    }),
    fcParams(FC_RUNS_JSON),
  );
});
