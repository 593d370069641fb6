import { RegisterError, RegisterErrorCode } from './errors.ts';
import type { RegisterSpace } from './space.ts';

/**
 * Bit fields of a 32-bit register. RapidIO numbers bits from the most significant end: "CARs
 * are big-endian with bit 0 the most significant bit" (Part 1 §5.4, Part 10 §5.4), so bit 20
 * is 0x00000800 and bit 24 is 0x00000080.
 */
export function bitMask(bit: number): number {
  return 0x80000000 >>> bit;
}

/** Mask of `width` bits starting at spec bit `bit` (bit 0 = MSB). */
export function fieldMask(bit: number, width: number): number {
  const ones = width >= 32 ? 0xffffffff : (2 ** width - 1);
  return (ones * 2 ** (32 - bit - width)) >>> 0;
}

export function getField(word: number, bit: number, width: number): number {
  return ((word >>> 0) & fieldMask(bit, width)) >>> (32 - bit - width);
}

export function setField(word: number, bit: number, width: number, value: number): number {
  const mask = fieldMask(bit, width);
  return ((((word >>> 0) & ~mask) >>> 0) | ((value * 2 ** (32 - bit - width)) & mask)) >>> 0;
}

/**
 * A register field: its first bit (bit 0 the most significant, as the specifications number them) and width,
 * and an optional check of written values.
 */
export interface FieldSpec {
  readonly bit: number;
  readonly width: number;
  /** Refuses a value the register's rules do not allow (`FieldCheck`). */
  readonly check?: FieldCheck;
}

/**
 * Why the typed view refuses `value`, given the whole new `word` and the `previous` word;
 * undefined when the value is acceptable.
 */
export type FieldCheck = (value: number, word: number, previous: number) => string | undefined;

/** A field whose written values are checked, with its bit and width as literal types (`FieldValue` tells 1-bit fields by the width). */
export interface CheckedField<B extends number, W extends number> extends FieldSpec {
  readonly bit: B;
  readonly width: W;
  readonly check: FieldCheck;
}

/**
 * A `CheckedField`: one declaration of `check` for every field table.
 *
 * @example
 * ```ts
 * import { RegisterKind, RegisterSpace, RegisterView, attemptRegister, checkedField } from 'riodp/registers';
 *
 * // A vendor register in implementation-defined space, whose period must not be 0.
 * const timer = new RegisterView('Vendor Timer CSR', 'implementation-defined', {
 *   enable: { bit: 0, width: 1 },
 *   period: checkedField(16, 16, (v) => (v === 0 ? 'a period of 0 never fires' : undefined)),
 * } as const);
 * const space = new RegisterSpace([{ offset: 0x10000, name: timer.register, kind: RegisterKind.csr, clause: timer.clause, writable: timer.mask }]);
 * timer.update(space, 0x10000, { enable: true, period: 100 }); // the word is now 0x80000064
 * const r = attemptRegister(() => timer.set(space, 0x10000, 'period', 0));
 * if (!r.ok) console.log(r.error.detail); // a period of 0 never fires
 * ```
 */
export function checkedField<B extends number, W extends number>(bit: B, width: W, check: FieldCheck): CheckedField<B, W> {
  return { bit, width, check };
}
/** A register's fields by name. */
export type FieldTable = Readonly<Record<string, FieldSpec>>;
/** One-bit fields read as booleans, wider ones as numbers. */
export type FieldValue<S extends FieldSpec> = S['width'] extends 1 ? boolean : number;
/** A value for every field. */
export type FieldValues<T extends FieldTable> = { readonly [K in keyof T]: FieldValue<T[K]> };
/** New values for some fields. */
export type FieldChanges<T extends FieldTable> = { readonly [K in keyof T]?: FieldValue<T[K]> };

/** Decoded register: its fields plus `rsrv`, the bits no field covers, kept for round trips. */
export type Unpacked<T extends FieldTable> = FieldValues<T> & { readonly rsrv: number };

/**
 * A register layout by field name. `unpack`/`pack` convert words; `get`/`set`/`update` work on a
 * register space through the processing element's own (local) write path, so capability fields
 * that are read-only to maintenance writes can be configured; reserved bits stay 0.
 *
 * @example
 * ```ts
 * import { RegisterView } from 'riodp/registers';
 *
 * // A register riodp does not type: Port General Control CSR (Part 6 §7.6.4 Table 7-9).
 * const portGeneral = new RegisterView('Port General Control CSR', 'Part 6 §7.6.4 Table 7-9', {
 *   host: { bit: 0, width: 1 },
 *   masterEnable: { bit: 1, width: 1 },
 *   discovered: { bit: 2, width: 1 },
 * } as const);
 * portGeneral.unpack(0x60000000); // → { host: false, masterEnable: true, discovered: true, rsrv: 0 }
 * portGeneral.pack({ host: true, masterEnable: true, discovered: false }); // → 0xc0000000
 * ```
 */
export class RegisterView<T extends FieldTable> {
  readonly mask: number;
  /** The field table as entries, built once: every unpack and update walks it. */
  private readonly entries: readonly (readonly [string, FieldSpec])[];
  constructor(
    readonly register: string,
    readonly clause: string,
    readonly fields: T,
  ) {
    this.entries = Object.entries(fields);
    let mask = 0;
    for (const [, f] of this.entries) mask = (mask | fieldMask(f.bit, f.width)) >>> 0;
    this.mask = mask;
  }

  /** The fields of a word, and its other bits as `rsrv`. */
  unpack(word: number): Unpacked<T> {
    const out: Record<string, number | boolean> = {};
    for (const [name, f] of this.entries) {
      const v = getField(word, f.bit, f.width);
      out[name] = f.width === 1 ? v === 1 : v;
    }
    out['rsrv'] = ((word >>> 0) & ~this.mask) >>> 0;
    return out as Unpacked<T>;
  }

  /** Packs every field; `rsrv` bits are put back verbatim (they must lie outside all fields). */
  pack(values: FieldValues<T> & { readonly rsrv?: number }, offset = 0): number {
    const rsrv = values.rsrv ?? 0;
    if (!Number.isInteger(rsrv) || rsrv < 0 || rsrv > 0xffffffff || (rsrv & this.mask) !== 0) {
      throw new RegisterError(RegisterErrorCode.range, offset, `${this.register}.rsrv`, this.clause, `rsrv 0x${rsrv.toString(16)} overlaps defined fields or is not a 32-bit value`);
    }
    const changes: Record<string, number | boolean> = {};
    for (const name of Object.keys(this.fields)) {
      const v = (values as Readonly<Record<string, unknown>>)[name];
      if (typeof v !== 'number' && typeof v !== 'boolean') {
        throw new RegisterError(RegisterErrorCode.range, offset, `${this.register}.${name}`, this.clause, 'missing or not a number/boolean');
      }
      changes[name] = v;
    }
    return this.apply(rsrv, changes as FieldChanges<T>, offset, false);
  }

  /** A field of the register at `offset` of `space`. */
  get<K extends keyof T & string>(space: RegisterSpace, offset: number, field: K): FieldValue<T[K]> {
    const f = this.fields[field] as FieldSpec;
    const v = getField(space.readWord(offset), f.bit, f.width);
    return (f.width === 1 ? v === 1 : v) as FieldValue<T[K]>;
  }

  /** Sets a field of the register at `offset` (the element's own write path). */
  set<K extends keyof T & string>(space: RegisterSpace, offset: number, field: K, value: FieldValue<T[K]>): void {
    const changes: Record<string, number | boolean> = { [field]: value };
    this.update(space, offset, changes as FieldChanges<T>);
  }

  /** Changes the named fields, checking each against the spec before anything is written. */
  update(space: RegisterSpace, offset: number, changes: FieldChanges<T>): void {
    const word = this.apply(space.readWord(offset), changes, offset, true);
    // A field the element implements as reserved (Table 5-2: reads 0, writes ignored) cannot be set.
    const reserved = space.definition(offset)?.reserved ?? 0;
    for (const [name, f] of this.entries) {
      if (name in changes && (word & reserved & fieldMask(f.bit, f.width)) !== 0) {
        throw new RegisterError(RegisterErrorCode.unsupported, offset, `${this.register}.${name}`, this.clause, 'this element implements the field as reserved');
      }
    }
    space.writeLocal(offset, word);
  }

  /** The view bound to one register offset. */
  at(offset: number): BoundView<T> {
    return new BoundView(this, offset);
  }

  private apply(word: number, changes: FieldChanges<T>, offset: number, check: boolean): number {
    let next = word >>> 0;
    const names: string[] = [];
    for (const [name, raw] of Object.entries(changes) as [string, number | boolean | undefined][]) {
      if (raw === undefined) continue;
      const f = this.fields[name];
      if (f === undefined) {
        throw new RegisterError(RegisterErrorCode.invalid, offset, `${this.register}.${name}`, this.clause, 'no such field');
      }
      const v = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw;
      const max = 2 ** f.width - 1;
      if (!Number.isInteger(v) || v < 0 || v > max) {
        throw new RegisterError(RegisterErrorCode.range, offset, `${this.register}.${name}`, this.clause, `value ${String(v)} does not fit in ${f.width} bit${f.width === 1 ? '' : 's'}`);
      }
      next = setField(next, f.bit, f.width, v);
      names.push(name);
    }
    if (check) {
      for (const name of names) {
        const f = this.fields[name] as FieldSpec;
        const why = f.check?.(getField(next, f.bit, f.width), next, word >>> 0);
        if (why !== undefined) throw new RegisterError(RegisterErrorCode.invalid, offset, `${this.register}.${name}`, this.clause, why);
      }
    }
    return next;
  }
}

/**
 * A view bound to its register's offset: `dsControl.get(space, 'mtu')`.
 *
 * @example
 * ```ts
 * import { STANDARD_OFFSETS, baseDeviceIdView, buildEndpointRegisters } from 'riodp/registers';
 *
 * const baseId = baseDeviceIdView.at(STANDARD_OFFSETS.baseDeviceId);
 * const space = buildEndpointRegisters();
 * baseId.update(space, { dev8BaseDeviceId: 0x05, dev16BaseDeviceId: 0x0005 });
 * baseId.get(space, 'dev8BaseDeviceId'); // → 5
 * baseId.read(space);                    // → { dev8BaseDeviceId: 5, dev16BaseDeviceId: 5, rsrv: 0 }
 * ```
 */
export class BoundView<T extends FieldTable> {
  constructor(
    readonly view: RegisterView<T>,
    readonly offset: number,
  ) {}
  /** The register's fields. */
  read(space: RegisterSpace): Unpacked<T> {
    return this.view.unpack(space.readWord(this.offset));
  }
  /** A field of the register. */
  get<K extends keyof T & string>(space: RegisterSpace, field: K): FieldValue<T[K]> {
    return this.view.get(space, this.offset, field);
  }
  /** Sets a field of the register (the element's own write path). */
  set<K extends keyof T & string>(space: RegisterSpace, field: K, value: FieldValue<T[K]>): void {
    this.view.set(space, this.offset, field, value);
  }
  /** Changes the named fields, checking each first. */
  update(space: RegisterSpace, changes: FieldChanges<T>): void {
    this.view.update(space, this.offset, changes);
  }
}

/** Strict-mode check shared by the typed decoders: non-zero bits outside every field. */
export function checkRsrv(rsrv: number, offset: number, register: string, clause: string): void {
  if (rsrv !== 0) {
    throw new RegisterError(RegisterErrorCode.reserved, offset, register, clause, `reserved bits 0x${rsrv.toString(16).padStart(8, '0')} are not 0`);
  }
}

/** Options of the typed decoders. */
export interface ViewDecodeOptions {
  /** Throw RegisterError on non-zero reserved bits and on reserved or invalid values. */
  readonly strict?: boolean;
}
