/**
 * CRC-16 of LP-Serial packets (Part 6 §2.4.2): polynomial x^16+x^12+x^5+1 (0x1021), initial
 * value 0xFFFF, most significant bit first, no reflection and no final XOR (DECISIONS.md §1).
 *
 * Both fast paths are slicing-by-16: T[k·256 + x] is the register after x<<8 has been shifted
 * through 8·(k+1) zero bits, so sixteen input bytes cost sixteen table look-ups that do not
 * depend on each other; only the first two depend on the running register. The CRC is linear,
 * which is what makes the tables compose; `crc16Bitwise` is the reference the tests compare with.
 *
 * Long spans, and batches of packets, go to a small WebAssembly kernel (below) when the runtime
 * has one: slicing-by-32, and its memory accesses carry no bounds checks, which makes it about
 * 1.3× the JS loop even after the copy into its memory. `crc16UpdateJs` is the fallback, and
 * the only path for short spans, where the copy would cost more than the kernel saves.
 */
export const CRC16_POLY = 0x1021;
export const CRC16_INIT = 0xffff;

/** Table slices: the JS loop's 16-byte steps use the first 16, the kernel's 32-byte blocks all. */
const KERNEL_SLICES = 32;
/** Part 6 §2.4.1: the early CRC follows the first 80 bytes (serial.ts's EARLY_CRC_AT, which imports this module). */
const EARLY_AT = 80;
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

// --- WebAssembly kernel -----------------------------------------------------------------------
//
// Memory is one fixed page, so views of it are never detached by a grow: the table at 0 (as T),
// the joined output of `split` at JOINED, the packet table of `crcs` at TAB, then the staging
// area. Exports, in text form:
//   (func $crc (param $c i32) (param $p i32) (param $end i32) (result i32))
//     memory[$p, $end) into register $c: 32-byte blocks, then 16- and 4-byte blocks, then
//     bytes. Byte j of a K-byte block is loaded alone and indexes table K-1-j,
//     whose entry is two bytes: (byte << 1) + (K-1-j)·512, the constant in the load's offset;
//     bytes 0 and 1 are first XORed with the register's high and low byte. Measured against
//     the previous kernel (16-byte blocks of words, each byte cut out by a shift and a mask):
//     1.3× (docs/performance.md); a SIMD variant (indices computed in a v128, then extracted
//     lane by lane) was 1.5× slower, lane extraction costing more than the shift and mask.
//   (func $split (param $p i32) (param $n i32) (result i32))
//     for a staged serial packet with n > 80 logical bytes: (early << 16) | final, the final
//     CRC restarted from 0 after the early one (see crc16Split); the logical bytes go to JOINED.
//   (func $crcs (param $count i32) (param $open i32))
//     crc16PacketCrcs's loop for `count` staged packets in one call: packet i at address
//     TAB[i] (u32) with TAB[TAB_CAP + i] logical bytes; TAB[i] is overwritten with
//     (early << 16) | final, so the results leave in one copy.

const JOINED = 256 * KERNEL_SLICES * 2;
/** Packets per `crcs` call: a window of maximum-size packets is ~160, so one call per window. */
const TAB_CAP = 512;
const TAB = JOINED + 512;
const STAGE = TAB + TAB_CAP * 8;
const STAGE_BYTES = 65536 - STAGE;
/**
 * When the kernel pays (measured, bench/crc16.bench.ts): the call costs little, but the copy into
 * its memory is a native call, plus a view allocation unless the whole array can be staged.
 */
const STAGE_WHOLE = 512;
const WASM_MIN_WHOLE = 160;
const WASM_MIN_SPAN = 512;
/** The opcodes the kernel uses (WebAssembly core spec §5.4). */
const Op = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, br: 0x0c, brIf: 0x0d, end: 0x0b, call: 0x10, void: 0x40,
  select: 0x1b, get: 0x20, set: 0x21, const: 0x41, load: 0x28, load8: 0x2d, load16: 0x2f, store: 0x36,
  gtU: 0x4b, geU: 0x4f, add: 0x6a, sub: 0x6b, and: 0x71, or: 0x72, xor: 0x73, shl: 0x74, shrU: 0x76,
} as const;
const I32 = 0x7f;
const MEMORY_COPY = [0xfc, 10, 0, 0];

function leb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && !(b & 0x40)) || (v === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}
const i32 = (v: number): number[] => [Op.const, ...leb(v)];
const get = (local: number): number[] => [Op.get, local];
const set = (local: number): number[] => [Op.set, local];
const mem = (op: number, offset: number): number[] => [op, 0, ...leb(offset)];
const plus = (local: number, v: number): number[] => [...get(local), ...i32(v), Op.add];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const list = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const name = (s: string): number[] => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];

/**
 * `while ($p + K <= $end)` over K-byte blocks, in crc's locals ($c 0, $p 1, $end 2). A load and a
 * shift per byte where words cut up cost a shift and a mask each, and a longer block spends its
 * loop test and the register's fold over more bytes.
 */
function blockLoop(k: number): number[] {
  const code = [Op.block, Op.void, Op.loop, Op.void, ...plus(1, k), ...get(2), Op.gtU, Op.brIf, 1];
  code.push(...get(1), ...mem(Op.load8, 0), ...get(0), ...i32(8), Op.shrU, Op.xor, ...i32(1), Op.shl, ...mem(Op.load16, (k - 1) * 512));
  code.push(...get(1), ...mem(Op.load8, 1), ...get(0), ...i32(0xff), Op.and, Op.xor, ...i32(1), Op.shl, ...mem(Op.load16, (k - 2) * 512), Op.xor);
  for (let j = 2; j < k; j++) code.push(...get(1), ...mem(Op.load8, j), ...i32(1), Op.shl, ...mem(Op.load16, (k - 1 - j) * 512), Op.xor);
  return [...code, ...set(0), ...plus(1, k), ...set(1), Op.br, 0, Op.end, Op.end];
}

function kernelBytes(): Uint8Array {
  const byteLoop = [
    Op.block, Op.void, Op.loop, Op.void, ...get(1), ...get(2), Op.geU, Op.brIf, 1,
    ...get(0), ...i32(8), Op.shl, ...i32(0xffff), Op.and,
    ...get(0), ...i32(8), Op.shrU, ...get(1), ...mem(Op.load8, 0), Op.xor, ...i32(1), Op.shl, ...mem(Op.load16, 0), Op.xor, ...set(0),
    ...plus(1, 1), ...set(1), Op.br, 0, Op.end, Op.end,
  ];
  const crc = [0, ...blockLoop(32), ...blockLoop(16), ...blockLoop(4), ...byteLoop, ...get(0), Op.end];
  const split = [
    0, // no locals; $p 0, $n 1
    // crc(0xffff ^ ((mem[p] & 0xfc) << 8), p, p + 80) << 16: the ackID bits cancelled in the seed
    ...i32(0xffff), ...get(0), ...mem(Op.load8, 0), ...i32(0xfc), Op.and, ...i32(8), Op.shl, Op.xor,
    ...get(0), ...plus(0, 80), Op.call, 0, ...i32(16), Op.shl,
    // | crc(0, p + 82, p + n + 2)
    ...i32(0), ...plus(0, 82), ...get(0), ...get(1), Op.add, ...i32(2), Op.add, Op.call, 0, Op.or,
    // memory.copy(JOINED, p, 80); memory.copy(JOINED + 80, p + 82, n - 80)
    ...i32(JOINED), ...get(0), ...i32(80), ...MEMORY_COPY,
    ...i32(JOINED + 80), ...plus(0, 82), ...get(1), ...i32(80), Op.sub, ...MEMORY_COPY,
    Op.end,
  ];
  // $count 0, $open 1; locals $i 2, $q 3 (4i), $p 4, $n 5, $e 6, $s 7.
  const crcs = [
    ...list([[6, I32]]),
    Op.block, Op.void, Op.loop, Op.void, ...get(2), ...get(0), Op.geU, Op.brIf, 1,
    ...get(2), ...i32(2), Op.shl, ...set(3),
    ...get(3), ...mem(Op.load, TAB), ...set(4),
    ...get(3), ...mem(Op.load, TAB + TAB_CAP * 4), ...set(5),
    // the slot's address for the store below
    ...get(3),
    // crc(0xffff ^ ((mem[p] & 0xfc) << 8), p, …): the ackID bits cancelled in the seed
    ...i32(0xffff), ...get(4), ...mem(Op.load8, 0), ...i32(0xfc), Op.and, ...i32(8), Op.shl, Op.xor, ...set(7),
    ...get(5), ...i32(EARLY_AT), Op.gtU, Op.if, I32,
    // n > 80: early over [p, p + 80), then final from the early CRC through its field (received)
    // or from 0 after it (open), to p + n + 2
    ...get(7), ...get(4), ...plus(4, EARLY_AT), Op.call, 0, ...set(6),
    ...get(6), ...i32(16), Op.shl,
    ...i32(0), ...get(6), ...get(1), Op.select,
    ...plus(4, EARLY_AT), ...get(1), ...i32(1), Op.shl, Op.add,
    ...get(4), ...get(5), Op.add, ...i32(2), Op.add,
    Op.call, 0, Op.or,
    Op.else,
    ...get(7), ...get(4), ...get(4), ...get(5), Op.add, Op.call, 0,
    Op.end,
    ...mem(Op.store, TAB),
    ...plus(2, 1), ...set(2), Op.br, 0, Op.end, Op.end,
    Op.end,
  ];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, list([[0x60, 3, I32, I32, I32, 1, I32], [0x60, 2, I32, I32, 1, I32], [0x60, 2, I32, I32, 0]])),
    ...section(3, list([[0], [1], [2]])),
    ...section(5, list([[0x01, 1, 1]])),
    ...section(7, list([[...name('m'), 2, 0], [...name('crc'), 0, 0], [...name('split'), 0, 1], [...name('crcs'), 0, 2]])),
    ...section(10, list([[...leb(crc.length), ...crc], [...leb(split.length), ...split], [...leb(crcs.length), ...crcs]])),
  ]);
}

interface Kernel {
  readonly bytes: Uint8Array;
  /** `split`'s output viewed once, at the largest serial packet's size, to copy out without a new view. */
  readonly joined: Uint8Array;
  readonly crc: (c: number, p: number, end: number) => number;
  readonly split: (p: number, n: number) => number;
  /** `crcs`'s packet table: addresses (then results) in [0, TAB_CAP), logical lengths in [TAB_CAP, 2·TAB_CAP). */
  readonly tab: Uint32Array;
  readonly crcs: (count: number, open: number) => void;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** null where WebAssembly is missing (e.g. `node --jitless`) or refuses the module. */
function loadKernel(): Kernel | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm === undefined) return null;
  try {
    const { exports } = new wasm.Instance(new wasm.Module(kernelBytes()), {});
    const bytes = new Uint8Array((exports['m'] as { buffer: ArrayBuffer }).buffer);
    // Byte by byte: WebAssembly is little-endian whatever the host is.
    T.forEach((v, i) => {
      bytes[2 * i] = v & 0xff;
      bytes[2 * i + 1] = v >> 8;
    });
    const kernel: Kernel = {
      bytes,
      joined: bytes.subarray(JOINED, JOINED + 284),
      crc: exports['crc'] as Kernel['crc'],
      split: exports['split'] as Kernel['split'],
      tab: new Uint32Array(bytes.buffer, TAB, 2 * TAB_CAP),
      crcs: exports['crcs'] as Kernel['crcs'],
    };
    // Never trust a kernel that disagrees with the JS path; the table's bytes make a fine probe.
    const probe = new Uint8Array(T.buffer, 0, 300);
    bytes.set(probe, STAGE);
    if (kernel.crc(CRC16_INIT, STAGE, STAGE + 300) !== crc16UpdateJs(CRC16_INIT, probe, 0, 300)) return null;
    kernel.tab[0] = STAGE;
    kernel.tab[TAB_CAP] = 270;
    kernel.crcs(1, 0);
    const early = crc16UpdateJs(CRC16_INIT ^ ((probe[0] as number) & 0xfc) << 8, probe, 0, EARLY_AT);
    return kernel.tab[0] === ((early << 16) | crc16UpdateJs(early, probe, EARLY_AT, 272)) >>> 0 ? kernel : null;
  } catch {
    return null;
  }
}

const KERNEL = loadKernel();
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

/** Continues a CRC-16 over bytes[start, end). */
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
