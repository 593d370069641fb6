import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { bench } from '../../../test/support/sim-endpoint.ts';
import { Endpoint } from './endpoint.ts';

type Step =
  | { readonly op: 'offer'; readonly dst: number; readonly prio: 0 | 1 | 2; readonly bytes: number }
  | { readonly op: 'pull'; readonly free: number; readonly reserve: number }
  | { readonly op: 'xoff'; readonly dst: number; readonly prio: 0 | 1 | 2; readonly enabled: boolean };

const prio = fc.constantFrom<0 | 1 | 2>(0, 1, 2);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('offer' as const), dst: fc.integer({ min: 2, max: 4 }), prio, bytes: fc.integer({ min: 1, max: 700 }) }),
  fc.record({ op: fc.constant('pull' as const), free: fc.integer({ min: 0, max: 8 }), reserve: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant('xoff' as const), dst: fc.integer({ min: 2, max: 4 }), prio, enabled: fc.boolean() }),
);

test('issue 7 §2 flow arbitration, Part 6 §5, Part 9 §2.4.5: pull keeps the buffer rule, skips stopped flows, serves the highest eligible priority, and sends every accepted byte once', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 80 }), fc.boolean(), (steps, sar) => {
      const b = bench();
      const ep = new Endpoint(b.sched, { name: 'ep1', id: 1, buffers: { packets: 8 }, queuePdus: 3, sar, mtu: 100, sarMtu: 64 }, b.ctx);
      const flowId = ['0A', '0C', '0E'] as const;
      let accepted = 0;
      let sent = 0;
      for (const s of steps) {
        if (s.op === 'offer') {
          if (ep.source.offer(s.dst, s.prio, 0, s.bytes, 0)) accepted += s.bytes;
        } else if (s.op === 'xoff') {
          ep.source.setEnabled(s.dst, flowId[s.prio], s.enabled, 0);
        } else {
          const eligible = ep.source.flows.filter((f) => f.enabled && f.queue.length > 0 && s.free > (3 - f.prio) * s.reserve);
          const p = ep.pull(0, s.free, s.reserve);
          if (p === null) {
            assert.equal(eligible.length, 0);
            continue;
          }
          assert.ok(s.free > (3 - p.prio) * s.reserve, 'buffer rule');
          const f = ep.source.flows[p.flow];
          assert.ok(f !== undefined && f.enabled, 'a stopped flow sent');
          assert.equal(p.prio, Math.max(...eligible.map((e) => e.prio)), 'strict priority');
          const w = p.wire as { payload: Uint8Array } | undefined;
          sent += w === undefined ? Math.min(100, (p.pdu?.bytes ?? 0) - (p.pdu?.index ?? 0) * 100) : w.payload.length;
        }
      }
      // Drain what is left with every flow enabled.
      for (const f of ep.source.flows) ep.source.setEnabled(f.dst, f.flowID, true, 0);
      for (let p = ep.pull(0, 8, 0); p !== null; p = ep.pull(0, 8, 0)) {
        const w = p.wire as { payload: Uint8Array } | undefined;
        sent += w === undefined ? Math.min(100, (p.pdu?.bytes ?? 0) - (p.pdu?.index ?? 0) * 100) : w.payload.length;
      }
      assert.equal(sent, accepted);
      assert.equal(ep.source.queuedBytes, 0);
      assert.equal(ep.source.queuedPdus, 0);
    }),
    fcParams(3000),
  );
});
