import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import {
  CLOSE_REASON,
  CLOSE_TEXT_MAX,
  FRAME_KIND,
  LINK_VERSION,
  MAX_SENT_FRAME,
  clipUtf8,
  closeFrame,
  cs48Frame,
  cs64Frame,
  decodeFrame,
  encodeFrame,
  frameLength,
  helloFrame,
  packetFrame,
} from './frame.ts';
import type { Frame, FrameDecodeOptions } from './frame.ts';
import { parseHex, toHex } from './hex.ts';
import { decodeSerialPacket } from './packet.ts';
import type { Packet } from './packet.ts';
import { MAX_SERIAL_PACKET } from './serial.ts';
import { decodeSymbol } from './symbol.ts';
import { decodeSymbol64 } from './symbol64.ts';

/**
 * Golden frames assembled by hand from docs/net-framing.md: the 16-bit length (bytes after it,
 * big-endian), the kind byte (§3 table), then the body. Packet and symbol bodies are the
 * codecs' golden vectors (DECISIONS §1 doorbell, symbol.golden.test.ts, symbol64.test.ts).
 */
const DOORBELL = '001a0001ffff0000deaf9903'; // 12-byte LP-Serial doorbell, CRC 0x9903
const CS48_TIMESTAMP = '6a8a000017f7'; // CS48 timestamp, parameter0 21, parameter1 5
const CS64_ACCEPTED = '00030050e38133c4'; // CS64 packet-accepted ackID 3, 5 buffers

function enc(f: Frame): Uint8Array {
  const out = new Uint8Array(frameLength(f));
  assert.equal(encodeFrame(f, out, 0), out.length);
  return out;
}

function dec(hex: string, opts: FrameDecodeOptions = {}): ReturnType<typeof decodeFrame> {
  const b = parseHex(hex);
  return decodeFrame(b, 0, b.length, opts);
}

function wireError(code: string, field: string, offset?: number): (e: unknown) => boolean {
  return (e) => e instanceof WireError && e.code === code && e.field === field && (offset === undefined || e.offset === offset);
}

test('riodp link §2, §3.1: a packet frame is length 0x000d (kind + 12 bytes), kind 0x01, then the LP-Serial packet with its CRC', () => {
  // length = 1 (kind) + 12 (packet) = 13 = 0x000d; kind 0x01; body = the doorbell as serial.ts frames it.
  const hex = '000d01' + DOORBELL;
  const f = dec(hex, { strict: true });
  assert.equal(f.kindName, 'packet');
  const body = parseHex(DOORBELL);
  assert.deepEqual(f, packetFrame(decodeSerialPacket(body, 0, body.length)));
  assert.equal(f.packet.crc, 0x9903);
  assert.equal(toHex(enc(f)), hex);
});

test('riodp link §3.1: a packet frame whose CRC fails throws the serial codec\'s crc error at its byte in the frame', () => {
  const b = parseHex('000d01' + DOORBELL);
  b[14] = b[14]! ^ 1; // last CRC byte: frame byte 3 + 11
  assert.throws(() => decodeFrame(b, 0, b.length), wireError('crc', 'crc', 13));
});

test('riodp link §3.1: packets longer than 80 bytes keep their early CRC; the largest packet makes the largest frame riodp sends', () => {
  const payload = new Uint8Array(256).map((_, i) => i);
  // Type 9 single segment, Dev8: 2 + 2 + 4 + 256 = 264 logical bytes → 264 + 4 CRC = 268 on the wire.
  const p: Packet = { ackID: 5, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 9, destinationID: 1, sourceID: 2, cos: 0, start: 1, end: 1, rsrv: 0, xh: 0, segment: 'single', streamID: 7, payload };
  const bytes = enc(packetFrame(p));
  assert.equal(bytes.length, 3 + 268);
  const f = decodeFrame(bytes, 0, bytes.length, { strict: true });
  assert.ok(f.kindName === 'packet' && f.packet.earlyCrc !== undefined);
  assert.equal(MAX_SENT_FRAME, 3 + MAX_SERIAL_PACKET);
});

test('riodp link §3.2: a CS48 frame is length 0x0007, kind 0x02, the 6 symbol bytes with their CRC-13', () => {
  const hex = '000702' + CS48_TIMESTAMP;
  const f = dec(hex, { strict: true });
  const sym = parseHex(CS48_TIMESTAMP);
  assert.deepEqual(f, cs48Frame(decodeSymbol(sym, 0, 6, { link: 'cs48' })));
  assert.equal(toHex(enc(f)), hex);
  assert.throws(() => dec('000602' + CS48_TIMESTAMP.slice(0, 10)), wireError('truncated', 'symbol', 3));
  assert.throws(() => dec('000802' + CS48_TIMESTAMP + '00'), wireError('trailing-bytes', 'symbol', 9));
});

test('riodp link §3.2: a CS48 frame refuses to carry a CS24 symbol', () => {
  const f = { kind: FRAME_KIND.cs48, kindName: 'cs48', symbol: { link: 'cs24', stype0: 0, parameter0: 0, parameter1: 0, stype1: 0, cmd: 0 } } as const;
  assert.throws(() => enc(f), wireError('invalid', 'link', 3));
});

test('riodp link §3.3: a CS64 frame is length 0x0009, kind 0x03, the 8 symbol bytes with their CRC-24', () => {
  const hex = '000903' + CS64_ACCEPTED;
  const f = dec(hex, { strict: true });
  assert.deepEqual(f, cs64Frame(decodeSymbol64(parseHex(CS64_ACCEPTED), 0, 8)));
  assert.equal(toHex(enc(f)), hex);
});

test('riodp link §3.4: HELLO is length 0x0006, kind 0x10, "RIOD", version 1', () => {
  const hex = '000610' + '52494f44' + '01';
  assert.deepEqual(dec(hex, { strict: true }), helloFrame());
  assert.equal(toHex(enc(helloFrame())), hex);
  assert.equal(LINK_VERSION, 1);
});

test('riodp link §3.4: a HELLO without the magic is invalid', () => {
  assert.throws(() => dec('000610' + '52494f45' + '01'), wireError('invalid', 'magic', 6));
  assert.throws(() => dec('000410' + '524940'), wireError('truncated', 'hello', 3));
});

test('riodp link §3.4: bytes after the version are kept as ext; strict decoding refuses them only in a version 1 HELLO', () => {
  const v1 = dec('000810' + '52494f44' + '01' + 'abcd');
  assert.deepEqual(v1, { ...helloFrame(1), ext: parseHex('abcd') });
  assert.equal(toHex(enc(v1)), '000810' + '52494f44' + '01' + 'abcd');
  assert.throws(() => dec('000810' + '52494f44' + '01' + 'abcd', { strict: true }), wireError('trailing-bytes', 'hello', 8));
  assert.deepEqual(dec('000810' + '52494f44' + '02' + 'abcd', { strict: true }), { ...helloFrame(2), ext: parseHex('abcd') });
});

test('riodp link §3.5: CLOSE is length, kind 0x11, the reason byte, then UTF-8 text', () => {
  // length = 1 (kind) + 1 (reason) + 3 ("bye") = 5; reason 0 normal.
  const hex = '000511' + '00' + '627965';
  assert.deepEqual(dec(hex, { strict: true }), closeFrame(CLOSE_REASON.normal, 'bye'));
  assert.equal(toHex(enc(closeFrame(CLOSE_REASON.normal, 'bye'))), hex);
  assert.deepEqual(dec('000211' + '02', { strict: true }), { kind: 0x11, kindName: 'close', reason: 2, reasonName: 'version', text: '' });
  const names = [0, 1, 2, 3].map((r) => {
    const f = dec('000211' + r.toString(16).padStart(2, '0'), { strict: true });
    return f.kindName === 'close' ? f.reasonName : f.kindName;
  });
  assert.deepEqual(names, ['normal', 'protocol', 'version', 'application']);
});

test('riodp link §3.5: a reserved close reason is labelled RESERVED, or refused when decoding strictly', () => {
  assert.deepEqual(dec('000211' + '09'), { kind: 0x11, kindName: 'close', reason: 9, reasonName: 'RESERVED', text: '' });
  assert.throws(() => dec('000211' + '09', { strict: true }), wireError('reserved', 'reason', 3));
});

test('riodp link §3.5: the text is at most 255 bytes of UTF-8, both ways', () => {
  const long = 'x'.repeat(CLOSE_TEXT_MAX + 1);
  assert.throws(() => enc(closeFrame(CLOSE_REASON.protocol, long)), wireError('range', 'text'));
  const raw = new Uint8Array(3 + 1 + 256);
  raw.set([0x01, 0x02, 0x11, 0x01]); // length 258 = 0x0102
  raw.fill(0x78, 4);
  assert.throws(() => decodeFrame(raw, 0, raw.length), wireError('invalid', 'text', 4 + 255));
  assert.throws(() => dec('000411' + '01' + 'c328'), wireError('invalid', 'text', 4)); // 0xc3 0x28 is not UTF-8
  assert.equal(toHex(enc(closeFrame(CLOSE_REASON.normal, 'é'))), '000411' + '00' + 'c3a9');
});

test('riodp link §3.5: clipUtf8 cuts a text to 255 bytes at a character boundary', () => {
  const text = 'é'.repeat(200); // 400 bytes
  const clipped = clipUtf8(text);
  assert.equal(new TextEncoder().encode(clipped).length, 254);
  assert.equal(clipped, 'é'.repeat(127));
  assert.equal(clipUtf8('short'), 'short');
  assert.equal(enc(closeFrame(CLOSE_REASON.application, clipped)).length, 3 + 1 + 254);
});

test('riodp link §3.6: a kind this version does not define decodes as RESERVED with its body, or is refused strictly', () => {
  const f = dec('00037f' + 'aabb');
  assert.deepEqual(f, { kind: 0x7f, kindName: 'RESERVED', body: parseHex('aabb') });
  assert.equal(toHex(enc(f)), '00037f' + 'aabb');
  assert.throws(() => dec('00037f' + 'aabb', { strict: true }), wireError('undefined', 'kind', 2));
});

test('riodp link §3.6: encoding checks that kind and kindName agree', () => {
  assert.throws(() => enc({ kind: FRAME_KIND.hello, kindName: 'RESERVED', body: new Uint8Array(0) }), wireError('invalid', 'kind', 2));
  assert.throws(() => enc({ ...helloFrame(), kind: FRAME_KIND.close } as unknown as Frame), wireError('invalid', 'kind', 2));
  assert.throws(() => enc({ kind: 0x100, kindName: 'RESERVED', body: new Uint8Array(0) }), wireError('range', 'kind', 2));
});

test('riodp link §2: a length of 0 is invalid; a short frame is truncated; bytes past the length are trailing', () => {
  assert.throws(() => dec('0000'), wireError('invalid', 'length', 0));
  assert.throws(() => dec('00'), wireError('truncated', 'length', 0));
  assert.throws(() => dec('000610' + '52494f'), wireError('truncated', 'frame', 2));
  assert.throws(() => dec('000610' + '52494f44' + '01' + 'ff'), wireError('trailing-bytes', 'frame', 8));
});

test('riodp link §2: decoding reads bytes[offset, end) and reports absolute offsets', () => {
  const b = parseHex('ffff' + '000511' + '00' + '627965' + 'ffff');
  assert.deepEqual(decodeFrame(b, 2, 9), closeFrame(CLOSE_REASON.normal, 'bye'));
  b[5] = 0x07;
  assert.deepEqual(decodeFrame(b, 2, 9), { kind: 0x11, kindName: 'close', reason: 7, reasonName: 'RESERVED', text: 'bye' });
  assert.throws(() => decodeFrame(b, 2, 9, { strict: true }), wireError('reserved', 'reason', 5));
  assert.throws(() => decodeFrame(b, 2, 100), wireError('range', 'span'));
});

test('riodp link §2: encoding writes nothing when the buffer is too small, and returns the offset after the frame', () => {
  const small = new Uint8Array(8).fill(0xee);
  assert.throws(() => encodeFrame(helloFrame(), small, 1), wireError('range', 'buffer'));
  assert.deepEqual([...small], new Array<number>(8).fill(0xee));
  const out = new Uint8Array(20);
  assert.equal(encodeFrame(helloFrame(), out, 4), 4 + frameLength(helloFrame()));
  assert.equal(frameLength(helloFrame()), 8);
  assert.throws(() => encodeFrame(helloFrame(256), out, 0), wireError('range', 'version'));
});
