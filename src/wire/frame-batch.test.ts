import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc16Bitwise, crc16Packets } from './crc16.ts';
import { FRAME_DEFECT, FrameBatch, T9_FLAG, parseFrameBatch } from './frame-batch.ts';
import { FRAME_KIND, decodeFrame, encodeFrame, packetFrame } from './frame.ts';
import type { Type9StartPacket } from './type9.ts';

// Dev32 single segment, 256 payload bytes: 270 logical bytes, early and final CRC, pad: a
// 276-byte serial packet in a 279-byte frame (Part 6 §2.5, DECISIONS §1).
function maxType9(i: number): Type9StartPacket {
  const payload = new Uint8Array(256).map((_, k) => (k * 31 + i) & 0xff);
  return {
    ackID: i & 63, vc: 0, crf: 1, prio: 2, tt: 2, ftype: 9, destinationID: 0x01020304 + i, sourceID: 0x0a0b0c0d,
    cos: 0x5a, start: 1, end: 1, xh: 0, segment: 'single', rsrv: 0, streamID: 0x1234 + i, payload,
  };
}

function frames(count: number): Uint8Array {
  const out = new Uint8Array(279 * count);
  let at = 0;
  for (let i = 0; i < count; i++) at = encodeFrame(packetFrame(maxType9(i)), out, at);
  return out;
}

test('issue 17: a chunk of max-size Type 9 frames becomes columns read in place (prefix, Dev32 IDs, cos, S/E, streamID, payload view offsets)', () => {
  const chunk = frames(3);
  const batch = new FrameBatch();
  assert.equal(parseFrameBatch(chunk, 0, chunk.length, batch), chunk.length);
  assert.equal(batch.count, 3);
  assert.equal(batch.bad, 0);
  for (let i = 0; i < 3; i++) {
    assert.equal(batch.offset[i], 279 * i);
    assert.equal(batch.length[i], 279);
    assert.equal(batch.kind[i], FRAME_KIND.packet);
    assert.equal(batch.status[i], FRAME_DEFECT.ok);
    assert.deepEqual([batch.ackID[i], batch.vc[i], batch.crf[i], batch.prio[i], batch.tt[i], batch.ftype[i]], [i, 0, 1, 2, 2, 9]);
    assert.equal(batch.destinationID[i], 0x01020304 + i);
    assert.equal(batch.sourceID[i], 0x0a0b0c0d);
    assert.equal(batch.logical[i], 270);
    assert.equal(batch.cos[i], 0x5a);
    assert.equal((batch.t9Flags[i] as number) & (T9_FLAG.start | T9_FLAG.end), T9_FLAG.start | T9_FLAG.end);
    assert.equal(batch.streamID[i], 0x1234 + i);
    // Header 2 + 8 + 2 + 2 = 14 bytes after the frame header; 256 bytes, the early CRC among them.
    assert.equal(batch.payloadOffset[i], 279 * i + 3 + 14);
    assert.equal(batch.payloadLength[i], 256);
  }
});

test('Part 6 §2.4.1 / issue 17: a bad final CRC and a bad early CRC are marked and counted, never thrown; the other frames stay good', () => {
  const chunk = frames(3);
  chunk[279 + 3 + 80] = (chunk[279 + 3 + 80] as number) ^ 1; // frame 1's early CRC
  chunk[2 * 279 + 3 + 272] = (chunk[2 * 279 + 3 + 272] as number) ^ 0x80; // frame 2's final CRC
  const batch = new FrameBatch();
  batch.parse(chunk);
  assert.deepEqual([...batch.status.subarray(0, 3)], [FRAME_DEFECT.ok, FRAME_DEFECT.earlyCrc, FRAME_DEFECT.crc]);
  assert.equal(batch.bad, 2);
  assert.equal(batch.defects[FRAME_DEFECT.earlyCrc], 1);
  assert.equal(batch.defects[FRAME_DEFECT.crc], 1);
});

test('riodp link §2 / issue 17: a trailing partial frame is left unconsumed for the next chunk; a full batch stops before the next frame', () => {
  const chunk = frames(3);
  const batch = new FrameBatch();
  assert.equal(batch.parse(chunk, 0, 2 * 279 + 100), 2 * 279);
  assert.equal(batch.count, 2);
  assert.equal(batch.parse(chunk, 0, 1), 0);
  const small = new FrameBatch({ capacity: 2 });
  assert.equal(small.parse(chunk), 2 * 279);
  assert.equal(small.parse(chunk, 2 * 279), 279);
  assert.equal(small.offset[0], 2 * 279);
});

test('riodp link §2, §4.2: a length of 0 or over the maximum frame size stops the batch with `error`, after the frames before it', () => {
  const chunk = frames(2);
  chunk[279] = 0;
  chunk[280] = 0;
  const batch = new FrameBatch();
  assert.equal(batch.parse(chunk), 279);
  assert.equal(batch.count, 1);
  assert.equal(batch.error?.code, 'invalid');
  assert.equal(batch.error.offset, 279);
  assert.equal(batch.parse(chunk), 0);
  batch.reset();
  const big = frames(1);
  big[0] = 0x04;
  assert.equal(batch.parse(big), 0);
  assert.equal(batch.error.code, 'range');
});

test('issue 17: the batch describes the chunk it was given (offsets, not copies): valid until the caller reuses the chunk', () => {
  const chunk = frames(1);
  const batch = new FrameBatch();
  batch.parse(chunk);
  const at = batch.payloadOffset[0] as number;
  assert.equal(chunk[at], maxType9(0).payload[0]);
  chunk[at] = (chunk[at] as number) ^ 0xff;
  // The column still points at the same byte, which now says something else: the lifetime rule.
  assert.equal(chunk[batch.payloadOffset[0] as number], (maxType9(0).payload[0] as number) ^ 0xff);
});

test('Part 6 §2.4.1 / issue 17: crc16Packets gives the early and final CRCs of every packet of a buffer, as the bit-serial reference', () => {
  const chunk = frames(250); // ~70 KB: more than one staging window of the kernel
  const m = 250;
  const at = new Uint32Array(m).map((_, i) => 279 * i + 3);
  const n = new Uint16Array(m).fill(270);
  const out = new Uint32Array(m);
  crc16Packets(chunk, at, n, m, out);
  for (let i = 0; i < m; i += 7) {
    const a = at[i] as number;
    assert.equal((out[i] as number) >>> 16, crc16Bitwise(chunk, a, a + 80), `early ${i}`);
    assert.equal((out[i] as number) & 0xffff, crc16Bitwise(chunk, a, a + 272), `final ${i}`);
  }
  const short = new Uint16Array(m).fill(40);
  crc16Packets(chunk, at, short, m, out);
  assert.equal(out[249], crc16Bitwise(chunk, at[249] as number, (at[249] as number) + 40));
});

test('Part 10 §3.2.4, Part 6 §2.4.1 / issue 17: a start or continuation of 4k + 2 bytes is found at the other half-word parity, as decodeFrame finds it; damaged, it stays a CRC defect', () => {
  const at = (n: number, k: number): Uint8Array => new Uint8Array(n).map((_, j) => (j * 7 + k) & 0xff);
  const packets: Type9StartPacket[] = [
    // Dev8 start of 62 bytes (no pad at its true layout), Dev16 start of 250 (two CRCs, no pad).
    { ...maxType9(0), tt: 0, destinationID: 5, sourceID: 6, end: 0, segment: 'start', payload: at(62, 1) },
    { ...maxType9(1), tt: 1, destinationID: 0x105, sourceID: 6, end: 0, segment: 'start', payload: at(250, 2) },
  ];
  const chunk = new Uint8Array(600);
  let end = 0;
  for (const p of packets) end = encodeFrame(packetFrame(p), chunk, end);
  const batch = new FrameBatch();
  batch.parse(chunk, 0, end);
  assert.deepEqual([...batch.status.subarray(0, 2)], [FRAME_DEFECT.ok, FRAME_DEFECT.ok]);
  assert.deepEqual([...batch.payloadLength.subarray(0, 2)], [62, 250]);
  for (let i = 0; i < 2; i++) {
    const o = batch.offset[i] as number;
    const f = decodeFrame(chunk, o, o + (batch.length[i] as number));
    assert.equal(f.kindName === 'packet' && f.packet.ftype === 9 && f.packet.segment === 'start' ? f.packet.payload.length : -1, batch.payloadLength[i]);
  }
  chunk[3 + 20] = (chunk[3 + 20] as number) ^ 1;
  batch.parse(chunk, 0, end);
  assert.deepEqual([...batch.status.subarray(0, 2)], [FRAME_DEFECT.crc, FRAME_DEFECT.ok]);
});
