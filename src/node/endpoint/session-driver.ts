/**
 * How the session feature (session.ts) drives its end point's `SessionEndpoint`
 * (src/node/session-endpoint.ts) and puts its packets on the simulated link.
 *
 * `SessionEndpoint` is pull-based: "Packets leave only when pulled". The driver gives it transmit
 * opportunities until it is idle after every input, and the packets go to the end point's control
 * queues, which order them by priority ahead of data on the link. Each is a control packet of kind
 * 'smp' whose `wire` is the decoded packet and whose octets are the codec's length in LP-Serial
 * framing (Part 6 §2.3–§2.5: CRC and pad).
 */
import type { Counters } from '../../engine/contract.ts';
import type { SessionEndpoint } from '../session-endpoint.ts';
import type { EndpointEventOutput, EndpointPacket, SessionEndpointInput, SessionEndpointOutput } from '../session-endpoint-types.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import type { FeatureHost } from './feature.ts';
import type { Priority } from './packet.ts';

export const SESSION_FEATURE_COUNTERS = [
  'packetsSent', 'bytesSent', 'packetsReceived',
  /** Sent by ftype: Type 8 MAINTENANCE, Type 11 MESSAGE, Type 13 RESPONSE, Type 9 segments. */
  'maintenanceSent', 'messagesSent', 'responsesSent', 'segmentsSent',
  /** Transmit streams opened (ACCEPT received) and receive streams accepted. */
  'opened', 'accepted',
  'refused', 'unsupported', 'notParticipating', 'unreachable', 'timeouts', 'closed',
  /** Flows let go by an open stream; their setup times (flow created → stream open), ps. */
  'flowsOpened', 'setupTotal', 'setupMax',
  /** Session packets and inputs rejected as bad input (counted, never thrown). */
  'ignored',
] as const;
export type SessionFeatureCounter = (typeof SESSION_FEATURE_COUNTERS)[number];

const PULL: SessionEndpointInput = { kind: 'pull', max: 16 };

export class SessionDriver {
  readonly #host: FeatureHost;
  readonly #counters: Counters<SessionFeatureCounter>;
  readonly #se: SessionEndpoint | null;
  readonly #onEvent: (o: EndpointEventOutput, now: number) => void;
  readonly #inbox: SessionEndpointInput[] = [];
  #busy = false;

  constructor(host: FeatureHost, counters: Counters<SessionFeatureCounter>, se: SessionEndpoint | null, onEvent: (o: EndpointEventOutput, now: number) => void) {
    this.#host = host;
    this.#counters = counters;
    this.#se = se;
    this.#onEvent = onEvent;
  }

  /**
   * Hands `input` to the stack, then pulls until it has nothing to send. Inputs the feature gives
   * while handling the outputs (an OPEN after discovery's participant …) wait in the inbox, so the
   * stack is never re-entered from its own outputs.
   */
  feed(input: SessionEndpointInput, now: number): void {
    const se = this.#se;
    if (se === null) return;
    this.#inbox.push(input);
    if (this.#busy) return;
    this.#busy = true;
    for (;;) {
      const next = this.#inbox.shift();
      if (next !== undefined) {
        this.#apply(se.handle(next, now), now);
        continue;
      }
      if (!this.#apply(se.handle(PULL, now), now) && this.#inbox.length === 0) break;
    }
    this.#busy = false;
  }

  send(packet: EndpointPacket, now: number): void {
    const bytes = serialPacketLength(packet);
    this.#host.sendControl({ kind: 'smp', dst: packet.destinationID, prio: (packet.prio & 3) as Priority, crf: packet.crf === 1 ? 1 : 0, vc: packet.vc, bytes, wire: packet }, now);
    const c = this.#counters;
    c.packetsSent++;
    c.bytesSent += bytes;
    if (packet.ftype === 8) c.maintenanceSent++;
    else if (packet.ftype === 11) c.messagesSent++;
    else if (packet.ftype === 13) c.responsesSent++;
    else c.segmentsSent++;
    this.#host.count('session.packets');
    this.#host.count('session.bytes', bytes);
  }

  /** True when a packet went out. */
  #apply(out: readonly SessionEndpointOutput[], now: number): boolean {
    let sent = false;
    for (const o of out) {
      if (o.kind === 'packet') {
        this.send(o.packet, now);
        sent = true;
      } else if (o.kind === 'timer') {
        this.#host.timer(o);
      } else if (o.kind === 'event') {
        this.#onEvent(o, now);
      }
    }
    return sent;
  }
}
