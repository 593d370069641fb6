import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytes } from '../../test/support/type9-segments.ts';
import { carry, feed9, named, node9, pdus } from '../../test/support/type9-link.ts';

/** The Type 9 conveyance's `set-mtu` (issue 18 item 5 b): both its engines take an MTU written to the end point. */

const A = 0x0a;
const B = 0x0b;
const payloadSizes = (ps: readonly { readonly segment: string; readonly payload?: Uint8Array }[]): number[] => ps.map((p) => p.payload?.length ?? 0);

test('Part 10 §5.5.1 Table 5-6 MTU, §3.2.4: set-mtu reaches the segmenter and the reassembler; the PDU being segmented and the context it opened keep their MTU, so it arrives whole; the next PDU goes at the new MTU', () => {
  const a = node9(A, { mtu: 256 });
  const b = node9(B, { mtu: 256 });
  const first = bytes(600);
  const second = bytes(150, 9);
  feed9(a, { kind: 'send-pdu', to: B, streamID: 7, cos: 1, pdu: first }, 0);
  feed9(a, { kind: 'send-pdu', to: B, streamID: 7, cos: 1, pdu: second }, 0);
  // The start segment of the first PDU is on its way when the MTU changes on both ends.
  assert.deepEqual(payloadSizes(carry(a, b, 0, 1)), [256]);
  for (const n of [a, b]) {
    assert.deepEqual(feed9(n, { kind: 'set-mtu', mtu: 64 }, 1), []);
    assert.equal(n.engine.mtu, 64);
  }
  assert.deepEqual(payloadSizes(carry(a, b, 2)), [256, 88, 64, 64, 22]);
  assert.deepEqual(pdus(b).map((p) => p.pdu), [first, second]);
  assert.deepEqual(named(b, 'defective-pdu'), []);
  const snap = a.engine.snapshot() as { segmenter: { mtu: number }; reassembler: { mtu: number } };
  assert.deepEqual([snap.segmenter.mtu, snap.reassembler.mtu], [64, 64]);
});

test('Part 10 §3.2.4 "The MTU is a system-wide parameter agreed to by all processing elements": a receiver whose MTU was not changed finds the new segments defective (rule 4), by its own MTU', () => {
  const a = node9(A, { mtu: 256 });
  const b = node9(B, { mtu: 256 });
  feed9(a, { kind: 'set-mtu', mtu: 64 }, 0);
  feed9(a, { kind: 'send-pdu', to: B, streamID: 7, cos: 1, pdu: bytes(150) }, 0);
  carry(a, b, 0);
  assert.deepEqual(pdus(b), []);
  assert.deepEqual(named(b, 'defective-pdu').map((e) => [e['rule'], e['payloadLength'], e['mtu']]), [[4, 64, 256]]);
});

test('Part 10 §5.5.1 Table 5-6 MTU: a set-mtu that is not an MTU is one invalid-input event of the conveyance, and both engines keep their MTU', () => {
  const a = node9(A, { mtu: 128 });
  assert.deepEqual(feed9(a, { kind: 'set-mtu', mtu: 258 }, 0), []);
  assert.deepEqual(a.log, [{ kind: 'event', name: 'invalid-input', detail: 'set-mtu: 258 is not a multiple of 4 from 32 to 256' }]);
  const snap = a.engine.snapshot() as { segmenter: { mtu: number }; reassembler: { mtu: number } };
  assert.deepEqual([a.engine.mtu, snap.segmenter.mtu, snap.reassembler.mtu], [128, 128, 128]);
  assert.equal(a.engine.counters().invalidInputs, 1);
});
