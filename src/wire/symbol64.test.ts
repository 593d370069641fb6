import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import { parseHex, toHex } from './hex.ts';
import { SYMBOL64_LENGTH, buildSymbol64, decodeSymbol64, encodeSymbol64 } from './symbol64.ts';
import type { Symbol64Fields } from './symbol64.ts';

function isWire(code: string, field: string, offset?: number) {
  return (e: unknown): boolean =>
    e instanceof WireError && e.code === code && e.field === field && (offset === undefined || e.offset === offset);
}

function encoded(f: Omit<Symbol64Fields, 'link'>): Uint8Array {
  const out = new Uint8Array(SYMBOL64_LENGTH);
  encodeSymbol64({ link: 'cs64', ...f }, out, 0);
  return out;
}
const decode = (b: Uint8Array, strict = false, part12GroupSize?: number) =>
  decodeSymbol64(b, 0, b.length, { strict, ...(part12GroupSize === undefined ? {} : { part12GroupSize }) });

/*
 * Golden symbols assembled from Part 6 Figure 3-3: stype0(4) parameter0(12) parameter1(12)
 * alignment(2) stype1[0:1](2) | stype1[2:7](6) CRC-24(24) alignment(2), bit 0 first. The first
 * comment line gives the fields, the second the two 32-bit halves. The CRC bits c0..c23 are those
 * of the parallel equations of Table 3-27 (c_i = XOR of the data bits marked in column C_i,
 * inverted once per "!x") over bits 0–37 with the alignment bits as 0; crc24.test.ts shows the
 * equations and riodp's CRC-24 agree on every input.
 */
const GOLDEN = [
  // 0000 | 0000_0000_0011 | 0000_0000_0101 | 00 | 00 ‖ 111000 | CRC 0xe04cf1 | 00
  //   = 0x00030050 0xe38133c4 (0b111000 << 26 | 0xe04cf1 << 2)
  { clause: 'Part 6 §3.4.1 Table 3-5', what: 'packet-accepted ackID 3, 5 buffers, stype1 NOP 0x38', hex: '00030050e38133c4',
    expect: { link: 'cs64', stype0: 0, stype0Name: 'packet-accepted', parameter0: 3, parameter1: 5, packetAckID: 3, bufStatus: 5, stype1: 0x38, stype1Name: 'NOP', crc: 0xe04cf1 } },
  // 1011 | 1111_1111_1111 | 0000_0000_0000 | 00 | 00 ‖ 101011 | CRC 0x674f7f | 00
  //   = 0xbfff0000 0xad9d3dfc
  { clause: 'Part 6 §3.4.8 Table 3-16, §3.5.6 Table 3-24', what: 'loop-response with Delay 0xFFF ("exceeded 4094 nanoseconds") and stype1 loop-timing-request 0x2B', hex: 'bfff0000ad9d3dfc',
    expect: { link: 'cs64', stype0: 11, stype0Name: 'loop-response', parameter0: 0xfff, parameter1: 0, delay: 0xfff, stype1: 0x2b, stype1Name: 'loop-timing-request', crc: 0x674f7f } },
  // 0110 | 0000_0000_0001 | 0_01_1_0_00_1_1_000 | 00 | 00 ‖ 111000 | CRC 0x0b8fd2 | 00
  //   = 0x60013180 0xe02e3f48
  { clause: 'Part 6 §3.4.7 Table 3-13/3-15', what: 'link-response ackID_status 1, input retry-stopped and enabled, output enabled, port-write pending', hex: '60013180e02e3f48',
    expect: { link: 'cs64', stype0: 6, stype0Name: 'link-response', parameter0: 1, parameter1: 0x318, ackIDStatus: 1, inputPortStatus: 1, inputPortStatusName: 'retry-stopped', inputPortEnabled: 1,
      outputPortStatus: 0, outputPortStatusName: 'none', outputPortEnabled: 1, portWritePending: 1, stype1: 0x38, stype1Name: 'NOP', crc: 0x0b8fd2 } },
  // 0100 | 0000_0000_0001 | 1111_1111_1110 | 00 | 10 ‖ 101010 | CRC 0x815f4c | 00
  //   = 0x4001ffe2 0xaa057d30
  { clause: 'Part 6 §3.4.5 Table 3-10, §3.5.1 Table 3-19', what: 'status with buf_status 4094 ("at least 4094") and start-of-packet-unpadded carrying ackID[0:5] = 0b101010', hex: '4001ffe2aa057d30',
    expect: { link: 'cs64', stype0: 4, stype0Name: 'status', parameter0: 1, parameter1: 4094, ackIDStatus: 1, bufStatus: 4094, stype1: 0xaa, stype1Name: 'start-of-packet-unpadded', ackIDHigh: 42, crc: 0x815f4c } },
  // 1101 | 1111_0000_0000 | 0000_0010_0001 | 00 | 00 ‖ 111000 | CRC 0x39a5e4 | 00 (RX Port Group Size 4)
  //   = 0xdf000210 0xe0e69790: VC_IND 0b1111, status 0x0002 (offset 1), group 0x1: port 1·16 + 1
  { clause: 'Part 12 §3.2 Figure 3-4, Table 3-3/3-4', what: 'VoQ-backpressure, all VCs, group size 4: port 17 congested', hex: 'df000210e0e69790', groupSize: 4,
    expect: { link: 'cs64', stype0: 13, stype0Name: 'VoQ-backpressure', parameter0: 0xf00, parameter1: 0x021,
      voq: { format: 'part12-rev4.1', portGroupSize: 4, vcInd: 15, vcIndName: 'ALL_VCS', portGroup: 1, portStatus: 2, congestedPorts: [17] }, stype1: 0x38, stype1Name: 'NOP', crc: 0x39a5e4 } },
] as const;

for (const g of GOLDEN) {
  test(`${g.clause}: golden CS64 ${g.what}`, () => {
    const bytes = parseHex(g.hex);
    const gs = 'groupSize' in g ? g.groupSize : undefined;
    const s = decode(bytes, true, gs);
    assert.deepEqual(s, g.expect);
    assert.equal(toHex(encoded(s)), g.hex);
    assert.deepEqual(buildSymbol64(s, gs === undefined ? {} : { part12GroupSize: gs }), s);
  });
}

test('Part 6 §3.3 Figure 3-3: a CS64 is 8 bytes; fewer is truncated, more is trailing', () => {
  assert.equal(SYMBOL64_LENGTH, 8);
  const good = parseHex('00030050e38133c4');
  assert.throws(() => decodeSymbol64(good, 0, 7), isWire('truncated', 'symbol', 0));
  assert.throws(() => decodeSymbol64(parseHex('00030050e38133c400'), 0, 9), isWire('trailing-bytes', 'symbol', 8));
  assert.throws(() => decodeSymbol64(good.subarray(0, 6), 0, 8), isWire('truncated', 'symbol', 0));
});

test('Part 6 §3.6.5: a bad CRC-24 throws WireError crc on field crc at byte 4, naming CRC-24 and both values', () => {
  // Golden packet-accepted with CRC bit c23 (symbol bit 61) flipped: 0xe04cf1 → 0xe04cf0.
  const bytes = parseHex('aa00030050e38133c0');
  assert.throws(() => decodeSymbol64(bytes, 1, 9), (e: unknown) => isWire('crc', 'crc', 5)(e) && (e as WireError).detail === 'CRC-24 0xe04cf0, computed 0xe04cf1' && (e as WireError).clause === 'Part 6 §3.6.5');
  // The CRC bits are 38–61: the last two bits (62–63) are alignment, not CRC.
  assert.doesNotThrow(() => decodeSymbol64(parseHex('00030050e38133c5'), 0, 8));
});

test('Part 6 §3.6.5: the CRC-24 covers bits 0–37; any single flipped bit there or in the CRC is a CRC error', () => {
  const good = parseHex('df000210e0e69790');
  for (let bit = 0; bit < 62; bit++) {
    if (bit === 28 || bit === 29) continue;
    const bad = good.slice();
    bad[bit >> 3] = (bad[bit >> 3] as number) ^ (0x80 >> (bit & 7));
    assert.throws(() => decode(bad), isWire('crc', 'crc', 4), `bit ${bit}`);
  }
});

test('Part 6 §3.2 Table 3-1, §3.6.5: alignment bits are "treated as 0" by the CRC; lenient keeps them, strict rejects them as invalid', () => {
  const bytes = encoded({ stype0: 4, parameter0: 1, parameter1: 2, stype1: 0x38, alignment0: 0b10, alignment1: 0b01 });
  // Same CRC as with zero alignment bits.
  assert.equal(toHex(bytes.subarray(4, 7)), toHex(encoded({ stype0: 4, parameter0: 1, parameter1: 2, stype1: 0x38 }).subarray(4, 7)));
  const s = decode(bytes);
  assert.deepEqual([s.alignment0, s.alignment1], [0b10, 0b01]);
  assert.deepEqual(encoded(s), bytes);
  assert.throws(() => decode(bytes, true), isWire('invalid', 'alignment0', 3));
  const onlyLast = encoded({ stype0: 4, parameter0: 1, parameter1: 2, stype1: 0x38, alignment1: 0b11 });
  assert.throws(() => decode(onlyLast, true), isWire('invalid', 'alignment1', 7));
});

test('Part 6 §3.4 Table 3-3: stype0 0b1000–0b1010, 0b1100, 0b1110, 0b1111 are reserved: labelled leniently, rejected strictly at byte 0', () => {
  for (const stype0 of [8, 9, 10, 12, 14, 15]) {
    const bytes = encoded({ stype0, parameter0: 0xabc, parameter1: 0x123, stype1: 0x38 });
    const s = decode(bytes);
    assert.equal(s.stype0Name, 'RESERVED');
    assert.deepEqual([s.parameter0, s.parameter1, s.packetAckID, s.voq], [0xabc, 0x123, undefined, undefined]);
    assert.throws(() => decode(bytes, true), isWire('reserved', 'stype0', 0));
  }
});

test('Part 6 §3.5 Table 3-18: reserved stype1 values are labelled leniently and rejected strictly at byte 3', () => {
  for (const stype1 of [0x00, 0x07, 0x09, 0x12, 0x19, 0x21, 0x25, 0x2a, 0x2c, 0x37, 0x39, 0x7f]) {
    const bytes = encoded({ stype0: 4, parameter0: 0, parameter1: 0, stype1 });
    assert.equal(decode(bytes).stype1Name, 'RESERVED', `0x${stype1.toString(16)}`);
    assert.throws(() => decode(bytes, true), isWire('reserved', 'stype1', 3));
  }
});

test('Part 6 §3.4.3 Table 3-7/3-8: packet-not-accepted parameter1 is 0b000_0000 ‖ cause; reserved bits and causes', () => {
  const rsrv = encoded({ stype0: 2, parameter0: 0x7ff, parameter1: (0b1000001 << 5) | 31, stype1: 0x38 });
  const s = decode(rsrv);
  assert.deepEqual([s.ackIDStatus, s.cause, s.causeName, s.rsrv1], [0x7ff, 31, 'general-error', 0b1000001]);
  assert.deepEqual(encoded(s), rsrv);
  assert.throws(() => decode(rsrv, true), isWire('reserved', 'parameter1', 2));
  const cause = encoded({ stype0: 2, parameter0: 0, parameter1: 0b01000, stype1: 0x38 });
  assert.equal(decode(cause).causeName, 'RESERVED');
  assert.throws(() => decode(cause, true), isWire('reserved', 'cause', 2));
});

test('Part 6 §3.4.6 Table 3-11: VC_status parameter0 is 0b0_0000_0000 ‖ VCID; lenient keeps rsrv0, strict rejects it', () => {
  const bytes = encoded({ stype0: 5, parameter0: (0x155 << 3) | 6, parameter1: 4095, stype1: 0x38 });
  const s = decode(bytes);
  assert.deepEqual([s.vcid, s.bufStatus, s.rsrv0], [6, 4095, 0x155]);
  assert.throws(() => decode(bytes, true), isWire('reserved', 'parameter0', 0));
});

test('Part 6 §6.5.3.5.1 Table 6-5: a CS64 timestamp carries sequence (parameter0 bits 3–4) and 16 timestamp bits; bits 0–2 and 5–7 are reserved', () => {
  // Sequence 2: Timestamp[32:35] in parameter0 bits 8–11, Timestamp[36:47] in parameter1.
  const bytes = encoded({ stype0: 3, parameter0: (0b10 << 7) | 0xa, parameter1: 0xbcd, stype1: 0x38 });
  const s = decode(bytes, true);
  assert.deepEqual([s.sequence, s.timestamp, s.rsrv0], [2, 0xabcd, undefined]);
  // A CS64 loop-response is its own stype0 (0b1011): a timestamp has no Delay reading.
  assert.deepEqual([s.delay, 'startFlag' in s, 'endFlag' in s], [undefined, false, false]);
  const rsrv = encoded({ stype0: 3, parameter0: (0b101 << 9) | (0b11 << 7) | (0b011 << 4) | 0xf, parameter1: 0, stype1: 0x38 });
  const r = decode(rsrv);
  assert.deepEqual([r.sequence, r.timestamp, r.rsrv0], [3, 0xf000, 0b101_011]);
  assert.throws(() => decode(rsrv, true), isWire('reserved', 'parameter0', 0));
});

test('Part 6 §3.4.7 Table 3-15: link-response port_status bits 0, 4 and 9–11 are reserved; input/output status 0b11 is a fatal error', () => {
  const bytes = encoded({ stype0: 6, parameter0: 0, parameter1: 0b1_11_0_1_11_0_0_101, stype1: 0x38 });
  const s = decode(bytes);
  assert.deepEqual([s.inputPortStatusName, s.outputPortStatusName, s.inputPortEnabled, s.outputPortEnabled, s.portWritePending, s.rsrv1], ['fatal-error', 'fatal-error', 0, 0, 0, 0b1_1_101]);
  assert.deepEqual(encoded(s), bytes);
  assert.throws(() => decode(bytes, true), isWire('reserved', 'parameter1', 2));
});

test('Part 6 §3.4.8 Table 3-16: loop-response parameter1 is reserved ("0x000" in Table 3-3)', () => {
  const bytes = encoded({ stype0: 11, parameter0: 12, parameter1: 0x800, stype1: 0x38 });
  assert.deepEqual([decode(bytes).delay, decode(bytes).rsrv1], [12, 0x800]);
  assert.throws(() => decode(bytes, true), isWire('reserved', 'parameter1', 2));
});

test('Part 6 §3.4 Table 3-4 (decision): all 12 bits of packet_ackID and ackID_status are read as such; the Error Free Mode reservation depends on the link\'s mode and is not applied', () => {
  const s = decode(encoded({ stype0: 0, parameter0: 0xfff, parameter1: 0, stype1: 0x38 }), true);
  assert.deepEqual([s.packetAckID, s.rsrv0], [0xfff, undefined]);
  assert.equal(decode(encoded({ stype0: 4, parameter0: 0xfc0, parameter1: 1, stype1: 0x38 }), true).ackIDStatus, 0xfc0);
});

test('Part 6 §3.4 Table 3-3: implementation-defined (0b0111) is a defined encoding, accepted in strict mode with raw parameters', () => {
  const s = decode(encoded({ stype0: 7, parameter0: 0xfff, parameter1: 0xfff, stype1: 0x38 }), true);
  assert.deepEqual([s.stype0Name, s.parameter0, s.packetAckID, s.bufStatus], ['implementation-defined', 0xfff, undefined, undefined]);
});

test('Part 12 §3.2: a reserved VC_IND is labelled RESERVED, strictly too ("ignore the VoQ Backpressure control symbol without error"); decodeSymbol64 reads the VoQ message with the RX Port Group Size', () => {
  const bytes = encoded({ stype0: 13, parameter0: (0b1001 << 8) | 0x01, parameter1: 0x001, stype1: 0x38 });
  assert.equal(decode(bytes).voq?.vcIndName, 'RESERVED');
  assert.deepEqual(decode(bytes, true), decode(bytes));
  // parameter = 0x01001: with G = 0 status bits 0 and 12 (ports 0, 12); with G = 6, group 1 and status 0x40 (offset 6: port 14 + 6).
  assert.deepEqual(decode(bytes, false, 0).voq?.congestedPorts, [0, 12]);
  assert.deepEqual(decode(bytes, false, 6).voq?.congestedPorts, [20]);
  assert.throws(() => decode(bytes, false, 7), isWire('invalid', 'part12GroupSize'));
});

test('Part 6 §3.3 Figure 3-3: encoding checks every field against its width, the link and the buffer', () => {
  const base = { stype0: 0, parameter0: 0, parameter1: 0, stype1: 0x38 } as const;
  assert.throws(() => encoded({ ...base, stype0: 16 }), isWire('range', 'stype0'));
  assert.throws(() => encoded({ ...base, parameter0: 4096 }), isWire('range', 'parameter0'));
  assert.throws(() => encoded({ ...base, parameter1: -1 }), isWire('range', 'parameter1'));
  assert.throws(() => encoded({ ...base, stype1: 256 }), isWire('range', 'stype1'));
  assert.throws(() => encoded({ ...base, alignment0: 4 }), isWire('range', 'alignment0'));
  assert.throws(() => encoded({ ...base, alignment1: 1.5 }), isWire('range', 'alignment1'));
  assert.throws(() => encodeSymbol64({ link: 'cs64', ...base }, new Uint8Array(7), 0), isWire('range', 'buffer'));
  const cs48 = JSON.parse('{"link":"cs48","stype0":0,"parameter0":0,"parameter1":0,"stype1":56}') as Symbol64Fields;
  assert.throws(() => encodeSymbol64(cs48, new Uint8Array(8), 0), isWire('invalid', 'link'));
});

test('Part 6 §3.6.5: encoding writes at the offset given and always generates the CRC-24', () => {
  const s = decode(parseHex('00030050e38133c4'));
  const out = new Uint8Array(10);
  assert.equal(encodeSymbol64({ ...s, crc: 0 } as Symbol64Fields, out, 2), 10);
  assert.equal(toHex(out), '000000030050e38133c4');
  out[9] = 0xc5;
  assert.doesNotThrow(() => decodeSymbol64(out, 2, 10));
  out[8] = 0x34;
  assert.throws(() => decodeSymbol64(out, 2, 10), isWire('crc', 'crc', 6));
});
