import { zeroCounters } from '../engine/contract.ts';
import type { Counters, Engine, Time } from '../engine/contract.ts';
import { describeInput } from '../engine/input-checks.ts';
import { Timers } from '../engine/timers.ts';
import type { CongestionPointOutput } from '../flow/congestion-point-types.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { serialPacketLength } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type { Type8ReadRequest, Type8WriteRequest } from '../wire/type8.ts';
import { untag } from './endpoint-input.ts';
import { answerMaintenance } from './maintenance.ts';
import { within } from './session-endpoint-config.ts';
import { resolveSwitchConfig } from './switch-element-config.ts';
import type { ResolvedSwitchConfig } from './switch-element-config.ts';
import { SwitchCongestion } from './switch-element-congestion.ts';
import { InputPort } from './switch-element-inputs.ts';
import type { Held } from './switch-element-inputs.ts';
import { OutputQueue, queueClass } from './switch-element-queues.ts';
import type { Queued } from './switch-element-queues.ts';
import { decide, heldOf, packetProblem, senderOf } from './switch-element-receive.ts';
import type { RouteContext } from './switch-element-receive.ts';
import { RouteTable } from './switch-element-routes.ts';
import { SWITCH_COUNTERS } from './switch-element-types.ts';
import type { CcpDropReason, SwitchCounter, SwitchElementConfig, SwitchEvent, SwitchInput, SwitchOutput, SwitchTimerName } from './switch-element-types.ts';
import { SwitchVoq } from './switch-element-voq.ts';
import type { VoqHost } from './switch-element-voq.ts';
import { baseDeviceId, buildSwitchRegisters, isFlowControlParticipant, setAccessPort } from './switch-registers.ts';

export type * from './switch-element-types.ts';

/**
 * A switch processing element (switch-element-types.ts), sans-IO: the switch of issue 8's
 * software fabric. The driver only moves frames and calls it.
 *
 * - Routing by destinationID (switch-element-routes.ts), decided when a packet arrives, with the
 *   Type 8 hop_count rules of Part 3 §2.5 (switch-element-receive.ts); MAINTENANCE requests for
 *   the switch are answered from its own register space (switch-registers.ts) with
 *   `answerMaintenance`, and the response is routed like any packet.
 * - Bounded output buffers with priority reservation (switch-element-queues.ts). A packet whose
 *   output has no room waits at its input, which the driver stops reading (`input-paused`) until
 *   it drains (`input-resumed`): nothing is dropped for lack of space (issue 8 §1).
 * - Part 9 congestion points on the output buffers (switch-element-congestion.ts); their CCPs are
 *   routed back by destinationID and wait in the switch's own CCP queue of their port.
 * - VoQ backpressure generation from the output buffers' depths (switch-element-voq.ts).
 *
 * Transmission is pulled: `ready` says a port has something to send; the driver then pulls it
 * (one frame per pull) until `idle`. Outputs of one input come in the order they are caused, with
 * `ready` outputs last.
 */
export class SwitchElement implements Engine<SwitchInput, SwitchOutput> {
  readonly #cfg: ResolvedSwitchConfig;
  readonly #routes: RouteTable;
  readonly #space: RegisterSpace;
  readonly #lpSerialBase: number;
  readonly #inputs: InputPort[];
  readonly #outputs: OutputQueue[];
  readonly #up: Uint8Array;
  /** Whether `ready` was said for the port and no pull has answered `idle` since. */
  readonly #announced: Uint8Array;
  readonly #touched = new Set<number>();
  readonly #congestion: SwitchCongestion;
  readonly #voq: SwitchVoq | null;
  readonly #voqHost: VoqHost;
  readonly #routeContext: RouteContext;
  readonly #timers = new Timers<SwitchTimerName>();
  readonly #counters: Counters<SwitchCounter> = zeroCounters(SWITCH_COUNTERS);
  /** Input served first by the next drain: the inputs take turns at freed room. */
  #rr = 0;
  #seq = 0;
  #now: Time = 0;
  #out: SwitchOutput[] = [];

  constructor(config: SwitchElementConfig) {
    const c = resolveSwitchConfig(config);
    this.#cfg = c;
    this.#routes = new RouteTable(c.ports, c.routeLimit, c.routes, c.defaultPort);
    this.#congestion = new SwitchCongestion(c.congestion, Array.isArray(config.congestion));
    const regs = buildSwitchRegisters({
      ports: c.ports, tt: c.tt, deviceId: c.deviceId, routes: this.#routes, flowControl: this.#congestion.any, identity: c.identity,
      ...(c.voq === null ? {} : { voq: { format: c.voq.format, generate: c.voq.generate } }),
    });
    this.#space = regs.space;
    this.#lpSerialBase = regs.lpSerialBase;
    this.#inputs = Array.from({ length: c.ports }, () => new InputPort());
    this.#outputs = Array.from({ length: c.ports }, () => new OutputQueue(c.capacity, c.reserve, c.ccpQueue));
    this.#up = new Uint8Array(c.ports);
    this.#announced = new Uint8Array(c.ports);
    const voq = c.voq;
    const base = regs.voqBase;
    this.#voq = voq === null || base === undefined ? null : within('voq', () => new SwitchVoq(regs.space, base, voq, c.ports));
    this.#voqHost = {
      wanted: (port) => this.#touched.add(port),
      timer: (at) => {
        if (at === null) this.#timers.cancel('voq:refresh', this.#out);
        else this.#timers.arm('voq:refresh', at, this.#out);
      },
      event: (voqEvent, port, detail) => {
        this.#event({ name: 'voq', voqEvent, ...(port === undefined ? {} : { port }), ...(detail === undefined ? {} : { detail }) });
      },
    };
    this.#routeContext = { route: (id) => this.#routes.lookup(id), deviceId: () => this.#deviceId() };
    // A MAINTENANCE write to a Port n VoQ Control CSR reaches the generator (Table 5-3).
    regs.space.subscribe((ch) => this.#voq?.registerChanged(regs.space, ch.offset, this.#now, this.#voqHost));
  }

  handle(input: SwitchInput, now: Time): SwitchOutput[] {
    this.#now = now;
    const out: SwitchOutput[] = [];
    this.#out = out;
    const raw = input as unknown;
    const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
    if (kind === 'timer') this.#timer((input as { name?: unknown }).name);
    else if (kind === 'packet' || kind === 'pull' || kind === 'symbol' || kind === 'link-up' || kind === 'link-down') {
      const port = (input as { port?: unknown }).port;
      if (!this.#isPort(port)) this.#invalid(`port ${describeInput(port)} is not 0–${this.#cfg.ports - 1}`);
      else if (kind === 'packet') this.#receive(port, (input as { packet?: unknown }).packet, (input as { octets?: unknown }).octets, (input as { wire?: unknown }).wire);
      else if (kind === 'pull') this.#pull(port);
      else if (kind === 'symbol') this.#counters.symbolsReceived++;
      else if (kind === 'link-up') this.#linkUp(port);
      else this.#linkDown(port);
    } else this.#invalid(`unknown input kind ${describeInput(kind)}`);
    this.#announce();
    return out;
  }

  counters(): Counters<SwitchCounter> {
    return { ...this.#counters };
  }

  /** The switch's configuration space, as its own logic sees it. */
  get registers(): RegisterSpace {
    return this.#space;
  }

  /** Packets in output `port`'s buffer (forwarded and responses; not the switch's own CCPs). */
  occupancy(port: number): number {
    return this.#outputs[port]?.count ?? 0;
  }

  /** Packets input `port` holds. */
  holding(port: number): number {
    return this.#inputs[port]?.held.length ?? 0;
  }

  snapshot(): Record<string, unknown> {
    return {
      deviceId: this.#deviceId(),
      tt: this.#cfg.tt,
      capacity: this.#cfg.capacity,
      reservePerPriority: this.#cfg.reserve,
      ports: this.#inputs.map((inp, port) => ({
        port,
        up: this.#up[port] === 1,
        paused: inp.paused,
        held: inp.held.length,
        announced: this.#announced[port] === 1,
        accept: this.#cfg.accept[port] == null ? 'any' : [...(this.#cfg.accept[port] ?? [])].sort((a, b) => a - b),
        output: (this.#outputs[port] as OutputQueue).snapshot(),
      })),
      routes: this.#routes.snapshot(),
      congestion: this.#congestion.snapshot(),
      voq: this.#voq?.snapshot() ?? null,
      timers: this.#timers.pending(),
      counters: this.counters(),
    };
  }

  // ---- Receive ---------------------------------------------------------------------------------

  #receive(port: number, packet: unknown, octets: unknown, wire: unknown): void {
    const problem = packetProblem(packet) ?? (typeof octets === 'number' && Number.isSafeInteger(octets) && octets > 0 ? undefined : `octets ${describeInput(octets)} must be a positive integer`);
    if (problem !== undefined) {
      this.#invalid(problem);
      return;
    }
    const p = packet as Packet;
    this.#counters.packetsIn++;
    const inp = this.#inputs[port] as InputPort;
    const accept = this.#cfg.accept[port];
    const id = senderOf(p);
    const d = decide(p, this.#routeContext);
    // issue 8 §3: "drops (and counts) packets with any other sourceID, so no endpoint can pose as another".
    if (accept != null && !accept.has(id)) this.#drop('sourceRejected', { name: 'source-rejected', port, ftype: p.ftype, id });
    else if (inp.held.length >= this.#cfg.inputHold) this.#drop('holdOverruns', { name: 'hold-overrun', port, ftype: p.ftype, destinationID: p.destinationID });
    else if (d.kind === 'no-route') this.#drop('noRoute', { name: 'no-route', port, ftype: p.ftype, destinationID: p.destinationID });
    else if (d.kind === 'unsupported') this.#drop('maintenanceUnsupported', { name: 'maintenance-unsupported', port, sourceID: d.sourceID, transaction: d.transaction });
    else if (d.kind === 'forward' && this.#up[d.out] === 0) this.#portDown(d.out, 1);
    else {
      inp.held.push(heldOf(p, octets as number, d, wire));
      inp.release((h) => this.#admit(port, h));
      this.#updatePause(port);
    }
  }

  /** Queues a held packet if its output has room now; true when it left the hold. */
  #admit(port: number, h: Held): boolean {
    const o = h.out;
    const down = o >= 0 && this.#up[o] === 0;
    if (o >= 0 && !down && !(this.#outputs[o] as OutputQueue).admits(h.need)) return false;
    if (h.action.kind === 'answer') {
      this.#answer(port, h.action.request, o);
      return true;
    }
    if (down) {
      this.#portDown(o, 1);
      return true;
    }
    if (h.action.hopDecremented) this.#counters.maintenanceForwarded++;
    this.#enqueue(o, this.#queued(h.action.packet, h.octets, port, true, h.action.wire));
    return true;
  }

  /** Part 3 §2.5 "If the received hop_count is zero, the access is for that switch". */
  #answer(port: number, request: Type8ReadRequest | Type8WriteRequest, o: number): void {
    setAccessPort(this.#space, port);
    const a = answerMaintenance(this.#space, request);
    const read = request.transactionName === 'MAINTENANCE_READ_REQUEST';
    if (!a.ok) this.#counters.maintenanceErrors++;
    else if (read) this.#counters.maintenanceReads++;
    else this.#counters.maintenanceWrites++;
    this.#event({
      name: 'maintenance-answered', port, sourceID: request.sourceID, transaction: request.transactionName, offset: request.byteOffset,
      status: a.ok ? 'DONE' : 'ERROR', ...(a.ok ? {} : { reason: a.reason }),
    });
    const r = a.response;
    if (r === undefined) return;
    if (o < 0) this.#drop('noRoute', { name: 'no-route', port, ftype: r.ftype, destinationID: r.destinationID });
    else if (this.#up[o] === 0) this.#portDown(o, 1);
    else this.#enqueue(o, this.#queued(r, serialPacketLength(r), -1, true, undefined));
  }

  #queued(packet: Packet, octets: number, input: number, counted: boolean, wire: unknown): Queued {
    return { packet, octets, seq: this.#seq++, cls: queueClass(packet), input, counted, wire };
  }

  #enqueue(o: number, q: Queued): void {
    const queue = this.#outputs[o] as OutputQueue;
    queue.add(q);
    this.#touched.add(o);
    if (!q.counted) return;
    this.#congestionOutputs(o, this.#congestion.enqueue(o, q, this.#now));
    this.#voq?.depth(o, queue.count, this.#now, this.#voqHost);
  }

  // ---- Transmit --------------------------------------------------------------------------------

  #pull(port: number): void {
    this.#counters.pulls++;
    if (this.#up[port] === 1) {
      const symbol = this.#voq?.next(port, this.#now, this.#voqHost) ?? null;
      if (symbol !== null) {
        this.#counters.voqSymbolsSent++;
        this.#out.push({ kind: 'symbol', port, symbol });
        return;
      }
      const queue = this.#outputs[port] as OutputQueue;
      const q = queue.next();
      if (q !== undefined) {
        this.#counters.packetsOut++;
        if (q.input >= 0) this.#counters.forwarded++;
        // `wire` only when there is one: outputs stay the plain objects they were for other drivers.
        this.#out.push(q.wire === undefined ? { kind: 'packet', port, packet: q.packet } : { kind: 'packet', port, packet: q.packet, wire: q.wire });
        if (q.counted) this.#left(port, [q]);
        return;
      }
    }
    this.#counters.idlePulls++;
    this.#announced[port] = 0;
    this.#out.push({ kind: 'idle', port });
  }

  /** Buffered packets left output `o` (sent or flushed): the congestion point and VoQ detector learn it, held inputs may move. */
  #left(o: number, gone: readonly Queued[]): void {
    for (const q of gone) if (q.counted) this.#congestionOutputs(o, this.#congestion.dequeue(o, q, this.#now));
    this.#voq?.depth(o, (this.#outputs[o] as OutputQueue).count, this.#now, this.#voqHost);
    this.#drain();
  }

  /** Every input with held packets offers them again, starting with a different input each time. */
  #drain(): void {
    const n = this.#cfg.ports;
    for (let k = 0; k < n; k++) {
      const i = (this.#rr + k) % n;
      const inp = this.#inputs[i] as InputPort;
      if (inp.held.length === 0) continue;
      inp.release((h) => this.#admit(i, h));
      this.#updatePause(i);
    }
    this.#rr = (this.#rr + 1) % n;
  }

  /** A link that is down is not read; `link-up` settles its pause state. */
  #updatePause(port: number): void {
    if (this.#up[port] === 0) return;
    const change = (this.#inputs[port] as InputPort).pauseChange();
    if (change === null) return;
    this.#counters[change === 'input-paused' ? 'pauses' : 'resumes']++;
    this.#out.push({ kind: change, port });
  }

  #announce(): void {
    for (const o of this.#touched) {
      if (this.#up[o] === 0 || this.#announced[o] === 1) continue;
      if ((this.#outputs[o] as OutputQueue).empty && this.#voq?.hasPending(o) !== true) continue;
      this.#announced[o] = 1;
      this.#out.push({ kind: 'ready', port: o });
    }
    this.#touched.clear();
  }

  // ---- Part 9 congestion control ---------------------------------------------------------------

  #congestionOutputs(o: number, outs: readonly CongestionPointOutput[]): void {
    for (const x of outs) {
      if (x.kind === 'send') this.#injectCcp(o, x.packet);
      else this.#event({ name: 'congestion', port: o, detail: untag(x) });
    }
  }

  /**
   * Part 9 §2.4.6 rule 1 "the switch shall send a CCP (XOFF) for each congested flow to their
   * respective end points": routed by its destinationID like any packet. Not sent (counted,
   * reported) without a route, on a link that is down, to a port whose Flow Control Participant
   * bit is clear (§4.3 "Do not route or issue flow control transactions to this port"), or when
   * the port's CCP queue is full (§2.4.6 rule 2).
   */
  #injectCcp(congestedPort: number, ccp: Type7Packet): void {
    const port = this.#routes.lookup(ccp.destinationID);
    let reason: CcpDropReason | undefined;
    if (port === undefined) reason = 'no-route';
    else if (this.#up[port] === 0) reason = 'port-down';
    else if (!isFlowControlParticipant(this.#space, this.#lpSerialBase, port)) reason = 'not-participant';
    else if (!(this.#outputs[port] as OutputQueue).hasOwnRoom()) reason = 'ccp-queue-full';
    const fields = { congestedPort, command: ccp.command, destinationID: ccp.destinationID, tgtdestinationID: ccp.tgtdestinationID, flowID: ccp.flowID };
    if (port === undefined || reason !== undefined) {
      this.#counters.ccpDropped++;
      this.#event({ name: 'ccp-dropped', port: port ?? null, ...fields, ...(reason === undefined ? {} : { reason }) }); return;
    }
    this.#enqueue(port, this.#queued(ccp, serialPacketLength(ccp), -1, false, undefined));
    this.#counters.ccpSent++;
    this.#event({ name: 'ccp-sent', port, ...fields });
  }

  // ---- Links and timers ------------------------------------------------------------------------

  #linkUp(port: number): void {
    if (this.#up[port] === 1) return;
    this.#up[port] = 1;
    this.#touched.add(port);
    this.#voq?.linkUp(port, this.#now, this.#voqHost);
    // A new connection reads until told otherwise.
    const inp = this.#inputs[port] as InputPort;
    inp.paused = false;
    this.#updatePause(port);
  }

  /**
   * A link that goes down takes what waits for it: the output's queue and the packets held at
   * inputs for it are dropped and counted, so traffic to other ports does not wait behind them.
   */
  #linkDown(port: number): void {
    if (this.#up[port] === 0) return;
    this.#up[port] = 0;
    this.#announced[port] = 0;
    (this.#inputs[port] as InputPort).paused = false;
    const flushed = (this.#outputs[port] as OutputQueue).flush();
    let dropped = flushed.length;
    for (const inp of this.#inputs) dropped += inp.dropFor(port);
    if (dropped > 0) this.#portDown(port, dropped);
    this.#left(port, flushed);
    for (let i = 0; i < this.#cfg.ports; i++) this.#updatePause(i);
  }

  #portDown(port: number, packets: number): void {
    this.#counters.portDownDrops += packets;
    this.#event({ name: 'port-down', port, packets });
  }

  #drop(counter: SwitchCounter, event: SwitchEvent): void {
    this.#counters[counter]++;
    this.#event(event);
  }

  #timer(name: unknown): void {
    if (name !== 'voq:refresh') this.#invalid(`unknown timer ${describeInput(name)}`);
    else if (this.#timers.expire(name, this.#now)) this.#voq?.timer(this.#now, this.#voqHost);
  }

  // ---- Helpers ---------------------------------------------------------------------------------

  #isPort(v: unknown): v is number {
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < this.#cfg.ports;
  }

  /** The Base Device ID CSR as it stands (host software may assign the switch an ID). */
  #deviceId(): number {
    return baseDeviceId(this.#space, this.#cfg.tt);
  }

  #event(event: SwitchEvent): void {
    this.#out.push({ kind: 'event', at: this.#now, event });
  }

  #invalid(detail: string): void {
    this.#counters.invalidInputs++;
    this.#event({ name: 'invalid-input', detail });
  }
}
