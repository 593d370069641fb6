import type { RandomStreams } from '../kernel/random.ts';
import type { Probe } from './types.ts';

/** A switch's counters, its options and the names it reports under (switch.ts). */
export type SwitchCounterName =
  | 'received' | 'forwarded' | 'noRoute' | 'transfers' | 'ccpSent' | 'ccpDropped' | 'congestionEvents'
  | 'voqSymbolsSent' | 'voqSymbolsReceived' | 'voqBlocked' | 'voqUnblocked' | 'voqIgnored' | 'voqEvents';

export const COUNTER_NAMES: readonly SwitchCounterName[] = [
  'received', 'forwarded', 'noRoute', 'transfers', 'ccpSent', 'ccpDropped', 'congestionEvents',
  'voqSymbolsSent', 'voqSymbolsReceived', 'voqBlocked', 'voqUnblocked', 'voqIgnored', 'voqEvents',
];

/** Names under which a switch reports to `Probe.count` (summed over the fabric by the results). */
export const SWITCH_PROBE_COUNTS = {
  noRoute: 'switch.noRoute',
  ccpSent: 'ccp.sent',
  ccpDropped: 'ccp.dropped',
  voqSymbolsSent: 'voq.symbolsSent',
  voqSymbolsReceived: 'voq.symbolsReceived',
  voqBlocked: 'voq.blocked',
} as const;

export interface SwitchOptions {
  /** SimPacket IDs for the CCPs the switch makes (the simulation's shared counter). */
  readonly ids: { nextPacketId(): number };
  readonly probe?: Probe;
  /** Needed for `arbitration: 'random'` (stream `switch:<name>:arb`). */
  readonly streams?: RandomStreams;
}

export const NO_PROBE: Probe = { occupancy() {}, count() {}, xoff() {} };
