import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import { DEFAULT_MAX_FRAME_SIZE, FrameReader, MAX_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE } from './frame-reader.ts';
import { CLOSE_REASON, closeFrame, encodeFrame, frameLength, helloFrame } from './frame.ts';
import type { Frame } from './frame.ts';
import { toHex } from './hex.ts';

function enc(...frames: Frame[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + frameLength(f), 0));
  frames.reduce((at, f) => encodeFrame(f, out, at), 0);
  return out;
}

/** Pushes `chunks` and collects each frame's bytes with the buffer it arrived in. */
function collect(r: FrameReader, chunks: Uint8Array[]): { hex: string[]; views: { bytes: Uint8Array; offset: number; end: number }[] } {
  const views: { bytes: Uint8Array; offset: number; end: number }[] = [];
  for (const c of chunks) {
    r.push(c, (bytes, offset, end) => {
      views.push({ bytes, offset, end });
    });
  }
  return { hex: views.map((v) => toHex(v.bytes.subarray(v.offset, v.end))), views };
}

const A = closeFrame(CLOSE_REASON.normal, 'first');
const B = helloFrame();
const C = { kind: 0x42, kindName: 'RESERVED', body: new Uint8Array(40).fill(7) } as const;

test('riodp link §2: frames coalesced in one chunk come out one by one, as views of that chunk', () => {
  const stream = enc(A, B, C);
  const r = new FrameReader();
  const { hex, views } = collect(r, [stream]);
  assert.deepEqual(hex, [toHex(enc(A)), toHex(enc(B)), toHex(enc(C))]);
  assert.ok(views.every((v) => v.bytes === stream));
  assert.equal(r.buffered, 0);
  assert.equal(r.position, stream.length);
});

test('riodp link §2: a frame split over chunks, even one byte at a time, is gathered into a buffer of exactly its size', () => {
  const stream = enc(A, B, C);
  const r = new FrameReader();
  const bytes = [...stream].map((b) => Uint8Array.of(b));
  const { hex, views } = collect(r, bytes);
  assert.deepEqual(hex, [toHex(enc(A)), toHex(enc(B)), toHex(enc(C))]);
  for (const v of views) assert.equal(v.bytes.length, v.end - v.offset);
  assert.notEqual(views[0]!.bytes.buffer, views[1]!.bytes.buffer);
});

test('riodp link §2: a chunk may end after the first byte of the length field', () => {
  const stream = enc(A, B);
  const cut = frameLength(A) + 1;
  const r = new FrameReader();
  const { hex } = collect(r, [stream.subarray(0, cut), stream.subarray(cut)]);
  assert.deepEqual(hex, [toHex(enc(A)), toHex(enc(B))]);
  assert.equal(r.buffered, 0);
});

test('riodp link §2, issue 8 §3 "Frame size limits": a frame larger than maxFrameSize is fatal; frames before it are delivered', () => {
  const r = new FrameReader({ maxFrameSize: 300 });
  const good = enc(A);
  const stream = new Uint8Array(good.length + 4);
  stream.set(good);
  stream.set([0x01, 0x2b, 0x01, 0x00], good.length); // length 299 → a frame of 301 bytes
  const seen: string[] = [];
  const consumed = r.push(stream, (b, o, e) => seen.push(toHex(b.subarray(o, e))));
  assert.deepEqual(seen, [toHex(good)]);
  assert.equal(consumed, good.length);
  assert.ok(r.error instanceof WireError && r.error.code === 'range' && r.error.field === 'length' && r.error.offset === good.length);
  assert.equal(r.push(enc(B), () => assert.fail('a failed reader reads nothing more')), 0);
  assert.equal(r.buffered, 0);
});

test('riodp link §2: a frame of exactly maxFrameSize is accepted', () => {
  const r = new FrameReader({ maxFrameSize: MIN_MAX_FRAME_SIZE });
  const f = { kind: 0x42, kindName: 'RESERVED', body: new Uint8Array(MIN_MAX_FRAME_SIZE - 3) } as const;
  const { hex } = collect(r, [enc(f)]);
  assert.equal(hex.length, 1);
  assert.equal(r.error, null);
});

test('riodp link §2: an oversize length whose two bytes straddle chunks is reported at the first of them', () => {
  const r = new FrameReader();
  r.push(enc(B), () => undefined);
  r.push(Uint8Array.of(0xff), () => undefined);
  assert.equal(r.buffered, 1);
  assert.equal(r.push(Uint8Array.of(0xff, 0, 0), () => undefined), 0);
  assert.equal(r.error?.offset, frameLength(B));
  assert.equal(r.error.code, 'range');
});

test('riodp link §2: a length of 0 is fatal (invalid), not skipped', () => {
  const r = new FrameReader();
  const stream = new Uint8Array([...enc(B), 0, 0, ...enc(A)]);
  const seen: string[] = [];
  r.push(stream, (b, o, e) => seen.push(toHex(b.subarray(o, e))));
  assert.deepEqual(seen, [toHex(enc(B))]);
  assert.ok(r.error instanceof WireError && r.error.code === 'invalid' && r.error.offset === frameLength(B));
});

test('riodp link §4.4: a sink returning false stops after that frame; the rest of the chunk is pushed later', () => {
  const stream = enc(A, B, C);
  const r = new FrameReader();
  const seen: string[] = [];
  const consumed = r.push(stream, (b, o, e) => {
    seen.push(toHex(b.subarray(o, e)));
    return false;
  });
  assert.equal(consumed, frameLength(A));
  assert.equal(r.buffered, 0);
  r.push(stream.subarray(consumed), (b, o, e) => seen.push(toHex(b.subarray(o, e))));
  assert.deepEqual(seen, [toHex(enc(A)), toHex(enc(B)), toHex(enc(C))]);
});

test('riodp link §2: maxFrameSize must hold the largest packet frame and fit the 16-bit length', () => {
  assert.equal(new FrameReader().maxFrameSize, DEFAULT_MAX_FRAME_SIZE);
  assert.equal(MIN_MAX_FRAME_SIZE, 287);
  assert.equal(MAX_MAX_FRAME_SIZE, 65537);
  assert.throws(() => new FrameReader({ maxFrameSize: 286 }), /^RangeError: maxFrameSize must be an integer from 287 to 65537$/);
  assert.throws(() => new FrameReader({ maxFrameSize: 65538 }), RangeError);
  assert.throws(() => new FrameReader({ maxFrameSize: 500.5 }), RangeError);
});
