import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { decodeSmp, smpBytes } from './index.ts';
import { smpUserDefined } from './userdefined.ts';

// Table 4-11:
//   Word 0: CMD 0xF3 | VER 0x01 | COS 0x05 | Reserved 0x00
//   Word 1: SourceID 0x0012 | StreamID 0x0042
//   Words 2-3: user-defined data 01..08
const USER = 'f3010500 00120042 01020304 05060708';

test('Annex 2 §4.2.9 Table 4-11: USERDEFINED commands 0xF0 to 0xFF with COS, SourceID, StreamID and opaque data', () => {
  const b = parseHex(USER);
  const m = decodeSmp(b, 0, b.length, { strict: true });
  assert.ok(m.command === 'USERDEFINED');
  assert.deepEqual([m.cmd, m.ver, m.cos, m.rsrv, m.sourceID, m.streamID, toHex(m.userDefinedData)], [0xf3, 1, 5, 0, 0x12, 0x42, '0102030405060708']);
  const built = smpUserDefined({ cmd: 0xf3, cos: 5, sourceID: 0x12, streamID: 0x42, userDefinedData: parseHex('0102030405060708') });
  assert.equal(toHex(smpBytes(built)), toHex(b));
  for (const cmd of [0xf0, 0xff]) {
    b[0] = cmd;
    assert.equal(decodeSmp(b, 0, b.length).command, 'USERDEFINED');
  }
});

test('Annex 2 §4.2.9: the user-defined data runs to the end of the message, pad included', () => {
  // Three data octets: riodp neither adds nor strips a pad in USERDEFINED.
  const b = parseHex('f0010000 00010002 aabbcc');
  const m = decodeSmp(b, 0, b.length, { strict: true });
  assert.equal(m.command === 'USERDEFINED' && toHex(m.userDefinedData), 'aabbcc');
  assert.equal(toHex(smpBytes(m)), toHex(b));
});

test('Annex 2 §3.8.5, §4.2.9 Table 4-11: the Reserved octet must be zero', () => {
  const b = parseHex('f3010501 00120042');
  assert.throws(() => decodeSmp(b, 0, b.length, { strict: true }), (e: unknown) => e instanceof WireError && e.code === 'reserved' && e.offset === 3);
  const m = decodeSmp(b, 0, b.length);
  assert.equal(m.command === 'USERDEFINED' && m.rsrv, 1);
  assert.equal(toHex(smpBytes(m)), toHex(b));
});

test('Annex 2 §4.2.9: constructing a USERDEFINED outside 0xF0-0xFF is a range error', () => {
  assert.throws(() => smpUserDefined({ cmd: 0xef, sourceID: 0, streamID: 0 }), (e: unknown) => e instanceof WireError && e.code === 'range');
});
