import {
  deviceIdBits, deviceIdForTt, integerInRange, nonNegativeInteger, oneOf, orDefault, positiveInteger, positiveIntegerOrNull,
} from '../engine/config-checks.ts';
import type { CongestionPointConfig } from '../flow/congestion-point-types.ts';
import { symbolForm } from '../voq/symbol-form.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../wire/voq-stype2.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';
import { within } from './session-endpoint-config.ts';
import type { SwitchCongestionSettings, SwitchElementConfig, SwitchIdentity, SwitchPortConfig, SwitchVoqSettings } from './switch-element-types.ts';

/** Part 1 Table 5-8 PortTotal: "0b00000001 - Reserved", "0b11111111 - 255 ports". */
export const MAX_SWITCH_PORTS = 255;
export const DEFAULT_OUTPUT_PACKETS = 32;
export const DEFAULT_RESERVE_PER_PRIORITY = 1;
export const DEFAULT_INPUT_HOLD = 8;
export const DEFAULT_CCP_QUEUE = 4;

export interface ResolvedVoq {
  readonly high: number;
  readonly low: number;
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly refreshPeriod: number | null;
  readonly generate: readonly number[];
}

export interface ResolvedSwitchConfig {
  readonly deviceId: number;
  readonly tt: 0 | 1;
  readonly ports: number;
  readonly routeLimit: number;
  readonly routes: ReadonlyMap<number, number>;
  readonly defaultPort: number | undefined;
  /** Per port: the accepted source IDs, null for any. */
  readonly accept: readonly (ReadonlySet<number> | null)[];
  readonly capacity: number;
  readonly reserve: number;
  readonly inputHold: number;
  readonly ccpQueue: number;
  /** Per output: its congestion point's configuration, or null. */
  readonly congestion: readonly (CongestionPointConfig | null)[];
  readonly voq: ResolvedVoq | null;
  readonly identity: SwitchIdentity;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkRoutes(v: unknown, limit: number, ports: number): Map<number, number> {
  if (!isObject(v)) throw new RangeError('routes must be an object of destinationID → port');
  const routes = new Map<number, number>();
  for (const [key, port] of Object.entries(v)) {
    const id = integerInRange(key.trim() === '' ? Number.NaN : Number(key), 0, limit, `routes key ${key}`);
    routes.set(id, integerInRange(port, 0, ports - 1, `routes[${key}]`));
  }
  return routes;
}

function checkAccept(v: unknown, tt: number, ports: number): (ReadonlySet<number> | null)[] {
  const list = orDefault<unknown>(v, []);
  if (!Array.isArray(list) || list.length > ports) throw new RangeError(`portConfig must be a list of at most ${ports} port settings`);
  return Array.from({ length: ports }, (_, p) => {
    const c = (list as unknown[])[p] as SwitchPortConfig | undefined;
    if (c === undefined) return null;
    if (!isObject(c)) throw new RangeError(`portConfig[${p}] must be an object`);
    const accept = orDefault<unknown>(c.accept, 'any');
    if (accept === 'any') return null;
    if (!Array.isArray(accept)) throw new RangeError(`portConfig[${p}].accept must be 'any' or a list of device IDs`);
    return new Set((accept as unknown[]).map((id, j) => deviceIdForTt(id, tt, `portConfig[${p}].accept[${j}]`)));
  });
}

function checkBuffer(v: SwitchElementConfig['outputBuffer']): { capacity: number; reserve: number } {
  if (v !== undefined && !isObject(v)) throw new RangeError('outputBuffer must be an object');
  const capacity = positiveInteger(orDefault(v?.packets, DEFAULT_OUTPUT_PACKETS), 'outputBuffer.packets');
  const reserve = nonNegativeInteger(orDefault(v?.reservePerPriority, DEFAULT_RESERVE_PER_PRIORITY), 'outputBuffer.reservePerPriority');
  // Part 6 §6.12 rule 4: room for priority 0 must remain after the three higher priorities' reserves.
  if (3 * reserve >= capacity) throw new RangeError('outputBuffer.reservePerPriority must be less than a third of outputBuffer.packets');
  return { capacity, reserve };
}

function checkCongestion(v: SwitchElementConfig['congestion'], ports: number): (CongestionPointConfig | null)[] {
  if (v === undefined || v === null) return Array.from({ length: ports }, () => null);
  if (Array.isArray(v) && v.length !== ports) throw new RangeError(`congestion must be one setting or a list of ${ports}, one per port`);
  return Array.from({ length: ports }, (_, k) => {
    const s = (Array.isArray(v) ? (v as readonly (SwitchCongestionSettings | null)[])[k] : v) as unknown;
    if (s === null || s === undefined) return null;
    if (!isObject(s)) throw new RangeError(`congestion${Array.isArray(v) ? `[${k}]` : ''} must be an object or null`);
    // The element routes every CCP itself by the live route table and checks the port's Flow
    // Control Participant bit (Part 9 §4.3), so the engine's own route is a placeholder.
    return { ...(s as SwitchCongestionSettings), role: 'switch', routes: { default: 0 } };
  });
}

function checkVoq(v: SwitchElementConfig['voq'], ports: number): ResolvedVoq | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw new RangeError('voq must be an object or null');
  const s = v as SwitchVoqSettings;
  const high = positiveInteger(s.high, 'voq.high');
  const low = nonNegativeInteger(s.low, 'voq.low');
  // VoQ §2.5 "If very small queuing structures are used, a lot of on/off chatter can occur".
  if (low >= high) throw new RangeError('voq.low must be less than voq.high');
  const format = oneOf(orDefault<unknown>(s.format, 'seed'), VOQ_FORMATS, 'voq.format', 'or');
  const symbol = within('voq', () => symbolForm(s.symbol, format));
  const gen = orDefault<unknown>(s.generate, Array.from({ length: ports }, (_, p) => p));
  if (!Array.isArray(gen)) throw new RangeError('voq.generate must be a list of ports');
  const generate = [...new Set((gen as unknown[]).map((p, i) => integerInRange(p, 0, ports - 1, `voq.generate[${i}]`)))].sort((a, b) => a - b);
  return { high, low, format, symbol, refreshPeriod: positiveIntegerOrNull(orDefault(s.refreshPeriod, null), 'voq.refreshPeriod'), generate };
}

function checkIdentity(v: SwitchIdentity | undefined): SwitchIdentity {
  if (v === undefined) return {};
  if (!isObject(v)) throw new RangeError('identity must be an object');
  const out: Record<string, number> = {};
  for (const f of ['deviceIdentity', 'deviceVendorIdentity', 'assyIdentity', 'assyVendorIdentity', 'assyRev'] as const) {
    if (v[f] !== undefined) out[f] = integerInRange(v[f], 0, 0xffff, `identity.${f}`);
  }
  for (const f of ['deviceRev', 'componentTag'] as const) {
    if (v[f] !== undefined) out[f] = integerInRange(v[f], 0, 0xffffffff, `identity.${f}`);
  }
  return out;
}

export function resolveSwitchConfig(c: SwitchElementConfig): ResolvedSwitchConfig {
  if (!isObject(c)) throw new RangeError('config must be an object');
  const tt = oneOf(orDefault<unknown>(c.tt, 1), [0, 1], 'tt', 'or');
  const deviceId = deviceIdForTt(c.deviceId, tt, 'deviceId');
  const ports = integerInRange(c.ports, 2, MAX_SWITCH_PORTS, 'ports');
  const routeLimit = integerInRange(orDefault(c.routeLimit, 2 ** deviceIdBits(tt) - 1), 0, 2 ** deviceIdBits(tt) - 1, 'routeLimit');
  const { capacity, reserve } = checkBuffer(c.outputBuffer);
  return {
    deviceId,
    tt,
    ports,
    routeLimit,
    routes: checkRoutes(c.routes, routeLimit, ports),
    defaultPort: c.defaultPort === undefined ? undefined : integerInRange(c.defaultPort, 0, ports - 1, 'defaultPort'),
    accept: checkAccept(c.portConfig, tt, ports),
    capacity,
    reserve,
    inputHold: positiveInteger(orDefault(c.inputHold, DEFAULT_INPUT_HOLD), 'inputHold'),
    ccpQueue: nonNegativeInteger(orDefault(c.ccpQueue, DEFAULT_CCP_QUEUE), 'ccpQueue'),
    congestion: checkCongestion(c.congestion, ports),
    voq: checkVoq(c.voq, ports),
    identity: checkIdentity(c.identity),
  };
}
