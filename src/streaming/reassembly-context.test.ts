import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReassemblyContext, contextKey, packetFlow } from './reassembly-context.ts';
import { SegmentIn } from './reassembler-segment.ts';
import { bytes, cont, start } from '../../test/support/type9-segments.ts';
import type { Type9Packet } from '../wire/type9-types.ts';

const seg = (p: Type9Packet): SegmentIn => new SegmentIn().fromPacket(p);

test('Part 10 §3.2.5 reassembly rule 1: the context key is tt, source ID, VC, prio and CRF, plus the destination ID when asked', () => {
  const p = cont(bytes(32), { tt: 1, sourceID: 0x1234, destinationID: 0x55, vc: 1, prio: 2, crf: 1 });
  assert.equal(contextKey(p, false), 'Dev16/src4660/vc1/prio2/crf1');
  assert.equal(contextKey(p, true), 'Dev16/src4660/dst85/vc1/prio2/crf1');
  assert.equal(contextKey(cont(bytes(32), { tt: 2, sourceID: 0xffffffff }), false), 'Dev32/src4294967295/vc0/prio0/crf0');
});

test('Part 9 Table 3-1, Part 6 Table 2-2: the flow of a data segment', () => {
  assert.deepEqual(packetFlow(cont(bytes(32), { vc: 1, prio: 0, crf: 1 }), 8, true), { channel: 2, flowID: '2A' });
  assert.deepEqual(packetFlow(cont(bytes(32), { prio: 1, crf: 1 }), 8, true), { channel: 0, flowID: '0D' });
  assert.deepEqual(packetFlow(cont(bytes(32), { prio: 3, crf: 1 }), 0, true), { channel: 0, flowID: null });
});

test('Part 10 §3.2.5 reassembly rule 2: the PDU buffer starts at 4 MTUs and doubles, keeping every byte in order', () => {
  const ctx = new ReassemblyContext('k', seg(start(bytes(32))), { channel: 0, flowID: '0A' }, 32, 0, true);
  const whole = bytes(32 * 20);
  for (let at = 32; at < whole.length; at += 32) ctx.append(seg(cont(whole.subarray(at, at + 32))));
  assert.equal(ctx.received, 640);
  assert.deepEqual(ctx.bytes(), whole);
  assert.equal(ctx.bytes().buffer.byteLength, 1024, '128 → 256 → 512 → 1024');
});

test('Part 10 §4.2 Table 4-1 length: past 65536 bytes data is counted, not stored (decision)', () => {
  const ctx = new ReassemblyContext('k', seg(start(bytes(256))), { channel: 0, flowID: '0A' }, 256, 0, true);
  for (let i = 1; i < 256; i++) ctx.append(seg(cont(bytes(256))));
  assert.equal(ctx.bytes().buffer.byteLength, 0x10000, 'capped at 64 KiB');
  ctx.append(seg(cont(bytes(256))));
  assert.equal(ctx.received, 0x10000 + 256);
  assert.equal(ctx.bytes().buffer.byteLength, 0x10000);
});

test('Part 10 §3.2.5 "a defective PDU results in discarding the entire PDU": a discarding context keeps no data, only the count', () => {
  const ctx = new ReassemblyContext('k', seg(start(bytes(32))), { channel: 0, flowID: '0A' }, 32, 0, true);
  ctx.discard();
  ctx.append(seg(cont(bytes(32))));
  assert.equal(ctx.assembling, false);
  assert.equal(ctx.received, 64);
  assert.equal(ctx.bytes().length, 0);
  assert.equal(ctx.info().state, 'discarding');
});
