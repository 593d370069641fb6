import { z } from 'zod';
import type { Counters } from '../../engine/contract.ts';
import { VOQ_LAYOUT } from '../../registers/voq-block.ts';
import type { ControlSymbol } from '../../wire/symbol.ts';
import type { VoqSymbolForm } from '../../wire/voq-cs64.ts';
import { decodeStype2 } from '../../wire/voq-stype2.ts';
import type { VoqFormat, VoqStype2 } from '../../wire/voq-stype2.ts';
import type { DetectorConfig } from '../../voq/detectors.ts';
import { VoqGenerator } from '../../voq/generator.ts';
import { RESET_PORT_SETTINGS } from '../../voq/generator-config.ts';
import type { PortSettings } from '../../voq/generator-config.ts';
import type { VoqGeneratorCounterName, VoqGeneratorInput, VoqGeneratorOutput, VoqPortSettings } from '../../voq/generator-types.ts';
import { toJsonValue } from '../json/output.ts';
import { defineAdapter, renderOutput } from './adapter.ts';
import type { EngineAdapter, EngineOutput, InspectableEngine, ParseContext } from './adapter.ts';
import { InputError } from './input-error.ts';
import { bool, duration, expecting, int, oneOf, vcCount } from './schema.ts';
import {
  CS64_FORMAT_MESSAGE, checkStype1Cs64, groupSize, portNumber, readSymbol, registerValue, renderSymbol, renderSymbol64, settingsOfCsr, stype0, stype1Cs64,
  symbolForm, vcNumber, voqFormat,
} from './voq-schema.ts';

/**
 * `riodp model voq-gen`: the downstream device of VoQ backpressure, src/voq/generator-types.ts
 * (VoQ Backpressure §4.2, Table 5-3, Table 5-4; Part 12 §4.2 with format `part12-rev4.1`).
 * Every stype2 line also prints the stype2 read back in the link's format (`voq`), and a
 * filled symbol its `decode --layer symbol --json` object and hex; a cs64 line with a message
 * prints the Control Symbol 64 (Part 12 §3.2) the same way, `voq` its VoQ message.
 */

/** A port's Table 5-3 settings with every field present; txPortGroupSize only in the Part 12 format. */
type ModelPortSettings = Omit<PortSettings, 'txPortGroupSize'> & { readonly txPortGroupSize?: number };

export interface ModelVoqGenConfig {
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly ports: number;
  readonly portSettings: ModelPortSettings | readonly ModelPortSettings[];
  readonly detector: DetectorConfig;
  readonly refreshPeriod: number | null;
  readonly resendOnLinkRecovery: boolean;
  readonly activeVcs: 0 | 1 | 2 | 4 | 8;
}

/** The engine's stype2 output with the stype2 read back in the link's format. */
type GenLine = VoqGeneratorOutput | (Extract<VoqGeneratorOutput, { kind: 'stype2' }> & { readonly voq: VoqStype2 });

/** Table 5-3 fields of a port, or the whole register as read from the device (`csr`). */
const settings = z.strictObject({
  generation: bool.optional(),
  participation: bool.optional(),
  portXoff: bool.optional(),
  vcLinking: bool.optional(),
  txPortGroupSize: groupSize.optional(),
  csr: registerValue.optional(),
}, { error: expecting('a mapping {generation?, participation?, portXoff?, vcLinking?, txPortGroupSize?} or {csr}') });
type SettingsIn = z.infer<typeof settings>;

/** One mapping for every port, or a list (port 0 first): the engine's `portSettings`. */
const portSettings = z.unknown().transform((v, ctx): SettingsIn | SettingsIn[] => {
  const r = Array.isArray(v) ? z.array(settings).safeParse(v) : settings.safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue({ ...issue });
  return z.NEVER;
});

/** §2.5 designs; by default a depth is a congestion flag (1 congested, 0 clear), for a device whose own detector decides. */
const detector = z.strictObject({
  kind: oneOf(['output-queue', 'input-voq']).default('output-queue'),
  high: int(1).default(1),
  low: int(0).default(0),
}, { error: expecting('a mapping {kind?, high?, low?}') });

function given(s: Omit<SettingsIn, 'csr'>): VoqPortSettings {
  const out: { -readonly [K in keyof VoqPortSettings]: VoqPortSettings[K] } = {};
  if (s.generation !== undefined) out.generation = s.generation;
  if (s.participation !== undefined) out.participation = s.participation;
  if (s.portXoff !== undefined) out.portXoff = s.portXoff;
  if (s.vcLinking !== undefined) out.vcLinking = s.vcLinking;
  if (s.txPortGroupSize !== undefined) out.txPortGroupSize = s.txPortGroupSize;
  return out;
}

/** The seed format has no TX Port Group Size (its group is always 5 bits, §3.1 Table 3-3). */
function forFormat(s: PortSettings, format: VoqFormat): ModelPortSettings {
  const { txPortGroupSize, ...rest } = s;
  return format === 'seed' ? rest : { ...rest, txPortGroupSize };
}

/** The fields a `settings` mapping gives; `csr` stands alone. Throws InputError. */
function settingsGiven(s: SettingsIn, format: VoqFormat, strict: boolean, base: string): VoqPortSettings {
  const { csr, ...fields } = s;
  if (csr === undefined) return given(fields);
  const extra = Object.keys(given(fields))[0];
  if (extra !== undefined) throw new InputError('expected csr alone: the register value holds every field', `${base}.${extra}`);
  return forFormat(settingsOfCsr(csr, format, strict, `${base}.csr`), format);
}

type Ctx = z.core.$RefinementCtx;

/** A port's effective settings: Table 5-3 reset values for the fields not given. */
function effectiveSettings(s: SettingsIn, format: VoqFormat, path: readonly (string | number)[], ctx: Ctx): ModelPortSettings {
  try {
    if (format === 'seed' && s.txPortGroupSize !== undefined) {
      throw new InputError('expected no txPortGroupSize in the seed format (Part 12 only; the seed port group is 5 bits)', 'txPortGroupSize');
    }
    return forFormat({ ...RESET_PORT_SETTINGS, ...settingsGiven(s, format, true, '') }, format);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    ctx.addIssue({ code: 'custom', path: [...path, ...e.path.split('.').filter((p) => p !== '')], message: e.message });
    return forFormat(RESET_PORT_SETTINGS, format);
  }
}

const config = z.strictObject({
  format: voqFormat.default('seed'),
  symbol: symbolForm.default('cs48'),
  ports: int(1, VOQ_LAYOUT['part12-rev4.1'].maxPorts),
  portSettings: portSettings.optional(),
  detector: detector.prefault({}),
  refreshPeriod: duration.nullable().default(null),
  resendOnLinkRecovery: bool.default(true),
  activeVcs: vcCount.default(0),
}).transform((c, ctx): ModelVoqGenConfig => {
  const max = VOQ_LAYOUT[c.format].maxPorts;
  if (c.symbol === 'cs64' && c.format !== 'part12-rev4.1') ctx.addIssue({ code: 'custom', path: ['symbol'], message: CS64_FORMAT_MESSAGE });
  if (c.ports > max) ctx.addIssue({ code: 'custom', path: ['ports'], message: `expected an integer 1..${max} (format ${c.format})` });
  const d = c.detector;
  if (d.low >= d.high) ctx.addIssue({ code: 'custom', path: ['detector', 'low'], message: `expected an integer below high (${d.high})` });
  const s = c.portSettings ?? {};
  if (Array.isArray(s) && s.length > c.ports) ctx.addIssue({ code: 'custom', path: ['portSettings'], message: `expected at most ${c.ports} entries, one per port` });
  return {
    format: c.format,
    symbol: c.symbol,
    ports: c.ports,
    portSettings: Array.isArray(s) ? s.map((p, i) => effectiveSettings(p, c.format, ['portSettings', i], ctx)) : effectiveSettings(s, c.format, ['portSettings'], ctx),
    detector: d,
    refreshPeriod: c.refreshPeriod,
    resendOnLinkRecovery: c.resendOnLinkRecovery,
    activeVcs: c.activeVcs,
  };
});

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('queue-depth'), port: portNumber, depth: int(0), vc: vcNumber.optional() }),
  z.strictObject({ kind: z.literal('voq-depth'), input: portNumber, output: portNumber, depth: int(0), vc: vcNumber.optional() }),
  z.strictObject({ kind: z.literal('port-control'), port: portNumber, settings }),
  z.strictObject({ kind: z.literal('link-recovered'), port: portNumber }),
  z.strictObject({ kind: z.literal('next-stype2'), port: portNumber, stype0, vcid: int(0, 7).optional() }),
  z.strictObject({ kind: z.literal('fill'), port: portNumber, symbol: z.unknown() }),
  z.strictObject({ kind: z.literal('next-cs64'), port: portNumber, stype1: stype1Cs64.optional() }),
]);
type Line = z.infer<typeof input>;

/** The carrier of a `fill`: a CS48 whose stype2 is still 0 (Part 6 "Set to logic 0s on transmission"). */
function carrier(s: ControlSymbol): Extract<VoqGeneratorInput, { kind: 'fill' }>['symbol'] {
  if (s.link !== 'cs48') throw new InputError('expected a Control Symbol 48 (6 bytes, Part 6 Figure 3-2): only it has the stype2 field the generator fills', 'symbol.link');
  if (s.stype2 !== 0) throw new InputError(`expected stype2 0: the generator fills it, got ${String(s.stype2)}`, 'symbol.stype2');
  return { stype0: s.stype0, parameter0: s.parameter0, parameter1: s.parameter1, stype1: s.stype1, cmd: s.cmd };
}

function toInput(d: Line, ctx: ParseContext<ModelVoqGenConfig>): VoqGeneratorInput {
  const { format } = ctx.config;
  switch (d.kind) {
    case 'queue-depth':
      return { kind: d.kind, port: d.port, depth: d.depth, ...(d.vc === undefined ? {} : { vc: d.vc }) };
    case 'voq-depth':
      return { kind: d.kind, input: d.input, output: d.output, depth: d.depth, ...(d.vc === undefined ? {} : { vc: d.vc }) };
    case 'port-control':
      return { kind: d.kind, port: d.port, settings: settingsGiven(d.settings, format, !ctx.lenient, 'settings') };
    case 'link-recovered':
      return d;
    case 'next-stype2':
      return { kind: d.kind, port: d.port, stype0: d.stype0, ...(d.vcid === undefined ? {} : { vcid: d.vcid }) };
    case 'fill':
      return { kind: d.kind, port: d.port, symbol: carrier(readSymbol(d.symbol, 'symbol', { format, groupSize: 0, lenient: ctx.lenient })) };
    case 'next-cs64':
      return { kind: d.kind, port: d.port, ...(d.stype1 === undefined ? {} : { stype1: checkStype1Cs64(d.stype1, ctx.lenient) }) };
  }
}

/** The generator with each stype2 read back as the upstream device reads it (the link's format and TX Port Group Size). */
class VoqGenModel implements InspectableEngine<VoqGeneratorInput, GenLine> {
  readonly #gen: VoqGenerator;
  readonly #format: VoqFormat;

  constructor(c: ModelVoqGenConfig) {
    this.#gen = new VoqGenerator(c);
    this.#format = c.format;
  }

  handle(i: VoqGeneratorInput, now: number): GenLine[] {
    return this.#gen.handle(i, now).map((o) => {
      if (o.kind !== 'stype2') return o;
      const size = this.#gen.settings(o.port)?.txPortGroupSize ?? 0;
      return { ...o, voq: o.symbol?.voq ?? decodeStype2(o.stype2, { voqFormat: this.#format, part12GroupSize: size }) };
    });
  }

  counters(): Counters<VoqGeneratorCounterName> {
    return this.#gen.counters();
  }

  snapshot(): unknown {
    return this.#gen.snapshot();
  }
}

/**
 * A stype2 line: the engine's message, the stype2 read back, and a filled symbol as decode --json
 * and hex. A cs64 line with a message: the message, the symbol's VoQ message (`voq`), the symbol
 * as decode --link cs64 --json prints it, and hex.
 */
function renderGen(o: EngineOutput): Record<string, unknown> {
  const line = o as GenLine;
  if (line.kind === 'cs64' && line.symbol !== null) {
    const { kind, port, message, symbol } = line;
    return { kind, port, message: toJsonValue(message), voq: toJsonValue(symbol.voq), ...renderSymbol64(symbol) };
  }
  if (line.kind !== 'stype2' || !('voq' in line)) return renderOutput(o);
  const { kind, port, stype2, message, voq, symbol } = line;
  const base = { kind, port, stype2, message: toJsonValue(message), voq: toJsonValue(voq) };
  return symbol === undefined ? base : { ...base, ...renderSymbol(symbol) };
}

const base = defineAdapter({
  name: 'voq-gen',
  fields: [
    { name: 'format', type: "'seed' | 'part12-rev4.1'", default: 'seed', meaning: 'stype2 format (DECISIONS §5): seed CMD(3)|status(6)|group(5), or Part 12 CMD(1)|status(13-G)|group(G)' },
    { name: 'symbol', type: "'cs48' | 'cs64'", default: 'cs48', meaning: 'the control symbol the links send (Part 12 Chapter 3, §4.1 d): cs48, the message in the stype2 field (next-stype2, fill); cs64 (part12-rev4.1 only), the message as its own stype0 0b1101 symbol, VC_IND(4)|status(20-G)|group(G) (§3.2, next-cs64)' },
    { name: 'ports', type: 'integer 1..192 (seed), 1..256 (part12-rev4.1)', default: 'required', meaning: 'ports of the device; each is an egress port reported on and a link to an upstream device ("Single port end points implement the port 0 register only", §5.1.2)' },
    { name: 'portSettings', type: '{generation?, participation?, portXoff?, vcLinking?, txPortGroupSize?} or {csr}, or a list of them (port 0 first)', default: 'every field its Table 5-3 reset value (0b0, group size 0)', meaning: 'Port n VoQ Control CSR bits 8 (generation), 9 (participation), 10 (Port XOFF), 11 (VC linking), Part 12 bits 26-28 (TX Port Group Size); csr: the register value' },
    { name: 'detector', type: "{kind?: 'output-queue' | 'input-voq', high?, low?}", default: '{"kind":"output-queue","high":1,"low":0}', meaning: '§2.5: congested when a depth reaches high, clear when it falls to low; the defaults make a depth a congestion flag (1 congested, 0 clear)' },
    { name: 'refreshPeriod', type: 'integer ns > 0 | null', default: 'null', meaning: '§4.2 f "may be generated at arbitrary intervals, based on a timer": every group of every generating link is resent each period; null: no timer' },
    { name: 'resendOnLinkRecovery', type: 'boolean', default: 'true', meaning: '§4.2 g "may be generated after link recovery to avoid orphaned congestion states": every group of the link is resent' },
    { name: 'activeVcs', type: '0 | 1 | 2 | 4 | 8', default: '0', meaning: 'VCs besides VC0 (Part 6); a linked link reports per VC: VC0 and the VCs the VCIDs name by Part 6 Table 3-12 (2: VC1, VC5; 4: VC1, VC3, VC5, VC7)' },
  ],
  kinds: [
    { kind: 'queue-depth', fields: 'port, depth, vc? (0..8)', meaning: 'output-queue detector: the depth of egress port port\'s queue' },
    { kind: 'voq-depth', fields: 'input, output, depth, vc? (0..8)', meaning: 'input-voq detector: the depth of the VoQ at ingress input holding traffic for egress output' },
    { kind: 'port-control', fields: 'port, settings ({generation?, participation?, portXoff?, vcLinking?, txPortGroupSize?} or {csr})', meaning: 'a write of the port\'s VoQ Control CSR (Table 5-3); fields not given keep their value' },
    { kind: 'link-recovered', fields: 'port', meaning: 'the link recovered or came up (§4.2 g)' },
    { kind: 'next-stype2', fields: 'port, stype0 (0..7 or its name), vcid? (0..7, VC_status)', meaning: 'the link layer is about to send a CS48 with this stype0: which stype2 goes with it' },
    { kind: 'fill', fields: 'port, symbol (CS48 hex or decode --layer symbol --json object, stype2 0)', meaning: 'the link layer is about to send this symbol: the engine fills its stype2' },
    { kind: 'next-cs64', fields: 'port, stype1? (0..255 or its Table 3-18 name, default NOP 0x38)', meaning: 'symbol cs64: the link layer has an stype0 slot; the engine answers with a CS64 VoQ-backpressure symbol (Part 12 §3.2) carrying this stype1, or none' },
  ],
  config,
  input,
  engine: VoqGenModel,
  toInput,
  timer: (name): VoqGeneratorInput | undefined => (name === 'refresh' ? { kind: 'timer', name } : undefined),
});

export const voqGenAdapter: EngineAdapter<ModelVoqGenConfig, VoqGeneratorInput, GenLine> = { ...base, render: renderGen };
