import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reassembler } from './reassembler.ts';
import type { ReassemblerOutput } from './reassembler-types.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { abort, bytes, cont, end, segmentsOf, start } from '../../test/support/type9-segments.ts';

/**
 * The reassembler's per-segment shortcuts (docs/performance.md): the context the previous segment
 * found is tried first, and a PDU's buffer starts at the length of the PDU delivered last. These
 * tests pin down that neither changes what the engine does.
 */

const MTU = 32;
const A = { sourceID: 5, destinationID: 9 };
const B = { sourceID: 6, destinationID: 9 };

function feed(r: Reassembler, packets: readonly Type9Packet[], now = 0): ReassemblerOutput[] {
  return packets.flatMap((packet) => r.handle({ kind: 'packet', packet }, now));
}

function delivered(out: readonly ReassemblerOutput[]): Uint8Array[] {
  return out.flatMap((o) => (o.kind === 'pdu' ? [o.payload] : []));
}

function rules(out: readonly ReassemblerOutput[]): number[] {
  return out.flatMap((o) => (o.kind === 'event' && o.name === 'defective-pdu' ? [o.rule] : []));
}

test('Part 10 §3.2.5 reassembly rule 1: segments of two contexts interleaved one by one each reach their own context', () => {
  const r = new Reassembler({ mtu: MTU });
  const a = segmentsOf(bytes(100, 1), MTU, 1, A);
  const b = segmentsOf(bytes(100, 2), MTU, 2, B);
  const mixed = a.flatMap((p, i) => [p, b[i] as Type9Packet]);
  const out = feed(r, mixed);
  assert.deepEqual(out.map((o) => (o.kind === 'pdu' ? o.context : o.kind)), ['Dev8/src5/vc0/prio0/crf0', 'Dev8/src6/vc0/prio0/crf0']);
  assert.deepEqual(delivered(out), [bytes(100, 1), bytes(100, 2)]);
});

test('Part 10 §3.2.5 reassembly rule 8: after an end, an abort or an idle time-out closes a context, a continuation with its header fields finds it closed', () => {
  const r = new Reassembler({ mtu: MTU, idleTimeout: 100 });
  feed(r, [start(bytes(MTU), 1, A), end(bytes(4), MTU + 4, A)]);
  assert.deepEqual(rules(feed(r, [cont(bytes(MTU), A)])), [8]);
  feed(r, [start(bytes(MTU), 1, A), abort(A)]);
  assert.deepEqual(rules(feed(r, [cont(bytes(MTU), A)])), [8]);
  feed(r, [start(bytes(MTU), 1, A)], 200);
  const idle = r.handle({ kind: 'timer', name: 'idle:Dev8/src5/vc0/prio0/crf0' }, 300);
  assert.equal(idle[0]?.kind === 'event' && idle[0].name, 'idle-timeout');
  assert.deepEqual(rules(feed(r, [cont(bytes(MTU), A)], 300)), [8]);
  assert.deepEqual(r.openContexts(), []);
});

test('Part 10 §3.2.5 reassembly rule 1: a segment differing from the open context only in prio belongs to another context', () => {
  const r = new Reassembler({ mtu: MTU });
  feed(r, [start(bytes(MTU), 1, A)]);
  const out = feed(r, [cont(bytes(MTU), { ...A, prio: 1 })]);
  assert.deepEqual(rules(out), [8]);
  assert.equal(out[0]?.kind === 'event' && out[0].name === 'defective-pdu' && out[0].context, 'Dev8/src5/vc0/prio1/crf0');
  assert.equal(r.openContexts()[0]?.received, MTU, 'the open context is untouched');
});

test('Part 10 §3.2.4, §3.2.5 reassembly rule 1: the destination ID tells contexts apart only when destinationInContext is set', () => {
  const other = { ...A, destinationID: 10 };
  const keyed = new Reassembler({ mtu: MTU, destinationInContext: true });
  feed(keyed, [start(bytes(MTU), 1, A)]);
  assert.deepEqual(rules(feed(keyed, [cont(bytes(MTU), other)])), [8]);
  const shared = new Reassembler({ mtu: MTU });
  feed(shared, [start(bytes(MTU, 3), 1, A)]);
  const out = feed(shared, [cont(bytes(MTU, 3 + 7 * MTU), other), end(bytes(4, 3 + 14 * MTU), 2 * MTU + 4, A)]);
  assert.deepEqual(delivered(out), [bytes(2 * MTU + 4, 3)]);
});

test('Part 10 §3.2.5 reassembly rule 2 (decision): a PDU\'s buffer starts at the length of the PDU delivered last; a PDU that fills it is delivered as the whole buffer', () => {
  const r = new Reassembler({ mtu: MTU });
  const [first] = delivered(feed(r, segmentsOf(bytes(3000, 1), MTU, 1, A)));
  assert.equal(first?.buffer.byteLength, 4096, 'doubling from 4 MTUs: 128 → … → 4096');
  const [second] = delivered(feed(r, segmentsOf(bytes(3000, 2), MTU, 2, A)));
  assert.deepEqual(second, bytes(3000, 2));
  assert.equal(second.buffer.byteLength, 3000, 'one allocation of the previous PDU\'s length');
  assert.equal(second.byteOffset, 0);
  assert.notEqual(second.buffer, first.buffer);
  assert.deepEqual(first, bytes(3000, 1), 'the earlier PDU is untouched');
});

test('Part 10 §3.2.5 reassembly rule 2 (decision): a PDU under half the buffer carried over from a larger one is delivered in a buffer of its own length', () => {
  const r = new Reassembler({ mtu: MTU });
  feed(r, segmentsOf(bytes(3000, 1), MTU, 1, A));
  const [small] = delivered(feed(r, segmentsOf(bytes(100, 4), MTU, 2, A)));
  assert.deepEqual(small, bytes(100, 4));
  assert.equal(small.buffer.byteLength, 100);
  const [grown] = delivered(feed(r, segmentsOf(bytes(200, 5), MTU, 3, A)));
  assert.deepEqual(grown, bytes(200, 5));
  assert.equal(grown.buffer.byteLength, 256, 'from 4 MTUs (128), doubled once: the carried-over 100 is below 4 MTUs');
});
