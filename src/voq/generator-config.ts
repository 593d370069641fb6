import { booleanFlag, integerInRange, oneOf, orDefault, positiveIntegerOrNull } from '../engine/config-checks.ts';
import { findEfBlocks, EF_ID } from '../registers/ef-chain.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { VOQ_LAYOUT, readVoqPortControl, voqPortOffset } from '../registers/voq-block.ts';
import type { VoqPortControl } from '../registers/voq-block.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../wire/voq-stype2.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';
import { makeDetector } from './detectors.ts';
import type { CongestionDetector } from './detectors.ts';
import type { VoqGeneratorConfig, VoqGeneratorInput, VoqPortSettings } from './generator-types.ts';
import { symbolForm } from './symbol-form.ts';

/** A port's settings with every field present. */
export interface PortSettings {
  readonly generation: boolean;
  readonly participation: boolean;
  readonly portXoff: boolean;
  readonly vcLinking: boolean;
  readonly txPortGroupSize: number;
}

export interface ResolvedGeneratorConfig {
  readonly format: VoqFormat;
  readonly ports: number;
  readonly portSettings: readonly PortSettings[];
  readonly detector: CongestionDetector;
  readonly refreshPeriod: number | null;
  readonly resendOnLinkRecovery: boolean;
  readonly activeVcs: 0 | 1 | 2 | 4 | 8;
  readonly symbol: VoqSymbolForm;
}

/** Table 5-3 reset values: every control bit 0b0, TX Port Group Size 0x0. */
export const RESET_PORT_SETTINGS: PortSettings = { generation: false, participation: false, portXoff: false, vcLinking: false, txPortGroupSize: 0 };

/**
 * Applies the fields `s` gives on top of `base`, checking each. Part 12 bits 26–28: "0x7 =
 * Reserved", so a group size is 0–6.
 */
export function mergePortSettings(base: PortSettings, s: VoqPortSettings, field: string): PortSettings {
  if (typeof s !== 'object') throw new RangeError(`${field} must be an object`);
  return {
    generation: booleanFlag(orDefault(s.generation, base.generation), `${field}.generation`),
    participation: booleanFlag(orDefault(s.participation, base.participation), `${field}.participation`),
    portXoff: booleanFlag(orDefault(s.portXoff, base.portXoff), `${field}.portXoff`),
    vcLinking: booleanFlag(orDefault(s.vcLinking, base.vcLinking), `${field}.vcLinking`),
    txPortGroupSize: integerInRange(orDefault(s.txPortGroupSize, base.txPortGroupSize), 0, 6, `${field}.txPortGroupSize`),
  };
}

export function resolveGeneratorConfig(config: VoqGeneratorConfig): ResolvedGeneratorConfig {
  const format = oneOf(orDefault(config.format, 'seed'), VOQ_FORMATS, 'format', 'or');
  const ports = integerInRange(config.ports, 1, VOQ_LAYOUT[format].maxPorts, 'ports');
  const given = config.portSettings;
  const list: PortSettings[] = [];
  for (let p = 0; p < ports; p++) {
    const s = Array.isArray(given) ? (given as readonly VoqPortSettings[])[p] : (given as VoqPortSettings | undefined);
    list.push(s === undefined ? RESET_PORT_SETTINGS : mergePortSettings(RESET_PORT_SETTINGS, s, Array.isArray(given) ? `portSettings[${p}]` : 'portSettings'));
  }
  if (Array.isArray(given) && given.length > ports) throw new RangeError(`portSettings must have at most ${ports} entries`);
  if (typeof config.detector !== 'object') throw new RangeError('detector must be a detector configuration');
  return {
    format,
    ports,
    portSettings: list,
    detector: makeDetector(config.detector),
    refreshPeriod: positiveIntegerOrNull(orDefault(config.refreshPeriod, null), 'refreshPeriod'),
    resendOnLinkRecovery: booleanFlag(orDefault(config.resendOnLinkRecovery, true), 'resendOnLinkRecovery'),
    activeVcs: oneOf(orDefault(config.activeVcs, 0), [0, 1, 2, 4, 8], 'activeVcs', 'or'),
    symbol: symbolForm(config.symbol, format),
  };
}

/** The generator's view of a decoded Port n VoQ Control CSR. */
export function settingsOfControl(c: VoqPortControl): PortSettings {
  return {
    generation: c.enableVoqSymbolGeneration,
    participation: c.enableVoqParticipation,
    portXoff: c.portXoff,
    vcLinking: c.format === 'seed' ? c.enableVcLinking : c.enableVoqBackpressurePerVcTransmission,
    txPortGroupSize: c.format === 'seed' ? 0 : c.txPortGroupSize,
  };
}

export interface RegisterSource {
  readonly format?: VoqFormat;
  /** The VoQ block's base; default: the first EF_ID 0x000B block in the extended features list. */
  readonly blockBase?: number;
}

function blockOf(space: RegisterSpace, src: RegisterSource): number {
  if (src.blockBase !== undefined) return src.blockBase;
  const [base] = findEfBlocks(space, EF_ID.voqBackpressure);
  if (base === undefined) throw new RangeError('blockBase must be given: the space lists no VoQ block (EF_ID 0x000B)');
  return base;
}

/**
 * Ports and their settings read from a VoQ block (both layouts). "Multiport devices implementing
 * VoQ backpressure shall implement one register per port ... Single port end points implement the
 * port 0 register only" (§5.1.2): the first port with no register ends the list.
 */
export function generatorConfigFromRegisters(
  space: RegisterSpace,
  rest: Omit<VoqGeneratorConfig, 'ports' | 'portSettings' | 'format'>,
  src: RegisterSource = {},
): VoqGeneratorConfig {
  const format = src.format ?? 'seed';
  const base = blockOf(space, src);
  const portSettings: PortSettings[] = [];
  for (let p = 0; p < VOQ_LAYOUT[format].maxPorts; p++) {
    if (space.definition(voqPortOffset(base, p, format)) === undefined) break;
    portSettings.push(settingsOfControl(readVoqPortControl(space, base, p, format)));
  }
  return { ...rest, format, ports: Math.max(1, portSettings.length), portSettings };
}

/** The 'port-control' input that tells the engine about the current value of one port's register. */
export function portControlInput(space: RegisterSpace, port: number, src: RegisterSource = {}): VoqGeneratorInput {
  const format = src.format ?? 'seed';
  return { kind: 'port-control', port, settings: settingsOfControl(readVoqPortControl(space, blockOf(space, src), port, format)) };
}
