import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { CcpEndpoint } from './ccp-endpoint.ts';
import type { CcpEndpointConfig, CcpEndpointInput, CcpEndpointOutput, CounterMapping } from './ccp-endpoint-types.ts';
import { flowsAtOrAbove } from './flows.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { makeCcp } from '../wire/type7.ts';

const DESTS = [0, 1, 0xab] as const;

interface Step {
  readonly dt: number;
  readonly action: 'xoff' | 'xon' | 'reset';
  readonly dest: number;
  readonly flow: FlowIdLabel;
  /** An XON dropped in the fabric (§2.4.2 "XOFF and XON CCPs may be dropped"). */
  readonly lost: boolean;
}

const arbStep: fc.Arbitrary<Step> = fc.record({
  dt: fc.integer({ min: 0, max: 300 }),
  action: fc.oneof({ weight: 10, arbitrary: fc.constantFrom('xoff' as const, 'xon' as const) }, { weight: 1, arbitrary: fc.constant('reset' as const) }),
  dest: fc.constantFrom(...DESTS),
  // Few flows, so that XOFFs and XONs meet on the same counters.
  flow: fc.constantFrom<FlowIdLabel>('0A', '0C', '0F', '1A', '2A'),
  lost: fc.boolean(),
});

const arbMapping: fc.Arbitrary<CounterMapping> = fc.oneof(
  fc.constant({ mode: 'per-flow' as const }),
  fc.integer({ min: 1, max: 30 }).map((count) => ({ mode: 'bounded' as const, count })),
);

const arbConfig: fc.Arbitrary<CcpEndpointConfig> = fc.record({
  orphanPeriod: fc.integer({ min: 1, max: 400 }),
  counterBits: fc.integer({ min: 1, max: 4 }),
  counters: arbMapping,
  critical: fc.subarray([{ flowID: '0A' as const }, { destinationID: 1, flowID: '0C' as const }], { maxLength: 1 }),
});

/** A driver that honours the timer: it delivers 'orphan' at its deadline before any later input. */
class Driver {
  now = 0;
  lastFire = 0;
  timer: number | null = null;
  /** Permissions as the `flow` outputs reported them (unreported = enabled). */
  readonly view = new Map<string, boolean>();
  /** Destinations the engine has heard of (bounded mode reports only those). */
  readonly named = new Set<number>();
  readonly e: CcpEndpoint;

  constructor(readonly config: CcpEndpointConfig) {
    this.e = new CcpEndpoint(config);
  }

  deliver(input: CcpEndpointInput, at: number): void {
    this.apply(this.e.handle(input, at));
    this.check();
  }

  runTimersUntil(t: number): void {
    while (this.timer !== null && this.timer <= t) {
      // A delivered expiry is consumed: the engine asks again if it wants another.
      const at = this.timer;
      this.timer = null;
      this.lastFire = at;
      this.deliver({ kind: 'timer', name: 'orphan' }, at);
    }
  }

  apply(out: readonly CcpEndpointOutput[]): void {
    for (const o of out) {
      if (o.kind === 'timer') this.timer = o.at;
      else if (o.kind === 'flow') {
        const key = `${o.destinationID}/${o.flowID}`;
        assert.notEqual(this.view.get(key) ?? true, o.enabled, `a flow output reports a change: ${key}`);
        this.view.set(key, o.enabled);
      }
    }
  }

  critical(dest: number, flow: FlowIdLabel): boolean {
    return (this.config.critical ?? []).some((c) => c.flowID === flow && (c.destinationID === undefined || c.destinationID === dest));
  }

  check(): void {
    const e = this.e;
    let anyNonZero = false;
    for (const d of DESTS) {
      for (const f of FLOW_ID_LABELS) {
        const v = e.counterValue(d, f);
        assert.ok(v >= 0 && v <= e.counterMax, `counter ${d}/${f} = ${v} within 0..${e.counterMax}`);
        if (v !== 0) anyNonZero = true;
        const rule = this.critical(d, f) || flowsAtOrAbove(f).every((g) => e.counterValue(d, g) === 0);
        assert.equal(e.canSend(d, f), rule, `canSend(${d}, ${f}) is the >= F rule`);
        if (this.config.counters?.mode !== 'bounded' || this.named.has(d)) {
          assert.equal(this.view.get(`${d}/${f}`) ?? true, rule, `flow outputs track ${d}/${f}`);
        }
      }
    }
    assert.equal(this.timer !== null, anyNonZero, 'the orphan timer is armed iff some counter is non-zero');
    assert.equal(e.orphanDeadline() ?? null, this.timer);
    assert.equal(e.orphanQueue().length, e.snapshot().counters.length, 'one FIFO entry per non-zero counter');
  }
}

function input(s: Step): CcpEndpointInput {
  if (s.action === 'reset') return { kind: 'reset-destination', destinationID: s.dest };
  const command = s.action === 'xoff' ? 'XOFF' : 'XON';
  return { kind: 'ccp', packet: makeCcp({ destinationID: 0x55, tgtdestinationID: s.dest, tt: 0, command, flowID: s.flow, soc: 0 }) };
}

test('Part 9 §2.4.2.1, §2.4.2.3, §2.4.5, Annex A.2: with XONs lost at random, counters stay in range, canSend is the >= F rule, the timer runs iff a counter is non-zero, and every flow restarts within (non-zero counters) × orphanPeriod', () => {
  fc.assert(
    fc.property(arbConfig, fc.array(arbStep, { maxLength: 60 }), (config, steps) => {
      const drv = new Driver(config);
      for (const s of steps) {
        drv.now += s.dt;
        drv.runTimersUntil(drv.now);
        if (s.action === 'xon' && s.lost) continue;
        if (!(s.action === 'xoff' && drv.critical(s.dest, s.flow))) drv.named.add(s.dest);
        drv.deliver(input(s), drv.now);
      }
      const stopped = drv.e.orphanQueue().length;
      const bound = drv.now + stopped * (config.orphanPeriod ?? 0);
      drv.lastFire = drv.now;
      drv.runTimersUntil(Number.MAX_SAFE_INTEGER);
      assert.ok(drv.lastFire <= bound, `last restart at ${drv.lastFire}, bound ${bound}`);
      for (const d of DESTS) for (const f of FLOW_ID_LABELS) assert.equal(drv.e.canSend(d, f), true, `no flow stays stopped forever: ${d}/${f}`);
      assert.equal(drv.timer, null);
    }),
    fcParams(10_000),
  );
});
