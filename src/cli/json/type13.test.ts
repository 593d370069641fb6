import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type13FromJson } from './type13.ts';
import { toJsonValue } from './common.ts';
import { decodeType13, encodeType13, type13Length } from '../../wire/type13.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { WireError } from '../../wire/errors.ts';

const isJsonError = (field: string) => (e: unknown): boolean => e instanceof WireError && e.code === 'invalid' && e.field === field;
const DW = '0123456789abcdef';
const DONE = '00 4d 34 12 00 5a'; // type13.test.ts golden vectors
const MESSAGE = '00 5d 0002 0001 13 b5';
const DATA = `00 ad 11223344 55667788 80 07 ${DW}${DW}`;

function json(hex: string): Record<string, unknown> {
  const b = parseHex(hex);
  return toJsonValue(decodeType13(b, 0, b.length)) as Record<string, unknown>;
}

function without(j: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(j).filter(([k]) => !keys.includes(k)));
}

function bytesOf(j: unknown): string {
  const p = type13FromJson(j);
  const out = new Uint8Array(type13Length(p));
  encodeType13(p, out, 0);
  return toHex(out);
}

test('docs/cli.md: what decode prints for a RESPONSE, encode reads back to the same bytes', () => {
  for (const hex of [DONE, MESSAGE, DATA, '00 0d 12 34 f5 a5 01', '00 0d 12 34 1c ff']) {
    assert.equal(bytesOf(JSON.parse(JSON.stringify(json(hex)))), toHex(parseHex(hex)));
  }
  assert.deepEqual(json(MESSAGE), {
    ackID: 0, vc: 0, crf: 0, prio: 1, tt: 1, ftype: 13, destinationID: 2, sourceID: 1, transaction: 1,
    transactionName: 'MESSAGE_RESPONSE', status: 3, statusName: 'RETRY', targetInfo: 0xb5, letter: 2, mbox: 3, msgseg: 5, payload: '',
  });
});

test('docs/cli.md: transactionName, statusName and letter/mbox/msgseg stand in for the raw fields', () => {
  assert.equal(bytesOf(without(json(MESSAGE), 'transaction', 'status', 'targetInfo')), toHex(parseHex(MESSAGE)));
  assert.equal(bytesOf(without(json(DATA), 'transaction', 'status')), toHex(parseHex(DATA)));
});

test('docs/cli.md: labels must agree; targetTID and targetInfo belong to their transactions', () => {
  assert.throws(() => type13FromJson({ ...json(DONE), statusName: 'ERROR' }), isJsonError('statusName'));
  assert.throws(() => type13FromJson({ ...json(DONE), transactionName: 'RESPONSE_WITH_DATA' }), isJsonError('transactionName'));
  assert.throws(() => type13FromJson({ ...json(DONE), targetInfo: 0x5a }), isJsonError('targetInfo'));
  assert.throws(() => type13FromJson({ ...json(MESSAGE), targetTID: 0xb5 }), isJsonError('targetTID'));
  assert.throws(() => type13FromJson({ ...json(MESSAGE), msgseg: 4 }), isJsonError('msgseg'));
  assert.throws(() => type13FromJson(without(json(MESSAGE), 'targetInfo', 'letter')), isJsonError('targetInfo'));
  assert.throws(() => type13FromJson(without(json('00 0d 12 34 0c 00'), 'status')), isJsonError('status'));
  assert.throws(() => type13FromJson(without(json(DONE), 'transaction', 'transactionName')), isJsonError('transaction'));
});

test('docs/cli.md: unknown fields are rejected (a typo is an error); crc and earlyCrc from serial decoding are accepted and recomputed', () => {
  const j = json(DONE);
  assert.throws(() => type13FromJson({ ...j, typo: 1 }), isJsonError('json'));
  assert.equal(bytesOf({ ...j, crc: 0x1234, earlyCrc: 0 }), bytesOf(j));
  assert.throws(() => type13FromJson({ ...j, crc: 0x10000 }), isJsonError('crc'));
});
