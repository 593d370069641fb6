import { RegisterError, RegisterErrorCode } from './errors.ts';

/**
 * The configuration space of one processing element: 32-bit big-endian registers at byte
 * offsets 0x0–0xFFFFFC, accessed by Type 8 MAINTENANCE reads and writes (Part 1 §4.1.10) and
 * by the element itself. The access rules are Part 10 §5.3 Table 5-2 (identical in Part 1 §5.2,
 * Part 3 §3.3 and Part 6 §7.3), row by row:
 *
 * - reserved register (no definition at the offset), any space: "read - return logic 0s",
 *   "write - ignored"; the access "shall terminate normally and not cause an error" (§5.2).
 * - CAR space 0x0–0x3C is read-only: every write is ignored ("Writes to CAR (read-only) space
 *   shall terminate normally"); reserved bits read 0; implementation-defined bits read their
 *   implementation-defined value.
 * - CSR space 0x40–0xFC and extended features space 0x100–0xFFFC: reserved bits read 0 and
 *   writes to them are ignored; implementation-defined bits are "write - implementation-
 *   defined": riodp treats them as read-only unless a definition lists them as writable.
 * - implementation-defined space 0x10000–0xFFFFFC: "All behavior implementation-defined";
 *   riodp applies the same rules as extended features space.
 *
 * Only accesses that no MAINTENANCE packet can express throw RegisterError: offsets that are
 * not word aligned (double-word for 8+ bytes), outside the 16 Mbyte space, or sizes other than
 * a word or up to eight double-words (Part 1 §4.1.10).
 *
 * @example
 * ```ts
 * import { RegisterKind, RegisterSpace } from 'riodp/registers';
 *
 * const space = new RegisterSpace([{ offset: 0x0, name: 'Device Identity CAR', kind: RegisterKind.car, clause: 'Part 1 §5.4.1', reset: 0x12340038 }]);
 * space.writeWord(0x0, 0); // "Writes to CAR (read-only) space shall terminate normally": ignored
 * console.log(space.readWord(0x0).toString(16)); // 12340038
 * ```
 */
export const RegisterKind = { car: 'CAR', csr: 'CSR' } as const;
export type RegisterKind = (typeof RegisterKind)[keyof typeof RegisterKind];

/**
 * Who writes: a MAINTENANCE write from the fabric, or the processing element's own logic.
 *
 * @example
 * ```ts
 * import { AccessSource, STANDARD_OFFSETS, buildEndpointRegisters } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters();
 * space.subscribe((c) => {
 *   if (c.source === AccessSource.maintenance) console.log(`${c.name}: 0x${c.old.toString(16)} → 0x${c.value.toString(16)}`);
 * });
 * space.writeWord(STANDARD_OFFSETS.baseDeviceId, 0x00050005); // Base Device ID CSR: 0xffffff → 0x50005
 * ```
 */
export const AccessSource = { maintenance: 'maintenance', local: 'local' } as const;
export type AccessSource = (typeof AccessSource)[keyof typeof AccessSource];

/**
 * The regions of the configuration space (Part 1 §5.3).
 *
 * @example
 * ```ts
 * import { SpaceRegion, regionOf } from 'riodp/registers';
 *
 * // Extended features pointers must index into extended features space (Part 1 §5.3).
 * const inEfSpace = (ptr: number): boolean => regionOf(ptr) === SpaceRegion.extendedFeatures;
 * console.log(inEfSpace(0x100), inEfSpace(0x48)); // true false
 * ```
 */
export const SpaceRegion = {
  car: 'CAR',
  csr: 'CSR',
  extendedFeatures: 'EXTENDED_FEATURES',
  implementationDefined: 'IMPLEMENTATION_DEFINED',
} as const;
export type SpaceRegion = (typeof SpaceRegion)[keyof typeof SpaceRegion];

/**
 * The bounds of each region, byte offsets.
 *
 * @example
 * ```ts
 * import { CONFIG_SPACE, buildEndpointRegisters } from 'riodp/registers';
 *
 * // The CSRs an end point implements: walk CSR space 0x40–0xFC word by word.
 * const space = buildEndpointRegisters();
 * const csrs: string[] = [];
 * for (let o = CONFIG_SPACE.csrStart; o <= CONFIG_SPACE.csrEnd; o += 4) {
 *   const def = space.definition(o);
 *   if (def !== undefined) csrs.push(def.name);
 * }
 * console.log(csrs); // [ 'Base Device ID CSR', 'Host Base Device ID Lock CSR', 'Component Tag CSR' ]
 * ```
 */
export const CONFIG_SPACE = {
  carEnd: 0x3c,
  csrStart: 0x40,
  csrEnd: 0xfc,
  efStart: 0x100,
  efEnd: 0xfffc,
  implStart: 0x10000,
  /** Last word offset: config_offset is a 21-bit double-word offset (16 Mbytes). */
  last: 0xfffffc,
  bytes: 0x1000000,
} as const;

export const CLAUSE_TABLE_5_2 = 'Part 10 §5.3 Table 5-2';
const CLAUSE_ALIGN = 'Part 10 §5.1';
const CLAUSE_SIZE = 'Part 1 §4.1.10';
const CLAUSE_SPACE = 'Part 1 §5.3';
const RESERVED = '(reserved)';

/**
 * The region an offset lies in.
 *
 * @example
 * ```ts
 * import { regionOf } from 'riodp/registers';
 *
 * regionOf(0x3c);    // → 'CAR' (Data Streaming Information CAR)
 * regionOf(0x48);    // → 'CSR' (Data Streaming Logical Layer Control CSR)
 * regionOf(0x100);   // → 'EXTENDED_FEATURES'
 * regionOf(0x10000); // → 'IMPLEMENTATION_DEFINED'
 * ```
 */
export function regionOf(offset: number): SpaceRegion {
  if (offset <= CONFIG_SPACE.carEnd) return SpaceRegion.car;
  if (offset <= CONFIG_SPACE.csrEnd) return SpaceRegion.csr;
  if (offset < CONFIG_SPACE.implStart) return SpaceRegion.extendedFeatures;
  return SpaceRegion.implementationDefined;
}

/** What a register's write hook is given. */
export interface WriteContext {
  readonly space: RegisterSpace;
  readonly def: RegisterDef;
  readonly current: number;
  /** The word as written. */
  readonly value: number;
  /** The result of the plain rules for this source; hooks start from it. */
  readonly merged: number;
  readonly source: AccessSource;
}
/** Side effect of a write: returns the word to store (reserved bits are cleared afterwards). */
export type WriteHook = (ctx: WriteContext) => number;

/** A register to define in a space. */
export interface RegisterSpec {
  /** Byte offset, word aligned. */
  readonly offset: number;
  readonly name: string;
  readonly kind: RegisterKind;
  /** Where the register is defined, e.g. 'Part 9 §4.2 Table 4-1'. */
  readonly clause: string;
  readonly reset?: number;
  /** Bits a MAINTENANCE write changes. Must be 0 for a CAR. */
  readonly writable?: number;
  /** Bits that read 0 and ignore writes from any source. */
  readonly reserved?: number;
  /** Implementation-defined bits (informational; read-only unless also writable). */
  readonly implDefined?: number;
  readonly onWrite?: WriteHook;
}

/** A register as a space holds it, every field filled in. */
export interface RegisterDef extends Required<Omit<RegisterSpec, 'onWrite'>> {
  /** Bits neither writable by MAINTENANCE nor reserved: capabilities and status. */
  readonly readOnly: number;
  readonly onWrite: WriteHook | undefined;
}

/** A register's value changed, and who changed it. */
export interface RegisterChange {
  readonly offset: number;
  readonly name: string;
  readonly old: number;
  readonly value: number;
  readonly source: AccessSource;
}
/** Called after each change of a register's value. */
export type RegisterListener = (change: RegisterChange) => void;

function u32(v: number | undefined, what: string, offset: number, name: string): number {
  const x = v ?? 0;
  if (!Number.isInteger(x) || x < 0 || x > 0xffffffff) {
    throw new RegisterError(RegisterErrorCode.definition, offset, name, CLAUSE_TABLE_5_2, `${what} ${String(x)} is not a 32-bit value`);
  }
  return x;
}

/**
 * The configuration space of one processing element, with the access rules of Part 10 §5.3 Table 5-2 (see the
 * top of space.ts): MAINTENANCE reads and writes (`read`, `write`), the element's own (`readWord`,
 * `writeLocal`), definitions, reset and change listeners.
 *
 * @example
 * ```ts
 * import { RegisterKind, RegisterSpace } from 'riodp/registers';
 *
 * const space = new RegisterSpace([
 *   { offset: 0x60, name: 'Base Device ID CSR', kind: RegisterKind.csr, clause: 'Part 3 §3.5.1', reset: 0x00ffffff, writable: 0x00ffffff, reserved: 0xff000000 },
 * ]);
 * space.write(0x60, Uint8Array.from([0xff, 0x00, 0x00, 0x05])); // a MAINTENANCE write's payload
 * space.readWord(0x60); // → 5: bits 0–7 are reserved, the write to them is ignored
 * space.read(0x60, 8);  // → 00 00 00 05 00 00 00 00: nothing is defined at 0x64, it reads 0
 * ```
 */
export class RegisterSpace {
  private readonly defs = new Map<number, RegisterDef>();
  private readonly values = new Map<number, number>();
  private readonly listeners = new Set<RegisterListener>();

  constructor(specs: Iterable<RegisterSpec> = []) {
    for (const s of specs) this.define(s);
  }

  /** Adds a register; the definition must obey Table 5-2 for the space it sits in. */
  define(spec: RegisterSpec): RegisterDef {
    const { offset, name } = spec;
    this.checkOffset(offset, 4, false);
    const fail = (detail: string): never => {
      throw new RegisterError(RegisterErrorCode.definition, offset, name, CLAUSE_TABLE_5_2, detail);
    };
    if (this.defs.has(offset)) fail(`offset already holds ${this.defs.get(offset)?.name ?? ''}`);
    const region = regionOf(offset);
    if (region === SpaceRegion.car && spec.kind !== RegisterKind.car) fail('CAR space 0x0–0x3C holds only CARs');
    if (region === SpaceRegion.csr && spec.kind !== RegisterKind.csr) fail('CSR space 0x40–0xFC holds only CSRs');
    const reset = u32(spec.reset, 'reset', offset, name);
    const writable = u32(spec.writable, 'writable', offset, name);
    const reserved = u32(spec.reserved, 'reserved', offset, name);
    const implDefined = u32(spec.implDefined, 'implDefined', offset, name);
    if (spec.kind === RegisterKind.car && writable !== 0) fail('CARs are read-only (Part 10 §5.4)');
    if ((writable & reserved) !== 0) fail('writable and reserved masks overlap');
    if ((implDefined & reserved) !== 0) fail('implementation-defined and reserved masks overlap');
    if ((reset & reserved) !== 0) fail('reserved bits must reset to 0 ("read - return logic 0")');
    const def: RegisterDef = {
      offset,
      name,
      kind: spec.kind,
      clause: spec.clause,
      reset,
      writable,
      reserved,
      implDefined,
      readOnly: ~(writable | reserved) >>> 0,
      onWrite: spec.onWrite,
    };
    this.defs.set(offset, def);
    this.values.set(offset, reset);
    return def;
  }

  /** The register defined at `offset`; undefined for a reserved one. */
  definition(offset: number): RegisterDef | undefined {
    return this.defs.get(offset);
  }

  /** Every register defined, by offset. */
  definitions(): RegisterDef[] {
    return [...this.defs.values()].sort((a, b) => a.offset - b.offset);
  }

  /** Puts every register back to its reset value (listeners are not told). */
  reset(): void {
    for (const def of this.defs.values()) this.values.set(def.offset, def.reset);
  }

  /** Calls `listener` after each change; returns the function that stops it. */
  subscribe(listener: RegisterListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** MAINTENANCE read of one word. A reserved register reads 0 (Table 5-2). */
  readWord(offset: number): number {
    this.checkOffset(offset, 4, true);
    const def = this.defs.get(offset);
    if (def === undefined) return 0;
    return ((this.values.get(offset) ?? 0) & ~def.reserved) >>> 0;
  }

  /** MAINTENANCE write of one word, with the Table 5-2 rules and the register's side effects. */
  writeWord(offset: number, value: number): void {
    this.checkOffset(offset, 4, true);
    this.checkValue(offset, value);
    this.store(offset, value >>> 0, AccessSource.maintenance);
  }

  /**
   * The processing element's own write path (hardware status, capability configuration, the
   * local processor that Annex 2 §5.2.3 lets write "read-only" fields). It may change any bit
   * that is not reserved; side-effect hooks still run, with source 'local'. Writing an offset
   * with no register is a programming error here, not a fabric access, so it throws.
   */
  writeLocal(offset: number, value: number): void {
    this.checkOffset(offset, 4, true);
    this.checkValue(offset, value);
    if (!this.defs.has(offset)) {
      throw new RegisterError(RegisterErrorCode.unmapped, offset, RESERVED, CLAUSE_TABLE_5_2, 'no register is defined at this offset');
    }
    this.store(offset, value >>> 0, AccessSource.local);
  }

  /**
   * MAINTENANCE read of `size` bytes: a word (4) or 1–8 double-words (8..64, double-word
   * aligned), big-endian, word by word in ascending order (Part 1 §4.1.10).
   */
  read(offset: number, size = 4): Uint8Array {
    this.checkSize(offset, size);
    this.checkOffset(offset, size, true);
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    for (let i = 0; i < size; i += 4) view.setUint32(i, this.readWord(offset + i));
    return out;
  }

  /** MAINTENANCE write of a word or 1–8 double-words; the whole access is checked first. */
  write(offset: number, data: Uint8Array): void {
    if (!((data as unknown) instanceof Uint8Array)) {
      throw new RegisterError(RegisterErrorCode.size, asOffset(offset), RESERVED, CLAUSE_SIZE, 'data must be a Uint8Array');
    }
    const size = data.length;
    this.checkSize(offset, size);
    this.checkOffset(offset, size, true);
    const view = new DataView(data.buffer, data.byteOffset, size);
    for (let i = 0; i < size; i += 4) this.store(offset + i, view.getUint32(i), AccessSource.maintenance);
  }

  private store(offset: number, value: number, source: AccessSource): void {
    const def = this.defs.get(offset);
    if (def === undefined) return; // reserved register: "write - ignored"
    if (source === AccessSource.maintenance && def.kind === RegisterKind.car) return; // CARs are read-only
    const current = this.values.get(offset) ?? 0;
    const merged = source === AccessSource.local
      ? (value & ~def.reserved) >>> 0
      : ((current & ~def.writable) | (value & def.writable)) >>> 0;
    const hooked = def.onWrite ? def.onWrite({ space: this, def, current, value, merged, source }) : merged;
    const next = (hooked & ~def.reserved) >>> 0;
    if (next === current) return;
    this.values.set(offset, next);
    for (const l of this.listeners) l({ offset, name: def.name, old: current, value: next, source });
  }

  private checkValue(offset: number, value: number): void {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RegisterError(RegisterErrorCode.range, offset, this.nameAt(offset), CLAUSE_ALIGN, `value ${String(value)} is not a 32-bit register value`);
    }
  }

  private checkSize(offset: number, size: number): void {
    if (typeof size !== 'number' || !(size === 4 || (Number.isInteger(size) && size >= 8 && size <= 64 && size % 8 === 0))) {
      throw new RegisterError(RegisterErrorCode.size, asOffset(offset), RESERVED, CLAUSE_SIZE, `size ${String(size)} is neither a word nor 1–8 double-words`);
    }
    if (size >= 8 && Number.isInteger(offset) && offset % 8 !== 0) {
      throw new RegisterError(RegisterErrorCode.misaligned, offset, this.nameAt(offset), CLAUSE_SIZE, 'double-word accesses need a double-word aligned offset');
    }
  }

  private checkOffset(offset: number, size: number, access: boolean): void {
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset + size > CONFIG_SPACE.bytes) {
      throw new RegisterError(RegisterErrorCode.outOfRange, asOffset(offset), RESERVED, CLAUSE_SPACE, `offset is outside the 16 Mbyte configuration space (0x0–0x${CONFIG_SPACE.last.toString(16)})`);
    }
    if (offset % 4 !== 0) {
      throw new RegisterError(RegisterErrorCode.misaligned, offset, access ? this.nameAt(offset & ~3) : RESERVED, CLAUSE_ALIGN, 'registers are 32 bits and aligned to a 32 bit boundary');
    }
  }

  private nameAt(offset: number): string {
    return this.defs.get(offset)?.name ?? RESERVED;
  }
}

/** Offsets reported in errors stay numbers even when an untyped caller passed something else. */
function asOffset(x: unknown): number {
  return typeof x === 'number' ? x : Number.NaN;
}

/** Plain mask merge, for hooks that rebuild the stored word. */
export function mergeMasked(current: number, value: number, mask: number): number {
  return ((current & ~mask) | (value & mask)) >>> 0;
}
