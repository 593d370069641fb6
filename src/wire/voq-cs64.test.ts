import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import {
  VC_IND_NAMES, VOQ_CS64, decodeVoqCs64, encodeVoqCs64, groupOfPortCs64, vcIndName, vcIndOfVc, vcOfVcInd, voqCs64Layout, voqCs64Parameters,
} from './voq-cs64.ts';
import { voqLayout } from './voq-stype2.ts';

function isWire(code: string, field?: string) {
  return (e: unknown): boolean => e instanceof WireError && e.code === code && (field === undefined || e.field === field);
}

test('Part 12 §3.2: the VoQ backpressure CS64 is stype0 0b1101 with a 4-bit VC_IND and 20 status‖group bits', () => {
  assert.equal(VOQ_CS64.stype0, 0b1101);
  assert.equal(VOQ_CS64.vcIndBits + VOQ_CS64.parameterBits, 24, 'parameter0 ‖ parameter1 is 24 bits');
  for (let g = 0; g <= 6; g++) {
    const l = voqCs64Layout(g);
    assert.deepEqual([l.groupBits, l.statusBits, l.groups], [g, 20 - g, 2 ** g], `G = ${g}`);
  }
  assert.throws(() => voqCs64Layout(7), isWire('invalid', 'part12GroupSize'));
});

test('Part 12 §3.2 Figure 3-4: VC_IND is parameter0 bits 0–3, port status bits 4–(23-N), port group bits (24-N)-23', () => {
  // G = 4: parameter0 = VC_IND 0b0010 ‖ status[15:8] 0b1000_0000; parameter1 = status[7:0] 0b0000_0001 ‖ group 0b0011.
  // Status bits 15 and 0 are offsets 15 and 0 of group 3: ports 3·16 + 0 = 48 and 3·16 + 15 = 63.
  const v = decodeVoqCs64(0b0010_1000_0000, 0b0000_0001_0011, { part12GroupSize: 4 });
  assert.deepEqual(v, { format: 'part12-rev4.1', portGroupSize: 4, vcInd: 2, vcIndName: 'VC3', portGroup: 3, portStatus: 0x8001, congestedPorts: [48, 63] });
  assert.deepEqual(encodeVoqCs64(v), { parameter0: 0b0010_1000_0000, parameter1: 0b0000_0001_0011 });
});

test('Part 12 §3.2 Table 3-3: VC_IND 0b0000–0b0111 are VC1–VC8, 0b1000 is VC0, 0b1111 all VCs (DECISIONS §5: printed 0b11111), 0b1001–0b1110 reserved', () => {
  assert.deepEqual([...VC_IND_NAMES], ['VC1', 'VC2', 'VC3', 'VC4', 'VC5', 'VC6', 'VC7', 'VC8', 'VC0', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'ALL_VCS']);
  assert.deepEqual(Array.from({ length: 16 }, (_, v) => vcOfVcInd(v)), [1, 2, 3, 4, 5, 6, 7, 8, 0, undefined, undefined, undefined, undefined, undefined, undefined, 'all']);
  assert.deepEqual([0, 1, 8, 'all' as const].map(vcIndOfVc), [0b1000, 0b0000, 0b0111, 0b1111]);
  assert.equal(vcIndName(0b1110), 'RESERVED');
  assert.throws(() => vcIndOfVc(9), isWire('range', 'vc'));
});

test('Part 12 §3.2 Table 3-3: "Reception of a reserved value in the VC_IND field shall cause the receiving endpoint to ignore the VoQ Backpressure control symbol without error" — decoding labels it RESERVED and never throws; only encoding it strictly is refused', () => {
  for (let vcInd = 0b1001; vcInd <= 0b1110; vcInd++) {
    const v = decodeVoqCs64(vcInd << 8, 1);
    assert.equal(v.vcIndName, 'RESERVED');
    assert.deepEqual(v.congestedPorts, [0]);
    assert.deepEqual(encodeVoqCs64(v), { parameter0: vcInd << 8, parameter1: 1 });
  }
});

test('Part 12 §3.2 Table 3-4: with RX Port Group Size 4, status bit 0 is port 15 and bit 15 port 0 of group 0; group 15 holds ports 240–255', () => {
  // Figure 3-4 "bit 0" of the status is its most significant bit: offset 15.
  const top = voqCs64Parameters({ group: 0, congestedOffsets: [15], groupSize: 4 });
  assert.deepEqual(decodeVoqCs64(top.parameter0, top.parameter1, { part12GroupSize: 4 }).congestedPorts, [15]);
  assert.equal(((top.parameter0 & 0xff) << 12 | top.parameter1) >>> 4, 0x8000);
  const rows = [[0, 0, 15], [1, 16, 31], [6, 96, 111], [13, 208, 223], [15, 240, 255]] as const;
  for (const [group, low, high] of rows) {
    const p = voqCs64Parameters({ group, congestedOffsets: [0, 15], groupSize: 4 });
    assert.deepEqual(decodeVoqCs64(p.parameter0, p.parameter1, { part12GroupSize: 4 }).congestedPorts, [low, high], `group ${group}`);
    assert.deepEqual(groupOfPortCs64(low, 4), { group, offset: 0 });
    assert.deepEqual(groupOfPortCs64(high, 4), { group, offset: 15 });
  }
  assert.throws(() => groupOfPortCs64(256, 4), isWire('range', 'port'));
});

test('Part 12 §4.2 d: ports 0..N-1 occupy group 0 with N = 20 - G at every group size; the last group ends at N·2^G - 1', () => {
  for (let g = 0; g <= 6; g++) {
    const n = 20 - g;
    assert.deepEqual(groupOfPortCs64(n - 1, g), { group: 0, offset: n - 1 }, `G = ${g}`);
    if (g > 0) assert.deepEqual(groupOfPortCs64(n, g), { group: 1, offset: 0 }, `G = ${g}`);
    const last = n * 2 ** g - 1;
    const p = voqCs64Parameters({ group: 2 ** g - 1, congestedOffsets: [n - 1], groupSize: g });
    assert.deepEqual(decodeVoqCs64(p.parameter0, p.parameter1, { part12GroupSize: g }).congestedPorts, [last], `G = ${g}`);
    assert.throws(() => groupOfPortCs64(last + 1, g), isWire('range', 'port'));
  }
  // G = 0: all 20 bits are status.
  assert.deepEqual(decodeVoqCs64(0xfff, 0xfff).congestedPorts, Array.from({ length: 20 }, (_, i) => i));
});

test('Part 12 §3.1/§3.2: the CS64 form has 7 more status bits than the CS48 stype2 form at the same group size', () => {
  for (let g = 0; g <= 6; g++) assert.equal(voqCs64Layout(g).portsPerGroup - voqLayout('part12-rev4.1', g).portsPerGroup, 7);
});

test('Part 12 §3.2 Figure 3-4: encoding checks VC_IND, status and group against their widths', () => {
  assert.throws(() => encodeVoqCs64({ vcInd: 16, portGroup: 0, portStatus: 0 }), isWire('range', 'voq.vcInd'));
  assert.throws(() => encodeVoqCs64({ portGroupSize: 4, vcInd: 15, portGroup: 0, portStatus: 1 << 16 }), isWire('range', 'voq.portStatus'));
  assert.throws(() => encodeVoqCs64({ portGroupSize: 4, vcInd: 15, portGroup: 16, portStatus: 0 }), isWire('range', 'voq.portGroup'));
  assert.throws(() => voqCs64Parameters({ group: 0, congestedOffsets: [20] }), isWire('range', 'congestedOffsets'));
  assert.throws(() => encodeVoqCs64({ portGroupSize: 7, vcInd: 15, portGroup: 0, portStatus: 0 }), isWire('invalid', 'part12GroupSize'));
});
