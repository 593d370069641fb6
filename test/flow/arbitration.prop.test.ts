/**
 * Flow arbitration end to end over a lossy link (Part 9 §2.4.7, §2.4.8, §2.4.2.1): random
 * workloads on 1–3 flows between `ArbTx` at A and `ArbRx` at B (test/support/arb-link.ts), the
 * application of test/support/arb-workload.ts, every Type 7 message lost with probability p until
 * T_loss and none after; data segments are never lost. B's application asks some multi-PDU
 * resources back (rule 8). All timers on; the receiver either queues what it cannot grant at once
 * (its default) or rejects it (a REQUEST pipelined behind its flow's resource is always queued).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../support/fc.ts';
import { ArbLink, A_ID } from '../support/arb-link.ts';
import { seededType7Loss } from '../support/arb-trace.ts';
import type { Delivery, LinkEvent } from '../support/arb-link.ts';
import { Workload } from '../support/arb-workload.ts';
import type { Transfer } from '../support/arb-workload.ts';
import type { ArbMode } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';

const FLOWS: readonly FlowIdLabel[] = ['0A', '0D', '2A'];

interface Scenario {
  readonly flows: number;
  readonly resources: number;
  readonly whenBusy: 'queue' | 'reject';
  readonly ctrlLatency: number;
  readonly dataLatency: number;
  readonly segmentTime: number;
  readonly requestTimeout: number;
  readonly retryDelay: number;
  readonly idleTimeout: number;
  readonly pipelining: boolean;
  readonly p: number;
  readonly tLoss: number;
  readonly seed: number;
  readonly transfers: readonly Transfer[];
  /**
   * B's application asks multi-PDU resources back (rule 8): the n-th multi-PDU allocation is
   * reclaimed reclaims[n] after it is made (null: not reclaimed); later ones are not.
   */
  readonly reclaims: readonly (number | null)[];
}

const transfer = (flows: number): fc.Arbitrary<Transfer> =>
  fc.record({
    flow: fc.integer({ min: 0, max: flows - 1 }),
    mode: fc.constantFrom<ArbMode>('single', 'multi'),
    pdus: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
    at: fc.integer({ min: 0, max: 1500 }),
  }).map(({ flow, mode, pdus, at }) => ({ flowID: FLOWS[flow] ?? '0A', mode, pdus: mode === 'single' ? pdus.slice(0, 1) : pdus, at }));

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    flows: fc.integer({ min: 1, max: 3 }),
    resources: fc.integer({ min: 1, max: 2 }),
    whenBusy: fc.constantFrom<'queue' | 'reject'>('queue', 'reject'),
    ctrlLatency: fc.integer({ min: 1, max: 20 }),
    dataLatency: fc.integer({ min: 1, max: 20 }),
    segmentTime: fc.integer({ min: 1, max: 5 }),
    extraTimeout: fc.integer({ min: 1, max: 200 }),
    retryDelay: fc.integer({ min: 0, max: 50 }),
    extraIdle: fc.integer({ min: 1, max: 400 }),
    pipelining: fc.boolean(),
    p: fc.double({ min: 0, max: 0.3, noNaN: true }),
    tLoss: fc.integer({ min: 0, max: 2000 }),
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
  })
  .chain((s) =>
    fc.record({
      transfers: fc.array(transfer(s.flows), { minLength: 1, maxLength: 6 }),
      reclaims: fc.array(fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }), { maxLength: 4 }),
    }).map(({ transfers, reclaims }) => ({
      flows: s.flows,
      resources: s.resources,
      whenBusy: s.whenBusy,
      ctrlLatency: s.ctrlLatency,
      dataLatency: s.dataLatency,
      segmentTime: s.segmentTime,
      // Down to just over one way: REQUESTs may be re-sent before their answer could arrive.
      requestTimeout: s.ctrlLatency + s.extraTimeout,
      retryDelay: s.retryDelay,
      // Longer than the longest silence of a flow in use: XON(ARB) and first segment in flight, one segment time.
      idleTimeout: s.ctrlLatency + s.dataLatency + s.segmentTime + s.extraIdle,
      pipelining: s.pipelining,
      p: s.p,
      tLoss: s.tLoss,
      seed: s.seed,
      transfers,
      reclaims,
    })),
  );

/**
 * Time by which everything must be done. After the last loss and arrival (T_quiet): an orphaned
 * resource (XON(ARB) or RELEASE lost) is freed within two idle periods (§2.4.8 2), a REQUEST or
 * answer lost before T_loss is re-sent within one requestTimeout (rule 3 1)), and then, with at
 * worst one resource, the transfers are served one after the other, each taking at most a
 * REQUEST round trip, an XOFF(ARB) retry, its segments, and the last segment's or RELEASE's trip
 * to B. A reclaim costs at most its delay (60), the rest of a PDU (4 segments), the RELEASE's
 * trip, a retry and a new REQUEST round trip.
 */
function livenessBound(s: Scenario): number {
  const { ctrlLatency: lc, dataLatency: ld, segmentTime: st } = s;
  const quiet = Math.max(s.tLoss, ...s.transfers.map((t) => t.at));
  const recovery = 2 * s.idleTimeout + s.requestTimeout + s.retryDelay + 4 * (lc + ld);
  const perTransfer = (t: Transfer): number => s.requestTimeout + s.retryDelay + 2 * lc + 2 * ld + st * (t.pdus.reduce((a, b) => a + b + 1, 0) + 1);
  const perReclaim = 60 + 5 * st + 2 * lc + 2 * ld + s.retryDelay;
  return quiet + recovery + s.transfers.reduce((sum, t) => sum + perTransfer(t), 0) + s.reclaims.length * perReclaim;
}

/** Wire-level checks of one run; throws at the first violation. */
class Invariants {
  readonly #resources: number;
  readonly #granted = new Map<string, boolean>();
  readonly #allocated = new Set<string>();
  readonly #outstanding = new Map<string, { readonly seq: number; readonly mode: string }>();
  readonly #lastSeq = new Map<string, number>();
  readonly #timeoutAt = new Map<string, number>();

  constructor(resources: number) {
    this.#resources = resources;
  }

  check(e: LinkEvent): void {
    if (e.kind === 'deliver') {
      if (e.to === 'A' && e.input.kind === 'ccp') {
        // Rule 2: the REQUEST is answered by XON(ARB) or XOFF(ARB) with its sequence bit.
        const p = e.input.packet;
        const o = this.#outstanding.get(p.flowID);
        if (o !== undefined && o.seq === p.seq) this.#outstanding.delete(p.flowID);
      }
      return;
    }
    if (e.side === 'A') {
      const o = e.output;
      const at = `t=${e.t}`;
      if (o.kind === 'grant') {
        if (this.#granted.get(o.flowID) === true) throw new Error(`${at} ${o.flowID}: second grant before grant-ended`);
        this.#granted.set(o.flowID, true);
      } else if (o.kind === 'grant-ended') {
        if (this.#granted.get(o.flowID) !== true) throw new Error(`${at} ${o.flowID}: grant-ended without a grant`);
        this.#granted.set(o.flowID, false);
      } else if (o.kind === 'transmit') {
        // §2.4.7 "Transmitters shall not transmit on an arbitrated flow unless a resource is available".
        if (this.#granted.get(o.flowID) !== true) throw new Error(`${at} ${o.flowID}: ${o.segment} transmitted without a grant`);
      } else if (o.kind === 'event' && o.name === 'request-timeout' && o.flowID !== undefined) {
        this.#timeoutAt.set(o.flowID, e.t);
      } else if (o.kind === 'send' && o.packet.command.startsWith('REQUEST')) {
        const p = o.packet;
        const out = this.#outstanding.get(p.flowID);
        if (out !== undefined) {
          // Rule 11 "not more than one outstanding REQUEST"; rule 4 "The sequence number shall
          // remain the same for REQUESTs reissued … without having received a response"; rule 3 1).
          if (out.seq !== p.seq || out.mode !== p.command) throw new Error(`${at} ${p.flowID}: ${p.command} seq ${p.seq} while seq ${out.seq} is outstanding`);
          if (this.#timeoutAt.get(p.flowID) !== e.t) throw new Error(`${at} ${p.flowID}: REQUEST re-sent without a timeout`);
        } else {
          // Rule 4 "The sequence number shall advance for any new REQUESTs on a given flow".
          const want = ((this.#lastSeq.get(p.flowID) ?? 1) ^ 1) & 1;
          if (p.seq !== want) throw new Error(`${at} ${p.flowID}: new REQUEST with seq ${p.seq}, expected ${want}`);
          this.#lastSeq.set(p.flowID, want);
          this.#outstanding.set(p.flowID, { seq: want, mode: p.command });
        }
      }
      return;
    }
    const o = e.output;
    const at = `t=${e.t}`;
    if (o.kind === 'allocated') {
      // Rule 10 "Only a single instance of resources shall be allocated to a flow at any point in time".
      if (this.#allocated.has(o.flowID)) throw new Error(`${at} ${o.flowID}: second allocation`);
      this.#allocated.add(o.flowID);
      if (this.#allocated.size > this.#resources) throw new Error(`${at}: ${this.#allocated.size} allocations for ${this.#resources} resources`);
    } else if (o.kind === 'freed') {
      if (!this.#allocated.delete(o.flowID)) throw new Error(`${at} ${o.flowID}: freed without an allocation`);
    } else if (o.kind === 'event' && o.name === 'unexpected-segment') {
      throw new Error(`${at} ${o.flowID ?? '-'}: segment reached B with no resource for it (PDU lost)`);
    }
  }
}

/** PDUs whose every segment reached B while B held a resource for the flow. */
function deliveredPdus(deliveries: readonly Delivery[]): number {
  const open = new Map<string, boolean>();
  let complete = 0;
  for (const d of deliveries) {
    const ok = d.segment === 'single' || d.segment === 'start' ? d.accepted : (open.get(d.flowID) ?? false) && d.accepted;
    if (d.segment === 'start' || d.segment === 'continuation') open.set(d.flowID, ok);
    else {
      open.delete(d.flowID);
      if (ok && d.segment !== 'abort') complete++;
    }
  }
  return complete;
}

function run(s: Scenario): void {
  const link = new ArbLink({
    rx: { resources: s.resources, idleTimeout: s.idleTimeout, whenBusy: s.whenBusy },
    tx: { requestTimeout: s.requestTimeout, retryDelay: s.retryDelay, pipelining: s.pipelining },
    ctrlLatency: s.ctrlLatency,
    dataLatency: s.dataLatency,
    segmentTime: s.segmentTime,
    lose: seededType7Loss(s.seed, s.p, s.tLoss),
  });
  const inv = new Invariants(s.resources);
  link.observe((e) => {
    inv.check(e);
  });
  const app = new Workload(link, s.transfers, s.pipelining);
  const reclaims = [...s.reclaims];
  link.observe((e) => {
    if (e.kind !== 'output' || e.side !== 'B' || e.output.kind !== 'allocated' || e.output.mode !== 'multi') return;
    const delay = reclaims.shift();
    if (delay !== undefined && delay !== null) link.inputB(e.t + delay, { kind: 'reclaim', sourceID: A_ID, flowID: e.output.flowID });
  });
  const bound = livenessBound(s);
  link.run(bound, 200_000);
  const wanted = s.transfers.reduce((n, t) => n + t.pdus.length, 0);
  // "No flow stays stopped forever": every PDU went and reached B under a resource by the bound.
  assert.deepEqual(app.anomalies, []);
  assert.equal(app.finished, s.transfers.length, `transfers finished by t=${bound}`);
  assert.equal(deliveredPdus(link.deliveries), wanted, `PDUs delivered by t=${bound}`);
  assert.equal(link.rx.free(), s.resources, `receiver resources free by t=${bound}`);
  link.run(Number.POSITIVE_INFINITY, 200_000);
  assert.equal(link.rx.free(), s.resources, 'and they stay free once the link is quiet');
  assert.equal(link.idle, true);
}

test('Part 9 §2.4.7 rules 2, 4, 10, 11, §2.4.8, §2.4.2.1: over a link losing Type 7 messages until T_loss, no flow transmits without a grant, B never over-allocates, one REQUEST is outstanding per flow with coherent sequence bits, and after T_loss every PDU is delivered and every resource freed within the bound', () => {
  fc.assert(fc.property(scenario, (s) => {
    run(s);
  }), fcParams(1000));
});
