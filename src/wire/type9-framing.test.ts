import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeType9, isSegmentSizeError, type9Codec, type9Length } from './type9.ts';
import type { Type9ContinuationPacket, Type9Packet, Type9StartPacket } from './type9.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';
import type { WireErrorCode } from './errors.ts';

/**
 * Serial framing of Type 9 start and continuation segments whose payload is not "filled to the
 * MTU size" (Part 10 §3.2.4): O and P are reserved there, so their half-word parity is assumed
 * (type9ParityAssumed) and a payload of 4k + 2 bytes is found at the other layout by its CRC.
 */

function throwsWire(fn: () => unknown, code: WireErrorCode, field?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WireError, `not a WireError: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (field !== undefined) assert.equal(e.field, field);
    return true;
  });
}

/** The payload of a decoded packet that must be a `s` segment. */
function payloadOf(p: Type9Packet, s: 'start' | 'continuation'): Uint8Array {
  assert.equal(p.segment, s);
  return 'payload' in p ? p.payload : new Uint8Array(0);
}

function serial(p: Type9Packet): Uint8Array {
  const out = new Uint8Array(serialLength(type9Length(p)));
  encodeSerial(type9Codec, p, out, 0);
  return out;
}

const range = (from: number, n: number) => Uint8Array.from({ length: n }, (_, i) => from + i);

/** Start and continuation segments of `n` payload bytes counting up (Dev8 5 ← 6 unless overridden). */
function startOf(n: number): Type9StartPacket {
  return { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 5, sourceID: 6, cos: 0, start: 1, end: 0, rsrv: 0, xh: 0, odd: 0, pad: 0, segment: 'start', streamID: 1, payload: range(1, n) };
}

function contOf(n: number): Type9ContinuationPacket {
  return { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 5, sourceID: 6, cos: 0, start: 0, end: 0, rsrv: 0, xh: 0, odd: 0, pad: 0, segment: 'continuation', payload: range(1, n) };
}

test('Part 10 §3.2.4, Part 6 §2.4.1: a start or continuation payload of 4k + 2 bytes is found at the other half-word parity when the CRC fails at the assumed one: strict decoding reports its size, not a CRC error; lenient decoding keeps it', () => {
  const cases: [string, Type9StartPacket | Type9ContinuationPacket][] = [
    // Dev8 start: a 4-half-word header, the 31 half-words of 62 bytes make the packet odd (no pad).
    ['Dev8 start of 62', { ...startOf(62), tt: 0, destinationID: 5, sourceID: 6 }],
    // Dev16 continuation: a 4-half-word header, likewise.
    ['Dev16 continuation of 62', { ...contOf(62), tt: 1, destinationID: 0x0105, sourceID: 0x0106 }],
    ['Dev32 continuation of 30', { ...contOf(30), tt: 2, destinationID: 0x01020305, sourceID: 6 }],
    // 250 payload bytes cross the early CRC (Part 6 §2.4.1): both CRCs are checked at the other layout.
    ['Dev16 start of 250', { ...startOf(250), tt: 1, destinationID: 0x0105, sourceID: 0x0106 }],
  ];
  for (const [what, p] of cases) {
    const bytes = serial(p);
    const got = decodeSerial(type9Codec, bytes, 0, bytes.length);
    assert.equal(got.segment, p.segment, what);
    assert.deepEqual(payloadOf(got, p.segment === 'continuation' ? 'continuation' : 'start'), p.payload, what);
    assert.throws(() => decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true }), (e: unknown) => {
      assert.ok(e instanceof WireError && isSegmentSizeError(e), `${what}: ${String(e)}`);
      assert.match(e.message, new RegExp(`^payload at byte \\d+: ${p.payload.length} bytes is not an MTU`));
      return true;
    });
  }
  // A damaged packet is still a CRC error: the other layout's CRC does not match either.
  const bad = serial({ ...startOf(62), tt: 0 });
  bad[20] = (bad[20] as number) ^ 1;
  throwsWire(() => decodeSerial(type9Codec, bad, 0, bad.length), 'crc', 'crc');
});

test('Part 6 §2.3, Part 10 §3.2.4: a Dev8 continuation of 74 bytes (an even-half-word packet in 84 bytes, which the assumed odd parity cannot frame) decodes at the other layout', () => {
  const p = { ...contOf(74), tt: 0, destinationID: 5, sourceID: 6 };
  const bytes = serial(p);
  assert.equal(bytes.length, 84);
  assert.deepEqual(payloadOf(decodeSerial(type9Codec, bytes, 0, bytes.length), 'continuation'), p.payload);
  // Damaged, it keeps the length error the assumed layout gives.
  bytes[10] = (bytes[10] as number) ^ 1;
  throwsWire(() => decodeSerial(type9Codec, bytes, 0, bytes.length), 'invalid', 'length');
});

test('Part 6 §2.4.1, Part 10 §3.2.4 (decision): a start or continuation of 4k + 2 bytes that ends in a pad is the same bytes as an MTU-sized segment whose CRC is 0x0000: it decodes as that, two bytes longer, ending in its own CRC', () => {
  // Dev8 continuation: a 3-half-word header, assumed odd (no pad). At 62 bytes the packet is even:
  // CRC then the 0x0000 pad, which the assumed layout reads as payload + CRC 0x0000.
  const p = { ...contOf(62), tt: 0, destinationID: 5, sourceID: 6 };
  const bytes = serial(p);
  const got = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  const payload = payloadOf(got, 'continuation');
  assert.deepEqual([payload.length, got.crc], [64, 0]);
  assert.deepEqual(payload.subarray(0, 62), p.payload);
  // Past 80 bytes two CRCs take four bytes, so there it is the odd packet that ends in a pad: a
  // Dev8 start of 250 bytes (129 half-words) reads as 252.
  const q = { ...startOf(250), tt: 0, destinationID: 5, sourceID: 6 };
  const long = serial(q);
  const read = decodeSerial(type9Codec, long, 0, long.length);
  const readPayload = payloadOf(read, 'start');
  assert.deepEqual([readPayload.length, read.crc], [252, 0]);
  assert.deepEqual(readPayload.subarray(0, 250), q.payload);
});

test('isSegmentSizeError: only the segment size checks (start/continuation not an MTU, single/end over 256), not the empty payload of Part 10 §4.2 or other strict errors', () => {
  const strictError = (b: Uint8Array): WireError => {
    try {
      decodeType9(b, 0, b.length, { strict: true });
    } catch (e) {
      if (e instanceof WireError) return e;
      throw e;
    }
    throw new Error('decoded');
  };
  assert.ok(isSegmentSizeError(strictError(parseHex(`0049 05 06 00 00 ${toHex(new Uint8Array(28))}`))));
  assert.ok(isSegmentSizeError(strictError(parseHex(`0049 05 06 00 c2 0001 ${toHex(new Uint8Array(258))}`))));
  const empty = strictError(parseHex('0049 05 06 00 c0 0010'));
  assert.deepEqual([isSegmentSizeError(empty), empty.clause], [false, 'Part 10 §4.2']);
  assert.equal(isSegmentSizeError(strictError(parseHex(`0049 05 06 00 01 ${toHex(new Uint8Array(32))}`))), false);
});

test('Part 10 §4.2: oddHalfwords follows O for single/end, the header for start/continuation and TM', () => {
  const cases: [string, boolean][] = [
    ['0049 05 06 80 c0', false], ['0049 05 06 80 c2', true], // Dev8 single: 4 header half-words + O
    ['0059 0001 0002 80 c0', true], ['0059 0001 0002 80 c2', false], // Dev16 single: 5 + O
    ['0059 0001 0002 80 80', true], ['0049 05 06 80 80', false], // start: 3 + ids
    ['0059 0001 0002 80 00', false], ['0049 05 06 80 00', true], // continuation: 2 + ids
    ['0009 06 15 03 04', false], ['0019 0006 0015 03 04', true], ['00a9 00000006 00000015 03 04', true], // TM: 5 + ids
  ];
  for (const [h, odd] of cases) {
    const b = parseHex(h);
    assert.equal(type9Codec.oddHalfwords(b, 0, b.length, {}), odd, h);
  }
  throwsWire(() => type9Codec.oddHalfwords(parseHex('00a9 0000'), 0, 4, {}), 'truncated');
});
