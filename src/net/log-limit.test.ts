import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogLimiter } from './log-limit.ts';

test('issue 8 §3 "a flood does not grow memory without bound" (log lines): at most burst lines of a key per interval, the rest counted and told with the next line', () => {
  const l = new LogLimiter({ burst: 3, intervalMs: 100 });
  const got = Array.from({ length: 10 }, (_, i) => l.admit('frame-malformed:1', i));
  assert.deepEqual(got, [0, 0, 0, null, null, null, null, null, null, null]);
  // Another key has its own budget.
  assert.equal(l.admit('frame-malformed:2', 5), 0);
  // The next interval: the first line says how many were left out.
  assert.equal(l.admit('frame-malformed:1', 100), 7);
  assert.equal(l.admit('frame-malformed:1', 101), 0);
});

test('issue 8 §3 (log lines): flush tells the counts of a flood that stopped, once, and forgets quiet keys so the keys stay few', () => {
  const l = new LogLimiter({ burst: 1, intervalMs: 50 });
  for (let i = 0; i < 5; i++) l.admit('source-rejected:0', i);
  l.admit('no-route:3', 10);
  assert.deepEqual(l.flush(20), [], 'nothing is told before the interval ends');
  assert.deepEqual(l.flush(60), [{ key: 'source-rejected:0', suppressed: 4 }]);
  assert.equal(l.size, 0);
  assert.deepEqual(l.flush(200), []);
  l.admit('x', 300);
  l.admit('x', 301);
  assert.deepEqual(l.flush(302, true), [{ key: 'x', suppressed: 1 }], 'all: at close, whatever the interval');
});

test('issue 8 §3 (log lines): burst and interval are checked, each RangeError naming its field', () => {
  assert.throws(() => new LogLimiter({ burst: 0 }), /burst/);
  assert.throws(() => new LogLimiter({ intervalMs: 1.5 }), /intervalMs/);
});
