import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandHasSeq, decodeType7, encodeType7, makeCcp, type7Codec, type7Command, type7Fam, type7Length } from './type7.ts';
import type { Type7Command, Type7Packet } from './type7.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { FLOW_IDS } from './flow-id.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';
import type { WireErrorCode } from './errors.ts';

function throwsWire(fn: () => unknown, code: WireErrorCode, field?: string, offset?: number): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WireError, `not a WireError: ${String(e)}`);
    assert.equal(e.code, code);
    if (field !== undefined) assert.equal(e.field, field);
    if (offset !== undefined) assert.equal(e.offset, offset);
    return true;
  });
}

function serial(p: Type7Packet): Uint8Array {
  const out = new Uint8Array(serialLength(type7Length(p)));
  encodeSerial(type7Codec, p, out, 0);
  return out;
}

// Dev8 XOFF from a switch (Figure 3-1/3-2):
//   byte 0 = ackID 000000 | VC 0 | CRF 1              = 0x01
//   byte 1 = prio 11 | tt 00 | ftype 0111             = 0xc7
//   destinationID 0x12, tgtdestinationID 0x34
//   byte 4 = XON/XOFF 0 | FAM 000 | rsrv 0000        = 0x00
//   byte 5 = flowID 0000010 (0C) | SOC 0             = 0x04
//   CRC-16 0xb0f2 (crc16Bitwise reference); 6 + 2 = 8 bytes, no pad.
const DEV8_XOFF = '01c7 1234 0004 b0f2';
const dev8Xoff: Type7Packet = {
  ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 0x12, tgtdestinationID: 0x34,
  xonXoff: 0, fam: 0, command: 'XOFF', flowIDCode: 0b0000010, flowID: '0C', soc: 0, rsrv: 0,
};

test('Part 9 §3.2 Figure 3-1, §3.4 Figure 3-2: Dev8 XOFF CCP golden vector, 8 bytes on the wire', () => {
  const bytes = parseHex(DEV8_XOFF);
  assert.deepEqual(decodeSerial(type7Codec, bytes, 0, bytes.length, { strict: true }), { ...dev8Xoff, crc: 0xb0f2 });
  assert.equal(toHex(serial(dev8Xoff)), DEV8_XOFF.replace(/ /g, ''));
  assert.deepEqual(decodeType7(bytes, 0, 6, { strict: true }), dev8Xoff);
});

// Dev16 XON(ARB) with Y = 1 from an end point:
//   byte 0 = ackID 000101 | VC 0 | CRF 1              = 0x15
//   byte 1 = prio 11 | tt 01 | ftype 0111             = 0xd7
//   destinationID 0x1234, tgtdestinationID 0xabcd (in the sourceID slot)
//   byte 6 = XON/XOFF 1 | FAM 011 | rsrv 0000        = 0xb0
//   byte 7 = flowID 1000001 (1A) | SOC 1             = 0x83
//   CRC 0x15c2, then "when tt=0b01 there will be a pad after the CRC": 0x0000 → 12 bytes.
const DEV16_XON_ARB = '15d7 1234 abcd b083 15c2 0000';

test('Part 9 §3.4: Dev16 XON(ARB) CCP golden vector, 10 bytes + 2 pad', () => {
  const bytes = parseHex(DEV16_XON_ARB);
  const p = decodeSerial(type7Codec, bytes, 0, bytes.length, { strict: true });
  assert.equal(p.command, 'XON_ARB');
  assert.equal(p.seq, 1);
  assert.equal(p.destinationID, 0x1234);
  assert.equal(p.tgtdestinationID, 0xabcd);
  assert.equal(p.flowID, '1A');
  assert.equal(p.soc, 1);
  assert.equal(p.ackID, 5);
  assert.equal(toHex(serial(p)), DEV16_XON_ARB.replace(/ /g, ''));
  assert.equal(bytes.length, 12);
});

// Dev32 REQUEST multi-PDU with Y = 0 (DECISIONS §3: "Dev32 = 14 + 2 pad = 16"):
//   byte 0 = ackID 111111 | VC 1 | CRF 0              = 0xfe
//   byte 1 = prio 10 | tt 10 | ftype 0111             = 0xa7
//   destinationID 0x89abcdef, tgtdestinationID 0x01020304
//   byte 10 = XON/XOFF 1 | FAM 110 | rsrv 0000       = 0xe0
//   byte 11 = flowID 1001000 (8A) | SOC 1            = 0x91
//   CRC 0x5f9b, pad 0x0000.
const DEV32_REQ_MULTI = 'fea7 89abcdef 01020304 e091 5f9b 0000';

test('Part 9 §3.2 (rev 4.1 Dev32): Dev32 REQUEST multi-PDU CCP golden vector, 14 bytes + 2 pad', () => {
  const bytes = parseHex(DEV32_REQ_MULTI);
  const p = decodeSerial(type7Codec, bytes, 0, bytes.length, { strict: true });
  assert.deepEqual(p, {
    ackID: 63, vc: 1, crf: 0, prio: 2, tt: 2, ftype: 7, destinationID: 0x89abcdef, tgtdestinationID: 0x01020304,
    xonXoff: 1, fam: 0b110, command: 'REQUEST_MULTI_PDU', seq: 0, flowIDCode: 0b1001000, flowID: '8A', soc: 1, rsrv: 0, crc: 0x5f9b,
  });
  assert.equal(toHex(serial(p)), DEV32_REQ_MULTI.replace(/ /g, ''));
});

test('DECISIONS §3: CCP lengths — Dev8 8, Dev16 12, Dev32 16 bytes on the wire', () => {
  assert.deepEqual([0, 1, 2].map((tt) => type7Length({ tt })), [6, 8, 12]);
  assert.deepEqual([0, 1, 2].map((tt) => serialLength(type7Length({ tt }))), [8, 12, 16]);
});

test('Part 9 §3.3 Table 3-2: every XON/XOFF and FAM row', () => {
  // [XON/XOFF, FAM, command, Y] straight from Table 3-2; undefined rows per DECISIONS §3.
  const rows: [number, number, Type7Command, number | undefined][] = [
    [0, 0b000, 'XOFF', undefined], [0, 0b001, 'UNDEFINED', undefined],
    [0, 0b010, 'XOFF_ARB', 0], [0, 0b011, 'XOFF_ARB', 1],
    [0, 0b100, 'RELEASE', 0], [0, 0b101, 'RELEASE', 1],
    [0, 0b110, 'UNDEFINED', undefined], [0, 0b111, 'UNDEFINED', undefined],
    [1, 0b000, 'XON', undefined], [1, 0b001, 'UNDEFINED', undefined],
    [1, 0b010, 'XON_ARB', 0], [1, 0b011, 'XON_ARB', 1],
    [1, 0b100, 'REQUEST_SINGLE_PDU', 0], [1, 0b101, 'REQUEST_SINGLE_PDU', 1],
    [1, 0b110, 'REQUEST_MULTI_PDU', 0], [1, 0b111, 'REQUEST_MULTI_PDU', 1],
  ];
  for (const [x, fam, command, seq] of rows) {
    // Dev8 packet with only byte 4 varying: XON/XOFF in bit 7, FAM in bits 6–4.
    const bytes = Uint8Array.from([0x01, 0xc7, 0x12, 0x34, (x << 7) | (fam << 4), 0x04]);
    const p = decodeType7(bytes, 0, 6);
    assert.equal(p.command, command, `XON/XOFF ${x} FAM ${fam}`);
    assert.equal(p.seq, seq);
    assert.equal('seq' in p, seq !== undefined);
    assert.deepEqual(type7Command(x, fam), seq === undefined ? { command } : { command, seq });
    if (command !== 'UNDEFINED') {
      assert.deepEqual(type7Fam(command, seq), { xonXoff: x, fam });
      assert.equal(commandHasSeq(command), seq !== undefined);
      assert.deepEqual(decodeType7(bytes, 0, 6, { strict: true }), p);
    }
    const out = new Uint8Array(6);
    encodeType7(p, out, 0);
    assert.deepEqual(out, bytes);
  }
});

test('Part 9 §3.3 Table 3-2, DECISIONS §3: XOFF with FAM 001 is undefined — strict mode throws "undefined"', () => {
  const bytes = Uint8Array.from([0x01, 0xc7, 0x12, 0x34, 0b0_001_0000, 0x04]);
  throwsWire(() => decodeType7(bytes, 0, 6, { strict: true }), 'undefined', 'fam', 4);
});

test('Part 9 §3.3 Table 3-2, DECISIONS §3: XOFF with FAM 11Y and XON with FAM 001 are undefined', () => {
  for (const b of [0b0_110_0000, 0b0_111_0000, 0b1_001_0000]) {
    const bytes = Uint8Array.from([0x01, 0xc7, 0x12, 0x34, b, 0x04]);
    assert.equal(decodeType7(bytes, 0, 6).command, 'UNDEFINED');
    throwsWire(() => decodeType7(bytes, 0, 6, { strict: true }), 'undefined', 'fam', 4);
  }
});

test('Part 9 §3.2 Table 3-1: every flowID decodes to its label; reserved ones to RESERVED (strict: "reserved")', () => {
  const assigned = new Map<number, string>(Object.entries(FLOW_IDS).map(([l, c]) => [c, l]));
  for (let code = 0; code < 128; code++) {
    // byte 5 = flowID(7) | SOC 1
    const bytes = Uint8Array.from([0x01, 0xc7, 0x12, 0x34, 0x80, (code << 1) | 1]);
    const p = decodeType7(bytes, 0, 6);
    assert.equal(p.flowIDCode, code);
    assert.equal(p.soc, 1);
    const label = assigned.get(code);
    if (label === undefined) {
      assert.equal(p.flowID, 'RESERVED');
      throwsWire(() => decodeType7(bytes, 0, 6, { strict: true }), 'reserved', 'flowID', 5);
    } else {
      assert.equal(p.flowID, label);
      assert.equal(decodeType7(bytes, 0, 6, { strict: true }).flowID, label);
    }
    const out = new Uint8Array(6);
    encodeType7(p, out, 0);
    assert.deepEqual(out, bytes);
  }
});

test('Part 9 §3.2 Table 3-1 rsrv 0b0000: lenient keeps non-zero reserved bits, strict throws "reserved"', () => {
  const bytes = Uint8Array.from([0x01, 0xc7, 0x12, 0x34, 0x0a, 0x04]);
  const p = decodeType7(bytes, 0, 6);
  assert.equal(p.rsrv, 0xa);
  const out = new Uint8Array(6);
  encodeType7(p, out, 0);
  assert.deepEqual(out, bytes);
  throwsWire(() => decodeType7(bytes, 0, 6, { strict: true }), 'reserved', 'rsrv', 4);
});

test('Part 9 §3.2: "Type 7 packets do not have a data payload" — trailing bytes are an error', () => {
  const bytes = parseHex('01c7 1234 0004 0000');
  throwsWire(() => decodeType7(bytes, 0, 8), 'trailing-bytes', 'packet', 6);
});

test('Part 9 §3.2 Figure 3-1: truncated packets, a foreign ftype and tt 0b11 throw WireError', () => {
  const bytes = parseHex('01c7 1234 0004');
  throwsWire(() => decodeType7(bytes, 0, 5), 'truncated');
  throwsWire(() => decodeType7(bytes, 0, 1), 'truncated', 'prefix');
  throwsWire(() => decodeType7(parseHex('01c9 1234 0004'), 0, 6), 'invalid', 'ftype', 1);
  throwsWire(() => decodeType7(parseHex('01f7 1234 0004'), 0, 6), 'reserved', 'tt', 1);
});

test('Part 9 §3.2: there is no sourceID — tgtdestinationID sits in its slot', () => {
  // Dev16: prefix(2) | destinationID(2) | tgtdestinationID(2) | 2 bytes.
  const p = decodeType7(parseHex('15d7 0001 0002 b083'), 0, 8);
  assert.equal(p.destinationID, 1);
  assert.equal(p.tgtdestinationID, 2);
  assert.equal('sourceID' in p, false);
});

test('Part 9 §3.2: the encoder checks ranges and that labels agree with the raw fields', () => {
  const out = new Uint8Array(16);
  throwsWire(() => encodeType7({ ...dev8Xoff, destinationID: 0x100 }, out, 0), 'range', 'destinationID');
  throwsWire(() => encodeType7({ ...dev8Xoff, rsrv: 16 }, out, 0), 'range', 'rsrv');
  throwsWire(() => encodeType7({ ...dev8Xoff, command: 'XON' }, out, 0), 'invalid', 'command');
  throwsWire(() => encodeType7({ ...dev8Xoff, seq: 0 }, out, 0), 'invalid', 'command');
  throwsWire(() => encodeType7({ ...dev8Xoff, flowID: '0D' }, out, 0), 'invalid', 'flowID');
  throwsWire(() => encodeType7(dev8Xoff, new Uint8Array(5), 0), 'range', 'buffer');
  throwsWire(() => type7Fam('RELEASE'), 'range', 'seq');
  throwsWire(() => type7Fam('XON', 1), 'invalid', 'seq');
});

test('Part 9 §2.4.2: makeCcp marks CCPs prio 0b11 and CRF 1 when CRF is supported, 0 otherwise', () => {
  const p = makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XOFF', flowID: '0C', soc: 0 });
  assert.deepEqual(p, dev8Xoff);
  const q = makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 1, command: 'RELEASE', seq: 1, flowID: '0A', soc: 1, crfSupported: false });
  assert.equal(q.prio, 3);
  assert.equal(q.crf, 0);
  assert.equal(q.fam, 0b101);
  assert.equal(q.seq, 1);
  const out = new Uint8Array(12);
  assert.deepEqual(decodeSerial(type7Codec, out, 0, encodeSerial(type7Codec, q, out, 0), { strict: true }), { ...q, crc: decodeSerial(type7Codec, out, 0, 12).crc });
  // Flow arbitration messages may travel in the data flow: prio/CRF can be overridden.
  assert.equal(makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 0, command: 'XON_ARB', seq: 0, flowID: '0A', soc: 1, prio: 0, crf: 0 }).prio, 0);
});

test('Part 6 §2.2 Table 2-1: CCPs on CS24 links carry a 5-bit ackID', () => {
  const p = makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XON', flowID: '0A', soc: 1, ackID: 31 });
  const out = new Uint8Array(8);
  encodeSerial(type7Codec, p, out, 0, 5);
  // ackID 11111 left-justified, ackID[5] = 0, VC 0, CRF 1: 0b111110_0_1 = 0xf9.
  assert.equal(out[0], 0xf9);
  assert.equal(decodeSerial(type7Codec, out, 0, 8, { ackIdBits: 5, strict: true }).ackID, 31);
});
