/**
 * The WebAssembly kernel of the CRC-16 (crc16.ts), built by hand: a few hundred bytes of code, no
 * toolchain, no file to load. crc16.ts supplies the table and checks the kernel against its JS
 * path before using it.
 */

/** Table slices: the JS loop's 16-byte steps use the first 16, the kernel's 32-byte blocks all. */
export const KERNEL_SLICES = 32;
/** Part 6 §2.4.1: the early CRC follows the first 80 bytes (serial.ts's EARLY_CRC_AT, which imports crc16.ts). */
export const EARLY_AT = 80;

// Memory is one fixed page, so views of it are never detached by a grow: the table at 0 (16 KiB),
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
export const TAB_CAP = 512;
const TAB = JOINED + 512;
export const STAGE = TAB + TAB_CAP * 8;
export const STAGE_BYTES = 65536 - STAGE;
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

export interface Kernel {
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

/**
 * The kernel with `table` (KERNEL_SLICES slices of 256 entries) in its memory, or null where
 * WebAssembly is missing (e.g. `node --jitless`), refuses the module, or fails `check` (the
 * caller's comparison with its JS path: never trust a kernel that disagrees).
 */
export function loadKernel(table: Uint16Array, check: (k: Kernel) => boolean): Kernel | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm === undefined) return null;
  try {
    const { exports } = new wasm.Instance(new wasm.Module(kernelBytes()), {});
    const bytes = new Uint8Array((exports['m'] as { buffer: ArrayBuffer }).buffer);
    // Byte by byte: WebAssembly is little-endian whatever the host is.
    table.forEach((v, i) => {
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
    return check(kernel) ? kernel : null;
  } catch {
    return null;
  }
}
