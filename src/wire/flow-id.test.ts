import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FLOW_IDS, FLOW_ID_LABELS, ccpPrioCrf, channelPacketFields, flowIdChannel, flowIdCode, flowIdForChannel, flowIdForPacket, flowIdLabel, isReservedFlowId, packetChannel, packetForFlowId,
} from './flow-id.ts';
import type { FlowIdLabel } from './flow-id.ts';

test('Part 9 §3.2 Table 3-1: flowID encodings 0A–0F and 1A–8A', () => {
  // Copied row by row from Table 3-1 (rev 2.2 and the rev 4.1 figure text).
  const table: [FlowIdLabel, number][] = [
    ['0A', 0b0000000], ['0B', 0b0000001], ['0C', 0b0000010], ['0D', 0b0000011], ['0E', 0b0000100], ['0F', 0b0000101],
    ['1A', 0b1000001], ['2A', 0b1000010], ['3A', 0b1000011], ['4A', 0b1000100],
    ['5A', 0b1000101], ['6A', 0b1000110], ['7A', 0b1000111], ['8A', 0b1001000],
  ];
  assert.deepEqual(FLOW_ID_LABELS, table.map(([l]) => l));
  for (const [label, code] of table) {
    assert.equal(flowIdLabel(code), label);
    assert.equal(flowIdCode(label), code);
    assert.equal(FLOW_IDS[label], code);
    assert.equal(isReservedFlowId(code), false);
  }
});

test('Part 9 §3.2 Table 3-1: "Remaining encodings are reserved" — the other 114 codes', () => {
  const assigned = new Set<number>(Object.values(FLOW_IDS));
  let reserved = 0;
  for (let code = 0; code < 128; code++) {
    if (assigned.has(code)) continue;
    reserved++;
    assert.equal(flowIdLabel(code), 'RESERVED', `code ${code}`);
    assert.equal(isReservedFlowId(code), true);
  }
  assert.equal(reserved, 128 - 14);
  // 0b0000110 (just after 0F) and 0b1000000 (VC bit with flow "0") are the nearest reserved neighbours.
  assert.equal(flowIdLabel(0b0000110), 'RESERVED');
  assert.equal(flowIdLabel(0b1000000), 'RESERVED');
  assert.equal(flowIdLabel(0b1001001), 'RESERVED');
  assert.equal(flowIdLabel(-1), 'RESERVED');
  assert.equal(flowIdLabel(128), 'RESERVED');
});

test('Part 9 §3.2 Table 3-1: flows 0A–0F are VC0, nA is VCn', () => {
  assert.equal(flowIdChannel('0F'), 0);
  assert.equal(flowIdChannel('1A'), 1);
  assert.equal(flowIdChannel('8A'), 8);
  assert.equal(flowIdChannel('RESERVED'), undefined);
});

test('DECISIONS §3, Part 6 Table 6-7: with CRF a request flow is {prio, CRF}: A=(0,0) … F=(2,1)', () => {
  const want: [number, number, FlowIdLabel][] = [[0, 0, '0A'], [0, 1, '0B'], [1, 0, '0C'], [1, 1, '0D'], [2, 0, '0E'], [2, 1, '0F']];
  for (const [prio, crf, flow] of want) {
    assert.deepEqual(flowIdForPacket({ prio, crf, response: false, crfSupported: true }), { flowID: flow, candidates: [flow] });
    assert.deepEqual(packetForFlowId(flow, { response: false, crfSupported: true }), { prio, crf });
  }
  // crfSupported defaults to true.
  assert.equal(flowIdForPacket({ prio: 2, crf: 1, response: false })?.flowID, '0F');
});

test('DECISIONS §3, Part 6 Table 6-6 / Part 9 Table 2-1: without CRF A = prio 0, B = prio 1, C or higher = prio 2', () => {
  assert.equal(flowIdForPacket({ prio: 0, crf: 0, response: false, crfSupported: false })?.flowID, '0A');
  assert.equal(flowIdForPacket({ prio: 1, crf: 0, response: false, crfSupported: false })?.flowID, '0B');
  assert.equal(flowIdForPacket({ prio: 2, crf: 0, response: false, crfSupported: false })?.flowID, '0C');
  // The CRF bit is ignored where it is not supported.
  assert.equal(flowIdForPacket({ prio: 1, crf: 1, response: false, crfSupported: false })?.flowID, '0B');
  for (const f of ['0C', '0D', '0E', '0F'] as const) {
    assert.deepEqual(packetForFlowId(f, { response: false, crfSupported: false }), { prio: 2, crf: 0 });
    assert.deepEqual(packetForFlowId(f, { response: true, crfSupported: false }), { prio: 3, crf: 0 });
  }
});

test('Part 9 §2.4.3 Table 2-1: request at prio 0b11 and response at prio 0b00 are "Illegal"', () => {
  for (const crfSupported of [true, false]) {
    assert.equal(flowIdForPacket({ prio: 3, crf: 0, response: false, crfSupported }), undefined);
    assert.equal(flowIdForPacket({ prio: 3, crf: 1, response: false, crfSupported }), undefined);
    assert.equal(flowIdForPacket({ prio: 0, crf: 0, response: true, crfSupported }), undefined);
  }
  assert.equal(flowIdForPacket({ prio: 4, crf: 0, response: false }), undefined);
});

test('Part 9 §2.4.3 Table 2-1: response prio 1 → A, 2 → A or B, 3 → A, B, C or higher (no CRF)', () => {
  const r = (prio: number) => flowIdForPacket({ prio, crf: 0, response: true, crfSupported: false });
  assert.deepEqual(r(1), { flowID: '0A', candidates: ['0A'] });
  assert.deepEqual(r(2), { flowID: '0B', candidates: ['0A', '0B'] });
  assert.deepEqual(r(3), { flowID: '0C', candidates: ['0A', '0B', '0C'] });
});

test('Part 6 Table 6-7: responses keep the CRF bit of their flow; candidates are the flows whose response prio range holds it', () => {
  const r = (prio: number, crf: number) => flowIdForPacket({ prio, crf, response: true })?.candidates;
  assert.deepEqual(r(1, 0), ['0A']);
  assert.deepEqual(r(1, 1), ['0B']);
  assert.deepEqual(r(2, 0), ['0A', '0C']);
  assert.deepEqual(r(2, 1), ['0B', '0D']);
  assert.deepEqual(r(3, 0), ['0A', '0C', '0E']);
  assert.deepEqual(r(3, 1), ['0B', '0D', '0F']);
  // The flowID chosen is the highest candidate: XOFF stops "the specified and lower priority" flows.
  assert.equal(flowIdForPacket({ prio: 3, crf: 1, response: true })?.flowID, '0F');
});

test('Part 6 Table 6-7: packetForFlowId gives the lowest response prio of each flow and inverts flowIdForPacket', () => {
  const want: [FlowIdLabel, number, number][] = [['0A', 1, 0], ['0B', 1, 1], ['0C', 2, 0], ['0D', 2, 1], ['0E', 3, 0], ['0F', 3, 1]];
  for (const [flow, prio, crf] of want) {
    assert.deepEqual(packetForFlowId(flow, { response: true }), { prio, crf });
    assert.ok(flowIdForPacket({ prio, crf, response: true })?.candidates.includes(flow));
  }
  assert.equal(packetForFlowId('1A', { response: false }), undefined);
  assert.equal(packetForFlowId('RESERVED', { response: false }), undefined);
});

test('Part 9 §2.4.2: CCPs are marked prio 0b11 and CRF 0b1 "if supported"', () => {
  assert.deepEqual(ccpPrioCrf(), { prio: 3, crf: 1 });
  assert.deepEqual(ccpPrioCrf(true), { prio: 3, crf: 1 });
  assert.deepEqual(ccpPrioCrf(false), { prio: 3, crf: 0 });
});

test('Part 6 §2.3 Table 2-2: VC = 1 makes PRIO||CRF the VCID, low bits ignored with fewer channels', () => {
  // "1 00 0 - VC1 … 1 11 1 - VC8"
  for (let id = 0; id < 8; id++) assert.equal(packetChannel(1, id >> 1, id & 1, 8), id + 1);
  // "1 01 X - VC3" (VC0 + 4 VCs), "1 1X X - VC5" (VC0 + 2 VCs), "1 XX X - VC1" (VC0 + 1 VC)
  assert.equal(packetChannel(1, 1, 1, 4), 3);
  assert.equal(packetChannel(1, 3, 0, 2), 5);
  assert.equal(packetChannel(1, 3, 1, 1), 1);
  assert.equal(packetChannel(0, 3, 1, 8), 0, 'VC = 0 is VC0');
  assert.equal(packetChannel(1, 3, 1, 0), 0, 'single VC mode: every packet is VC0');
  for (let ch = 1; ch <= 8; ch++) {
    const f = channelPacketFields(ch);
    assert.ok(f);
    assert.equal(packetChannel(f.vc, f.prio, f.crf, 8), ch);
    assert.equal(flowIdForChannel(ch), `${ch}A`);
  }
  assert.equal(channelPacketFields(0), undefined);
  assert.equal(flowIdForChannel(9), undefined);
});
