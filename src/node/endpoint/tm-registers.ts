/**
 * What an end point's registers say of its Part 10 traffic management, for every host (the
 * software fabric's `FabricEndpoint`, the simulator's end points): TM Types Supported and TM Mode of
 * the Data Streaming Logical Layer Control CSR (0x48, §5.5.1 Table 5-6) and bit 12 "PE can support
 * data streaming traffic management" of both Operations CARs (§5.4.1–§5.4.2), from the `tm`
 * settings the engines are built from (tm-config.ts): mode BASIC and the fewest types that support
 * it unless given (tm-mode.ts resolveTmMode). Without `tm`, or with types NONE, nothing is added:
 * the builder leaves TM Types 0b0000 and bit 12 clear (data-streaming.ts TM_TYPES: TM support "is
 * entirely optional", §3.4.5 rule 1).
 */
import { buildEndpointRegisters } from '../../registers/builder.ts';
import type { DataStreamingConfig } from '../../registers/builder.ts';
import { countFromField, TM_MODE_NAMES } from '../../registers/data-streaming.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { resolveTmMode } from '../../streaming/tm-mode.ts';
import type { TmModeSetting, TmTypesSetting } from '../../streaming/tm-mode.ts';
import { within } from '../session-endpoint-config.ts';
import type { EndpointTmConfig } from './tm-config.ts';

/** The TM part of the Data Streaming registers: supported types and the mode, as the builder takes them. */
export type TmRegisterSettings = NonNullable<DataStreamingConfig['tm']>;

/** Part 10 §5.4.3 and §5.5.1 defaults of an end point's Data Streaming registers: MaxPDU and SegSupport 64K, MTU 256. */
const DEFAULT_MAX_PDU = 0x10000;
const DEFAULT_MTU = 256;

/**
 * The TM Types Supported and TM Mode `tm` configures (a RangeError names a bad field, `tm.<field>`);
 * undefined without traffic management or with types NONE.
 */
export function tmRegisterSettings(tm: EndpointTmConfig | null | undefined): TmRegisterSettings | undefined {
  if (tm === undefined || tm === null) return undefined;
  const t = tm as { readonly mode?: unknown; readonly types?: unknown };
  const src = within('tm', () => resolveTmMode({ ...(t.mode === undefined ? {} : { mode: t.mode as TmModeSetting }), ...(t.types === undefined ? {} : { types: t.types as TmTypesSetting }) }, 'ingress'));
  if (src.from !== 'config' || src.types === 'NONE') return undefined;
  return { types: src.types, mode: src.mode };
}

function modeName(mode: TmRegisterSettings['mode']): string | undefined {
  return typeof mode === 'number' ? TM_MODE_NAMES[mode] : mode;
}

/**
 * `registers.dataStreaming` of an end point with the TM settings of `tm` added. A `tm` given in
 * `registers.dataStreaming` as well must say the same (the TM Mode field is the mode the engines
 * run: tm-mode-register.ts), else a RangeError.
 */
export function withTmRegisters(ds: Partial<DataStreamingConfig> | undefined, tm: EndpointTmConfig | null | undefined): { readonly dataStreaming?: Partial<DataStreamingConfig> } {
  const settings = tmRegisterSettings(tm);
  if (settings === undefined) return {};
  if (ds?.tm !== undefined) {
    if (ds.tm.types !== settings.types || modeName(ds.tm.mode ?? 'DISABLED') !== settings.mode) {
      throw new RangeError(`registers.dataStreaming.tm must agree with tm (types ${settings.types}, mode ${String(settings.mode)}), or be left out`);
    }
    return {};
  }
  return { dataStreaming: { ...ds, tm: settings } };
}

/** What an end point's data path says of data streaming (feature.ts FeatureHost `dataStreaming`). */
export interface DataStreamingFacts {
  /** The MTU its segmenter and reassembler use (§5.5.1 Table 5-6); default 256. */
  readonly mtu?: number;
  /** Its reassembler's SegSupport encoding (0 = 64K contexts, §5.4.3 Table 5-5); default 64K. */
  readonly segSupport?: number;
}

/**
 * The Data Streaming registers of an end point with traffic management whose registers would have
 * none otherwise (an end point that takes no part in session management): MaxPDU 64K, the data
 * path's SegSupport and MTU, and the TM settings (none: TM Types 0b0000).
 */
export function tmDataStreaming(facts: DataStreamingFacts, tm: TmRegisterSettings | undefined): DataStreamingConfig {
  return { maxPdu: DEFAULT_MAX_PDU, segSupport: countFromField(facts.segSupport ?? 0), mtu: facts.mtu ?? DEFAULT_MTU, ...(tm === undefined ? {} : { tm }) };
}

/**
 * The configuration space of an end point that runs traffic management and has none otherwise (the
 * simulator's end point without session management): its identity, the Operations CARs with data
 * streaming and bit 12, the Data Streaming Information CAR and the Logical Layer Control CSR with
 * the TM settings, the MTU and SegSupport of its data path, as a fabric end point's registers say
 * them (session-endpoint-config.ts buildRegisters, with `withTmRegisters`).
 */
export function tmEndpointRegisters(node: { readonly id: number; readonly tt: number }, facts: DataStreamingFacts, tm: TmRegisterSettings | undefined): RegisterSpace {
  // Part 3 §2.4: tt 0 Dev8, 1 Dev16, 2 Dev32.
  const id = node.tt === 0 ? { dev8BaseDeviceId: node.id } : node.tt === 1 ? { dev16BaseDeviceId: node.id } : { dev32: true, dev32BaseDeviceId: node.id };
  return buildEndpointRegisters({ ...id, dataStreaming: tmDataStreaming(facts, tm) });
}
