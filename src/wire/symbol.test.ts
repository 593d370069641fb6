import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from './errors.ts';
import { parseHex, toHex } from './hex.ts';
import { buildSymbol, decodeSymbol, encodeSymbol, symbolLength } from './symbol.ts';
import type { SymbolFields } from './symbol.ts';

function isWire(code: string, field: string, offset?: number) {
  return (e: unknown): boolean =>
    e instanceof WireError && e.code === code && e.field === field && (offset === undefined || e.offset === offset);
}

function encoded(f: SymbolFields): Uint8Array {
  const out = new Uint8Array(symbolLength(f.link));
  encodeSymbol(f, out, 0);
  return out;
}

test('Part 6 §3.3 Figure 3-1/3-2: a CS24 is 3 bytes and a CS48 is 6 (DECISIONS §2: without delimiters)', () => {
  assert.equal(symbolLength('cs24'), 3);
  assert.equal(symbolLength('cs48'), 6);
});

test('Part 6 §3.6.1: a CS24 with a bad CRC-5 throws WireError crc on field crc at its byte', () => {
  // Golden packet-accepted 032f14 (symbol.golden.test.ts) with CRC 10100 changed to 10101.
  const bytes = parseHex('aa032f15');
  assert.throws(() => decodeSymbol(bytes, 1, 4, { link: 'cs24' }), isWire('crc', 'crc', 3));
});

test('Part 6 §3.6.1: CRC-5 catches every single-bit error in a CS24', () => {
  const good = parseHex('032f14');
  for (let bit = 0; bit < 24; bit++) {
    const bad = good.slice();
    bad[bit >> 3] = (bad[bit >> 3] as number) ^ (0x80 >> (bit & 7));
    assert.throws(() => decodeSymbol(bad, 0, 3, { link: 'cs24' }), isWire('crc', 'crc', 2), `bit ${bit}`);
  }
});

test('Part 6 §3.6.3: CRC-13 covers bits 0–34, stype2 included; a flipped stype2 bit is a CRC error at byte 4', () => {
  const good = parseHex('800fc1843af0'); // golden VoQ symbol
  for (let bit = 21; bit <= 34; bit++) {
    const bad = good.slice();
    bad[bit >> 3] = (bad[bit >> 3] as number) ^ (0x80 >> (bit & 7));
    assert.throws(() => decodeSymbol(bad, 0, 6, { link: 'cs48' }), isWire('crc', 'crc', 4), `bit ${bit}`);
  }
});

test('Part 6 §3.3: decoding needs exactly the symbol bytes: fewer is truncated, more is trailing', () => {
  assert.throws(() => decodeSymbol(parseHex('032f'), 0, 2, { link: 'cs24' }), isWire('truncated', 'symbol', 0));
  assert.throws(() => decodeSymbol(parseHex('032f14'), 0, 3, { link: 'cs48' }), isWire('truncated', 'symbol', 0));
  assert.throws(() => decodeSymbol(parseHex('032f1400'), 0, 4, { link: 'cs24' }), isWire('trailing-bytes', 'symbol', 3));
  // `end` past the buffer is bounded by the buffer.
  assert.throws(() => decodeSymbol(parseHex('032f'), 0, 3, { link: 'cs24' }), isWire('truncated', 'symbol', 0));
});

test('Part 6 §3.1: the link option must be cs24 or cs48', () => {
  const opts = JSON.parse('{"link":"cs64"}') as { link: 'cs24' };
  assert.throws(() => decodeSymbol(parseHex('032f14'), 0, 3, opts), isWire('invalid', 'link'));
});

test('Part 6 §3.4.6 Table 3-11: VC_status parameter0 is 0b00||VCID (CS24) or 0b000||VCID (CS48); lenient keeps rsrv0, strict rejects it', () => {
  for (const link of ['cs24', 'cs48'] as const) {
    const hi = link === 'cs24' ? 0b11 : 0b111;
    const bytes = encoded({ link, stype0: 5, parameter0: (hi << 3) | 2, parameter1: 1, stype1: 7, cmd: 0 });
    const s = decodeSymbol(bytes, 0, bytes.length, { link });
    assert.equal(s.vcid, 2);
    assert.equal(s.rsrv0, hi);
    assert.deepEqual(encoded(s), bytes);
    assert.throws(() => decodeSymbol(bytes, 0, bytes.length, { link, strict: true }), isWire('reserved', 'parameter0', 0));
  }
});

test('Part 6 §3.4.3 Table 3-7: CS48 packet-not-accepted parameter1 is 0b0||cause; the leading bit is reserved', () => {
  const bytes = encoded({ link: 'cs48', stype0: 2, parameter0: 0, parameter1: 0b1_11111, stype1: 7, cmd: 0 });
  const s = decodeSymbol(bytes, 0, 6, { link: 'cs48' });
  assert.deepEqual([s.cause, s.causeName, s.rsrv1], [31, 'general-error', 1]);
  assert.deepEqual(encoded(s), bytes);
  assert.throws(() => decodeSymbol(bytes, 0, 6, { link: 'cs48', strict: true }), isWire('reserved', 'parameter1', 1));
});

test('Part 6 §3.4.3 Table 3-8: reserved cause values are labelled leniently and rejected strictly', () => {
  for (const cause of [0b00000, 0b01000, 0b11110]) {
    const bytes = encoded({ link: 'cs24', stype0: 2, parameter0: 0, parameter1: cause, stype1: 7, cmd: 0 });
    assert.equal(decodeSymbol(bytes, 0, 3, { link: 'cs24' }).causeName, 'RESERVED');
    assert.throws(() => decodeSymbol(bytes, 0, 3, { link: 'cs24', strict: true }), isWire('reserved', 'cause', 1));
  }
});

test('Part 6 §3.4.7 Table 3-13/3-14: link-response CS48 parameter1 is 0b0||port_status; reserved port_status values', () => {
  const rsrv = encoded({ link: 'cs48', stype0: 6, parameter0: 5, parameter1: 0b1_10000, stype1: 7, cmd: 0 });
  const s = decodeSymbol(rsrv, 0, 6, { link: 'cs48' });
  assert.deepEqual([s.ackIDStatus, s.portStatus, s.portStatusName, s.rsrv1], [5, 16, 'OK', 1]);
  assert.throws(() => decodeSymbol(rsrv, 0, 6, { link: 'cs48', strict: true }), isWire('reserved', 'parameter1', 1));
  const reserved = encoded({ link: 'cs24', stype0: 6, parameter0: 5, parameter1: 0b00011, stype1: 7, cmd: 0 });
  assert.equal(decodeSymbol(reserved, 0, 3, { link: 'cs24' }).portStatusName, 'RESERVED');
  assert.throws(() => decodeSymbol(reserved, 0, 3, { link: 'cs24', strict: true }), isWire('reserved', 'portStatus', 1));
});

test('Part 6 §3.4.4 Table 3-9, §6.5.3.5.2: CS48 timestamp leading bits are Delay bits of a loop-response, not reserved', () => {
  // Delay 0xFFF "too large to be encoded": parameter0 = Delay[0:5] = 111111, parameter1 = Delay[6:11] = 111111.
  const bytes = encoded({ link: 'cs48', stype0: 3, parameter0: 0x3f, parameter1: 0x3f, stype1: 7, cmd: 0 });
  const s = decodeSymbol(bytes, 0, 6, { link: 'cs48', strict: true });
  assert.equal(s.delay, 0xfff);
  assert.deepEqual([s.startFlag, s.endFlag, s.timestamp], [1, 1, 0xff]);
  assert.equal(s.rsrv0, undefined);
  assert.equal(s.rsrv1, undefined);
  // CS24: Delay[0:4] || Delay[5:9], all ones = 0x3FF.
  const cs24 = encoded({ link: 'cs24', stype0: 3, parameter0: 0x1f, parameter1: 0x1f, stype1: 7, cmd: 0 });
  assert.equal(decodeSymbol(cs24, 0, 3, { link: 'cs24' }).delay, 0x3ff);
});

test('Part 6 §3.5 Table 3-17: strict decoding rejects stype1 0b110 at byte 1 and a reserved cmd at byte 2', () => {
  const s1 = encoded({ link: 'cs48', stype0: 4, parameter0: 0, parameter1: 0, stype1: 6, cmd: 0 });
  assert.throws(() => decodeSymbol(s1, 0, 6, { link: 'cs48', strict: true }), isWire('reserved', 'stype1', 1));
  const cmd = encoded({ link: 'cs24', stype0: 4, parameter0: 0, parameter1: 0, stype1: 4, cmd: 7 });
  assert.throws(() => decodeSymbol(cmd, 0, 3, { link: 'cs24', strict: true }), isWire('reserved', 'cmd', 2));
});

test('Part 6 §3.4 Table 3-2: implementation-defined (0b111) is a defined encoding, accepted in strict mode with raw parameters', () => {
  const bytes = encoded({ link: 'cs48', stype0: 7, parameter0: 0x3f, parameter1: 0x2a, stype1: 7, cmd: 0 });
  const s = decodeSymbol(bytes, 0, 6, { link: 'cs48', strict: true });
  assert.deepEqual([s.stype0Name, s.parameter0, s.parameter1, s.packetAckID, s.bufStatus], ['implementation-defined', 0x3f, 0x2a, undefined, undefined]);
});

test('Part 12 §3.1: decodeSymbol reads stype2 in the format and group size given', () => {
  // stype2 = CMD 1 | status 000000000001 | group 1 (G = 1) = 0x2003: port 12.
  const bytes = encoded({ link: 'cs48', stype0: 4, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0, stype2: 0x2003 });
  const s = decodeSymbol(bytes, 0, 6, { link: 'cs48', voqFormat: 'part12-rev4.1', part12GroupSize: 1 });
  assert.deepEqual(s.voq?.congestedPorts, [12]);
  assert.equal(s.voq.format, 'part12-rev4.1');
  // The same bits in the seed format: CMD 010 is reserved.
  assert.equal(decodeSymbol(bytes, 0, 6, { link: 'cs48' }).voq?.cmdName, 'RESERVED');
  assert.throws(() => decodeSymbol(bytes, 0, 6, { link: 'cs48', strict: true }), isWire('reserved', 'stype2', 2));
  assert.throws(() => decodeSymbol(bytes, 0, 6, { link: 'cs48', voqFormat: 'part12-rev4.1', part12GroupSize: 7 }), isWire('invalid', 'part12GroupSize'));
});

test('Part 6 §3.3: a CS24 has no stype2 and no voq', () => {
  const s = decodeSymbol(parseHex('032f14'), 0, 3, { link: 'cs24' });
  assert.equal(s.stype2, undefined);
  assert.equal(s.voq, undefined);
  assert.throws(() => encoded({ link: 'cs24', stype0: 0, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0, stype2: 0 }), isWire('invalid', 'stype2'));
});

test('Part 6 §3.3 Figure 3-1/3-2: encoding checks every field against its width and the buffer size', () => {
  const base = { stype0: 0, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0 } as const;
  assert.throws(() => encoded({ link: 'cs24', ...base, parameter0: 32 }), isWire('range', 'parameter0'));
  assert.doesNotThrow(() => encoded({ link: 'cs48', ...base, parameter0: 32 }));
  assert.throws(() => encoded({ link: 'cs48', ...base, parameter1: 64 }), isWire('range', 'parameter1'));
  assert.throws(() => encoded({ link: 'cs48', ...base, stype0: 8 }), isWire('range', 'stype0'));
  assert.throws(() => encoded({ link: 'cs48', ...base, stype1: -1 }), isWire('range', 'stype1'));
  assert.throws(() => encoded({ link: 'cs48', ...base, cmd: 1.5 }), isWire('range', 'cmd'));
  assert.throws(() => encoded({ link: 'cs48', ...base, stype2: 1 << 14 }), isWire('range', 'stype2'));
  assert.throws(() => encodeSymbol({ link: 'cs48', ...base }, new Uint8Array(5), 0), isWire('range', 'buffer'));
  assert.throws(() => encodeSymbol({ link: 'cs48', ...base }, new Uint8Array(6), 0, { link: 'cs24' }), isWire('invalid', 'link'));
});

test('Part 6 §3.6: encoding writes at the offset given and always generates the CRC', () => {
  const s = decodeSymbol(parseHex('032f14'), 0, 3, { link: 'cs24' });
  const out = new Uint8Array(5);
  assert.equal(encodeSymbol({ ...s, crc: 0 } as SymbolFields, out, 2), 5);
  assert.equal(toHex(out), '0000032f14');
  // Decoding at an offset reports absolute byte offsets.
  out[4] = 0x15;
  assert.throws(() => decodeSymbol(out, 2, 5, { link: 'cs24' }), isWire('crc', 'crc', 4));
});

test('Part 6 §3.3: buildSymbol gives what decoding the encoded raw fields gives', () => {
  const f = { link: 'cs48', stype0: 6, parameter0: 7, parameter1: 0b10000, stype1: 4, cmd: 4, stype2: 0x0821 } as const;
  const bytes = encoded(f);
  assert.deepEqual(buildSymbol(f), decodeSymbol(bytes, 0, 6, { link: 'cs48' }));
  assert.deepEqual(buildSymbol({ link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 }), decodeSymbol(parseHex('032f14'), 0, 3, { link: 'cs24' }));
  // stype2 absent on a CS48 is written as 0 ("Set to logic 0s on transmission").
  assert.equal(buildSymbol({ link: 'cs48', stype0: 4, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0 }).stype2, 0);
  assert.throws(() => buildSymbol({ ...f, stype1: 6 }, { strict: true }), isWire('reserved', 'stype1'));
});
