import { booleanFlag, integerInRange, nonNegativeInteger, oneOf, orDefault } from '../engine/config-checks.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../wire/voq-stype2.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';
import { symbolForm } from './symbol-form.ts';
import type { ReverseMap, VoqReceiverConfig, VoqReceiverPortConfig, VoqRoute } from './receiver-types.ts';

export const DEFAULT_QUEUES = 4;
export const MAX_QUEUES = 256;
/** The widest Part 12 layout: 7 status bits × 64 groups (Part 12 §3.1, group size 6). */
export const MAX_DOWNSTREAM_PORTS = 448;
/** The widest CS64 layout: 14 status bits × 64 groups (Part 12 §3.2, group size 6). */
export const MAX_DOWNSTREAM_PORTS_CS64 = 896;

export interface ResolvedPortConfig {
  readonly queues: number;
  readonly reverseMap: ReverseMap;
  readonly reception: boolean;
  readonly perVcStaging: boolean;
  readonly enableVcLinking: boolean;
  readonly rxPortGroupSize: number;
}

export interface ResolvedVoqReceiverConfig {
  readonly format: VoqFormat;
  readonly ports: readonly ResolvedPortConfig[];
  readonly routes: readonly VoqRoute[];
  readonly vcs: 0 | 1 | 2 | 4 | 8;
  readonly clearOnLinkUp: boolean;
  readonly symbol: VoqSymbolForm;
}

/** The queue a downstream port is staged in, or undefined when the table has no entry for it. */
export function reverseMapQueue(map: ReverseMap, queues: number, downstreamPort: number): number | undefined {
  return map.mode === 'decoder' ? downstreamPort % queues : map.table[downstreamPort];
}

function checkReverseMap(m: ReverseMap | undefined, queues: number, field: string): ReverseMap {
  if (m === undefined) return { mode: 'decoder' };
  const mode = oneOf((m as { mode?: unknown }).mode, ['decoder', 'table'], `${field}.mode`, 'or');
  if (mode === 'decoder') return { mode };
  const table = (m as { table?: unknown }).table;
  if (!Array.isArray(table)) throw new RangeError(`${field}.table must be an array of queue numbers`);
  return { mode, table: table.map((q: unknown, i) => integerInRange(q, 0, queues - 1, `${field}.table[${i}]`)) };
}

function checkPort(p: VoqReceiverPortConfig, n: number, format: VoqFormat): ResolvedPortConfig {
  const field = `ports[${n}]`;
  const queues = integerInRange(orDefault(p.queues, DEFAULT_QUEUES), 1, MAX_QUEUES, `${field}.queues`);
  const perVcStaging = booleanFlag(orDefault(p.perVcStaging, false), `${field}.perVcStaging`);
  const enableVcLinking = booleanFlag(orDefault(p.enableVcLinking, false), `${field}.enableVcLinking`);
  // §3.2 "If either device does not have a corresponding capability, the linking capability shall be disabled in the CSR."
  if (enableVcLinking && !perVcStaging) throw new RangeError(`${field}.enableVcLinking must be false without perVcStaging`);
  if (format === 'seed' && p.rxPortGroupSize !== undefined) throw new RangeError(`${field}.rxPortGroupSize must be absent in the seed format`);
  return {
    queues,
    reverseMap: checkReverseMap(p.reverseMap, queues, `${field}.reverseMap`),
    reception: booleanFlag(orDefault(p.reception, true), `${field}.reception`),
    perVcStaging,
    enableVcLinking,
    rxPortGroupSize: integerInRange(orDefault(p.rxPortGroupSize, 0), 0, 6, `${field}.rxPortGroupSize`),
  };
}

function checkRoutes(routes: unknown, ports: readonly ResolvedPortConfig[], maxDownstream: number): VoqRoute[] {
  if (!Array.isArray(routes)) throw new RangeError('routes must be an array');
  const seen = new Set<number>();
  return routes.map((r: VoqRoute, i) => {
    const destID = nonNegativeInteger(r.destID, `routes[${i}].destID`);
    if (seen.has(destID)) throw new RangeError(`routes[${i}].destID must be unique`);
    seen.add(destID);
    const localPort = integerInRange(r.localPort, 0, ports.length - 1, `routes[${i}].localPort`);
    const downstreamPort = integerInRange(r.downstreamPort, 0, maxDownstream - 1, `routes[${i}].downstreamPort`);
    const port = ports[localPort] as ResolvedPortConfig;
    // §2.3 the reverse map must take the port "to the same queue that the forward lookup used".
    if (reverseMapQueue(port.reverseMap, port.queues, downstreamPort) === undefined) {
      throw new RangeError(`routes[${i}].downstreamPort must have a queue in ports[${localPort}].reverseMap.table`);
    }
    return { destID, localPort, downstreamPort };
  });
}

export function resolveConfig(config: VoqReceiverConfig): ResolvedVoqReceiverConfig {
  const format = oneOf(orDefault(config.format, 'seed'), VOQ_FORMATS, 'format', 'or');
  const given: unknown = config.ports;
  if (!Array.isArray(given) || given.length === 0) throw new RangeError('ports must be a non-empty array');
  const ports = config.ports.map((p, n) => checkPort(p, n, format));
  const symbol = symbolForm(config.symbol, format);
  return {
    format,
    ports,
    routes: checkRoutes(config.routes, ports, symbol === 'cs64' ? MAX_DOWNSTREAM_PORTS_CS64 : MAX_DOWNSTREAM_PORTS),
    vcs: oneOf(orDefault(config.vcs, 0), [0, 1, 2, 4, 8], 'vcs', 'or'),
    clearOnLinkUp: booleanFlag(orDefault(config.clearOnLinkUp, true), 'clearOnLinkUp'),
    symbol,
  };
}
