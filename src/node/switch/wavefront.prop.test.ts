import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../../test/support/fc.ts';
import { Wavefront } from './wavefront.ts';

const caseArb = fc.integer({ min: 1, max: 12 }).chain((n) => fc.record({
  n: fc.constant(n),
  requests: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n * n, maxLength: n * n }),
  // Matchings made before: the starting diagonal.
  before: fc.integer({ min: 0, max: 2 * n }),
}));

test('Tamir & Chi 1993 (wave front arbiter): every matching is a matching of requests, maximal (no free input and free output with a request between them), and by priority level: a request left out has its input or its output matched at its level or above', () => {
  fc.assert(
    fc.property(caseArb, ({ n, requests, before }) => {
      const wfa = new Wavefront(n, 4);
      const req = Int8Array.from(requests);
      const m = new Int32Array(n);
      for (let k = 0; k < before; k++) wfa.match(req, m);
      const pairs = wfa.match(req, m);
      const outputLevel = new Int32Array(n).fill(-1);
      let count = 0;
      for (let i = 0; i < n; i++) {
        const o = m[i] as number;
        if (o < 0) continue;
        count++;
        const r = req[i * n + o] as number;
        assert.ok(r >= 0, 'a matched pair has a request');
        assert.equal(outputLevel[o], -1, 'an output is matched once');
        outputLevel[o] = r;
      }
      assert.equal(pairs, count);
      for (let i = 0; i < n; i++) {
        const inputLevel = (m[i] as number) < 0 ? -1 : (req[i * n + (m[i] as number)] as number);
        for (let o = 0; o < n; o++) {
          const r = req[i * n + o] as number;
          if (r < 0 || m[i] === o) continue;
          assert.ok(inputLevel >= 0 || (outputLevel[o] as number) >= 0, `maximal: (${i}, ${o}) left free`);
          assert.ok(Math.max(inputLevel, outputLevel[o] as number) >= r, `priority: (${i}, ${o}) at level ${r}`);
        }
      }
    }),
    fcParams(FC_RUNS_MODEL),
  );
});

test('Tamir & Chi 1993 (wave front arbiter): the top-priority diagonal rotates by one per matching, so under full requests the pairs (i, i + k mod n) are served in turn', () => {
  const n = 4;
  const wfa = new Wavefront(n, 1);
  const req = new Int8Array(n * n).fill(0);
  const m = new Int32Array(n);
  for (let k = 0; k < 2 * n; k++) {
    assert.equal(wfa.startDiagonal, k % n);
    assert.equal(wfa.match(req, m), n);
    assert.deepEqual([...m], [0, 1, 2, 3].map((i) => (i + k) % n));
  }
  // Without a request the matching is empty and the diagonal stays.
  assert.equal(wfa.match(new Int8Array(n * n).fill(-1), m), 0);
  assert.equal(wfa.startDiagonal, 0);
});

test('Tamir & Chi 1993 (wave front arbiter): contention for one output is settled by the rotating diagonal, each input winning in turn', () => {
  const n = 3;
  const wfa = new Wavefront(n, 1);
  const req = new Int8Array(n * n).fill(-1);
  for (let i = 0; i < n; i++) req[i * n] = 0;
  const m = new Int32Array(n);
  const winners: number[] = [];
  for (let k = 0; k < 6; k++) {
    wfa.match(req, m);
    winners.push(m.indexOf(0));
  }
  // Diagonal d holds (i, i + d mod 3): output 0 is on it at input (3 − d) mod 3.
  assert.deepEqual(winners, [0, 2, 1, 0, 2, 1]);
});
