import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { arbFabric, maxInReception, overlappingPulls, startsBeyondGrants, startsOutsideMultiGrants } from '../../../test/support/sim-arbitration.ts';
import type { EndpointConfig } from './endpoint-types.ts';

/** Traffic for 60 µs, then 3 ms to drain: far beyond any backlog a 60 µs burst leaves on 1 Gbit/s links. */
const STOP = 60_000_000;
const DRAIN = 3_000_000_000;

const setting = fc.record({
  hosts: fc.integer({ min: 2, max: 4 }),
  mode: fc.constantFrom('single' as const, 'multi' as const),
  resources: fc.integer({ min: 1, max: 3 }),
  whenBusy: fc.constantFrom('queue' as const, 'reject' as const),
  pipelining: fc.boolean(),
  retryDelay: fc.integer({ min: 0, max: 3_000_000 }),
  sar: fc.boolean(),
  load: fc.double({ min: 0.05, max: 0.9, noNaN: true }),
  size: fc.integer({ min: 1, max: 2048 }),
  prio: fc.constantFrom(0 as const, 1 as const, 2 as const),
  seed: fc.integer({ min: 0, max: 1000 }),
});

test('Part 9 §2.4.7 preamble and rules 1-12, §2.4.2.1, Figures 2-1/2-2/2-4: over random small fabrics, no PDU starts outside a grant, no destination receives more PDUs at once than its resources, and every PDU arrives', () => {
  fc.assert(fc.property(setting, (s) => {
    const configs: EndpointConfig[] = [];
    for (let id = 0; id < s.hosts; id++) {
      const others = Array.from({ length: s.hosts }, (_, i) => i).filter((i) => i !== id);
      configs.push({
        name: `h${id}`, id, buffers: { packets: 8 }, sar: s.sar,
        arbitration: { mode: s.mode, resources: s.resources, whenBusy: s.whenBusy, pipelining: s.pipelining, retryDelay: s.retryDelay },
        traffic: [{ load: s.load, prio: s.prio, arrival: { kind: 'poisson' }, destinations: { kind: 'uniform', ids: others }, size: { kind: 'uniform', min: 1, max: s.size }, stop: STOP }],
      });
    }
    const f = arbFabric(configs, s.seed);
    for (const ep of f.eps) ep.start(0);
    f.b.sched.run({ until: DRAIN });
    assert.deepEqual(s.mode === 'single' ? startsBeyondGrants(f.trace) : startsOutsideMultiGrants(f.trace), []);
    for (let d = 0; d < s.hosts; d++) assert.ok(maxInReception(f.trace, d) <= s.resources, `host ${d}`);
    const sum = (k: 'pdusOffered' | 'pdusDropped' | 'pdusReceived' | 'pduDefects'): number => f.eps.reduce((n, ep) => n + ep.counters()[k], 0);
    assert.equal(sum('pdusReceived'), sum('pdusOffered') - sum('pdusDropped'));
    assert.deepEqual([sum('pduDefects'), f.total('refused'), f.total('unexpectedSegments'), f.total('idleFreed'), f.total('asyncFreed'), overlappingPulls(f.trace)], [0, 0, 0, 0, 0, 0]);
    for (const ep of f.eps) assert.equal(f.arb(ep.id).snapshot()['allocated'], 0, `${ep.name} holds nothing once drained`);
  }), fcParams(40));
});
