import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, fails, flat } from '../../../test/support/smp.ts';
import { toHex } from '../hex.ts';
import { smpBytes } from './index.ts';
import { smpClose } from './close.ts';

// Table 4-8:
//   Word 0: CMD 0x08 | VER 0x01 | SourceID 0x0012
//   Word 1: DestID 0x0034 | COS 0x05 | Reserved 0x00
//   Word 2: StreamID 0x0042 | Reserved Reserved
//   Word 3: Reserved x4 (the 10 octets of fields padded to 16)
const CLOSE = '08010012 00340500 00420000 00000000';

test('Annex 2 §4.2.7 Table 4-8: CLOSE carries SourceID, DestID, COS and StreamID', () => {
  const m = decode(CLOSE);
  assert.ok(m.command === 'CLOSE');
  assert.deepEqual([m.sourceID, m.destID, m.cos, m.rsrv, m.streamID], [0x12, 0x34, 5, 0, 0x42]);
  assert.equal(toHex(smpBytes(smpClose({ sourceID: 0x12, destID: 0x34, cos: 5, streamID: 0x42 }))), flat(CLOSE));
});

test('Annex 2 §3.8.5, §4.2.7 Table 4-8: the Reserved octets of CLOSE must be zero', () => {
  fails('08010012 00340501 00420000 00000000', 'reserved', 7);
  fails('08010012 00340500 00420100 00000000', 'reserved', 10);
  const m = decode('08010012 00340501 00420000 00000000', false);
  assert.equal(m.command === 'CLOSE' && m.rsrv, 1);
});
