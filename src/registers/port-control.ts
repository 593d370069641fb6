import { RegisterError, RegisterErrorCode } from './errors.ts';
import { EF_ID } from './ef-chain.ts';
import type { EfBlockSpec } from './ef-chain.ts';
import { RegisterView, bitMask, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpec } from './space.ts';

/**
 * Port n Control CSR in the LP-Serial extended features block (Part 6 §7.6.11 Table 7-17) with
 * Part 9 §4.3 Table 4-2's serial bits 13 Flow Control Participant (0x00040000) and 15 Flow
 * Arbitration Participant (0x00010000), both reset 0b0. Register Map I (EF_ID 0x0001, DECISIONS
 * §6): block + 0x5C + 0x20·n; Register Map II (EF_ID 0x0011): block + 0x5C + 0x40·n
 * (Part 6 §7.5.5–7.5.6 Tables 7-4/7-5).
 */
export const CLAUSE_PORT_CONTROL = 'Part 9 §4.3 Table 4-2';
const CLAUSE_TABLE_7_17 = 'Part 6 §7.6.11 Table 7-17';
const CLAUSE_BLOCK = 'Part 6 §7.6.1 Table 7-6';
const CLAUSE_MAP = 'Part 6 §7.5.5 Table 7-4';

/**
 * The LP-Serial register maps (Part 6 §7.5.5–§7.5.6): I and II.
 *
 * @example
 * ```ts
 * import { LpSerialMap, buildEndpointRegisters, portControlOffset } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ ports: 2, lpSerialMap: LpSerialMap.II });
 * const port1 = portControlOffset(0x100, 1, LpSerialMap.II); // → 0x19c (Map I would put it at 0x17c)
 * space.readWord(port1); // → 0x00600001: output and input enabled, a serial port
 * ```
 */
export const LpSerialMap = { I: 'I', II: 'II' } as const;
export type LpSerialMap = (typeof LpSerialMap)[keyof typeof LpSerialMap];

/**
 * Each map's EF_ID and the stride of its per-port registers.
 *
 * @example
 * ```ts
 * import { LP_SERIAL_LAYOUT, LpSerialMap, buildEndpointRegisters, walkExtendedFeatures } from 'riodp/registers';
 *
 * // Tell the register map from the LP-Serial block's EF_ID.
 * const space = buildEndpointRegisters({ ports: 2, lpSerialMap: LpSerialMap.II });
 * const block = walkExtendedFeatures(space).blocks[0];
 * const map = block?.efId === LP_SERIAL_LAYOUT.II.efId ? LpSerialMap.II : LpSerialMap.I;
 * console.log(map, LP_SERIAL_LAYOUT[map].stride); // II 64
 * ```
 */
export const LP_SERIAL_LAYOUT = {
  I: { efId: EF_ID.lpSerialEndpoint, stride: 0x20 },
  II: { efId: EF_ID.lpSerialEndpointII, stride: 0x40 },
} as const;
/**
 * Offset of Port 0's Control CSR in an LP-Serial block.
 *
 * @example
 * ```ts
 * import { PORT_CONTROL_BLOCK_OFFSET, buildEndpointRegisters, decodePortControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters(); // its LP-Serial block sits at 0x100
 * decodePortControl(space.readWord(0x100 + PORT_CONTROL_BLOCK_OFFSET)).outputPortEnable; // → true
 * ```
 */
export const PORT_CONTROL_BLOCK_OFFSET = 0x5c;
/**
 * The block is "only defined for devices with up to 16 ports, but can be extended"; riodp stops at 256.
 *
 * @example
 * ```ts
 * import { LP_SERIAL_MAX_PORTS, attemptRegister, portControlOffset } from 'riodp/registers';
 *
 * const r = attemptRegister(() => portControlOffset(0x100, LP_SERIAL_MAX_PORTS));
 * if (!r.ok) console.log(r.error.code, r.error.detail); // out-of-range port 256 is outside 0..255
 * ```
 */
export const LP_SERIAL_MAX_PORTS = 256;

/**
 * Offset of Port n Control CSR in the LP-Serial block at `blockBase`.
 *
 * @example
 * ```ts
 * import { LpSerialMap, portControlOffset } from 'riodp/registers';
 *
 * portControlOffset(0x100, 0);                 // → 0x15c
 * portControlOffset(0x100, 1);                 // → 0x17c (Map I: 0x20 per port)
 * portControlOffset(0x100, 1, LpSerialMap.II); // → 0x19c (Map II: 0x40 per port)
 * ```
 */
export function portControlOffset(blockBase: number, port: number, map: LpSerialMap = LpSerialMap.I): number {
  if (!Number.isInteger(port) || port < 0 || port >= LP_SERIAL_MAX_PORTS) {
    throw new RegisterError(RegisterErrorCode.outOfRange, blockBase, 'Port n Control CSR', CLAUSE_MAP, `port ${String(port)} is outside 0..${LP_SERIAL_MAX_PORTS - 1}`);
  }
  return blockBase + PORT_CONTROL_BLOCK_OFFSET + LP_SERIAL_LAYOUT[map].stride * port;
}

/** Bits 5–7 with 16–17: "0b001xx - Reserved". Bits 5–7 alone: 0b001 is the reserved prefix. */
function portWidthOverrideProblem(v: number): string | undefined {
  return v === 0b001 ? 'port width override 0b001xx is reserved' : undefined;
}

/**
 * The Port n Control CSR's fields (Part 6 Table 7-17, Part 9 Table 4-2).
 *
 * @example
 * ```ts
 * import { PORT_CONTROL_FIELDS } from 'riodp/registers';
 *
 * // The one-bit fields set in a word a MAINTENANCE read returned (bit 0 is the most significant).
 * const word = 0x00640001;
 * Object.entries(PORT_CONTROL_FIELDS).filter(([, f]) => f.width === 1 && ((word >>> (31 - f.bit)) & 1) === 1).map(([name]) => name);
 * // → [ 'outputPortEnable', 'inputPortEnable', 'flowControlParticipant', 'portType' ]
 * ```
 */
export const PORT_CONTROL_FIELDS = {
  portWidthSupport: { bit: 0, width: 2 },
  initializedPortWidth: checkedField(2, 3, (v: number) => (v >= 0b110 ? `initialized port width 0b${v.toString(2)} is reserved (0b110-0b111)` : undefined)),
  portWidthOverride: checkedField(5, 3, portWidthOverrideProblem),
  portDisable: { bit: 8, width: 1 },
  outputPortEnable: { bit: 9, width: 1 },
  inputPortEnable: { bit: 10, width: 1 },
  errorCheckingDisable: { bit: 11, width: 1 },
  multicastEventParticipant: { bit: 12, width: 1 },
  flowControlParticipant: { bit: 13, width: 1 },
  enumerationBoundary: { bit: 14, width: 1 },
  flowArbitrationParticipant: { bit: 15, width: 1 },
  // "When bit [5] = 0b0, bits 16-17 are Reserved": refused rather than silently dropped by the write hook.
  extendedPortWidthOverride: checkedField(16, 2, (v: number, w: number) => (v !== 0 && getField(w, 5, 1) === 0 ? 'bits 16-17 are reserved while Port Width Override bit 5 is 0' : undefined)),
  extendedPortWidthSupport: { bit: 18, width: 2 },
  implementationDefined: { bit: 20, width: 8 },
  portType: checkedField(31, 1, (v: number) => (v === 0 ? 'port type 0b0 is reserved' : undefined)),
} as const;

/**
 * The Port n Control CSR's view.
 *
 * @example
 * ```ts
 * import { attemptRegister, buildEndpointRegisters, portControlOffset, portControlView } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters(); // no flow control support: bit 13 is reserved
 * const port0 = portControlOffset(0x100, 0);
 * portControlView.set(space, port0, 'portDisable', true);
 * const r = attemptRegister(() => portControlView.set(space, port0, 'flowControlParticipant', true));
 * if (!r.ok) console.log(r.error.detail); // this element implements the field as reserved
 * ```
 */
export const portControlView = new RegisterView('Port n Control CSR', CLAUSE_PORT_CONTROL, PORT_CONTROL_FIELDS);

/**
 * The word masks of Part 9's participant bits.
 *
 * @example
 * ```ts
 * import { PORT_CONTROL_BITS, buildEndpointRegisters, portControlOffset } from 'riodp/registers';
 *
 * // A host takes port 0 out of flow control: MAINTENANCE read, clear bit 13, write.
 * const space = buildEndpointRegisters({ flowControl: true });
 * const port0 = portControlOffset(0x100, 0);
 * space.writeWord(port0, (space.readWord(port0) & ~PORT_CONTROL_BITS.flowControlParticipant) >>> 0);
 * space.readWord(port0); // → 0x00600001
 * ```
 */
export const PORT_CONTROL_BITS = {
  flowControlParticipant: bitMask(13),
  flowArbitrationParticipant: bitMask(15),
  portWidthOverrideEnable: bitMask(5),
  extendedPortWidthOverride: fieldMask(16, 2),
  portType: bitMask(31),
} as const;

/**
 * Table 7-17 Initialized Port Width: 0b110–0b111 reserved.
 *
 * @example
 * ```ts
 * import { INITIALIZED_PORT_WIDTH_NAMES, portControlView } from 'riodp/registers';
 *
 * const { initializedPortWidth } = portControlView.unpack(0x50640001);
 * console.log(INITIALIZED_PORT_WIDTH_NAMES[initializedPortWidth]); // 4X
 * ```
 */
export const INITIALIZED_PORT_WIDTH_NAMES = ['1X', '1X_LANE_R', '4X', '2X', '8X', '16X'] as const;
/** The name of an Initialized Port Width value. */
export type InitializedPortWidthName = (typeof INITIALIZED_PORT_WIDTH_NAMES)[number] | 'RESERVED';

/** A decoded Port n Control CSR. */
export type PortControl = Unpacked<typeof PORT_CONTROL_FIELDS> & {
  readonly initializedPortWidthName: InitializedPortWidthName;
  /** Bit 31: "0b0 - Reserved, 0b1 - Serial port". */
  readonly portTypeName: 'SERIAL' | 'RESERVED';
};

/**
 * Decodes a Port n Control CSR word; `opts.strict` refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodePortControl } from 'riodp/registers';
 *
 * // A 4x-capable serial port that trained at 4x, enabled, in flow control.
 * const pc = decodePortControl(0x50640001, { strict: true });
 * console.log(pc.initializedPortWidthName, pc.portTypeName, pc.flowControlParticipant); // 4X SERIAL true
 * ```
 */
export function decodePortControl(word: number, opts: ViewDecodeOptions = {}, offset = PORT_CONTROL_BLOCK_OFFSET): PortControl {
  const f = portControlView.unpack(word);
  const value: PortControl = {
    ...f,
    initializedPortWidthName: INITIALIZED_PORT_WIDTH_NAMES[f.initializedPortWidth] ?? 'RESERVED',
    portTypeName: f.portType ? 'SERIAL' : 'RESERVED',
  };
  if (opts.strict === true) {
    const reg = portControlView.register;
    checkRsrv(f.rsrv, offset, reg, CLAUSE_TABLE_7_17);
    if (value.initializedPortWidthName === 'RESERVED') throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.initializedPortWidth`, CLAUSE_TABLE_7_17, 'encoding 0b11x is reserved');
    if (value.portTypeName === 'RESERVED') throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.portType`, CLAUSE_TABLE_7_17, 'port type 0b0 is reserved');
    if (f.portWidthOverride === 0b001) throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.portWidthOverride`, CLAUSE_TABLE_7_17, '0b001xx is reserved');
    if (f.portWidthOverride < 0b100 && f.extendedPortWidthOverride !== 0) throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.extendedPortWidthOverride`, CLAUSE_TABLE_7_17, 'bits 16-17 are reserved when bit 5 is 0');
  }
  return value;
}

/**
 * The Port n Control CSR word of its fields.
 *
 * @example
 * ```ts
 * import { encodePortControl, portControlView } from 'riodp/registers';
 *
 * const word = encodePortControl({
 *   ...portControlView.unpack(0), portWidthSupport: 0b01, initializedPortWidth: 0b010,
 *   outputPortEnable: true, inputPortEnable: true, flowControlParticipant: true, portType: true,
 * }); // → 0x50640001
 * ```
 */
export function encodePortControl(value: Unpacked<typeof PORT_CONTROL_FIELDS>): number {
  return portControlView.pack(value);
}

export interface PortControlOptions {
  /** PE Features bit 24: without it bit 13 is reserved (reads 0, writes ignored). */
  readonly flowControl: boolean;
  /** PE Features bit 20: without it bit 15 is reserved. */
  readonly flowArb: boolean;
  readonly reset?: number;
}

/**
 * Writable: bits 5–17 (13 and 15 only when the PE supports flow control / flow arbitration).
 * Read-only: port width support, initialized width, extended width support, port type and the
 * implementation-defined bits 20–27. Reserved: 28–30. "When bit [5] = 0b0, bits 16-17 are
 * Reserved": a write leaving bit 5 clear clears them.
 */
export function portControlRegister(offset: number, port: number, opts: PortControlOptions): RegisterSpec {
  let writable = fieldMask(5, 13);
  let reserved = fieldMask(28, 3);
  if (!opts.flowControl) {
    writable &= ~PORT_CONTROL_BITS.flowControlParticipant;
    reserved |= PORT_CONTROL_BITS.flowControlParticipant;
  }
  if (!opts.flowArb) {
    writable &= ~PORT_CONTROL_BITS.flowArbitrationParticipant;
    reserved |= PORT_CONTROL_BITS.flowArbitrationParticipant;
  }
  return {
    offset,
    name: `Port ${port} Control CSR`,
    kind: RegisterKind.csr,
    clause: CLAUSE_PORT_CONTROL,
    reset: ((opts.reset ?? PORT_CONTROL_BITS.portType) & ~reserved) >>> 0,
    writable: writable >>> 0,
    reserved: reserved >>> 0,
    implDefined: fieldMask(20, 8),
    onWrite: ({ merged }) => supportedWidthsOnly(merged),
  };
}

/**
 * Part 6 Table 7-17 Port Width Override: "When bit [5] = 0b0, bits 16-17 are Reserved" (cleared);
 * with bit 5 set, bits 6, 7, 16 and 17 enable 4x, 2x, 8x and 16x, and "The port shall not allow
 * the enabling of a link width mode that is not supported by the port": an enable bit whose mode
 * the read-only Port Width Support (bits 0–1) and Extended Port Width Support (bits 18–19) fields
 * do not list is cleared, so the register reads back the modes that are enabled.
 */
function supportedWidthsOnly(merged: number): number {
  if ((merged & PORT_CONTROL_BITS.portWidthOverrideEnable) === 0) return (merged & ~PORT_CONTROL_BITS.extendedPortWidthOverride) >>> 0;
  const supported = (bit: number): boolean => getField(merged, bit, 1) === 1;
  let out = merged;
  // [enable bit, the support bit of its mode]: 4x ↔ bit 1, 2x ↔ bit 0, 8x ↔ bit 18, 16x ↔ bit 19.
  for (const [enable, support] of [[6, 1], [7, 0], [16, 18], [17, 19]] as const) if (!supported(support)) out &= ~bitMask(enable);
  return out >>> 0;
}

export interface LpSerialBlockOptions extends PortControlOptions {
  readonly ports: number;
  readonly map?: LpSerialMap;
}

/**
 * The LP-Serial block as riodp models it: the header and one Port n Control CSR per port. The
 * block's other physical-layer registers (timeouts, error and status, ackIDs) are not modelled
 * and read as reserved registers.
 */
export function lpSerialBlock(opts: LpSerialBlockOptions): EfBlockSpec {
  const map = opts.map ?? LpSerialMap.I;
  const layout = LP_SERIAL_LAYOUT[map];
  if (!Number.isInteger(opts.ports) || opts.ports < 1 || opts.ports > LP_SERIAL_MAX_PORTS) {
    throw new RegisterError(RegisterErrorCode.definition, 0, 'LP-Serial Register Block', CLAUSE_MAP, `${String(opts.ports)} ports is outside 1..${LP_SERIAL_MAX_PORTS}`);
  }
  return {
    id: layout.efId,
    name: 'LP-Serial Register Block Header',
    clause: CLAUSE_BLOCK,
    size: 0x40 + layout.stride * opts.ports,
    registers: (base) => Array.from({ length: opts.ports }, (_, n) => portControlRegister(portControlOffset(base, n, map), n, opts)),
  };
}

/**
 * Whether the port takes part in flow control / flow arbitration (reads the register).
 *
 * @example
 * ```ts
 * import { portParticipation } from 'riodp/registers';
 *
 * portParticipation(0x00640001); // → { flowControl: true, flowArbitration: false }
 * ```
 */
export function portParticipation(word: number): { readonly flowControl: boolean; readonly flowArbitration: boolean } {
  return { flowControl: getField(word, 13, 1) === 1, flowArbitration: getField(word, 15, 1) === 1 };
}
