import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DS_CONTROL_OFFSET, dsControlRegister, dsInfoRegister, setMtuBytes } from '../registers/data-streaming.ts';
import { RegisterSpace } from '../registers/space.ts';
import { packetChannel } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { decodeType9, encodeType9, type9Length } from '../wire/type9.ts';
import type { Type9DataPacket } from '../wire/type9.ts';
import { segmentPdu } from './segment-pdu.ts';
import { Segmenter } from './segmenter.ts';
import type { SegmenterConfig, SegmenterInput, SegmenterOutput } from './segmenter-types.ts';

function bytes(n: number, seed = 0): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 13 + seed) & 0xff;
  return b;
}

function pdu(destinationID: number, flowID: FlowIdLabel, streamID: number, n: number, extra: { cos?: number; id?: string | number; payload?: Uint8Array } = {}): SegmenterInput {
  const base = { kind: 'pdu' as const, destinationID, flowID, streamID, cos: extra.cos ?? 0, payload: extra.payload ?? bytes(n, streamID) };
  return extra.id === undefined ? base : { ...base, id: extra.id };
}

const pull = (destinationID: number, flowID: FlowIdLabel): SegmenterInput => ({ kind: 'pull', destinationID, flowID });
const sends = (out: readonly SegmenterOutput[]): Type9DataPacket[] => out.flatMap((o) => (o.kind === 'send' ? [o.packet] : []));
const kinds = (out: readonly SegmenterOutput[]): string[] => out.map((o) => (o.kind === 'send' ? `send:${o.packet.segment}` : o.kind === 'idle' ? `idle:${o.reason}` : o.kind));

/** Pulls one flow until its PDU ends; returns every output. */
function drain(s: Segmenter, destinationID: number, flowID: FlowIdLabel): SegmenterOutput[] {
  const all: SegmenterOutput[] = [];
  for (;;) {
    const out = s.handle(pull(destinationID, flowID), 0);
    all.push(...out);
    if (out.some((o) => o.kind === 'idle' || o.kind === 'pdu-done')) return all;
  }
}

test('Part 10 §3.2.5 rules 2–8: pulls give the segments segmentPdu gives, with pdu-started before the start segment and pdu-done after the end', () => {
  const s = new Segmenter({ mtu: 32, sourceID: 7 });
  const payload = bytes(85);
  assert.deepEqual(kinds(s.handle({ kind: 'pdu', destinationID: 3, cos: 5, streamID: 9, flowID: '0B', payload, id: 'a' }, 0)), ['queued']);
  const out = drain(s, 3, '0B');
  assert.deepEqual(kinds(out), ['pdu-started', 'send:start', 'send:continuation', 'send:end', 'pdu-done']);
  const started = out[0];
  assert.deepEqual(started, { kind: 'pdu-started', segments: 3, mtu: 32, seq: 1, id: 'a', destinationID: 3, flowID: '0B', cos: 5, streamID: 9, length: 85 });
  assert.deepEqual(sends(out), segmentPdu({ payload, mtu: 32, destinationID: 3, sourceID: 7, cos: 5, streamID: 9, flowID: '0B' }));
  // The payloads are views of the PDU, not copies.
  for (const p of sends(out)) assert.equal(p.payload.buffer, payload.buffer);
  assert.deepEqual(kinds(s.handle(pull(3, '0B'), 0)), ['idle:empty']);
  const c = s.counters();
  assert.deepEqual([c.pdusQueued, c.pdusStarted, c.pdusDone, c.segmentsSent, c.bytesSent, c.idlePulls], [1, 1, 1, 3, 85, 1]);
});

test('Part 10 §3.2.5 rule 5: a PDU of at most the MTU goes as one single segment in one pull', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 1, 32), 0);
  assert.deepEqual(kinds(s.handle(pull(1, '0A'), 0)), ['pdu-started', 'send:single', 'pdu-done']);
});

test('Part 10 §3.2.5 rule 1: "No more than one PDU from a given RapidIO flow shall be segmented at a time"', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 10, 70), 0);
  s.handle(pdu(1, '0A', 11, 40), 0);
  const first = drain(s, 1, '0A');
  assert.deepEqual(kinds(first), ['pdu-started', 'send:start', 'send:continuation', 'send:end', 'pdu-done']);
  assert.equal(s.waiting(1, '0A').length, 1);
  const second = drain(s, 1, '0A');
  assert.deepEqual(kinds(second), ['pdu-started', 'send:start', 'send:end', 'pdu-done']);
  assert.equal(second[0]?.kind === 'pdu-started' ? second[0].streamID : -1, 11);
});

test('Part 10 §3.2.5 rule 1: "No more than one PDU from a given stream shall be segmented at a time", even across flows', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 5, 70), 0);
  s.handle(pdu(1, '0C', 5, 40), 0);
  assert.deepEqual(kinds(s.handle(pull(1, '0A'), 0)), ['pdu-started', 'send:start']);
  // The stream's PDU is being segmented on flow 0A: the PDU on 0C waits.
  assert.deepEqual(kinds(s.handle(pull(1, '0C'), 0)), ['idle:stream-busy']);
  drain(s, 1, '0A');
  assert.deepEqual(kinds(s.handle(pull(1, '0C'), 0)), ['pdu-started', 'send:start']);
});

test('Part 10 §3.2.5 rule 1: a waiting PDU keeps its place; later PDUs of its flow wait behind it (FIFO)', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 5, 70), 0); // seq 1, stream 5 on 0A
  s.handle(pdu(1, '0B', 5, 10), 0); // seq 2, stream 5 on 0B: waits for seq 1
  s.handle(pdu(1, '0B', 6, 10), 0); // seq 3, stream 6 on 0B: waits behind seq 2
  s.handle(pull(1, '0A'), 0);
  assert.deepEqual(kinds(s.handle(pull(1, '0B'), 0)), ['idle:stream-busy']);
  drain(s, 1, '0A');
  const next = s.handle(pull(1, '0B'), 0);
  assert.deepEqual(next.map((o) => (o.kind === 'pdu-started' ? o.seq : o.kind)), [2, 'send', 'pdu-done']);
  assert.deepEqual(s.handle(pull(1, '0B'), 0).map((o) => (o.kind === 'pdu-started' ? o.seq : o.kind)), [3, 'send', 'pdu-done']);
});

test('Part 10 §3.2.5 rule 1: "PDUs associated with different RapidIO flows may be segmented concurrently": pull-any interleaves them', () => {
  const s = new Segmenter({ mtu: 32 });
  const a = bytes(96, 1);
  const b = bytes(65, 2);
  s.handle({ kind: 'pdu', destinationID: 2, cos: 0, streamID: 1, flowID: '0A', payload: a }, 0);
  s.handle({ kind: 'pdu', destinationID: 2, cos: 0, streamID: 2, flowID: '1A', payload: b }, 0);
  const order: string[] = [];
  const got: Record<string, Uint8Array[]> = { '0A': [], '1A': [] };
  for (let i = 0; i < 6; i++) {
    for (const o of s.handle({ kind: 'pull-any' }, 0)) {
      if (o.kind !== 'send') continue;
      order.push(`${o.flowID}:${o.packet.segment}`);
      got[o.flowID]?.push(o.packet.payload);
    }
  }
  assert.deepEqual(order, ['0A:start', '1A:start', '0A:continuation', '1A:continuation', '0A:end', '1A:end']);
  assert.deepEqual(Buffer.concat(got['0A'] ?? []), Buffer.from(a));
  assert.deepEqual(Buffer.concat(got['1A'] ?? []), Buffer.from(b));
  assert.deepEqual(kinds(s.handle({ kind: 'pull-any' }, 0)), ['idle:empty']);
});

test('Part 10 §3.2.5 rule 1 (decision): pull-any takes flows in ascending (destinationID, flowID) order after the one served last', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(5, '0B', 1, 64), 0);
  s.handle(pdu(2, '3A', 2, 64), 0);
  s.handle(pdu(2, '0F', 3, 64), 0);
  s.handle(pdu(5, '0A', 4, 64), 0);
  assert.deepEqual(s.busyFlows(), [
    { destinationID: 2, flowID: '0F' }, { destinationID: 2, flowID: '3A' }, { destinationID: 5, flowID: '0A' }, { destinationID: 5, flowID: '0B' },
  ]);
  const served = (): string => {
    const o = s.handle({ kind: 'pull-any' }, 0).find((x) => x.kind === 'send');
    return o?.kind === 'send' ? `${o.packet.destinationID}/${o.flowID}` : 'none';
  };
  assert.deepEqual([served(), served(), served()], ['2/0F', '2/3A', '5/0A']);
  // A PDU of a flow below the one served last waits for the wrap-around.
  s.handle(pdu(1, '0A', 9, 10), 0);
  assert.deepEqual([served(), served(), served(), served()], ['5/0B', '1/0A', '2/0F', '2/3A']);
});

test('Part 10 §3.2.5 rule 9: aborting a started PDU queues an end segment with no payload and length 0 as the flow\'s next segment', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 1, 100, { id: 'x' }), 0);
  s.handle(pdu(1, '0A', 2, 10), 0);
  s.handle(pull(1, '0A'), 0);
  s.handle(pull(1, '0A'), 0);
  const ab = s.handle({ kind: 'abort', destinationID: 1, flowID: '0A' }, 0);
  assert.deepEqual(ab, [{ kind: 'aborted', started: true, bytesSent: 64, seq: 1, id: 'x', destinationID: 1, flowID: '0A', cos: 0, streamID: 1, length: 100 }]);
  assert.equal(s.activePdu(1, '0A')?.aborting, true);
  const out = s.handle(pull(1, '0A'), 0);
  assert.deepEqual(kinds(out), ['send:abort']);
  const p = sends(out)[0]!;
  const wire = new Uint8Array(type9Length(p));
  encodeType9(p, wire, 0);
  const back = decodeType9(wire, 0, wire.length, { strict: true });
  assert.deepEqual([back.segment, back.start, back.end, back.odd, back.pad, back.segment === 'abort' ? back.length : -1, back.segment === 'abort' ? back.payload.length : -1], ['abort', 0, 1, 0, 0, 0, 0]);
  // The flow is free again: the next PDU starts.
  assert.deepEqual(kinds(s.handle(pull(1, '0A'), 0)), ['pdu-started', 'send:single', 'pdu-done']);
  const c = s.counters();
  assert.deepEqual([c.pdusAborted, c.abortSegmentsSent, c.pdusDone, c.segmentsSent], [1, 1, 1, 4]);
});

test('Part 10 §3.2.5 rule 9 (decision): aborting a PDU that has not started drops it from the queue without a segment', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 1, 100), 0);
  s.handle(pdu(1, '0A', 2, 10, { id: 7 }), 0);
  s.handle(pdu(1, '0A', 3, 10, { id: 8 }), 0);
  s.handle(pull(1, '0A'), 0);
  // With an id, the named waiting PDU goes; the active one is untouched.
  const ab = s.handle({ kind: 'abort', destinationID: 1, flowID: '0A', id: 7 }, 0);
  assert.deepEqual(ab.map((o) => (o.kind === 'aborted' ? [o.seq, o.started, o.bytesSent] : o.kind)), [[2, false, 0]]);
  assert.equal(s.activePdu(1, '0A')?.aborting, false);
  drain(s, 1, '0A');
  const next = s.handle(pull(1, '0A'), 0);
  assert.equal(next[0]?.kind === 'pdu-started' ? next[0].seq : -1, 3);
  // Without an id and nothing active, the oldest waiting PDU goes.
  s.handle(pdu(2, '0A', 1, 10), 0);
  assert.deepEqual(s.handle({ kind: 'abort', destinationID: 2, flowID: '0A' }, 0).map((o) => (o.kind === 'aborted' ? o.started : o.kind)), [false]);
  assert.deepEqual(kinds(s.handle(pull(2, '0A'), 0)), ['idle:empty']);
  assert.equal(s.counters().pdusDropped, 2);
});

test('Part 10 §3.2.5 rule 9 (decision): an abort with nothing to abort is counted and reported, never thrown', () => {
  const s = new Segmenter({ mtu: 32 });
  assert.deepEqual(s.handle({ kind: 'abort', destinationID: 1, flowID: '0A' }, 0), [{ kind: 'event', name: 'nothing-to-abort', destinationID: 1, flowID: '0A' }]);
  s.handle(pdu(1, '0A', 1, 100), 0);
  s.handle(pull(1, '0A'), 0);
  s.handle({ kind: 'abort', destinationID: 1, flowID: '0A' }, 0);
  // The started PDU is already aborting: a second abort finds nothing more.
  assert.deepEqual(kinds(s.handle({ kind: 'abort', destinationID: 1, flowID: '0A' }, 0)), ['event']);
  assert.deepEqual(kinds(s.handle({ kind: 'abort', destinationID: 1, flowID: '0A', id: 'nope' }, 0)), ['event']);
  assert.equal(s.counters().nothingToAbort, 3);
});

test('Part 10 §3.2.4, §5.4.3 Table 5-5 MaxPDU: PDUs above the destination\'s MaxPDU are refused with the rule, per destination and by default', () => {
  const s = new Segmenter({ mtu: 32, maxPdu: { 4: 1000, 5: 65536 }, defaultMaxPdu: 2000 });
  const out = s.handle(pdu(4, '0A', 1, 1001, { id: 'big' }), 0);
  assert.deepEqual(out, [{ kind: 'refused', reason: 'above-max-pdu', clause: 'Part 10 §3.2.4, §5.4.3 Table 5-5 MaxPDU', id: 'big', destinationID: 4, flowID: '0A', cos: 0, streamID: 1, length: 1001 }]);
  assert.deepEqual(kinds(s.handle(pdu(4, '0A', 1, 1000), 0)), ['queued']);
  assert.deepEqual(kinds(s.handle(pdu(5, '0A', 1, 65536), 0)), ['queued']);
  assert.equal(s.handle(pdu(6, '0A', 1, 2001), 0)[0]?.kind, 'refused');
  assert.deepEqual(kinds(s.handle(pdu(6, '0A', 1, 2000), 0)), ['queued']);
  // A driver that read the destination's Data Streaming Information CAR updates it.
  assert.deepEqual(s.handle({ kind: 'set-max-pdu', destinationID: 6, maxPdu: 3000 }, 0), []);
  assert.equal(s.maxPdu(6), 3000);
  assert.deepEqual(kinds(s.handle(pdu(6, '0A', 2, 3000), 0)), ['queued']);
  assert.deepEqual(s.counters().pdusRefused, 2);
  const m = new Segmenter({ maxPdu: new Map([[9, 64]]) });
  assert.equal(m.maxPdu(9), 64);
  assert.equal(m.maxPdu(10), 65536);
});

test('Part 10 §4.2 Table 4-1 length, Part 9 Table 3-1: empty, oversized or mislabelled PDUs are refused with the reason, never thrown', () => {
  const s = new Segmenter({ tt: 0 });
  const reason = (input: SegmenterInput): string => {
    const o = s.handle(input, 0)[0];
    return o?.kind === 'refused' ? o.reason : String(o?.kind);
  };
  assert.equal(reason(pdu(1, '0A', 1, 0)), 'empty-pdu');
  assert.equal(reason(pdu(1, '0A', 1, 65537)), 'pdu-too-long');
  assert.equal(reason(pdu(256, '0A', 1, 4)), 'invalid-destination-id');
  assert.equal(reason(pdu(1, '9Z' as FlowIdLabel, 1, 4)), 'invalid-flow-id');
  assert.equal(reason(pdu(1, '0A', 1, 4, { cos: 256 })), 'invalid-cos');
  assert.equal(reason(pdu(1, '0A', 0x10000, 4)), 'invalid-stream-id');
  assert.equal(reason({ kind: 'pdu', destinationID: 1, cos: 0, streamID: 1, flowID: '0A', payload: [1, 2] as unknown as Uint8Array }), 'invalid-payload');
  assert.equal(s.counters().pdusRefused, 7);
  assert.deepEqual(s.busyFlows(), []);
});

test('Part 10 §5.5.1 Table 5-6 MTU: read from the Data Streaming Logical Layer Control CSR when a PDU starts; a PDU keeps its MTU to its end', () => {
  // TM types 0b1000, mode 0, MTU 0x08 (32 bytes): 0x80000008.
  const regs = new RegisterSpace([dsInfoRegister(65536, 1), dsControlRegister(0x80000008)]);
  const s = new Segmenter({ registers: regs });
  assert.equal(s.mtu(), 32);
  s.handle(pdu(1, '0A', 1, 100), 0);
  s.handle(pdu(1, '0A', 2, 100), 0);
  const first = s.handle(pull(1, '0A'), 0);
  assert.equal(first[0]?.kind === 'pdu-started' ? first[0].mtu : 0, 32);
  setMtuBytes(regs, 64);
  const rest = drain(s, 1, '0A');
  assert.deepEqual(sends(rest).map((p) => p.payload.length), [32, 32, 4]);
  const second = drain(s, 1, '0A');
  assert.deepEqual(sends(second).map((p) => p.payload.length), [64, 36]);
  assert.equal(s.snapshot()['mtuSource'], 'register');
});

test('Part 10 §5.5.1 Table 5-6 (decision): while the MTU register holds a reserved encoding no PDU starts (idle mtu-reserved)', () => {
  const regs = new RegisterSpace([dsControlRegister(0x80000040)]);
  const s = new Segmenter({ registers: regs });
  s.handle(pdu(1, '0A', 1, 300), 0);
  s.handle(pull(1, '0A'), 0);
  // A MAINTENANCE write of encoding 0x07 is stored as written (data-streaming.ts).
  regs.writeWord(DS_CONTROL_OFFSET, 0x80000007);
  assert.equal(s.mtu(), null);
  s.handle(pdu(1, '0B', 2, 10), 0);
  // The started PDU goes on with the MTU it started with; the new one waits.
  assert.deepEqual(sends(s.handle(pull(1, '0A'), 0)).map((p) => p.payload.length), [44]);
  assert.deepEqual(kinds(s.handle(pull(1, '0B'), 0)), ['idle:mtu-reserved']);
  assert.deepEqual(kinds(s.handle({ kind: 'pull-any' }, 0)), ['idle:mtu-reserved']);
  setMtuBytes(regs, 32);
  assert.deepEqual(kinds(s.handle(pull(1, '0B'), 0)), ['pdu-started', 'send:single', 'pdu-done']);
});

test('Part 10 §2.4, Part 6 Table 2-2: PDUs on flows 1A–8A go on VC1–VC8 and every segment of a PDU shares cos, prio, CRF and VC', () => {
  const s = new Segmenter({ mtu: 32, tt: 1, sourceID: 0x0102 });
  for (let n = 1; n <= 8; n++) s.handle(pdu(0x0300 + n, `${n}A` as FlowIdLabel, n, 80, { cos: 0x40 + n }), 0);
  const out = s.handle({ kind: 'pull-any', max: 100 }, 0);
  const packets = sends(out);
  assert.equal(packets.length, 24);
  for (const p of packets) {
    const n = p.destinationID - 0x0300;
    assert.deepEqual([p.vc, packetChannel(p.vc, p.prio, p.crf, 8), p.cos, p.sourceID, p.tt], [1, n, 0x40 + n, 0x0102, 1]);
  }
});

test('Part 10 §3.2.5 rule 2 (decision, pull pacing): with max, one pull gives up to max segments, crossing into the flow\'s next PDU', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle(pdu(1, '0A', 1, 64), 0);
  s.handle(pdu(1, '0A', 2, 10), 0);
  const out = s.handle({ kind: 'pull', destinationID: 1, flowID: '0A', max: 10 }, 0);
  assert.deepEqual(kinds(out), ['pdu-started', 'send:start', 'send:end', 'pdu-done', 'pdu-started', 'send:single', 'pdu-done']);
  assert.deepEqual(kinds(s.handle({ kind: 'pull', destinationID: 1, flowID: '0A', max: 10 }, 0)), ['idle:empty']);
});

test('Part 10 §4.2 Table 4-1 length: a 65536-byte PDU through the engine ends with length 0x0000', () => {
  const s = new Segmenter({ mtu: 256 });
  s.handle(pdu(1, '0A', 1, 65536), 0);
  const out = s.handle({ kind: 'pull', destinationID: 1, flowID: '0A', max: 1000 }, 0);
  const p = sends(out);
  assert.equal(p.length, 256);
  const end = p[255]!;
  assert.deepEqual(end.segment === 'end' ? [end.length, end.pduLength] : [], [0, 65536]);
});

test('riodp engine contract: bad pulls, aborts and settings are counted events, never exceptions', () => {
  const s = new Segmenter();
  const bad: unknown[] = [
    { kind: 'pull', destinationID: 1, flowID: 'ZZ' },
    { kind: 'pull', destinationID: -1, flowID: '0A' },
    { kind: 'pull', destinationID: 1, flowID: '0A', max: 0 },
    { kind: 'pull-any', max: 1.5 },
    { kind: 'abort', destinationID: 'x', flowID: '0A' },
    { kind: 'set-max-pdu', destinationID: 1, maxPdu: 0 },
    { kind: 'set-max-pdu', destinationID: 1, maxPdu: 65537 },
    { kind: 'nonsense' },
  ];
  for (const input of bad) {
    const out = s.handle(input as SegmenterInput, 0);
    assert.deepEqual(out.map((o) => (o.kind === 'event' ? o.name : o.kind)), ['invalid-input'], JSON.stringify(input));
  }
  assert.equal(s.counters().invalidInputs, bad.length);
});

test('riodp engine contract: snapshot is JSON-serialisable and shows active and waiting PDUs; counters() is a copy', () => {
  const s = new Segmenter({ mtu: 32, maxPdu: { 2: 500 } });
  s.handle(pdu(2, '0A', 1, 100, { id: 'p' }), 10);
  s.handle(pdu(2, '0A', 2, 10), 20);
  s.handle(pull(2, '0A'), 30);
  const snap = s.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  assert.deepEqual(snap['flows'], [{
    destinationID: 2,
    flowID: '0A',
    active: { seq: 1, id: 'p', destinationID: 2, flowID: '0A', cos: 0, streamID: 1, length: 100, queuedAt: 10, startedAt: 30, mtu: 32, bytesSent: 32, aborting: false },
    waiting: [{ seq: 2, destinationID: 2, flowID: '0A', cos: 0, streamID: 2, length: 10, queuedAt: 20 }],
  }]);
  assert.deepEqual(snap['maxPdu'], [{ destinationID: 2, maxPdu: 500 }]);
  const c = s.counters();
  c.pulls = 99;
  assert.equal(s.counters().pulls, 1);
});

test('riodp engine contract: the constructor refuses bad configuration with a RangeError naming the field', () => {
  const regs = new RegisterSpace([dsControlRegister(0x80000040)]);
  const cases: [unknown, RegExp][] = [
    [{ mtu: 30 }, /^mtu /],
    [{ mtu: 258 }, /^mtu /],
    [{ mtu: 64, registers: regs }, /^mtu must be absent/],
    [{ registers: new RegisterSpace() }, /^registers must define/],
    [{ registers: {} }, /^registers must be a RegisterSpace/],
    [{ tt: 3 }, /^tt /],
    [{ sourceID: 256 }, /^sourceID /],
    [{ maxPdu: { 256: 10 } }, /^maxPdu keys/],
    [{ maxPdu: { x: 10 } }, /^maxPdu keys/],
    [{ maxPdu: { 1: 0 } }, /^maxPdu\.1 /],
    [{ maxPdu: [1] }, /^maxPdu must be a mapping/],
    [{ defaultMaxPdu: 65537 }, /^defaultMaxPdu /],
    [{ crfSupported: 'yes' }, /^crfSupported /],
  ];
  for (const [config, re] of cases) {
    assert.throws(() => new Segmenter(config as SegmenterConfig), (e: unknown) => e instanceof RangeError && re.test(e.message), JSON.stringify(config));
  }
  assert.equal(new Segmenter().mtu(), 256);
});
