import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFabric, sessionFabric, toDst } from '../../../test/support/sim-session.ts';
import type { SessionFabric } from '../../../test/support/sim-session.ts';

/** 200 µs: discovery's reads go out within the first few µs on these 1 Gbit/s links. */
const RUN = 200_000_000;

/**
 * Two end points whose discovery reads their destination with hop_count 0 (Part 3 §2.5: the
 * access is for the switch), so every read is one the switch performs; `budget` its settings.
 */
function fabric(budget?: { burst: number; interval: number }): SessionFabric {
  const session = { hop: 0 };
  return sessionFabric([{ traffic: [toDst(1)], session }, { traffic: [toDst(0)], session }], 1, 0, undefined, budget === undefined ? {} : { maintenanceBudget: budget });
}

test('issue 16 item 3 (decision SW9): a simulated switch applies maintenanceBudget: requests for it beyond a port\'s budget are dropped and counted; without one, none is', () => {
  const free = fabric();
  runFabric(free, RUN);
  const all = free.sw.core.counters();
  assert.ok(all.maintenanceReads >= 4, `${all.maintenanceReads} reads answered by the switch`);
  assert.equal(all.maintenanceDropped, 0);
  assert.equal(free.sw.snapshot()['maintenanceBudget'], null);

  // Two at once per port, then one per 100 µs (ps): the discovery reads of one instant exceed it.
  const f = fabric({ burst: 2, interval: 100_000_000 });
  runFabric(f, RUN);
  const c = f.sw.core.counters();
  assert.ok(c.maintenanceDropped > 0, 'requests beyond the budget were dropped');
  const budget = f.sw.snapshot().maintenanceBudget;
  assert.ok(budget !== null);
  assert.deepEqual([budget.dropped.length, budget.dropped.reduce((a, b) => a + b, 0)], [2, c.maintenanceDropped]);
  // Per port: at most the burst and one per interval in the 200 µs run.
  assert.ok(c.maintenanceReads <= 2 * (2 + 2), `${c.maintenanceReads} reads answered`);
});
