import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9DataPacket } from '../wire/type9.ts';
import { segmentPdu } from './segment-pdu.ts';
import { Segmenter } from './segmenter.ts';
import type { SegmenterInput, SegmenterOutput } from './segmenter-types.ts';

function bytes(n: number, seed = 0): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 13 + seed) & 0xff;
  return b;
}

const gate = (destinationID: number, flowID: FlowIdLabel, stopped: boolean): SegmenterInput => ({ kind: 'gate', destinationID, flowID, stopped });
const kinds = (out: readonly SegmenterOutput[]): string[] => out.map((o) => (o.kind === 'send' ? `send:${o.packet.segment}` : o.kind === 'idle' ? `idle:${o.reason}` : o.kind));

/** One pull-any: `dest/flow:segment` of the segment sent, or `idle:reason`. */
function served(s: Segmenter): string {
  const out = s.handle({ kind: 'pull-any' }, 0);
  const send = out.find((o) => o.kind === 'send');
  if (send?.kind === 'send') return `${send.packet.destinationID}/${send.flowID}:${send.packet.segment}`;
  return kinds(out).join(',');
}

test('Part 9 §2.4.5 rule 1, Part 10 §3.2.5 rule 1: pull-any passes over a gated flow, whose PDU pauses mid-PDU; the other flows keep their round-robin turns; restarted, the PDU goes on from its next segment, whole and in order', () => {
  const s = new Segmenter({ mtu: 32, sourceID: 1 });
  const payloads = new Map<number, Uint8Array>([[2, bytes(96, 2)], [3, bytes(96, 3)], [4, bytes(96, 4)]]);
  for (const [dest, payload] of payloads) s.handle({ kind: 'pdu', destinationID: dest, cos: 0, streamID: dest, flowID: '0A', payload }, 0);
  const sent: Type9DataPacket[] = [];
  const pullAny = (): string => {
    const out = s.handle({ kind: 'pull-any' }, 0);
    for (const o of out) if (o.kind === 'send') sent.push(o.packet);
    const send = out.find((o) => o.kind === 'send');
    return send?.kind === 'send' ? `${send.packet.destinationID}:${send.packet.segment}` : kinds(out).join(',');
  };
  assert.deepEqual([pullAny(), pullAny()], ['2:start', '3:start']);
  assert.deepEqual(s.handle(gate(3, '0A', true), 0), [], 'a gate has no output of its own');
  assert.equal(s.isStopped(3, '0A'), true);
  assert.deepEqual([pullAny(), pullAny(), pullAny(), pullAny(), pullAny()], ['4:start', '2:continuation', '4:continuation', '2:end', '4:end']);
  assert.equal(pullAny(), 'idle:flow-stopped', 'only the stopped flow has segments left');
  assert.deepEqual(s.activePdu(3, '0A')?.bytesSent, 32, 'the paused PDU keeps its place');
  s.handle(gate(3, '0A', false), 0);
  assert.deepEqual([pullAny(), pullAny(), pullAny()], ['3:continuation', '3:end', 'idle:empty']);
  for (const [dest, payload] of payloads) {
    const mine = sent.filter((p) => p.destinationID === dest);
    assert.deepEqual(mine, segmentPdu({ payload, mtu: 32, destinationID: dest, sourceID: 1, cos: 0, streamID: dest, flowID: '0A' }), `to ${dest}`);
  }
});

test('Part 9 §2.4.5 rule 1 (decision FE14, fairness): with one of three busy flows gated the other two share the pulls equally, and the gated one takes its turn again once restarted', () => {
  const s = new Segmenter({ mtu: 32 });
  for (const [dest, flow] of [[2, '0A'], [2, '0C'], [5, '0A']] as const) s.handle({ kind: 'pdu', destinationID: dest, cos: 0, streamID: dest * 16 + flow.charCodeAt(1), flowID: flow, payload: bytes(32 * 40) }, 0);
  s.handle(gate(2, '0C', true), 0);
  const tally = new Map<string, number>();
  for (let i = 0; i < 40; i++) {
    const f = served(s).split(':')[0] as string;
    tally.set(f, (tally.get(f) ?? 0) + 1);
  }
  assert.deepEqual([...tally], [['2/0A', 20], ['5/0A', 20]]);
  s.handle(gate(2, '0C', false), 0);
  assert.deepEqual([served(s), served(s), served(s)], ['2/0A:continuation', '2/0C:start', '5/0A:continuation']);
});

test('Part 9 §2.4.5 rule 1 (decision FE13): a pull of a gated flow is idle flow-stopped (empty when it has nothing); the gate is kept per (destinationID, flowID) whether or not the flow has PDUs; the high flow of another destination is not affected', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(gate(2, '0C', true), 0);
  assert.deepEqual(s.handle({ kind: 'pull', destinationID: 2, flowID: '0C' }, 0), [{ kind: 'idle', reason: 'empty', destinationID: 2, flowID: '0C' }]);
  s.handle({ kind: 'pdu', destinationID: 2, cos: 0, streamID: 1, flowID: '0C', payload: bytes(10) }, 0);
  s.handle({ kind: 'pdu', destinationID: 3, cos: 0, streamID: 1, flowID: '0C', payload: bytes(10) }, 0);
  assert.deepEqual(s.handle({ kind: 'pull', destinationID: 2, flowID: '0C', max: 4 }, 0), [{ kind: 'idle', reason: 'flow-stopped', destinationID: 2, flowID: '0C' }]);
  assert.deepEqual(kinds(s.handle({ kind: 'pull', destinationID: 3, flowID: '0C' }, 0)), ['pdu-started', 'send:single', 'pdu-done']);
  assert.deepEqual(s.busyFlows(), [{ destinationID: 2, flowID: '0C' }], 'a stopped flow is still busy');
  const snap = s.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap['stopped'])), [{ destinationID: 2, flowID: '0C' }]);
  s.handle(gate(2, '0C', false), 0);
  s.handle(gate(2, '0C', false), 0);
  assert.deepEqual([s.isStopped(2, '0C'), s.snapshot()['stopped']], [false, []]);
  assert.deepEqual(kinds(s.handle({ kind: 'pull', destinationID: 2, flowID: '0C' }, 0)), ['pdu-started', 'send:single', 'pdu-done']);
  assert.equal(s.counters().idlePulls, 2);
});

test('Part 10 §3.2.5 rule 9, Part 9 §2.4.5 rule 1 (decision FE14): the abort segment of a PDU paused by a gate is the flow\'s next segment and waits for the restart like any other', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle({ kind: 'pdu', destinationID: 2, cos: 0, streamID: 1, flowID: '0A', payload: bytes(100), id: 'x' }, 0);
  assert.equal(served(s), '2/0A:start');
  s.handle(gate(2, '0A', true), 0);
  assert.deepEqual(kinds(s.handle({ kind: 'abort', destinationID: 2, flowID: '0A' }, 0)), ['aborted']);
  assert.equal(served(s), 'idle:flow-stopped');
  s.handle(gate(2, '0A', false), 0);
  const out = s.handle({ kind: 'pull-any' }, 0);
  const abort = out.find((o) => o.kind === 'send');
  assert.deepEqual(abort?.kind === 'send' ? [abort.packet.segment, abort.packet.segment === 'abort' ? abort.packet.length : -1] : [], ['abort', 0]);
  assert.equal(s.counters().abortSegmentsSent, 1);
});

test('riodp engine contract (decision FE13): a gate that names no flow, or whose stopped is not a boolean, is a counted invalid-input event, never an exception', () => {
  const s = new Segmenter();
  const bad: unknown[] = [
    { kind: 'gate', destinationID: 1, flowID: 'ZZ', stopped: true },
    { kind: 'gate', destinationID: 256, flowID: '0A', stopped: true },
    { kind: 'gate', destinationID: 1, flowID: '0A', stopped: 'yes' },
    { kind: 'gate', destinationID: 1, flowID: '0A' },
  ];
  for (const input of bad) {
    const out = s.handle(input as SegmenterInput, 0);
    assert.deepEqual(out.map((o) => (o.kind === 'event' ? o.name : o.kind)), ['invalid-input'], JSON.stringify(input));
  }
  assert.deepEqual([s.counters().invalidInputs, s.snapshot()['stopped']], [bad.length, []]);
});
