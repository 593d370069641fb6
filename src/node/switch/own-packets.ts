import type { Counters } from '../../engine/contract.ts';
import type { CongestionPointOutput } from '../../flow/congestion-point-types.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import type { Packet } from '../../wire/packet.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { Type8ReadRequest, Type8WriteRequest } from '../../wire/type8.ts';
import { untag } from '../endpoint-input.ts';
import { answerMaintenance } from '../maintenance.ts';
import type { SwitchMaintenanceBudget } from './config-types.ts';
import type { SwitchCoreSnapshot } from './element-types.ts';
import { MaintenanceBudget } from './maintenance-budget.ts';
import type { SwitchPacket } from './packet.ts';
import { decide } from './receive.ts';
import type { RouteContext } from './receive.ts';
import { baseDeviceId, isFlowControlParticipant, setAccessPort } from './registers.ts';
import type { RouteTable } from './routes.ts';
import type { OutputStage } from './stages.ts';
import { SWITCH_PROBE_COUNTS } from './types.ts';
import type { BufferProbe, CcpDropReason, SwitchCounter, SwitchEvent, SwitchHost, SwitchProbe } from './types.ts';

/** The parts of the switch element (core.ts) its own packets and reports need. */
export interface OwnPacketsContext<P extends SwitchPacket> {
  readonly host: SwitchHost<P>;
  readonly probe: SwitchProbe;
  readonly counters: Counters<SwitchCounter>;
  readonly routes: RouteTable;
  readonly registers: RegisterSpace;
  readonly lpSerialBase: number;
  readonly outputs: readonly OutputStage<P>[];
  /** 1 for a port whose link is up. */
  readonly up: Uint8Array;
  readonly ccpQueue: number;
  /** The width of the Base Device ID CSR's ID. */
  readonly tt: 0 | 1;
  /** The Base Device ID CSR's value that means "no ID" (config.ts `hasDeviceId`), or −1 when the switch was given one. */
  readonly noId: number;
  /** The probe's reports of each output buffer. */
  readonly outBuf: readonly BufferProbe[];
  /** Requests for the switch each port may have performed; null: no limit. */
  readonly maintenanceBudget: SwitchMaintenanceBudget | null;
  /** The time of the input being handled. */
  now(): number;
}

/**
 * What the switch makes and says of its own accord: the answers to MAINTENANCE requests for it
 * (Part 3 §2.5), the CCPs of its congestion points (Part 9 §2.4.6), and the reports of packets it
 * could not route. Events are built only when the host takes them (`SwitchHost.event`).
 */
export class OwnPackets<P extends SwitchPacket> {
  readonly #c: OwnPacketsContext<P>;
  readonly #reporting: boolean;
  readonly #routeContext: RouteContext;
  readonly #budget: MaintenanceBudget | null;

  constructor(context: OwnPacketsContext<P>) {
    this.#c = context;
    const b = context.maintenanceBudget;
    this.#budget = b === null ? null : new MaintenanceBudget(context.up.length, b);
    this.#reporting = context.host.event !== undefined;
    this.#routeContext = {
      route: (id) => context.routes.lookup(id),
      deviceId: () => {
        const id = baseDeviceId(context.registers, context.tt);
        return id === context.noId ? -1 : id;
      },
    };
  }

  /**
   * Where a received MAINTENANCE packet goes (Part 3 §2.5, receive.ts `decide`): `out` and the
   * packet that goes there (the received one, or a copy with hop_count decremented), or, with
   * `answer`, the output its response will take (the request waits at its input until the response
   * can be queued). Null when the switch dropped it (a transaction it has no function for, or a
   * request beyond its port's maintenance budget, decision SW9) or answered it at once (a response
   * without a route).
   */
  maintenance(port: number, p: P, now: number): { readonly out: number | undefined; readonly packet: P; readonly answer: boolean } | null {
    const d = decide(p.wire as Packet, this.#routeContext);
    switch (d.kind) {
      case 'unsupported':
        this.#c.counters.maintenanceUnsupported++;
        if (this.#reporting) this.#event({ name: 'maintenance-unsupported', port, sourceID: d.sourceID, transaction: d.transaction });
        return null;
      case 'answer': {
        if (this.#budget !== null && !this.#budget.admit(port, now)) {
          this.#c.counters.maintenanceDropped++;
          if (this.#reporting) this.#event({ name: 'maintenance-dropped', port, sourceID: d.request.sourceID, transaction: d.request.transactionName });
          return null;
        }
        if (d.out !== undefined) return { out: d.out, packet: p, answer: true };
        // Answered now (a write still takes effect); the response has nowhere to go.
        const r = this.answer(port, d.request);
        if (r !== undefined) this.noRoute(port, r.ftype, r.destinationID);
        return null;
      }
      case 'forward':
        if (!d.hopDecremented) return { out: d.out, packet: p, answer: false };
        this.#c.counters.maintenanceForwarded++;
        return { out: d.out, packet: this.#c.host.make(d.packet, p.bytes, now, p), answer: false };
      case 'no-route':
        return { out: undefined, packet: p, answer: false };
    }
  }

  /** The maintenance budget's state (null without one): its settings and the requests each port had dropped. */
  budgetSnapshot(): SwitchCoreSnapshot['maintenanceBudget'] {
    return this.#budget?.snapshot() ?? null;
  }

  /** Part 3 §2.5 "If the received hop_count is zero, the access is for that switch": performed; the response, if any. */
  answer(port: number, request: Type8ReadRequest | Type8WriteRequest): Packet | undefined {
    const regs = this.#c.registers;
    setAccessPort(regs, port);
    const a = answerMaintenance(regs, request);
    const read = request.transactionName === 'MAINTENANCE_READ_REQUEST';
    const counters = this.#c.counters;
    if (!a.ok) counters.maintenanceErrors++;
    else if (read) counters.maintenanceReads++;
    else counters.maintenanceWrites++;
    if (this.#reporting) {
      this.#event({
        name: 'maintenance-answered', port, sourceID: request.sourceID, transaction: request.transactionName, offset: request.byteOffset,
        status: a.ok ? 'DONE' : 'ERROR', ...(a.ok ? {} : { reason: a.reason }),
      });
    }
    return a.response;
  }

  /** A congestion point's outputs: its CCPs go out, its events are counted and reported. `k`: the port it watches. */
  ccps(k: number, outs: readonly CongestionPointOutput[], now: number): void {
    for (const x of outs) {
      if (x.kind === 'send') {
        this.#injectCcp(k, x.packet, now);
        continue;
      }
      this.#c.counters.congestionEvents++;
      if (x.name === 'ccp-dropped') {
        this.#c.counters.ccpDropped++;
        this.#c.probe.count(SWITCH_PROBE_COUNTS.ccpDropped);
      }
      if (this.#reporting) this.#event({ name: 'congestion', port: k, detail: untag(x) });
    }
  }

  noRoute(port: number, ftype: number, destinationID: number): void {
    this.#c.counters.noRoute++;
    this.#c.probe.count(SWITCH_PROBE_COUNTS.noRoute);
    if (this.#reporting) this.#event({ name: 'no-route', port, ftype, destinationID });
  }

  /** A packet for an output whose link is down: counted with those that have no route in the probe (the simulator's "unknown destination"). */
  portDown(o: number): void {
    this.#c.counters.portDownDrops++;
    this.#c.probe.count(SWITCH_PROBE_COUNTS.noRoute);
    if (this.#reporting) this.#event({ name: 'port-down', port: o, packets: 1 });
  }

  /**
   * Part 9 §2.4.6 rule 1 "the switch shall send a CCP (XOFF) for each congested flow to their
   * respective end points": routed by its destinationID like any packet, in the class its prio/CRF
   * name (§2.4.2: prio 3, CRF 1), ahead of data of that class. Not sent (counted, reported) without
   * a route, on a link that is down, to a port whose Flow Control Participant bit is clear (§4.3
   * "Do not route or issue flow control transactions to this port"), or when the port already
   * holds `ccpQueue` of the switch's CCPs (§2.4.6 rule 2 "If a switch runs out of packet buffer
   * space, it is permitted to drop CCPs").
   */
  #injectCcp(congestedPort: number, ccp: Type7Packet, now: number): void {
    const c = this.#c;
    const port = c.routes.lookup(ccp.destinationID);
    let reason: CcpDropReason | undefined;
    if (port === undefined) reason = 'no-route';
    else if (c.up[port] === 0) reason = 'port-down';
    else if (!isFlowControlParticipant(c.registers, c.lpSerialBase, port)) reason = 'not-participant';
    else if ((c.outputs[port] as OutputStage<P>).ownCount >= c.ccpQueue) reason = 'ccp-queue-full';
    const fields = !this.#reporting ? null : { congestedPort, command: ccp.command, destinationID: ccp.destinationID, tgtdestinationID: ccp.tgtdestinationID, flowID: ccp.flowID };
    if (port === undefined || reason !== undefined) {
      c.counters.ccpDropped++;
      c.probe.count(SWITCH_PROBE_COUNTS.ccpDropped);
      if (fields !== null) this.#event({ name: 'ccp-dropped', port: port ?? null, ...fields, ...(reason === undefined ? {} : { reason }) });
      return;
    }
    const out = c.outputs[port] as OutputStage<P>;
    const p = c.host.make(ccp, serialPacketLength(ccp), now, null);
    out.own.push(p);
    out.bytes += p.bytes;
    c.counters.ccpSent++;
    c.probe.count(SWITCH_PROBE_COUNTS.ccpSent);
    if (fields !== null) this.#event({ name: 'ccp-sent', port, ...fields });
    (c.outBuf[port] as BufferProbe).occupancy(now, out.dataCount + out.ownCount, out.bytes);
    c.host.kick(port, now);
  }

  #event(e: SwitchEvent): void {
    this.#c.host.event?.(e, this.#c.now());
  }
}
