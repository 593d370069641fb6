import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { Ids, PT, RecordingProbe, endOn, linkSwitches, orderViolation, packet, singleSwitch } from '../../../test/support/sim-switch.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { Switch } from './switch.ts';
import type { Arbitration } from '../../node/switch/arbiters.ts';
import type { Queueing } from '../../node/switch/config-types.ts';
import type { VoqMatcher } from '../../node/switch/voq-matching.ts';
import type { Priority, SimPacket } from './types.ts';

const N = 4;

const buffersArb = fc.integer({ min: 4, max: 12 }).chain((packets) => fc.record({ packets: fc.constant(packets), reservePerPriority: fc.integer({ min: 0, max: Math.min(1, Math.floor((packets - 1) / 3)) }) }));

const configArb = fc.record({
  queueing: fc.constantFrom<Queueing[]>('output-queued', 'input-fifo', 'input-voq', 'cioq-voq-backpressure'),
  speedup: fc.constantFrom(1, 2, 4),
  slotted: fc.boolean(),
  buffers: buffersArb,
  endBuffers: buffersArb,
  queue: fc.integer({ min: 1, max: 6 }),
  register: fc.integer({ min: 0, max: 1 }),
  arbitration: fc.constantFrom<Arbitration[]>('random', 'round-robin', 'fixed', 'weighted'),
  iterations: fc.integer({ min: 1, max: 3 }),
  matcher: fc.constantFrom<VoqMatcher[]>('islip', 'pim', 'wavefront'),
  congestion: fc.option(fc.integer({ min: 1, max: 4 }).chain((high) => fc.record({ highWatermark: fc.constant(high), lowWatermark: fc.integer({ min: 0, max: high - 1 }) })), { nil: null }),
  voqHigh: fc.integer({ min: 2, max: 5 }),
  service: fc.array(fc.constantFrom(0, PT, 3 * PT), { minLength: N, maxLength: N }),
});

const trafficArb = fc.array(
  fc.record({
    src: fc.integer({ min: 0, max: N - 1 }),
    dst: fc.integer({ min: 0, max: N - 1 }),
    prio: fc.constantFrom<Priority[]>(0, 1, 2, 3),
    crf: fc.constantFrom<(0 | 1)[]>(0, 1),
    bytes: fc.integer({ min: 8, max: 120 }),
    at: fc.integer({ min: 0, max: 20 }),
  }),
  { maxLength: 40, size: 'max' },
);

test('issue 7 §2 links never lose packets: random traffic through a 4x4 switch in every mode never overflows a buffer, never loses or duplicates a packet, and keeps per-(input, output, priority, CRF) order', () => {
  fc.assert(
    fc.property(configArb, trafficArb, (c, traffic) => {
      const inputQueued = c.queueing === 'input-fifo' || c.queueing === 'input-voq';
      const voq = c.queueing === 'input-voq';
      const f = singleSwitch({
        ports: N,
        queueing: c.queueing,
        speedup: c.speedup,
        slot: c.slotted ? 4 * PT : null,
        inputBuffer: c.buffers,
        outputBuffer: { packets: inputQueued ? c.register : c.queue },
        // An input-VoQ switch's arbitration is its matcher's (voq-matching.ts), and the wave front is one pass.
        arbitration: voq ? (c.matcher === 'pim' ? 'random' : 'round-robin') : c.arbitration,
        // Iterations are the matcher's rounds: only input-VoQ switches have them.
        ...(voq ? { matcher: c.matcher, iterations: c.matcher === 'wavefront' ? 1 : c.iterations } : {}),
        congestion: c.congestion,
        ...(c.queueing === 'cioq-voq-backpressure' ? { voq: { high: c.voqHigh, low: 1 } } : {}),
      }, { endBuffers: c.endBuffers, seed: 5 });
      f.ends.forEach((e, i) => { e.serviceTime = c.service[i] ?? 0; });
      // Ids follow each source's sending order, so order checks can compare ids.
      const sorted = [...traffic].sort((a, b) => a.at - b.at);
      const sent: SimPacket[] = [];
      for (const t of sorted) {
        const p = packet(f.ids, t.src, t.dst, { prio: t.prio, crf: t.crf, bytes: t.bytes, at: t.at * PT });
        sent.push(p);
        f.ends[t.src]?.send([p], t.at * PT);
      }
      const r = f.sched.run({ events: 2_000_000 });
      assert.equal(r.reason, 'empty', 'the fabric drains');
      const got = f.ends.flatMap((e) => e.got().map((x) => ({ p: x.p, at: e.id })));
      assert.equal(got.length, sent.length, 'every packet delivered once');
      assert.deepEqual(got.map((g) => g.p.id).sort((a, b) => a - b), sent.map((p) => p.id));
      for (const g of got) assert.equal(g.at, g.p.dst, 'delivered to its destination');
      assert.equal(orderViolation(f.ends), null);
      for (let i = 0; i < N; i++) {
        assert.ok((f.probe.peaks.get(`s/in${i}`) ?? 0) <= c.buffers.packets, 'input buffer within its size');
        assert.ok((f.ends[i]?.maxHeld ?? 0) <= c.endBuffers.packets, 'end point buffer within its size');
        assert.equal(f.sw.inputOccupancy(i), 0);
        assert.equal(f.sw.outputOccupancy(i), 0);
        if (c.queueing === 'output-queued') assert.ok((f.probe.peaks.get(`s/out${i}`) ?? 0) <= c.queue + 4, 'output queue within its size and the CCP allowance');
      }
    }),
    fcParams(6000),
  );
});

test('VoQ Backpressure §4.3 b, d: random traffic across two VoQ-backpressure switches is blocked and released without loss, duplication or reordering', () => {
  let blockedRuns = 0;
  fc.assert(
    fc.property(
      fc.record({ high: fc.integer({ min: 2, max: 5 }), extra: fc.integer({ min: 0, max: 3 }), slow: fc.constantFrom(PT, 3 * PT, 6 * PT), speedup: fc.constantFrom(1, 2) }),
      fc.array(fc.record({ src: fc.integer({ min: 0, max: 1 }), dst: fc.integer({ min: 2, max: 3 }), prio: fc.constantFrom<Priority[]>(0, 1, 2), at: fc.integer({ min: 0, max: 10 }) }), { minLength: 10, maxLength: 60, size: 'max' }),
      (c, traffic) => {
        // s1: ends 0, 1 on ports 0, 1, port 2 to s2's port 0; s2: ends 2, 3 on ports 1, 2 (end 2 slow).
        const sched = new Scheduler();
        const ids = new Ids();
        const probe = new RecordingProbe();
        // s2's output queue must be able to reach the high watermark.
        const common = { ports: 3, queueing: 'cioq-voq-backpressure', speedup: c.speedup, outputBuffer: { packets: c.high + c.extra }, inputBuffer: { packets: 8 } } as const;
        const s1 = new Switch(sched, { ...common, name: 's1', routes: { 0: 0, 1: 1, 2: { port: 2, next: 1 }, 3: { port: 2, next: 2 } }, voq: { high: 8, low: 1, generate: [] } }, { ids, probe });
        const s2 = new Switch(sched, { ...common, name: 's2', routes: { 0: 0, 1: 0, 2: 1, 3: 2 }, voq: { high: c.high, low: 1, generate: [0] } }, { ids, probe });
        linkSwitches(sched, s1, 2, s2, 0);
        const ends = [endOn(sched, s1, 0, 0), endOn(sched, s1, 1, 1), endOn(sched, s2, 1, 2), endOn(sched, s2, 2, 3)];
        (ends[2] as (typeof ends)[number]).serviceTime = c.slow;
        const sorted = [...traffic].sort((a, b) => a.at - b.at);
        for (const t of sorted) ends[t.src]?.send([packet(ids, t.src, t.dst, { prio: t.prio, at: t.at * PT })], t.at * PT);
        assert.equal(sched.run({ events: 2_000_000 }).reason, 'empty', 'the fabric drains');
        const got = ends.flatMap((e) => e.got());
        assert.equal(got.length, sorted.length);
        assert.equal(new Set(got.map((g) => g.p.id)).size, sorted.length);
        assert.equal(orderViolation(ends), null);
        assert.equal(s2.counters().voqSymbolsSent, s1.counters().voqSymbolsReceived);
        assert.equal(s1.counters().voqBlocked, s1.counters().voqUnblocked, 'every blocked queue released');
        if (s1.counters().voqBlocked > 0) blockedRuns++;
      },
    ),
    fcParams(1500),
  );
  assert.ok(blockedRuns > 100, `backpressure blocked traffic in ${blockedRuns} runs`);
});
