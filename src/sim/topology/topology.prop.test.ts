import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { buildTopology } from './index.ts';
import type { TopologySpec } from './index.ts';
import { unreachable } from './walk.ts';

const spec: fc.Arbitrary<TopologySpec> = fc.oneof(
  fc.record({ kind: fc.constant('switch' as const), hosts: fc.integer({ min: 2, max: 12 }) }),
  fc.record({ kind: fc.constant('leaf-spine' as const), leaves: fc.integer({ min: 1, max: 5 }), spines: fc.integer({ min: 1, max: 4 }), hostsPerLeaf: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ kind: fc.constant('butterfly' as const), k: fc.integer({ min: 2, max: 3 }), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('ring' as const), switches: fc.integer({ min: 2, max: 7 }), hostsPerSwitch: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('mesh' as const), width: fc.integer({ min: 1, max: 4 }), height: fc.integer({ min: 1, max: 4 }), hostsPerSwitch: fc.integer({ min: 1, max: 2 }) }).filter((m) => m.width * m.height * m.hostsPerSwitch >= 2),
);

test('issue 7 §2 topologies: in every topology every host reaches every other host without a loop, and every next-hop port is the next switch\'s egress (VoQ Backpressure §2.2)', () => {
  fc.assert(
    fc.property(spec, (s) => {
      const f = buildTopology(s);
      assert.equal(unreachable(f), null);
      f.routes.forEach((table, sw) => {
        assert.equal(table.size, f.hosts.length);
        for (const [dst, r] of table) {
          const peer = f.peers[sw]?.[r.port];
          assert.ok(peer !== undefined);
          assert.equal(r.next, peer.kind === 'host' ? 0 : f.routes[peer.switch]?.get(dst)?.port);
          if (peer.kind === 'host') assert.equal(peer.id, dst);
        }
      });
    }),
    fcParams(300),
  );
});
