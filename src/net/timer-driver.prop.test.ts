import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { ManualTime } from './manual-time.ts';
import { TimerDriver } from './timer-driver.ts';

/** Each run is a sequence of up to 60 operations: a tenth of the full count keeps the file within its time budget. */
const RUNS = Math.ceil(FC_RUNS / 10);

type Op =
  | { readonly op: 'arm'; readonly key: number; readonly name: number; readonly delay: number }
  | { readonly op: 'cancel'; readonly key: number; readonly name: number }
  | { readonly op: 'cancelAll'; readonly key: number }
  | { readonly op: 'advance'; readonly by: number }
  | { readonly op: 'late'; readonly by: number };

const ops = fc.array(
  fc.oneof(
    { arbitrary: fc.record({ op: fc.constant('arm' as const), key: fc.nat(3), name: fc.nat(2), delay: fc.integer({ min: -50, max: 400 }) }), weight: 5 },
    { arbitrary: fc.record({ op: fc.constant('cancel' as const), key: fc.nat(3), name: fc.nat(2) }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('cancelAll' as const), key: fc.nat(3) }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('advance' as const), by: fc.nat(300) }), weight: 3 },
    { arbitrary: fc.record({ op: fc.constant('late' as const), by: fc.nat(300) }), weight: 1 },
  ),
  { maxLength: 60 },
) as fc.Arbitrary<Op[]>;

interface Armed {
  readonly at: number;
  readonly seq: number;
}

test('engine contract, issue 8 §1: against a model, every timer expires exactly once, not before its time, in (at, request) order, after its last request, with one host timer', () => {
  fc.assert(
    fc.property(ops, (list) => {
      const time = new ManualTime();
      const model = new Map<string, Armed>();
      let seq = 0;
      let last: Armed | undefined;
      let lastNow = 0;
      let batch = 0;
      let lastBatch = -1;
      // Order is promised within one host callback; a timer re-armed for a past time waits for the next.
      const host = {
        set: (cb: () => void, delay: number) =>
          time.set(() => {
            batch++;
            cb();
          }, delay),
        clear: (t: ReturnType<ManualTime['set']>) => {
          time.clear(t);
        },
      };
      const driver = new TimerDriver<number>(
        (key, input, now) => {
          const id = `${key}.${input.name}`;
          const armed = model.get(id);
          assert.ok(armed !== undefined, `${id} expired without being armed`);
          assert.ok(armed.at <= now, `${id} expired at ${now}, armed for ${armed.at}`);
          assert.ok(now >= lastNow);
          if (last !== undefined && batch === lastBatch) assert.ok(last.at < armed.at || (last.at === armed.at && last.seq < armed.seq), 'out of order');
          // Nothing that was due earlier is still waiting.
          for (const [other, a] of model) if (other !== id) assert.ok(a.at > armed.at || (a.at === armed.at && a.seq > armed.seq) || a.at > now, `${other} skipped`);
          model.delete(id);
          last = armed;
          lastNow = now;
          lastBatch = batch;
        },
        { clock: time, host },
      );
      for (const o of list) {
        switch (o.op) {
          case 'arm': {
            const at = Math.max(0, time.now() + o.delay);
            model.set(`${o.key}.${o.name}`, { at, seq: seq++ });
            driver.apply(o.key, { kind: 'timer', name: String(o.name), at });
            break;
          }
          case 'cancel':
            model.delete(`${o.key}.${o.name}`);
            driver.apply(o.key, { kind: 'timer', name: String(o.name), at: null });
            break;
          case 'cancelAll':
            for (const id of [...model.keys()]) if (id.startsWith(`${o.key}.`)) model.delete(id);
            driver.cancelAll(o.key);
            break;
          case 'advance':
            time.advance(o.by);
            for (const [id, a] of model) assert.ok(a.at > time.now(), `${id} due at ${a.at} still armed at ${time.now()}`);
            break;
          case 'late':
            time.skip(o.by);
            break;
        }
        assert.ok(time.pending <= 1, `${time.pending} host timers`);
        assert.equal(time.pending, model.size === 0 ? 0 : 1);
        const expected = [...model].sort((a, b) => a[1].at - b[1].at || a[1].seq - b[1].seq).map(([id, a]) => `${id}@${a.at}`);
        assert.deepEqual(driver.pending().map((p) => `${p.key}.${p.name}@${p.at}`), expected);
      }
      time.advance(10_000);
      assert.equal(model.size, 0);
    }),
    fcParams(RUNS),
  );
});
