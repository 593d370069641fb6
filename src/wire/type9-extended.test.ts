import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeType9, encodeType9, type9Codec, type9Length } from './type9.ts';
import type { Type9Packet, Type9Segment } from './type9.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';
import type { WireErrorCode } from './errors.ts';

/** Type 9 packets with xh = 1 (Part 10 §4.3): traffic management and reserved xtypes. */

function throwsWire(fn: () => unknown, code: WireErrorCode, field?: string, offset?: number): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WireError, `not a WireError: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (field !== undefined) assert.equal(e.field, field);
    if (offset !== undefined) assert.equal(e.offset, offset);
    return true;
  });
}

/** Asserts the segment and narrows the packet to it. */
function seg<S extends Type9Segment>(p: Type9Packet, s: S): Type9Packet & { readonly segment: S } {
  assert.equal(p.segment, s);
  return p as Type9Packet & { readonly segment: S };
}

function transport(p: Type9Packet): Uint8Array {
  const out = new Uint8Array(type9Length(p));
  assert.equal(encodeType9(p, out, 0), out.length);
  return out;
}

function serial(p: Type9Packet): Uint8Array {
  const out = new Uint8Array(serialLength(type9Length(p)));
  encodeSerial(type9Codec, p, out, 0);
  return out;
}

const hex = (s: string) => s.replace(/ /g, '');

// Figure 4-5 with DECISIONS §4 field order, Dev8: <cos 3> XOFF for all streams of class 3
// (§3.4.1 example "Endpoint 21 sends <cos 3> XOFF to endpoint 6"):
//   byte 1 = prio 00 | tt 00 | 1001 = 0x09; destinationID 0x06, sourceID 0x15 (21), cos 0x03
//   flags = rsrv 00 | xtype 000 | xh 1 | rsrv 00 = 0x04; streamID 0x0000 (don't care)
//   TM_OP 0000 | rsrv 0 | wildcard 001 = 0x01; mask 0x00; parameter1 0x00; parameter2 0x00 (XOFF)
//   12 bytes + CRC 0xd6b4 = 14 → pad to 16.
const DEV8_TM_XOFF = '0009 06 15 03 04 0000 01 00 00 00 d6b4 0000';

test('Part 10 §4.3 Figure 4-5, DECISIONS §4: Dev8 TM basic XOFF for a class golden vector', () => {
  const bytes = parseHex(DEV8_TM_XOFF);
  const p = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 6, sourceID: 21, cos: 3, start: 0, end: 0,
    xtype: 0, xh: 1, odd: 0, pad: 0, segment: 'tm', streamID: 0, tmOp: 0, tmOpName: 'BASIC', rsrv: 0, wildcard: 1, mask: 0,
    parameter1: 0, parameter2: 0, tm: { message: 'XOFF' }, operand: { scope: 'class' }, crc: 0xd6b4,
  });
  assert.equal(toHex(serial(p)), hex(DEV8_TM_XOFF));
});

// Dev16 credit ALLOCATE AU 3, 16 credits, for one stream:
//   byte 1 = 00 | 01 | 1001 = 0x19; destinationID 0x0006, sourceID 0x0015, cos 0x20, flags 0x04
//   streamID 0x0100; TM_OP 0010 | 0 | wildcard 000 = 0x20; mask 0x00; parameter1 0b0001_0011 = 0x13;
//   parameter2 0x10; 14 bytes + CRC 0xa870 = 16, no pad.
const DEV16_TM_ALLOCATE = '0019 0006 0015 20 04 0100 20 00 13 10 a870';

test('Part 10 §4.3.4 Table 4-6: Dev16 TM credit ALLOCATE golden vector', () => {
  const bytes = parseHex(DEV16_TM_ALLOCATE);
  const p = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  const t = seg(p, 'tm');
  assert.deepEqual([t.tmOpName, t.streamID, t.tm, t.operand], ['CREDIT', 0x100, { message: 'ALLOCATE', allocationUnit: 3, credits: 16 }, { scope: 'stream' }]);
  assert.equal(toHex(serial(p)), hex(DEV16_TM_ALLOCATE));
});

test('Part 10 §4.3.2–4.3.4: every TM message type survives encode → serial → decode', () => {
  const rows: [number, number, number, string][] = [
    [0, 0, 0, 'XOFF'], [0, 0, 0xff, 'XON'], [0, 0, 7, 'USER_DEFINED'], [0, 3, 9, 'Q_STATUS'],
    [1, 0, 0, 'XOFF'], [1, 0, 0xff, 'XON'], [1, 0, 1, 'USER_DEFINED'], [1, 1, 0, 'MAINTAIN'], [1, 5, 3, 'REDUCE'],
    [1, 2, 9, 'INCREASE'], [1, 6, 0xff, 'DOUBLE'], [1, 3, 0x80, 'Q_STATUS'],
    [2, 0, 0, 'XOFF'], [2, 0, 0xff, 'XON'], [2, 0, 2, 'USER_DEFINED'], [2, 0x11, 4, 'ALLOCATE'], [2, 0x22, 0, 'CREDIT_STATUS'], [2, 0x30, 1, 'Q_STATUS'],
    [3, 0x55, 0xaa, 'APPLICATION_DEFINED'],
  ];
  for (const [tmOp, p1, p2, name] of rows) {
    // TM header byte 8 = TM_OP << 4 | rsrv 0 | wildcard 001.
    const bytes = parseHex(`0009 06 15 03 04 0000 ${((tmOp << 4) | 1).toString(16).padStart(2, '0')} 00 ${p1.toString(16).padStart(2, '0')} ${p2.toString(16).padStart(2, '0')}`);
    const p = decodeType9(bytes, 0, 12, { strict: true });
    assert.equal(seg(p, 'tm').tm.message, name, `TM OP ${tmOp} ${p1}/${p2}`);
    assert.deepEqual(transport(p), bytes);
    const s = serial(p);
    assert.deepEqual(decodeSerial(type9Codec, s, 0, s.length, { strict: true }), { ...p, crc: decodeSerial(type9Codec, s, 0, s.length).crc });
  }
});

test('Part 10 §4.3.1: invalid wildcard and mask are reported in operand (lenient) and throw "invalid" (strict)', () => {
  // wildcard 010 (byte 8 = 0x02), then wildcard 001 with mask 0x02.
  const wc = parseHex('0009 06 15 03 04 0000 02 00 00 00');
  const p = decodeType9(wc, 0, 12);
  assert.deepEqual(seg(p, 'tm').operand, { scope: 'INVALID', problem: 'wildcard' });
  assert.deepEqual(transport(p), wc);
  throwsWire(() => decodeType9(wc, 0, 12, { strict: true }), 'invalid', 'wildcard', 8);
  const mask = parseHex('0009 06 15 03 04 0000 01 02 00 00');
  assert.deepEqual(transport(decodeType9(mask, 0, 12)), mask);
  assert.deepEqual(seg(decodeType9(mask, 0, 12), 'tm').operand, { scope: 'INVALID', problem: 'mask' });
  throwsWire(() => decodeType9(mask, 0, 12, { strict: true }), 'invalid', 'mask', 9);
});

test('Part 10 §4.3 Table 4-3: reserved TM OP and parameter values are labelled (lenient) and throw "reserved" (strict)', () => {
  const op = parseHex('0009 06 15 03 04 0000 41 00 00 00');
  assert.deepEqual(seg(decodeType9(op, 0, 12), 'tm').tm, { message: 'RESERVED', field: 'tmOp' });
  assert.equal(seg(decodeType9(op, 0, 12), 'tm').tmOpName, 'RESERVED');
  throwsWire(() => decodeType9(op, 0, 12, { strict: true }), 'reserved', 'tmOp', 8);
  const p1 = parseHex('0009 06 15 03 04 0000 01 00 07 00');
  throwsWire(() => decodeType9(p1, 0, 12, { strict: true }), 'reserved', 'parameter1', 10);
  const p2 = parseHex('0009 06 15 03 04 0000 11 00 02 00');
  throwsWire(() => decodeType9(p2, 0, 12, { strict: true }), 'reserved', 'parameter2', 11);
});

test('Part 10 §4.3: S, E, O, P and the TM rsrv bit are left 0 in extended packets (strict); lenient keeps them', () => {
  // flags = S 1 | E 0 | 000 | xh 1 | O 0 | P 1 = 0x85; TM byte = 0000 | rsrv 1 | 001 = 0x09.
  const bytes = parseHex('0009 06 15 03 85 0000 01 00 00 00');
  const p = decodeType9(bytes, 0, 12);
  assert.deepEqual([p.segment, p.start, p.pad], ['tm', 1, 1]);
  assert.deepEqual(transport(p), bytes);
  throwsWire(() => decodeType9(bytes, 0, 12, { strict: true }), 'reserved', 'flags', 5);
  const rsrv = parseHex('0009 06 15 03 04 0000 09 00 00 00');
  assert.equal(seg(decodeType9(rsrv, 0, 12), 'tm').rsrv, 1);
  assert.deepEqual(transport(decodeType9(rsrv, 0, 12)), rsrv);
  throwsWire(() => decodeType9(rsrv, 0, 12, { strict: true }), 'reserved', 'rsrv', 8);
});

test('Part 10 §4.3 Table 4-3: xtype 0b001–0b111 is reserved — decoded as "extended" with an opaque payload', () => {
  // flags = 00 | xtype 010 | xh 1 | 00 = 0x14
  const bytes = parseHex('0009 06 15 03 14 0000 deadbeef');
  const p = decodeType9(bytes, 0, 12);
  const x = seg(p, 'extended');
  assert.deepEqual([x.xtype, x.streamID, toHex(x.payload)], [2, 0, 'deadbeef']);
  assert.deepEqual(transport(p), bytes);
  throwsWire(() => decodeType9(bytes, 0, 12, { strict: true }), 'reserved', 'xtype', 5);
});

test('Part 10 §4.3: "The TM packet adds a fixed 4 bytes" — missing or extra bytes are errors', () => {
  throwsWire(() => decodeType9(parseHex('0009 06 15 03 04 0000 01 00 00'), 0, 11), 'truncated', 'tm');
  throwsWire(() => decodeType9(parseHex('0009 06 15 03 04 0000 01 00 00 00 0000'), 0, 14), 'trailing-bytes', 'packet', 12);
});
