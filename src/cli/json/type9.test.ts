import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type9FromJson } from './type9.ts';
import { toJsonValue } from './common.ts';
import { decodeType9, encodeType9, type9Codec, type9Length } from '../../wire/type9.ts';
import type { Type9Packet } from '../../wire/type9.ts';
import { decodeSerial } from '../../wire/serial.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { WireError } from '../../wire/errors.ts';

const viaJson = (v: unknown): unknown => JSON.parse(JSON.stringify(toJsonValue(v)));

function encode(p: Type9Packet): string {
  const out = new Uint8Array(type9Length(p));
  encodeType9(p, out, 0);
  return toHex(out);
}

function rejects(json: unknown, field: string): void {
  assert.throws(() => type9FromJson(json), (e: unknown) => e instanceof WireError && e.field === field);
}

const h = { ackID: 0, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 9, destinationID: 5, sourceID: 6, cos: 0x80 };

// Golden vectors of src/wire/type9.test.ts (Figures 4-1, 4-3, 4-4, 4-5; O/P per Table 4-2).
const VECTORS = [
  '0049 05 06 80 c0 beef 01020304', // single, 2 half-words
  '0049 05 06 80 c3 beef aa 5a', // single, 1 byte + non-zero pad byte (lenient)
  `0049 05 06 00 80 0042 ${'00'.repeat(32)}`, // start
  `0049 05 06 00 00 ${'11'.repeat(32)}`, // continuation
  '0c59 0102 0304 07 43 0045 4041424344 00', // Dev16 end, O=1 P=1
  '0049 05 06 00 40 0000', // abort
  '0009 06 15 03 04 0000 01 00 00 00', // TM basic XOFF, class
  '0019 0006 0015 20 04 0100 21 00 13 10', // TM credit ALLOCATE, all streams of a class
  '0009 06 15 03 04 0000 17 55 05 40', // TM rate REDUCE peak, all traffic from the source, mask don't care
  '0009 06 15 03 04 0000 41 02 07 00', // reserved TM OP, invalid mask (lenient)
  '0009 06 15 03 14 0000 deadbeef', // reserved xtype: extended
];

test('docs/cli.md: what decode --json prints encodes back to the same bytes, for every segment type', () => {
  for (const v of VECTORS) {
    const bytes = parseHex(v);
    const p = decodeType9(bytes, 0, bytes.length);
    const back = type9FromJson(viaJson(p));
    assert.deepEqual(back, p, v);
    assert.equal(encode(back), toHex(bytes));
  }
});

test('docs/cli.md: serial decode output (crc, earlyCrc) is accepted', () => {
  const bytes = parseHex('0049 05 06 80 c0 beef 01020304 817e 0000');
  const p = type9FromJson(viaJson(decodeSerial(type9Codec, bytes, 0, bytes.length)));
  assert.equal(p.segment, 'single');
  assert.equal('crc' in p, false);
});

test('docs/cli.md: JSON shape of a decoded end segment', () => {
  const bytes = parseHex('0c59 0102 0304 07 43 0045 4041424344 00');
  assert.deepEqual(viaJson(decodeType9(bytes, 0, bytes.length)), {
    ackID: 3, vc: 0, crf: 0, prio: 1, tt: 1, ftype: 9, destinationID: 0x102, sourceID: 0x304, cos: 7, start: 0, end: 1, rsrv: 0,
    xh: 0, odd: 1, pad: 1, segment: 'end', length: 69, pduLength: 69, payload: '4041424344',
  });
});

test('Part 10 §4.2 Table 4-2, docs/cli.md: segment labels alone; O, P and the pad byte come from the payload', () => {
  assert.equal(encode(type9FromJson({ ...h, segment: 'single', streamID: 0xbeef, payload: 'aabbcc' })), '0049050680c1beefaabbcc00');
  assert.equal(encode(type9FromJson({ ...h, segment: 'start', streamID: 1, payload: '0001' })), '0049050680800001' + '0001');
  assert.equal(encode(type9FromJson({ ...h, segment: 'continuation', payload: 'abcd' })), '0049050680' + '00abcd');
  assert.equal(encode(type9FromJson({ ...h, segment: 'end', pduLength: 65536, payload: 'ab' })), '004905068043' + '0000ab00');
  assert.equal(encode(type9FromJson({ ...h, segment: 'abort' })), '004905068040' + '0000');
});

test('docs/cli.md: raw S/E/xh without a segment label', () => {
  const p = type9FromJson({ ...h, start: 0, end: 1, xh: 0, length: 3, payload: 'abcdef' });
  assert.deepEqual([p.segment, p.segment === 'end' && p.pduLength], ['end', 3]);
});

test('Part 10 §4.3.2–4.3.4, docs/cli.md: TM from labels — tmOpName, tm message and operand', () => {
  const tm = (tmOpName: string, message: object, operand: object) =>
    encode(type9FromJson({ ...h, cos: 3, segment: 'tm', streamID: 0, tmOpName, tm: message, operand }));
  // byte 8 = TM_OP | rsrv 0 | wildcard; then mask, parameter1, parameter2.
  assert.equal(tm('BASIC', { message: 'XON' }, { scope: 'stream' }), '004905060304000000' + '0000ff');
  assert.equal(tm('BASIC', { message: 'Q_STATUS', level: 0x80 }, { scope: 'class' }), '004905060304000001' + '000380');
  assert.equal(tm('RATE', { message: 'REDUCE', rate: 'peak', amount: 0x40 }, { scope: 'source' }), '004905060304000017' + '000540');
  assert.equal(tm('RATE', { message: 'DOUBLE', rate: 'average' }, { scope: 'classGroup', cosValues: 4 }), '004905060304000011' + '0302ff');
  assert.equal(tm('CREDIT', { message: 'CREDIT_STATUS', allocationUnit: 2, credits: 0 }, { scope: 'destination' }), '004905060304000023' + '002200');
  assert.equal(tm('CREDIT', { message: 'Q_STATUS', level: 1 }, { scope: 'stream' }), '004905060304000020' + '003001');
});

test('docs/cli.md: labels that disagree with raw fields are errors', () => {
  const base = { ...h, segment: 'tm', streamID: 0, tmOp: 0, wildcard: 0, mask: 0, parameter1: 0, parameter2: 0 };
  rejects({ ...base, tmOpName: 'RATE' }, 'tmOpName');
  rejects({ ...base, tm: { message: 'XON' } }, 'tm.message');
  rejects({ ...base, operand: { scope: 'class' } }, 'operand.scope');
  rejects({ ...base, parameter1: 3, parameter2: 9, tm: { message: 'Q_STATUS', level: 9, fullness: 0.5 } }, 'tm.fullness');
  rejects({ ...h, segment: 'single', start: 0, streamID: 1, payload: '' }, 'segment bits.start');
  rejects({ ...h, segment: 'end', length: 3, pduLength: 4, payload: 'ab' }, 'pduLength');
  rejects({ ...h, segment: 'end', length: 0, payload: '' }, 'segment');
  rejects({ ...h, start: 0, end: 0, xh: 0, segment: 'start', payload: '' }, 'segment bits.start');
});

test('docs/cli.md: fields a segment type does not have, and missing ones, are errors', () => {
  rejects({ ...h, segment: 'continuation', streamID: 1, payload: '' }, 'streamID');
  rejects({ ...h, segment: 'single', streamID: 1, length: 2, payload: '' }, 'length');
  rejects({ ...h, segment: 'single', payload: '' }, 'streamID');
  rejects({ ...h, segment: 'single', streamID: 1, tmOp: 0, payload: '' }, 'tmOp');
  rejects({ ...h, segment: 'single', streamID: 1, xtype: 0, payload: '' }, 'xtype');
  rejects({ ...h, segment: 'tm', streamID: 0, tmOp: 0, parameter1: 0, parameter2: 0, wildcard: 0 }, 'mask');
  rejects({ ...h, segment: 'tm', streamID: 0, tmOpName: 'RESERVED', tm: { message: 'XOFF' }, operand: { scope: 'stream' } }, 'tmOp');
  rejects({ ...h, segment: 'tm', streamID: 0, tmOp: 3, tm: { message: 'APPLICATION_DEFINED' }, operand: { scope: 'stream' } }, 'parameter1');
  rejects({ ...h, segment: 'tm', streamID: 0, tmOp: 0, tm: { message: 'XOFF' }, operand: { scope: 'INVALID', problem: 'mask' } }, 'wildcard');
  rejects({ ...h, segment: 'extended', streamID: 0 }, 'xtype');
  rejects({ ...h, segment: 'single', streamID: 1, payload: 'xyz' }, 'payload');
  rejects({ ...h, start: 1, end: 1, streamID: 1, payload: '' }, 'xh');
  rejects({ ...h, segment: 'bogus' }, 'segment');
});
