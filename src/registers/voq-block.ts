import type { VoqFormat } from '../wire/voq-stype2.ts';
import { RegisterError, RegisterErrorCode } from './errors.ts';
import { EF_ID, expectEfBlock } from './ef-chain.ts';
import type { EfBlockSpec } from './ef-chain.ts';
import { RegisterView, bitMask, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

/**
 * The VoQ Backpressure extended features block, EF_ID 0x000B, in two formats (DECISIONS §5):
 * - 'seed' (voq-backpressure.txt §5.1, the default): Port n VoQ Control CSR at block + 0x0C + 4n,
 *   up to 192 ports (Table 5-1: port 191 at 0x308); Table 5-3 bits 0–2 read-only support,
 *   8 generation enable, 9 participation, 10 Port XOFF, 11 VC linking, the rest reserved.
 * - 'part12-rev4.1' (Part 12 §5.1): registers at block + 0x20 + 4n, up to 256 ports (port 255 at
 *   0x41C); adds per-VC support, port group size support bits 12–18 and TX/RX Port Group Size.
 * Both formats share the EF_ID, so the format is a system setting, not discoverable.
 * "Single port end points implement the port 0 register only" (§5.1.2).
 */
export type { VoqFormat };
export const CLAUSE_VOQ_SEED = 'VoQ Backpressure §5.1.2.2 Table 5-3';
export const CLAUSE_VOQ_PART12 = 'Part 12 §5.1.2.2 Table 5-3';
const CLAUSE_VOQ_MAP_SEED = 'VoQ Backpressure §5.1.1 Table 5-1';
const CLAUSE_VOQ_MAP_PART12 = 'Part 12 §5.1.1 Table 5-1';

/**
 * Each format's first port register, port count and clauses.
 *
 * @example
 * ```ts
 * import { VOQ_LAYOUT } from 'riodp/registers';
 *
 * // Which formats can describe a 200-port switch?
 * const formats = (Object.keys(VOQ_LAYOUT) as (keyof typeof VOQ_LAYOUT)[]).filter((f) => 200 <= VOQ_LAYOUT[f].maxPorts);
 * console.log(formats); // [ 'part12-rev4.1' ]: the seed format stops at 192 ports
 * ```
 */
export const VOQ_LAYOUT = {
  seed: { first: 0x0c, maxPorts: 192, clause: CLAUSE_VOQ_SEED, map: CLAUSE_VOQ_MAP_SEED },
  'part12-rev4.1': { first: 0x20, maxPorts: 256, clause: CLAUSE_VOQ_PART12, map: CLAUSE_VOQ_MAP_PART12 },
} as const;

/**
 * Offset of Port n VoQ Control CSR in the block at `blockBase`.
 *
 * @example
 * ```ts
 * import { voqPortOffset } from 'riodp/registers';
 *
 * voqPortOffset(0x180, 1);                  // → 0x190 (seed: block + 0x0C + 4n)
 * voqPortOffset(0x180, 1, 'part12-rev4.1'); // → 0x1a4 (Part 12: block + 0x20 + 4n)
 * ```
 */
export function voqPortOffset(blockBase: number, port: number, format: VoqFormat = 'seed'): number {
  const layout = VOQ_LAYOUT[format];
  if (!Number.isInteger(port) || port < 0 || port >= layout.maxPorts) {
    throw new RegisterError(RegisterErrorCode.outOfRange, blockBase, 'Port n VoQ Control CSR', layout.map, `port ${String(port)} is outside 0..${layout.maxPorts - 1}`);
  }
  return blockBase + layout.first + 4 * port;
}

const GEN_ENABLE = bitMask(8);

/**
 * The seed format's Port n VoQ Control CSR fields (VoQ Backpressure Table 5-3).
 *
 * @example
 * ```ts
 * import { VOQ_SEED_FIELDS } from 'riodp/registers';
 *
 * // Would this port (control word 0xC0000000) accept VC linking? Ask the field's check before writing.
 * const word = 0xc0000000;
 * VOQ_SEED_FIELDS.enableVcLinking.check(1, word, word); // → 'the port does not support VC linking (bit 2)'
 * ```
 */
export const VOQ_SEED_FIELDS = {
  voqBackpressureSymbolGenerationSupported: { bit: 0, width: 1 },
  voqBackpressureSymbolReceptionSupported: { bit: 1, width: 1 },
  linkingWithVcsSupported: { bit: 2, width: 1 },
  enableVoqSymbolGeneration: checkedField(8, 1, (v: number, w: number) => (v === 1 && getField(w, 0, 1) === 0 ? 'the port does not support generation (bit 0)' : undefined)),
  enableVoqParticipation: { bit: 9, width: 1 },
  portXoff: { bit: 10, width: 1 },
  enableVcLinking: checkedField(11, 1, (v: number, w: number) => (v === 1 && getField(w, 2, 1) === 0 ? 'the port does not support VC linking (bit 2)' : undefined)),
} as const;

/** TX/RX Port Group Size: 0–6 bits, "0x7 = Reserved"; riodp also refuses a size the port does not support. */
function groupSizeProblem(v: number, word: number): string | undefined {
  if (v === 7) return 'port group size 0x7 is reserved';
  return getField(word, 12 + v, 1) === 1 ? undefined : `port group size ${v} is not supported (bit ${12 + v})`;
}

/**
 * Part 12's Port n VoQ Control CSR fields (Table 5-3).
 *
 * @example
 * ```ts
 * import { VOQ_PART12_FIELDS } from 'riodp/registers';
 *
 * // The port group sizes a port supports: bits 12–18 of its control word.
 * const word = 0xe00e8000;
 * const first = VOQ_PART12_FIELDS.portGroupSize0Supported.bit;
 * [0, 1, 2, 3, 4, 5, 6].filter((n) => ((word >>> (31 - (first + n))) & 1) === 1); // → [ 0, 1, 2, 4 ]
 * ```
 */
export const VOQ_PART12_FIELDS = {
  voqBackpressureSymbolGenerationSupported: { bit: 0, width: 1 },
  voqBackpressureSymbolReceptionSupported: { bit: 1, width: 1 },
  voqBackpressurePerVcSupported: { bit: 2, width: 1 },
  enableVoqSymbolGeneration: checkedField(8, 1, VOQ_SEED_FIELDS.enableVoqSymbolGeneration.check),
  enableVoqParticipation: { bit: 9, width: 1 },
  portXoff: { bit: 10, width: 1 },
  enableVoqBackpressurePerVcTransmission: checkedField(11, 1, (v: number, w: number) => (v === 1 && getField(w, 2, 1) === 0 ? 'reserved when VoQ Backpressure Per VC Supported is 0' : undefined)),
  portGroupSize0Supported: { bit: 12, width: 1 },
  portGroupSize1Supported: { bit: 13, width: 1 },
  portGroupSize2Supported: { bit: 14, width: 1 },
  portGroupSize3Supported: { bit: 15, width: 1 },
  portGroupSize4Supported: { bit: 16, width: 1 },
  portGroupSize5Supported: { bit: 17, width: 1 },
  portGroupSize6Supported: { bit: 18, width: 1 },
  // "This field shall be changed only when Enable VoQ Symbol Generation is cleared."
  txPortGroupSize: checkedField(26, 3, (v: number, w: number, prev: number) => groupSizeProblem(v, w) ?? (v !== getField(prev, 26, 3) && (w & GEN_ENABLE) !== 0 ? 'TX Port Group Size may change only while Enable VoQ Symbol Generation is cleared' : undefined)),
  rxPortGroupSize: checkedField(29, 3, groupSizeProblem),
} as const;

/**
 * The seed format's Port n VoQ Control CSR view.
 *
 * @example
 * ```ts
 * import { voqSeedView } from 'riodp/registers';
 *
 * const port = voqSeedView.unpack(0xc0c00000);
 * console.log(port.voqBackpressureSymbolGenerationSupported, port.enableVoqSymbolGeneration, port.portXoff); // true true false
 * ```
 */
export const voqSeedView = new RegisterView('Port n VoQ Control CSR', CLAUSE_VOQ_SEED, VOQ_SEED_FIELDS);
/**
 * Part 12's Port n VoQ Control CSR view.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, voqPart12View, voqPortOffset } from 'riodp/registers';
 *
 * const caps = { generation: true, reception: true, vc: true, groupSizes: [1, 2] };
 * const space = buildEndpointRegisters({ voq: { format: 'part12-rev4.1', capabilities: caps } });
 * const port0 = voqPortOffset(0x160, 0, 'part12-rev4.1');
 * voqPart12View.update(space, port0, { txPortGroupSize: 2, rxPortGroupSize: 2 });
 * space.readWord(port0); // → 0xe00e8012
 * ```
 */
export const voqPart12View = new RegisterView('Port n VoQ Control CSR', CLAUSE_VOQ_PART12, VOQ_PART12_FIELDS);

/**
 * Table 5-4 (bits 9 and 10).
 *
 * @example
 * ```ts
 * import { PORT_STATUS_CONTROL } from 'riodp/registers';
 *
 * // Bits 9 and 10 for "Port Status is always 0b1 (will cause a symbol to be generated ...)".
 * const i = PORT_STATUS_CONTROL.indexOf('ALWAYS_1'); // 3
 * const bits = { enableVoqParticipation: (i & 2) !== 0, portXoff: (i & 1) !== 0 }; // → both true
 * ```
 */
export const PORT_STATUS_CONTROL = ['ALWAYS_0_NO_SYMBOLS', 'ALWAYS_1_NO_SYMBOLS', 'NORMAL', 'ALWAYS_1'] as const;
/** What bits 9 and 10 make a port report (Table 5-4). */
export type PortStatusControl = (typeof PORT_STATUS_CONTROL)[number];

/**
 * What a port reports for its participation and Port XOFF bits (Table 5-4).
 *
 * @example
 * ```ts
 * import { portStatusControl } from 'riodp/registers';
 *
 * portStatusControl(true, false);  // → 'NORMAL': congestion status, symbols on changes
 * portStatusControl(false, true);  // → 'ALWAYS_1_NO_SYMBOLS'
 * ```
 */
export function portStatusControl(enableVoqParticipation: boolean, portXoff: boolean): PortStatusControl {
  return PORT_STATUS_CONTROL[(enableVoqParticipation ? 2 : 0) + (portXoff ? 1 : 0)] as PortStatusControl;
}

/**
 * The status a port reports and whether its transitions trigger symbols (Table 5-4): bit 9 = 0
 * reports bit 10 and never triggers; bit 9 = 1 reports congestion (forced 1 by bit 10) and
 * triggers on a change of the reported state.
 *
 * @example
 * ```ts
 * import { reflectedPortStatus } from 'riodp/registers';
 *
 * reflectedPortStatus(true, false, true);  // → { status: 1, triggersSymbols: true }: a congested participating port
 * reflectedPortStatus(false, false, true); // → { status: 0, triggersSymbols: false }: not participating, reports bit 10
 * ```
 */
export function reflectedPortStatus(enableVoqParticipation: boolean, portXoff: boolean, congested: boolean): { readonly status: 0 | 1; readonly triggersSymbols: boolean } {
  const status = portXoff || (enableVoqParticipation && congested) ? 1 : 0;
  return { status, triggersSymbols: enableVoqParticipation };
}

/** A decoded seed Port n VoQ Control CSR. */
export type VoqSeedControl = Unpacked<typeof VOQ_SEED_FIELDS> & { readonly format: 'seed'; readonly portStatusControl: PortStatusControl };
/** A decoded Part 12 Port n VoQ Control CSR. */
export type VoqPart12Control = Unpacked<typeof VOQ_PART12_FIELDS> & { readonly format: 'part12-rev4.1'; readonly portStatusControl: PortStatusControl };
/** A decoded Port n VoQ Control CSR, in either format. */
export type VoqPortControl = VoqSeedControl | VoqPart12Control;

/**
 * Decodes a Port n VoQ Control CSR word of the given format; `opts.strict` refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodeVoqPortControl } from 'riodp/registers';
 *
 * const port = decodeVoqPortControl(0xc0c00000, 'seed', { strict: true });
 * console.log(port.enableVoqSymbolGeneration, port.portStatusControl); // true NORMAL
 * ```
 */
export function decodeVoqPortControl(word: number, format: VoqFormat = 'seed', opts: ViewDecodeOptions = {}, offset: number = VOQ_LAYOUT[format].first): VoqPortControl {
  if (format === 'seed') {
    const f = voqSeedView.unpack(word);
    if (opts.strict === true) checkRsrv(f.rsrv, offset, voqSeedView.register, CLAUSE_VOQ_SEED);
    return { ...f, format, portStatusControl: portStatusControl(f.enableVoqParticipation, f.portXoff) };
  }
  const f = voqPart12View.unpack(word);
  if (opts.strict === true) {
    const reg = voqPart12View.register;
    checkRsrv(f.rsrv, offset, reg, CLAUSE_VOQ_PART12);
    if (f.enableVoqBackpressurePerVcTransmission && !f.voqBackpressurePerVcSupported) throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.enableVoqBackpressurePerVcTransmission`, CLAUSE_VOQ_PART12, 'reserved when per-VC is not supported');
    if (f.txPortGroupSize === 7) throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.txPortGroupSize`, CLAUSE_VOQ_PART12, '0x7 is reserved');
    if (f.rxPortGroupSize === 7) throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.rxPortGroupSize`, CLAUSE_VOQ_PART12, '0x7 is reserved');
  }
  return { ...f, format, portStatusControl: portStatusControl(f.enableVoqParticipation, f.portXoff) };
}

/**
 * The Port n VoQ Control CSR word of its fields.
 *
 * @example
 * ```ts
 * import { decodeVoqPortControl, encodeVoqPortControl } from 'riodp/registers';
 *
 * const port = decodeVoqPortControl(0xc0000000);
 * encodeVoqPortControl({ ...port, enableVoqParticipation: true }); // → 0xc0400000
 * ```
 */
export function encodeVoqPortControl(value: VoqPortControl): number {
  return value.format === 'seed' ? voqSeedView.pack(value) : voqPart12View.pack(value);
}

/** Read-only capabilities of one port (Table 5-3 bits 0–2, and 12–18 in Part 12). */
export interface VoqPortCapabilities {
  readonly generation: boolean;
  readonly reception: boolean;
  /** Seed: "Linking with VCs supported"; Part 12: "VoQ Backpressure Per VC Supported". */
  readonly vc: boolean;
  /** Part 12 only: group sizes 0..6 supported; sizes 0 and 4 reset to 0b1 and are always on. */
  readonly groupSizes?: readonly number[];
}

export function voqPortRegister(blockBase: number, port: number, format: VoqFormat, caps: VoqPortCapabilities): RegisterSpec {
  const offset = voqPortOffset(blockBase, port, format);
  const ro = ((caps.generation ? bitMask(0) : 0) | (caps.reception ? bitMask(1) : 0) | (caps.vc ? bitMask(2) : 0)) >>> 0;
  if (format === 'seed') {
    return { offset, name: `Port ${port} VoQ Control CSR`, kind: RegisterKind.csr, clause: CLAUSE_VOQ_SEED, reset: ro, writable: fieldMask(8, 4), reserved: ~(fieldMask(0, 3) | fieldMask(8, 4)) >>> 0 };
  }
  let sizes = bitMask(12) | bitMask(16);
  for (const g of caps.groupSizes ?? []) {
    if (!Number.isInteger(g) || g < 0 || g > 6) throw new RegisterError(RegisterErrorCode.definition, offset, `Port ${port} VoQ Control CSR`, CLAUSE_VOQ_PART12, `group size ${String(g)} is outside 0..6`);
    sizes |= bitMask(12 + g);
  }
  // "This field shall be reserved when VoQ Backpressure per VC Supported is 0."
  const perVc = caps.vc ? bitMask(11) : 0;
  const writable = (fieldMask(8, 3) | perVc | fieldMask(26, 6)) >>> 0;
  const defined = (fieldMask(0, 3) | fieldMask(12, 7) | writable) >>> 0;
  return { offset, name: `Port ${port} VoQ Control CSR`, kind: RegisterKind.csr, clause: CLAUSE_VOQ_PART12, reset: (ro | sizes) >>> 0, writable, reserved: ~defined >>> 0 };
}

export interface VoqBlockOptions {
  readonly format?: VoqFormat;
  readonly ports: number;
  /** Capabilities per port (one entry for all ports, or a function of the port number). */
  readonly capabilities?: VoqPortCapabilities | ((port: number) => VoqPortCapabilities);
}

/**
 * A port's capabilities unless told otherwise: generation and reception, no per-VC operation.
 *
 * @example
 * ```ts
 * import { DEFAULT_VOQ_CAPABILITIES, buildEndpointRegisters, voqPortOffset } from 'riodp/registers';
 *
 * // Port 0 also links VoQ backpressure with VCs; port 1 keeps the defaults.
 * const capabilities = (port: number) => (port === 0 ? { ...DEFAULT_VOQ_CAPABILITIES, vc: true } : DEFAULT_VOQ_CAPABILITIES);
 * const space = buildEndpointRegisters({ ports: 2, voq: { capabilities } });
 * space.readWord(voqPortOffset(0x180, 0)); // → 0xe0000000: bit 2, VC linking supported
 * space.readWord(voqPortOffset(0x180, 1)); // → 0xc0000000
 * ```
 */
export const DEFAULT_VOQ_CAPABILITIES: VoqPortCapabilities = { generation: true, reception: true, vc: false };

export function voqBlock(opts: VoqBlockOptions): EfBlockSpec {
  const format = opts.format ?? 'seed';
  const layout = VOQ_LAYOUT[format];
  if (!Number.isInteger(opts.ports) || opts.ports < 1 || opts.ports > layout.maxPorts) {
    throw new RegisterError(RegisterErrorCode.definition, 0, 'VoQ Backpressure Register Block', layout.map, `${String(opts.ports)} ports is outside 1..${layout.maxPorts}`);
  }
  const caps = opts.capabilities ?? DEFAULT_VOQ_CAPABILITIES;
  return {
    id: EF_ID.voqBackpressure,
    name: 'LP-Serial Port - VoQ Backpressure Register Block Header',
    clause: format === 'seed' ? 'VoQ Backpressure §5.1.2.1 Table 5-2' : 'Part 12 §5.1.2.1 Table 5-2',
    size: layout.first + 4 * opts.ports,
    registers: (base) => Array.from({ length: opts.ports }, (_, n) => voqPortRegister(base, n, format, typeof caps === 'function' ? caps(n) : caps)),
  };
}

/**
 * Reads one port's control word through a checked block base (EF_ID 0x000B).
 *
 * @example
 * ```ts
 * import { EF_ID, buildEndpointRegisters, findEfBlocks, readVoqPortControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ ports: 2, voq: {} });
 * const [base] = findEfBlocks(space, EF_ID.voqBackpressure); // 0x180
 * if (base !== undefined) console.log(readVoqPortControl(space, base, 1).portStatusControl); // ALWAYS_0_NO_SYMBOLS: reset state
 * ```
 */
export function readVoqPortControl(space: RegisterSpace, blockBase: number, port: number, format: VoqFormat = 'seed', opts: ViewDecodeOptions = {}): VoqPortControl {
  expectEfBlock(space, blockBase, EF_ID.voqBackpressure, VOQ_LAYOUT[format].map);
  const offset = voqPortOffset(blockBase, port, format);
  requireImplemented(space, offset, port, format);
  return decodeVoqPortControl(space.readWord(offset), format, opts, offset);
}

/** Changes to a seed-format port's control bits (`updateVoqPortControl`). */
export type VoqSeedChanges = Partial<Record<keyof typeof VOQ_SEED_FIELDS, boolean>>;
/** Changes to a Part 12 port's control fields (`updateVoqPortControl`). */
export type VoqPart12Changes = { readonly [K in keyof typeof VOQ_PART12_FIELDS]?: (typeof VOQ_PART12_FIELDS)[K]['width'] extends 1 ? boolean : number };

/**
 * Changes fields of one port's control word by name (checked against Table 5-3).
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, readVoqPortControl, updateVoqPortControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ ports: 2, voq: {} }); // the VoQ block sits at 0x180
 * updateVoqPortControl(space, 0x180, 1, 'seed', { enableVoqSymbolGeneration: true, enableVoqParticipation: true });
 * readVoqPortControl(space, 0x180, 1).portStatusControl; // → 'NORMAL'
 * ```
 */
export function updateVoqPortControl(space: RegisterSpace, blockBase: number, port: number, format: VoqFormat, changes: VoqSeedChanges | VoqPart12Changes): void {
  expectEfBlock(space, blockBase, EF_ID.voqBackpressure, VOQ_LAYOUT[format].map);
  const offset = voqPortOffset(blockBase, port, format);
  requireImplemented(space, offset, port, format);
  if (format === 'seed') voqSeedView.update(space, offset, changes);
  else voqPart12View.update(space, offset, changes);
}

function requireImplemented(space: RegisterSpace, offset: number, port: number, format: VoqFormat): void {
  if (space.definition(offset) === undefined) {
    throw new RegisterError(RegisterErrorCode.outOfRange, offset, `Port ${port} VoQ Control CSR`, format === 'seed' ? 'VoQ Backpressure §5.1.2' : 'Part 12 §5.1.2', `port ${port} has no VoQ control register (single-port endpoints implement port 0 only, §5.1.2)`);
  }
}
