/**
 * `recycle` of the Type 9 conveyance (type9-conveyance-types.ts Type9RecycleInput): the receiver
 * gives a delivered PDU back and, with `bufferPool` on, a later multi-segment PDU is reassembled
 * into its memory (Part 10 §3.2.5 rule 2 "transfers the entire payload into the reassembly
 * buffer"). The receiver cannot tell which PDUs came in reusable memory, so the others are passed
 * over and counted, not invalid inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytes } from '../../test/support/type9-segments.ts';
import { carry, feed9, named, node9, pdus } from '../../test/support/type9-link.ts';
import type { Node9 } from '../../test/support/type9-link.ts';

const A = 0x0a;
const B = 0x0b;

function send(a: Node9, b: Node9, length: number, fill: number): Uint8Array {
  const pdu = bytes(length).map((v) => (v + fill) & 0xff);
  feed9(a, { kind: 'send-pdu', to: B, streamID: 7, cos: 0, pdu }, 0);
  carry(a, b, 0);
  const got = pdus(b).at(-1)?.pdu;
  assert.ok(got);
  assert.deepEqual(got, pdu, 'delivered intact');
  return got;
}

test('Part 10 §3.2.5 reassembly rule 2 (bufferPool): a multi-segment PDU given back by `recycle` holds the next multi-segment PDU, intact', () => {
  const a = node9(A);
  const b = node9(B, { bufferPool: 2 });
  const first = send(a, b, 1000, 0);
  feed9(b, { kind: 'recycle', pdu: first }, 0);
  const second = send(a, b, 900, 7);
  assert.equal(second.buffer, first.buffer, 'the recycled memory holds the next PDU');
  assert.equal(b.engine.counters().recycled, 1);
  assert.equal(b.engine.counters().recyclesIgnored, 0);
  assert.equal(b.engine.snapshot().reassembler.bufferPool, 2);
  assert.deepEqual(named(b, 'invalid-input'), []);
});

test('Part 10 §3.2.5 reassembly rule 2 (bufferPool): a single segment\'s PDU, a PDU given back twice, or any PDU while bufferPool is 0 is passed over and counted, never reused', () => {
  const a = node9(A);
  const b = node9(B, { bufferPool: 2 });
  const single = send(a, b, 100, 0);
  feed9(b, { kind: 'recycle', pdu: single }, 0);
  const multi = send(a, b, 600, 1);
  feed9(b, { kind: 'recycle', pdu: multi }, 0);
  feed9(b, { kind: 'recycle', pdu: multi }, 0);
  feed9(b, { kind: 'recycle', pdu: new Uint8Array(600) }, 0);
  assert.deepEqual([b.engine.counters().recycled, b.engine.counters().recyclesIgnored], [1, 3]);
  const next = send(a, b, 600, 2);
  assert.notEqual(next.buffer, single.buffer);
  assert.equal(next.buffer, multi.buffer, 'only the multi-segment PDU came back');

  const off = node9(B);
  const c = node9(A);
  const kept = send(c, off, 600, 3);
  feed9(off, { kind: 'recycle', pdu: kept }, 0);
  assert.deepEqual([off.engine.counters().recycled, off.engine.counters().recyclesIgnored], [0, 1]);
  assert.notEqual(send(c, off, 600, 4).buffer, kept.buffer);
  assert.deepEqual(kept, bytes(600).map((v) => (v + 3) & 0xff), 'a PDU not taken back is never written again');
});

test('Type 9 conveyance `recycle` with something that is not a Uint8Array is an invalid input, counted, and changes nothing', () => {
  const b = node9(B, { bufferPool: 2 });
  for (const pdu of [null, 'x', [1, 2]]) feed9(b, { kind: 'recycle', pdu: pdu as unknown as Uint8Array }, 0);
  assert.deepEqual(named(b, 'invalid-input').map((e) => e['detail']), Array(3).fill('recycle: pdu must be a Uint8Array'));
  assert.deepEqual([b.engine.counters().invalidInputs, b.engine.counters().recycled], [3, 0]);
});
