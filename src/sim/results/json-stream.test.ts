import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { jsonPieces, writeJsonFile } from './json-stream.ts';

function pieces(v: unknown): string {
  let s = '';
  jsonPieces(v, (x) => { s += x; });
  return s;
}

test('issue 20 results written as a stream: the pieces are JSON.stringify(value, null, 2) + newline, byte for byte', () => {
  fc.assert(fc.property(fc.jsonValue(), (v) => { assert.equal(pieces(v), `${JSON.stringify(v, null, 2)}\n`); }), { numRuns: 500 });
  const odd = { a: undefined, b: [undefined, () => 1, 2], c: { toJSON: () => ({ x: [1, { y: [] }] }) }, d: {}, e: [[], [{}]], f: 'x\ny', g: NaN };
  assert.equal(pieces(odd), `${JSON.stringify(odd, null, 2)}\n`);
});

test('issue 20 results written as a stream: writeJsonFile writes what JSON.stringify gives, past one output chunk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-json-'));
  try {
    const big = { flows: Array.from({ length: 30_000 }, (_, i) => ({ flow: i, latency: { p50: i * 1.5, p99: null }, series: [i, i + 1] })) };
    writeJsonFile(join(dir, 'r.json'), big);
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), `${JSON.stringify(big, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
