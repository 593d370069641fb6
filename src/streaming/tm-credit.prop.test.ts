import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { TmLink } from '../../test/support/tm-link.ts';
import { EGRESS, INGRESS, VIDEO, fromEgress } from '../../test/support/tm.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import { TmEgress } from './tm-egress.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmMessage } from '../wire/type9-tm.ts';

interface Scenario {
  readonly pdus: number;
  readonly credits: number;
  readonly auCount: number;
  readonly maxOutstanding: number;
  readonly ingressLow: number;
  readonly egressLow: number;
  /** Which TM packets the link loses, in the order they cross it. */
  readonly lost: readonly boolean[];
}

const arbScenario = (lossy: boolean): fc.Arbitrary<Scenario> => fc.record({
  pdus: fc.integer({ min: 1, max: 60 }),
  credits: fc.integer({ min: 1, max: 20 }),
  auCount: fc.integer({ min: 2, max: 16 }),
  maxOutstanding: fc.integer({ min: 1, max: 3 }),
  ingressLow: fc.integer({ min: 0, max: 4 }),
  egressLow: fc.integer({ min: 0, max: 4 }),
  lost: lossy ? fc.array(fc.integer({ min: 0, max: 7 }).map((x) => x === 0), { maxLength: 200 }) : fc.constant([]),
}).filter((s) => s.maxOutstanding <= s.auCount);

function run(s: Scenario): TmLink {
  const ingress = new TmIngress({ localID: INGRESS, mode: 'CREDIT', lowCredits: s.ingressLow, queues: [VIDEO] });
  const egress = new TmEgress({ localID: EGRESS, mode: 'CREDIT', policy: { onOff: null, rate: null, credit: { credits: s.credits, auCount: s.auCount, maxOutstanding: s.maxOutstanding, lowCredits: s.egressLow } } });
  let i = 0;
  const l = new TmLink(ingress, egress, VIDEO, () => s.lost[i++] === true);
  l.ready(s.pdus);
  l.send();
  // §3.4.5 rule 5: an ingress may insist with repeated Q_STATUS.
  for (let round = 0; round < 4; round++) {
    l.insist();
    l.send();
  }
  return l;
}

test('Part 10 §3.4.4, §3.4.5 rule 7: whatever TM packets are lost, a PDU is sent only with a credit (one credit per PDU)', () => {
  fc.assert(fc.property(arbScenario(true), (s) => {
    const l = run(s);
    const ic = l.ingress.counters();
    const granted = l.packets.filter((p) => p.sourceID === EGRESS && p.tm.message === 'ALLOCATE').reduce((n, p) => n + (p.tm.message === 'ALLOCATE' ? p.tm.credits : 0), 0);
    assert.equal(ic.gateViolations, 0);
    assert.ok(ic.pdusSent <= granted, `${ic.pdusSent} PDUs for ${granted} credits`);
    assert.equal(l.egress.counters().pdus, ic.pdusSent);
    assert.ok(ic.pdusSent <= s.pdus);
  }), fcParams(2000));
});

test('Part 10 §3.4.4: without loss every PDU goes, and the egress\'s accounting needs no rule 7 recovery', () => {
  fc.assert(fc.property(arbScenario(false), (s) => {
    const l = run(s);
    const ic = l.ingress.counters();
    const ec = l.egress.counters();
    assert.equal(ic.pdusSent, s.pdus);
    assert.deepEqual([ec.pdusWithoutCredit, ec.auAssumedClosed, ec.auAssumedOpen, ec.allocateLost, ec.csUnknownAu, ec.auBusy], [0, 0, 0, 0, 0, 0]);
    assert.deepEqual([ic.allocateDuplicate, ic.retireUnknown, ic.gateViolations], [0, 0, 0]);
  }), fcParams(2000));
});

test('Part 10 §4.3.3 notes: no sequence of rate messages at any precision takes a rate outside [minRate, maxRate] (never to zero)', () => {
  const rate = fc.constantFrom('average' as const, 'peak' as const);
  const arbMessage: fc.Arbitrary<TmMessage> = fc.oneof(
    fc.tuple(rate, fc.integer({ min: 1, max: 255 })).map(([r, amount]) => ({ message: 'REDUCE' as const, rate: r, amount, factor: 1 - amount / 256 })),
    fc.tuple(rate, fc.integer({ min: 1, max: 254 })).map(([r, amount]) => ({ message: 'INCREASE' as const, rate: r, amount, factor: 1 + amount / 256 })),
    rate.map((r) => ({ message: 'DOUBLE' as const, rate: r })),
    rate.map((r) => ({ message: 'MAINTAIN' as const, rate: r })),
  );
  fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 1000 }), fc.array(arbMessage, { maxLength: 40 }), (bits, minRate, messages) => {
    const e = new TmIngress({ localID: INGRESS, mode: 'RATE', amountBits: bits, queues: [VIDEO], rate: { minRate, maxRate: 1_000_000, average: 500_000, peak: 700_000 } });
    for (const m of messages) {
      e.handle({ kind: 'tm', packet: fromEgress(TM_OP.rate, m, { cos: 0x40, wildcard: 1 }) }, 0);
      for (const which of ['average', 'peak'] as const) {
        const r = e.rate('33/64', which) as number;
        assert.ok(r >= minRate && r <= 1_000_000 && Number.isSafeInteger(r), `${which} rate ${r}`);
      }
    }
  }), fcParams(5000));
});
