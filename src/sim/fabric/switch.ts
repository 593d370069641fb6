import type { Counters } from '../../engine/contract.ts';
import { SwitchCore } from '../../node/switch/core.ts';
import type { SwitchConfig as ElementConfig } from '../../node/switch/config-types.ts';
import type { SwitchHost, SwitchSymbol } from '../../node/switch/types.ts';
import type { Packet } from '../../wire/packet.ts';
import type { EventId, Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel, Link } from './channel.ts';
import { CrossbarClock } from './switch-crossbar.ts';
import type { CrossbarTiming } from './switch-crossbar.ts';
import { simPacketOf } from './sim-packet.ts';
import { SWITCH_COUNTER_NAMES, NO_PROBE } from './switch-types.ts';
import type { SimSwitchSnapshot, SwitchCounterName, SwitchOptions } from './switch-types.ts';
import type { PortRx, PortTx, RxBufferSpec, SimPacket, SimSymbol } from './types.ts';

export { SWITCH_PROBE_COUNTS } from '../../node/switch/types.ts';
export type { SwitchCounterName, SwitchOptions } from './switch-types.ts';

/**
 * A simulated switch: the switch element of src/node/switch/ (`SwitchCore`, the one every host
 * runs) with the simulator's timing around it (issue 15). The element decides what happens to
 * every packet; this host decides when: a crossbar transfer takes packetTime / S of the output
 * link (issue 7 §2 "crossbar speedup S"), decisions and transmissions may be slotted
 * (switch-crossbar.ts), and each port is the receiving side of one link (its input buffer, whose
 * credits go back when a packet leaves it) and the transmitting side of the link's other direction.
 *
 * Wiring: `makeLink(sched, name, spec, sw.port(i), far)` then `sw.attach(i, link, 'a')` (or 'b'
 * when the switch is the link's second end).
 */
export interface SwitchConfig extends ElementConfig {
  readonly name: string;
  /** Crossbar speedup S >= 1: a transfer takes packetTime / S of the output link. Default 1. */
  readonly speedup?: number;
  /** Slotted operation: crossbar decisions and output transmissions start at multiples of `slot` ps. */
  readonly slot?: number | null;
}

const VOQ_TIMER = 0;
const FLUSH = 1;

export class Switch implements Target, SwitchHost<SimPacket> {
  readonly name: string;
  readonly core: SwitchCore<SimPacket>;
  readonly config: SwitchCore<SimPacket>['config'] & CrossbarTiming;
  readonly #sched: Scheduler;
  readonly #ids: { nextPacketId(): number };
  readonly #clock: CrossbarClock;
  readonly #tx: PortTx[];
  readonly #rx: PortRx[];
  readonly #outChannel: (Channel | undefined)[];
  readonly #inChannel: (Channel | undefined)[];
  /** Outputs whose channel is inside `pull`: a kick or a symbol for it must wait (the channel is choosing what to send). */
  readonly #inPull: Uint8Array;
  readonly #deferred: SimSymbol[][];
  /** Slotted operation: credits freed since the last slot boundary, per input. */
  readonly #pendingCredits: Int32Array;
  #pendingTotal = 0;
  #voqTimer: EventId | null = null;

  constructor(sched: Scheduler, config: SwitchConfig, options: SwitchOptions) {
    const { speedup, slot, ...element } = config;
    if (typeof config.name !== 'string' || config.name === '') throw new RangeError('switch name must be a non-empty string');
    const name = config.name;
    const arb = typeof element.arbitration === 'string' ? { policy: element.arbitration } : element.arbitration;
    // Random arbitration, and PIM's grants and accepts (an input-VoQ switch's arbitration is its matcher's).
    const random = element.queueing === 'input-voq' ? element.matcher === 'pim' : arb?.policy === 'random';
    const rng = random && arb?.seed === undefined ? options.streams?.stream(`switch:${name}:arb`) : undefined;
    if (random && arb?.seed === undefined && rng === undefined) throw new RangeError(`${name}.${element.queueing === 'input-voq' ? 'matcher pim' : 'arbitration random'} needs options.streams or arbitration.seed`);
    this.name = name;
    this.#sched = sched;
    this.#ids = options.ids;
    this.core = new SwitchCore<SimPacket>(element, this, { probe: options.probe ?? NO_PROBE, ...(rng === undefined ? {} : { rng }) });
    this.#clock = new CrossbarClock(sched, name, { speedup, slot }, this.core, this);
    this.config = { ...this.core.config, ...this.#clock.timing };
    const n = this.core.config.ports;
    this.#tx = Array.from({ length: n }, (_, o) => ({
      pull: (now: number, free: number, reserve: number) => this.#pull(o, now, free, reserve),
      onSymbol: (s: SimSymbol, now: number) => { this.#symbol(o, s, now); },
    }));
    this.#rx = Array.from({ length: n }, (_, i) => ({ receive: (p: SimPacket, now: number) => { this.core.receive(i, p, now); } }));
    this.#outChannel = new Array<Channel | undefined>(n);
    this.#inChannel = new Array<Channel | undefined>(n);
    this.#inPull = new Uint8Array(n);
    this.#deferred = Array.from({ length: n }, () => []);
    this.#pendingCredits = new Int32Array(n);
  }

  /** The port's two sides and its input buffer, as `makeLink` takes them. */
  port(i: number): { readonly tx: PortTx; readonly rx: PortRx; readonly buffers: RxBufferSpec } {
    const tx = this.#tx[i];
    const rx = this.#rx[i];
    const buffers = this.core.config.inputBuffers[i];
    if (tx === undefined || rx === undefined || buffers === undefined) throw new RangeError(`${this.name}: no port ${i}`);
    return { tx, rx, buffers };
  }

  /** Connects port `i` to a link built with `port(i)` as its end `side`: the port is up. */
  attach(i: number, link: Link, side: 'a' | 'b'): void {
    if (i < 0 || i >= this.core.config.ports || !Number.isInteger(i)) throw new RangeError(`${this.name}: no port ${i}`);
    this.#outChannel[i] = side === 'a' ? link.ab : link.ba;
    this.#inChannel[i] = side === 'a' ? link.ba : link.ab;
    this.core.linkUp(i, this.#sched.now, false);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    switch (kind) {
      case VOQ_TIMER:
        this.#voqTimer = null;
        this.core.timer(now);
        return;
      case FLUSH:
        this.#flush(data as number, now);
        return;
      default:
        throw new RangeError(`switch ${this.name}: unknown event kind ${kind}`);
    }
  }

  counters(): Counters<SwitchCounterName> {
    const c = this.core.counters();
    return {
      received: c.packetsIn, forwarded: c.packetsOut, noRoute: c.noRoute + c.portDownDrops, transfers: c.transfers, ccpSent: c.ccpSent,
      ccpDropped: c.ccpDropped, congestionEvents: c.congestionEvents, voqSymbolsSent: c.voqSymbolsSent, voqSymbolsReceived: c.voqSymbolsReceived,
      voqBlocked: c.voqBlocked, voqUnblocked: c.voqUnblocked, voqIgnored: c.voqIgnored, voqEvents: c.voqEvents,
    } satisfies Record<(typeof SWITCH_COUNTER_NAMES)[number], number>;
  }

  inputOccupancy(i: number): number {
    return this.core.inputOccupancy(i);
  }

  outputOccupancy(o: number): number {
    return this.core.outputOccupancy(o);
  }

  stagingBlocked(o: number, queue: number): boolean {
    return this.core.stagingBlocked(o, queue);
  }

  snapshot(): SimSwitchSnapshot {
    return { ...this.core.snapshot(), timing: this.#clock.snapshot() };
  }

  // ---- SwitchHost ------------------------------------------------------------------------------

  kick(o: number, now: number): void {
    const ch = this.#outChannel[o];
    if (ch === undefined || this.#inPull[o] === 1) return;
    if (this.#clock.mayTransmit(now)) ch.kick(now);
    else this.#clock.wantSlot(o, now);
  }

  requestDecide(now: number): void {
    this.#clock.requestDecide(now);
  }

  transfer(i: number, o: number, p: SimPacket, now: number): void {
    this.#clock.transfer(i, (this.#outChannel[o] as Channel).packetTime(p.bytes), now);
  }

  /** Input i's link gets a buffer back: at once, or at the next slot boundary in slotted operation. */
  released(i: number, _p: SimPacket, now: number): void {
    if (!this.#clock.slotted) {
      this.#inChannel[i]?.freed(1, now);
      return;
    }
    this.#pendingCredits[i] = (this.#pendingCredits[i] as number) + 1;
    this.#pendingTotal++;
    this.#clock.requestDecide(now);
  }

  linkAccepts(o: number, prio: number, atSlot: boolean): boolean {
    const ch = this.#outChannel[o];
    return ch !== undefined && atSlot && ch.idle && ch.free > (3 - prio) * ch.rxSpec.reservePerPriority;
  }

  /** The message goes upstream at once, as its own control symbol between packets (VoQ §4.2 b: any carrier will do without VC linking). */
  voqWanted(port: number, now: number): void {
    const ch = this.#outChannel[port];
    if (ch === undefined) return;
    const s = this.core.voqNext(port, now);
    if (s === null) return;
    const sym: SimSymbol = s.form === 'cs64' ? { kind: 'voq', cs64: s.symbol } : { kind: 'voq', stype2: s.stype2 };
    if (this.#inPull[port] === 0) {
      ch.sendSymbol(sym, now);
      return;
    }
    const list = this.#deferred[port] as SimSymbol[];
    if (list.length === 0) this.#sched.schedule(now, this, FLUSH, port);
    list.push(sym);
  }

  voqTimer(at: number | null): void {
    if (this.#voqTimer !== null) this.#sched.cancel(this.#voqTimer);
    this.#voqTimer = at === null ? null : this.#sched.schedule(at, this, VOQ_TIMER);
  }

  make(wire: Packet, bytes: number, now: number, from: SimPacket | null): SimPacket {
    return simPacketOf(wire, bytes, now, from, this.#ids);
  }

  // ---- For the crossbar clock ------------------------------------------------------------------

  /**
   * At a slot boundary, after the outputs have started their packets, the credits held since the
   * last boundary go back, one symbol per link. A credit sent on an idle link just before a
   * boundary would hold the link past it and cost its output a whole slot; the cell switches the
   * slotted mode models carry their flow control inside the cells.
   */
  releaseCredits(now: number): void {
    if (this.#pendingTotal === 0) return;
    for (let i = 0; i < this.core.config.ports; i++) {
      const k = this.#pendingCredits[i] as number;
      if (k === 0) continue;
      this.#pendingCredits[i] = 0;
      this.#inChannel[i]?.freed(k, now);
    }
    this.#pendingTotal = 0;
  }

  hasPendingCredits(): boolean {
    return this.#pendingTotal > 0;
  }

  /** The output's link asked for a packet between slot boundaries: offer it again at the boundary. */
  kickAtSlot(o: number, now: number): void {
    this.kick(o, now);
  }

  // ---- Ports -----------------------------------------------------------------------------------

  /** Port o's link may carry a packet (the receiver has `free` buffers, `reserve` kept per priority). */
  #pull(o: number, now: number, free: number, reserve: number): SimPacket | null {
    const r = this.core.takeRegister(o);
    if (r !== null) return r;
    if (!this.#clock.mayTransmit(now)) {
      if (this.core.outputOccupancy(o) > 0) this.#clock.wantSlot(o, now);
      else this.core.outputIdle(now);
      return null;
    }
    this.#inPull[o] = 1;
    try {
      return this.core.pull(o, now, free, reserve);
    } finally {
      this.#inPull[o] = 0;
    }
  }

  /** A control symbol arrived on port o's link from the far end (credits are the channel's). */
  #symbol(o: number, s: SimSymbol, now: number): void {
    if (s.kind !== 'voq') return;
    this.core.symbol(o, s, now);
  }

  #flush(port: number, now: number): void {
    const list = this.#deferred[port] as SimSymbol[];
    const ch = this.#outChannel[port] as Channel;
    for (const s of list) ch.sendSymbol(s, now);
    list.length = 0;
  }
}

export type { SwitchSymbol };
