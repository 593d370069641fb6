import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, fails } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { decodeSmp, smpBytes } from './index.ts';
import { smpFlowControl } from './flow-control.ts';

// Table 4-7:
//   Word 0: CMD 0x07 | VER 0x01 | COS 0x05 | Flow_Control (XON 0x01, XOFF 0x00, RTS 0xFF)
//   Word 1: SourceID 0x0012 | StreamID 0x0042
//   Word 2: ProtoID 0x0102 | Reserved Reserved
//   Word 3: Reserved x4 (the 10 octets of fields padded to 16)
const fc = (flow: string): string => `070105${flow} 00120042 01020000 00000000`;

test('Annex 2 §4.2.6 Table 4-7: FLOW_CONTROL values XON 0x01, XOFF 0x00, RTS 0xFF', () => {
  for (const [flow, name] of [['01', 'XON'], ['00', 'XOFF'], ['ff', 'RTS']] as const) {
    const m = decode(fc(flow));
    assert.ok(m.command === 'FLOW_CONTROL');
    assert.deepEqual([m.cos, m.flowControl, m.flowControlName, m.sourceID, m.streamID, m.protoID, m.protocol], [5, parseInt(flow, 16), name, 0x12, 0x42, 0x0102, 'ETHERNET']);
    const built = smpFlowControl({ flowControl: name, cos: 5, sourceID: 0x12, streamID: 0x42, protoID: 0x0102 });
    assert.equal(toHex(smpBytes(built)), fc(flow).replace(/ /g, ''));
    assert.deepEqual(built, m);
  }
});

test('Annex 2 §4.2.6: other Flow_Control values are undefined', () => {
  fails(fc('02'), 'undefined', 3);
  const m = decode(fc('02'), false);
  assert.equal(m.command === 'FLOW_CONTROL' && m.flowControlName, 'UNDEFINED');
});

test('Annex 2 §3.8.5, §4.2.6 Table 4-7: the reserved octets after ProtoID must be zero', () => {
  const hex = '07010501 00120042 01020000 00000001';
  fails(hex, 'reserved', 15);
  const m = decode(hex, false);
  assert.equal(m.command === 'FLOW_CONTROL' && m.pad && toHex(m.pad), '000000000001');
});

test('Annex 2 §3.5.2.5 Table 3-1: FLOW_CONTROL for StreamID 0xFFFF is invalid', () => {
  fails('07010501 0012ffff 01020000 00000000', 'invalid', 6);
});

test('Annex 2 §4.2.6 Table 4-7: a FLOW_CONTROL shorter than its ten field octets is truncated', () => {
  const b = parseHex('07010501 00120042 01');
  assert.throws(() => decodeSmp(b, 0, b.length), (e: unknown) => e instanceof WireError && e.code === 'truncated' && e.offset === 0);
});
