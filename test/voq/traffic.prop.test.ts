/**
 * Traffic through the upstream device under arbitrary backpressure from the downstream device,
 * end to end over the link (test/support/voq-link.ts): VoQ Backpressure §4.3 b–e.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../support/fc.ts';
import { RX_PORT, VoqLink } from '../support/voq-link.ts';
import type { VoqLinkConfig } from '../support/voq-link.ts';

const configArb: fc.Arbitrary<VoqLinkConfig> = fc.record({
  part12: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  ports: fc.integer({ min: 1, max: 24 }),
  queues: fc.integer({ min: 1, max: 5 }),
  vc: fc.constantFrom('off', 'off-per-vc', 'linked-1', 'linked-8'),
}).map(({ part12, ports, queues, vc }): VoqLinkConfig => ({
  ...(part12 === undefined ? { format: 'seed' } : { format: 'part12-rev4.1', groupSize: part12 }),
  ports,
  queues,
  ...(vc === 'off' ? {} : vc === 'off-per-vc' ? { perVcStaging: true, vcs: 8 } : { linking: true, vcs: vc === 'linked-1' ? 1 : 8 }),
}));

const stepArb = fc.record({
  op: fc.constantFrom('congest', 'clear', 'stage', 'stage', 'send', 'send', 'flush'),
  port: fc.nat(23),
  vc: fc.nat(8),
  max: fc.integer({ min: 0, max: 2 }),
});

interface Staged {
  readonly id: number;
  readonly port: number;
  readonly vc: number;
  readonly queue: number;
}

test('VoQ Backpressure §4.3 b, c, d, e (round trip, property): nothing for a held-congested port is committed, the oldest eligible packet goes, no reordering within a port, everything goes once congestion clears', () => {
  fc.assert(
    fc.property(configArb, fc.array(stepArb, { maxLength: 80 }), (c, steps) => {
      const l = new VoqLink(c);
      const vcs = l.vcList();
      const queues = c.queues ?? 4;
      const staged: Staged[] = [];
      const sentPerPortVc = new Map<string, number[]>();
      let nextId = 0;
      const send = (): boolean => {
        const eligible = staged.filter((s) => !l.rx.isBlocked(RX_PORT, s.queue, s.vc));
        const t = l.opportunity();
        if (eligible.length === 0) {
          assert.equal(t, undefined, '§4.3 b: nothing eligible, nothing committed');
          return false;
        }
        assert.ok(t !== undefined);
        const id = t.packetId as number;
        // §4.3 c "still subject to existing RapidIO ordering rules": the oldest eligible packet.
        assert.equal(id, Math.min(...eligible.map((s) => s.id)));
        // §4.3 b / e: no port of the packet's queue (in its VC) is held congested.
        const held = l.rx.congestedPorts(RX_PORT, t.vc);
        assert.ok(!held.includes(t.downstreamPort), '§4.3 b');
        assert.ok(!held.some((p) => p % queues === t.queue), '§4.3 e');
        const key = `${t.downstreamPort}/${t.vc}`;
        const list = sentPerPortVc.get(key) ?? [];
        list.push(id);
        sentPerPortVc.set(key, list);
        staged.splice(staged.findIndex((s) => s.id === id), 1);
        return true;
      };
      for (const s of steps) {
        const port = s.port % l.ports;
        const vc = vcs[s.vc % vcs.length] as number;
        if (s.op === 'congest') l.congest(port, vc);
        else if (s.op === 'clear') l.clear(port, vc);
        else if (s.op === 'stage') {
          l.stage(port, nextId, vc);
          staged.push({ id: nextId++, port, vc, queue: port % queues });
        } else if (s.op === 'send') send();
        else l.flush(s.max);
      }
      for (let p = 0; p < l.ports; p++) for (const vc of vcs) l.clear(p, vc);
      l.flush();
      while (send());
      assert.equal(staged.length, 0, 'every packet goes once congestion clears');
      assert.equal(l.transmitted.length, nextId, 'each exactly once');
      // §4.3 d: "re-introduced to the data stream with the same ordering requirements".
      for (const [key, ids] of sentPerPortVc) assert.deepEqual(ids, [...ids].sort((a, b) => a - b), key);
    }),
    fcParams(2000),
  );
});
