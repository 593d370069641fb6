/**
 * CRC-16 of LP-Serial packets (Part 6 §2.4.2): polynomial x^16+x^12+x^5+1 (0x1021), initial
 * value 0xFFFF, most significant bit first, no reflection and no final XOR (DECISIONS §1).
 *
 * Both fast paths are slicing-by-16: T[k·256 + x] is the register after x<<8 has been shifted
 * through 8·(k+1) zero bits, so sixteen input bytes cost sixteen table look-ups that do not
 * depend on each other; only the first two depend on the running register. The CRC is linear,
 * which is what makes the tables compose; `crc16Bitwise` is the reference the tests compare with.
 *
 * Long spans, and batches of packets, go to a small WebAssembly kernel (crc16-kernel.ts) when the runtime
 * has one: slicing-by-32, and its memory accesses carry no bounds checks, which makes it about
 * 1.3× the JS loop even after the copy into its memory. `crc16UpdateJs` is the fallback, and
 * the only path for short spans, where the copy would cost more than the kernel saves.
 */
import { EARLY_AT, KERNEL_SLICES, STAGE, STAGE_BYTES, TAB_CAP, loadKernel } from './crc16-kernel.ts';
import type { Kernel } from './crc16-kernel.ts';

/**
 * x^16+x^12+x^5+1 without its x^16 term.
 *
 * @example
 * ```ts
 * import { CRC16_INIT, CRC16_POLY, crc16Update } from 'riodp/wire';
 *
 * // A bit-serial CRC-16 (what a hardware model computes) agrees with the table-driven one.
 * const data = new TextEncoder().encode('123456789');
 * let c: number = CRC16_INIT;
 * for (const b of data) {
 *   c ^= b << 8;
 *   for (let i = 0; i < 8; i++) c = c & 0x8000 ? ((c << 1) ^ CRC16_POLY) & 0xffff : (c << 1) & 0xffff;
 * }
 * console.log(c.toString(16), crc16Update(CRC16_INIT, data, 0, data.length).toString(16)); // 29b1 29b1
 * ```
 */
export const CRC16_POLY = 0x1021;
/**
 * The register's preset: all 1s.
 *
 * @example
 * ```ts
 * import { CRC16_INIT, crc16Update } from 'riodp/wire';
 *
 * // The standard check value of this CRC (poly 0x1021, preset 0xFFFF, no reflection, no final XOR).
 * const data = new TextEncoder().encode('123456789');
 * console.log(crc16Update(CRC16_INIT, data, 0, data.length).toString(16)); // 29b1
 * ```
 */
export const CRC16_INIT = 0xffff;

/**
 * One flat table rather than sixteen: the hot loop then holds a single typed-array reference
 * (one map check, one length) and each look-up is a constant offset plus a byte. The JS loop
 * reads its first 8 KiB, the kernel all 16 KiB: both stay in L1 next to the packet.
 */
const T: Uint16Array = buildTable();

function buildTable(): Uint16Array {
  const t = new Uint16Array(256 * KERNEL_SLICES);
  for (let x = 0; x < 256; x++) {
    let r = x << 8;
    for (let i = 0; i < 8; i++) r = r & 0x8000 ? ((r << 1) ^ CRC16_POLY) & 0xffff : (r << 1) & 0xffff;
    t[x] = r;
  }
  for (let k = 1; k < KERNEL_SLICES; k++) {
    for (let x = 0; x < 256; x++) {
      const p = t[(k - 1) * 256 + x] as number;
      t[k * 256 + x] = ((p << 8) & 0xffff) ^ (t[p >> 8] as number);
    }
  }
  return t;
}

/** Continues a CRC-16 over bytes[start, end) in JS (the reference fast path and the fallback). */
export function crc16UpdateJs(crc: number, bytes: Uint8Array, start: number, end: number): number {
  // A local reference: module bindings are re-read (and TDZ-checked) on every access otherwise.
  const t = T;
  let c = crc & 0xffff;
  let i = start;
  const stop16 = end - 15;
  // Table indices are a byte plus a constant below 4096, so every look-up is in range; `!`
  // spares a branch per byte.
  /* eslint-disable @typescript-eslint/no-non-null-assertion */
  while (i < stop16) {
    c =
      t[3840 + (bytes[i]! ^ (c >> 8))]! ^ t[3584 + (bytes[i + 1]! ^ (c & 0xff))]! ^
      t[3328 + bytes[i + 2]!]! ^ t[3072 + bytes[i + 3]!]! ^ t[2816 + bytes[i + 4]!]! ^ t[2560 + bytes[i + 5]!]! ^
      t[2304 + bytes[i + 6]!]! ^ t[2048 + bytes[i + 7]!]! ^ t[1792 + bytes[i + 8]!]! ^ t[1536 + bytes[i + 9]!]! ^
      t[1280 + bytes[i + 10]!]! ^ t[1024 + bytes[i + 11]!]! ^ t[768 + bytes[i + 12]!]! ^ t[512 + bytes[i + 13]!]! ^
      t[256 + bytes[i + 14]!]! ^ t[bytes[i + 15]!]!;
    i += 16;
  }
  // The tail in 8-, 4- and 2-byte steps: a single-byte step is a full dependent chain (shift,
  // look-up, xor) per byte, and up to 15 of them would cost as much as the 16-byte loop. Any
  // step of two bytes or more takes the whole 16-bit register into its first two look-ups.
  if (i + 8 <= end) {
    c =
      t[1792 + (bytes[i]! ^ (c >> 8))]! ^ t[1536 + (bytes[i + 1]! ^ (c & 0xff))]! ^
      t[1280 + bytes[i + 2]!]! ^ t[1024 + bytes[i + 3]!]! ^ t[768 + bytes[i + 4]!]! ^ t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^ t[bytes[i + 7]!]!;
    i += 8;
  }
  if (i + 4 <= end) {
    c = t[768 + (bytes[i]! ^ (c >> 8))]! ^ t[512 + (bytes[i + 1]! ^ (c & 0xff))]! ^ t[256 + bytes[i + 2]!]! ^ t[bytes[i + 3]!]!;
    i += 4;
  }
  if (i + 2 <= end) {
    c = t[256 + (bytes[i]! ^ (c >> 8))]! ^ t[bytes[i + 1]! ^ (c & 0xff)]!;
    i += 2;
  }
  if (i < end) c = ((c << 8) & 0xffff) ^ t[(c >> 8) ^ bytes[i]!]!;
  /* eslint-enable @typescript-eslint/no-non-null-assertion */
  return c;
}

/**
 * When the kernel pays (measured, bench/crc16.bench.ts): the call costs little, but the copy into
 * its memory is a native call, plus a view allocation unless the whole array can be staged.
 */
const STAGE_WHOLE = 512;
const WASM_MIN_WHOLE = 160;
const WASM_MIN_SPAN = 512;

/** The kernel's `crc` and `crcs` against the JS path, on the table's bytes (a fine probe). */
function agrees(k: Kernel): boolean {
  const probe = new Uint8Array(T.buffer, 0, 300);
  k.bytes.set(probe, STAGE);
  if (k.crc(CRC16_INIT, STAGE, STAGE + 300) !== crc16UpdateJs(CRC16_INIT, probe, 0, 300)) return false;
  k.tab[0] = STAGE;
  k.tab[TAB_CAP] = 270;
  k.crcs(1, 0);
  const early = crc16UpdateJs(CRC16_INIT ^ (((probe[0] as number) & 0xfc) << 8), probe, 0, EARLY_AT);
  return k.tab[0] === ((early << 16) | crc16UpdateJs(early, probe, EARLY_AT, 272)) >>> 0;
}

const KERNEL = loadKernel(T, agrees);
/** Whether the WebAssembly kernel is in use (reported by the benchmarks). */
export const CRC16_WASM = KERNEL !== null;

function updateWasm(k: Kernel, crc: number, bytes: Uint8Array, start: number, end: number): number {
  if (bytes.length <= STAGE_WHOLE) {
    k.bytes.set(bytes, STAGE);
    return k.crc(crc & 0xffff, STAGE + start, STAGE + end);
  }
  let c = crc & 0xffff;
  for (let i = start; i < end; i += STAGE_BYTES) {
    const stop = Math.min(end, i + STAGE_BYTES);
    k.bytes.set(bytes.subarray(i, stop), STAGE);
    c = k.crc(c, STAGE, STAGE + stop - i);
  }
  return c;
}

/**
 * Continues a CRC-16 over bytes[start, end).
 *
 * @example
 * ```ts
 * import { CRC16_INIT, crc16Update } from 'riodp/wire';
 *
 * // Data arriving in pieces: the running CRC carries over from one piece to the next.
 * const data = new TextEncoder().encode('123456789');
 * const head = crc16Update(CRC16_INIT, data, 0, 4);
 * console.log(crc16Update(head, data, 4, data.length).toString(16)); // 29b1
 * ```
 */
export function crc16Update(crc: number, bytes: Uint8Array, start: number, end: number): number {
  const span = end - start;
  if (KERNEL !== null && (span >= WASM_MIN_SPAN || (span >= WASM_MIN_WHOLE && bytes.length <= STAGE_WHOLE))) {
    return updateWasm(KERNEL, crc, bytes, start, end);
  }
  return crc16UpdateJs(crc, bytes, start, end);
}

/**
 * CRC-16 over a packet's bytes[start, end), the first six bits (ackID) treated as zero
 * (Part 6 §2.4: "The code covers the entire packet except for the ackID field").
 *
 * @example
 * ```ts
 * import { crc16Packet, parseHex } from 'riodp/wire';
 *
 * // The same doorbell with ackID 0 and with ackID 5: the CRC does not cover the ackID.
 * const a = parseHex('000a 0501 0007 beef');
 * const b = parseHex('140a 0501 0007 beef');
 * console.log(crc16Packet(a, 0, a.length).toString(16), crc16Packet(b, 0, b.length).toString(16)); // 9f73 9f73
 * ```
 */
export function crc16Packet(bytes: Uint8Array, start: number, end: number, seed = CRC16_INIT): number {
  if (end <= start) return seed;
  // The first byte only ever enters the register XORed into its high byte, so its ackID bits
  // can be cancelled in the seed; the packet then runs in whole 16-byte blocks from `start`.
  const ackId = (bytes[start] as number) & 0xfc;
  return crc16Update(seed ^ (ackId << 8), bytes, start, end);
}

/**
 * The CRCs of an LP-Serial packet with more than 80 logical bytes (Part 6 §2.4.1), at
 * bytes[offset, offset + n + 4): n logical bytes with the early CRC after the first 80, then
 * the final CRC. Returns (early << 16) | final, both computed, and copies the n logical bytes
 * without the early CRC to out[at, at + n); out[at + n, at + 284) may be overwritten too.
 *
 * The final CRC is computed from zero after the early CRC: shifting a CRC register through its
 * own value leaves zero (the check of §2.4.1), so it equals the running CRC whenever the early
 * CRC matches, which the caller checks first.
 */
export function crc16Split(bytes: Uint8Array, offset: number, n: number, out: Uint8Array, at: number): number {
  if (KERNEL === null) return crc16SplitJs(bytes, offset, n, out, at);
  let p = STAGE;
  // A received frame is usually an array of its own: staged whole, no view to create.
  if (bytes.length <= STAGE_WHOLE) {
    KERNEL.bytes.set(bytes, STAGE);
    p += offset;
  } else {
    KERNEL.bytes.set(bytes.subarray(offset, offset + n + 2), STAGE);
  }
  const crcs = KERNEL.split(p, n);
  out.set(KERNEL.joined, at);
  return crcs >>> 0;
}

/** crc16Split in JS: the fallback, and what the tests hold the kernel to. */
export function crc16SplitJs(bytes: Uint8Array, offset: number, n: number, out: Uint8Array, at: number): number {
  const early = crc16UpdateJs(CRC16_INIT ^ (((bytes[offset] as number) & 0xfc) << 8), bytes, offset, offset + 80);
  const final = crc16UpdateJs(0, bytes, offset + 82, offset + n + 2);
  out.set(offset === 0 && bytes.length <= 284 ? bytes : bytes.subarray(offset, offset + n + 2), at);
  out.copyWithin(at + 80, at + 82, at + n + 2);
  return ((early << 16) | final) >>> 0;
}

/** Bit-serial reference, one bit per step, used to check the table-driven path. */
export function crc16Bitwise(bytes: Uint8Array, start: number, end: number, maskAckID = true): number {
  let c = CRC16_INIT;
  for (let i = start; i < end; i++) {
    let b = bytes[i] as number;
    if (maskAckID && i === start) b &= 0x03;
    for (let bit = 7; bit >= 0; bit--) {
      const fb = ((c >> 15) ^ (b >> bit)) & 1;
      c = (c << 1) & 0xffff;
      if (fb) c ^= CRC16_POLY;
    }
  }
  return c;
}


/**
 * The CRCs of `count` LP-Serial packets of one buffer in one pass (issue 17): packet i starts at
 * bytes[at[i]] and has n[i] logical bytes (Part 6 §2.4.1); out[i] is (early << 16) | final, the
 * ackID bits counted as zero. For n ≤ 80 early is 0 and final the CRC of [at, at + n).
 *
 * For n > 80 early is the CRC of the first 80 bytes, and final:
 * - `open` false (a packet received, crc16Packets): the running CRC, not re-initialised, through
 *   the early CRC field up to the final CRC field, [at, at + n + 2);
 * - `open` true (a packet being encoded, crc16PacketsOpen: its early CRC field is not written
 *   yet): computed from zero over [at + 82, at + n + 2), never reading the early CRC field. Once
 *   the early CRC is written there both are equal: shifting a CRC register through its own value
 *   leaves zero.
 *
 * With the WebAssembly kernel (`kernel` true and the runtime has one) the buffer is staged into
 * its memory a window at a time (one copy per ~51 KiB, never past `limit`, not one per packet),
 * the window's packets are listed in the kernel's packet table, and one call of its `crcs` export
 * computes them all; the results leave in one copy. Otherwise the JS slicing-by-16 loop. `kernel`
 * false is for the tests of the fallback.
 *
 * @example
 * ```ts
 * import { crc16PacketCrcs, encodeSerialPacket, messageSegment, packetLength, serialPacketLength, toHex } from 'riodp/wire';
 *
 * // A received 102-byte message: its early CRC sits at bytes 80–81, the final CRC after the data.
 * const p = messageSegment({ tt: 0, destinationID: 5, sourceID: 1, letter: 0, mailbox: 0, payload: new Uint8Array(96).fill(0xa5) });
 * const bytes = new Uint8Array(serialPacketLength(p));
 * encodeSerialPacket(p, bytes, 0);
 * const out = new Uint32Array(1);
 * crc16PacketCrcs(bytes, Uint32Array.of(0), Uint16Array.of(packetLength(p)), 1, out, false);
 * console.log((out[0] ?? 0).toString(16), toHex(bytes.subarray(80, 82)), toHex(bytes.subarray(104, 106))); // b3b1e5bf b3b1 e5bf
 * ```
 */
export function crc16PacketCrcs(bytes: Uint8Array, at: Uint32Array, n: Uint16Array, count: number, out: Uint32Array, open: boolean, limit = bytes.length, kernel = true): void {
  const k = kernel ? KERNEL : null;
  if (k !== null) {
    packetCrcsWasm(k, bytes, at, n, count, out, open, limit);
    return;
  }
  for (let i = 0; i < count; i++) {
    const a = at[i] as number;
    const len = n[i] as number;
    const seed = CRC16_INIT ^ (((bytes[a] as number) & 0xfc) << 8);
    if (len <= EARLY_AT) {
      out[i] = crc16UpdateJs(seed, bytes, a, a + len);
      continue;
    }
    // Where the final CRC resumes after the early CRC, and from what.
    const early = crc16UpdateJs(seed, bytes, a, a + EARLY_AT);
    out[i] = ((early << 16) | crc16UpdateJs(open ? 0 : early, bytes, a + EARLY_AT + (open ? 2 : 0), a + len + 2)) >>> 0;
  }
}

/**
 * crc16PacketCrcs through the kernel: packets are listed until one ends past the staged window
 * (or the table is full), then the listed ones are computed in one call and a new window is staged
 * from the next packet's start. No JS→WebAssembly call per packet.
 */
function packetCrcsWasm(k: Kernel, bytes: Uint8Array, at: Uint32Array, n: Uint16Array, count: number, out: Uint32Array, open: boolean, limit: number): void {
  const tab = k.tab;
  const mode = open ? 1 : 0;
  let base = 0;
  let top = -1;
  let first = 0;
  let listed = 0;
  for (let i = 0; i < count; i++) {
    const a = at[i] as number;
    const len = n[i] as number;
    const stop = len > EARLY_AT ? a + len + 2 : a + len;
    if (a < base || stop > top || listed === TAB_CAP) {
      if (listed > 0) {
        k.crcs(listed, mode);
        out.set(tab.subarray(0, listed), first);
      }
      first = i;
      listed = 0;
      base = a;
      top = Math.min(limit, a + STAGE_BYTES);
      k.bytes.set(bytes.subarray(base, top), STAGE);
    }
    tab[listed] = STAGE + a - base;
    tab[TAB_CAP + listed] = len;
    listed++;
  }
  if (listed > 0) {
    k.crcs(listed, mode);
    out.set(tab.subarray(0, listed), first);
  }
}

/** crc16PacketCrcs of packets received (their early CRC field written). */
export function crc16Packets(bytes: Uint8Array, at: Uint32Array, n: Uint16Array, count: number, out: Uint32Array): void {
  crc16PacketCrcs(bytes, at, n, count, out, false);
}

/** crc16PacketCrcs of packets being encoded (their early CRC field not written yet), staged never past `limit`. */
export function crc16PacketsOpen(bytes: Uint8Array, at: Uint32Array, n: Uint16Array, count: number, out: Uint32Array, limit = bytes.length): void {
  crc16PacketCrcs(bytes, at, n, count, out, true, limit);
}
