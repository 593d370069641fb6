/**
 * MAINTENANCE both ways for an end point's session stack (session-endpoint.ts): requests from the
 * network answered from its register space (Part 1 §4.1.10), and discovery reading other end
 * points' registers (Annex 2 §3.2 "an end point must first establish which end points support
 * data streams, and discover how to contact their management process"): its `read`s leave as
 * Type 8 read requests, the responses come back to it as its `read-result`s, and each
 * `participant` it reports becomes the session engine's contact of that node (§3.3 "the end point
 * is then expected to contact remote end points as appropriate").
 *
 * Separate from session-endpoint.ts: Type 8 and discovery never meet the conveyances; they share
 * only the transmit queue (a Type 8 packet to send) and the session engine (a contact).
 */
import type { Counters, Time } from '../engine/contract.ts';
import { DS_CONTROL_OFFSET, getMtuBytes } from '../registers/data-streaming.ts';
import type { RegisterSpace } from '../registers/space.ts';
import type { SessionDiscovery } from '../session/discovery.ts';
import type { DiscoveryInput, DiscoveryOutput, DiscoveryTimerName, ReadOutput } from '../session/discovery-types.ts';
import type { ContactInput } from '../session/types.ts';
import type { Packet } from '../wire/packet.ts';
import type { Type8Packet } from '../wire/type8.ts';
import { answerMaintenance, MaintenanceReads } from './maintenance.ts';
import type { ReadsConfig } from './maintenance.ts';
import type { TransmitQueue } from './transmit-queue.ts';
import type { DiscoverCommand, EndpointCounter, EndpointEvent, SessionEndpointOutput } from './session-endpoint-types.ts';

export interface MaintenanceHost {
  /** Discovery's events and timers, as the end point's outputs. */
  output(o: SessionEndpointOutput): void;
  /** A participant discovery reported: the session engine's contact of that node. */
  contact(input: ContactInput): void;
  event(detail: EndpointEvent): void;
  unsupported(p: Packet, reason: string): void;
  /** A MAINTENANCE write changed the registers at [offset, offset + bytes): what they control acts on it. */
  written(offset: number, bytes: number): void;
}

export class EndpointMaintenance {
  readonly discovery: SessionDiscovery;
  readonly reads: MaintenanceReads;
  readonly #space: RegisterSpace;
  /** Responses and read requests leave by its Type 8 queue. */
  readonly #tx: TransmitQueue;
  readonly #nodeId: number;
  readonly #counters: Counters<EndpointCounter>;
  readonly #host: MaintenanceHost;

  constructor(discovery: SessionDiscovery, reads: ReadsConfig, space: RegisterSpace, tx: TransmitQueue, counters: Counters<EndpointCounter>, host: MaintenanceHost) {
    this.discovery = discovery;
    this.reads = new MaintenanceReads(reads);
    this.#space = space;
    this.#tx = tx;
    this.#nodeId = reads.nodeId;
    this.#counters = counters;
    this.#host = host;
  }

  /** Part 1 §4.1.10: requests are answered from this end point's registers; responses answer discovery's reads. */
  packet(p: Type8Packet, now: Time): void {
    if (p.destinationID !== this.#nodeId) {
      this.#counters.notForUs++;
      this.#host.event({ event: 'not-for-us', ftype: p.ftype, destinationID: p.destinationID, sourceID: p.sourceID });
      return;
    }
    switch (p.transactionName) {
      case 'MAINTENANCE_READ_REQUEST':
      case 'MAINTENANCE_WRITE_REQUEST': {
        const a = answerMaintenance(this.#space, p);
        if (a.ok) {
          this.#counters[p.transactionName === 'MAINTENANCE_READ_REQUEST' ? 'maintenanceReads' : 'maintenanceWrites']++;
          // A word write carries a double-word, the word in the lane wdptr names (maintenance.ts).
          if (p.transactionName === 'MAINTENANCE_WRITE_REQUEST') this.#host.written(p.byteOffset, Math.min(Number(p.byteCount), p.payload.length));
        } else {
          this.#counters.maintenanceErrors++;
          this.#host.event({ event: 'maintenance-error', sourceID: p.sourceID, transaction: p.transactionName, offset: p.byteOffset, reason: a.reason });
        }
        if (a.response !== undefined) this.#tx.addType8(a.response);
        return;
      }
      case 'MAINTENANCE_READ_RESPONSE':
      case 'MAINTENANCE_WRITE_RESPONSE': {
        this.#counters.readResponses++;
        const result = this.reads.response(p);
        if (result === undefined) {
          this.#counters.staleResponses++;
          this.#host.event({ event: 'stale-maintenance-response', sourceID: p.sourceID, targetTID: p.targetTID });
        } else {
          this.#fromDiscovery(this.discovery.handle(result, now), now);
        }
        return;
      }
      default:
        this.#host.unsupported(p, `${p.transactionName} is not served by an end point's session management`);
    }
  }

  discover(input: DiscoverCommand, now: Time): void {
    const d: DiscoveryInput = input.node === undefined ? { kind: 'start' } : { kind: 'discover', node: input.node, ...(input.hop === undefined ? {} : { hop: input.hop }) };
    this.#fromDiscovery(this.discovery.handle(d, now), now);
  }

  /** A timer of discovery's (its name without the `discovery:` prefix, endpoint-input.ts splitTimerName). */
  timer(name: string, now: Time): void {
    this.#fromDiscovery(this.discovery.handle({ kind: 'timer', name: name as DiscoveryTimerName }, now), now);
    // A read whose time is up was given up by discovery; its transaction ID is free again.
    this.reads.expire(now);
  }

  #fromDiscovery(outs: readonly DiscoveryOutput[], now: Time): void {
    for (const o of outs) {
      switch (o.kind) {
        case 'read':
          this.#read(o, now);
          break;
        case 'event':
          this.#host.output({ kind: 'event', source: 'discovery', at: o.at, detail: o.detail });
          if (o.detail.event === 'participant') this.#host.contact({ kind: 'contact', node: o.detail.node, contact: o.detail.contact });
          break;
        case 'timer':
          this.#host.output({ kind: 'timer', name: `discovery:${o.name}`, at: o.at });
          break;
      }
    }
  }

  /** A register read of discovery as a MAINTENANCE read request; one that cannot be sent is its read error. */
  #read(o: ReadOutput, now: Time): void {
    const r = this.reads.request(o, now);
    if (r.ok) {
      this.#counters.readRequests++;
      this.#tx.addType8(r.packet);
    } else {
      this.#fromDiscovery(this.discovery.handle({ kind: 'read-result', tag: o.tag, error: r.error }, now), now);
    }
  }
}

/**
 * The MTU a MAINTENANCE write of [offset, offset + bytes) leaves in the Data Streaming Logical
 * Layer Control CSR, for the Type 9 conveyance's segmenter and reassembler (its `set-mtu`): Part 10
 * §5.5.1 Table 5-6, the MTU "controls the data payload size for segments of an encapsulated PDU".
 * Null when the write did not touch the CSR, or left a reserved encoding there: that is stored as
 * written (docs/conformance.md, register decisions: "device behavior is implementation specific",
 * rev 4.1 §5.3) and the engines keep the last MTU they had.
 */
export function mtuWritten(space: RegisterSpace, offset: number, bytes: number): number | null {
  if (offset + bytes <= DS_CONTROL_OFFSET || offset >= DS_CONTROL_OFFSET + 4 || space.definition(DS_CONTROL_OFFSET) === undefined) return null;
  return getMtuBytes(space);
}
