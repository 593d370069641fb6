import { booleanFlag, deviceIdForTt, fitsDeviceId, integerInRange, orDefault, transportType } from '../engine/config-checks.ts';
import { DS_CONTROL_OFFSET } from '../registers/data-streaming.ts';
import { RegisterSpace } from '../registers/space.ts';
import { MTU_MAX } from '../wire/type9.ts';
import { PDU_MAX, isMtu } from './segment-pdu.ts';
import type { SegmenterConfig } from './segmenter-types.ts';

/** The validated configuration of a `Segmenter`, defaults filled in. */
export interface ResolvedSegmenterConfig {
  readonly sourceID: number;
  readonly tt: number;
  /** The fixed MTU, or null when it is read from `registers`. */
  readonly mtu: number | null;
  readonly registers: RegisterSpace | null;
  readonly maxPdu: ReadonlyMap<number, number>;
  readonly defaultMaxPdu: number;
  readonly crfSupported: boolean;
}

/** Without `mtu` or `registers`: the largest MTU of Table 5-6, the fewest segments per PDU. */
export const DEFAULT_MTU = MTU_MAX;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

function maxPduEntries(m: SegmenterConfig['maxPdu']): [unknown, unknown, string][] {
  if (m === undefined) return [];
  if (m instanceof Map) return [...(m as ReadonlyMap<unknown, unknown>)].map(([k, v]) => [k, v, String(k)]);
  if (typeof m !== 'object' || Array.isArray(m)) throw new RangeError('maxPdu must be a mapping of destination IDs to byte counts');
  return Object.entries(m as Record<string, unknown>).map(([k, v]) => [DECIMAL.test(k) ? Number(k) : k, v, k]);
}

function resolveMaxPdu(m: SegmenterConfig['maxPdu'], tt: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const [key, value, name] of maxPduEntries(m)) {
    if (!fitsDeviceId(key, tt)) throw new RangeError(`maxPdu keys must be device IDs for tt ${tt} (got ${name})`);
    out.set(key, integerInRange(value, 1, PDU_MAX, `maxPdu.${name}`));
  }
  return out;
}

export function resolveSegmenterConfig(config: SegmenterConfig): ResolvedSegmenterConfig {
  const tt = transportType(orDefault(config.tt, 0), 'tt');
  const sourceID = deviceIdForTt(orDefault(config.sourceID, 0), tt, 'sourceID');
  let mtu: number | null = null;
  let registers: RegisterSpace | null = null;
  if (config.registers !== undefined) {
    if (config.mtu !== undefined) throw new RangeError('mtu must be absent when registers is given (the MTU is read from the register)');
    if (!((config.registers as unknown) instanceof RegisterSpace)) throw new RangeError('registers must be a RegisterSpace');
    if (config.registers.definition(DS_CONTROL_OFFSET) === undefined) {
      throw new RangeError('registers must define the Data Streaming Logical Layer Control CSR (0x48)');
    }
    registers = config.registers;
  } else {
    const m = orDefault(config.mtu, DEFAULT_MTU);
    if (!isMtu(m)) throw new RangeError('mtu must be a multiple of 4 from 32 to 256');
    mtu = m;
  }
  return {
    sourceID,
    tt,
    mtu,
    registers,
    maxPdu: resolveMaxPdu(config.maxPdu, tt),
    defaultMaxPdu: integerInRange(orDefault(config.defaultMaxPdu, PDU_MAX), 1, PDU_MAX, 'defaultMaxPdu'),
    crfSupported: booleanFlag(orDefault(config.crfSupported, true), 'crfSupported'),
  };
}
