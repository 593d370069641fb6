import { booleanFlag, integerInRange, oneOf, orDefault, positiveIntegerOrNull } from '../engine/config-checks.ts';
import { countFromField } from '../registers/data-streaming.ts';
import { VC_COUNTS } from '../wire/flow-id.ts';
import type { VcCount } from '../wire/flow-id.ts';
import { MTU_MAX } from '../wire/type9.ts';
import { isMtu } from './segment-pdu.ts';
import type { ReassemblerConfig } from './reassembler-types.ts';

/** The validated configuration of a `Reassembler`, defaults filled in. */
export interface ResolvedReassemblerConfig {
  readonly mtu: number;
  /** SegSupport as a count of contexts, 1..65536. */
  readonly contexts: number;
  readonly destinationInContext: boolean;
  readonly idleTimeout: number | null;
  readonly vcCount: VcCount;
  readonly crfSupported: boolean;
  /** Buffers kept for reuse; 0: recycling off. */
  readonly bufferPool: number;
}

/** Recycled buffers kept at most: 64 MiB of 64 KiB PDUs. */
const BUFFER_POOL_MAX = 1024;

/** "0x0000 - 64k segmentation contexts" (Table 5-5): the CAR's largest count, also given as 65536. */
const SEG_SUPPORT_MAX = 0x10000;

export function checkMtu(v: unknown, field: string): number {
  if (!isMtu(v)) throw new RangeError(`${field} must be a multiple of 4 from 32 to 256`);
  return v;
}

export function resolveReassemblerConfig(config: ReassemblerConfig): ResolvedReassemblerConfig {
  const segSupport = integerInRange(orDefault(config.segSupport, 0), 0, SEG_SUPPORT_MAX, 'segSupport');
  return {
    mtu: checkMtu(orDefault(config.mtu, MTU_MAX), 'mtu'),
    contexts: countFromField(segSupport),
    destinationInContext: booleanFlag(orDefault(config.destinationInContext, false), 'destinationInContext'),
    idleTimeout: positiveIntegerOrNull(orDefault(config.idleTimeout, null), 'idleTimeout'),
    vcCount: oneOf(orDefault(config.vcCount, 0), VC_COUNTS, 'vcCount', 'or'),
    crfSupported: booleanFlag(orDefault(config.crfSupported, true), 'crfSupported'),
    bufferPool: integerInRange(orDefault(config.bufferPool, 0), 0, BUFFER_POOL_MAX, 'bufferPool'),
  };
}
