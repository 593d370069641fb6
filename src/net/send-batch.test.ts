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
