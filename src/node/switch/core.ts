import { zeroCounters } from '../../engine/contract.ts';
import type { Counters } from '../../engine/contract.ts';
import type { CongestionPointOutput } from '../../flow/congestion-point-types.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import type { Packet } from '../../wire/packet.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { Type8ReadRequest, Type8WriteRequest } from '../../wire/type8.ts';
import { untag } from '../endpoint-input.ts';
import { answerMaintenance } from '../maintenance.ts';
import { within } from '../session-endpoint-config.ts';
import type { ArbiterRandom } from './arbiters.ts';
import { isInputQueued, resolveSwitchConfig } from './config.ts';
import type { ResolvedSwitchConfig } from './config.ts';
import type { SwitchConfig } from './config-types.ts';
import { SwitchCongestion } from './congestion.ts';
import { Matcher } from './matcher.ts';
import type { MatchHost } from './matcher.ts';
import { CLASSES, classOf, priorityAllowed } from './packet.ts';
import type { SwitchPacket } from './packet.ts';
import { decide, isMaintenanceWire } from './receive.ts';
import type { RouteContext } from './receive.ts';
import { baseDeviceId, buildSwitchRegisters, isFlowControlParticipant, setAccessPort } from './registers.ts';
import { RouteTable } from './routes.ts';
import { InputStage, OutputStage } from './stages.ts';
import { NO_PROBE, SWITCH_COUNTERS, SWITCH_PROBE_COUNTS } from './types.ts';
import type { CcpDropReason, SwitchCounter, SwitchEvent, SwitchHost, SwitchProbe, SwitchSymbol } from './types.ts';
import { SwitchVoq } from './voq-generator.ts';
import type { VoqHost } from './voq-generator.ts';
import { VoqStaging } from './voq-staging.ts';
import type { VoqMessageIn } from './voq-staging.ts';
import { snapshotSwitch } from './snapshot.ts';

export interface SwitchCoreOptions {
  readonly probe?: SwitchProbe;
  /** The stream `arbitration: random` draws from. */
  readonly rng?: ArbiterRandom;
}

/**
 * The switch element: every switch of every host is one (issue 15). It routes by destinationID
 * (Part 6 §6.11 rule 3), answers and forwards MAINTENANCE by the Part 3 §2.5 hop_count rules from
 * its own register space, filters source IDs per port (issue 8 §3), holds packets in input buffers
 * and output queues organised by the queueing architecture (stages.ts), matches inputs to outputs
 * (matcher.ts), serves each output by class with its own CCPs first, runs Part 9 congestion points
 * (congestion.ts), VoQ backpressure generation (voq-generator.ts) and staging (voq-staging.ts).
 *
 * Sans-IO and without a clock: every call takes the host's `now`, and everything the element needs
 * done or timed goes to its `SwitchHost` (types.ts). The simulator's `Switch` gives crossbar
 * transfers their duration and links their wire time; the software fabric's `SwitchElement`
 * completes transfers at once and moves frames over TCP.
 */
export class SwitchCore<P extends SwitchPacket> implements MatchHost<P> {
  readonly config: ResolvedSwitchConfig;
  readonly inputs: readonly InputStage<P>[];
  readonly outputs: readonly OutputStage<P>[];
  readonly routes: RouteTable;
  readonly registers: RegisterSpace;
  readonly #host: SwitchHost<P>;
  readonly #probe: SwitchProbe;
  readonly #matcher: Matcher<P>;
  readonly #congestion: SwitchCongestion;
  readonly #congestionAtInputs: boolean;
  readonly #staging: VoqStaging<P> | null;
  readonly #voq: SwitchVoq | null;
  readonly #voqHost: VoqHost;
  readonly #lpSerialBase: number;
  readonly #routeContext: RouteContext;
  readonly #counters: Counters<SwitchCounter> = zeroCounters(SWITCH_COUNTERS);
  readonly #up: Uint8Array;
  readonly #capacity: number;
  readonly #inName: string[];
  readonly #outName: string[];
  /** Requests for the switch waiting at an input; responses it made, not yet sent (both rare: a Set each). */
  readonly #answers = new Set<P>();
  readonly #responses = new Set<P>();
  /** Free inputs holding a waiting packet: only these can make a decision do anything. */
  #ready = 0;
  #now = 0;
  /** Whether the host takes events: without, none is built (the simulator's hot paths). */
  readonly #reporting: boolean;

  constructor(config: SwitchConfig, host: SwitchHost<P>, options: SwitchCoreOptions = {}) {
    const c = resolveSwitchConfig(config);
    this.config = c;
    this.#host = host;
    this.#reporting = host.event !== undefined;
    this.#probe = options.probe ?? NO_PROBE;
    const n = c.ports;
    this.routes = new RouteTable(n, c.routeLimit, new Map([...c.routes].map(([id, r]) => [id, r.port])), c.defaultPort);
    this.#congestionAtInputs = isInputQueued(c.queueing);
    // Messages name the field after the switch's name when it has one (resolveSwitchConfig).
    const named = <T>(f: () => T): T => (config.name === undefined ? f() : within(config.name, f));
    this.#congestion = named(() => new SwitchCongestion(c.congestion, Array.isArray(config.congestion), c.tt));
    const regs = buildSwitchRegisters({
      ports: n, tt: c.tt, deviceId: c.deviceId, routes: this.routes, flowControl: this.#congestion.any, identity: c.identity,
      ...(c.voq === null ? {} : { voq: { format: c.voq.format, generate: c.voq.generate } }),
    });
    this.registers = regs.space;
    this.#lpSerialBase = regs.lpSerialBase;
    this.inputs = Array.from({ length: n }, (_, i) => new InputStage<P>(i, c.queueing, n));
    this.outputs = Array.from({ length: n }, (_, o) => new OutputStage<P>(o));
    this.#up = new Uint8Array(n);
    this.#capacity = c.outputPackets;
    this.#inName = Array.from({ length: n }, (_, i) => `${c.name}/in${i}`);
    this.#outName = Array.from({ length: n }, (_, i) => `${c.name}/out${i}`);
    if (c.arbitration === 'random' && c.queueing !== 'input-voq' && options.rng === undefined) throw new RangeError(`${c.name}.arbitration random needs a random stream`);
    this.#matcher = new Matcher(c, this, options.rng);
    const v = c.voq;
    this.#staging = v !== null && c.queueing === 'cioq-voq-backpressure' ? new VoqStaging<P>(n, c.routes, v) : null;
    this.#voqHost = {
      wanted: (port) => { this.#host.voqWanted(port, this.#now); },
      timer: (at) => { this.#host.voqTimer(at, this.#now); },
      event: (voqEvent, port, detail) => {
        this.#counters.voqEvents++;
        this.#event({ name: 'voq', voqEvent, ...(port === undefined ? {} : { port }), ...(detail === undefined ? {} : { detail }) });
      },
    };
    const base = regs.voqBase;
    this.#voq = v === null || base === undefined ? null : named(() => within('voq', () => new SwitchVoq(regs.space, base, v, n)));
    this.#routeContext = { route: (id) => this.routes.lookup(id), deviceId: () => baseDeviceId(this.registers, c.tt) };
    // A MAINTENANCE write to a Port n VoQ Control CSR reaches the generator (VoQ Table 5-3).
    regs.space.subscribe((ch) => this.#voq?.registerChanged(regs.space, ch.offset, this.#now, this.#voqHost));
  }

  counters(): Counters<SwitchCounter> {
    return { ...this.#counters };
  }

  /** A host refused an input it could not hand over (counted; the host reports it). */
  invalidInput(): void {
    this.#counters.invalidInputs++;
  }

  isUp(port: number): boolean {
    return this.#up[port] === 1;
  }

  /** Packets in input `i`'s buffer (waiting and crossing). */
  inputOccupancy(i: number): number {
    return this.inputs[i]?.count ?? 0;
  }

  /** Packets waiting at input `i` to cross. */
  inputWaiting(i: number): number {
    return this.inputs[i]?.waiting ?? 0;
  }

  /** Packets queued at output `o`: its buffer, staged ones and the switch's own CCPs. */
  outputOccupancy(o: number): number {
    const out = this.outputs[o];
    return out === undefined ? 0 : out.dataCount + out.ownCount;
  }

  /** Whether output o's VoQ staging queue `queue` is stopped by backpressure ('cioq-voq-backpressure'). */
  stagingBlocked(o: number, queue: number): boolean {
    return this.#staging?.isBlocked(o, queue) ?? false;
  }

  snapshot(): Record<string, unknown> {
    return snapshotSwitch(this.config, this.inputs, this.outputs, this.#up, this.routes, {
      deviceId: this.#routeContext.deviceId(), matcher: this.#matcher.snapshot(), congestion: this.#congestion.snapshot(),
      staging: this.#staging, voq: this.#voq, counters: this.counters(),
    });
  }

  // ---- Links -----------------------------------------------------------------------------------

  /**
   * The port's link came up: it may receive and send. After a link recovery the VoQ generator
   * resends its groups (§4.2 g "may be generated after link recovery to avoid orphaned congestion
   * states"); a link up from the start (`recovered` false) has no state to recover.
   */
  linkUp(port: number, now: number, recovered = true): void {
    this.#now = now;
    if (this.#up[port] === 1) return;
    this.#up[port] = 1;
    if (recovered) this.#voq?.linkUp(port, now, this.#voqHost);
    if (this.outputOccupancy(port) > 0) this.#host.kick(port, now);
  }

  /**
   * The port's link went down: what waits for it (its output queue, its CCPs, the packets held at
   * inputs for it) is dropped and counted, so that traffic to other ports does not wait behind it.
   * A request for the switch whose response would leave by it is still performed (a write takes
   * effect); its response is dropped.
   */
  linkDown(port: number, now: number): void {
    this.#now = now;
    if (this.#up[port] === 0) return;
    this.#up[port] = 0;
    const out = this.outputs[port] as OutputStage<P>;
    const { own, queued } = out.flush();
    let dropped = own.length + queued.length;
    for (const p of [...own, ...queued]) out.bytes -= p.bytes;
    if (out.register !== null) {
      out.register = null;
      dropped++;
    }
    out.dataCount -= queued.length;
    for (const inp of this.inputs) {
      const gone = inp.removeFor(port, () => true);
      if (gone.length === 0) continue;
      dropped += gone.length;
      if (inp.current === null && inp.waiting === 0) this.#ready--;
      for (const p of gone) {
        if (this.#answers.delete(p)) this.#answerRequest(inp.index, p.wire as Type8ReadRequest | Type8WriteRequest);
        this.#released(inp.index, p, now);
      }
    }
    if (dropped > 0) {
      this.#counters.portDownDrops += dropped;
      this.#event({ name: 'port-down', port, packets: dropped });
    }
    for (const p of queued) {
      this.#responses.delete(p);
      if (this.#congestionOut(port)) this.#ccps(port, this.#congestion.dequeue(port, p, now), now);
    }
    this.#voq?.depth(port, out.dataCount, now, this.#voqHost);
    this.#probe.occupancy(this.#outName[port] as string, now, out.dataCount + out.ownCount, out.bytes);
    if (this.#ready > 0) this.#host.requestDecide(now);
  }

  // ---- Receive ---------------------------------------------------------------------------------

  /** A packet's last bit arrived on port i's link. */
  receive(i: number, p: P, now: number): void {
    this.#now = now;
    this.#counters.packetsIn++;
    const inp = this.inputs[i] as InputStage<P>;
    const accept = this.config.accept[i];
    // issue 8 §3: "drops (and counts) packets with any other sourceID, so no endpoint can pose as another".
    if (accept != null && !accept.has(p.src)) {
      this.#counters.sourceRejected++;
      this.#event({ name: 'source-rejected', port: i, ftype: p.ftype, id: p.src });
      this.#host.released(i, p, now);
      return;
    }
    if (inp.count >= (this.config.inputBuffers[i]?.packets ?? 0)) {
      this.#counters.holdOverruns++;
      this.#event({ name: 'hold-overrun', port: i, ftype: p.ftype, destinationID: p.dst });
      return;
    }
    let q = p;
    let o: number | undefined;
    let answer = false;
    if (p.ftype === 8 && isMaintenanceWire(p.wire)) {
      const d = decide(p.wire, this.#routeContext);
      if (d.kind === 'unsupported') {
        this.#counters.maintenanceUnsupported++;
        this.#event({ name: 'maintenance-unsupported', port: i, sourceID: d.sourceID, transaction: d.transaction });
        this.#host.released(i, p, now);
        return;
      }
      if (d.kind === 'answer' && d.out === undefined) {
        // Answered now (a write still takes effect); the response has nowhere to go.
        const r = this.#answerRequest(i, d.request);
        if (r !== undefined) this.#noRoute(i, r.ftype, r.destinationID);
        this.#host.released(i, p, now);
        return;
      }
      if (d.kind === 'forward') {
        o = d.out;
        if (d.hopDecremented) {
          this.#counters.maintenanceForwarded++;
          q = this.#host.make(d.packet, p.bytes, now, p);
        }
      } else if (d.kind === 'answer') {
        o = d.out;
        answer = true;
      }
    } else o = this.routes.lookup(p.dst);
    if (o === undefined || this.#up[o] === 0) {
      if (answer) this.#answerRequest(i, p.wire as Type8ReadRequest | Type8WriteRequest);
      if (o === undefined) this.#noRoute(i, p.ftype, p.dst);
      else this.#portDown(o);
      this.#host.released(i, p, now);
      return;
    }
    inp.count++;
    inp.bytes += q.bytes;
    this.#probe.occupancy(this.#inName[i] as string, now, inp.count, inp.bytes);
    if (answer) this.#answers.add(q);
    if (this.#congestionAtInputs && this.#congestion.has(i)) this.#ccps(i, this.#congestion.enqueue(i, q, now), now);
    inp.push(q, o);
    if (inp.current === null && inp.waiting === 1) this.#ready++;
    if (this.#ready > 0) this.#host.requestDecide(now);
  }

  // ---- Crossbar --------------------------------------------------------------------------------

  /** A crossbar decision: starts the transfers it chooses; true when a pair that wants each other was left (iSLIP ran out of iterations). */
  decide(now: number, atSlot: boolean): boolean {
    this.#now = now;
    return this.#ready > 0 && this.#matcher.decide(this.inputs, now, atSlot);
  }

  /** Whether a decision could start anything: a free input holds a packet. */
  get readyInputs(): number {
    return this.#ready;
  }

  /** MatchHost. */
  accepts(o: number, prio: number, p: P | null, atSlot: boolean): boolean {
    if (this.#up[o] === 0) return false;
    const out = this.outputs[o] as OutputStage<P>;
    if (p !== null && this.#answers.size > 0 && this.#answers.has(p)) prio = Math.min(prio + 1, 3);
    if (this.#capacity > 0) {
      if (out.receiving) return false;
      if (p !== null && this.#staging !== null) return this.#staging.depth(o, p) < this.#capacity;
      return this.#capacity - out.dataCount > (3 - prio) * this.config.outputReserve;
    }
    return out.register === null && out.ownCount === 0 && this.#host.linkAccepts(o, prio, atSlot);
  }

  /** MatchHost. */
  start(inp: InputStage<P>, q: number, o: number, now: number): void {
    const p = inp.take(q, o);
    this.#ready--;
    inp.current = p;
    inp.currentOut = o;
    let x: P | null = p;
    if (this.#answers.size > 0 && this.#answers.delete(p)) {
      // Part 3 §2.5: performed once its response can be queued (the match checked the room).
      const r = this.#answerRequest(inp.index, p.wire as Type8ReadRequest | Type8WriteRequest);
      x = r === undefined ? null : this.#host.make(r, serialPacketLength(r), now, null);
      if (x !== null) this.#responses.add(x);
    }
    inp.crossing = x;
    this.#counters.transfers++;
    const out = this.outputs[o] as OutputStage<P>;
    if (this.#capacity === 0) {
      out.register = x;
      if (x !== null) this.#host.kick(o, now);
    } else out.receiving = true;
    this.#host.transfer(inp.index, o, x ?? p, now);
  }

  /** The transfer from input i ended: the packet left the input and, with output queues, joined its output's. */
  transferDone(i: number, now: number): void {
    this.#now = now;
    const inp = this.inputs[i] as InputStage<P>;
    const p = inp.current as P;
    const x = inp.crossing;
    const o = inp.currentOut;
    inp.current = null;
    inp.crossing = null;
    inp.currentOut = -1;
    this.#released(i, p, now);
    if (this.#capacity > 0) {
      (this.outputs[o] as OutputStage<P>).receiving = false;
      if (x !== null) this.#delivered(o, x, now);
    }
    if (inp.waiting > 0) this.#ready++;
    if (this.#ready > 0) this.#host.requestDecide(now);
  }

  // ---- Transmit --------------------------------------------------------------------------------

  /** Output buffer 0: the packet the crossbar put in output o's register, taken; null when empty. */
  takeRegister(o: number): P | null {
    const out = this.outputs[o] as OutputStage<P>;
    const p = out.register;
    if (p === null) return null;
    out.register = null;
    this.#sent(p, true);
    return p;
  }

  /**
   * The next packet for output o's link, given the receiver's free buffers as the link knows them
   * (Part 6 §5: priority p only while more than (3 − p) × reserve are free; `Infinity` on a link
   * without credits): priority 3 … 0, CRF 1 before 0, the switch's own CCPs first in their class,
   * oldest first within a class. Null when nothing may go.
   */
  pull(o: number, now: number, free: number, reserve: number): P | null {
    this.#now = now;
    const out = this.outputs[o] as OutputStage<P>;
    for (let c = CLASSES - 1; c >= 0; c--) {
      if (!priorityAllowed(c >> 1, free, reserve)) break;
      const own = out.own.peek();
      if (own !== undefined && classOf(own) === c) {
        out.own.shift();
        this.#left(out, own, now, false);
        return own;
      }
      const p = out.takeClass(c) ?? this.#staging?.take(o, c, now) ?? null;
      if (p !== null) {
        out.dataCount--;
        this.#left(out, p, now, true);
        if (!this.#congestionAtInputs && this.#congestion.has(o)) this.#ccps(o, this.#congestion.dequeue(o, p, now), now);
        this.#voq?.depth(o, out.dataCount, now, this.#voqHost);
        if (this.#ready > 0) this.#host.requestDecide(now);
        return p;
      }
    }
    this.outputIdle(now);
    return null;
  }

  /** Output buffer 0: an output link found nothing to send, so the crossbar may now fill it. */
  outputIdle(now: number): void {
    if (this.#capacity === 0 && this.#ready > 0) this.#host.requestDecide(now);
  }

  // ---- VoQ backpressure and timers -------------------------------------------------------------

  /** Whether a VoQ message waits for `port`'s link. */
  voqPending(port: number): boolean {
    return this.#voq?.hasPending(port) ?? false;
  }

  /** The VoQ symbol to send on `port`'s link now, with the status current now; null when none is worth sending. */
  voqNext(port: number, now: number): SwitchSymbol | null {
    this.#now = now;
    const s = this.#voq?.next(port, now, this.#voqHost) ?? null;
    if (s !== null) {
      this.#counters.voqSymbolsSent++;
      this.#probe.count(SWITCH_PROBE_COUNTS.voqSymbolsSent);
    }
    return s;
  }

  /** A control symbol arrived on port o's link; `voq` its VoQ backpressure message, if it carries one. */
  symbol(o: number, voq: VoqMessageIn | null, now: number): void {
    this.#now = now;
    this.#counters.symbolsReceived++;
    if (voq === null) return;
    this.#counters.voqSymbolsReceived++;
    this.#probe.count(SWITCH_PROBE_COUNTS.voqSymbolsReceived);
    if (this.#staging === null) {
      // VoQ §4.1 c "Devices may support only the generation of backpressure messages without the ability to honor messages".
      this.#counters.voqIgnored++;
      return;
    }
    const r = this.#staging.symbol(o, voq, now);
    if (r.ignored) this.#counters.voqIgnored++;
    this.#counters.voqBlocked += r.blocked;
    this.#counters.voqUnblocked += r.unblocked;
    if (r.blocked > 0) this.#probe.count(SWITCH_PROBE_COUNTS.voqBlocked, r.blocked);
    if (r.unblocked > 0) this.#host.kick(o, now);
  }

  /** The VoQ refresh timer is due. */
  timer(now: number): void {
    this.#now = now;
    this.#voq?.timer(now, this.#voqHost);
  }

  // ---- Internals -------------------------------------------------------------------------------

  #congestionOut(o: number): boolean {
    return !this.#congestionAtInputs && this.#congestion.has(o);
  }

  #released(i: number, p: P, now: number): void {
    const inp = this.inputs[i] as InputStage<P>;
    inp.count--;
    inp.bytes -= p.bytes;
    this.#probe.occupancy(this.#inName[i] as string, now, inp.count, inp.bytes);
    if (this.#congestionAtInputs && this.#congestion.has(i)) this.#ccps(i, this.#congestion.dequeue(i, p, now), now);
    this.#host.released(i, p, now);
  }

  #delivered(o: number, p: P, now: number): void {
    const out = this.outputs[o] as OutputStage<P>;
    out.dataCount++;
    out.bytes += p.bytes;
    if (this.#staging === null || !this.#staging.stage(o, p, now)) out.add(p);
    this.#probe.occupancy(this.#outName[o] as string, now, out.dataCount + out.ownCount, out.bytes);
    if (!this.#congestionAtInputs && this.#congestion.has(o)) this.#ccps(o, this.#congestion.enqueue(o, p, now), now);
    this.#voq?.depth(o, out.dataCount, now, this.#voqHost);
    this.#host.kick(o, now);
  }

  #left(out: OutputStage<P>, p: P, now: number, queued: boolean): void {
    out.bytes -= p.bytes;
    this.#sent(p, queued);
    this.#probe.occupancy(this.#outName[out.index] as string, now, out.dataCount + out.ownCount, out.bytes);
  }

  /** `queued`: it came from the buffer (forwarded, or a response), not from the switch's own CCPs. */
  #sent(p: P, queued: boolean): void {
    this.#counters.packetsOut++;
    if (!queued || (this.#responses.size > 0 && this.#responses.delete(p))) return;
    this.#counters.forwarded++;
  }

  /** Part 3 §2.5 "If the received hop_count is zero, the access is for that switch". */
  #answerRequest(port: number, request: Type8ReadRequest | Type8WriteRequest): Packet | undefined {
    setAccessPort(this.registers, port);
    const a = answerMaintenance(this.registers, request);
    const read = request.transactionName === 'MAINTENANCE_READ_REQUEST';
    if (!a.ok) this.#counters.maintenanceErrors++;
    else if (read) this.#counters.maintenanceReads++;
    else this.#counters.maintenanceWrites++;
    this.#event({
      name: 'maintenance-answered', port, sourceID: request.sourceID, transaction: request.transactionName, offset: request.byteOffset,
      status: a.ok ? 'DONE' : 'ERROR', ...(a.ok ? {} : { reason: a.reason }),
    });
    return a.response;
  }

  #ccps(k: number, outs: readonly CongestionPointOutput[], now: number): void {
    for (const x of outs) {
      if (x.kind === 'send') this.#injectCcp(k, x.packet, now);
      else {
        this.#counters.congestionEvents++;
        if (x.name === 'ccp-dropped') {
          this.#counters.ccpDropped++;
          this.#probe.count(SWITCH_PROBE_COUNTS.ccpDropped);
        }
        if (this.#reporting) this.#event({ name: 'congestion', port: k, detail: untag(x) });
      }
    }
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
    const port = this.routes.lookup(ccp.destinationID);
    let reason: CcpDropReason | undefined;
    if (port === undefined) reason = 'no-route';
    else if (this.#up[port] === 0) reason = 'port-down';
    else if (!isFlowControlParticipant(this.registers, this.#lpSerialBase, port)) reason = 'not-participant';
    else if ((this.outputs[port] as OutputStage<P>).ownCount >= this.config.ccpQueue) reason = 'ccp-queue-full';
    const fields = !this.#reporting ? null : { congestedPort, command: ccp.command, destinationID: ccp.destinationID, tgtdestinationID: ccp.tgtdestinationID, flowID: ccp.flowID };
    if (port === undefined || reason !== undefined) {
      this.#counters.ccpDropped++;
      this.#probe.count(SWITCH_PROBE_COUNTS.ccpDropped);
      if (fields !== null) this.#event({ name: 'ccp-dropped', port: port ?? null, ...fields, ...(reason === undefined ? {} : { reason }) });
      return;
    }
    const out = this.outputs[port] as OutputStage<P>;
    const p = this.#host.make(ccp, serialPacketLength(ccp), now, null);
    out.own.push(p);
    out.bytes += p.bytes;
    this.#counters.ccpSent++;
    this.#probe.count(SWITCH_PROBE_COUNTS.ccpSent);
    if (fields !== null) this.#event({ name: 'ccp-sent', port, ...fields });
    this.#probe.occupancy(this.#outName[port] as string, now, out.dataCount + out.ownCount, out.bytes);
    this.#host.kick(port, now);
  }

  #noRoute(port: number, ftype: number, destinationID: number): void {
    this.#counters.noRoute++;
    this.#probe.count(SWITCH_PROBE_COUNTS.noRoute);
    if (this.#reporting) this.#event({ name: 'no-route', port, ftype, destinationID });
  }

  /** A packet for an output whose link is down: counted with those that have no route in the probe (the simulator's "unknown destination"). */
  #portDown(o: number): void {
    this.#counters.portDownDrops++;
    this.#probe.count(SWITCH_PROBE_COUNTS.noRoute);
    if (this.#reporting) this.#event({ name: 'port-down', port: o, packets: 1 });
  }

  #event(e: SwitchEvent): void {
    this.#host.event?.(e, this.#now);
  }
}
