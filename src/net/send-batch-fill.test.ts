/** issue 17 (fast data lane, transmit): frames written in place into the link's send batch (Link.fill over SendBatch.fill, whose own tests are in send-batch.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { FakeSocket } from '../../test/support/fake-socket.ts';
import { toHex } from '../wire/hex.ts';
import { Link } from './link.ts';

const SYM = '0007026a8a000017f7';
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Writes `n` copies of the 9-byte symbol frame at buf[at…]. */
function writeSyms(buf: Uint8Array, at: number, n: number): number {
  buf.set(Buffer.from(SYM.repeat(n), 'hex'), at);
  return 9 * n;
}

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
