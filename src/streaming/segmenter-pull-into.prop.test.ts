import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { DS_CONTROL_OFFSET, dsControlRegister } from '../registers/data-streaming.ts';
import { RegisterSpace } from '../registers/space.ts';
import { crc16Packets, crc16PacketsOpen } from '../wire/crc16.ts';
import { decodeFrame, encodeFrame, packetFrame } from '../wire/frame.ts';
import type { Type9Packet } from '../wire/type9.ts';
import { Segmenter } from './segmenter.ts';
import type { SegmenterInput } from './segmenter-types.ts';

/**
 * Issue 17, transmit side: `Segmenter.pullInto` against the golden model, the object path
 * (`handle` pull-any, then `encodeFrame(packetFrame(packet))`), byte for byte, with the same
 * state and counters after. Runs scale with FC_RUNS (200 by default; the file runs in < 2 s).
 */
const RUNS = Math.max(1, Math.ceil(FC_RUNS / 500));
const FLOWS: readonly FlowIdLabel[] = ['0A', '0C', '0F', '1A', '3A', '8A'];

const opArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('pull' as const), budget: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 4000 })), now: fc.integer({ min: 0, max: 1000 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('pdu' as const), d: fc.integer({ min: 0, max: 2 }), f: fc.integer({ min: 0, max: FLOWS.length - 1 }), s: fc.integer({ min: 0, max: 2 }), n: fc.oneof(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 65000, max: 65536 })) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('abort' as const), d: fc.integer({ min: 0, max: 2 }), f: fc.integer({ min: 0, max: FLOWS.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('gate' as const), d: fc.integer({ min: 0, max: 2 }), f: fc.integer({ min: 0, max: FLOWS.length - 1 }), stopped: fc.boolean() }) },
  // Part 10 §5.5.1: an MTU written mid-run (issue 18 item 5 b); a started PDU keeps its MTU on both paths.
  { weight: 1, arbitrary: fc.record({ op: fc.constant('set-mtu' as const), mtu: fc.integer({ min: 8, max: 64 }).map((u) => u * 4) }) },
);

const caseArb = fc.record({
  tt: fc.integer({ min: 0, max: 2 }),
  id: fc.integer({ min: 0, max: 0xffffffff }),
  mtu: fc.integer({ min: 8, max: 64 }).map((u) => u * 4),
  crfSupported: fc.boolean(),
  cos: fc.integer({ min: 0, max: 255 }),
  offset: fc.integer({ min: 0, max: 5 }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 30 }),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const SENTINEL = 0xa5;

/** Frames in buf[from, to): their count (every frame a whole PACKET frame). */
function frameCount(buf: Uint8Array, from: number, to: number): number {
  let k = 0;
  for (let at = from; at < to; k++) at += 2 + (((buf[at] as number) << 8) | (buf[at + 1] as number));
  return k;
}

function runCase(c: Case): void {
  const mask = c.tt === 0 ? 0xff : c.tt === 1 ? 0xffff : 0xffffffff;
  const sourceID = (c.id & mask) >>> 0;
  const dests = [0, 1, 2].map((d) => ((c.id * (d + 3) + d) & mask) >>> 0);
  const config = { tt: c.tt, sourceID, mtu: c.mtu, crfSupported: c.crfSupported };
  const fast = new Segmenter(config);
  const gold = new Segmenter(config);
  const both = (input: SegmenterInput): void => {
    fast.handle(input, 0);
    gold.handle(input, 0);
  };
  let seq = 0;
  for (const o of c.ops) {
    if (o.op === 'pdu') {
      const payload = new Uint8Array(o.n);
      for (let i = 0; i < o.n; i++) payload[i] = (i * 7 + seq) & 0xff;
      seq++;
      both({ kind: 'pdu', destinationID: dests[o.d] as number, cos: c.cos, streamID: o.s, flowID: FLOWS[o.f] as FlowIdLabel, payload });
    } else if (o.op === 'abort') {
      both({ kind: 'abort', destinationID: dests[o.d] as number, flowID: FLOWS[o.f] as FlowIdLabel });
    } else if (o.op === 'gate') {
      both({ kind: 'gate', destinationID: dests[o.d] as number, flowID: FLOWS[o.f] as FlowIdLabel, stopped: o.stopped });
    } else if (o.op === 'set-mtu') {
      both({ kind: 'set-mtu', mtu: o.mtu });
    } else {
      const buf = new Uint8Array(c.offset + o.budget + 300).fill(SENTINEL);
      const idle = fast.counters().idlePulls;
      const wrote = fast.pullInto(buf, c.offset, o.budget, o.now);
      // Never past offset + budget, never before offset.
      assert.ok(wrote <= o.budget);
      for (let i = 0; i < c.offset; i++) assert.equal(buf[i], SENTINEL);
      for (let i = c.offset + wrote; i < buf.length; i++) assert.equal(buf[i], SENTINEL, `byte ${i} past the frames written`);
      const k = frameCount(buf, c.offset, c.offset + wrote);
      const want = new Uint8Array(wrote + 300);
      let at = 0;
      if (k > 0 || fast.counters().idlePulls > idle) {
        const outs = gold.handle({ kind: 'pull-any', max: Math.max(1, k) }, o.now);
        for (const out of outs) if (out.kind === 'send') at = encodeFrame(packetFrame(out.packet), want, at);
      }
      assert.equal(at, wrote, 'bytes of the object path');
      assert.deepEqual(buf.subarray(c.offset, c.offset + wrote), want.subarray(0, at));
      // It stopped before a frame that does not fit: the rest of the budget takes none (or there is none to send).
      const before = fast.counters();
      assert.equal(fast.pullInto(new Uint8Array(o.budget - wrote), 0, o.budget - wrote, o.now), 0);
      if (fast.counters().idlePulls > before.idlePulls) gold.handle({ kind: 'pull-any' }, o.now);
    }
    assert.deepEqual(fast.counters(), gold.counters());
    assert.deepEqual(fast.snapshot(), gold.snapshot());
  }
}

test('issue 17, Part 10 §3.2.5 segmentation rules 1–9, Part 6 §2.4.1/§2.4.2 CRC and early CRC, riodp link §3.1: pullInto writes, byte for byte, the PACKET frames of the segments pull-any gives, and leaves the same state and counters, for random PDUs, MTUs (changed mid-run too), tt, destinations, flows, gates, aborts and budgets', () => {
  fc.assert(fc.property(caseArb, (c) => {
    runCase(c);
  }), fcParams(RUNS));
});

test('issue 17: pullInto stops before a frame that does not fit; the bytes decode as the object path\'s segments with good CRCs', () => {
  const s = new Segmenter({ tt: 1, sourceID: 0x1234, mtu: 256 });
  const payload = new Uint8Array(1000).map((_, i) => i & 0xff);
  s.handle({ kind: 'pdu', destinationID: 0x0102, cos: 9, streamID: 77, flowID: '1A', payload }, 0);
  const buf = new Uint8Array(2000);
  // Dev16 IDs, 256-byte segments, two CRCs: a start segment is 266 logical bytes, 272 with CRCs and
  // pad, a 275-byte frame; a continuation 264, 268, a 271-byte frame.
  assert.equal(s.pullInto(buf, 0, 274), 0);
  assert.deepEqual(s.counters().pulls, 0);
  assert.equal(s.pullInto(buf, 0, 275 + 271 + 270), 275 + 271);
  const frames: Type9Packet[] = [];
  for (const [at, end] of [[0, 275], [275, 546]] as const) {
    const f = decodeFrame(buf, at, end, { strict: true });
    if (f.kindName !== 'packet') assert.fail(`a ${f.kindName} frame`);
    frames.push(f.packet as Type9Packet);
  }
  assert.deepEqual(frames.map((p) => p.segment), ['start', 'continuation']);
  const cont = frames[1];
  assert.ok(cont !== undefined && cont.segment === 'continuation');
  assert.deepEqual(cont.payload, payload.subarray(256, 512));
  const used = s.pullInto(buf, 0, 2000);
  assert.equal(frameCount(buf, 0, used), 2);
  assert.equal(s.counters().pdusDone, 1);
  assert.equal(s.pullInto(buf, 0, 2000), 0);
  assert.equal(s.counters().idlePulls, 1);
});

test('issue 17: pullInto refuses an offset outside the buffer or a negative budget; the budget is clamped to the buffer', () => {
  const s = new Segmenter();
  s.handle({ kind: 'pdu', destinationID: 1, cos: 0, streamID: 0, flowID: '0A', payload: new Uint8Array(10) }, 0);
  assert.throws(() => s.pullInto(new Uint8Array(8), 9, 1), RangeError);
  assert.throws(() => s.pullInto(new Uint8Array(8), 0, -1), RangeError);
  assert.equal(s.pullInto(new Uint8Array(20), 4, 1000), 0);
  assert.equal(s.pullInto(new Uint8Array(23), 0, 1000), 23);
});

test('issue 17, Part 6 §2.4.1: a whole 64 KiB PDU in one pullInto (frames past the ~55 KiB CRC staging window) equals the object path; crc16PacketsOpen equals crc16Packets once the early CRC is written', () => {
  const config = { tt: 2, sourceID: 0x01020304, mtu: 252 };
  const fast = new Segmenter(config);
  const gold = new Segmenter(config);
  const payload = new Uint8Array(65536).map((_, i) => (i * 13) & 0xff);
  for (const s of [fast, gold]) s.handle({ kind: 'pdu', destinationID: 0xfffffffe, cos: 3, streamID: 9, flowID: '8A', payload }, 0);
  const buf = new Uint8Array(80000);
  const wrote = fast.pullInto(buf, 7, 79000);
  const want = new Uint8Array(80000);
  let at = 0;
  for (const o of gold.handle({ kind: 'pull-any', max: 1000 }, 0)) if (o.kind === 'send') at = encodeFrame(packetFrame(o.packet), want, at);
  assert.equal(wrote, at);
  assert.ok(Buffer.from(buf.subarray(7, 7 + wrote)).equals(want.subarray(0, at)));
  assert.deepEqual(fast.snapshot(), gold.snapshot());
  // The same CRCs from the written frames, by the receive side's crc16Packets.
  const count = frameCount(want, 0, at);
  const starts = new Uint32Array(count);
  const lens = new Uint16Array(count);
  let q = 0;
  for (let i = 0; i < count; i++) {
    const frame = 2 + (((want[q] as number) << 8) | (want[q + 1] as number));
    starts[i] = q + 3;
    // Dev32 logical bytes: the start segment 2 + 8 + 4 + 252, continuations 2 + 8 + 2 + 252 (the end, 30, is left out).
    lens[i] = i === 0 ? 266 : 264;
    q += frame;
  }
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  crc16Packets(want, starts, lens, count - 1, a);
  crc16PacketsOpen(want, starts, lens, count - 1, b);
  assert.deepEqual(b, a);
});

test('issue 17, Part 10 §5.5.1 Table 5-6: pullInto cuts with the MTU register read when a PDU starts; while it holds a reserved encoding a started PDU goes on and no PDU starts, as with pull-any', () => {
  const space = (): RegisterSpace => new RegisterSpace([dsControlRegister(0x80000008)]);
  const fastRegs = space();
  const goldRegs = space();
  const fast = new Segmenter({ registers: fastRegs });
  const gold = new Segmenter({ registers: goldRegs });
  const payload = new Uint8Array(100).map((_, i) => i);
  const both = (input: SegmenterInput): void => {
    fast.handle(input, 0);
    gold.handle(input, 0);
  };
  both({ kind: 'pdu', destinationID: 1, cos: 0, streamID: 0, flowID: '0A', payload });
  const buf = new Uint8Array(1000);
  const want = new Uint8Array(1000);
  // One 32-byte segment (8 + 32 + 2 bytes, a 47-byte frame with its pad), then the encoding 0x07.
  assert.equal(fast.pullInto(buf, 0, 47), 47);
  gold.handle({ kind: 'pull-any' }, 0);
  for (const r of [fastRegs, goldRegs]) r.writeWord(DS_CONTROL_OFFSET, 0x80000007);
  both({ kind: 'pdu', destinationID: 1, cos: 0, streamID: 1, flowID: '0B', payload });
  const wrote = fast.pullInto(buf, 0, 1000);
  let at = 0;
  for (const o of gold.handle({ kind: 'pull-any', max: 3 }, 0)) if (o.kind === 'send') at = encodeFrame(packetFrame(o.packet), want, at);
  assert.equal(wrote, at);
  assert.deepEqual(buf.subarray(0, wrote), want.subarray(0, at));
  assert.equal(fast.pullInto(buf, 0, 1000), 0);
  assert.deepEqual(gold.handle({ kind: 'pull-any' }, 0), [{ kind: 'idle', reason: 'mtu-reserved' }]);
  assert.deepEqual(fast.counters(), gold.counters());
  assert.deepEqual(fast.snapshot(), gold.snapshot());
});
