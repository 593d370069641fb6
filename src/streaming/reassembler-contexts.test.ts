import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reassembler } from './reassembler.ts';
import type { ReassemblerOutput } from './reassembler-types.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { bytes, cont, end, segmentsOf, single, start } from '../../test/support/type9-segments.ts';
import type { SegHeader } from '../../test/support/type9-segments.ts';

const MTU = 32;

function feed(r: Reassembler, packets: readonly Type9Packet[], now = 0): ReassemblerOutput[] {
  return packets.flatMap((packet) => r.handle({ kind: 'packet', packet }, now));
}

/** Round-robin merge that keeps each list's order. */
function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i] as T);
  return out;
}

/** Delivered PDUs as [context, flowID, streamID, bytes]. */
function delivered(out: readonly ReassemblerOutput[]): [string, string | null, number, Uint8Array][] {
  return out.flatMap((o) => (o.kind === 'pdu' ? [[o.context, o.flowID, o.vsid.streamID, o.payload] as [string, string | null, number, Uint8Array]] : []));
}

function kinds(out: readonly ReassemblerOutput[]): string[] {
  return out.map((o) => (o.kind === 'event' ? (o.name === 'defective-pdu' ? `rule ${o.rule}` : o.name) : o.kind));
}

test('Part 10 §3.2.4, §3.2.5 reassembly rule 1: contexts are kept per (source ID, VC, prio, CRF), so PDUs of different flows interleave', () => {
  const r = new Reassembler({ mtu: MTU, vcCount: 8 });
  const flows: [SegHeader, string, string][] = [
    [{ sourceID: 5 }, 'Dev8/src5/vc0/prio0/crf0', '0A'],
    [{ sourceID: 5, crf: 1 }, 'Dev8/src5/vc0/prio0/crf1', '0B'],
    [{ sourceID: 5, prio: 1 }, 'Dev8/src5/vc0/prio1/crf0', '0C'],
    [{ sourceID: 5, vc: 1, prio: 2, crf: 1 }, 'Dev8/src5/vc1/prio2/crf1', '6A'],
    [{ sourceID: 6 }, 'Dev8/src6/vc0/prio0/crf0', '0A'],
  ];
  const pdus = flows.map((_, i) => bytes(110 - 10 * i, i));
  const out = feed(r, interleave(flows.map(([h], i) => segmentsOf(pdus[i]!, MTU, i, h))));
  assert.deepEqual(delivered(out), [2, 3, 4, 0, 1].map((i) => [flows[i]![1], flows[i]![2], i, pdus[i]]), 'in the order their end segments came');
  assert.equal(out.length, 5);
});

test('Part 3 §2.4: tt is part of the context key, a Dev8 and a Dev16 source with the same ID do not share a context (decision)', () => {
  const r = new Reassembler({ mtu: MTU });
  const a = segmentsOf(bytes(50, 1), MTU, 1, { sourceID: 5, tt: 0 });
  const b = segmentsOf(bytes(50, 2), MTU, 2, { sourceID: 5, tt: 1 });
  const out = feed(r, interleave([a, b]));
  assert.deepEqual(delivered(out).map(([c]) => c), ['Dev8/src5/vc0/prio0/crf0', 'Dev16/src5/vc0/prio0/crf0']);
  assert.deepEqual(out.map((o) => o.kind === 'pdu' && o.tt), [0, 1]);
});

test('Part 10 §3.2.4, §3.2.5 reassembly rule 1: with multicast or several device IDs, the destination ID is part of the context', () => {
  const r = new Reassembler({ mtu: MTU, destinationInContext: true });
  const a = segmentsOf(bytes(50, 1), MTU, 1, { sourceID: 5, destinationID: 1 });
  const b = segmentsOf(bytes(50, 2), MTU, 2, { sourceID: 5, destinationID: 2 });
  const out = feed(r, interleave([a, b]));
  assert.deepEqual(delivered(out), [['Dev8/src5/dst1/vc0/prio0/crf0', '0A', 1, bytes(50, 1)], ['Dev8/src5/dst2/vc0/prio0/crf0', '0A', 2, bytes(50, 2)]]);
});

test('Part 10 §3.2.5 reassembly rule 1 "The destination ID is only required for devices supporting multicast": otherwise any destination ID is reassembled in the source\'s context (decision: the node filters)', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(delivered(feed(r, segmentsOf(bytes(50), MTU, 1, { sourceID: 5, destinationID: 0x77 }))), [['Dev8/src5/vc0/prio0/crf0', '0A', 1, bytes(50)]]);
  const a = segmentsOf(bytes(50, 1), MTU, 1, { sourceID: 5, destinationID: 1 });
  const b = segmentsOf(bytes(50, 2), MTU, 2, { sourceID: 5, destinationID: 2 });
  assert.deepEqual(kinds(feed(r, interleave([a, b]))), ['rule 9', 'pdu', 'rule 8'], 'two destinations, one context');
});

test('Part 10 §3.2.4, §5.4.3 SegSupport: a start segment needing a new context when all are open is discarded (no-context); its later segments find no context (rule 8)', () => {
  const r = new Reassembler({ mtu: MTU, segSupport: 2 });
  assert.equal(r.contextLimit, 2);
  feed(r, [start(bytes(MTU), 1, { sourceID: 1 }), start(bytes(MTU), 2, { sourceID: 2 })]);
  assert.deepEqual(feed(r, [start(bytes(MTU), 3, { sourceID: 3, cos: 4, destinationID: 8 })]), [
    { kind: 'event', name: 'no-context', context: 'Dev8/src3/vc0/prio0/crf0', vsid: { sourceID: 3, destinationID: 8, cos: 4, streamID: 3 }, contexts: 2 },
  ]);
  assert.deepEqual(kinds(feed(r, [cont(bytes(MTU), { sourceID: 3 }), end(bytes(4), 68, { sourceID: 3 })])), ['rule 8', 'rule 8']);
  assert.deepEqual(kinds(feed(r, [single(bytes(9), 4, { sourceID: 3 })])), ['pdu'], 'a single segment needs no context');
  assert.deepEqual(kinds(feed(r, [start(bytes(5), 3, { sourceID: 3 })])), ['rule 4'], 'a defective start is reported as such, once');
  assert.deepEqual(kinds(feed(r, [start(bytes(MTU), 9, { sourceID: 1 })])), ['rule 9'], 'rule 9 reuses the context it closes');
  feed(r, [end(bytes(1), MTU + 1, { sourceID: 2 })]);
  assert.deepEqual(kinds(feed(r, segmentsOf(bytes(40), MTU, 3, { sourceID: 3 }))), ['pdu'], 'a context freed by an end segment is available again');
  assert.equal(r.counters().noContext, 1);
});

test('Part 10 §5.4.3 Table 5-5 SegSupport "0x0000 - 64k segmentation contexts"', () => {
  assert.equal(new Reassembler().contextLimit, 0x10000);
  assert.equal(new Reassembler({ segSupport: 0 }).contextLimit, 0x10000);
  assert.equal(new Reassembler({ segSupport: 0x10000 }).contextLimit, 0x10000);
  assert.equal(new Reassembler({ segSupport: 0xffff }).contextLimit, 0xffff);
  assert.throws(() => new Reassembler({ segSupport: 0x10001 }), { name: 'RangeError', message: 'segSupport must be an integer from 0 to 65536' });
});

test('Part 10 §3.2.5 optional time-out: an open context idle for idleTimeout is closed and its PDU discarded, timer idle:<context key>', () => {
  const r = new Reassembler({ mtu: MTU, idleTimeout: 100 });
  const name = 'idle:Dev8/src5/vc0/prio0/crf0';
  const h = { sourceID: 5 };
  assert.deepEqual(r.handle({ kind: 'packet', packet: start(bytes(MTU), 1, h) }, 0), [{ kind: 'timer', name, at: 100 }]);
  assert.deepEqual(r.handle({ kind: 'packet', packet: cont(bytes(MTU), h) }, 60), [], 'a segment records its time; no timer request');
  assert.deepEqual(r.handle({ kind: 'timer', name }, 99), [], 'not due yet');
  assert.deepEqual(r.handle({ kind: 'timer', name }, 100), [{ kind: 'timer', name, at: 160 }], 'active since: re-armed for the rest');
  assert.deepEqual(r.handle({ kind: 'timer', name }, 160), [
    { kind: 'event', name: 'idle-timeout', context: 'Dev8/src5/vc0/prio0/crf0', vsid: { sourceID: 5, destinationID: 0, cos: 0, streamID: 1 }, received: 64, lastSegmentAt: 60 },
  ]);
  assert.deepEqual(r.openContexts(), []);
  assert.deepEqual(r.handle({ kind: 'timer', name }, 170), [], 'a second delivery is stale');
  assert.deepEqual(kinds(r.handle({ kind: 'packet', packet: end(bytes(4), 68, h) }, 170)), ['rule 8'], 'the rest of the PDU finds the context closed');
  assert.equal(r.counters().idleTimeouts, 1);
});

test('Part 10 §3.2.5 optional time-out: closing a context cancels its timer; rule 9 re-arms it for the new PDU; a defective PDU times out without a second report', () => {
  const r = new Reassembler({ mtu: MTU, idleTimeout: 100 });
  const name = 'idle:Dev8/src0/vc0/prio0/crf0';
  r.handle({ kind: 'packet', packet: start(bytes(MTU), 1) }, 0);
  assert.deepEqual(r.handle({ kind: 'packet', packet: end(bytes(4), 36) }, 10), [{ kind: 'pdu', context: 'Dev8/src0/vc0/prio0/crf0', vsid: { sourceID: 0, destinationID: 0, cos: 0, streamID: 1 }, tt: 0, flowID: '0A', channel: 0, payload: new Uint8Array([...bytes(MTU), ...bytes(4)]), segments: 2 }, { kind: 'timer', name, at: null }]);
  r.handle({ kind: 'packet', packet: start(bytes(MTU), 1) }, 20);
  assert.deepEqual(kinds(r.handle({ kind: 'packet', packet: start(bytes(MTU), 2) }, 30)), ['rule 9', 'timer']);
  assert.equal(r.snapshot().timers[0]?.at, 130);
  assert.deepEqual(kinds(r.handle({ kind: 'packet', packet: single(bytes(3), 3) }, 40)), ['rule 9', 'pdu', 'timer'], 'no context left: cancelled');
  r.handle({ kind: 'packet', packet: start(bytes(8), 4) }, 50);
  assert.deepEqual(r.handle({ kind: 'timer', name }, 150), [], 'the discarding context closes quietly');
  assert.deepEqual(r.openContexts(), []);
  assert.equal(r.counters().idleTimeouts, 0);
});

test('Part 10 §3.2.5 optional time-out: off by default, no timer requests', () => {
  const r = new Reassembler({ mtu: MTU });
  const out = [...feed(r, [start(bytes(MTU), 1)]), ...r.handle({ kind: 'timer', name: 'idle:Dev8/src0/vc0/prio0/crf0' }, 1e12), ...feed(r, [end(bytes(1), 33)])];
  assert.deepEqual(kinds(out), ['pdu']);
  assert.throws(() => new Reassembler({ idleTimeout: 0 }), { name: 'RangeError', message: 'idleTimeout must be a positive integer or null' });
});

test('Part 9 Table 3-1, Part 6 Tables 2-2/6-6/6-7: the PDU carries the flow of its segments', () => {
  const flowOf = (cfg: ConstructorParameters<typeof Reassembler>[0], h: SegHeader): [string | null, number] => {
    const [o] = feed(new Reassembler(cfg), [single(bytes(4), 0, h)]);
    assert.ok(o?.kind === 'pdu');
    return [o.flowID, o.channel];
  };
  assert.deepEqual(flowOf({}, { prio: 2, crf: 1 }), ['0F', 0]);
  assert.deepEqual(flowOf({ crfSupported: false }, { prio: 1, crf: 1 }), ['0B', 0]);
  assert.deepEqual(flowOf({}, { vc: 1, prio: 2, crf: 1 }), ['0F', 0], 'single VC mode: the VC bit selects no channel');
  assert.deepEqual(flowOf({ vcCount: 8 }, { vc: 1, prio: 3, crf: 1 }), ['8A', 8]);
  assert.deepEqual(flowOf({ vcCount: 2 }, { vc: 1, prio: 1, crf: 1 }), ['1A', 1], '"1 0X X - VC1 (VC0 + 2VCs)"');
  assert.deepEqual(flowOf({}, { prio: 3 }), [null, 0], 'a VC0 request at prio 3 is "Illegal" (Part 9 Table 2-1): delivered without a flow');
});

test('Part 10 §5.5.1 Table 5-6 MTU: a write applies to single segments and PDUs that start afterwards; an open PDU keeps its MTU', () => {
  const r = new Reassembler({ mtu: MTU });
  feed(r, [start(bytes(MTU), 1)]);
  assert.deepEqual(r.handle({ kind: 'set-mtu', mtu: 64 }, 0), []);
  assert.equal(r.mtu, 64);
  assert.deepEqual(kinds(feed(r, [cont(bytes(MTU)), end(bytes(2), 66)])), ['pdu']);
  assert.deepEqual(kinds(feed(r, [single(bytes(64))])), ['pdu']);
  assert.deepEqual(kinds(feed(r, [start(bytes(MTU))])), ['rule 4']);
  assert.deepEqual(r.handle({ kind: 'set-mtu', mtu: 30 }, 0), [{ kind: 'event', name: 'invalid-input', detail: 'set-mtu: 30 is not a multiple of 4 from 32 to 256' }]);
  assert.equal(r.mtu, 64);
});

test('engine contract: bad input is counted, not thrown; config errors are RangeErrors naming the field', () => {
  const r = new Reassembler();
  assert.deepEqual(r.handle({ kind: 'bogus' } as unknown as Parameters<Reassembler['handle']>[0], 0), [{ kind: 'event', name: 'invalid-input', detail: 'unknown input kind "bogus"' }]);
  assert.deepEqual(r.handle({ kind: 'timer', name: 'idle:nothing' }, 0), []);
  assert.deepEqual(r.handle({ kind: 'packet' } as unknown as Parameters<Reassembler['handle']>[0], 0), [{ kind: 'event', name: 'invalid-input', detail: 'packet: not a decoded Type 9 packet' }]);
  assert.equal(r.counters().invalidInputs, 2);
  assert.throws(() => new Reassembler({ mtu: 28 }), { name: 'RangeError', message: 'mtu must be a multiple of 4 from 32 to 256' });
  assert.throws(() => new Reassembler({ mtu: 34 }), { name: 'RangeError', message: 'mtu must be a multiple of 4 from 32 to 256' });
  assert.throws(() => new Reassembler({ mtu: 260 }), { name: 'RangeError', message: 'mtu must be a multiple of 4 from 32 to 256' });
  assert.throws(() => new Reassembler({ vcCount: 3 as 2 }), { name: 'RangeError', message: 'vcCount must be 0, 1, 2, 4 or 8' });
  assert.throws(() => new Reassembler({ destinationInContext: 1 as unknown as boolean }), { name: 'RangeError', message: 'destinationInContext must be a boolean' });
  assert.equal(new Reassembler().mtu, 256, 'default MTU');
});

test('engine contract: counters() is a copy and snapshot() is plain JSON of the engine state', () => {
  const r = new Reassembler({ mtu: MTU, idleTimeout: 50, segSupport: 4 });
  r.handle({ kind: 'packet', packet: start(bytes(MTU), 7, { sourceID: 2, cos: 1 }) }, 5);
  const c = r.counters();
  c.segments = 99;
  assert.equal(r.counters().segments, 1);
  const s = r.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
  assert.deepEqual(s, {
    mtu: MTU, contextLimit: 4, destinationInContext: false, idleTimeout: 50, vcCount: 0, crfSupported: true,
    openContexts: [{
      context: 'Dev8/src2/vc0/prio0/crf0', state: 'assembling', vsid: { sourceID: 2, destinationID: 0, cos: 1, streamID: 7 }, tt: 0, flowID: '0A', channel: 0,
      mtu: MTU, received: MTU, segments: 1, openedAt: 5, lastSegmentAt: 5,
    }],
    timers: [{ name: 'idle:Dev8/src2/vc0/prio0/crf0', at: 55 }],
    stats: r.counters(),
  });
});
