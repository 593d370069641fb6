import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeSerial, encodeSerial, logicalLength, serialLength, EARLY_CRC_AT } from './serial.ts';
import { crc16Bitwise } from './crc16.ts';
import { decodeHeader, encodeHeader } from './header.ts';
import type { PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';
import { WireError } from './errors.ts';
import { fcParams } from '../../test/support/fc.ts';

/**
 * A test-only logical format: the prefix, then one byte that states the half-word parity of the
 * whole logical packet, then opaque bytes. It isolates the framing rules from any real ftype.
 */
interface RawPacket extends PacketHeader {
  readonly body: Uint8Array;
}
const rawCodec: LogicalCodec<RawPacket> = {
  ftype: 15,
  name: 'RAW',
  decode: (bytes, offset, end, opts) => ({ ...decodeHeader(bytes, offset, end, opts), body: bytes.slice(offset + 2, end) }),
  encode: (p, bytes, offset, ackIdBits) => {
    encodeHeader(p, bytes, offset, ackIdBits);
    bytes.set(p.body, offset + 2);
    return offset + 2 + p.body.length;
  },
  encodedLength: (p) => 2 + p.body.length,
  oddHalfwords: (bytes, offset) => bytes[offset + 2] === 1,
};

function raw(n: number, fill = 0x5a): RawPacket {
  const body = new Uint8Array(n - 2).fill(fill);
  body[0] = (n / 2) % 2;
  return { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 15, body };
}

function frame(p: RawPacket): Uint8Array {
  const out = new Uint8Array(serialLength(rawCodec.encodedLength(p)));
  assert.equal(encodeSerial(rawCodec, p, out, 0), out.length);
  return out;
}

test('Part 6 §2.4.1: a packet of 80 bytes or less has one CRC at the end', () => {
  const out = frame(raw(80));
  assert.equal(out.length, 84);
  assert.equal(crc16Bitwise(out, 0, 82), 0);
  assert.equal(decodeSerial(rawCodec, out, 0, out.length).earlyCrc, undefined);
});

test('Part 6 §2.4.1: a packet longer than 80 bytes carries an early CRC after byte 80, not re-initialised', () => {
  const p = raw(82);
  const out = frame(p);
  assert.equal(out.length, 88); // 82 + early 2 + final 2 = 86 → pad to 88
  // Early CRC covers bytes 0..79 only; the final CRC covers everything before it including the early CRC.
  assert.equal((out[80]! << 8) | out[81]!, crc16Bitwise(out, 0, 80));
  assert.equal((out[84]! << 8) | out[85]!, crc16Bitwise(out, 0, 84));
  assert.deepEqual([out[86], out[87]], [0, 0]);
  const back = decodeSerial(rawCodec, out, 0, out.length);
  assert.deepEqual(back.body, p.body);
  assert.equal(back.earlyCrc, crc16Bitwise(out, 0, 80));
});

test('Part 6 §2.3: an odd number of half-words gets a 0x0000 pad to a 32-bit boundary', () => {
  const out = frame(raw(12)); // 12 + 2 = 14 → pad 2
  assert.equal(out.length, 16);
  assert.deepEqual([out[14], out[15]], [0, 0]);
  const even = frame(raw(10)); // 10 + 2 = 12, no pad
  assert.equal(even.length, 12);
});

test('Part 6 §2.4.1: decoding says which CRC failed', () => {
  const out = frame(raw(120));
  const early = out.slice();
  early[EARLY_CRC_AT] = early[EARLY_CRC_AT]! ^ 1;
  assert.throws(() => decodeSerial(rawCodec, early, 0, early.length), (e: unknown) => e instanceof WireError && e.field === 'earlyCrc' && e.offset === 80);
  const late = out.slice();
  late[100] = late[100]! ^ 0x80;
  assert.throws(() => decodeSerial(rawCodec, late, 0, late.length), (e: unknown) => e instanceof WireError && e.field === 'crc' && e.code === 'crc');
});

test('Part 6 §2.4: the ackID does not change the CRC', () => {
  const out = frame(raw(40));
  out[0] = 0xfc;
  assert.equal(decodeSerial(rawCodec, out, 0, out.length).ackID, 63);
});

test('Part 6 §2.3: serial packets are a multiple of 32 bits; §2.5: at most 284 bytes', () => {
  const out = frame(raw(40));
  assert.throws(() => decodeSerial(rawCodec, out, 0, out.length - 2), (e: unknown) => e instanceof WireError && e.field === 'length');
  assert.throws(() => encodeSerial(rawCodec, raw(282), new Uint8Array(400), 0), WireError);
  assert.throws(() => decodeSerial(rawCodec, new Uint8Array(288), 0, 288), WireError);
});

test('Part 6 §2.4.1: strict decoding rejects a non-zero pad', () => {
  const out = frame(raw(12));
  out[15] = 1;
  assert.throws(() => decodeSerial(rawCodec, out, 0, out.length, { strict: true }), (e: unknown) => e instanceof WireError && e.field === 'pad');
  assert.doesNotThrow(() => decodeSerial(rawCodec, out, 0, out.length));
});

test('Part 6 §2.3 "a two byte pad of all logic 0s": lenient decoding keeps a non-zero pad as rsrvPad and encoding writes it back; strict decoding refuses it naming pad, its byte and the clause', () => {
  // raw(12): 12 logical bytes + CRC = 14, padded to 16: the pad is bytes 14–15.
  const out = frame(raw(12));
  out[14] = 0xbe;
  out[15] = 0xef;
  const p = decodeSerial(rawCodec, out, 0, out.length);
  assert.equal(p.rsrvPad, 0xbeef);
  // Wire order in the JSON form: the CRC, then the pad.
  assert.deepEqual(Object.keys(p).slice(-2), ['crc', 'rsrvPad']);
  const again = new Uint8Array(16);
  assert.equal(encodeSerial(rawCodec, p, again, 0), 16);
  assert.deepEqual([...again], [...out]);
  assert.throws(
    () => decodeSerial(rawCodec, out, 0, out.length, { strict: true }),
    (e: unknown) => e instanceof WireError && e.code === 'reserved' && e.field === 'pad' && e.offset === 14 && e.clause === 'Part 6 §2.3',
  );
  assert.equal('rsrvPad' in decodeSerial(rawCodec, frame(raw(12)), 0, 16), false, 'a 0x0000 pad is no field');
});

test('Part 6 §2.3: only a packet with a pad can carry rsrvPad; its range is 16 bits', () => {
  // raw(14): 14 logical bytes + CRC = 16, a 32-bit boundary: no pad.
  assert.throws(() => encodeSerial(rawCodec, { ...raw(14), rsrvPad: 1 } as RawPacket, new Uint8Array(16), 0), (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.field === 'rsrvPad');
  assert.throws(() => encodeSerial(rawCodec, { ...raw(12), rsrvPad: 0x10000 } as RawPacket, new Uint8Array(16), 0), (e: unknown) => e instanceof WireError && e.code === 'range' && e.field === 'rsrvPad');
  assert.equal(encodeSerial(rawCodec, { ...raw(14), rsrvPad: 0 } as RawPacket, new Uint8Array(16), 0), 16);
});

test('Part 6 §2.3: no 84-byte frame holds an odd number of half-words: 4 bytes past the pad are not ignored', () => {
  // raw(78): 39 half-words (odd), + CRC = 80 bytes, no pad; 82 logical bytes would take 88.
  const out = new Uint8Array(84);
  out.set(frame(raw(78)));
  out[82] = 0xde;
  assert.throws(() => decodeSerial(rawCodec, out, 0, 84), (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.field === 'length' && e.offset === 84);
  assert.throws(() => decodeSerial(rawCodec, out, 0, 84, { strict: true }), (e: unknown) => e instanceof WireError && e.field === 'length');
  assert.equal(decodeSerial(rawCodec, out, 0, 80).body.length, 76);
});

test('logicalLength inverts serialLength for every logical length 4..280', () => {
  for (let n = 4; n <= 280; n += 2) {
    assert.equal(logicalLength(serialLength(n), (n / 2) % 2 === 1), n, `n=${n}`);
  }
});

test('encode → decode is the identity for every length and ackID, and errors land on the right offset', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 139 }), fc.integer({ min: 0, max: 63 }), fc.uint8Array({ minLength: 280, maxLength: 280 }), (hw, ackID, fill) => {
      const n = hw * 2;
      const body = fill.slice(0, n - 2);
      body[0] = hw % 2;
      const p: RawPacket = { ackID, vc: 1, crf: 0, prio: 3, tt: 1, ftype: 15, body };
      const out = frame(p);
      assert.deepEqual(decodeSerial(rawCodec, out, 0, out.length), { ...p, crc: decodeSerial(rawCodec, out, 0, out.length).crc, ...(n > 80 ? { earlyCrc: crc16Bitwise(out, 0, 80) } : {}) });
    }),
    fcParams(5_000),
  );
});

/** Like rawCodec, but the body is a view of the decoded bytes, as real payloads are. */
const viewCodec: LogicalCodec<RawPacket> = {
  ...rawCodec,
  decode: (bytes, offset, end, opts) => ({ ...decodeHeader(bytes, offset, end, opts), body: bytes.subarray(offset + 2, end) }),
};

/** Like rawCodec, but a body byte 0xEE is an error at that byte, to check where errors land. */
const failCodec: LogicalCodec<RawPacket> = {
  ...rawCodec,
  decode: (bytes, offset, end, opts) => {
    const at = bytes.indexOf(0xee, offset + 3);
    if (at !== -1 && at < end) throw new WireError('invalid', 'body', at, 'test', 'byte 0xEE');
    return rawCodec.decode(bytes, offset, end, opts);
  },
};

test('Part 6 §2.4.1: decode errors point into the caller\'s bytes, two further on past the early CRC', () => {
  for (const [logical, n] of [[3, 120], [79, 120], [80, 120], [81, 120], [119, 120], [40, 60]] as const) {
    const p = raw(n, 0x11);
    p.body[logical - 2] = 0xee;
    const framed = frame(p);
    const bytes = new Uint8Array(framed.length + 12);
    bytes.set(framed, 8);
    const want = 8 + logical + (n > EARLY_CRC_AT && logical >= EARLY_CRC_AT ? 2 : 0);
    assert.equal(bytes[want], 0xee);
    assert.throws(() => decodeSerial(failCodec, bytes, 8, 8 + framed.length), (e: unknown) => e instanceof WireError && e.field === 'body' && e.offset === want, `byte ${logical} of ${n}`);
  }
});

test('Part 6 §2.4.1: joined packets own their bytes: later decodes and changes to the input leave them intact', () => {
  const packets = Array.from({ length: 200 }, (_, i) => {
    const p = raw(82 + 2 * (i % 99), i & 0xff);
    p.body[1] = i >> 8;
    return p;
  });
  const wire = packets.map(frame);
  const failing = raw(250, 0x22);
  failing.body[200] = 0xee;
  const bad = frame(failing);
  const decoded = wire.map((b) => {
    const d = decodeSerial(viewCodec, b, 0, b.length);
    // A decode that fails after the join must neither keep its space nor disturb earlier results.
    assert.throws(() => decodeSerial(failCodec, bad, 0, bad.length), WireError);
    return d;
  });
  for (const b of wire) b.fill(0);
  decoded.forEach((d, i) => {
    assert.deepEqual(d.body, packets[i]!.body, `packet ${i}`);
  });
});

test('Part 10 §4.2: a payload joined around the early CRC is a plain Uint8Array that does not alias the input', () => {
  const p = raw(200, 0x3c);
  const out = frame(p);
  const d = decodeSerial(viewCodec, out, 0, out.length);
  assert.equal(Object.getPrototypeOf(d.body), Uint8Array.prototype);
  assert.notEqual(d.body.buffer, out.buffer);
  assert.deepEqual(d.body, p.body);
  const short = frame(raw(40));
  assert.equal(decodeSerial(viewCodec, short, 0, short.length).body.buffer, short.buffer, 'packets of 80 bytes or less are decoded in place');
});
