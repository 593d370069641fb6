import type { BufferProbe } from '../../node/switch/types.ts';
import type { NodePacket } from '../../node/endpoint/packet.ts';

/**
 * The fabric model's shared vocabulary (issue 7 §2). Everything here is simulated time in integer
 * picoseconds on the kernel's `Scheduler` (src/sim/kernel/scheduler.ts).
 *
 * Shape of a fabric: end points and switches own ports; a link is two `Channel`s, one per
 * direction (src/sim/fabric/channel.ts). A channel carries packets and control symbols from a
 * transmitting `PortTx` to a receiving `PortRx`, each taking its real wire time at the link's
 * rate, then the propagation delay. Link-level flow control is transmitter-controlled with
 * buffer credits (Part 6 §5 "transmitter-controlled flow control": the receiver reports its free
 * buffers in control symbols): a packet leaves only when the receiver is known to have a buffer
 * for its priority, so links never lose packets.
 */

export type { PacketKind, Priority } from '../../node/endpoint/packet.ts';

/**
 * The packet descriptor every component moves (src/node/endpoint/packet.ts `NodePacket`): ids
 * unique per simulation, times in ps, `wire` the decoded packet the protocol engines need (a CCP's
 * `Type7Packet`, a Type 9 segment, an SMP message).
 */
export type SimPacket = NodePacket;

/** Issue 7 §2 "Links: lane count (1x, 2x, 4x, 8x, 16x), baud rate (1.25 to 25.78125 Gbaud) with 8b/10b or 64b/67b efficiency, propagation delay". */
export interface LinkSpec {
  readonly lanes: 1 | 2 | 4 | 8 | 16;
  /** Gbaud per lane, 1.25 … 25.78125. */
  readonly baud: number;
  readonly encoding: '8b10b' | '64b67b';
  /** One-way propagation delay, ps. */
  readonly propagation: number;
  /**
   * Control symbol form on this link: CS48 (6 octets, Baud Rate Class 2) or CS64 (8 octets,
   * Baud Rate Class 3). Default: cs64 with 64b/67b, cs48 with 8b/10b.
   */
  readonly symbol?: 'cs48' | 'cs64';
}

/** A receiving port's buffers as the link-level flow control sees them. */
export interface RxBufferSpec {
  /** Packet buffers (maximum-size packets) at the receiving port. */
  readonly packets: number;
  /**
   * Buffers kept for higher priorities (Part 6 §5 deadlock avoidance): a packet of priority p is
   * accepted only while more than (3 − p) × reservePerPriority buffers are free. Default 1.
   */
  readonly reservePerPriority?: number;
}

/** A control symbol in flight; its wire time is the link's symbol size. */
export type SimSymbol =
  /** Buffer status: the receiver freed `count` buffers (stype0 packet-accepted / status). */
  | { readonly kind: 'credit'; readonly count: number }
  /** A VoQ backpressure stype2 (CS48) or CS64 VoQ symbol, as the generator made it. */
  | { readonly kind: 'voq'; readonly stype2?: number; readonly cs64?: unknown; readonly vc?: number };

/**
 * An observer of one channel (the simulator's captures, src/sim/capture/): told of every packet
 * and control symbol when it goes on the wire and when it arrives. It must not change what the
 * simulation does (no events, no random draws): a run with a tap gives the results of a run
 * without one. `packetArriving` and `packetArrived` bracket the receiver's handling of the packet,
 * so that the tap can see what the receiver made of it (a drop).
 */
export interface ChannelTap {
  packetSent(packet: SimPacket, now: number): void;
  symbolSent(symbol: SimSymbol, now: number): void;
  packetArriving(packet: SimPacket, now: number): void;
  packetArrived(packet: SimPacket, now: number): void;
  symbolArrived(symbol: SimSymbol, now: number): void;
}

/** The transmitting side of a channel: the channel pulls packets from it when it may send. */
export interface PortTx {
  /**
   * The next packet to put on the wire now, given the receiver's free buffers as the transmitter
   * knows them; null when nothing may go. The port removes the packet from its queue.
   */
  pull(now: number, freeBuffers: number, reservePerPriority: number): SimPacket | null;
  /** A control symbol arrived from the far end (credits are applied by the channel first). */
  onSymbol?(symbol: SimSymbol, now: number): void;
}

/** The receiving side of a channel. */
export interface PortRx {
  /** The packet's last bit arrived; the receiver has a buffer for it (the credit rule held). */
  receive(packet: SimPacket, now: number): void;
}

/** Occupancy and event sinks every component reports into (src/sim/results/). */
export interface Probe {
  /** A buffer's occupancy changed (packets and octets), for occupancy-over-time series. */
  occupancy(component: string, now: number, packets: number, bytes: number): void;
  /** One buffer's reports, resolved once (`SwitchProbe.buffer`); absent, they go to `occupancy`. */
  buffer?(component: string): BufferProbe;
  /** Named counters (CCPs sent, VoQ symbols, CCP drops, XOFF time …). */
  count(name: string, by?: number): void;
  /** A flow's XOFF state changed at an end point (for XOFF time per flow). */
  xoff(flow: number, now: number, off: boolean): void;
}
