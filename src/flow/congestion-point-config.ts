import { booleanFlag, integerInRange, messageFlow, nonNegativeInteger, oneOf, positiveInteger } from '../engine/config-checks.ts';
import { VC_COUNTS } from '../wire/flow-id.ts';
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

function checkPolicy(p: SelectionPolicy | undefined): SelectionPolicy {
  if (p === undefined) return { kind: 'histogram', flows: 1 };
  const kind = oneOf((p as { kind?: unknown }).kind, ['histogram', 'threshold'], 'policy.kind');
  if (kind === 'threshold') return { kind };
  // A.1 method 1: "The switch selects the 1 to 5 transaction request flows with the most packets".
  return { kind, flows: integerInRange((p as { flows?: unknown }).flows, 1, 5, 'policy.flows') };
}

/** §2.4.2 "prio field value of 0b11, and a CRF bit value of 0b1, if supported"; without CRF support the bit is always 0. */
function checkCcpFlow(f: MessageFlow | undefined, crfSupported: boolean): MessageFlow {
  const flow = messageFlow(f, 'ccpFlow', crfSupported);
  return crfSupported ? flow : { prio: flow.prio, crf: 0 };
}

function checkRoutes(routes: CongestionPointConfig['routes']): { table: ReadonlyMap<number, number>; dflt: number | undefined } {
  const table = new Map<number, number>();
  for (const [id, port] of Object.entries(routes?.table ?? {})) {
    table.set(nonNegativeInteger(Number(id), 'routes.table key'), nonNegativeInteger(port, `routes.table[${id}]`));
  }
  const d = routes?.default;
  return { table, dflt: d === undefined ? undefined : nonNegativeInteger(d, 'routes.default') };
}

export function resolveCongestionPointConfig(c: CongestionPointConfig): ResolvedCongestionPointConfig {
  const role = oneOf(c.role, ['switch', 'endpoint'], 'role');
  const highWatermark = nonNegativeInteger(c.highWatermark, 'highWatermark');
  const lowWatermark = nonNegativeInteger(c.lowWatermark, 'lowWatermark');
  // A.1 a) "Provides sufficient hysteresis": the XON level sits below the XOFF level.
  if (lowWatermark >= highWatermark) throw new RangeError('lowWatermark must be below highWatermark');
  const crfSupported = booleanFlag(c.crfSupported ?? true, 'crfSupported');
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
    vcCount: oneOf(c.vcCount ?? 0, VC_COUNTS, 'vcCount'),
    ccpFlow: checkCcpFlow(c.ccpFlow, crfSupported),
    routeTable: table,
    defaultRoute: dflt,
    participants: c.participants?.map((p, i) => nonNegativeInteger(p, `participants[${i}]`)),
  };
}
