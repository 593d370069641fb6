import { integerInRange, nonNegativeInteger, oneOf, positiveInteger } from '../engine/config-checks.ts';
import { FLOW_IDS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { flowIndex } from './flows.ts';
import type { CcpEndpointConfig, CounterMapping, CriticalFlow } from './ccp-endpoint-types.ts';

/** A.2 "on the order of several times the width of the fabric": 1 ms in the CLI's nanoseconds. */
export const DEFAULT_ORPHAN_PERIOD = 1_000_000;
export const DEFAULT_COUNTER_BITS = 8;

/** The validated configuration of a `CcpEndpoint`, defaults filled in. */
export interface ResolvedCcpEndpointConfig {
  readonly orphanPeriod: number;
  readonly counterBits: number;
  readonly counters: CounterMapping;
  readonly critical: readonly CriticalFlow[];
  readonly flowArbitration: boolean;
}

function checkCounters(m: CounterMapping | undefined): CounterMapping {
  if (m === undefined) return { mode: 'per-flow' };
  const mode = oneOf((m as { mode?: unknown }).mode, ['per-flow', 'bounded'], 'counters.mode', 'or');
  if (mode === 'per-flow') return { mode };
  return { mode, count: positiveInteger((m as { count?: unknown }).count, 'counters.count') };
}

function checkCritical(list: readonly CriticalFlow[] | undefined): readonly CriticalFlow[] {
  if (list === undefined) return [];
  return list.map((c, i) => {
    if (!Object.hasOwn(FLOW_IDS, c.flowID)) throw new RangeError(`critical[${i}].flowID must be a Table 3-1 flow`);
    if (c.destinationID === undefined) return { flowID: c.flowID };
    return { destinationID: nonNegativeInteger(c.destinationID, `critical[${i}].destinationID`), flowID: c.flowID };
  });
}

export function resolveConfig(config: CcpEndpointConfig): ResolvedCcpEndpointConfig {
  const orphanPeriod = positiveInteger(config.orphanPeriod ?? DEFAULT_ORPHAN_PERIOD, 'orphanPeriod');
  const counterBits = integerInRange(config.counterBits ?? DEFAULT_COUNTER_BITS, 1, 31, 'counterBits');
  return {
    orphanPeriod,
    counterBits,
    counters: checkCounters(config.counters),
    critical: checkCritical(config.critical),
    flowArbitration: config.flowArbitration ?? false,
  };
}

/**
 * §2.4.3 "an end point may choose to ignore a flow control XOFF request for a transaction request
 * flow that it regards as critical": bit i of a mask is flow i of Table 3-1.
 */
export class CriticalFlows {
  readonly #everywhere: number;
  readonly #byDestination = new Map<number, number>();

  constructor(list: readonly CriticalFlow[]) {
    let everywhere = 0;
    for (const c of list) {
      const bit = 1 << flowIndex(c.flowID);
      if (c.destinationID === undefined) everywhere |= bit;
      else this.#byDestination.set(c.destinationID, (this.#byDestination.get(c.destinationID) ?? 0) | bit);
    }
    this.#everywhere = everywhere;
  }

  mask(destinationID: number): number {
    return this.#everywhere | (this.#byDestination.get(destinationID) ?? 0);
  }

  has(destinationID: number, flowID: FlowIdLabel): boolean {
    return (this.mask(destinationID) & (1 << flowIndex(flowID))) !== 0;
  }
}
