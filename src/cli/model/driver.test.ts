import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from './adapter.ts';
import type { EngineOutput, ModelInstance } from './adapter.ts';
import { ModelDriver, TraceError } from './driver.ts';

/**
 * A stand-in engine: `{"kind":"arm","name","at"}` asks for a timer (at null cancels),
 * `{"kind":"poke"}` answers `poked`; an expiry answers `fired` and, for names in `rearm`, asks for
 * the same timer again `rearm` ns later (a timer loop when 0).
 */
function fakeEngine(rearm: Record<string, number> = {}): { instance: ModelInstance; calls: string[] } {
  const calls: string[] = [];
  const instance: ModelInstance = {
    parse(line) {
      if (line['kind'] === 'arm') {
        const { name, at } = line as { name: string; at: number | null };
        return (now) => {
          calls.push(`arm ${name} ${at} @${now}`);
          return [{ kind: 'timer', name, at } as EngineOutput];
        };
      }
      if (line['kind'] === 'poke') {
        return (now) => {
          calls.push(`poke @${now}`);
          return [{ kind: 'poked' }];
        };
      }
      if (line['kind'] === 'throw') return () => { throw new Error('boom'); };
      if (line['kind'] === 'unprintable') return () => [{ kind: 'unprintable' }, { kind: 'poked' }];
      throw new InputError('expected one of arm, poke, throw, query', 'kind');
    },
    fire(name, now) {
      calls.push(`fire ${name} @${now}`);
      const again = rearm[name];
      return again === undefined ? [{ kind: 'fired' }] : [{ kind: 'fired' }, { kind: 'timer', name, at: now + again } as EngineOutput];
    },
    render: (o) => {
      if (o.kind === 'unprintable') throw new Error('no JSON for it');
      return { ...o };
    },
    counters: () => ({ calls: calls.length }),
    snapshot: () => ({ calls: [...calls] }),
  };
  return { instance, calls };
}

function run(lines: readonly string[], opts: { rearm?: Record<string, number>; until?: number; maxExpiries?: number } = {}) {
  const { instance, calls } = fakeEngine(opts.rearm);
  const out: Record<string, unknown>[] = [];
  const err: string[] = [];
  const driver = new ModelDriver(instance, 'fake', { schema: 'riodp-model/1', engine: 'fake' }, { out: (l) => out.push({ ...l }), err: (m) => err.push(m) },
    opts.maxExpiries === undefined ? {} : { maxExpiries: opts.maxExpiries });
  lines.forEach((l, i) => {
    driver.line(l, i + 1);
  });
  driver.finish(opts.until);
  return { out, err, calls, driver };
}

const j = (v: unknown): string => JSON.stringify(v);

test('contract.ts timers: due timers fire in order of (at, arming sequence) before the next input', () => {
  const r = run([
    j({ t: 0, kind: 'arm', name: 'b', at: 50 }),
    j({ t: 0, kind: 'arm', name: 'a', at: 30 }),
    j({ t: 0, kind: 'arm', name: 'c', at: 50 }),
    j({ t: 100, kind: 'poke' }),
  ]);
  assert.deepEqual(r.calls, ['arm b 50 @0', 'arm a 30 @0', 'arm c 50 @0', 'fire a @30', 'fire b @50', 'fire c @50', 'poke @100']);
  assert.deepEqual(r.out.filter((o) => o['kind'] === 'expired'), [
    { t: 30, kind: 'expired', name: 'a' },
    { t: 50, kind: 'expired', name: 'b' },
    { t: 50, kind: 'expired', name: 'c' },
  ]);
});

test('docs/model.md Time: a timer due exactly at t fires before the input at t', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'x', at: 10 }), j({ t: 10, kind: 'poke' })]);
  assert.deepEqual(r.calls, ['arm x 10 @0', 'fire x @10', 'poke @10']);
  assert.deepEqual(r.out.slice(2).map((o) => o['kind']), ['expired', 'fired', 'poked', 'end']);
});

test('contract.ts timers: a new request replaces the pending expiry; at null cancels it', () => {
  const r = run([
    j({ t: 0, kind: 'arm', name: 'x', at: 10 }),
    j({ t: 1, kind: 'arm', name: 'x', at: 20 }),
    j({ t: 2, kind: 'arm', name: 'y', at: 5 }),
    j({ t: 3, kind: 'arm', name: 'y', at: null }),
    j({ t: 30 }),
  ]);
  assert.deepEqual(r.calls.filter((c) => c.startsWith('fire')), ['fire x @20']);
  assert.deepEqual(r.out.at(-1), { t: 30, kind: 'end', pending: [], counters: { calls: 5 } });
});

test('docs/model.md Time: after the last input nothing fires; the end line lists the pending timers', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'late', at: 900 }), j({ t: 0, kind: 'arm', name: 'early', at: 100 })]);
  assert.equal(r.calls.some((c) => c.startsWith('fire')), false);
  assert.deepEqual(r.out.at(-1), { t: 0, kind: 'end', pending: [{ name: 'early', at: 100 }, { name: 'late', at: 900 }], counters: { calls: 2 } });
});

test('docs/model.md --until: timers due up to T fire after the last input; the end line is at T', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'a', at: 100 }), j({ t: 0, kind: 'arm', name: 'b', at: 900 })], { until: 500 });
  assert.deepEqual(r.calls.filter((c) => c.startsWith('fire')), ['fire a @100']);
  assert.deepEqual(r.out.at(-1), { t: 500, kind: 'end', pending: [{ name: 'b', at: 900 }], counters: { calls: 3 } });
});

test('docs/model.md --until: a T before the last input time fires nothing and leaves the clock', () => {
  const r = run([j({ t: 50, kind: 'arm', name: 'a', at: 100 })], { until: 10 });
  assert.deepEqual(r.out.at(-1), { t: 50, kind: 'end', pending: [{ name: 'a', at: 100 }], counters: { calls: 1 } });
});

test('docs/model.md Time: a timer asked for in the past fires at the current time, never earlier', () => {
  const r = run([j({ t: 40, kind: 'arm', name: 'p', at: 10 }), j({ t: 60, kind: 'poke' })]);
  assert.deepEqual(r.calls, ['arm p 10 @40', 'fire p @40', 'poke @60']);
  assert.deepEqual(r.out[2], { t: 40, kind: 'expired', name: 'p' });
});

test('docs/model.md Time: a decreasing time is a bad line; it is reported and the run goes on', () => {
  const r = run([j({ t: 100, kind: 'poke' }), j({ t: 99, kind: 'poke' }), j({ t: 100, kind: 'poke' })]);
  assert.deepEqual(r.calls, ['poke @100', 'poke @100']);
  assert.deepEqual(r.err, ['line 2: time 99 is before the current time 100: time must not decrease (t)']);
  assert.deepEqual(r.out[2], { t: 100, kind: 'error', line: 2, lineT: 99, message: 'time 99 is before the current time 100: time must not decrease (t)' });
  assert.equal(r.driver.bad, 1);
});

test('docs/model.md errors: a bad line does not advance time, so no timer fires for it', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'x', at: 10 }), j({ t: 20, kind: 'nope' })]);
  assert.equal(r.calls.some((c) => c.startsWith('fire')), false);
  assert.deepEqual(r.out.at(-1), { t: 0, kind: 'end', pending: [{ name: 'x', at: 10 }], counters: { calls: 1 } });
  assert.deepEqual(r.err, ['line 2: expected one of arm, poke, throw, query (kind)']);
});

test('docs/model.md Bad lines: an error line carries lineT, the time of the input line that caused it, beside t, the current time (a bad line does not advance it)', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'x', at: 10 }), j({ t: 20, kind: 'nope' }), '{', j({ t: 1.5 }), j({ t: 30, kind: 'throw' })]);
  const errors = r.out.filter((o) => o['kind'] === 'error').map((o) => [o['t'], o['line'], o['lineT']]);
  // Line 2's kind is bad at t 20 (the clock stays at 0); lines 3 and 4 give no time; line 5 fails at 30 after x fired at 10.
  assert.deepEqual(errors, [[0, 2, 20], [0, 3, undefined], [0, 4, undefined], [30, 5, 30]]);
  const loop = run([j({ t: 0, kind: 'arm', name: 'loop', at: 0 }), j({ t: 7, kind: 'poke' })], { rearm: { loop: 0 }, maxExpiries: 2 });
  assert.deepEqual(loop.out.filter((o) => o['kind'] === 'error').map((o) => [o['t'], o['line'], o['lineT']]), [[0, 2, 7]]);
});

test('docs/model.md timer loop guard: the expiry cap stops the run with an error line (exit 1)', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'loop', at: 0 }), j({ t: 1, kind: 'poke' }), j({ t: 2, kind: 'poke' })], { rearm: { loop: 0 }, maxExpiries: 5 });
  assert.equal(r.calls.filter((c) => c.startsWith('fire')).length, 5);
  assert.equal(r.calls.includes('poke @1'), false);
  assert.equal(r.driver.stopped, true);
  assert.equal(r.driver.bad, 1);
  assert.deepEqual(r.err, ['line 2: more than 5 timer expiries: stopped (a timer that keeps re-arming itself?)']);
  assert.deepEqual(r.out.at(-1), { t: 0, kind: 'end', pending: [{ name: 'loop', at: 0 }], counters: { calls: 6 } });
});

test('docs/model.md timer loop guard: the cap also holds while --until fires timers', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'tick', at: 1 })], { rearm: { tick: 1 }, maxExpiries: 3, until: 1000 });
  assert.deepEqual(r.calls.filter((c) => c.startsWith('fire')), ['fire tick @1', 'fire tick @2', 'fire tick @3']);
  assert.deepEqual(r.err, ['--until: more than 3 timer expiries: stopped (a timer that keeps re-arming itself?)']);
  assert.equal(r.out.find((o) => o['kind'] === 'error')?.['line'], undefined);
});

test('docs/model.md query: fires the timers due, then prints the snapshot and the counters', () => {
  const r = run([j({ t: 0, kind: 'arm', name: 'x', at: 5 }), j({ t: 5, kind: 'query' })]);
  assert.deepEqual(r.out[4], { t: 5, kind: 'state', state: { calls: ['arm x 5 @0', 'fire x @5'] }, counters: { calls: 2 } });
});

test('docs/model.md input lines: blank and # lines are skipped; {"t"} alone only advances time', () => {
  const r = run(['', '   ', '# a comment', j({ t: 7 })]);
  assert.deepEqual(r.out, [{ schema: 'riodp-model/1', engine: 'fake' }, { t: 7, kind: 'end', pending: [], counters: { calls: 0 } }]);
  assert.deepEqual(r.err, []);
});

test('docs/model.md input lines: non-JSON, non-objects, bad t, unknown fields and timer inputs are bad lines', () => {
  const r = run(['{', '[1]', j({ kind: 'poke' }), j({ t: -1 }), j({ t: 1.5 }), j({ t: 1, extra: 2 }), j({ t: 1, kind: 'query', x: 1 }), j({ t: 1, kind: 'timer', name: 'x' }), j({ t: 1, kind: 3 })]);
  assert.equal(r.driver.bad, 9);
  assert.deepEqual(r.err.map((e) => e.replace(/: not JSON: .*/, ': not JSON')), [
    'line 1: not JSON',
    'line 2: expected a JSON object {"t": ..., "kind": ...}',
    'line 3: missing, expected the time in nanoseconds, a non-negative integer (t)',
    'line 4: expected the time in nanoseconds, a non-negative integer (t)',
    'line 5: expected the time in nanoseconds, a non-negative integer (t)',
    'line 6: unknown field (a line without kind only advances time) (extra)',
    'line 7: unknown field (x)',
    'line 8: timers are fired by the driver, not given as input (kind)',
    'line 9: expected a string (kind)',
  ]);
});

test('docs/model.md output lines: the header is the first line even when the first input line is bad', () => {
  const r = run(['not json', j({ t: 1 })]);
  assert.deepEqual(r.out.map((o) => o['kind'] ?? 'header'), ['header', 'error', 'end']);
});

test('docs/model.md errors: an engine that throws is reported as a bad line, never a crash', () => {
  const r = run([j({ t: 3, kind: 'throw' }), j({ t: 4, kind: 'poke' })]);
  assert.deepEqual(r.err, ['line 1: engine error: boom']);
  assert.deepEqual(r.calls, ['poke @4']);
});

test('docs/model.md errors: an output that cannot be printed is an error line; the outputs after it still print', () => {
  const r = run([j({ t: 3, kind: 'unprintable' })]);
  assert.deepEqual(r.err, ['line 1: cannot print the unprintable output: no JSON for it']);
  assert.deepEqual(r.out.slice(1, -1), [{ t: 3, kind: 'error', line: 1, lineT: 3, message: 'cannot print the unprintable output: no JSON for it' }, { t: 3, kind: 'poked' }]);
});

test('docs/model.md schema: the first line may name riodp-model/1 (or 1.x); other fields are ignored; the header is printed once', () => {
  const r = run([j({ schema: 'riodp-model/1.3', engine: 'fake', producer: 'tb v2' }), j({ t: 1, kind: 'poke' })]);
  assert.deepEqual(r.out[0], { schema: 'riodp-model/1', engine: 'fake' });
  assert.equal(r.out.filter((o) => 'schema' in o).length, 1);
  assert.equal(r.driver.bad, 0);
});

test('docs/model.md schema: another major version, a bad name or another engine refuses the trace (TraceError)', () => {
  for (const [line, message] of [
    [{ schema: 'riodp-model/2' }, /schema riodp-model\/2 is not supported: this riodp reads riodp-model\/1/],
    [{ schema: 'something' }, /is not riodp-model\/<major>/],
    [{ schema: 'riodp-model/1', engine: 'arb-rx' }, /the trace is for engine "arb-rx", not fake/],
  ] as const) {
    const { instance } = fakeEngine();
    const out: unknown[] = [];
    const driver = new ModelDriver(instance, 'fake', { schema: 'riodp-model/1' }, { out: (l) => out.push(l), err: () => undefined });
    assert.throws(() => { driver.line(j(line), 1); }, (e: unknown) => e instanceof TraceError && message.test(e.message));
    assert.deepEqual(out, [], 'nothing on stdout before the schema is accepted');
  }
});

test('docs/model.md schema: a schema line after the first line is a bad line', () => {
  const r = run([j({ t: 1 }), j({ schema: 'riodp-model/1' })]);
  assert.deepEqual(r.err, ['line 2: a schema line may only be the first line (schema)']);
});

test('issue 18 item 3 (riodp serve): input() takes a parsed line, throws the InputError of a bad one and changes nothing; state() and pending() fire nothing', () => {
  const { instance, calls } = fakeEngine();
  const out: Record<string, unknown>[] = [];
  const err: string[] = [];
  const driver = new ModelDriver(instance, 'fake', { schema: 'riodp-model/1', engine: 'fake' }, { out: (l) => out.push({ ...l }), err: (m) => err.push(m) });
  driver.start();
  assert.deepEqual(out.splice(0), [{ schema: 'riodp-model/1', engine: 'fake' }]);
  driver.input({ t: 10, kind: 'arm', name: 'x', at: 20 });
  assert.deepEqual(out.splice(0), [{ t: 10, kind: 'timer', name: 'x', at: 20 }]);
  for (const [line, message] of [
    [{ t: 5, kind: 'poke' }, /^time 5 is before the current time 10/],
    [{ t: 30, kind: 'fly' }, /^expected one of arm, poke, throw, query$/],
    [{ kind: 'poke' }, /^missing, expected the time/],
  ] as const) {
    assert.throws(() => { driver.input(line); }, (e: unknown) => e instanceof InputError && message.test(e.message));
  }
  // Nothing fired, no line printed, no error reported: the bad lines changed nothing.
  assert.deepEqual([out, err, driver.now], [[], [], 10]);
  assert.deepEqual(driver.state(), { t: 10, kind: 'state', state: { calls: ['arm x 20 @10'] }, counters: { calls: 1 } });
  assert.deepEqual(driver.pending(), [{ name: 'x', at: 20 }]);
  driver.input({ t: 25 });
  assert.deepEqual(calls, ['arm x 20 @10', 'fire x @20']);
  assert.deepEqual(out.map((o) => o['kind']), ['expired', 'fired']);
});
