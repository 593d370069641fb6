import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9DataPacket } from '../wire/type9-types.ts';
import { Reassembler } from './reassembler.ts';
import type { ReassemblerOutput } from './reassembler-types.ts';
import { abortSegment, flowBits, segmentPdu } from './segment-pdu.ts';
import { contextKey } from './reassembly-context.ts';

/**
 * Part 10 §3.2.5 reassembly over random traffic: PDUs of several flows (source ID × flowID, and
 * destination ID when it is part of the context), segmented by segmentPdu, some aborted by the
 * source (segmentation rule 9), with the segments of different flows interleaved in any order that
 * keeps each flow's order (§3.2.4 "requires the underlying transport fabric to deliver the
 * sequence … in the issued order").
 */

interface PduSpec {
  readonly length: number;
  readonly seed: number;
  readonly cos: number;
  readonly destinationID: number;
  /** Segments sent before an abort segment (when the PDU has more than that); null: sent whole. */
  readonly abortAfter: number | null;
}

interface FlowSpec {
  readonly sourceID: number;
  readonly flowID: FlowIdLabel;
  readonly destinationID: number;
  readonly pdus: readonly PduSpec[];
}

interface Scenario {
  readonly mtu: number;
  readonly destinationInContext: boolean;
  readonly flows: readonly FlowSpec[];
  readonly picks: readonly number[];
  /** Loss pattern, cycled over the sent segments: true = lost. */
  readonly loss: readonly boolean[];
}

/** One sent PDU; its streamID is its number, so a VSID names the PDU. */
interface SentPdu {
  readonly streamID: number;
  readonly flow: number;
  readonly payload: Uint8Array;
  readonly aborted: boolean;
  readonly segments: readonly Sent[];
}

interface Sent {
  readonly pdu: SentPdu;
  readonly packet: Type9DataPacket;
}

const pduArb = (mtu: number): fc.Arbitrary<PduSpec> => fc.record({
  length: fc.oneof(fc.integer({ min: 1, max: 5 * mtu + 3 }), fc.integer({ min: 1, max: 5 }).map((k) => k * mtu)),
  seed: fc.nat(255),
  cos: fc.nat(255),
  destinationID: fc.nat(3),
  abortAfter: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) }),
});

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  mtu: fc.integer({ min: 8, max: 64 }).map((u) => u * 4),
  destinationInContext: fc.boolean(),
}).chain(({ mtu, destinationInContext }) => fc.record({
  mtu: fc.constant(mtu),
  destinationInContext: fc.constant(destinationInContext),
  flows: fc.uniqueArray(
    fc.record({ sourceID: fc.nat(3), flowID: fc.constantFrom(...FLOW_ID_LABELS), destinationID: fc.nat(2), pdus: fc.array(pduArb(mtu), { minLength: 1, maxLength: 4 }) }),
    { minLength: 1, maxLength: 4, selector: (f) => `${f.sourceID}/${f.flowID}${destinationInContext ? `/${f.destinationID}` : ''}` },
  ),
  picks: fc.array(fc.nat(), { maxLength: 200 }),
  loss: fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
}));

function build(s: Scenario): { pdus: SentPdu[]; order: Sent[] } {
  const pdus: SentPdu[] = [];
  const queues = s.flows.map((f, flow) => f.pdus.flatMap((spec) => {
    const payload = new Uint8Array(spec.length).map((_, i) => (spec.seed + i * 13) & 0xff);
    const destinationID = s.destinationInContext ? f.destinationID : spec.destinationID;
    const head = { destinationID, sourceID: f.sourceID, cos: spec.cos, streamID: pdus.length };
    let packets = segmentPdu({ ...head, payload, mtu: s.mtu, flowID: f.flowID });
    const aborted = spec.abortAfter !== null && spec.abortAfter < packets.length;
    if (aborted) packets = [...packets.slice(0, spec.abortAfter), abortSegment({ ...head, tt: 0, ...flowBits(f.flowID)! })];
    const segments: Sent[] = [];
    const pdu: SentPdu = { streamID: pdus.length, flow, payload, aborted, segments };
    for (const packet of packets) segments.push({ pdu, packet });
    pdus.push(pdu);
    return segments;
  }));
  const order: Sent[] = [];
  const at = queues.map(() => 0);
  for (let i = 0; ; i++) {
    const ready = queues.flatMap((q, f) => ((at[f] ?? 0) < q.length ? [f] : []));
    if (ready.length === 0) break;
    const f = ready[(s.picks[i] ?? i) % ready.length]!;
    order.push(queues[f]![at[f]!]!);
    at[f]! += 1;
  }
  return { pdus, order };
}

/** Per-context outcomes, in order: the comparable form of both the engine's outputs and the expectation. */
type Outcome =
  | { readonly type: 'pdu'; readonly streamID: number; readonly payload: Uint8Array }
  | { readonly type: 'defect'; readonly rule: number; readonly streamID: number | null }
  | { readonly type: 'aborted' | 'idle-timeout'; readonly streamID: number };

const IDLE = 1_000_000;

/** Runs the engine over `received` (one time unit apart), then lets every idle timer expire. */
function run(s: Scenario, received: readonly Sent[]): Map<string, Outcome[]> {
  const r = new Reassembler({ mtu: s.mtu, destinationInContext: s.destinationInContext, idleTimeout: IDLE, vcCount: 8 });
  const pending = new Map<string, number>();
  const byContext = new Map<string, Outcome[]>();
  const collect = (out: ReassemblerOutput[]): void => {
    for (const o of out) {
      if (o.kind === 'timer') {
        if (o.at === null) pending.delete(o.name);
        else pending.set(o.name, o.at);
        continue;
      }
      if (o.kind === 'pdu') {
        assert.equal(o.flowID, s.flows[sentFlowOf(received, o.vsid.streamID)]?.flowID, 'delivered with the flow it was sent in');
        push(byContext, o.context, { type: 'pdu', streamID: o.vsid.streamID, payload: o.payload });
      } else if (o.name === 'defective-pdu') push(byContext, o.context, { type: 'defect', rule: o.rule, streamID: o.vsid?.streamID ?? null });
      else if (o.name === 'aborted' || o.name === 'idle-timeout') push(byContext, o.context, { type: o.name, streamID: o.vsid.streamID });
      else assert.fail(`unexpected event ${o.name}`);
    }
  };
  received.forEach((seg, now) => { collect(r.handle({ kind: 'packet', packet: seg.packet }, now)); });
  while (pending.size > 0) {
    const [name, at] = [...pending].sort((a, b) => a[1] - b[1])[0]!;
    pending.delete(name);
    collect(r.handle({ kind: 'timer', name: name as `idle:${string}` }, at));
  }
  assert.deepEqual(r.openContexts(), []);
  return byContext;
}

function sentFlowOf(received: readonly Sent[], streamID: number): number {
  return received.find((x) => x.pdu.streamID === streamID)?.pdu.flow ?? -1;
}

function push(m: Map<string, Outcome[]>, key: string, o: Outcome): void {
  const list = m.get(key);
  if (list === undefined) m.set(key, [o]);
  else list.push(o);
}

/**
 * What the rules make of one context's received segments (the sent order minus the lost ones).
 * A context is open from a received start segment until the next received end, abort, start or
 * single segment; then:
 * - single: rule 9 for the open PDU if any, then the single is delivered;
 * - start: rule 9 for the open PDU if any; the start opens the context;
 * - continuation: rule 8 on a closed context, else its bytes join the open PDU;
 * - end: rule 8 on a closed context; else the open PDU (named by its start's VSID) is delivered
 *   when its byte count equals the end segment's length (rule 7), else it is defective (rule 7);
 * - abort: rule 8 on a closed context, else the open PDU is aborted;
 * - a context still open after the last segment: its idle timeout discards the PDU ("a lost end
 *   segment is detected only when the next start/single arrives or by the idle timeout").
 * Segments are well formed, so rules 3–6 never fire.
 *
 * The bytes joined are whatever arrived, so an open PDU A whose end segment was lost can absorb
 * the continuations and end segment of a later PDU B whose start segment was lost: if the count
 * then equals B's length, rule 7 cannot see it and a splice is delivered under A's VSID. The
 * property expects exactly that (the spec carries no sequence numbers), and checks separately
 * that every delivered PDU that is not a sent PDU is such a splice.
 */
function expected(received: readonly Sent[]): Outcome[] {
  const out: Outcome[] = [];
  let open: { streamID: number; chunks: Uint8Array[]; count: number } | null = null;
  for (const { pdu, packet: p } of received) {
    switch (p.segment) {
      case 'single':
      case 'start':
        if (open !== null) out.push({ type: 'defect', rule: 9, streamID: open.streamID });
        open = p.segment === 'start' ? { streamID: pdu.streamID, chunks: [p.payload], count: p.payload.length } : null;
        if (p.segment === 'single') out.push({ type: 'pdu', streamID: pdu.streamID, payload: p.payload });
        break;
      case 'continuation':
        if (open === null) out.push({ type: 'defect', rule: 8, streamID: null });
        else {
          open.chunks.push(p.payload);
          open.count += p.payload.length;
        }
        break;
      case 'abort':
        if (open === null) out.push({ type: 'defect', rule: 8, streamID: null });
        else out.push({ type: 'aborted', streamID: open.streamID });
        open = null;
        break;
      case 'end':
        if (open === null) out.push({ type: 'defect', rule: 8, streamID: null });
        else if (open.count + p.payload.length !== p.pduLength) out.push({ type: 'defect', rule: 7, streamID: open.streamID });
        else out.push({ type: 'pdu', streamID: open.streamID, payload: concat([...open.chunks, p.payload]) });
        open = null;
        break;
    }
  }
  if (open !== null) out.push({ type: 'idle-timeout', streamID: open.streamID });
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function byFlow(s: Scenario, segs: readonly Sent[]): Sent[][] {
  return s.flows.map((_, f) => segs.filter((x) => x.pdu.flow === f));
}

/**
 * Checks the engine against `expected`, context by context, and returns the outcomes of all
 * contexts. Each flow has a context of its own (the flows' keys are distinct).
 */
function compare(s: Scenario, received: readonly Sent[]): Outcome[] {
  const actual = run(s, received);
  const flows = byFlow(s, received);
  for (const segs of flows) {
    const first = segs[0];
    if (first === undefined) continue;
    const key = contextKey(first.packet, s.destinationInContext);
    assert.deepEqual(actual.get(key) ?? [], expected(segs), key);
    actual.delete(key);
  }
  assert.deepEqual([...actual.keys()], [], 'no outcomes outside the flows\' contexts');
  return flows.flatMap(expected);
}

test('Part 10 §3.2.5: any PDUs over any flows, segments interleaved keeping each flow\'s order, reassemble byte-identical with their VSID and flow', () => {
  fc.assert(fc.property(scenarioArb, (s) => {
    const { pdus, order } = build(s);
    const outcomes = compare(s, order);
    for (const p of pdus) {
      const mine = outcomes.filter((o) => o.streamID === p.streamID);
      if (p.aborted) assert.deepEqual(mine, [{ type: 'aborted', streamID: p.streamID }]);
      else assert.deepEqual(mine, [{ type: 'pdu', streamID: p.streamID, payload: p.payload }]);
    }
    assert.equal(outcomes.length, pdus.length, 'no defect without loss');
    // 5000 cases (~1.5 s), more under `npm run fuzz`.
  }), fcParams(Math.max(1, Math.floor(FC_RUNS / 20))));
});

/**
 * The accounting, per context, over the received segments (checked exactly by `compare` against
 * `expected`, and restated here from the sender's side):
 * - every PDU whose segments all arrived is delivered byte-identical (or reported aborted, if its
 *   source aborted it);
 * - every PDU whose start segment arrived has exactly one outcome under its VSID: delivered,
 *   defective (rule 7 when a continuation was lost, rule 9 when its end was lost and a later start
 *   or single came), aborted, or idle-timeout (its end was lost and nothing followed);
 * - a damaged PDU is delivered only as the head of a splice: its own end segment was lost and a
 *   later PDU of the context lost its start segment, whose remaining segments completed the count;
 * - a PDU whose start segment was lost has no outcome of its own: each of its received segments is
 *   either a rule 8 report (it arrived on a closed context) or absorbed by the open PDU before it,
 *   which then has its own outcome; the rule 8 reports are exactly the received continuation, end
 *   and abort segments whose last preceding start/single/end/abort segment is not a start.
 */
test('Part 10 §3.2.5 reassembly rules 7–9 and the time-out: with segments lost, every delivered PDU is intact or an undetectable splice, and every damaged PDU is reported', () => {
  fc.assert(fc.property(scenarioArb, (s) => {
    const { pdus, order } = build(s);
    const isLost = (_: Sent, i: number): boolean => s.loss[i % s.loss.length] === true;
    const received = order.filter((x, i) => !isLost(x, i));
    const lost = new Set(order.filter(isLost));
    const outcomes = compare(s, received);
    for (const p of pdus) {
      const mine = outcomes.filter((o) => o.streamID === p.streamID);
      const damaged = p.segments.some((x) => lost.has(x));
      if (!damaged) {
        assert.deepEqual(mine, [p.aborted ? { type: 'aborted', streamID: p.streamID } : { type: 'pdu', streamID: p.streamID, payload: p.payload }]);
        continue;
      }
      assert.equal(mine.length, lost.has(p.segments[0]!) ? 0 : 1, 'one outcome per PDU whose start arrived');
      if (mine[0]?.type === 'pdu') {
        const later = pdus.filter((q) => q.flow === p.flow && q.streamID > p.streamID);
        assert.ok(lost.has(p.segments[p.segments.length - 1]!), 'a splice starts with a PDU whose end segment was lost');
        assert.ok(later.some((q) => lost.has(q.segments[0]!)), 'and ends with a later PDU whose start segment was lost');
      }
    }
    const rule8 = outcomes.filter((o) => o.type === 'defect' && o.rule === 8).length;
    const closedArrivals = byFlow(s, received).reduce((n, segs) => n + segs.filter((x, i) => {
      if (x.packet.segment === 'single' || x.packet.segment === 'start') return false;
      const before = segs.slice(0, i).reverse().find((y) => y.packet.segment !== 'continuation');
      return before === undefined || before.packet.segment !== 'start';
    }).length, 0);
    assert.equal(rule8, closedArrivals);
  }), fcParams(10_000));
});
