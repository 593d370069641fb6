import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reassembler } from './reassembler.ts';
import type { DefectEvent, DsErrorName, ReassemblerOutput, ReassemblyRule } from './reassembler-types.ts';
import type { Vsid } from './vsid.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { abort, bytes, cont, end, extended, segmentsOf, single, start, tmXoff, viaWire } from '../../test/support/type9-segments.ts';

const MTU = 32;
const H = { sourceID: 5, destinationID: 9, cos: 7 };
const KEY = 'Dev8/src5/vc0/prio0/crf0';
const SID = 0x1234;
const VSID: Vsid = { sourceID: 5, destinationID: 9, cos: 7, streamID: SID };

function feed(r: Reassembler, packets: readonly Type9Packet[], now = 0): ReassemblerOutput[] {
  return packets.flatMap((packet) => r.handle({ kind: 'packet', packet }, now));
}

function pdu(payload: Uint8Array, segments: number, vsid: Vsid = VSID): ReassemblerOutput {
  return { kind: 'pdu', context: KEY, vsid, tt: 0, flowID: '0A', channel: 0, payload, segments };
}

interface Found {
  readonly segment: DefectEvent['segment'];
  readonly vsid: Vsid | null;
  readonly received: number;
  readonly payloadLength: number;
  readonly mtu?: number;
  readonly length?: number;
}

/** The expected event; error name and bit are written out per test, from Part 10 rev 4.1 Table 5-3. */
function defect(rule: ReassemblyRule, error: DsErrorName, errorBit: number, f: Found): DefectEvent {
  const e = {
    kind: 'event', name: 'defective-pdu', rule, clause: `Part 10 §3.2.5 reassembly rule ${rule}`, error, errorBit, context: KEY,
    segment: f.segment, vsid: f.vsid, received: f.received, payloadLength: f.payloadLength, mtu: f.mtu ?? MTU,
  } as const;
  return f.length === undefined ? e : { ...e, length: f.length };
}

test('Part 10 §3.2.5 reassembly rule 1: a start segment opens a context holding the VSID, keyed by source ID and physical channel', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(r.handle({ kind: 'packet', packet: start(bytes(MTU), SID, H) }, 10), []);
  assert.deepEqual(r.openContexts(), [{
    context: KEY, state: 'assembling', vsid: VSID, tt: 0, flowID: '0A', channel: 0, mtu: MTU, received: MTU, segments: 1, openedAt: 10, lastSegmentAt: 10,
  }]);
});

test('Part 10 §3.2.5 reassembly rule 2: payloads are transferred in order and counted; the end segment delivers the PDU', () => {
  const r = new Reassembler({ mtu: MTU });
  const data = bytes(100);
  const [s, c1, c2, e] = segmentsOf(data, MTU, SID, H);
  assert.deepEqual(feed(r, [s!, c1!, c2!]), []);
  assert.equal(r.openContexts()[0]?.received, 96);
  assert.equal(r.openContexts()[0]?.segments, 3);
  assert.deepEqual(feed(r, [e!]), [pdu(data, 4)]);
  assert.deepEqual(r.openContexts(), []);
  assert.deepEqual(r.counters(), { ...r.counters(), segments: 4, pdus: 1, pduBytes: 100, defects: 0 });
});

test('Part 10 §3.2.5 reassembly rule 3: a single segment longer than the MTU is defective (long segment); up to the MTU it is the PDU', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, [single(bytes(33), SID, H)]), [
    defect(3, 'LONG_DATA_STREAMING_SEGMENT', 12, { segment: 'single', vsid: VSID, received: 33, payloadLength: 33 }),
  ]);
  assert.deepEqual(feed(r, [single(bytes(32), SID, H)]), [pdu(bytes(32), 1)]);
  assert.deepEqual(feed(r, [single(bytes(1), SID, H)]), [pdu(bytes(1), 1)]);
  assert.deepEqual(r.openContexts(), [], 'a single segment holds no context');
  assert.equal(r.counters().longSegment, 1);
});

test('Part 10 §3.2.5 reassembly rule 4: a start segment that does not match the MTU is defective (short or long segment), and the rest of its PDU is dropped without further reports', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, [start(bytes(30), SID, H)]), [
    defect(4, 'SHORT_DATA_STREAMING_SEGMENT', 13, { segment: 'start', vsid: VSID, received: 30, payloadLength: 30 }),
  ]);
  assert.equal(r.openContexts()[0]?.state, 'discarding');
  assert.deepEqual(feed(r, [cont(bytes(MTU), H), end(bytes(5), 67, H)]), []);
  assert.deepEqual(r.openContexts(), []);
  assert.deepEqual(feed(r, [start(bytes(36), SID, H)]), [
    defect(4, 'LONG_DATA_STREAMING_SEGMENT', 12, { segment: 'start', vsid: VSID, received: 36, payloadLength: 36 }),
  ]);
  assert.deepEqual(feed(r, [abort(H)]), [], 'an abort closes the discarding context quietly');
  assert.deepEqual(feed(r, segmentsOf(bytes(40), MTU, SID, H)), [pdu(bytes(40), 2)]);
  assert.deepEqual(r.counters(), { ...r.counters(), defects: 2, shortSegment: 1, longSegment: 1, discardedSegments: 3, missingContext: 0 });
});

test('Part 10 §3.2.5 reassembly rule 5: a continuation that does not match the MTU makes the PDU defective (short or long segment)', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), cont(bytes(28), H)]), [
    defect(5, 'SHORT_DATA_STREAMING_SEGMENT', 13, { segment: 'continuation', vsid: VSID, received: 60, payloadLength: 28 }),
  ]);
  assert.deepEqual(feed(r, [cont(bytes(MTU), H), end(bytes(4), 100, H)]), [], 'dropped with the PDU');
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), cont(bytes(MTU), H), cont(bytes(36), H)]), [
    defect(5, 'LONG_DATA_STREAMING_SEGMENT', 12, { segment: 'continuation', vsid: VSID, received: 100, payloadLength: 36 }),
  ]);
  assert.equal(r.counters().discardedSegments, 2);
});

test('Part 10 §3.2.5 reassembly rule 6: an end segment may follow the start directly and may be up to the MTU; longer is defective (long segment)', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, segmentsOf(bytes(42), MTU, SID, H)), [pdu(bytes(42), 2)]);
  assert.deepEqual(feed(r, segmentsOf(bytes(64), MTU, SID, H)), [pdu(bytes(64), 2)], 'an end segment of exactly the MTU');
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), end(bytes(34), 66, H)]), [
    defect(6, 'LONG_DATA_STREAMING_SEGMENT', 12, { segment: 'end', vsid: VSID, received: 66, payloadLength: 34 }),
  ]);
  assert.deepEqual(r.openContexts(), [], '"An end segment terminates the reassembly process"');
});

test('Part 10 §3.2.5 reassembly rule 7: a PDU length that differs from the data count (a lost continuation) is defective (PDU length error)', () => {
  const r = new Reassembler({ mtu: MTU });
  const [s, , c2, e] = segmentsOf(bytes(100), MTU, SID, H);
  assert.deepEqual(feed(r, [s!, c2!, e!]), [
    defect(7, 'DATA_STREAMING_PDU_LENGTH_ERROR', 14, { segment: 'end', vsid: VSID, received: 68, payloadLength: 4, length: 100 }),
  ]);
  assert.deepEqual(r.openContexts(), []);
  assert.equal(r.counters().pduLengthError, 1);
});

test('Part 10 §3.2.5 reassembly rule 8: a continuation, end or abort segment on a closed context is defective (missing context), once per segment', () => {
  const r = new Reassembler({ mtu: MTU });
  const [, c1, e] = segmentsOf(bytes(70), MTU, SID, H);
  assert.deepEqual(feed(r, [c1!, e!, abort(H)]), [
    defect(8, 'MISSING_DATA_STREAMING_CONTEXT', 10, { segment: 'continuation', vsid: null, received: MTU, payloadLength: MTU }),
    defect(8, 'MISSING_DATA_STREAMING_CONTEXT', 10, { segment: 'end', vsid: null, received: 6, payloadLength: 6 }),
    defect(8, 'MISSING_DATA_STREAMING_CONTEXT', 10, { segment: 'abort', vsid: null, received: 0, payloadLength: 0 }),
  ]);
  assert.deepEqual(feed(r, [...segmentsOf(bytes(40), MTU, SID, H), end(bytes(8), 40, H)]), [
    pdu(bytes(40), 2),
    defect(8, 'MISSING_DATA_STREAMING_CONTEXT', 10, { segment: 'end', vsid: null, received: 8, payloadLength: 8 }),
  ], 'the context closed with the first end segment');
  assert.equal(r.counters().missingContext, 4);
});

test('Part 10 §3.2.5 reassembly rule 9: a start segment on an open context makes the old PDU defective (open existing context) and opens the new one', () => {
  const r = new Reassembler({ mtu: MTU });
  const second: Vsid = { ...VSID, streamID: 2 };
  feed(r, [start(bytes(MTU), SID, H), cont(bytes(MTU), H)]);
  assert.deepEqual(feed(r, [start(bytes(MTU, 9), 2, H)]), [
    defect(9, 'OPEN_EXISTING_DATA_STREAMING_CONTEXT', 11, { segment: 'start', vsid: VSID, received: 64, payloadLength: MTU }),
  ]);
  assert.deepEqual(r.openContexts().map((c) => [c.vsid, c.received]), [[second, MTU]]);
  assert.deepEqual(feed(r, [end(bytes(3, 9 + 7 * MTU), 35, H)]), [pdu(bytes(35, 9), 2, second)]);
});

test('Part 10 §3.2.5 reassembly rule 9: a single segment on an open context makes the old PDU defective and is delivered', () => {
  const r = new Reassembler({ mtu: MTU });
  feed(r, [start(bytes(MTU), SID, H)]);
  assert.deepEqual(feed(r, [single(bytes(10), 3, H)]), [
    defect(9, 'OPEN_EXISTING_DATA_STREAMING_CONTEXT', 11, { segment: 'single', vsid: VSID, received: MTU, payloadLength: 10 }),
    pdu(bytes(10), 1, { ...VSID, streamID: 3 }),
  ]);
  assert.deepEqual(r.openContexts(), []);
  assert.equal(r.counters().openExistingContext, 1);
});

test('Part 10 §3.2.5 "a defective PDU results in discarding the entire PDU": a start on a context already reported defective is not reported again', () => {
  const r = new Reassembler({ mtu: MTU });
  feed(r, [start(bytes(MTU), SID, H), cont(bytes(8), H)]);
  assert.deepEqual(feed(r, segmentsOf(bytes(50), MTU, 4, H)), [pdu(bytes(50), 2, { ...VSID, streamID: 4 })]);
  assert.deepEqual(r.counters(), { ...r.counters(), defects: 1, shortSegment: 1, openExistingContext: 0, discardedSegments: 0 });
});

test('Part 10 §3.2.5 segmentation rule 9, §4.2: an abort (end segment, length 0, no payload) on an open context discards the PDU without a defect', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), cont(bytes(MTU), H), abort(H)]), [
    { kind: 'event', name: 'aborted', context: KEY, vsid: VSID, received: 64 },
  ]);
  assert.deepEqual(r.openContexts(), []);
  assert.deepEqual(r.counters(), { ...r.counters(), aborted: 1, defects: 0 });
  assert.deepEqual(feed(r, [abort(H)]).map((o) => (o.kind === 'event' && o.name === 'defective-pdu' ? o.rule : o.kind)), [8], 'on a closed context: rule 8');
});

test('Part 10 §4.2 Table 4-1 length "0x0000 - 64kbytes": a 65536-byte PDU whose end segment carries length 0 is delivered', () => {
  const r = new Reassembler({ mtu: 256 });
  const data = bytes(0x10000, 3);
  const segs = segmentsOf(data, 256, SID, H);
  assert.equal(segs.length, 256);
  const last = segs[255];
  assert.ok(last?.segment === 'end' && last.length === 0 && last.pduLength === 0x10000);
  const out = feed(r, segs.map((p) => viaWire(p).packet));
  assert.deepEqual(out, [pdu(data, 256)]);
});

test('Part 10 §4.2 Table 4-1 length: data beyond 65536 bytes cannot match any length field, rule 7 (decision)', () => {
  const r = new Reassembler({ mtu: 256 });
  const segs = segmentsOf(bytes(0x10000), 256, SID, H).slice(0, 256 - 1);
  const out = feed(r, [...segs, cont(bytes(256), H), cont(bytes(256), H), end(bytes(10), 10, H)]);
  assert.deepEqual(out, [
    defect(7, 'DATA_STREAMING_PDU_LENGTH_ERROR', 14, { segment: 'end', vsid: VSID, received: 0x10000 - 256 + 512 + 10, payloadLength: 10, length: 10, mtu: 256 }),
  ]);
});

test('Part 10 §5.5.1 Table 5-6 MTU 256: a 256-byte single, start and continuation fit; 257 and 252 do not', () => {
  const r = new Reassembler({ mtu: 256 });
  assert.equal(feed(r, [single(bytes(256), SID, H)])[0]?.kind, 'pdu');
  assert.deepEqual(feed(r, segmentsOf(bytes(600), 256, SID, H)).map((o) => o.kind), ['pdu']);
  const rules = (out: ReassemblerOutput[]): unknown[] => out.map((o) => (o.kind === 'event' && o.name === 'defective-pdu' ? [o.rule, o.error] : o.kind));
  assert.deepEqual(rules(feed(r, [single(bytes(257), SID, H)])), [[3, 'LONG_DATA_STREAMING_SEGMENT']]);
  assert.deepEqual(rules(feed(r, [start(bytes(252), SID, H)])), [[4, 'SHORT_DATA_STREAMING_SEGMENT']]);
  assert.deepEqual(rules(feed(r, [start(bytes(256), SID, H), cont(bytes(252), H)])), [[5, 'SHORT_DATA_STREAMING_SEGMENT']]);
});

test('Part 10 §5.5.1 Table 5-6 MTU 32: a 32-byte single, start and continuation fit; 33, 28 and 36 do not', () => {
  const r = new Reassembler({ mtu: 32 });
  assert.deepEqual(feed(r, segmentsOf(bytes(97), 32, SID, H)), [pdu(bytes(97), 4)]);
  assert.equal(feed(r, [single(bytes(32), SID, H)])[0]?.kind, 'pdu');
  const rules = (out: ReassemblerOutput[]): unknown[] => out.map((o) => (o.kind === 'event' && o.name === 'defective-pdu' ? [o.rule, o.error] : o.kind));
  assert.deepEqual(rules(feed(r, [single(bytes(33), SID, H)])), [[3, 'LONG_DATA_STREAMING_SEGMENT']]);
  assert.deepEqual(rules(feed(r, [start(bytes(28), SID, H)])), [[4, 'SHORT_DATA_STREAMING_SEGMENT']]);
  assert.deepEqual(rules(feed(r, [start(bytes(32), SID, H), cont(bytes(36), H)])), [[5, 'LONG_DATA_STREAMING_SEGMENT']]);
});

test('Part 10 §3.2.4 Figure 3-4: the pad byte of an odd end segment is not part of the PDU', () => {
  const r = new Reassembler({ mtu: MTU });
  const data = bytes(45);
  const wire = segmentsOf(data, MTU, SID, H).map((p) => viaWire(p));
  const last = wire[1]?.packet;
  assert.ok(last?.segment === 'end' && last.pad === 1 && last.odd === 1, 'a 13-byte payload: P = 1, 7 half-words so O = 1');
  assert.deepEqual(feed(r, wire.map((w) => w.packet)), [pdu(data, 2)]);
});

test('Part 10 §3.2.5: a single segment PDU is delivered as a view of the packet payload, without a copy', () => {
  const r = new Reassembler({ mtu: MTU });
  const data = bytes(21);
  const { packet, wire } = viaWire(single(data, SID, H));
  const [out] = feed(r, [packet]);
  assert.ok(out?.kind === 'pdu');
  assert.deepEqual(out.payload, data);
  assert.equal(out.payload.buffer, wire.buffer, 'shares the packet bytes');
  assert.equal(out.payload.byteOffset, wire.byteOffset + 2 + 2 + 2 + 2, 'after the prefix, the Dev8 IDs, cos/flags and streamID');
});

test('Part 10 §3.2.5 reassembly rule 2: a multi-segment PDU is a new buffer of its own, unaffected by later changes to the packets', () => {
  const r = new Reassembler({ mtu: MTU });
  const data = bytes(80);
  const wire = segmentsOf(data, MTU, SID, H).map((p) => viaWire(p));
  const [out] = feed(r, wire.map((w) => w.packet));
  assert.ok(out?.kind === 'pdu');
  for (const w of wire) {
    assert.notEqual(out.payload.buffer, w.wire.buffer);
    w.wire.fill(0xee);
  }
  assert.deepEqual(out.payload, data);
  const [next] = feed(r, segmentsOf(bytes(80, 99), MTU, SID, H));
  assert.ok(next?.kind === 'pdu');
  assert.notEqual(next.payload.buffer, out.payload.buffer, 'a new buffer per PDU');
  assert.deepEqual(out.payload, data);
});

test('Part 10 §4.3: TM and other extended packets are not data segments: ignored with an event, contexts untouched', () => {
  const r = new Reassembler({ mtu: MTU });
  feed(r, [start(bytes(MTU), SID, H)]);
  assert.deepEqual(feed(r, [tmXoff(SID, H), extended(SID, H)]), [
    { kind: 'event', name: 'not-data', segment: 'tm', sourceID: 5, destinationID: 9 },
    { kind: 'event', name: 'not-data', segment: 'extended', sourceID: 5, destinationID: 9 },
  ]);
  assert.deepEqual(feed(r, [end(bytes(4, 1 + 7 * MTU), 36, H)]), [pdu(bytes(36), 2)]);
  assert.deepEqual(r.counters(), { ...r.counters(), notData: 2, segments: 2 });
});

test('Part 10 §4.2 "Type 9 packets always have a data payload" is the codec\'s check: an empty single segment is an empty PDU and an empty end segment is judged by rule 7 (decision)', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, [single(new Uint8Array(0), SID, H)]), [pdu(new Uint8Array(0), 1)]);
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), end(new Uint8Array(0), MTU, H)]), [pdu(bytes(MTU), 2)]);
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), end(new Uint8Array(0), 40, H)]), [
    defect(7, 'DATA_STREAMING_PDU_LENGTH_ERROR', 14, { segment: 'end', vsid: VSID, received: MTU, payloadLength: 0, length: 40 }),
  ]);
});

test('Part 10 §3.2.4 "all segments of a PDU must also have that same flowID and cos": the PDU keeps the VSID of its start; later cos values are not compared (decision)', () => {
  const r = new Reassembler({ mtu: MTU });
  assert.deepEqual(feed(r, [start(bytes(MTU), SID, H), end(bytes(8, 1 + 7 * MTU), 40, { ...H, cos: 200, destinationID: 77 })]), [pdu(bytes(40), 2)]);
});

test('Part 10 §3.2.5 reassembly rule 7 cannot see a lost end segment followed by a lost start segment when the counts agree: the splice is delivered under the first PDU\'s VSID (decision)', () => {
  const r = new Reassembler({ mtu: MTU });
  const [aStart] = segmentsOf(bytes(40, 1), MTU, 1, H);
  const [, bCont, bEnd] = segmentsOf(bytes(74, 2), MTU, 2, H);
  const out = feed(r, [aStart!, bCont!, bEnd!]);
  const splice = new Uint8Array([...bytes(MTU, 1), ...bytes(74, 2).subarray(MTU)]);
  assert.deepEqual(out, [pdu(splice, 3, { ...VSID, streamID: 1 })]);
});
