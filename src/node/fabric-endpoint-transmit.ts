/**
 * The fabric end point's transmit opportunity on the object path (fabric-endpoint.ts `pull`): what
 * goes out, in which order, and what is held because its flow is stopped (Part 9 §2.4.5 rule 1
 * "A XOFF flow control transaction stops all transaction request flows of the specified priority
 * and lower targeted to the specified destination").
 *
 * Separate from fabric-endpoint.ts: the order of the sources and the hold rules (Part 10 §2.4
 * rule 1: a packet never passes held packets of its flow) are one policy, tested as one
 * (fabric-endpoint.prop.test.ts); the end point wires it to the element, the session stack and
 * its outputs.
 */
import type { Counters, Time } from '../engine/contract.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { SessionFeatures } from './endpoint/session-features.ts';
import type { SessionGates } from './endpoint/session-gates.ts';
import type { FabricTm } from './endpoint/tm-streams.ts';
import { flowSlot, stoppableFlow } from './fabric-endpoint-hold.ts';
import type { FlowBook, HeldPackets } from './fabric-endpoint-hold.ts';
import type { FabricCounter, FabricEndpointOutput, FabricPacket } from './fabric-endpoint-types.ts';
import type { EndpointPacket } from './session-endpoint-types.ts';

/** What the transmit side works on: the end point's own, shared with it. */
export interface TransmitParts {
  readonly held: HeldPackets;
  readonly book: FlowBook;
  readonly gates: SessionGates;
  readonly counters: Counters<FabricCounter>;
  readonly tm: FabricTm | undefined;
  readonly arb: SessionFeatures | undefined;
  readonly crfSupported: boolean;
}

export interface TransmitHost {
  /** Whether the element's CCP reaction lets the flow send (Part 9 §2.4.5; endpoint/core.ts `flowOpen`). */
  flowOpen(destinationID: number, flowID: FlowIdLabel): boolean;
  /** One `pull` of the session stack, its other outputs passed on; its packet, if any. */
  pullSession(): EndpointPacket | undefined;
  output(o: FabricEndpointOutput): void;
}

export class FabricTransmit {
  readonly #p: TransmitParts;
  readonly #host: TransmitHost;
  readonly #maySend = (destinationID: number, flowID: FlowIdLabel, packet?: FabricPacket): boolean =>
    this.#host.flowOpen(destinationID, flowID) && (packet === undefined || this.#p.arb?.mustHold(packet) !== true);

  constructor(parts: TransmitParts, host: TransmitHost) {
    this.#p = parts;
    this.#host = host;
  }

  /**
   * One transmit opportunity: up to `n` (≥ 1) packets. Held packets whose flow may send go first;
   * then TM packets whose flow may send (Part 10 §3.4.5 rule 1: in the data's flow, so Part 9
   * stops them with it); then the session stack's packets, each held when its flow is stopped, or
   * when packets of its flow are still held (they were pulled first and must leave first).
   */
  pull(n: number, now: Time): void {
    const { held, tm, arb, counters } = this.#p;
    let sent = 0;
    while (sent < n) {
      const released = held.release(this.#maySend);
      if (released !== undefined) {
        counters.released++;
        this.#send(released, now);
        sent++;
        continue;
      }
      const t = tm?.next(this.#maySend);
      if (t !== undefined) {
        this.#send(t, now);
        sent++;
        continue;
      }
      // Part 9 flow arbitration messages: a RELEASE travels in its data's flow and waits with it (§2.4.7 rule 12).
      const a = arb?.next();
      if (a !== undefined) {
        if (this.#holds(a)) continue;
        this.#send(a, now);
        sent++;
        continue;
      }
      if (held.full) break;
      const packet = this.#host.pullSession();
      if (packet === undefined) break;
      tm?.pulled(packet);
      if (this.#holds(packet)) continue;
      this.#send(packet, now);
      sent++;
    }
    if (sent === 0) {
      if (held.total > 0) counters.blockedPulls++;
      this.#host.output({ kind: 'idle' });
    }
  }

  /** Whether `packet` goes into the hold (and does so). */
  #holds(packet: FabricPacket): boolean {
    const { held, book, gates, counters, arb, crfSupported } = this.#p;
    const flowID = stoppableFlow(packet, crfSupported);
    if (flowID === undefined) return false;
    const dest = packet.destinationID;
    const slot = flowSlot(dest, flowID);
    book.note(slot, dest, flowID);
    if (held.count(slot) === 0 && this.#host.flowOpen(dest, flowID) && arb?.mustHold(packet) !== true) return false;
    held.hold(slot, dest, flowID, packet);
    counters.held++;
    // With bounded counters a destination no CCP named may share a stopped counter (ccp-endpoint.ts):
    // no flow change told of it, so it is gated when its first packet is held.
    gates.regate(dest);
    return true;
  }

  #send(packet: FabricPacket, now: Time): void {
    this.#host.output({ kind: 'packet', packet });
    this.#p.arb?.sent(packet, now);
  }
}
