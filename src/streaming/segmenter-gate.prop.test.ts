import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9DataPacket } from '../wire/type9.ts';
import { segmentPdu } from './segment-pdu.ts';
import { Segmenter } from './segmenter.ts';
import type { SegmenterOutput } from './segmenter-types.ts';

const MTU = 32;
const FLOWS: readonly (readonly [number, FlowIdLabel])[] = [[2, '0A'], [2, '0C'], [3, '0A'], [3, '0C']];

type Action =
  | { readonly kind: 'pdu'; readonly flow: number; readonly stream: number; readonly size: number }
  | { readonly kind: 'gate'; readonly flow: number; readonly stopped: boolean }
  | { readonly kind: 'pull-any'; readonly max: number }
  | { readonly kind: 'pull'; readonly flow: number; readonly max: number };

const flow = fc.integer({ min: 0, max: FLOWS.length - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pdu' as const), flow, stream: fc.integer({ min: 0, max: 2 }), size: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('gate' as const), flow, stopped: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pull-any' as const), max: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pull' as const), flow, max: fc.integer({ min: 1, max: 2 }) }) },
);

interface Queued {
  readonly seq: number;
  readonly flow: number;
  readonly stream: string;
  readonly payload: Uint8Array;
  readonly streamID: number;
}

test('Part 9 §2.4.5 rule 1, Part 10 §3.2.5 rule 1: under any interleaving of gates, PDUs and pulls, no segment of a stopped flow is sent; once every flow is restarted each flow\'s segments are its PDUs\' segments in queueing order, none lost, and each stream\'s PDUs start in queueing order', () => {
  fc.assert(
    fc.property(fc.array(action, { minLength: 1, maxLength: 40 }), (actions) => {
      const s = new Segmenter({ mtu: MTU, sourceID: 1 });
      const stopped = new Set<number>();
      const queued: Queued[] = [];
      const sent = FLOWS.map((): Type9DataPacket[] => []);
      const started: number[] = [];
      const take = (out: readonly SegmenterOutput[]): void => {
        for (const o of out) {
          if (o.kind === 'pdu-started') started.push(o.seq);
          if (o.kind !== 'send') continue;
          const i = FLOWS.findIndex(([d, f]) => d === o.packet.destinationID && f === o.flowID);
          assert.equal(stopped.has(i), false, `a segment of stopped flow ${i} was sent`);
          sent[i]?.push(o.packet);
        }
      };
      for (const a of actions) {
        switch (a.kind) {
          case 'pdu': {
            const [destinationID, flowID] = FLOWS[a.flow] as (typeof FLOWS)[number];
            const payload = new Uint8Array(a.size).fill(queued.length + 1);
            const out = s.handle({ kind: 'pdu', destinationID, cos: 0, streamID: a.stream, flowID, payload }, 0);
            const q = out[0];
            assert.ok(q?.kind === 'queued');
            queued.push({ seq: q.seq, flow: a.flow, stream: `${destinationID}/${a.stream}`, payload, streamID: a.stream });
            break;
          }
          case 'gate': {
            const [destinationID, flowID] = FLOWS[a.flow] as (typeof FLOWS)[number];
            assert.deepEqual(s.handle({ kind: 'gate', destinationID, flowID, stopped: a.stopped }, 0), []);
            if (a.stopped) stopped.add(a.flow);
            else stopped.delete(a.flow);
            break;
          }
          case 'pull-any':
            take(s.handle({ kind: 'pull-any', max: a.max }, 0));
            break;
          case 'pull': {
            const [destinationID, flowID] = FLOWS[a.flow] as (typeof FLOWS)[number];
            take(s.handle({ kind: 'pull', destinationID, flowID, max: a.max }, 0));
            break;
          }
        }
      }
      FLOWS.forEach(([destinationID, flowID], i) => {
        s.handle({ kind: 'gate', destinationID, flowID, stopped: false }, 0);
        stopped.delete(i);
      });
      for (let i = 0; i < 10_000; i++) {
        const out = s.handle({ kind: 'pull-any', max: 8 }, 0);
        take(out);
        if (out.some((o) => o.kind === 'idle')) break;
      }
      FLOWS.forEach(([destinationID, flowID], i) => {
        const want = queued.filter((q) => q.flow === i).flatMap((q) => segmentPdu({ payload: q.payload, mtu: MTU, destinationID, sourceID: 1, cos: 0, streamID: q.streamID, flowID }));
        assert.deepEqual(sent[i], want, `flow ${destinationID}/${flowID}`);
      });
      for (const stream of new Set(queued.map((q) => q.stream))) {
        const seqs = queued.filter((q) => q.stream === stream).map((q) => q.seq);
        assert.deepEqual(started.filter((seq) => seqs.includes(seq)), seqs, `stream ${stream}`);
      }
      assert.deepEqual([s.counters().pdusDone, s.busyFlows()], [queued.length, []]);
    }),
    fcParams(FC_RUNS_MODEL),
  );
});
