import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reassembler } from './reassembler.ts';
import type { ReassemblerInput, ReassemblerOutput } from './reassembler-types.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { bytes, segmentsOf, single } from '../../test/support/type9-segments.ts';

/**
 * `bufferPool` and the `recycle` input (reassembler-types.ts, docs/performance.md): a receiver done
 * with a delivered PDU gives its buffer back, and a later PDU is reassembled into it.
 */

const MTU = 32;
const A = { sourceID: 5, destinationID: 9 };

function feed(r: Reassembler, packets: readonly Type9Packet[]): ReassemblerOutput[] {
  return packets.flatMap((packet) => r.handle({ kind: 'packet', packet }, 0));
}

function deliver(r: Reassembler, pdu: Uint8Array, streamID = 1): Uint8Array {
  const got = feed(r, segmentsOf(pdu, MTU, streamID, A)).flatMap((o) => (o.kind === 'pdu' ? [o.payload] : []));
  assert.equal(got.length, 1, 'one PDU delivered');
  return got[0] as Uint8Array;
}

function invalid(out: readonly ReassemblerOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'event' && o.name === 'invalid-input' ? [o.detail] : []));
}

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool): a recycled buffer receives the next PDU', () => {
  const r = new Reassembler({ mtu: MTU, bufferPool: 2 });
  const first = deliver(r, bytes(3000, 1));
  const memory = first.buffer;
  assert.deepEqual(r.handle({ kind: 'recycle', payload: first }, 0), []);
  assert.equal(r.pooledBuffers, 1);
  const second = deliver(r, bytes(3000, 2), 2);
  assert.equal(second.buffer, memory, 'the recycled memory holds the next PDU');
  assert.notEqual(second, first, 'in a new view: the old payload object is not the new one');
  assert.deepEqual(second, bytes(3000, 2));
  assert.equal(r.pooledBuffers, 0);
  assert.equal(r.counters().invalidInputs, 0);
});

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool): without a recycle every PDU still gets a buffer of its own', () => {
  const r = new Reassembler({ mtu: MTU, bufferPool: 2 });
  const first = deliver(r, bytes(3000, 1));
  const second = deliver(r, bytes(3000, 2), 2);
  assert.notEqual(second.buffer, first.buffer);
  assert.deepEqual(first, bytes(3000, 1), 'a kept PDU is never overwritten');
});

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool): recycling a payload twice is ignored with a counted invalid-input', () => {
  const r = new Reassembler({ mtu: MTU, bufferPool: 4 });
  const first = deliver(r, bytes(3000, 1));
  r.handle({ kind: 'recycle', payload: first }, 0);
  const again = r.handle({ kind: 'recycle', payload: first }, 0);
  assert.deepEqual(invalid(again), ['recycle: not a payload this reassembler delivered in a buffer of its own, or recycled already']);
  assert.equal(r.pooledBuffers, 1, 'the buffer is pooled once');
  assert.equal(r.counters().invalidInputs, 1);
  const second = deliver(r, bytes(3000, 2), 2);
  assert.equal(second.buffer, first.buffer);
  assert.deepEqual(invalid(r.handle({ kind: 'recycle', payload: first }, 0)), [
    'recycle: not a payload this reassembler delivered in a buffer of its own, or recycled already',
  ], 'a stale payload of the same memory does not take it from its new holder');
  assert.deepEqual(second, bytes(3000, 2));
  assert.deepEqual(r.handle({ kind: 'recycle', payload: second }, 0), [], 'the current holder may recycle it');
  assert.equal(r.counters().invalidInputs, 2);
});

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool): payloads the engine did not give out are ignored with a counted invalid-input, never a crash', () => {
  const r = new Reassembler({ mtu: MTU, bufferPool: 4 });
  const pdu = bytes(3000, 1);
  const delivered = deliver(r, pdu);
  const [one] = feed(r, [single(bytes(10), 3, A)]);
  assert.ok(one?.kind === 'pdu');
  const bad: unknown[] = [pdu, delivered.subarray(0, 100), new Uint8Array(delivered.buffer), one.payload, 'ab12', null, undefined, 7, {}];
  for (const payload of bad) {
    const out = r.handle({ kind: 'recycle', payload } as unknown as ReassemblerInput, 0);
    assert.equal(invalid(out).length, 1, `recycle of ${String(payload)}`);
  }
  assert.equal(r.counters().invalidInputs, bad.length);
  assert.equal(r.pooledBuffers, 0, 'none of them was pooled');
  assert.deepEqual(delivered, pdu, 'the delivered PDU is untouched');
});

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool 0, the default): recycle is an invalid-input and buffers are never reused', () => {
  const r = new Reassembler({ mtu: MTU });
  const first = deliver(r, bytes(3000, 1));
  assert.deepEqual(invalid(r.handle({ kind: 'recycle', payload: first }, 0)), ['recycle: bufferPool is 0, recycling is off']);
  assert.equal(r.counters().invalidInputs, 1);
  assert.equal(r.pooledBuffers, 0);
  assert.notEqual(deliver(r, bytes(3000, 2), 2).buffer, first.buffer);
  assert.deepEqual(first, bytes(3000, 1));
  assert.equal('bufferPool' in r.snapshot(), false, 'the snapshot is as before');
});

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool): at most bufferPool buffers are kept; the rest are let go', () => {
  const r = new Reassembler({ mtu: MTU, bufferPool: 2 });
  const pdus = [1, 2, 3].map((s) => deliver(r, bytes(3000, s), s));
  for (const payload of pdus) assert.deepEqual(r.handle({ kind: 'recycle', payload }, 0), []);
  assert.equal(r.pooledBuffers, 2);
  const s = r.snapshot();
  assert.equal(s['bufferPool'], 2);
  assert.equal(s['pooledBuffers'], 2);
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
});

test('Part 10 §3.2.5 reassembly rule 2 "transfers the entire payload into the reassembly buffer" (bufferPool): a pooled buffer smaller than the next PDU\'s first allocation is let go, and a small PDU delivered as a copy leaves its large buffer in the pool', () => {
  const r = new Reassembler({ mtu: MTU, bufferPool: 4 });
  const small = deliver(r, bytes(200, 1));
  const large = deliver(r, bytes(3000, 2), 2);
  r.handle({ kind: 'recycle', payload: small }, 0);
  assert.equal(r.pooledBuffers, 1);
  const next = deliver(r, bytes(3000, 3), 3);
  assert.notEqual(next.buffer, small.buffer, 'a 256-byte buffer cannot start a PDU sized by the 3000-byte one before it');
  assert.equal(r.pooledBuffers, 0);
  r.handle({ kind: 'recycle', payload: large }, 0);
  const tiny = deliver(r, bytes(100, 4), 4);
  assert.deepEqual(tiny, bytes(100, 4));
  assert.equal(tiny.buffer.byteLength, 100, 'copied out of the 3000-byte buffer, as without a pool');
  assert.equal(r.pooledBuffers, 1, 'the 3000-byte buffer went back to the pool');
  assert.deepEqual(r.handle({ kind: 'recycle', payload: tiny }, 0), [], 'the copy is the engine\'s to take back too');
  assert.equal(r.pooledBuffers, 2);
});

test('engine contract: bufferPool must be an integer from 0 to 1024', () => {
  assert.throws(() => new Reassembler({ bufferPool: -1 }), { name: 'RangeError', message: 'bufferPool must be an integer from 0 to 1024' });
  assert.throws(() => new Reassembler({ bufferPool: 1.5 }), { name: 'RangeError', message: 'bufferPool must be an integer from 0 to 1024' });
  assert.equal(new Reassembler({ bufferPool: 1024 }).pooledBuffers, 0);
});
