import type { ArbRxConfig } from './arbitration-types.ts';
import type { MessageFlow } from './flows.ts';

/** 1 ms in the CLI's nanoseconds: many fabric round trips before a silent resource is asked back. */
export const DEFAULT_IDLE_TIMEOUT = 1_000_000;

/** The validated configuration of an `ArbRx`, defaults filled in. */
export interface ResolvedArbRxConfig {
  readonly localID: number;
  readonly tt: number;
  readonly resources: number;
  readonly enabled: boolean;
  readonly whenBusy: 'queue' | 'reject';
  /** null = unbounded. */
  readonly maxQueued: number | null;
  readonly idleTimeout: number | null;
  readonly responseFlow: MessageFlow;
}

/** Part 3 §2.4: tt 0b00 Dev8, 0b01 Dev16, 0b10 Dev32 device IDs (0b11 reserved). */
export function deviceIdBits(tt: number): number {
  return tt === 0 ? 8 : tt === 1 ? 16 : 32;
}

/** Whether `id` can be written in the destinationID field of a packet of transport type `tt`. */
export function fitsDeviceId(id: unknown, tt: number): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 && id < 2 ** deviceIdBits(tt);
}

function nonNegativeInteger(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new RangeError(`${field} must be a non-negative integer`);
  return v;
}

function responseFlow(f: MessageFlow | undefined): MessageFlow {
  // §2.4.2 "marking flow control packets with a "prio" field value of 0b11, and a "CRF" bit value
  // of 0b1"; rule 12 lets XON/XOFF(ARB) go "in any flow (such as a high priority channel)".
  if (f === undefined) return { prio: 3, crf: 1 };
  if (!Number.isInteger(f.prio) || f.prio < 0 || f.prio > 3) throw new RangeError('responseFlow.prio must be an integer from 0 to 3');
  if (f.crf !== 0 && f.crf !== 1) throw new RangeError('responseFlow.crf must be 0 or 1');
  return { prio: f.prio, crf: f.crf };
}

export function resolveArbRxConfig(c: ArbRxConfig): ResolvedArbRxConfig {
  const tt = c.tt ?? 0;
  if (tt !== 0 && tt !== 1 && tt !== 2) throw new RangeError('tt must be 0, 1 or 2');
  if (!fitsDeviceId(c.localID, tt)) throw new RangeError(`localID must be an integer from 0 to ${2 ** deviceIdBits(tt) - 1}`);
  // Configurations also arrive as JSON (riodp model): checked at run time, not only by the type.
  const enabled: unknown = c.enabled ?? true;
  if (typeof enabled !== 'boolean') throw new RangeError('enabled must be a boolean');
  const whenBusy: unknown = c.whenBusy ?? 'queue';
  if (whenBusy !== 'queue' && whenBusy !== 'reject') throw new RangeError("whenBusy must be 'queue' or 'reject'");
  const idle = c.idleTimeout === undefined ? DEFAULT_IDLE_TIMEOUT : c.idleTimeout;
  if (idle !== null && (!Number.isSafeInteger(idle) || idle <= 0)) throw new RangeError('idleTimeout must be a positive integer or null');
  return {
    localID: c.localID,
    tt,
    resources: nonNegativeInteger(c.resources, 'resources'),
    enabled,
    whenBusy,
    maxQueued: c.maxQueued === undefined ? null : nonNegativeInteger(c.maxQueued, 'maxQueued'),
    idleTimeout: idle,
    responseFlow: responseFlow(c.responseFlow),
  };
}
