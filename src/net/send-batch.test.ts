import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../wire/errors.ts';
import { FRAME_KIND, cs48Frame, helloFrame } from '../wire/frame.ts';
import { toHex } from '../wire/hex.ts';
import { SendBatch } from './send-batch.ts';

/** A socket that records writes and accepts more until told otherwise. */
function fakeSocket(): { destroyed: boolean; accept: boolean; writes: Uint8Array[]; write(c: Uint8Array): boolean } {
  return {
    destroyed: false,
    accept: true,
    writes: [],
    write(c) {
      this.writes.push(c);
      return this.accept;
    },
  };
}

const sym = cs48Frame({ link: 'cs48', stype0: 3, parameter0: 21, parameter1: 5, stype1: 0, cmd: 0, stype2: 0 });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('riodp link §4.4: frames queued in one turn of the event loop leave in one socket write, in order', async () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 1024);
  b.add(helloFrame());
  for (let i = 0; i < 10; i++) b.add(sym);
  assert.equal(s.writes.length, 0);
  await tick();
  assert.equal(s.writes.length, 1);
  assert.equal(toHex(s.writes[0]!), '00061052494f4401' + '0007026a8a000017f7'.repeat(10));
  assert.equal(b.frames, 11);
  assert.equal(b.bytes, 8 + 10 * 9);
});

test('riodp link §4.4: a full batch is written at once, so no batch grows past its size', () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 300);
  for (let i = 0; i < 40; i++) b.add(sym);
  assert.ok(s.writes.length >= 1);
  assert.ok(s.writes.every((w) => w.length <= 300 && w.length % 9 === 0));
  b.flush();
  assert.equal(s.writes.reduce((n, w) => n + w.length, 0), 40 * 9);
});

test('riodp link §4.4: a write the socket refuses marks the batch blocked until drained()', () => {
  const s = fakeSocket();
  s.accept = false;
  const b = new SendBatch(s, 1024);
  b.add(sym);
  b.flush();
  assert.equal(b.blocked, true);
  b.drained();
  assert.equal(b.blocked, false);
});

test('riodp link §4.3: after the peer closed, discard() drops what is queued; a destroyed socket gets nothing', async () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 1024);
  b.add(sym);
  b.discard();
  await tick();
  assert.equal(s.writes.length, 0);
  b.add(sym);
  s.destroyed = true;
  b.flush();
  assert.equal(s.writes.length, 0);
});

test('riodp link §3.6: a frame that does not encode throws its WireError and leaves the batch as it was', async () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 1024);
  b.add(sym);
  assert.throws(() => { b.add({ kind: FRAME_KIND.hello, kindName: 'RESERVED', body: new Uint8Array(1) }); }, WireError);
  assert.throws(() => { b.add(helloFrame(300)); }, WireError);
  await tick();
  assert.equal(toHex(s.writes[0]!), '0007026a8a000017f7');
  assert.equal(b.frames, 1);
});

test('issue 17: fill(budget, write) hands the writer the free end of the batch, counts the whole frames it wrote and sends them in the same socket write as the frames added before', async () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 1024);
  b.add(sym);
  const wrote = b.fill(100, (buf, at, free) => {
    assert.equal(at, 9);
    assert.equal(free, 1024 - 9);
    // Two CS48 frames (docs/net-framing.md §2: length 7, kind 0x02, six body bytes) written in place.
    buf.set([0, 7, 2, 0x6a, 0x8a, 0, 0, 0x17, 0xf7, 0, 7, 2, 0x6a, 0x8a, 0, 0, 0x17, 0xf7], at);
    return 18;
  });
  assert.equal(wrote, 18);
  assert.equal(b.frames, 3);
  await tick();
  assert.equal(s.writes.length, 1);
  assert.equal(toHex(s.writes[0]!), '0007026a8a000017f7'.repeat(3));
});

test('issue 17: fill flushes first when fewer than `budget` bytes are free (budget clamped to the batch size), and a writer that writes nothing adds nothing', () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 300);
  for (let i = 0; i < 30; i++) b.add(sym);
  let offered = -1;
  assert.equal(b.fill(100, (_buf, at, free) => { offered = free; assert.equal(at, 0); return 0; }), 0);
  assert.equal(offered, 300);
  assert.equal(s.writes.length, 1);
  assert.equal(s.writes[0]!.length, 270);
  // A budget beyond the batch means "all of it": an empty batch is not flushed again.
  assert.equal(b.fill(5000, (_buf, _at, free) => { offered = free; return 0; }), 0);
  assert.equal(offered, 300);
  assert.equal(b.frames, 30);
  b.flush();
  assert.equal(s.writes.length, 1);
});

test('issue 17: a fill whose writer returns a bad count, stops inside a frame, or throws leaves the batch as it was', () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 1024);
  b.add(sym);
  assert.throws(() => b.fill(10, () => 2000), RangeError);
  assert.throws(() => b.fill(10, () => -1), RangeError);
  assert.throws(() => b.fill(10, (buf, at) => { buf.set([0, 7, 2, 0x6a], at); return 4; }), RangeError);
  assert.throws(() => b.fill(10, () => { throw new Error('writer'); }), /writer/);
  b.flush();
  assert.equal(toHex(s.writes[0]!), '0007026a8a000017f7');
  assert.equal(b.frames, 1);
});

test('issue 17 buffer lifetime: a written batch is reused only after the socket says it is done with it, and no chunk the socket still holds is ever written again', () => {
  const chunks: { bytes: Uint8Array; copy: string; done: (() => void) | undefined }[] = [];
  const socket = {
    destroyed: false,
    write(c: Uint8Array, done?: () => void): boolean {
      chunks.push({ bytes: c, copy: toHex(c), done });
      return true;
    },
  };
  const b = new SendBatch(socket, 64);
  const frame = (i: number): ReturnType<typeof cs48Frame> => cs48Frame({ link: 'cs48', stype0: 3, parameter0: i & 63, parameter1: 5, stype1: 0, cmd: 0, stype2: 0 });
  const held = (): void => {
    for (const c of chunks) if (c.done !== undefined) assert.equal(toHex(c.bytes), c.copy, 'a chunk the socket holds is unchanged');
  };
  for (let i = 0; i < 40; i++) {
    b.add(frame(i));
    b.flush();
    held();
    // The socket finishes every other chunk: those buffers may be filled again, the others never.
    const c = chunks.at(-1);
    if (c !== undefined && i % 2 === 0) {
      c.done?.();
      c.done = undefined;
    }
  }
  held();
  const buffers = new Set(chunks.map((c) => c.bytes.buffer));
  assert.ok(buffers.size < chunks.length, 'finished batches are reused');
  assert.equal(chunks.length, 40);
});
