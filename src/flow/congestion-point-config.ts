import { VC_COUNTS, ccpPrioCrf } from '../wire/flow-id.ts';
import type { VcCount } from '../wire/flow-id.ts';
import type { MessageFlow } from './flows.ts';
import type { CongestionPointConfig, ResponsePolicy, SelectionPolicy } from './congestion-point-types.ts';

export const DEFAULT_LIST_CAPACITY = 16;

/** The validated configuration of a `CongestionPoint`, defaults filled in. */
export interface ResolvedCongestionPointConfig {
  readonly role: 'switch' | 'endpoint';
  readonly highWatermark: number;
  readonly lowWatermark: number;
  readonly unit: 'packets' | 'bytes';
  readonly capacity: number | undefined;
  readonly policy: SelectionPolicy;
  readonly responses: ResponsePolicy;
  readonly listCapacity: number;
  readonly restartOrder: 'fifo' | 'lifo';
  readonly restartStagger: number;
  readonly crfSupported: boolean;
  readonly vcCount: VcCount;
  readonly ccpFlow: MessageFlow;
  readonly routeTable: ReadonlyMap<number, number>;
  readonly defaultRoute: number | undefined;
  /** undefined: every port participates. */
  readonly participants: readonly number[] | undefined;
}

function nonNegativeInteger(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new RangeError(`${field} must be a non-negative integer`);
  return v;
}

function positiveInteger(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${field} must be a positive integer`);
  return v;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], field: string): T {
  if (!allowed.includes(v as T)) throw new RangeError(`${field} must be one of ${allowed.join(', ')}`);
  return v as T;
}

function checkPolicy(p: SelectionPolicy | undefined): SelectionPolicy {
  if (p === undefined) return { kind: 'histogram', flows: 1 };
  const kind = oneOf((p as { kind?: unknown }).kind, ['histogram', 'threshold'], 'policy.kind');
  if (kind === 'threshold') return { kind };
  // A.1 method 1: "The switch selects the 1 to 5 transaction request flows with the most packets".
  const flows: unknown = (p as { flows?: unknown }).flows;
  if (typeof flows !== 'number' || !Number.isInteger(flows) || flows < 1 || flows > 5) {
    throw new RangeError('policy.flows must be an integer from 1 to 5');
  }
  return { kind, flows };
}

/** §2.4.2 "prio field value of 0b11, and a CRF bit value of 0b1, if supported"; without CRF support the bit is always 0. */
function checkCcpFlow(f: MessageFlow | undefined, crfSupported: boolean): MessageFlow {
  const dflt = ccpPrioCrf(crfSupported);
  if (f === undefined) return dflt;
  if (!Number.isInteger(f.prio) || f.prio < 0 || f.prio > 3) throw new RangeError('ccpFlow.prio must be an integer from 0 to 3');
  if (f.crf !== 0 && f.crf !== 1) throw new RangeError('ccpFlow.crf must be 0 or 1');
  return { prio: f.prio, crf: crfSupported ? f.crf : 0 };
}

function checkRoutes(routes: CongestionPointConfig['routes']): { table: ReadonlyMap<number, number>; dflt: number | undefined } {
  const table = new Map<number, number>();
  for (const [id, port] of Object.entries(routes?.table ?? {})) {
    table.set(nonNegativeInteger(Number(id), 'routes.table key'), nonNegativeInteger(port, `routes.table[${id}]`));
  }
  const d = routes?.default;
  return { table, dflt: d === undefined ? undefined : nonNegativeInteger(d, 'routes.default') };
}

function checkVcCount(v: VcCount | undefined): VcCount {
  const n = v ?? 0;
  if (!VC_COUNTS.includes(n)) throw new RangeError(`vcCount must be one of ${VC_COUNTS.join(', ')}`);
  return n;
}

export function resolveCongestionPointConfig(c: CongestionPointConfig): ResolvedCongestionPointConfig {
  const role = oneOf(c.role, ['switch', 'endpoint'], 'role');
  const highWatermark = nonNegativeInteger(c.highWatermark, 'highWatermark');
  const lowWatermark = nonNegativeInteger(c.lowWatermark, 'lowWatermark');
  // A.1 a) "Provides sufficient hysteresis": the XON level sits below the XOFF level.
  if (lowWatermark >= highWatermark) throw new RangeError('lowWatermark must be below highWatermark');
  const crfSupported = c.crfSupported ?? true;
  if (typeof crfSupported !== 'boolean') throw new RangeError('crfSupported must be a boolean');
  const { table, dflt } = checkRoutes(c.routes);
  return {
    role,
    highWatermark,
    lowWatermark,
    unit: oneOf(c.unit ?? 'packets', ['packets', 'bytes'], 'unit'),
    capacity: c.capacity === undefined ? undefined : positiveInteger(c.capacity, 'capacity'),
    policy: checkPolicy(c.policy),
    responses: oneOf(c.responses ?? 'fallback', ['fallback', 'ignore', 'equal'], 'responses'),
    listCapacity: positiveInteger(c.listCapacity ?? DEFAULT_LIST_CAPACITY, 'listCapacity'),
    restartOrder: oneOf(c.restartOrder ?? 'fifo', ['fifo', 'lifo'], 'restartOrder'),
    restartStagger: nonNegativeInteger(c.restartStagger ?? 0, 'restartStagger'),
    crfSupported,
    vcCount: checkVcCount(c.vcCount),
    ccpFlow: checkCcpFlow(c.ccpFlow, crfSupported),
    routeTable: table,
    defaultRoute: dflt,
    participants: c.participants?.map((p, i) => nonNegativeInteger(p, `participants[${i}]`)),
  };
}
