import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BufferedPacket } from './congestion-point-types.ts';
import { ccpFlowKey, classifyPacket, isResponse } from './offending-flow.ts';
import type { ClassifyOptions } from './offending-flow.ts';

const WITH_CRF: ClassifyOptions = { crfSupported: true, vcCount: 0 };
const NO_CRF: ClassifyOptions = { crfSupported: false, vcCount: 0 };

function packet(prio: number, crf: number, ftype: number, extra: Partial<BufferedPacket> = {}): BufferedPacket {
  return { sourceID: 0x12, destinationID: 0x34, tt: 0, prio, crf, ftype, ...extra };
}

/** The flowID a packet maps to, or the class name when it maps to none. */
function flowOf(p: BufferedPacket, opts: ClassifyOptions): string {
  const c = classifyPacket(p, opts);
  return c.kind === 'flow' ? c.flow.flowID : c.kind;
}

test('Part 9 §2.4.3 Table 2-1, DECISIONS §3: with CRF a request maps to flow {prio, CRF} (A..F) and prio 3 requests are Illegal', () => {
  const got = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1]].map(([prio, crf]) => flowOf(packet(prio ?? 0, crf ?? 0, 5), WITH_CRF));
  assert.deepEqual(got, ['0A', '0B', '0C', '0D', '0E', '0F', 'unmappable', 'unmappable']);
});

test('Part 9 §2.4.3 Table 2-1, DECISIONS §3: with CRF a response maps to the highest request flow it may belong to; prio 0 responses are Illegal', () => {
  // Part 6 Table 6-7 response prio: A/B 1–3, C/D 2–3, E/F 3, keeping the request's CRF bit.
  const got = [[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1]].map(([prio, crf]) => flowOf(packet(prio ?? 0, crf ?? 0, 13), WITH_CRF));
  assert.deepEqual(got, ['unmappable', '0A', '0B', '0C', '0D', '0E', '0F']);
});

test('Part 9 §2.4.3 Table 2-1, DECISIONS §3: without CRF a request at prio 0/1/2 is flow A/B/"C or higher" whatever its CRF bit', () => {
  const got = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0]].map(([prio, crf]) => flowOf(packet(prio ?? 0, crf ?? 0, 2), NO_CRF));
  assert.deepEqual(got, ['0A', '0A', '0B', '0B', '0C', '0C', 'unmappable']);
});

test('Part 9 §2.4.3 Table 2-1: without CRF a response at prio 1/2/3 maps to A / "A or B" / "A, B, C or higher", XOFF naming the highest', () => {
  const got = [0, 1, 2, 3].map((prio) => flowOf(packet(prio, 1, 13), NO_CRF));
  assert.deepEqual(got, ['unmappable', '0A', '0B', '0C']);
});

test('Part 9 §3.2 Table 3-1: the CCP flow is (destinationID = packet sourceID, tgtdestinationID = packet destinationID, flowID, tt)', () => {
  const c = classifyPacket(packet(1, 1, 5, { tt: 1, sourceID: 0x1234, destinationID: 0xbeef }), WITH_CRF);
  const flow = { destinationID: 0x1234, tgtdestinationID: 0xbeef, flowID: '0D', tt: 1 } as const;
  assert.deepEqual(c, { kind: 'flow', key: ccpFlowKey(flow), flow, response: false, crf: 1 });
});

test('Part 9 §2.4.3: "Maintenance and flow control transaction request flows must never cause the generation of a flow control transaction" — ftype 8 and 7 are excluded', () => {
  assert.equal(classifyPacket(packet(0, 0, 8), WITH_CRF).kind, 'excluded');
  assert.equal(classifyPacket(packet(3, 1, 7), WITH_CRF).kind, 'excluded');
  assert.equal(classifyPacket(packet(2, 0, 8, { response: true }), NO_CRF).kind, 'excluded');
});

test('Part 9 §3.2 Table 3-1, Part 6 Table 2-2: with 8 VCs a VC=1 packet belongs to "Flow nA and higher for VCn", n = 1 + PRIO||CRF', () => {
  const opts: ClassifyOptions = { crfSupported: true, vcCount: 8 };
  const got: string[] = [];
  for (let id = 0; id < 8; id++) got.push(flowOf(packet(id >> 1, id & 1, 5, { vc: 1 }), opts));
  assert.deepEqual(got, ['1A', '2A', '3A', '4A', '5A', '6A', '7A', '8A']);
  // PRIO||CRF is a channel number here, not a priority: prio 3 is not Illegal and responses map alike.
  assert.equal(flowOf(packet(3, 1, 13, { vc: 1 }), opts), '8A');
  const c = classifyPacket(packet(0, 1, 5, { vc: 1 }), opts);
  assert.equal(c.kind === 'flow' ? c.crf : -1, 0);
});

test('Part 6 Table 2-2: with fewer VCs the low VCID bits are ignored; in single VC mode the VC bit selects nothing', () => {
  assert.equal(flowOf(packet(3, 1, 5, { vc: 1 }), { crfSupported: true, vcCount: 4 }), '7A');
  assert.equal(flowOf(packet(3, 1, 5, { vc: 1 }), { crfSupported: true, vcCount: 1 }), '1A');
  assert.equal(flowOf(packet(1, 0, 5, { vc: 1 }), WITH_CRF), '0C');
  assert.equal(flowOf(packet(1, 0, 5, { vc: 0 }), { crfSupported: true, vcCount: 8 }), '0C');
});

test('Part 3 §2.4: a packet whose tt is reserved or whose IDs do not fit its tt cannot be named by a CCP (unmappable)', () => {
  assert.equal(flowOf(packet(0, 0, 5, { tt: 3 }), WITH_CRF), 'unmappable');
  assert.equal(flowOf(packet(0, 0, 5, { tt: 0, sourceID: 0x100 }), WITH_CRF), 'unmappable');
  assert.equal(flowOf(packet(0, 0, 5, { tt: 1, sourceID: 0x100 }), WITH_CRF), '0A');
  assert.equal(flowOf(packet(0, 0, 5, { tt: 2, destinationID: 0xffff_ffff }), WITH_CRF), '0A');
  assert.equal(flowOf(packet(0, 0, 5, { destinationID: -1 }), WITH_CRF), 'unmappable');
});

test('Part 9 §2.4.3 Table 2-1 "Transaction Type": ftype 13 is a response unless the packet says otherwise', () => {
  assert.equal(isResponse(packet(1, 0, 13)), true);
  assert.equal(isResponse(packet(1, 0, 5)), false);
  assert.equal(isResponse(packet(1, 0, 11, { response: true })), true);
  assert.equal(isResponse(packet(1, 0, 13, { response: false })), false);
});
