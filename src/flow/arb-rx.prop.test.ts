import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { RX, rel, req, seg } from '../../test/support/arb-rx.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { makeCcp, type7Command } from '../wire/type7.ts';
import { ArbRx } from './arb-rx.ts';
import type { ArbRxInput, ArbRxOutput, GrantPolicy } from './arbitration-types.ts';
import { fifoPolicy, reserveForSingle, singleBeforeMulti } from './grant-policy.ts';

const SOURCES = [1, 2] as const;
const FLOWS: readonly FlowIdLabel[] = ['0A', '0B'];
const POLICIES: readonly GrantPolicy[] = [fifoPolicy, singleBeforeMulti, reserveForSingle(1)];

const src = fc.constantFrom(...SOURCES);
const flow = fc.constantFrom(...FLOWS);
const seq = fc.integer({ min: 0, max: 1 });

type Step =
  | { readonly k: 'input'; readonly input: ArbRxInput; readonly request?: string }
  | { readonly k: 'tick'; readonly dt: number }
  | { readonly k: 'stray'; readonly name: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ src, flow, mode: fc.constantFrom('single', 'multi'), seq }).map(({ src: s, flow: f, mode, seq: y }): Step => ({
    k: 'input', input: req(s, f, mode, y), request: `${s}/${f}/${y}`,
  })),
  fc.record({ src, flow, seq }).map(({ src: s, flow: f, seq: y }): Step => ({ k: 'input', input: rel(s, f, y) })),
  fc.record({ src, flow, segment: fc.constantFrom('single', 'start', 'continuation', 'end', 'abort') }).map(({ src: s, flow: f, segment }): Step => ({
    k: 'input', input: seg(s, f, segment),
  })),
  fc.record({ src, flow }).map(({ src: s, flow: f }): Step => ({ k: 'input', input: { kind: 'reclaim', sourceID: s, flowID: f } })),
  fc.record({ src, flow, xonXoff: fc.integer({ min: 0, max: 1 }), fam: fc.integer({ min: 0, max: 7 }) }).map(({ src: s, flow: f, xonXoff, fam }): Step => {
    // Any XON/XOFF and FAM, Table 3-2 defined or not; the REQUESTs among them are tracked as such.
    const packet = { ...makeCcp({ destinationID: RX, tgtdestinationID: s, tt: 0, command: 'XON', flowID: f, soc: 1 }), xonXoff, fam };
    const { command, seq: y } = type7Command(xonXoff, fam);
    const isRequest = command === 'REQUEST_SINGLE_PDU' || command === 'REQUEST_MULTI_PDU';
    return isRequest ? { k: 'input', input: { kind: 'ccp', packet }, request: `${s}/${f}/${y ?? -1}` } : { k: 'input', input: { kind: 'ccp', packet } };
  }),
  fc.integer({ min: 1, max: 300 }).map((dt): Step => ({ k: 'tick', dt })),
  fc.record({ src, flow }).map(({ src: s, flow: f }): Step => ({ k: 'stray', name: `idle:${s}/${f}` })),
);

const config = fc.record({
  resources: fc.integer({ min: 0, max: 3 }),
  whenBusy: fc.constantFrom('queue', 'reject'),
  maxQueued: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  idleTimeout: fc.constantFrom(null, 50, 200),
  policy: fc.integer({ min: 0, max: POLICIES.length - 1 }),
});

/**
 * A driver for one ArbRx that keeps the timers it is asked for and checks every output against a
 * model of the allocations and of the unanswered REQUESTs.
 */
class Harness {
  readonly allocated = new Set<string>();
  /** (source/flow/Y) of REQUESTs not answered yet. */
  readonly unanswered = new Set<string>();
  readonly requestedEver = new Set<string>();
  readonly timers = new Map<string, number>();
  now = 0;

  constructor(readonly rx: ArbRx, readonly resources: number) {}

  run(input: ArbRxInput, at: number, request?: string): void {
    if (request !== undefined) {
      this.unanswered.add(request);
      this.requestedEver.add(request);
    }
    this.check(this.rx.handle(input, at));
  }

  tick(dt: number): void {
    const end = this.now + dt;
    for (;;) {
      const due = [...this.timers].filter(([, at]) => at <= end).sort((a, b) => a[1] - b[1])[0];
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.now = due[1];
      this.run({ kind: 'timer', name: due[0] }, due[1]);
    }
    this.now = end;
  }

  check(out: readonly ArbRxOutput[]): void {
    out.forEach((o, i) => {
      if (o.kind === 'timer') {
        if (o.at === null) this.timers.delete(o.name);
        else this.timers.set(o.name, o.at);
      } else if (o.kind === 'send') {
        const p = o.packet;
        assert.ok(p.command === 'XON_ARB' || p.command === 'XOFF_ARB', 'only XON(ARB) and XOFF(ARB) are sent');
        assert.equal(p.tgtdestinationID, RX);
        assert.equal(p.soc, 1);
        const key = `${p.destinationID}/${p.flowID}/${p.seq ?? -1}`;
        assert.ok(this.requestedEver.has(key), `a response names a REQUEST that was made: ${key}`);
        this.unanswered.delete(key);
      } else if (o.kind === 'allocated') {
        const key = `${o.sourceID}/${o.flowID}`;
        assert.ok(!this.allocated.has(key), `rule 10: never two allocations for ${key}`);
        this.allocated.add(key);
        assert.ok(this.allocated.size <= this.resources, 'allocations never exceed the pool');
        const prev = out[i - 1];
        assert.ok(prev?.kind === 'send' && prev.packet.command === 'XON_ARB' && prev.packet.destinationID === o.sourceID
          && prev.packet.flowID === o.flowID && prev.packet.seq === o.seq, 'every allocation is announced by its XON(ARB)');
      } else if (o.kind === 'freed') {
        const key = `${o.sourceID}/${o.flowID}`;
        assert.ok(this.allocated.delete(key), `freed only an allocated flow: ${key}`);
      }
    });
    assert.equal(this.rx.free(), this.resources - this.allocated.size);
    const queued = this.rx.queue().map((q) => `${q.sourceID}/${q.flowID}/${q.seq}`);
    const flows = this.rx.queue().map((q) => `${q.sourceID}/${q.flowID}`);
    assert.equal(new Set(flows).size, flows.length, '§2.2.2: at most one queued REQUEST per flow');
    assert.deepEqual(new Set(queued), this.unanswered, 'rule 2: every REQUEST is answered or still queued');
    for (const s of SOURCES) {
      for (const f of FLOWS) assert.equal(this.rx.allocation(s, f) !== undefined, this.allocated.has(`${s}/${f}`));
    }
  }
}

test('Part 9 §2.4.7 rules 2 and 10, §2.2.2: random REQUEST/RELEASE/segment/reclaim/timer sequences keep the pool, one allocation per flow, and answer every REQUEST', () => {
  fc.assert(
    fc.property(config, fc.array(step, { maxLength: 60 }), (c, steps) => {
      const { policy, maxQueued, ...rest } = c;
      const rx = new ArbRx({ localID: RX, ...rest, ...(maxQueued === undefined ? {} : { maxQueued }) }, POLICIES[policy]);
      const h = new Harness(rx, c.resources);
      for (const s of steps) {
        if (s.k === 'tick') h.tick(s.dt);
        else if (s.k === 'stray') h.run({ kind: 'timer', name: s.name }, h.now);
        else h.run(s.input, h.now, s.request);
      }
      // Drain: with timers on, every resource eventually comes back and every queued REQUEST is granted or still waits.
      if (c.idleTimeout !== null) {
        for (let i = 0; i < 20 && h.timers.size > 0; i++) h.tick(1000);
        assert.equal(h.allocated.size, 0, '§2.4.8: with idle timers every resource is eventually recovered');
      }
    }),
    fcParams(20_000),
  );
});
