import { booleanFlag, integerInRange, oneOf, positiveInteger } from '../engine/config-checks.ts';
import type { Conveyance, DiscoveryConfig } from './discovery-types.ts';

/** Defaults in nanoseconds, the unit of `riodp model` and the TCP fabric. */
export const DEFAULT_READ_TIMEOUT = 100_000_000;
/** The default REQUEST_RETRY_PERIOD (§3.5.3.4: 250 ms) ... */
export const DEFAULT_POLL_PERIOD = 250_000_000;
/** ... and four of them make the default REQUEST_TIMEOUT_PERIOD (§3.5.3.5: 1 s). */
export const DEFAULT_POLL_LIMIT = 4;
export const DEFAULT_PARALLEL = 4;
export const DEFAULT_MAX_EF_BLOCKS = 256;
/** An end point answers MAINTENANCE requests whatever their hop_count; 0xFF passes every switch. */
export const DEFAULT_HOP = 0xff;

/** A discovery target with its hop_count filled in. */
export interface ResolvedTarget {
  readonly node: number;
  readonly hop: number;
}

/** The configuration of a `SessionDiscovery` with defaults applied, as its snapshot shows it. */
export interface ResolvedDiscoveryConfig {
  readonly targets: readonly ResolvedTarget[];
  readonly scan: { readonly first: number; readonly last: number; readonly hop: number } | null;
  readonly self: number | null;
  readonly deviceIdBits: 8 | 16 | 32;
  readonly conveyances: readonly Conveyance[];
  readonly validation: boolean;
  readonly readTimeout: number;
  readonly pollPeriod: number;
  readonly pollLimit: number;
  readonly parallel: number;
  readonly maxEfBlocks: number;
  readonly tagCos: number;
  readonly attributeProtoID: number;
  readonly waitForLock: boolean;
}

export function checkNode(v: unknown, bits: number, field: string): number {
  return integerInRange(v, 0, 2 ** bits - 1, field);
}

export function checkHop(v: unknown, field: string): number {
  return v === undefined ? DEFAULT_HOP : integerInRange(v, 0, 0xff, field);
}

export function resolveDiscoveryConfig(c: DiscoveryConfig): ResolvedDiscoveryConfig {
  const deviceIdBits = oneOf(c.deviceIdBits ?? 16, [8, 16, 32], 'deviceIdBits', 'or');
  const targets = (c.targets ?? []).map((t, i) => ({ node: checkNode(t.node, deviceIdBits, `targets[${i}].node`), hop: checkHop(t.hop, `targets[${i}].hop`) }));
  let scan: ResolvedDiscoveryConfig['scan'] = null;
  if (c.scan !== undefined) {
    const first = checkNode(c.scan.first, deviceIdBits, 'scan.first');
    const last = checkNode(c.scan.last, deviceIdBits, 'scan.last');
    if (last < first) throw new RangeError('scan.last must be at least scan.first');
    scan = { first, last, hop: checkHop(c.scan.hop, 'scan.hop') };
  }
  const conveyances = c.conveyances ?? ['type11', 'type9'];
  if (!Array.isArray(conveyances) || conveyances.length === 0) throw new RangeError('conveyances must list type11, type9 or both');
  conveyances.forEach((v, i) => { oneOf(v, ['type11', 'type9'], `conveyances[${i}]`, 'or'); });
  return {
    targets,
    scan,
    self: c.self === undefined ? null : checkNode(c.self, deviceIdBits, 'self'),
    deviceIdBits,
    conveyances,
    validation: booleanFlag(c.validation ?? false, 'validation'),
    readTimeout: positiveInteger(c.readTimeout ?? DEFAULT_READ_TIMEOUT, 'readTimeout'),
    pollPeriod: positiveInteger(c.pollPeriod ?? DEFAULT_POLL_PERIOD, 'pollPeriod'),
    pollLimit: integerInRange(c.pollLimit ?? DEFAULT_POLL_LIMIT, 0, 1_000_000, 'pollLimit'),
    parallel: positiveInteger(c.parallel ?? DEFAULT_PARALLEL, 'parallel'),
    maxEfBlocks: positiveInteger(c.maxEfBlocks ?? DEFAULT_MAX_EF_BLOCKS, 'maxEfBlocks'),
    tagCos: integerInRange(c.tagCos ?? 0, 0, 0xff, 'tagCos'),
    attributeProtoID: integerInRange(c.attributeProtoID ?? 0, 0, 0xffff, 'attributeProtoID'),
    waitForLock: booleanFlag(c.waitForLock ?? true, 'waitForLock'),
  };
}
