import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { RX, TX, arbAnswer, release, request, segment, timer } from '../../test/support/arb-tx.ts';
import { ArbTx } from './arb-tx.ts';
import { dataFlowFields } from './arb-tx-messages.ts';
import type { ArbMode, ArbTxInput, ArbTxOutput, SegmentKind } from './arbitration-types.ts';
import { flowKey } from './flows.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';

const PEER_WITHOUT_ARB = 0x30;
const FLOWS: readonly FlowIdLabel[] = ['0A', '0D', '3A'];

type Step =
  | { readonly t: 'request'; readonly d: number; readonly f: FlowIdLabel; readonly mode: ArbMode }
  | { readonly t: 'segment'; readonly d: number; readonly f: FlowIdLabel; readonly seg: SegmentKind }
  | { readonly t: 'release'; readonly d: number; readonly f: FlowIdLabel }
  /** `seq` null: the Y of the flow's outstanding REQUEST if any (a receiver answering), else a random bit. */
  | { readonly t: 'answer'; readonly xon: boolean; readonly seq: number | null; readonly d: number; readonly f: FlowIdLabel; readonly toUs: boolean }
  | { readonly t: 'timer'; readonly pick: number; readonly early: boolean }
  | { readonly t: 'wait'; readonly dt: number };

const dest = fc.oneof({ arbitrary: fc.constant(RX), weight: 6 }, { arbitrary: fc.constant(PEER_WITHOUT_ARB), weight: 1 });
const flow = fc.constantFrom(...FLOWS);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constant('request' as const), d: dest, f: flow, mode: fc.constantFrom<ArbMode>('single', 'multi') }),
  { arbitrary: fc.record({ t: fc.constant('segment' as const), d: dest, f: flow, seg: fc.constantFrom<SegmentKind>('single', 'start', 'continuation', 'end', 'abort') }), weight: 3 },
  fc.record({ t: fc.constant('release' as const), d: dest, f: flow }),
  { arbitrary: fc.record({ t: fc.constant('answer' as const), xon: fc.boolean(), seq: fc.option(fc.integer({ min: 0, max: 1 }), { freq: 2 }), d: dest, f: flow, toUs: fc.integer({ min: 0, max: 9 }).map((n) => n > 0) }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('timer' as const), pick: fc.nat(), early: fc.boolean() }), weight: 2 },
  fc.record({ t: fc.constant('wait' as const), dt: fc.integer({ min: 0, max: 300 }) }),
);
const config = fc.record({
  pipelining: fc.boolean(),
  requestTimeout: fc.constantFrom(null, 50, 200),
  retryDelay: fc.constantFrom(null, 0, 30),
});

interface Model {
  current: { mode: ArbMode; seq: number; pdu: boolean } | null;
  outstanding: { mode: ArbMode; seq: number } | null;
  /** Answered REQUESTs whose `grant` output is still to come (held grants). */
  accepted: { mode: ArbMode; seq: number }[];
  lastNewSeq: number | null;
}

function toInput(s: Step, e: ArbTx): ArbTxInput {
  switch (s.t) {
    case 'request': return request(s.mode, s.f, s.d);
    case 'segment': return segment(s.seg, s.f, s.d);
    case 'release': return release(s.f, s.d);
    case 'answer': {
      const seq = s.seq ?? e.state(s.d, s.f).outstanding?.seq ?? 0;
      return arbAnswer(s.xon ? 'XON_ARB' : 'XOFF_ARB', seq, s.f, s.d, s.toUs ? TX : TX + 1);
    }
    default: throw new Error('not an input step');
  }
}

/** Replays a run, checking the transmitter's outputs against a model built from those outputs. */
function run(cfg: { pipelining: boolean; requestTimeout: number | null; retryDelay: number | null }, steps: readonly Step[]): void {
  const e = new ArbTx({ localID: TX, unsupportedPeers: [PEER_WITHOUT_ARB], ...cfg });
  const models = new Map<string, Model>();
  const model = (d: number, f: string): Model => {
    const key = `${d}/${f}`;
    let m = models.get(key);
    if (m === undefined) models.set(key, (m = { current: null, outstanding: null, accepted: [], lastNewSeq: null }));
    return m;
  };
  let now = 0;
  for (const s of steps) {
    let input: ArbTxInput;
    if (s.t === 'wait') { now += s.dt; continue; }
    if (s.t === 'timer') {
      const pending = e.snapshot().timers;
      const chosen = pending[s.pick % Math.max(1, pending.length)];
      if (chosen === undefined) continue;
      if (!s.early) now = Math.max(now, chosen.at);
      input = timer(chosen.name);
    } else {
      input = toInput(s, e);
    }
    const out: ArbTxOutput[] = e.handle(input, now);
    const evs = out.flatMap((o) => (o.kind === 'event' ? [o] : []));
    if (s.t === 'answer' && s.toUs && s.d === RX && input.kind === 'ccp') {
      const seq = input.packet.seq ?? -1;
      // Classify the answer by the events it caused and check it against the model.
      const m = model(s.d, s.f);
      const stale = evs.some((v) => v.name === 'stale-response');
      const revoked = evs.some((v) => v.name === 'revoked' && v.flowID === s.f);
      if (stale || revoked) {
        assert.notEqual(m.outstanding?.seq, seq, 'an answer matching the outstanding REQUEST is never stale');
      } else {
        assert.ok(m.outstanding !== null && m.outstanding.seq === seq, 'an accepted answer matches the outstanding REQUEST');
        if (s.xon) m.accepted.push(m.outstanding);
        else assert.ok(evs.some((v) => v.name === 'rejected'));
        m.outstanding = null;
      }
    }
    const timedOut = new Set(evs.filter((v) => v.name === 'request-timeout').map((v) => `${v.destinationID}/${v.flowID}`));
    let released: string | null = null;
    for (const o of out) {
      if (o.kind === 'event' && o.name === 'revoked' && o.destinationID !== undefined && o.flowID !== undefined) {
        const m = model(o.destinationID, o.flowID);
        // A held single-PDU grant dropped: no other output names it (a current one ends with grant-ended 'revoked').
        const held = m.accepted[0];
        if (held !== undefined && held.seq === o.seq && held.mode === 'single') m.accepted.shift();
      } else if (o.kind === 'transmit') {
        if (o.destinationID === PEER_WITHOUT_ARB) continue;
        const m = model(o.destinationID, o.flowID);
        assert.ok(m.current !== null, 'no transmit on an arbitrated flow without a current grant');
        const starts = o.segment === 'single' || o.segment === 'start';
        assert.equal(m.current.pdu, !starts, 'segments follow start … end');
        m.current.pdu = o.segment === 'start' || o.segment === 'continuation';
      } else if (o.kind === 'grant') {
        const m = model(o.destinationID, o.flowID);
        assert.equal(m.current, null, 'one grant at a time');
        const a = m.accepted.shift();
        assert.deepEqual(a, { mode: o.mode, seq: o.seq }, 'a grant comes from an accepted XON(ARB)');
        m.current = { mode: o.mode, seq: o.seq, pdu: false };
      } else if (o.kind === 'grant-ended') {
        const m = model(o.destinationID, o.flowID);
        assert.ok(m.current !== null && !m.current.pdu);
        if (o.reason === 'released') assert.equal(released, flowKey(o.destinationID, o.flowID), 'RELEASE precedes grant-ended released');
        else assert.equal(m.current.mode, 'single', 'last-segment and revoked end single-PDU grants');
        m.current = null;
        released = null;
      } else if (o.kind === 'send') {
        const p = o.packet;
        assert.notEqual(p.destinationID, PEER_WITHOUT_ARB, 'no arbitration message to a peer without support');
        const m = model(p.destinationID, p.flowID);
        const seq = p.seq ?? -1;
        if (p.command === 'RELEASE') {
          assert.ok(m.current !== null && m.current.mode === 'multi' && !m.current.pdu, 'RELEASE only after a multi-PDU grant, between PDUs');
          assert.equal(seq, m.current.seq);
          const want = dataFlowFields(p.flowID as FlowIdLabel, true);
          assert.deepEqual([p.vc, p.prio, p.crf], [want.vc, want.prio, want.crf], 'RELEASE in the data flow');
          released = flowKey(p.destinationID, p.flowID as FlowIdLabel);
        } else if (m.outstanding !== null) {
          assert.ok(timedOut.has(`${p.destinationID}/${p.flowID}`), 'at most one REQUEST outstanding: a second send is a reissue');
          assert.equal(seq, m.outstanding.seq, 'a reissued REQUEST keeps its Y');
        } else {
          assert.equal(seq, m.lastNewSeq === null ? 0 : m.lastNewSeq ^ 1, 'a new REQUEST advances Y');
          assert.notEqual(seq, m.current?.seq, 'a new REQUEST never carries the current grant\'s Y');
          m.outstanding = { mode: p.command === 'REQUEST_MULTI_PDU' ? 'multi' : 'single', seq };
          m.lastNewSeq = seq;
        }
      }
    }
    for (const [key, m] of models) {
      const [d, f] = key.split('/') as [string, FlowIdLabel];
      const st = e.state(Number(d), f);
      assert.deepEqual(st.grant && { mode: st.grant.mode, seq: st.grant.seq }, m.current && { mode: m.current.mode, seq: m.current.seq });
      assert.equal(st.pduInProgress, m.current?.pdu ?? false);
      assert.deepEqual(st.outstanding && { mode: st.outstanding.mode, seq: st.outstanding.seq }, m.outstanding);
    }
  }
}

test('Part 9 §2.4.7 rules 3, 4, 5, 7, 8, 11, 12: random interleavings of application commands and XON/XOFF(ARB) keep the arbitration invariants', () => {
  fc.assert(fc.property(config, fc.array(step, { minLength: 5, maxLength: 80, size: 'max' }), (cfg, steps) => {
    run(cfg, steps);
  }), fcParams(10_000));
});
