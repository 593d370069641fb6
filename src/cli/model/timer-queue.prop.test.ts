import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { TimerQueue } from './timer-queue.ts';

type Op = { readonly op: 'set'; readonly name: string; readonly at: number | null } | { readonly op: 'pop'; readonly t: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), name: fc.constantFrom('a', 'b', 'c', 'd'), at: fc.option(fc.nat(50), { nil: null }) }),
  fc.record({ op: fc.constant('pop' as const), t: fc.nat(60) }),
);

test('contract.ts: the timer queue fires what a list model fires: one pending expiry per name, by (at, arming order)', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const q = new TimerQueue();
      // The reference: a list in arming order, one entry per name.
      let model: { name: string; at: number; seq: number }[] = [];
      let seq = 0;
      for (const o of ops) {
        if (o.op === 'set') {
          model = model.filter((m) => m.name !== o.name);
          if (o.at !== null) model.push({ name: o.name, at: o.at, seq: seq++ });
          q.set(o.name, o.at);
        } else {
          const due = model.filter((m) => m.at <= o.t).sort((x, y) => x.at - y.at || x.seq - y.seq);
          model = model.filter((m) => m.at > o.t);
          const got: string[] = [];
          for (let d = q.popDue(o.t); d !== undefined; d = q.popDue(o.t)) got.push(`${d.name}@${d.at}`);
          assert.deepEqual(got, due.map((m) => `${m.name}@${m.at}`));
        }
      }
      assert.deepEqual(q.pending().map((p) => `${p.name}@${p.at}`), [...model].sort((x, y) => x.at - y.at || x.seq - y.seq).map((m) => `${m.name}@${m.at}`));
    }),
    fcParams(20_000),
  );
});
