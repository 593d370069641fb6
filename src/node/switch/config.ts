import {
  booleanFlag, deviceIdBits, deviceIdForTt, integerInRange, nonNegativeInteger, oneOf, orDefault, positiveInteger, positiveIntegerOrNull,
} from '../../engine/config-checks.ts';
import type { CongestionPointConfig } from '../../flow/congestion-point-types.ts';
import { symbolForm } from '../../voq/symbol-form.ts';
import type { VoqSymbolForm } from '../../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../../wire/voq-stype2.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import { within } from '../session-endpoint-config.ts';
import { ARBITRATIONS } from './arbiters.ts';
import type { Arbitration } from './arbiters.ts';
import { QUEUEINGS } from './config-types.ts';
import { MATCHERS, matcherProblem } from './voq-matching.ts';
import type { VoqMatcher } from './voq-matching.ts';
import type {
  BufferSpec, Queueing, SwitchArbitrationSettings, SwitchConfig, SwitchCongestionSettings, SwitchIdentity, SwitchMaintenanceBudget, SwitchPortConfig, SwitchRoute, SwitchVoqSettings,
} from './config-types.ts';

/** Part 1 Table 5-8 PortTotal: "0b00000001 - Reserved", "0b11111111 - 255 ports". */
export const MAX_SWITCH_PORTS = 255;
export const DEFAULT_OUTPUT_PACKETS = 32;
export const DEFAULT_RESERVE_PER_PRIORITY = 1;
export const DEFAULT_INPUT_PACKETS = 8;
export const DEFAULT_CCP_QUEUE = 4;

export interface ResolvedVoq {
  readonly high: number;
  readonly low: number;
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly refreshPeriod: number | null;
  readonly generate: readonly number[];
  readonly stagingQueues: number;
}

export interface ResolvedSwitchConfig {
  readonly name: string;
  readonly deviceId: number;
  /**
   * Whether the configuration gave the switch a device ID. Without one, a MAINTENANCE request is
   * for the switch by hop_count 0 only, until host software writes its Base Device ID CSR: the
   * all-ones reset value may be an end point's ID in a large Dev8 fabric (decision SW7).
   */
  readonly hasDeviceId: boolean;
  readonly tt: 0 | 1;
  readonly ports: number;
  readonly routeLimit: number;
  /** destinationID → output port and next-hop port. */
  readonly routes: ReadonlyMap<number, Required<SwitchRoute>>;
  readonly defaultPort: number | undefined;
  /** Per port: the accepted source IDs, null for any. */
  readonly accept: readonly (ReadonlySet<number> | null)[];
  readonly queueing: Queueing;
  readonly inputBuffers: readonly Required<BufferSpec>[];
  readonly outputPackets: number;
  readonly outputReserve: number;
  readonly arbitration: Arbitration;
  readonly weights: readonly number[];
  readonly byClass: boolean;
  /** `random`'s seed when the configuration gives one; null: the host's stream, else 1. */
  readonly seed: number | null;
  readonly iterations: number;
  /** 'input-voq': the matcher (voq-matching.ts); 'islip' in the other modes, which match nothing. */
  readonly matcher: VoqMatcher;
  readonly ccpQueue: number;
  /** Per port: its congestion point's configuration, or null. */
  readonly congestion: readonly (CongestionPointConfig | null)[];
  readonly voq: ResolvedVoq | null;
  /** Requests for the switch each port may have performed (maintenance-budget.ts); null: no limit. */
  readonly maintenanceBudget: SwitchMaintenanceBudget | null;
  readonly identity: SwitchIdentity;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isInputQueued(q: Queueing): boolean {
  return q === 'input-fifo' || q === 'input-voq';
}

function checkRoutes(v: unknown, limit: number, ports: number): Map<number, Required<SwitchRoute>> {
  if (!isObject(v)) throw new RangeError('routes must be an object of destinationID → port');
  const routes = new Map<number, Required<SwitchRoute>>();
  for (const [key, r] of Object.entries(v)) {
    const id = integerInRange(key.trim() === '' ? Number.NaN : Number(key), 0, limit, `routes key ${key}`);
    if (typeof r === 'number' || !isObject(r)) {
      routes.set(id, { port: integerInRange(r, 0, ports - 1, `routes[${key}]`), next: 0 });
      continue;
    }
    const e = r as unknown as SwitchRoute;
    routes.set(id, { port: integerInRange(e.port, 0, ports - 1, `routes[${key}].port`), next: nonNegativeInteger(orDefault(e.next, 0), `routes[${key}].next`) });
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

function checkBuffer(v: unknown, field: string, dflt: number, dfltReserve: number, min: number, max = Number.MAX_SAFE_INTEGER): Required<BufferSpec> {
  if (v !== undefined && !isObject(v)) throw new RangeError(`${field} must be an object {packets, reservePerPriority?}`);
  const b = v as BufferSpec | undefined;
  const n = orDefault<unknown>(b?.packets, dflt);
  const packets = max !== Number.MAX_SAFE_INTEGER ? integerInRange(n, min, max, `${field}.packets`) : min === 1 ? positiveInteger(n, `${field}.packets`) : nonNegativeInteger(n, `${field}.packets`);
  const reservePerPriority = nonNegativeInteger(orDefault(b?.reservePerPriority, 3 * dfltReserve < packets ? dfltReserve : 0), `${field}.reservePerPriority`);
  // Part 6 §6.12 rule 4: room for priority 0 must remain after the three higher priorities' reserves.
  if (reservePerPriority > 0 && 3 * reservePerPriority >= packets) throw new RangeError(`${field}.reservePerPriority must be less than a third of ${field}.packets`);
  return { packets, reservePerPriority };
}

function checkInputBuffers(v: SwitchConfig['inputBuffer'], ports: number): Required<BufferSpec>[] {
  if (Array.isArray(v) && v.length !== ports) throw new RangeError('inputBuffer must have one entry per port');
  return Array.from({ length: ports }, (_, i) => {
    const b = Array.isArray(v) ? (v as readonly BufferSpec[])[i] : v;
    return checkBuffer(b, Array.isArray(v) ? `inputBuffer[${i}]` : 'inputBuffer', DEFAULT_INPUT_PACKETS, DEFAULT_RESERVE_PER_PRIORITY, 1);
  });
}

function checkArbitration(v: SwitchConfig['arbitration'], ports: number, fallback: Arbitration): { policy: Arbitration; weights: number[]; byClass: boolean; seed: number | null } {
  const s: SwitchArbitrationSettings | undefined = typeof v === 'string' || v === undefined ? { policy: v as Arbitration } : v;
  if (!isObject(s)) throw new RangeError('arbitration must be a policy name or {policy, weights?, byClass?}');
  const policy = oneOf(orDefault<unknown>(s.policy, fallback), ARBITRATIONS, typeof v === 'string' ? 'arbitration' : 'arbitration.policy');
  const w = orDefault<unknown>(s.weights, []);
  if (!Array.isArray(w) || w.length > ports) throw new RangeError(`arbitration.weights must be a list of at most ${ports} positive integers`);
  if (w.length > 0 && policy !== 'weighted') throw new RangeError('arbitration.weights needs policy weighted');
  const weights = Array.from({ length: ports }, (_, i) => positiveInteger(orDefault((w as unknown[])[i], 1), `arbitration.weights[${i}]`));
  if (s.seed !== undefined && policy !== 'random') throw new RangeError('arbitration.seed needs policy random');
  const seed = s.seed === undefined ? null : integerInRange(s.seed, 0, 0xffffffff, 'arbitration.seed');
  return { policy, weights, byClass: booleanFlag(orDefault<unknown>(s.byClass, true), 'arbitration.byClass'), seed };
}

/**
 * Per port, the congestion point's configuration. The point gets no `capacity` unless one is
 * given: §2.4.6 rule 2 "If a switch runs out of packet buffer space, it is permitted to drop
 * CCPs", and the switch's CCPs wait in a queue of their own (`ccpQueue`), so an XOFF still leaves
 * when the watched buffer is full (decision SW2). The element routes every CCP itself by the live
 * route table and checks the port's Flow Control Participant bit (Part 9 §4.3), so the engine's own
 * route is a placeholder.
 */
function checkCongestion(v: SwitchConfig['congestion'], ports: number): (CongestionPointConfig | null)[] {
  if (v === undefined || v === null) return Array.from({ length: ports }, () => null);
  if (Array.isArray(v) && v.length !== ports) throw new RangeError(`congestion must be one setting or a list of ${ports}, one per port`);
  return Array.from({ length: ports }, (_, k) => {
    const s = (Array.isArray(v) ? (v as readonly (SwitchCongestionSettings | null)[])[k] : v) as unknown;
    if (s === null || s === undefined) return null;
    if (!isObject(s)) throw new RangeError(`congestion${Array.isArray(v) ? `[${k}]` : ''} must be an object or null`);
    return { ...(s as SwitchCongestionSettings), role: 'switch', routes: { default: 0 } };
  });
}

function checkVoq(v: SwitchConfig['voq'], ports: number, staging: boolean, inputQueued: boolean): ResolvedVoq | null {
  if (v === undefined || v === null) {
    if (staging) throw new RangeError('voq must be given with queueing cioq-voq-backpressure');
    return null;
  }
  // The generator's detector watches the output queues (VoQ §2.5), which input-queued switches do not have.
  if (inputQueued) throw new RangeError('voq needs output queues (queueing output-queued or cioq-voq-backpressure)');
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
  return {
    high, low, format, symbol, generate,
    refreshPeriod: positiveIntegerOrNull(orDefault(s.refreshPeriod, null), 'voq.refreshPeriod'),
    stagingQueues: integerInRange(orDefault(s.stagingQueues, ports), 1, 256, 'voq.stagingQueues'),
  };
}

/** The matcher, after the checks that every given setting acts (voq-matching.ts `matcherProblem`). */
function checkMatcher(c: SwitchConfig, queueing: Queueing): VoqMatcher {
  const matcher = c.matcher === undefined ? undefined : oneOf<VoqMatcher>(c.matcher, MATCHERS, 'matcher');
  const a = c.arbitration;
  const object = isObject(a);
  const given: unknown = object ? a.policy : a;
  // An unknown policy is checkArbitration's to name.
  const policy = ARBITRATIONS.find((x) => x === given);
  const iterations = typeof c.iterations === 'number' ? c.iterations : undefined;
  const byClass = object && typeof a.byClass === 'boolean' ? a.byClass : undefined;
  const problem = matcherProblem({ queueing, matcher, policy, policyPath: object ? ['arbitration', 'policy'] : ['arbitration'], iterations, byClass });
  if (problem !== null) throw new RangeError(`${problem.path.join('.')}: ${problem.message}`);
  return matcher ?? 'islip';
}

function checkMaintenanceBudget(v: SwitchConfig['maintenanceBudget']): SwitchMaintenanceBudget | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw new RangeError('maintenanceBudget must be an object {burst, interval} or null');
  return { burst: positiveInteger(v.burst, 'maintenanceBudget.burst'), interval: positiveInteger(v.interval, 'maintenanceBudget.interval') };
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

function resolve(c: SwitchConfig, name: string): ResolvedSwitchConfig {
  const tt = oneOf(orDefault<unknown>(c.tt, 1), [0, 1], 'tt', 'or');
  const idMax = 2 ** deviceIdBits(tt) - 1;
  const deviceId = deviceIdForTt(orDefault<unknown>(c.deviceId, idMax), tt, 'deviceId');
  const ports = integerInRange(c.ports, 2, MAX_SWITCH_PORTS, 'ports');
  const routeLimit = integerInRange(orDefault(c.routeLimit, idMax), 0, idMax, 'routeLimit');
  const queueing = oneOf(orDefault<unknown>(c.queueing, 'output-queued'), QUEUEINGS, 'queueing');
  const inputQueued = isInputQueued(queueing);
  const out = inputQueued
    ? checkBuffer(c.outputBuffer, 'outputBuffer', 0, 0, 0, 1)
    : checkBuffer(c.outputBuffer, 'outputBuffer', DEFAULT_OUTPUT_PACKETS, 0, 1);
  const inputBuffers = checkInputBuffers(c.inputBuffer, ports);
  const defaultPort = c.defaultPort === undefined ? undefined : integerInRange(c.defaultPort, 0, ports - 1, 'defaultPort');
  const staging = queueing === 'cioq-voq-backpressure';
  // The staging engine's forward lookup (VoQ Backpressure §2.2) has one entry per destination ID.
  if (staging && defaultPort !== undefined) throw new RangeError('defaultPort must be absent with queueing cioq-voq-backpressure (staging needs each destination\'s next-hop port)');
  const matcher = checkMatcher(c, queueing);
  const arb = checkArbitration(c.arbitration, ports, matcher === 'pim' ? 'random' : 'round-robin');
  return {
    name,
    deviceId,
    hasDeviceId: c.deviceId !== undefined,
    tt,
    ports,
    routeLimit,
    routes: checkRoutes(c.routes, routeLimit, ports),
    defaultPort,
    accept: checkAccept(c.portConfig, tt, ports),
    queueing,
    inputBuffers,
    outputPackets: out.packets,
    outputReserve: out.reservePerPriority,
    arbitration: arb.policy,
    weights: arb.weights,
    byClass: arb.byClass,
    seed: arb.seed,
    iterations: positiveInteger(orDefault(c.iterations, 1), 'iterations'),
    matcher,
    ccpQueue: nonNegativeInteger(orDefault(c.ccpQueue, DEFAULT_CCP_QUEUE), 'ccpQueue'),
    congestion: checkCongestion(c.congestion, ports),
    voq: checkVoq(c.voq, ports, staging, inputQueued),
    maintenanceBudget: checkMaintenanceBudget(c.maintenanceBudget),
    identity: checkIdentity(c.identity),
  };
}

/** The checked configuration; a bad field throws a `RangeError` naming it, after the switch's name when it has one. */
export function resolveSwitchConfig(c: SwitchConfig): ResolvedSwitchConfig {
  if (!isObject(c)) throw new RangeError('config must be an object');
  if (c.name !== undefined && (typeof c.name !== 'string' || c.name === '')) throw new RangeError('switch name must be a non-empty string');
  return c.name === undefined ? resolve(c, 'switch') : within(c.name, () => resolve(c, c.name as string));
}
