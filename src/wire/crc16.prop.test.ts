import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { CRC16_WASM, crc16Bitwise, crc16PacketCrcs, crc16Packets, crc16PacketsOpen, crc16UpdateJs } from './crc16.ts';

/**
 * Issue 17: crc16PacketCrcs (the kernel's `crcs` export, one call per staged window) against the
 * bit-serial reference, for packets of every logical length 4..276, odd ones included (the
 * function takes any length; serial framing gives even ones), at random offsets of one buffer.
 */

interface Layout {
  readonly at: Uint32Array;
  readonly n: Uint16Array;
  readonly count: number;
  /** Early CRC fields written with the right early CRC (a received buffer). */
  readonly closed: Uint8Array;
  /** The same with garbage in the early CRC fields (a buffer being encoded). */
  readonly open: Uint8Array;
  readonly limit: number;
}

/** Packets laid out from `lead` with the given gaps; bytes from a xorshift PRNG (a 100 KiB fc array would dominate the run). */
function layout(lead: number, lens: readonly number[], gaps: readonly number[], seed: number, shuffle: boolean): Layout {
  const count = lens.length;
  const at = new Uint32Array(count);
  const n = new Uint16Array(count);
  let p = lead;
  for (let i = 0; i < count; i++) {
    const len = lens[i] as number;
    at[i] = p;
    n[i] = len;
    p += len + (len > 80 ? 4 : 2) + (gaps[i] ?? 0);
  }
  const limit = p;
  const closed = new Uint8Array(limit + 7);
  let x = seed | 1;
  for (let i = 0; i < closed.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    closed[i] = x & 0xff;
  }
  const open = closed.slice();
  for (let i = 0; i < count; i++) {
    const a = at[i] as number;
    if ((n[i] as number) <= 80) continue;
    const early = crc16Bitwise(closed, a, a + 80);
    closed[a + 80] = early >> 8;
    closed[a + 81] = early & 0xff;
    open[a + 80] = ~closed[a + 80]! & 0xff;
    open[a + 81] = 0x5a;
  }
  if (shuffle) {
    // Listed out of order: the window is restaged backwards too.
    for (let i = count - 1; i > 0; i--) {
      const j = (x = (x * 1103515245 + 12345) >>> 0) % (i + 1);
      [at[i], at[j]] = [at[j] as number, at[i] as number];
      [n[i], n[j]] = [n[j] as number, n[i] as number];
    }
  }
  return { at, n, count, closed, open, limit };
}

/** (early << 16) | final by the bit-serial reference, over the closed buffer. */
function reference(l: Layout, i: number): number {
  const a = l.at[i] as number;
  const len = l.n[i] as number;
  if (len <= 80) return crc16Bitwise(l.closed, a, a + len);
  return ((crc16Bitwise(l.closed, a, a + 80) << 16) | crc16Bitwise(l.closed, a, a + len + 2)) >>> 0;
}

function check(l: Layout): void {
  for (const kernel of [true, false]) {
    const got = new Uint32Array(l.count);
    const gotOpen = new Uint32Array(l.count);
    crc16PacketCrcs(l.closed, l.at, l.n, l.count, got, false, l.limit, kernel);
    crc16PacketCrcs(l.open, l.at, l.n, l.count, gotOpen, true, l.limit, kernel);
    for (let i = 0; i < l.count; i++) {
      const want = reference(l, i);
      assert.equal(got[i], want, `received packet ${i} (n ${l.n[i]}) kernel ${kernel}`);
      assert.equal(gotOpen[i], want, `open packet ${i} (n ${l.n[i]}) kernel ${kernel}`);
    }
  }
}

const lenArb = fc.integer({ min: 4, max: 276 });

/** Layouts of `minN`–`maxN` packets after up to `maxLead` bytes, with gaps of up to `maxGap` bytes between them. */
function layoutArb(maxLead: number, minN: number, maxN: number, maxGap: number): fc.Arbitrary<Layout> {
  return fc
    .tuple(fc.integer({ min: 0, max: maxLead }), fc.array(lenArb, { minLength: minN, maxLength: maxN }), fc.array(fc.integer({ min: 0, max: maxGap }), { maxLength: maxN }), fc.integer(), fc.boolean())
    .map(([lead, lens, gaps, seed, shuffle]) => layout(lead, lens, gaps, seed, shuffle));
}

test('Part 6 §2.4.1, issue 17: crc16PacketCrcs of random packets (4..276 logical bytes, random offsets and gaps), received and open, through the kernel and the JS fallback, equals the bit-serial reference', () => {
  fc.assert(
    fc.property(layoutArb(300, 1, 40, 9), check),
    fcParams(3_000),
  );
});

test('Part 6 §2.4.1, issue 17: crc16PacketCrcs across staging windows (buffers of 40–200 KiB, packets straddling any window edge) equals the bit-serial reference', () => {
  fc.assert(
    fc.property(layoutArb(60_000, 150, 600, 300), check),
    fcParams(60),
  );
});

test('issue 17: more packets in one window than the kernel\'s packet table holds (2000 of 4..9 bytes) are computed in several calls, every result in place', () => {
  const lens = Array.from({ length: 2000 }, (_, i) => 4 + (i % 6));
  check(layout(1, lens, [], 0x1234, false));
});

test('Part 6 §2.4: every logical length 4..276, odd ones included, with the ackID bits set, equals the bit-serial reference (which masks them) in both modes', () => {
  const lens = Array.from({ length: 273 }, (_, i) => 4 + i);
  const l = layout(3, lens, lens.map((len) => len % 5), 0x5eed, false);
  for (let i = 0; i < l.count; i++) {
    const a = l.at[i] as number;
    l.closed[a] = l.closed[a]! | 0xfc;
    l.open[a] = l.closed[a]!;
  }
  // The ackID bits changed the early CRC fields' values: write them again.
  for (let i = 0; i < l.count; i++) {
    const a = l.at[i] as number;
    if ((l.n[i] as number) <= 80) continue;
    const early = crc16Bitwise(l.closed, a, a + 80);
    l.closed[a + 80] = early >> 8;
    l.closed[a + 81] = early & 0xff;
  }
  check(l);
  // crc16Packets / crc16PacketsOpen are the two modes with the kernel.
  const a = new Uint32Array(l.count);
  const b = new Uint32Array(l.count);
  crc16Packets(l.closed, l.at, l.n, l.count, a);
  crc16PacketsOpen(l.open, l.at, l.n, l.count, b, l.limit);
  assert.deepEqual(a, b);
  // And the JS loop's split continuation, the fallback's building block, agrees on one of them.
  const i = l.count - 1;
  const at = l.at[i] as number;
  assert.equal(crc16UpdateJs(0, l.open, at + 82, at + 278), (a[i] as number) & 0xffff);
});

test('the batch kernel is in use where the runtime has WebAssembly', { skip: !('WebAssembly' in globalThis) }, () => {
  assert.equal(CRC16_WASM, true);
});
