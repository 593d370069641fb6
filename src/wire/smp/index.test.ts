import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError, attempt } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { commandName, decodeSmp, encodeSmp, smpBytes, smpClose, smpLength, smpOpen, smpStatus, smpUnknown, streamIdUse } from './index.ts';

const b = (hex: string): Uint8Array => parseHex(hex);

test('Annex 2 §3.5.1, Chapter 4: command values 0x01-0x0A, 0x10 and 0xF0-0xFF; everything else is unknown', () => {
  const names = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x10, 0xf0, 0xff].map(commandName);
  assert.deepEqual(names, ['REQUEST', 'ADVERTISE', 'OPEN', 'ACCEPT', 'REFUSE', 'DATA', 'FLOW_CONTROL', 'CLOSE', 'DATA1', 'DATA2', 'STATUS', 'USERDEFINED', 'USERDEFINED']);
  for (const cmd of [0x00, 0x0b, 0x0c, 0x0f, 0x11, 0x80, 0xef]) assert.equal(commandName(cmd), 'UNKNOWN');
});

test('Annex 2 §3.5.2.1: an unrecognized command decodes leniently as UNKNOWN keeping every octet, and strictly fails', () => {
  const x = b('20010203 04050607');
  const m = decodeSmp(x, 0, x.length);
  assert.deepEqual(m, smpUnknown(0x20, b('01020304050607')));
  assert.equal(toHex(smpBytes(m)), toHex(x));
  assert.throws(() => decodeSmp(x, 0, x.length, { strict: true }), (e: unknown) => e instanceof WireError && e.code === 'undefined' && e.offset === 0);
});

test('Annex 2 §3.5.2.1, DECISIONS §7: <VER> must be 0x01; an unknown VER is labelled leniently and rejected strictly', () => {
  // CLOSE (Table 4-8) with VER 0x02.
  const x = b('08020012 00340500 00420000 00000000');
  const m = decodeSmp(x, 0, x.length);
  assert.ok(m.command === 'CLOSE');
  assert.deepEqual([m.ver, m.version], [2, 'UNKNOWN']);
  assert.equal(toHex(smpBytes(m)), toHex(x));
  assert.throws(() => decodeSmp(x, 0, x.length, { strict: true }), (e: unknown) => e instanceof WireError && e.code === 'undefined' && e.offset === 1 && e.field === 'ver');
  // STATUS with an unknown VER is labelled the same way ("Recipients must not respond" is the engine's rule).
  const s = b('10000500 00120042 02001001 00000002');
  const st = decodeSmp(s, 0, s.length);
  assert.equal(st.command === 'STATUS' && st.version, 'UNKNOWN');
});

test('Annex 2 §3.5.2.5 Table 3-1: StreamID ranges', () => {
  assert.deepEqual([0x0000, 0xdfff, 0xe000, 0xefff, 0xf000, 0xfffe, 0xffff].map(streamIdUse), [
    'APPLICATION',
    'APPLICATION',
    'VENDOR_SPECIFIC',
    'VENDOR_SPECIFIC',
    'RESERVED',
    'RESERVED',
    'INVALID',
  ]);
});

test('Annex 2 Chapter 4: errors carry absolute byte offsets when the message sits inside a larger buffer', () => {
  // Five octets of something else, then a CLOSE whose Reserved octet 7 is 0x01.
  const x = b('ffffffffff 08010012 00340501 00420000 00000000');
  assert.throws(() => decodeSmp(x, 5, x.length, { strict: true }), (e: unknown) => e instanceof WireError && e.offset === 12 && e.clause === 'Annex 2 §4.2.7 Table 4-8');
  const m = decodeSmp(x, 5, x.length);
  assert.equal(m.command, 'CLOSE');
});

test('Annex 2 §3.5.2.1: an empty message is truncated at <CMD>; bounds outside the buffer are range errors', () => {
  const x = new Uint8Array(4);
  const r = attempt(() => decodeSmp(x, 2, 2));
  assert.ok(!r.ok && r.error.code === 'truncated' && r.error.offset === 2);
  assert.throws(() => decodeSmp(x, 0, 5), (e: unknown) => e instanceof WireError && e.code === 'range');
  assert.throws(() => decodeSmp(x, 3, 2), (e: unknown) => e instanceof WireError && e.code === 'range');
});

test('Annex 2 Chapter 4: encodeSmp writes at an offset, returns the offset after the pad, and never writes past the buffer', () => {
  const m = smpClose({ sourceID: 1, destID: 2, streamID: 3 });
  assert.equal(smpLength(m), 16);
  const out = new Uint8Array(20).fill(0xee);
  assert.equal(encodeSmp(m, out, 4), 20);
  assert.equal(toHex(out), 'eeeeeeee' + '08010001000200000003000000000000');
  assert.throws(() => encodeSmp(m, new Uint8Array(15), 0), (e: unknown) => e instanceof WireError && e.code === 'range');
});

test('Annex 2 Chapter 4: encoders range-check fields and reject a CMD that does not match the command', () => {
  assert.throws(() => smpBytes(smpClose({ sourceID: 0x10000, destID: 0, streamID: 0 })), (e: unknown) => e instanceof WireError && e.code === 'range' && e.field === 'sourceID');
  assert.throws(() => smpBytes({ ...smpClose({ sourceID: 0, destID: 0, streamID: 0 }), cmd: 0x07 }), (e: unknown) => e instanceof WireError && e.code === 'invalid');
  assert.throws(() => smpBytes(smpUnknown(0x08)), (e: unknown) => e instanceof WireError && e.code === 'invalid');
  assert.throws(() => smpBytes(smpStatus({ sourceID: 0, streamID: 0, status: 0, contextSpecificData: new Uint8Array(5) })), WireError);
  assert.throws(() => smpBytes(smpOpen({ sourceID: 0, protoID: 0, attributes: [{ id: 0x100, value: new Uint8Array(7) }] })), WireError);
});
