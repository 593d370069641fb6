import type { RandomStreams } from '../kernel/random.ts';
import type { Probe } from './types.ts';

/** A simulated switch's counters (switch.ts), its options and the names it reports under. */
export const SWITCH_COUNTER_NAMES = [
  'received', 'forwarded', 'noRoute', 'transfers', 'ccpSent', 'ccpDropped', 'congestionEvents',
  'voqSymbolsSent', 'voqSymbolsReceived', 'voqBlocked', 'voqUnblocked', 'voqIgnored', 'voqEvents',
] as const;

export type SwitchCounterName = (typeof SWITCH_COUNTER_NAMES)[number];

export interface SwitchOptions {
  /** SimPacket IDs for the packets the switch makes (CCPs, maintenance responses): the simulation's shared counter. */
  readonly ids: { nextPacketId(): number };
  readonly probe?: Probe;
  /** Needed for `arbitration: 'random'` (stream `switch:<name>:arb`). */
  readonly streams?: RandomStreams;
}

export const NO_PROBE: Probe = { occupancy() {}, count() {}, xoff() {} };
