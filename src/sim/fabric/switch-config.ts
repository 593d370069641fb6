import { integerInRange, nonNegativeInteger, oneOf, orDefault, positiveInteger, positiveIntegerOrNull, transportType } from '../../engine/config-checks.ts';
import type { CongestionPointConfig } from '../../flow/congestion-point-types.ts';
import { TT } from '../../wire/header.ts';
import type { Tt } from '../../wire/header.ts';
import { VOQ_SYMBOL_FORMS } from '../../wire/voq-cs64.ts';
import type { VoqSymbolForm } from '../../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../../wire/voq-stype2.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import { ARBITRATIONS } from './arbiters.ts';
import type { Arbitration } from './arbiters.ts';
import type { RxBufferSpec } from './types.ts';

/**
 * A switch's configuration (issue 7 §2 "Switches: ports, routing table destID -> port (and
 * next-hop port for VoQ staging), crossbar speedup, buffer sizes, 4 priorities + CRF, and a choice
 * of queueing"). Checked once by `resolveSwitchConfig`; a bad field throws a `RangeError` naming
 * it as `<switch name>.<field>`.
 */
export type Queueing = 'output-queued' | 'input-fifo' | 'input-voq' | 'cioq-voq-backpressure';

export const QUEUEINGS: readonly Queueing[] = ['output-queued', 'input-fifo', 'input-voq', 'cioq-voq-backpressure'];

/** A routing table entry: the output port, and the next switch's egress port for VoQ staging. */
export interface SwitchRoute {
  readonly port: number;
  /**
   * VoQ Backpressure §2.2 "that lookup must produce the egress port for the current device as
   * well as the egress port for the next device". Absent: 0, the only port of an end point
   * (§5.1.2 "Single port end points implement the port 0 register only").
   */
  readonly next?: number;
}

/** The Part 9 congestion points of the switch; role and routes come from the switch. */
export type SwitchCongestionConfig = Omit<CongestionPointConfig, 'role' | 'routes'>;

/** VoQ backpressure (queueing 'cioq-voq-backpressure'). */
export interface SwitchVoqConfig {
  /** Output-queue detector watermarks in packets (VoQ Backpressure §2.5): congested at >= high, clear at <= low. */
  readonly high: number;
  readonly low: number;
  /** Ports whose link carries this switch's VoQ symbols upstream (Table 5-3 bit 8). Default: every port. */
  readonly generate?: readonly number[];
  /** Staging queues per output (§2.3). Default: the switch's port count, one per downstream port of a like switch. */
  readonly stagingQueues?: number;
  /** Default 'seed'. */
  readonly format?: VoqFormat;
  /** Default 'cs48'; 'cs64' needs format 'part12-rev4.1'. */
  readonly symbol?: VoqSymbolForm;
  /** §4.2 f periodic resend, ps; null (default) = none. */
  readonly refreshPeriod?: number | null;
}

export interface SwitchConfig {
  readonly name: string;
  readonly ports: number;
  readonly queueing: Queueing;
  /** destID → output port, or the port and the next switch's egress port. */
  readonly routes: Readonly<Record<number, number | SwitchRoute>>;
  /** Output port for destination IDs the table does not list; absent: such packets are dropped. */
  readonly defaultRoute?: number;
  /** Every input buffer, or one per port. */
  readonly buffers: RxBufferSpec | readonly RxBufferSpec[];
  /**
   * Output queue capacity in packets. Default 32 for 'output-queued' and 'cioq-voq-backpressure';
   * 0 or 1 (default 0) for the input-queued modes: 0 = a packet crosses the crossbar as it goes on
   * the output link, 1 = a one-packet output register.
   */
  readonly outputQueue?: number;
  /** Crossbar speedup S >= 1: a transfer takes packetTime / S of the output link. Default 1. */
  readonly speedup?: number;
  /** Contention among inputs for an output (not 'input-voq'). Default 'round-robin'. */
  readonly arbitration?: Arbitration;
  /** iSLIP iterations ('input-voq'). Default 1. */
  readonly iterations?: number;
  /** Slotted operation: crossbar decisions and output transmissions start at multiples of `slot` ps. */
  readonly slot?: number | null;
  /** CCPs the switch itself may hold per output besides the output queue. Default 4. */
  readonly ccpQueue?: number;
  /** Transport type assumed for packets whose `wire` carries none (Part 3 §2.4). Default Dev16. */
  readonly tt?: Tt;
  readonly congestion?: SwitchCongestionConfig | null;
  readonly voq?: SwitchVoqConfig;
}

export interface ResolvedVoqConfig {
  readonly high: number;
  readonly low: number;
  readonly generate: readonly number[];
  readonly stagingQueues: number;
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly refreshPeriod: number | null;
}

export interface ResolvedSwitchConfig {
  readonly name: string;
  readonly ports: number;
  readonly queueing: Queueing;
  readonly routes: ReadonlyMap<number, Required<SwitchRoute>>;
  readonly defaultRoute: number | undefined;
  readonly buffers: readonly RxBufferSpec[];
  readonly outputQueue: number;
  readonly speedup: number;
  readonly arbitration: Arbitration;
  readonly iterations: number;
  readonly slot: number | null;
  /** slot / speedup: the crossbar's decision period in slotted operation. */
  readonly crossbarSlot: number | null;
  readonly ccpQueue: number;
  readonly tt: Tt;
  readonly congestion: SwitchCongestionConfig | null;
  readonly voq: ResolvedVoqConfig | null;
}

function checkRoutes(c: SwitchConfig, f: string): Map<number, Required<SwitchRoute>> {
  const routes = new Map<number, Required<SwitchRoute>>();
  if (typeof c.routes !== 'object') throw new RangeError(`${f}.routes must be an object of destID → port`);
  for (const [key, r] of Object.entries(c.routes)) {
    const id = nonNegativeInteger(Number(key), `${f}.routes key ${key}`);
    const entry = typeof r === 'number' ? { port: r } : r;
    const port = integerInRange(entry.port, 0, c.ports - 1, `${f}.routes[${key}].port`);
    const next = nonNegativeInteger(orDefault(entry.next, 0), `${f}.routes[${key}].next`);
    routes.set(id, { port, next });
  }
  return routes;
}

function checkBuffers(c: SwitchConfig, f: string): RxBufferSpec[] {
  const list = Array.isArray(c.buffers) ? (c.buffers as readonly RxBufferSpec[]) : Array.from({ length: c.ports }, () => c.buffers as RxBufferSpec);
  if (list.length !== c.ports) throw new RangeError(`${f}.buffers must have one entry per port`);
  return list.map((b, i) => {
    positiveInteger(b.packets, `${f}.buffers[${i}].packets`);
    return b;
  });
}

function checkVoq(v: SwitchVoqConfig | undefined, ports: number, f: string): ResolvedVoqConfig {
  if (v === undefined) throw new RangeError(`${f}.voq must be given with queueing cioq-voq-backpressure`);
  const high = positiveInteger(v.high, `${f}.voq.high`);
  const low = nonNegativeInteger(v.low, `${f}.voq.low`);
  if (low >= high) throw new RangeError(`${f}.voq.low must be less than ${f}.voq.high`);
  const format = oneOf(orDefault(v.format, 'seed'), VOQ_FORMATS, `${f}.voq.format`, 'or');
  const symbol = oneOf(orDefault(v.symbol, 'cs48'), VOQ_SYMBOL_FORMS, `${f}.voq.symbol`, 'or');
  if (symbol === 'cs64' && format !== 'part12-rev4.1') throw new RangeError(`${f}.voq.symbol must be 'cs48' in the ${format} format`);
  const generate = (v.generate ?? Array.from({ length: ports }, (_, i) => i)).map((p, i) => integerInRange(p, 0, ports - 1, `${f}.voq.generate[${i}]`));
  return {
    high,
    low,
    generate,
    stagingQueues: integerInRange(orDefault(v.stagingQueues, ports), 1, 256, `${f}.voq.stagingQueues`),
    format,
    symbol,
    refreshPeriod: positiveIntegerOrNull(orDefault(v.refreshPeriod, null), `${f}.voq.refreshPeriod`),
  };
}

export function resolveSwitchConfig(c: SwitchConfig): ResolvedSwitchConfig {
  if (typeof c.name !== 'string' || c.name === '') throw new RangeError('switch name must be a non-empty string');
  const f = c.name;
  const ports = integerInRange(c.ports, 1, 192, `${f}.ports`);
  const queueing = oneOf(c.queueing, QUEUEINGS, `${f}.queueing`);
  const inputQueued = queueing === 'input-fifo' || queueing === 'input-voq';
  const outputQueue = inputQueued
    ? integerInRange(orDefault(c.outputQueue, 0), 0, 1, `${f}.outputQueue`)
    : positiveInteger(orDefault(c.outputQueue, 32), `${f}.outputQueue`);
  const speedup = orDefault(c.speedup, 1);
  if (typeof speedup !== 'number' || !Number.isFinite(speedup) || speedup < 1) throw new RangeError(`${f}.speedup must be a number >= 1`);
  const slot = positiveIntegerOrNull(orDefault(c.slot, null), `${f}.slot`);
  let crossbarSlot: number | null = null;
  if (slot !== null) {
    crossbarSlot = slot / speedup;
    if (!Number.isSafeInteger(crossbarSlot)) throw new RangeError(`${f}.slot must be a multiple of the speedup (the crossbar slot is slot / speedup ps)`);
  }
  const defaultRoute = c.defaultRoute === undefined ? undefined : integerInRange(c.defaultRoute, 0, ports - 1, `${f}.defaultRoute`);
  const voq = queueing === 'cioq-voq-backpressure' ? checkVoq(c.voq, ports, f) : null;
  // The staging engine's forward lookup (VoQ Backpressure §2.2) has one entry per destination ID.
  if (voq !== null && defaultRoute !== undefined) throw new RangeError(`${f}.defaultRoute must be absent with queueing cioq-voq-backpressure (staging needs each destination's next-hop port)`);
  const congestion = c.congestion ?? null;
  if (congestion !== null && typeof congestion !== 'object') throw new RangeError(`${f}.congestion must be an object or null`);
  return {
    name: f,
    ports,
    queueing,
    routes: checkRoutes(c, f),
    defaultRoute,
    buffers: checkBuffers(c, f),
    outputQueue,
    speedup,
    arbitration: oneOf(orDefault(c.arbitration, 'round-robin'), ARBITRATIONS, `${f}.arbitration`),
    iterations: positiveInteger(orDefault(c.iterations, 1), `${f}.iterations`),
    slot,
    crossbarSlot,
    ccpQueue: nonNegativeInteger(orDefault(c.ccpQueue, 4), `${f}.ccpQueue`),
    tt: transportType(orDefault(c.tt, TT.dev16), `${f}.tt`),
    congestion,
    voq,
  };
}
