import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../errors.ts';
import { canonicalPadLength, padLength, protocolName, readPad, readVer, versionName, writePad } from './header.ts';

test('Annex 2 §3.5.2.3, §6.1, §7.1: ProtoID 0x0101 is vendor-defined, 0x0102 Ethernet, 0xFFFF the protocol list', () => {
  assert.deepEqual([0x0101, 0x0102, 0xffff, 0x0000, 0x1234].map(protocolName), ['VENDOR_DEFINED', 'ETHERNET', 'PROTOCOL_LIST', 'OTHER', 'OTHER']);
});

test('Annex 2 §3.5.2.1: VER 0x01 is the only version this specification defines', () => {
  assert.equal(versionName(1), 'V1');
  assert.equal(versionName(0), 'UNKNOWN');
  assert.equal(readVer(Uint8Array.of(0, 2), 1, false), 2);
  assert.equal(readVer(Uint8Array.of(0, 1), 1, true), 1);
  assert.throws(() => readVer(Uint8Array.of(0, 2), 1, true), (e: unknown) => e instanceof WireError && e.code === 'undefined' && e.offset === 1);
});

test('Annex 2 §4.2.2: messages are padded with zero to seven zero octets to a multiple of 8', () => {
  assert.deepEqual([0, 1, 7, 8, 10, 12, 15, 16].map(canonicalPadLength), [0, 7, 1, 0, 6, 4, 1, 0]);
  assert.equal(padLength(10, undefined), 6);
  assert.equal(padLength(10, new Uint8Array(2)), 2);
  const b = new Uint8Array(16).fill(0xee);
  assert.equal(writePad(b, 10, 10, undefined), 16);
  assert.deepEqual([...b.subarray(10)], [0, 0, 0, 0, 0, 0]);
});

test('Annex 2 §4.2.2: a canonical pad decodes as none; anything else is kept leniently and rejected strictly', () => {
  const ok = new Uint8Array(16);
  assert.equal(readPad(ok, 0, 10, 16, true, 'c'), undefined);
  const odd = new Uint8Array(16);
  odd[12] = 1;
  assert.deepEqual([...(readPad(odd, 0, 10, 16, false, 'c') ?? [])], [0, 0, 1, 0, 0, 0]);
  assert.throws(() => readPad(odd, 0, 10, 16, true, 'c'), (e: unknown) => e instanceof WireError && e.code === 'reserved' && e.offset === 12);
  assert.throws(() => readPad(ok, 0, 10, 12, true, 'c'), (e: unknown) => e instanceof WireError && e.code === 'truncated' && e.offset === 10);
  assert.throws(() => readPad(new Uint8Array(24), 0, 10, 24, true, 'c'), (e: unknown) => e instanceof WireError && e.code === 'trailing-bytes' && e.offset === 16);
});
