import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench } from '../../../test/support/sim-endpoint.ts';
import { parseScenario } from '../scenario/load.ts';
import { runScenario } from '../scenario/run.ts';
import { Endpoint } from './endpoint.ts';
import type { SimPacket } from './types.ts';

function dsts(ps: (SimPacket | null)[]): string[] {
  return ps.map((p) => (p === null ? 'none' : `${p.dst}/p${p.prio}`));
}

function endpoint(sourceQueue?: 'per-destination' | 'fifo', queuePdus?: number): Endpoint {
  const b = bench();
  return new Endpoint(b.sched, {
    name: 'ep1', id: 1, buffers: { packets: 8 },
    ...(sourceQueue === undefined ? {} : { sourceQueue }),
    ...(queuePdus === undefined ? {} : { queuePdus }),
  }, b.ctx);
}

test('issue 20 endpoints.sourceQueue fifo: PDUs leave in arrival order across destinations and priorities', () => {
  const ep = endpoint('fifo');
  ep.source.offer(2, 0, 0, 64, 0);
  ep.source.offer(3, 0, 0, 64, 0);
  ep.source.offer(3, 2, 0, 64, 0);
  ep.source.offer(2, 0, 0, 64, 0);
  // Per destination the priority-2 PDU would go first (strict priority); in one FIFO it waits its turn.
  assert.deepEqual(dsts(Array.from({ length: 5 }, () => ep.pull(0, 8, 1))), ['2/p0', '3/p0', '3/p2', '2/p0', 'none']);
});

test('Part 9 §2.4.5 rule 1 with endpoints.sourceQueue fifo: an XOFF\'d flow at the head stops the whole queue until its XON; per destination the others go on', () => {
  for (const mode of ['fifo', 'per-destination'] as const) {
    const ep = endpoint(mode);
    ep.source.offer(2, 0, 0, 64, 0);
    ep.source.offer(3, 0, 0, 64, 0);
    ep.source.offer(3, 0, 0, 64, 0);
    ep.source.setEnabled(2, '0A', false, 0);
    const stopped = dsts([ep.pull(0, 8, 1), ep.pull(0, 8, 1)]);
    ep.source.setEnabled(2, '0A', true, 1);
    const after = dsts([ep.pull(1, 8, 1), ep.pull(1, 8, 1)]);
    if (mode === 'fifo') {
      assert.deepEqual(stopped, ['none', 'none']);
      assert.deepEqual(after, ['2/p0', '3/p0']);
    } else {
      assert.deepEqual(stopped, ['3/p0', '3/p0']);
      assert.deepEqual(after, ['2/p0', 'none']);
    }
  }
});

test('Part 6 §5 with endpoints.sourceQueue fifo: a head whose priority the receiver\'s buffers refuse holds back a higher priority behind it', () => {
  const ep = endpoint('fifo');
  ep.source.offer(2, 0, 0, 64, 0);
  ep.source.offer(2, 2, 0, 64, 0);
  // 2 free, reserve 1: prio 0 needs more than 3, so nothing goes; with room the order is kept.
  assert.deepEqual(dsts([ep.pull(0, 2, 1), ep.pull(0, 8, 1), ep.pull(0, 8, 1)]), ['none', '2/p0', '2/p2']);
});

test('issue 20 endpoints.sourceQueue fifo: queuePdus bounds the one queue, not each flow', () => {
  const ep = endpoint('fifo', 2);
  assert.deepEqual([ep.source.offer(2, 0, 0, 64, 0), ep.source.offer(3, 0, 0, 64, 0), ep.source.offer(4, 0, 0, 64, 0)], [true, true, false]);
  assert.equal(ep.counters().pdusDropped, 1);
  const per = endpoint('per-destination', 2);
  assert.deepEqual([per.source.offer(2, 0, 0, 64, 0), per.source.offer(3, 0, 0, 64, 0), per.source.offer(4, 0, 0, 64, 0)], [true, true, true]);
});

const HOL = `
name: hol
seed: 2
duration: 200us
warmup: 20us
topology: { kind: switch, hosts: 4 }
switch: { speedup: 4, congestion: { highWatermark: 8, lowWatermark: 4 } }
traffic:
  - { group: incast, pattern: incast, sink: 0, sources: [2, 3], load: 0.9 }
  - { group: to-hot, pattern: uniform, sources: [1], destinations: [0], load: 0.4 }
  - { group: to-cold, pattern: uniform, sources: [1], destinations: [2], load: 0.4 }
variants:
  - { name: per-destination }
  - { name: fifo, overrides: { endpoints: { sourceQueue: fifo } } }
  - { name: per-destination named, overrides: { endpoints: { sourceQueue: per-destination } } }
`;

test('issue 20 endpoints.sourceQueue: head-of-line blocking at the source: host 1\'s flow to a congested (XOFF\'d) host slows its flow to an idle one with fifo, not per destination', () => {
  const [per, fifo, named] = runScenario(parseScenario(HOL)).variants;
  assert.ok(per !== undefined && fifo !== undefined && named !== undefined);
  const cold = (v: typeof per): number => v.groups.find((g) => g.name === 'to-cold')?.deliveredFraction ?? NaN;
  assert.ok(per.results.headline.ccpsSent > 0);
  assert.equal(cold(per), 1);
  assert.ok(cold(fifo) < 0.9, `fifo delivered ${cold(fifo)} of the flow to the idle host`);
  // The default named explicitly changes nothing.
  assert.deepEqual(named.results, per.results);
});

test('issue 20 endpoints.sourceQueue: a value other than per-destination or fifo is refused with its path', () => {
  assert.throws(() => parseScenario(`${HOL.replace(/variants:[\s\S]*/, '')}endpoints: { sourceQueue: voq }\n`), /endpoints\.sourceQueue: expected one of per-destination, fifo/);
});
