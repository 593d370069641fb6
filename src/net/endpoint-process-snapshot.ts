/**
 * The state of a running `riodp endpoint` process (endpoint-process.ts `EndpointProcess.snapshot()`):
 * its end point element's snapshot with what the process holds around it.
 */
import type { FabricEndpointSnapshot } from '../node/fabric-endpoint-types.ts';
import type { PeerClockCounters } from './peer-clock.ts';
import type { PendingTimer } from './timer-driver.ts';

/** Who armed a timer of the process: the end point element, the application API, or the process itself. */
export type EndpointProcessTimerKey = 'engine' | 'api' | 'process';

/**
 * `EndpointProcess.snapshot()`: the `FabricEndpoint` snapshot, and the process's packets held for
 * nodes not yet discovered, packets not yet sent, its clock and its timers, as plain JSON (a copy).
 */
export interface EndpointProcessSnapshot extends Omit<FabricEndpointSnapshot, 'held'> {
  /**
   * Nodes whose packets wait for discovery to report them (api-contacts.ts `ContactGate`),
   * ascending. It takes the place of the element's own `held` (its count of packets held for
   * stopped flows), as the process has always reported it.
   */
  readonly held: readonly number[];
  /** Packets the element gave that the link has not taken yet. */
  readonly unsent: number;
  /** The process clock's exclusions, and whether it watches the link for silence (peer-clock.ts). */
  readonly clock: PeerClockCounters & { readonly watching: boolean };
  /** Timers armed on the process's timer driver, earliest first. */
  readonly timers: readonly PendingTimer<EndpointProcessTimerKey>[];
}
