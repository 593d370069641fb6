import type { Scheduler, Target } from '../kernel/scheduler.ts';
import { checkLinkSpec, packetWireTime, symbolBytes, wireTime } from './link-rate.ts';
import type { ChannelTap, LinkSpec, PortRx, PortTx, RxBufferSpec, SimPacket, SimSymbol } from './types.ts';

/**
 * One direction of a link: packets and control symbols from a transmitting port to a receiving
 * port, each taking its wire time, then the propagation delay.
 *
 * Link-level flow control is transmitter-controlled (Part 6 §6.9.2 of rev 4.1: the receiver reports
 * its free buffers in the buf_status of the control symbols it sends back): the transmitter keeps
 * the receiver's free buffer count, spends one per packet and gets them back in `credit` symbols
 * that travel on the reverse channel, so a credit arrives one symbol time plus one propagation
 * delay after the buffer was freed. The receiving port calls `freed` when a buffer empties.
 *
 * Delimiting: every packet is preceded by one control symbol (the start-of-packet; an end-of-packet
 * merges with the next start, Part 6 §6.6.1.2 "The end of a packet is marked with a start-of-packet
 * control symbol that also marks the beginning of a new packet"), so a packet costs its wire octets
 * plus one delimited control symbol (`link-rate.ts:packetWireTime`, decision L3). Control symbols
 * waiting to go are sent between packets; the model does not preempt a packet to embed one.
 *
 * Buffer priorities: a packet of priority p may go only while more than (3 − p) ×
 * reservePerPriority buffers are free at the receiver (Part 6 §6.9.2.1, §6.12 deadlock
 * avoidance). The port's `pull` applies that rule when it chooses the packet; the channel checks
 * it again and refuses a packet that breaks it (a modelling error, thrown).
 */

const TX_DONE = 0;
const PACKET_ARRIVES = 1;
const SYMBOL_ARRIVES = 2;

export interface ChannelStats {
  packets: number;
  bytes: number;
  symbols: number;
  /** ps the wire was busy (packets and symbols). */
  busy: number;
}

export class Channel implements Target {
  readonly name: string;
  readonly spec: LinkSpec;
  readonly rxSpec: Required<RxBufferSpec>;
  readonly stats: ChannelStats = { packets: 0, bytes: 0, symbols: 0, busy: 0 };
  #sched: Scheduler;
  #tx: PortTx | undefined;
  #rx: PortRx | undefined;
  #reverse: Channel | undefined;
  #free: number;
  #busy = false;
  #symbols: SimSymbol[] = [];
  #symbolTime: number;
  /** The capture's observer, if any: one null check per packet and symbol when there is none. */
  #tap: ChannelTap | null = null;

  constructor(sched: Scheduler, name: string, spec: LinkSpec, rxSpec: RxBufferSpec) {
    checkLinkSpec(spec, name);
    if (!Number.isSafeInteger(rxSpec.packets) || rxSpec.packets < 1) throw new RangeError(`${name}.buffers.packets must be a positive integer`);
    const reserve = rxSpec.reservePerPriority ?? 1;
    if (!Number.isSafeInteger(reserve) || reserve < 0 || 3 * reserve >= rxSpec.packets) {
      throw new RangeError(`${name}.buffers.reservePerPriority must be a non-negative integer below packets / 3`);
    }
    this.#sched = sched;
    this.name = name;
    this.spec = spec;
    this.rxSpec = { packets: rxSpec.packets, reservePerPriority: reserve };
    this.#free = rxSpec.packets;
    this.#symbolTime = wireTime(spec, symbolBytes(spec));
  }

  /** Wires the channel: `tx` sends on it, `rx` receives, `reverse` carries this channel's credits back. */
  connect(tx: PortTx, rx: PortRx, reverse: Channel): void {
    this.#tx = tx;
    this.#rx = rx;
    this.#reverse = reverse;
  }

  /** Puts an observer on the channel (null removes it); see `ChannelTap`. */
  setTap(tap: ChannelTap | null): void {
    this.#tap = tap;
  }

  /** Free receiver buffers as the transmitter knows them. */
  get free(): number {
    return this.#free;
  }

  get idle(): boolean {
    return !this.#busy;
  }

  /** Wire time of a packet of `bytes` octets including its delimiter. */
  packetTime(bytes: number): number {
    return packetWireTime(this.spec, bytes);
  }

  get symbolTime(): number {
    return this.#symbolTime;
  }

  /** The transmitter has something new to send: start at once if the wire is idle. */
  kick(now: number): void {
    if (!this.#busy) this.#start(now);
  }

  /** True while the transmitter's `pull` runs: a kick then (a feature reacting to the packet being pulled) must not start a second transmission. */
  #pulling = false;
  #kickedWhilePulling = false;

  /** Queue a control symbol towards the receiving end. */
  sendSymbol(symbol: SimSymbol, now: number): void {
    this.#symbols.push(symbol);
    if (!this.#busy) this.#start(now);
  }

  /** The receiving port emptied `count` buffers: the credit goes back on the reverse channel. */
  freed(count: number, now: number): void {
    this.#reverse?.sendSymbol({ kind: 'credit', count }, now);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    switch (kind) {
      case TX_DONE:
        this.#busy = false;
        this.#start(now);
        return;
      case PACKET_ARRIVES:
        if (this.#tap === null) this.#rx?.receive(data as SimPacket, now);
        else this.#tapArrival(this.#tap, data as SimPacket, now);
        return;
      case SYMBOL_ARRIVES:
        this.#tap?.symbolArrived(data as SimSymbol, now);
        // A symbol on this channel reports on the reverse channel's receiver: its credits, or a
        // VoQ message for the port that transmits on the reverse channel.
        if (this.#reverse !== undefined) this.#reverse.#symbolArrived(data as SimSymbol, now);
        return;
      default:
        throw new RangeError(`channel ${this.name}: unknown event kind ${kind}`);
    }
  }

  #tapArrival(tap: ChannelTap, packet: SimPacket, now: number): void {
    tap.packetArriving(packet, now);
    this.#rx?.receive(packet, now);
    tap.packetArrived(packet, now);
  }

  #symbolArrived(symbol: SimSymbol, now: number): void {
    if (symbol.kind === 'credit') {
      this.#free += symbol.count;
      if (this.#free > this.rxSpec.packets) throw new RangeError(`channel ${this.name}: credits exceed the receiver's buffers`);
    }
    this.#tx?.onSymbol?.(symbol, now);
    if (!this.#busy) this.#start(now);
  }

  #start(now: number): void {
    if (this.#pulling) {
      this.#kickedWhilePulling = true;
      return;
    }
    const symbol = this.#symbols.shift();
    if (symbol !== undefined) {
      this.#tap?.symbolSent(symbol, now);
      this.#send(now, this.#symbolTime, SYMBOL_ARRIVES, symbol);
      this.stats.symbols++;
      return;
    }
    if (this.#tx === undefined) return;
    // The flag is only raised while #pulling and is lowered right after each pull, so it is
    // false here.
    this.#pulling = true;
    let packet: SimPacket | null;
    try {
      packet = this.#tx.pull(now, this.#free, this.rxSpec.reservePerPriority);
    } finally {
      this.#pulling = false;
    }
    const kicked = this.#kickedWhilePulling;
    this.#kickedWhilePulling = false;
    if (packet === null) {
      // Something became sendable during an empty pull: look again (a sent packet restarts at TX_DONE).
      if (kicked) this.#start(now);
      return;
    }
    if (this.#free <= (3 - packet.prio) * this.rxSpec.reservePerPriority) {
      throw new RangeError(`channel ${this.name}: a priority ${packet.prio} packet pulled with ${this.#free} free buffers`);
    }
    this.#free--;
    this.stats.packets++;
    this.stats.bytes += packet.bytes;
    this.#tap?.packetSent(packet, now);
    this.#send(now, this.packetTime(packet.bytes), PACKET_ARRIVES, packet);
  }

  #send(now: number, time: number, arrival: number, data: unknown): void {
    this.#busy = true;
    this.stats.busy += time;
    this.#sched.schedule(now + time, this, TX_DONE);
    this.#sched.schedule(now + time + this.spec.propagation, this, arrival, data);
  }
}

/** Both directions of a link between ends A and B. */
export interface Link {
  readonly ab: Channel;
  readonly ba: Channel;
}

export function makeLink(
  sched: Scheduler,
  name: string,
  spec: LinkSpec,
  a: { readonly tx: PortTx; readonly rx: PortRx; readonly buffers: RxBufferSpec },
  b: { readonly tx: PortTx; readonly rx: PortRx; readonly buffers: RxBufferSpec },
): Link {
  const ab = new Channel(sched, `${name}>`, spec, b.buffers);
  const ba = new Channel(sched, `${name}<`, spec, a.buffers);
  ab.connect(a.tx, b.rx, ba);
  ba.connect(b.tx, a.rx, ab);
  return { ab, ba };
}
