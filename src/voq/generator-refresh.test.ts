import { test } from 'node:test';
import assert from 'node:assert/strict';
import { voqSymbol } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorConfig, VoqGeneratorOutput } from './generator-types.ts';

const OQ = { kind: 'output-queue', high: 4, low: 1 } as const;
const NORMAL = { generation: true, participation: true } as const;

function gen(extra: Partial<VoqGeneratorConfig> = {}): VoqGenerator {
  return new VoqGenerator({ ports: 12, detector: OQ, portSettings: NORMAL, ...extra });
}
function timers(out: readonly VoqGeneratorOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'timer' ? [`${o.name}@${String(o.at)}`] : []));
}
function wanted(out: readonly VoqGeneratorOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'symbol-wanted' ? [`${o.port}:g${o.group}`] : []));
}
function drain(g: VoqGenerator, port: number, now: number): { stype2: number; reason: string | undefined }[] {
  const sent: { stype2: number; reason: string | undefined }[] = [];
  for (;;) {
    const o = g.handle({ kind: 'next-stype2', port, stype0: 0 }, now).find((x) => x.kind === 'stype2');
    assert.ok(o?.kind === 'stype2');
    if (o.message === null) return sent;
    sent.push({ stype2: o.stype2, reason: o.message.reason });
  }
}

test('VoQ Backpressure §4.2 rule f: the symbol may be generated at intervals, based on a timer', () => {
  const g = gen({ ports: 8, portSettings: [NORMAL, NORMAL, { participation: true }], refreshPeriod: 1000 });
  assert.deepEqual(timers(g.handle({ kind: 'queue-depth', port: 1, depth: 9 }, 10)), ['refresh@1010'], 'armed by the first input');
  drain(g, 0, 20);
  drain(g, 1, 20);
  const out = g.handle({ kind: 'timer', name: 'refresh' }, 1010);
  // Every group of every generating link, all-clear group 1 included; port 2 does not generate.
  assert.deepEqual(wanted(out), ['0:g0', '0:g1', '1:g0', '1:g1']);
  assert.deepEqual(timers(out), ['refresh@2010']);
  assert.deepEqual(drain(g, 0, 1020), [
    { stype2: voqSymbol({ group: 0, congestedOffsets: [1] }), reason: 'timer' },
    { stype2: voqSymbol({ group: 1, congestedOffsets: [] }), reason: 'timer' },
  ]);
  assert.equal(g.counters().timerRefreshes, 1);
});

test('VoQ Backpressure §4.2 rule f: a stale or early refresh expiry is ignored', () => {
  const g = gen({ ports: 1, refreshPeriod: 50 });
  g.handle({ kind: 'queue-depth', port: 0, depth: 0 }, 0);
  assert.deepEqual(g.handle({ kind: 'timer', name: 'refresh' }, 49), []);
  assert.equal(g.handle({ kind: 'timer', name: 'refresh' }, 50).length, 2);
  assert.deepEqual(g.handle({ kind: 'timer', name: 'refresh' }, 50), [], 'delivered twice');
  assert.equal(g.counters().timerRefreshes, 1);
});

test('VoQ Backpressure §4.2 rule f (decision): no timer unless refreshPeriod is set', () => {
  const g = gen({ ports: 1 });
  assert.deepEqual(timers(g.handle({ kind: 'queue-depth', port: 0, depth: 0 }, 0)), []);
  assert.deepEqual(g.handle({ kind: 'timer', name: 'refresh' }, 5), []);
});

test('VoQ Backpressure §4.2 rule f (decision): a timer refresh takes over a waiting change and sends the current state', () => {
  const g = gen({ ports: 1, refreshPeriod: 10 });
  g.handle({ kind: 'queue-depth', port: 0, depth: 9 }, 0);
  g.handle({ kind: 'queue-depth', port: 0, depth: 0 }, 1);
  assert.deepEqual(wanted(g.handle({ kind: 'timer', name: 'refresh' }, 10)), [], 'group 0 is already waiting');
  assert.deepEqual(g.pending(0), [{ group: 0, vc: null, reason: 'timer' }]);
  assert.deepEqual(drain(g, 0, 11), [{ stype2: voqSymbol({ group: 0, congestedOffsets: [] }), reason: 'timer' }]);
});

test('VoQ Backpressure §4.2 rule g: the symbol may be generated after link recovery to avoid orphaned congestion states', () => {
  const g = gen({ ports: 7 });
  g.handle({ kind: 'queue-depth', port: 6, depth: 9 }, 0);
  drain(g, 0, 0);
  drain(g, 1, 0);
  const out = g.handle({ kind: 'link-recovered', port: 1 }, 5);
  assert.deepEqual(wanted(out), ['1:g0', '1:g1'], 'only the recovered link');
  assert.deepEqual(drain(g, 1, 6), [
    { stype2: voqSymbol({ group: 0, congestedOffsets: [] }), reason: 'link-recovery' },
    { stype2: voqSymbol({ group: 1, congestedOffsets: [0] }), reason: 'link-recovery' },
  ]);
  assert.deepEqual(drain(g, 0, 6), []);
  assert.equal(g.counters().linkRecoveries, 1);
});

test('VoQ Backpressure §4.2 rule g: resendOnLinkRecovery false leaves recovery silent; a non-generating link never resends', () => {
  const off = gen({ ports: 1, resendOnLinkRecovery: false });
  assert.deepEqual(off.handle({ kind: 'link-recovered', port: 0 }, 0), []);
  const idle = gen({ ports: 1, portSettings: { participation: true } });
  assert.deepEqual(idle.handle({ kind: 'link-recovered', port: 0 }, 0), []);
  assert.deepEqual(idle.pending(0), []);
});
