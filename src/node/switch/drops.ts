import type { SwitchEvent } from './types.ts';

const hex = (n: number): string => `0x${n.toString(16)}`;

/**
 * The drop, if `event` (reported while the switch handled a packet received on `port`) says the
 * switch discarded that packet on arrival: the text of its capture comment (docs/pcapng.md §5
 * `drop: <reason>`). Drops of packets already queued (`port-down`, a flushed output) and of the
 * switch's own packets (`ccp-dropped`, a response to a port that is down) are not the received
 * packet's: null, as for every event that is not a drop.
 */
export function receivedDrop(event: SwitchEvent, port: number): string | null {
  if (!('port' in event) || event.port !== port) return null;
  switch (event.name) {
    case 'no-route':
      return `no-route: no route for destinationID ${hex(event.destinationID)} (ftype ${event.ftype})`;
    case 'source-rejected':
      return `source-rejected: port ${port} does not accept ID ${hex(event.id)} (ftype ${event.ftype})`;
    case 'hold-overrun':
      return `hold-overrun: port ${port}'s input buffer was full (ftype ${event.ftype}, destinationID ${hex(event.destinationID)})`;
    case 'maintenance-dropped':
      return `maintenance-dropped: over port ${port}'s maintenance budget (${event.transaction} from ${hex(event.sourceID)})`;
    case 'maintenance-unsupported':
      return `maintenance-unsupported: ${event.transaction} from ${hex(event.sourceID)} is not performed`;
    default:
      return null;
  }
}
