import type { SwitchCoreSnapshot } from '../../node/switch/element-types.ts';
import type { RandomStreams } from '../kernel/random.ts';
import type { CrossbarSnapshot } from './switch-crossbar.ts';
import type { Probe } from './types.ts';

/** A simulated switch's counters (switch.ts), its options and the names it reports under. */
export const SWITCH_COUNTER_NAMES = [
  'received', 'forwarded', 'noRoute', 'transfers', 'ccpSent', 'ccpDropped', 'congestionEvents',
  'voqSymbolsSent', 'voqSymbolsReceived', 'voqBlocked', 'voqUnblocked', 'voqIgnored', 'voqEvents',
] as const;

export type SwitchCounterName = (typeof SWITCH_COUNTER_NAMES)[number];

/** A simulated switch's `snapshot()`: the switch element's core state and its crossbar's timing, plain JSON. */
export interface SimSwitchSnapshot extends SwitchCoreSnapshot {
  readonly timing: CrossbarSnapshot;
}

export interface SwitchOptions {
  /** SimPacket IDs for the packets the switch makes (CCPs, maintenance responses): the simulation's shared counter. */
  readonly ids: { nextPacketId(): number };
  readonly probe?: Probe;
  /** Needed for `arbitration: 'random'` (stream `switch:<name>:arb`). */
  readonly streams?: RandomStreams;
}

export const NO_PROBE: Probe = { occupancy() {}, count() {}, xoff() {} };
