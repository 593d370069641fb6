import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { crc16Bitwise, crc16Packet, crc16PacketCrcs, crc16Split, crc16SplitJs, crc16Update, crc16UpdateJs, CRC16_INIT, CRC16_WASM } from './crc16.ts';
import { parseHex } from './hex.ts';
import { fcParams } from '../../test/support/fc.ts';

test('DECISIONS §1: third-party doorbell 001a0001 ffff0000 deaf has CRC 0x9903', () => {
  const p = parseHex('001a0001 ffff0000 deaf9903');
  assert.equal(crc16Packet(p, 0, 10), 0x9903);
  assert.equal(crc16Bitwise(p, 0, 10), 0x9903);
});

test('Part 6 §2.4: the ackID bits are treated as 0 (first byte 0xFC gives the same CRC)', () => {
  const p = parseHex('fc1a0001 ffff0000 deaf9903');
  assert.equal(crc16Packet(p, 0, 10), 0x9903);
});

test('Part 6 §2.4.1: running the CRC over a packet including its CRC leaves 0', () => {
  const p = parseHex('001a0001 ffff0000 deaf9903');
  assert.equal(crc16Packet(p, 0, 12), 0);
});

test('Part 6 §2.4.2: CRC-16/CCITT check value (0x1021, init 0xFFFF) of "123456789" is 0x29B1', () => {
  // The published check value of CRC-16/CCITT-FALSE (same parameters as DECISIONS §1).
  const s = new TextEncoder().encode('123456789');
  assert.equal(crc16Update(CRC16_INIT, s, 0, s.length), 0x29b1);
});

test('crc16 fast path equals the bitwise reference on random spans', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), (bytes, cut) => {
      const start = cut % bytes.length;
      assert.equal(crc16Packet(bytes, start, bytes.length), crc16Bitwise(bytes, start, bytes.length));
    }),
    fcParams(20_000),
  );
});

test('crc16 is linear across split updates (the early CRC continues the running value)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 2, maxLength: 300 }), fc.nat(), (bytes, cut) => {
      const mid = 1 + (cut % (bytes.length - 1));
      const split = crc16Update(crc16Packet(bytes, 0, mid), bytes, mid, bytes.length);
      assert.equal(split, crc16Packet(bytes, 0, bytes.length));
    }),
    fcParams(20_000),
  );
});

test('crc16 JS fast path equals the bitwise reference for every tail length (16-, 8-, 4-, 2- and 1-byte steps)', () => {
  const bytes = Uint8Array.from({ length: 80 }, (_, i) => (i * 167 + 13) & 0xff);
  for (let start = 0; start < 4; start++) {
    for (let end = start + 1; end <= bytes.length; end++) {
      assert.equal(crc16UpdateJs(CRC16_INIT, bytes, start, end), crc16Bitwise(bytes, start, end, false), `[${start}, ${end})`);
    }
  }
});

test('crc16Update (WebAssembly kernel where available) equals the JS path: staged whole, as a subarray, in chunks', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 3000 }), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 0xffff }), (bytes, a, b, seed) => {
      const start = a % bytes.length;
      const end = start + (b % (bytes.length - start + 1));
      assert.equal(crc16Update(seed, bytes, start, end), crc16UpdateJs(seed, bytes, start, end));
    }),
    fcParams(2_000),
  );
  // Larger than the kernel's staging area (56 KiB): staged and continued chunk by chunk.
  const big = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 7 + (i >> 9)) & 0xff);
  assert.equal(crc16Update(CRC16_INIT, big, 3, big.length - 1), crc16UpdateJs(CRC16_INIT, big, 3, big.length - 1));
});

test('the WebAssembly kernel loads where the runtime has WebAssembly (else every path is the JS fallback)', { skip: !('WebAssembly' in globalThis) }, () => {
  assert.equal(CRC16_WASM, true);
});

/** A serial packet with n logical bytes at `offset` of a larger buffer, CRCs from the reference. */
function splitPacket(fill: Uint8Array, n: number, offset: number, tail: number): Uint8Array {
  const out = new Uint8Array(offset + n + 4 + tail).fill(0xa5);
  out.set(fill.subarray(0, 80), offset);
  const early = crc16Bitwise(out, offset, offset + 80);
  out[offset + 80] = early >> 8;
  out[offset + 81] = early & 0xff;
  out.set(fill.subarray(80, n), offset + 82);
  const final = crc16Bitwise(out, offset, offset + n + 2);
  out[offset + n + 2] = final >> 8;
  out[offset + n + 3] = final & 0xff;
  return out;
}

test('Part 6 §2.4.1: crc16Split returns the early and final CRC and joins the logical bytes around the early CRC', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 280, maxLength: 280 }),
      fc.integer({ min: 81, max: 280 }),
      fc.integer({ min: 0, max: 9 }),
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2000 })),
      (fill, n, offset, tail) => {
        const bytes = splitPacket(fill, n, offset, tail);
        const early = crc16Bitwise(bytes, offset, offset + 80);
        const final = crc16Bitwise(bytes, offset, offset + n + 2);
        for (const split of [crc16Split, crc16SplitJs]) {
          const out = new Uint8Array(300 + 284);
          assert.equal(split(bytes, offset, n, out, 300), ((early << 16) | final) >>> 0);
          assert.deepEqual(out.subarray(300, 300 + 80), bytes.subarray(offset, offset + 80));
          assert.deepEqual(out.subarray(380, 300 + n), bytes.subarray(offset + 82, offset + n + 2));
          assert.ok(out.subarray(0, 300).every((x) => x === 0), 'nothing written before `at`');
        }
      },
    ),
    fcParams(5_000),
  );
});

test('Part 6 §2.4.1, issue 17: crc16PacketCrcs of many packets, received (early CRC written) and open (not yet), equals the bit-serial reference through the kernel and through the JS fallback', () => {
  const count = 300;
  const lens = [20, 80, 81, 140, 270];
  const at = new Uint32Array(count);
  const n = new Uint16Array(count);
  let p = 0;
  for (let i = 0; i < count; i++) {
    at[i] = p;
    n[i] = lens[i % lens.length] as number;
    p += (n[i] as number) + 6;
  }
  const bytes = new Uint8Array(p).map((_, i) => (i * 37 + (i >>> 7)) & 0xff);
  const open = bytes.slice();
  // A received packet carries its early CRC; an open one has garbage where it will go.
  for (let i = 0; i < count; i++) {
    const a = at[i] as number;
    if ((n[i] as number) <= 80) continue;
    const early = crc16Bitwise(bytes, a, a + 80);
    bytes[a + 80] = early >>> 8;
    bytes[a + 81] = early & 0xff;
    open[a + 80] = 0x5a;
    open[a + 81] = 0xa5;
  }
  for (const kernel of [true, false]) {
    const got = new Uint32Array(count);
    const gotOpen = new Uint32Array(count);
    crc16PacketCrcs(bytes, at, n, count, got, false, bytes.length, kernel);
    crc16PacketCrcs(open, at, n, count, gotOpen, true, open.length, kernel);
    for (let i = 0; i < count; i++) {
      const a = at[i] as number;
      const len = n[i] as number;
      const want = len > 80 ? ((crc16Bitwise(bytes, a, a + 80) << 16) | crc16Bitwise(bytes, a, a + len + 2)) >>> 0 : crc16Bitwise(bytes, a, a + len);
      assert.equal(got[i], want, `received ${i} kernel ${kernel}`);
      assert.equal(gotOpen[i], want, `open ${i} kernel ${kernel}`);
    }
  }
});
