import { zeroCounters } from '../../engine/contract.ts';
import type { Counters } from '../../engine/contract.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { EventId, Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel, Link } from './channel.ts';
import { resolveSwitchConfig } from './switch-config.ts';
import type { ResolvedSwitchConfig, SwitchConfig } from './switch-config.ts';
import { SwitchCongestion, ccpPacket } from './switch-congestion.ts';
import type { CongestionHost } from './switch-congestion.ts';
import { Crossbar } from './switch-crossbar.ts';
import type { CrossbarHost } from './switch-crossbar.ts';
import type { PortHost } from './switch-stages.ts';
import { InputStage, OutputStage, SwitchPortRx, SwitchPortTx, priorityAllowed } from './switch-stages.ts';
import { CLASSES, VoqSignals, VoqStaging, classOf } from './switch-voq.ts';
import type { VoqHost } from './switch-voq.ts';
import type { Ring } from './queues.ts';
import { COUNTER_NAMES, NO_PROBE, SWITCH_PROBE_COUNTS } from './switch-types.ts';
import type { SwitchCounterName, SwitchOptions } from './switch-types.ts';
import type { PortRx, PortTx, Probe, RxBufferSpec, SimPacket, SimSymbol } from './types.ts';

export { SWITCH_PROBE_COUNTS } from './switch-types.ts';
export type { SwitchCounterName, SwitchOptions } from './switch-types.ts';

const VOQ_TIMER = 0;
const FLUSH = 1;

/**
 * A switch (issue 7 §2 "Switches"): N ports, each the receiving side of one link (its input
 * buffer, whose credits go back when a packet leaves it) and the transmitting side of the link's
 * other direction. A routing table sends each destination ID to an output; a crossbar with
 * speedup S moves packets from inputs to outputs (switch-crossbar.ts); outputs send by priority.
 *
 * Wiring: `makeLink(sched, name, spec, sw.port(i), far)` then `sw.attach(i, link, 'a')` (or 'b'
 * when the switch is the link's second end).
 */
export class Switch implements Target, CrossbarHost, CongestionHost, VoqHost, PortHost {
  readonly name: string;
  readonly config: ResolvedSwitchConfig;
  readonly inputs: readonly InputStage[];
  readonly outputs: readonly OutputStage[];
  readonly #sched: Scheduler;
  readonly #probe: Probe;
  readonly #ids: { nextPacketId(): number };
  readonly #crossbar: Crossbar;
  readonly #congestion: SwitchCongestion | null;
  readonly #staging: VoqStaging | null;
  readonly #signals: VoqSignals | null;
  readonly #counters = zeroCounters(COUNTER_NAMES);
  readonly #tx: SwitchPortTx[];
  readonly #rx: SwitchPortRx[];
  /** Outputs whose channel is inside `pull`: a kick or a symbol for it must wait (the channel is choosing what to send). */
  readonly #inPull: Uint8Array;
  readonly #deferred: SimSymbol[][];
  readonly #inName: string[];
  /** Slotted operation: credits freed since the last slot boundary, per input. */
  readonly #pendingCredits: Int32Array;
  #pendingTotal = 0;
  readonly #outName: string[];
  #voqTimer: EventId | null = null;

  constructor(sched: Scheduler, config: SwitchConfig, options: SwitchOptions) {
    const cfg = resolveSwitchConfig(config);
    this.config = cfg;
    this.name = cfg.name;
    this.#sched = sched;
    this.#probe = options.probe ?? NO_PROBE;
    this.#ids = options.ids;
    const n = cfg.ports;
    this.inputs = Array.from({ length: n }, (_, i) => new InputStage(i, cfg.queueing, n));
    this.outputs = Array.from({ length: n }, (_, o) => new OutputStage(o));
    this.#tx = Array.from({ length: n }, (_, i) => new SwitchPortTx(this, i));
    this.#rx = Array.from({ length: n }, (_, i) => new SwitchPortRx(this, i));
    this.#inPull = new Uint8Array(n);
    this.#deferred = Array.from({ length: n }, () => []);
    this.#pendingCredits = new Int32Array(n);
    this.#inName = Array.from({ length: n }, (_, i) => `${cfg.name}/in${i}`);
    this.#outName = Array.from({ length: n }, (_, i) => `${cfg.name}/out${i}`);
    const rng = cfg.arbitration === 'random' && cfg.queueing !== 'input-voq' ? options.streams?.stream(`switch:${cfg.name}:arb`) : undefined;
    if (cfg.arbitration === 'random' && cfg.queueing !== 'input-voq' && rng === undefined) throw new RangeError(`${cfg.name}.arbitration random needs options.streams`);
    this.#crossbar = new Crossbar(sched, cfg, this.inputs, this.outputs, this, rng);
    this.#congestion = cfg.congestion === null ? null : new SwitchCongestion(cfg, this);
    this.#staging = cfg.voq === null ? null : new VoqStaging(n, cfg.routes, cfg.voq);
    this.#signals = cfg.voq === null ? null : new VoqSignals(n, cfg.voq, this);
  }

  /** The port's two sides and its input buffer, as `makeLink` takes them. */
  port(i: number): { readonly tx: PortTx; readonly rx: PortRx; readonly buffers: RxBufferSpec } {
    const tx = this.#tx[i];
    const rx = this.#rx[i];
    const buffers = this.config.buffers[i];
    if (tx === undefined || rx === undefined || buffers === undefined) throw new RangeError(`${this.name}: no port ${i}`);
    return { tx, rx, buffers };
  }

  /** Connects port `i` to a link built with `port(i)` as its end `side`. */
  attach(i: number, link: Link, side: 'a' | 'b'): void {
    const inp = this.inputs[i];
    const out = this.outputs[i];
    if (inp === undefined || out === undefined) throw new RangeError(`${this.name}: no port ${i}`);
    out.outChannel = side === 'a' ? link.ab : link.ba;
    inp.inChannel = side === 'a' ? link.ba : link.ab;
  }

  onEvent(kind: number, data: unknown, now: number): void {
    switch (kind) {
      case VOQ_TIMER:
        this.#voqTimer = null;
        this.#signals?.timer(now);
        return;
      case FLUSH:
        this.#flush(data as number, now);
        return;
      default:
        throw new RangeError(`switch ${this.name}: unknown event kind ${kind}`);
    }
  }

  /** A packet's last bit arrived on port i's link (the link's credit rule guarantees the buffer). */
  receivePort(i: number, p: SimPacket, now: number): void {
    this.#counters.received++;
    const inp = this.inputs[i] as InputStage;
    const o = this.config.routes.get(p.dst)?.port ?? this.config.defaultRoute;
    if (o === undefined || this.outputs[o]?.outChannel === undefined) {
      // Issue 7 §2 "unknown destination → drop counted"; the buffer it never took is credited back.
      this.#counters.noRoute++;
      this.#probe.count(SWITCH_PROBE_COUNTS.noRoute);
      this.#credit(i, now);
      return;
    }
    inp.count++;
    inp.bytes += p.bytes;
    this.#probe.occupancy(this.#inName[i] as string, now, inp.count, inp.bytes);
    if (this.#congestion?.atInputs === true) this.#congestion.enqueue(i, p, now);
    this.#crossbar.arrive(inp, p, o, now);
  }

  /** Port o's link may carry a packet: strictly priority 3 … 0, CRF 1 before 0, FIFO within, the CCPs of the switch first. */
  pullPort(o: number, now: number, free: number, reserve: number): SimPacket | null {
    const out = this.outputs[o] as OutputStage;
    if (out.register !== null) {
      // outputQueue 0: the crossbar chose this packet for the idle link, with the receiver's credit checked.
      const p = out.register;
      out.register = null;
      this.#counters.forwarded++;
      return p;
    }
    if (!this.#crossbar.mayTransmit(now)) {
      if (out.dataCount + out.controlCount > 0) {
        out.wantsSlot = true;
        this.#crossbar.requestDecide(now);
      } else this.#crossbar.outputIdle(now);
      return null;
    }
    this.#inPull[o] = 1;
    try {
      for (let c = CLASSES - 1; c >= 0; c--) {
        if (!priorityAllowed(c >> 1, free, reserve)) break;
        const ctl = (out.control[c] as Ring<SimPacket>).shift();
        if (ctl !== undefined) {
          out.controlCount--;
          this.#left(out, ctl, now);
          return ctl;
        }
        const p = (out.data[c] as Ring<SimPacket>).shift() ?? this.#staging?.take(o, c, now) ?? null;
        if (p !== null) {
          out.dataCount--;
          this.#left(out, p, now);
          if (this.#congestion?.atInputs === false) this.#congestion.dequeue(o, p, now);
          this.#signals?.depth(o, out.dataCount, now);
          this.#crossbar.roomAt(now);
          return p;
        }
      }
      this.#crossbar.outputIdle(now);
      return null;
    } finally {
      this.#inPull[o] = 0;
    }
  }

  /** A control symbol arrived on port o's link from the far end (credits are the channel's). */
  symbolPort(o: number, s: SimSymbol, now: number): void {
    if (s.kind !== 'voq') return;
    this.#counters.voqSymbolsReceived++;
    this.#probe.count(SWITCH_PROBE_COUNTS.voqSymbolsReceived);
    if (this.#staging === null) {
      this.#counters.voqIgnored++;
      return;
    }
    const r = this.#staging.symbol(o, s, now);
    if (r.ignored) this.#counters.voqIgnored++;
    this.#counters.voqBlocked += r.blocked;
    this.#counters.voqUnblocked += r.unblocked;
    if (r.blocked > 0) this.#probe.count(SWITCH_PROBE_COUNTS.voqBlocked, r.blocked);
    if (r.unblocked > 0) this.kickOutput(o, now);
  }

  /** CrossbarHost: a packet crossed into output o's queue. */
  delivered(o: number, p: SimPacket, now: number): void {
    const out = this.outputs[o] as OutputStage;
    out.dataCount++;
    out.bytes += p.bytes;
    if (this.#staging === null || !this.#staging.stage(o, p, now)) (out.data[classOf(p)] as Ring<SimPacket>).push(p);
    this.#probe.occupancy(this.#outName[o] as string, now, out.dataCount + out.controlCount, out.bytes);
    if (this.#congestion?.atInputs === false) this.#congestion.enqueue(o, p, now);
    this.#signals?.depth(o, out.dataCount, now);
    this.kickOutput(o, now);
  }

  /** CrossbarHost: input i's packet left its buffer. */
  released(i: number, p: SimPacket, now: number): void {
    const inp = this.inputs[i] as InputStage;
    inp.count--;
    inp.bytes -= p.bytes;
    this.#probe.occupancy(this.#inName[i] as string, now, inp.count, inp.bytes);
    if (this.#congestion?.atInputs === true) this.#congestion.dequeue(i, p, now);
    this.#credit(i, now);
  }

  /**
   * CrossbarHost: at a slot boundary, after the outputs have started their packets, the credits
   * held since the last boundary go back, one symbol per link. A credit sent on an idle link just
   * before a boundary would hold the link past it and cost its output a whole slot; the cell
   * switches the slotted mode models carry their flow control inside the cells.
   */
  afterDecide(now: number, atSlot: boolean): void {
    if (!atSlot || this.#pendingTotal === 0) return;
    for (let i = 0; i < this.config.ports; i++) {
      const k = this.#pendingCredits[i] as number;
      if (k === 0) continue;
      this.#pendingCredits[i] = 0;
      this.inputs[i]?.inChannel?.freed(k, now);
    }
    this.#pendingTotal = 0;
  }

  hasPendingCredits(): boolean {
    return this.#pendingTotal > 0;
  }

  /**
   * CrossbarHost: `outputQueue` packets per output, or with VoQ staging per staging queue, so
   * that traffic held by backpressure cannot take the room of traffic that may pass (§4.3 b
   * "allowing other traffic to pass").
   */
  hasRoom(o: number, p: SimPacket): boolean {
    const cap = this.config.outputQueue;
    return this.#staging === null ? (this.outputs[o] as OutputStage).dataCount < cap : this.#staging.depth(o, p) < cap;
  }

  /** CrossbarHost: output o has something to send now (a slot boundary, a new packet, an unblocked queue). */
  kickOutput(o: number, now: number): void {
    const out = this.outputs[o] as OutputStage;
    const ch = out.outChannel;
    if (ch === undefined || this.#inPull[o] === 1) return;
    if (this.#crossbar.mayTransmit(now)) {
      ch.kick(now);
      return;
    }
    out.wantsSlot = true;
    this.#crossbar.requestDecide(now);
  }

  /** CrossbarHost: a transfer started. */
  transferred(): void {
    this.#counters.transfers++;
  }

  /**
   * CongestionHost: a CCP leaves by the routing table like any packet (Part 9 §2.4.6 rule 1 "the
   * switch shall send a CCP (XOFF) for each congested flow to their respective end points"), in
   * the class its prio/CRF name (§2.4.2: prio 3, CRF 1), ahead of data of that class. The switch
   * holds at most `ccpQueue` of its own CCPs per output; beyond that it drops them (§2.4.6 rule 2
   * "If a switch runs out of packet buffer space, it is permitted to drop CCPs").
   */
  injectCcp(port: number, ccp: Type7Packet, now: number): void {
    const out = this.outputs[port];
    if (out?.outChannel === undefined || out.controlCount >= this.config.ccpQueue) {
      this.#counters.ccpDropped++;
      this.#probe.count(SWITCH_PROBE_COUNTS.ccpDropped);
      return;
    }
    const p = ccpPacket(ccp, this.#ids.nextPacketId(), now);
    (out.control[classOf(p)] as Ring<SimPacket>).push(p);
    out.controlCount++;
    out.bytes += p.bytes;
    this.#counters.ccpSent++;
    this.#probe.count(SWITCH_PROBE_COUNTS.ccpSent);
    this.#probe.occupancy(this.#outName[port] as string, now, out.dataCount + out.controlCount, out.bytes);
    this.kickOutput(port, now);
  }

  congestionEvent(name: string): void {
    this.#counters.congestionEvents++;
    if (name === 'ccp-dropped') {
      this.#counters.ccpDropped++;
      this.#probe.count(SWITCH_PROBE_COUNTS.ccpDropped);
    }
  }

  /** VoqHost: the message goes upstream on port `port`'s link as a control symbol. */
  sendVoqSymbol(port: number, s: SimSymbol, now: number): void {
    const ch = this.outputs[port]?.outChannel;
    if (ch === undefined) return;
    this.#counters.voqSymbolsSent++;
    this.#probe.count(SWITCH_PROBE_COUNTS.voqSymbolsSent);
    if (this.#inPull[port] === 0) {
      ch.sendSymbol(s, now);
      return;
    }
    const list = this.#deferred[port] as SimSymbol[];
    if (list.length === 0) this.#sched.schedule(now, this, FLUSH, port);
    list.push(s);
  }

  setVoqTimer(at: number | null): void {
    if (this.#voqTimer !== null) this.#sched.cancel(this.#voqTimer);
    this.#voqTimer = at === null ? null : this.#sched.schedule(at, this, VOQ_TIMER);
  }

  voqEvent(): void {
    this.#counters.voqEvents++;
  }

  counters(): Counters<SwitchCounterName> {
    return { ...this.#counters };
  }

  /** Packets in port i's input buffer (waiting and crossing). */
  inputOccupancy(i: number): number {
    return this.inputs[i]?.count ?? 0;
  }

  /** Packets queued at output o (data and the switch's CCPs). */
  outputOccupancy(o: number): number {
    const out = this.outputs[o];
    return out === undefined ? 0 : out.dataCount + out.controlCount;
  }

  /** Whether output o's VoQ staging queue `queue` is stopped by backpressure (cioq only). */
  stagingBlocked(o: number, queue: number): boolean {
    return this.#staging?.isBlocked(o, queue) ?? false;
  }

  snapshot(): Record<string, unknown> {
    return {
      name: this.name,
      queueing: this.config.queueing,
      inputs: this.inputs.map((s) => ({ packets: s.count, bytes: s.bytes, waiting: s.waiting, crossing: s.current?.id ?? null })),
      outputs: this.outputs.map((s, o) => ({
        data: s.dataCount, control: s.controlCount, bytes: s.bytes, receiving: s.receiving, register: s.register?.id ?? null,
        congestedDownstream: this.#staging?.congestedPorts(o) ?? [],
      })),
      crossbar: this.#crossbar.snapshot(),
      congestion: this.#congestion?.points.map((p) => p.snapshot()) ?? null,
      voq: this.#staging === null ? null : { staging: this.#staging.snapshot(), generator: this.#signals?.generator.snapshot() ?? null },
      counters: this.counters(),
    };
  }

  #left(out: OutputStage, p: SimPacket, now: number): void {
    out.bytes -= p.bytes;
    this.#counters.forwarded++;
    this.#probe.occupancy(this.#outName[out.index] as string, now, out.dataCount + out.controlCount, out.bytes);
  }

  /** Input i's link gets a buffer back: at once, or at the next slot boundary in slotted operation. */
  #credit(i: number, now: number): void {
    if (this.config.slot === null) {
      this.inputs[i]?.inChannel?.freed(1, now);
      return;
    }
    this.#pendingCredits[i] = (this.#pendingCredits[i] as number) + 1;
    this.#pendingTotal++;
    this.#crossbar.requestDecide(now);
  }

  #flush(port: number, now: number): void {
    const list = this.#deferred[port] as SimSymbol[];
    const ch = this.outputs[port]?.outChannel as Channel;
    for (const s of list) ch.sendSymbol(s, now);
    list.length = 0;
  }
}
