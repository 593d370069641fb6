/** issue 17 (fast data lane, transmit): frames written in place into the send batch (SendBatch.reserve/commit, Link.fill). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { FakeSocket } from '../../test/support/fake-socket.ts';
import { cs48Frame } from '../wire/frame.ts';
import { toHex } from '../wire/hex.ts';
import { Link } from './link.ts';
import { SendBatch } from './send-batch.ts';

function fakeSocket(): { destroyed: boolean; writes: Uint8Array[]; write(c: Uint8Array): boolean } {
  return {
    destroyed: false,
    writes: [],
    write(c) {
      this.writes.push(c);
      return true;
    },
  };
}

const sym = cs48Frame({ link: 'cs48', stype0: 3, parameter0: 21, parameter1: 5, stype1: 0, cmd: 0, stype2: 0 });
const SYM = '0007026a8a000017f7';
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Writes `n` copies of the 9-byte symbol frame at buf[at…]. */
function writeSyms(buf: Uint8Array, at: number, n: number): number {
  buf.set(Buffer.from(SYM.repeat(n), 'hex'), at);
  return 9 * n;
}

test('issue 17, riodp link §4.4: frames committed in place leave in order with added ones, in the same socket write, and count as frames', async () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 1024);
  b.add(sym);
  const at = b.reserve(100);
  assert.equal(at, 9);
  b.commit(writeSyms(b.buffer, at, 3), 3);
  b.add(sym);
  await tick();
  assert.equal(s.writes.length, 1);
  assert.equal(toHex(s.writes[0]!), SYM.repeat(5));
  assert.equal(b.frames, 5);
  assert.equal(b.bytes, 45);
});

test('issue 17, riodp link §4.4: reserve flushes the batch when less than the room asked for is free, so no batch grows past its size', () => {
  const s = fakeSocket();
  const b = new SendBatch(s, 100);
  b.commit(writeSyms(b.buffer, b.reserve(50), 6), 6);
  assert.equal(s.writes.length, 0);
  assert.equal(b.reserve(50), 0);
  assert.equal(s.writes.length, 1);
  assert.equal(s.writes[0]!.length, 54);
  b.commit(0, 0);
  b.flush();
  assert.equal(s.writes.length, 1);
});

test('issue 17: Link.fill hands the writer the send batch after what is queued, counts its frames out, and refuses while the link is not writable', async () => {
  const socket = new FakeSocket();
  const link = new Link(socket as unknown as Socket, {}, { sendBatchBytes: 4096 });
  const before = link.framesOut;
  let budget = -1;
  const n = link.fill((buf, at, room) => {
    budget = room;
    return writeSyms(buf, at, 4);
  }, 300);
  assert.equal(n, 36);
  assert.equal(budget, 4096 - 8, 'the HELLO frame (8 bytes) is ahead of it');
  assert.equal(link.framesOut, before + 4);
  assert.equal(link.fill(() => -1, 300), -1);
  assert.equal(link.framesOut, before + 4);
  await tick();
  assert.ok(toHex(Buffer.concat(socket.written)).endsWith(SYM.repeat(4)));
  link.destroy();
  let called = false;
  assert.equal(link.fill(() => { called = true; return 0; }, 300), -1);
  assert.equal(called, false);
});
