import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type8FromJson } from './type8.ts';
import { toJsonValue } from './common.ts';
import { decodeType8, encodeType8, type8Length } from '../../wire/type8.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { WireError } from '../../wire/errors.ts';

const isJsonError = (field: string) => (e: unknown): boolean => e instanceof WireError && e.code === 'invalid' && e.field === field;

function json(hex: string): Record<string, unknown> {
  const b = parseHex(hex);
  return toJsonValue(decodeType8(b, 0, b.length)) as Record<string, unknown>;
}

function without(j: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(j).filter(([k]) => !keys.includes(k)));
}

function bytesOf(j: unknown): string {
  const p = type8FromJson(j);
  const out = new Uint8Array(type8Length(p));
  encodeType8(p, out, 0);
  return toHex(out);
}

const READ = '00 08 12 34 08 5a ff 00 00 6c'; // Dev8 word read at 0x6c (type8.test.ts golden vector)
const RESPONSE = '01 68 deadbeef 01020304 20 5a ff 000000 00000000 12345678';

test('docs/cli.md: what decode prints, encode reads back to the same bytes, for every variant', () => {
  for (const hex of [READ, RESPONSE, '14 58 1234 abcd 1b 07 02 000100 0123456789abcdef', '00 08 ff 00 4c 00 ff 000004' + '11'.repeat(16),
    '00 08 12 34 95 a1 ff 123456', '00 08 12 34 1e 01 ff 000003 00', '00 08 34 12 3a 07 fe 800000']) {
    const j = json(hex);
    assert.equal(bytesOf(JSON.parse(JSON.stringify(j))), toHex(parseHex(hex)));
  }
  assert.deepEqual(json(READ), {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 8, destinationID: 0x12, sourceID: 0x34, transaction: 0,
    transactionName: 'MAINTENANCE_READ_REQUEST', rdsize: 8, srcTID: 0x5a, hopCount: 0xff, configOffset: 13, wdptr: 1, rsrv: 0,
    byteCount: 4, byteLanes: 15, byteOffset: 0x6c, payload: '',
  });
});

test('docs/cli.md: labels stand in for raw fields (transactionName, statusName, byteCount + byteOffset)', () => {
  const head = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 8, destinationID: 0x12, sourceID: 0x34 };
  assert.equal(bytesOf({ ...head, transactionName: 'MAINTENANCE_READ_REQUEST', srcTID: 0x5a, byteCount: 4, byteOffset: 0x6c }), toHex(parseHex(READ)));
  // Port-write: srcTID and config_offset default to 0 (reserved); 16 bytes maximum = wrsize 1011, wdptr 1.
  assert.equal(bytesOf({ ...head, transactionName: 'MAINTENANCE_PORT_WRITE_REQUEST', byteCount: 16, payload: '00'.repeat(16) }), '000812344b' + '00ff000004' + '00'.repeat(16));
  assert.equal(bytesOf({ ...head, transactionName: 'MAINTENANCE_WRITE_RESPONSE', statusName: 'ERROR', targetTID: 7 }), '000812343707ff000000');
});

test('docs/cli.md: a label that disagrees with its raw field, or a field of another variant, is an error', () => {
  const j = json(READ);
  assert.throws(() => type8FromJson({ ...j, transactionName: 'MAINTENANCE_WRITE_REQUEST' }), isJsonError('transactionName'));
  assert.throws(() => type8FromJson({ ...j, byteCount: 8 }), isJsonError('rdsize'));
  assert.throws(() => type8FromJson({ ...j, byteOffset: 0x68 }), isJsonError('rdsize'));
  assert.throws(() => type8FromJson({ ...j, status: 0 }), isJsonError('status'));
  assert.throws(() => type8FromJson({ ...j, wrsize: 8 }), isJsonError('wrsize'));
  const r = json(RESPONSE);
  assert.throws(() => type8FromJson({ ...r, statusName: 'ERROR' }), isJsonError('statusName'));
  assert.throws(() => type8FromJson({ ...r, srcTID: 0x5a }), isJsonError('srcTID'));
});

test('docs/cli.md: missing raw fields that no label determines are errors naming the field', () => {
  assert.throws(() => type8FromJson(without(json(READ), 'transaction', 'transactionName')), isJsonError('transaction'));
  // byteCount 4 alone fits rdsize 1000 with wdptr 0 or 1.
  assert.throws(() => type8FromJson(without(json(READ), 'rdsize', 'wdptr', 'byteOffset', 'byteLanes')), isJsonError('rdsize'));
  assert.throws(() => type8FromJson(without(json(READ), 'srcTID')), isJsonError('srcTID'));
  assert.throws(() => type8FromJson(without(json(READ), 'configOffset', 'byteOffset')), isJsonError('configOffset'));
  // statusName IMPLEMENTATION_DEFINED names four values.
  assert.throws(() => type8FromJson(without(json('00 08 34 12 2c 01 ff 000000'), 'status')), isJsonError('status'));
  assert.throws(() => type8FromJson({ ...json(READ), rsrv: 4 }), isJsonError('rsrv'));
  assert.throws(() => type8FromJson({ ...json(READ), ftype: 9 }), isJsonError('ftype'));
  assert.throws(() => type8FromJson({ ...json(READ), payload: 'xyz' }), isJsonError('payload'));
});

test('docs/cli.md: unknown fields are rejected (a typo is an error); crc and earlyCrc from serial decoding are accepted and recomputed', () => {
  const j = json(READ);
  assert.throws(() => type8FromJson({ ...j, typo: 1 }), isJsonError('json'));
  assert.equal(bytesOf({ ...j, crc: 0x1234, earlyCrc: 0 }), bytesOf(j));
  assert.throws(() => type8FromJson({ ...j, crc: 0x10000 }), isJsonError('crc'));
});
