import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type11FromJson } from './type11.ts';
import { toJsonValue } from './common.ts';
import { decodeType11, encodeType11, type11Length } from '../../wire/type11.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { WireError } from '../../wire/errors.ts';

const isJsonError = (field: string) => (e: unknown): boolean => e instanceof WireError && e.code === 'invalid' && e.field === field;
const DW = '0123456789abcdef';
const SINGLE = `00 0b 12 34 09 b5 ${DW}`; // type11.test.ts golden vectors
const MULTI = `00 1b 0001 0002 3b 62 ${DW.repeat(4)}`;

function json(hex: string): Record<string, unknown> {
  const b = parseHex(hex);
  return toJsonValue(decodeType11(b, 0, b.length)) as Record<string, unknown>;
}

function without(j: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(j).filter(([k]) => !keys.includes(k)));
}

function bytesOf(j: unknown): string {
  const p = type11FromJson(j);
  const out = new Uint8Array(type11Length(p));
  encodeType11(p, out, 0);
  return toHex(out);
}

test('docs/cli.md: what decode prints for a MESSAGE, encode reads back to the same bytes', () => {
  for (const hex of [SINGLE, MULTI, `00 0b 12 34 f0 ff ${DW}`, '00 0b 12 34 19 02 0102']) {
    assert.equal(bytesOf(JSON.parse(JSON.stringify(json(hex)))), toHex(parseHex(hex)));
  }
  assert.deepEqual(json(SINGLE), {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 11, destinationID: 0x12, sourceID: 0x34,
    msglen: 0, ssize: 9, letter: 2, mbox: 3, xmbox: 5, segmentSize: 8, mailbox: 23, payload: DW,
  });
});

test('docs/cli.md: segmentSize stands in for ssize, mailbox for mbox and xmbox', () => {
  assert.equal(bytesOf(without(json(SINGLE), 'ssize', 'mbox', 'xmbox')), toHex(parseHex(SINGLE)));
  assert.equal(bytesOf(without(json(MULTI), 'ssize', 'mbox')), toHex(parseHex(MULTI)));
});

test('docs/cli.md: labels must agree; msgseg belongs to msglen > 0, xmbox to msglen = 0', () => {
  assert.throws(() => type11FromJson({ ...json(SINGLE), segmentSize: 16 }), isJsonError('segmentSize'));
  assert.throws(() => type11FromJson({ ...json(SINGLE), mailbox: 22 }), isJsonError('mailbox'));
  assert.throws(() => type11FromJson({ ...json(SINGLE), msgseg: 0 }), isJsonError('msgseg'));
  assert.throws(() => type11FromJson({ ...json(MULTI), xmbox: 0 }), isJsonError('xmbox'));
  assert.throws(() => type11FromJson({ ...without(json(MULTI), 'mbox'), mailbox: 6 }), isJsonError('mailbox'));
  assert.throws(() => type11FromJson(without(json(MULTI), 'msgseg')), isJsonError('msgseg'));
  assert.throws(() => type11FromJson({ ...without(json(MULTI), 'ssize'), segmentSize: 24 }), isJsonError('ssize'));
  assert.throws(() => type11FromJson(without(json(SINGLE), 'xmbox', 'mailbox')), isJsonError('xmbox'));
});

test('docs/cli.md: unknown fields are rejected (a typo is an error); crc and earlyCrc from serial decoding are accepted and recomputed', () => {
  const j = json(SINGLE);
  assert.throws(() => type11FromJson({ ...j, typo: 1 }), isJsonError('json'));
  assert.equal(bytesOf({ ...j, crc: 0x1234, earlyCrc: 0 }), bytesOf(j));
  assert.throws(() => type11FromJson({ ...j, crc: 0x10000 }), isJsonError('crc'));
});
