import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import { congestedPortsOf, decodeStype2, encodeStype2, groupOfPort, voqLayout, voqSymbol } from './voq-stype2.ts';

function isWire(code: string, field?: string) {
  return (e: unknown): boolean => e instanceof WireError && e.code === code && (field === undefined || e.field === field);
}

test('VoQ Backpressure §3.1 Table 3-1: stype2 is CMD (bits 0–2) | port status (bits 3–8) | port group (bits 9–13)', () => {
  // CMD 001 | status 001010 (bits 5 and 7: offsets 3 and 1) | group 00010
  // = 0b001_001010_00010 = 0x0942; group 2 covers ports 12–17, so ports 13 and 15.
  const v = decodeStype2(0b001_001010_00010);
  assert.deepEqual(v, { format: 'seed', cmd: 1, cmdName: 'VOQ_BACKPRESSURE', portGroup: 2, portStatus: 0b001010, congestedPorts: [13, 15] });
  assert.equal(encodeStype2(v), 0x0942);
});

test('VoQ Backpressure §3.1 Table 3-2: status bit 3 is port offset 5 and status bit 8 is port offset 0', () => {
  // CMD 001 | status 100000 (bit 3 only) | group 00000 = 0x0c00
  assert.deepEqual(congestedPortsOf(0b001_100000_00000), [5]);
  // CMD 001 | status 000001 (bit 8 only) | group 00000 = 0x0820
  assert.deepEqual(congestedPortsOf(0b001_000001_00000), [0]);
});

test('VoQ Backpressure §3.1 Table 3-3, §4.2 d: port = group × 6 + offset at the group boundaries (ports 0, 5, 6, 186, 191)', () => {
  const cases = [
    // port, group, offset, stype2 = CMD 001 | status with bit (8 - offset) set | group
    [0, 0, 0, 0b001_000001_00000],
    [5, 0, 5, 0b001_100000_00000],
    [6, 1, 0, 0b001_000001_00001],
    [186, 31, 0, 0b001_000001_11111], // Table 3-3: group 0b11111 has base 0xBA = 186
    [191, 31, 5, 0b001_100000_11111],
  ] as const;
  for (const [port, group, offset, stype2] of cases) {
    assert.deepEqual(groupOfPort(port), { group, offset }, `port ${port}`);
    assert.equal(voqSymbol({ group, congestedOffsets: [offset] }), stype2, `port ${port}`);
    assert.deepEqual(congestedPortsOf(stype2), [port]);
  }
});

test('VoQ Backpressure §2.1: at most 192 ports (32 groups of 6)', () => {
  assert.equal(voqLayout('seed').groups * voqLayout('seed').portsPerGroup, 192);
  assert.throws(() => groupOfPort(192), isWire('range', 'port'));
  assert.throws(() => groupOfPort(-1), isWire('range', 'port'));
  assert.throws(() => voqSymbol({ group: 32, congestedOffsets: [] }), isWire('range', 'voq.portGroup'));
  assert.throws(() => voqSymbol({ group: 0, congestedOffsets: [6] }), isWire('range', 'congestedOffsets'));
  // All six ports of the last group.
  assert.deepEqual(congestedPortsOf(voqSymbol({ group: 31, congestedOffsets: [0, 1, 2, 3, 4, 5] })), [186, 187, 188, 189, 190, 191]);
});

test('VoQ Backpressure §3.1 Table 3-1: CMD 0b000 NOP carries parameter 0b000 0000 0000; other bits are reserved', () => {
  assert.deepEqual(decodeStype2(0), { format: 'seed', cmd: 0, cmdName: 'NOP', portGroup: 0, portStatus: 0, congestedPorts: [] });
  // CMD 000 | status 000011 | group 00001: lenient keeps the bits, reports no congestion.
  const v = decodeStype2(0b000_000011_00001);
  assert.equal(v.cmdName, 'NOP');
  assert.deepEqual(v.congestedPorts, []);
  assert.equal(encodeStype2(v), 0b000_000011_00001);
  assert.throws(() => decodeStype2(0b000_000011_00001, { strict: true }, 7), (e: unknown) => isWire('reserved', 'stype2')(e) && (e as WireError).offset === 7);
});

test('VoQ Backpressure §3.1 Table 3-1: CMD 0b010–0b111 are reserved (labelled leniently, rejected strictly)', () => {
  for (let cmd = 2; cmd <= 7; cmd++) {
    const stype2 = (cmd << 11) | 0b000001_00000;
    const v = decodeStype2(stype2);
    assert.equal(v.cmdName, 'RESERVED');
    assert.deepEqual(v.congestedPorts, []);
    assert.equal(encodeStype2(v), stype2);
    assert.throws(() => decodeStype2(cmd << 11, { strict: true }), isWire('reserved', 'stype2'));
  }
});

test('Part 12 §3.1 Table 3-1/3-2: CMD bit 0, then 13 − G status bits and G group bits; with G = 1, group 0 status bit 0 is port 11', () => {
  const opts = { voqFormat: 'part12-rev4.1', part12GroupSize: 1 } as const;
  // CMD 1 | status 1000_0000_0000 (Port Status Bit 0) | group 0 = 0b1_100000000000_0 = 0x3000
  assert.deepEqual(decodeStype2(0x3000, opts).congestedPorts, [11]);
  // Table 3-2 row 0x1: Port Status Bit 0 is port 23, bit 11 is port 12.
  // CMD 1 | status 1000_0000_0001 | group 1 = 0b1_100000000001_1 = 0x3003
  const v = decodeStype2(0x3003, opts);
  assert.deepEqual(v, {
    format: 'part12-rev4.1',
    portGroupSize: 1,
    cmd: 1,
    cmdName: 'VOQ_BACKPRESSURE',
    portGroup: 1,
    portStatus: 0b1000_0000_0001,
    congestedPorts: [12, 23],
  });
  assert.equal(encodeStype2(v), 0x3003);
  assert.equal(voqSymbol({ group: 1, congestedOffsets: [0, 11], format: 'part12-rev4.1', groupSize: 1 }), 0x3003);
});

test('Part 12 §5.1.2.2 Table 5-3: port group sizes 0–6 bits split the 13 parameter bits; 0x7 is reserved', () => {
  for (let g = 0; g <= 6; g++) {
    const l = voqLayout('part12-rev4.1', g);
    assert.deepEqual([l.groupBits, l.statusBits, l.portsPerGroup, l.groups], [g, 13 - g, 13 - g, 1 << g]);
    // Highest port: last group, last offset — CMD 1 | status MSB only | all-ones group.
    const stype2 = (1 << 13) | (1 << 12) | ((1 << g) - 1);
    const top = (1 << g) * (13 - g) - 1;
    assert.deepEqual(congestedPortsOf(stype2, 'part12-rev4.1', g), [top], `G = ${g}`);
    assert.deepEqual(groupOfPort(top, 'part12-rev4.1', g), { group: (1 << g) - 1, offset: 12 - g });
  }
  // G = 0 (the reset value): one group, ports 0–12 in status bits 13..1.
  assert.deepEqual(congestedPortsOf(0x3fff, 'part12-rev4.1', 0), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.throws(() => voqLayout('part12-rev4.1', 7), isWire('invalid', 'part12GroupSize'));
  assert.throws(() => decodeStype2(0, { voqFormat: 'part12-rev4.1', part12GroupSize: 1.5 }), isWire('invalid', 'part12GroupSize'));
});

test('Part 12 §3.1 Table 3-1: CMD 0b0 is reserved; an all-zero stype2 is the unused field (NOP), anything else RESERVED', () => {
  const opts = { voqFormat: 'part12-rev4.1' } as const;
  assert.equal(decodeStype2(0, { ...opts, strict: true }).cmdName, 'NOP');
  const v = decodeStype2(0x0005, opts);
  assert.equal(v.cmdName, 'RESERVED');
  assert.deepEqual(v.congestedPorts, []);
  assert.equal(encodeStype2(v), 0x0005);
  assert.throws(() => decodeStype2(0x0005, { ...opts, strict: true }), isWire('reserved', 'stype2'));
});

test('DECISIONS §5: the seed format is the default and the two formats read the same bits differently', () => {
  // Seed: CMD 001 | status 000001 | group 00000 = port 0. Part 12: CMD bit 0 = 0, so reserved.
  assert.equal(decodeStype2(0x0820).format, 'seed');
  assert.deepEqual(decodeStype2(0x0820).congestedPorts, [0]);
  assert.equal(decodeStype2(0x0820, { voqFormat: 'part12-rev4.1' }).cmdName, 'RESERVED');
});

test('VoQ Backpressure §3.1: encoding checks every field against its width', () => {
  assert.throws(() => encodeStype2({ cmd: 8, portGroup: 0, portStatus: 0 }), isWire('range', 'voq.cmd'));
  assert.throws(() => encodeStype2({ cmd: 1, portGroup: 0, portStatus: 64 }), isWire('range', 'voq.portStatus'));
  assert.throws(() => encodeStype2({ format: 'part12-rev4.1', cmd: 2, portGroup: 0, portStatus: 0 }), isWire('range', 'voq.cmd'));
  assert.throws(() => encodeStype2({ format: 'part12-rev4.1', portGroupSize: 0, cmd: 1, portGroup: 1, portStatus: 0 }), isWire('range', 'voq.portGroup'));
  assert.throws(() => congestedPortsOf(1 << 14), isWire('range', 'stype2'));
});
