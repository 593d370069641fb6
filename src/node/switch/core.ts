import { zeroCounters } from '../../engine/contract.ts';
import type { Counters } from '../../engine/contract.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import type { Type8ReadRequest, Type8WriteRequest } from '../../wire/type8.ts';
import type { ArbiterRandom } from './arbiters.ts';
import type { ResolvedSwitchConfig } from './config.ts';
import type { BufferSpec, SwitchConfig } from './config-types.ts';
import type { SwitchCoreSnapshot } from './element-types.ts';
import type { SwitchCongestion } from './congestion.ts';
import { assembleSwitchCore } from './core-assembly.ts';
import type { Matcher, MatchHost } from './matcher.ts';
import type { SwitchPacket } from './packet.ts';
import { isMaintenanceWire } from './receive.ts';
import { baseDeviceId, setPortLink } from './registers.ts';
import type { RouteTable } from './routes.ts';
import { ReadyInputs } from './ready-inputs.ts';
import type { InputStage, OutputStage } from './stages.ts';
import { NO_PROBE, SWITCH_COUNTERS, SWITCH_PROBE_COUNTS } from './types.ts';
import type { BufferProbe, SwitchCounter, SwitchEvent, SwitchHost, SwitchProbe, SwitchSymbol } from './types.ts';
import type { OwnPackets } from './own-packets.ts';
import { SwitchTransmit } from './transmit.ts';
import type { SwitchVoq } from './voq-generator.ts';
import { receiveVoq } from './voq-staging.ts';
import type { VoqMessageIn, VoqStaging } from './voq-staging.ts';
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
  readonly #own: OwnPackets<P>;
  readonly #counters: Counters<SwitchCounter> = zeroCounters(SWITCH_COUNTERS);
  readonly #up: Uint8Array;
  readonly #lpSerialBase: number;
  readonly #capacity: number;
  readonly #inBuf: readonly BufferProbe[];
  readonly #outBuf: readonly BufferProbe[];
  /** Requests for the switch waiting at an input (rare: a Set). */
  readonly #answers = new Set<P>();
  /** The output side: output queues, pulls (transmit.ts). */
  readonly #tx: SwitchTransmit<P>;
  /** Free inputs holding a waiting packet: only these can make a decision do anything. */
  readonly #ready: ReadyInputs;
  #now = 0;

  constructor(config: SwitchConfig, host: SwitchHost<P>, options: SwitchCoreOptions = {}) {
    this.#host = host;
    this.#probe = options.probe ?? NO_PROBE;
    const s = assembleSwitchCore<P>(config, {
      host, probe: this.#probe, counters: this.#counters, match: this, rng: options.rng, now: () => this.#now, event: (e) => { this.#event(e); },
    });
    this.config = s.config;
    this.routes = s.routes;
    this.registers = s.registers;
    this.#lpSerialBase = s.lpSerialBase;
    this.inputs = s.inputs;
    this.outputs = s.outputs;
    this.#up = s.up;
    this.#congestion = s.congestion;
    this.#congestionAtInputs = s.congestionAtInputs;
    this.#capacity = s.capacity;
    this.#inBuf = s.inBuf;
    this.#outBuf = s.outBuf;
    this.#own = s.own;
    this.#matcher = s.matcher;
    this.#staging = s.staging;
    this.#voq = s.voq;
    this.#ready = new ReadyInputs(s.config.ports);
    this.#tx = new SwitchTransmit(s, {
      host, probe: this.#probe, counters: this.#counters, ready: () => this.#ready.size, idle: (now) => { this.outputIdle(now); },
    });
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

  snapshot(): SwitchCoreSnapshot {
    return snapshotSwitch(this.config, this.inputs, this.outputs, this.#up, this.routes, {
      deviceId: baseDeviceId(this.registers, this.config.tt), matcher: this.#matcher.snapshot(), congestion: this.#congestion.snapshot(),
      staging: this.#staging, voq: this.#voq, maintenanceBudget: this.#own.budgetSnapshot(), counters: this.counters(),
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
    setPortLink(this.registers, this.#lpSerialBase, port, true);
    if (recovered) this.#voq?.linkUp(port, now);
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
    setPortLink(this.registers, this.#lpSerialBase, port, false);
    const out = this.outputs[port] as OutputStage<P>;
    const flushed = out.flush();
    const queued = flushed.queued;
    let dropped = flushed.dropped;
    for (const inp of this.inputs) {
      const gone = inp.removeFor(port);
      if (gone.length === 0) continue;
      dropped += gone.length;
      if (inp.current === null && inp.waiting === 0) this.#ready.delete(inp.index);
      for (const p of gone) {
        if (this.#answers.delete(p)) this.#own.answer(inp.index, p.wire as Type8ReadRequest | Type8WriteRequest);
        this.#released(inp.index, p, now);
      }
    }
    if (dropped > 0) {
      this.#counters.portDownDrops += dropped;
      this.#event({ name: 'port-down', port, packets: dropped });
    }
    for (const p of queued) {
      this.#tx.dropped(p);
      if (!this.#congestionAtInputs && this.#congestion.has(port)) this.#own.ccps(port, this.#congestion.dequeue(port, p, now), now);
    }
    this.#voq?.depth(port, out.dataCount, now);
    (this.#outBuf[port] as BufferProbe).occupancy(now, out.dataCount + out.ownCount, out.bytes);
    if (this.#ready.size > 0) this.#host.requestDecide(now);
  }

  // ---- Receive ---------------------------------------------------------------------------------

  /** A packet's last bit arrived on port i's link. */
  receive(i: number, p: P, now: number): void {
    this.#now = now;
    this.#counters.packetsIn++;
    const inp = this.inputs[i] as InputStage<P>;
    const refused = inp.refusal(p, this.config.accept[i], this.config.inputBuffers[i] as Required<BufferSpec>);
    if (refused === 'source-rejected') {
      this.#counters.sourceRejected++;
      this.#event({ name: 'source-rejected', port: i, ftype: p.ftype, id: p.src });
      this.#host.released(i, p, now);
      return;
    }
    if (refused === 'hold-overrun') {
      this.#counters.holdOverruns++;
      this.#event({ name: 'hold-overrun', port: i, ftype: p.ftype, destinationID: p.dst });
      return;
    }
    let q = p;
    let o: number | undefined;
    let answer = false;
    if (p.ftype === 8 && isMaintenanceWire(p.wire)) {
      const m = this.#own.maintenance(i, p, now);
      if (m === null) {
        this.#host.released(i, p, now);
        return;
      }
      ({ out: o, packet: q, answer } = m);
    } else o = this.routes.lookup(p.dst);
    if (o === undefined || this.#up[o] === 0) {
      if (answer) this.#own.answer(i, p.wire as Type8ReadRequest | Type8WriteRequest);
      if (o === undefined) this.#own.noRoute(i, p.ftype, p.dst);
      else this.#own.portDown(o);
      this.#host.released(i, p, now);
      return;
    }
    inp.count++;
    inp.bytes += q.bytes;
    (this.#inBuf[i] as BufferProbe).occupancy(now, inp.count, inp.bytes);
    if (answer) this.#answers.add(q);
    if (this.#congestionAtInputs && this.#congestion.has(i)) this.#own.ccps(i, this.#congestion.enqueue(i, q, now), now);
    inp.push(q, o);
    if (inp.current === null && inp.waiting === 1) this.#ready.add(i);
    if (this.#ready.size > 0) this.#host.requestDecide(now);
  }

  // ---- Crossbar --------------------------------------------------------------------------------

  /** A crossbar decision: starts the transfers it chooses; true when a pair that wants each other was left (iSLIP ran out of iterations). */
  decide(now: number, atSlot: boolean): boolean {
    this.#now = now;
    return this.#ready.size > 0 && this.#matcher.decide(this.inputs, this.#ready, now, atSlot);
  }

  /** Whether a decision could start anything: a free input holds a packet. */
  get readyInputs(): number {
    return this.#ready.size;
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
    this.#ready.delete(inp.index);
    inp.current = p;
    inp.currentOut = o;
    let x: P | null = p;
    if (this.#answers.size > 0 && this.#answers.delete(p)) {
      // Part 3 §2.5: performed once its response can be queued (the match checked the room).
      const r = this.#own.answer(inp.index, p.wire as Type8ReadRequest | Type8WriteRequest);
      x = r === undefined ? null : this.#host.make(r, serialPacketLength(r), now, null);
      if (x !== null) this.#tx.response(x);
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
      if (x !== null) this.#tx.delivered(o, x, now);
    }
    if (inp.waiting > 0) this.#ready.add(i);
    if (this.#ready.size > 0) this.#host.requestDecide(now);
  }

  // ---- Transmit --------------------------------------------------------------------------------

  /** Output buffer 0: the packet the crossbar put in output o's register, taken; null when empty. */
  takeRegister(o: number): P | null {
    return this.#tx.takeRegister(o);
  }

  /**
   * The next packet for output o's link, given the receiver's free buffers as the link knows them
   * (Part 6 §5: priority p only while more than (3 − p) × reserve are free; `Infinity` on a link
   * without credits): priority 3 … 0, CRF 1 before 0, the switch's own CCPs first in their class,
   * oldest first within a class. Null when nothing may go.
   */
  pull(o: number, now: number, free: number, reserve: number): P | null {
    this.#now = now;
    return this.#tx.pull(o, now, free, reserve);
  }

  /** Output buffer 0: an output link found nothing to send, so the crossbar may now fill it. */
  outputIdle(now: number): void {
    if (this.#capacity === 0 && this.#ready.size > 0) this.#host.requestDecide(now);
  }

  // ---- VoQ backpressure and timers -------------------------------------------------------------

  /** Whether a VoQ message waits for `port`'s link. */
  voqPending(port: number): boolean {
    return this.#voq?.hasPending(port) ?? false;
  }

  /** The VoQ symbol to send on `port`'s link now, with the status current now; null when none is worth sending. */
  voqNext(port: number, now: number): SwitchSymbol | null {
    this.#now = now;
    const s = this.#voq?.next(port, now) ?? null;
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
    if (voq !== null && receiveVoq(this.#staging, o, voq, now, this.#counters, this.#probe)) this.#host.kick(o, now);
  }

  /** The VoQ refresh timer is due. */
  timer(now: number): void {
    this.#now = now;
    this.#voq?.timer(now);
  }

  // ---- Internals -------------------------------------------------------------------------------

  #released(i: number, p: P, now: number): void {
    const inp = this.inputs[i] as InputStage<P>;
    inp.count--;
    inp.bytes -= p.bytes;
    (this.#inBuf[i] as BufferProbe).occupancy(now, inp.count, inp.bytes);
    if (this.#congestionAtInputs && this.#congestion.has(i)) this.#own.ccps(i, this.#congestion.dequeue(i, p, now), now);
    this.#host.released(i, p, now);
  }

  #event(e: SwitchEvent): void {
    this.#host.event?.(e, this.#now);
  }
}
