import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterTable } from './ccp-counter-table.ts';
import { FLOW_COUNT } from './flows.ts';

test('Part 9 §2.4.2.3: every flow is associated with a counter; serves() finds exactly the destinations with a flow on a counter', () => {
  for (const count of [1, 7, 14, 15, 29, 100]) {
    const t = new CounterTable({ mode: 'bounded', count }, 8);
    for (let dest = 0; dest < 40; dest++) {
      const keys = new Set(Array.from({ length: FLOW_COUNT }, (_, i) => t.key(dest, i)));
      for (let key = 0; key < count; key++) assert.equal(t.serves(key, dest), keys.has(key), `count ${count}, destination ${dest}, counter ${key}`);
    }
  }
  const perFlow = new CounterTable({ mode: 'per-flow' }, 8);
  assert.equal(perFlow.key(3, 13), 3 * 16 + 13);
  assert.equal(perFlow.serves(perFlow.key(3, 13), 3), true);
  assert.equal(perFlow.serves(perFlow.key(3, 13), 4), false);
});

test('Part 9 §2.4.5 rule 1: stoppedMask stops a flow while any counter at or above it in its channel is non-zero, never a critical one', () => {
  const t = new CounterTable({ mode: 'per-flow' }, 4);
  assert.equal(t.max, 15);
  t.set(t.key(9, 2), 1); // 0C
  t.set(t.key(9, 7), 2); // 2A
  assert.equal(t.stoppedMask(9, 0), 0b1000_0111);
  assert.equal(t.stoppedMask(9, 0b1), 0b1000_0110, 'critical 0A');
  assert.equal(t.stoppedMask(8, 0), 0);
  t.set(t.key(9, 2), 0);
  assert.equal(t.nonZero, 1, 'zero counters are not stored');
});
