/**
 * The protocol features an end point can run beside its data path (issue 7 §2 "Endpoints: …
 * traffic management, flow arbitration, and optionally session management to open streams before
 * data flows"; issue 15: composed once, in src/node/endpoint/, for every host): Part 9 flow
 * arbitration (arbitration.ts), Part 10 traffic management (tm.ts) and Annex 2 session management
 * (session.ts). Each one wraps the sans-IO engines of its layer; the end point gives it the packets
 * of its kinds, tells it about PDUs and segments, runs its timers (on its host's clock), and sends
 * its control packets.
 *
 * A feature holds a flow back by setting a bit of the flow's `blocked` mask. The Part 9 XOFF bit
 * stops a flow at once, between any two packets (§2.4.5 rule 1 "stops all transaction request
 * flows"); the others are permissions to *start* a PDU (a grant, an open TM gate, an open stream),
 * so a PDU that has started finishes: a Part 10 context is not left half-filled by them.
 */
import type { TimerOutput } from '../../engine/contract.ts';
import type { BufferSpec } from '../switch/config-types.ts';
import type { TxFlow } from './flows.ts';
import type { NodePacket, PacketKind, Priority } from './packet.ts';

/** Bits of `TxFlow.blocked`: why a flow may not send. */
export const FLOW_BLOCK = {
  /** Part 9 §2.4.5: an XOFF (or the orphan FIFO) stopped the flow; applies within a PDU too. */
  xoff: 1,
  /** Part 9 §2.4.7: the flow holds no grant for its next PDU. */
  arbitration: 2,
  /** Part 10 §3.4: the gate of the flow's traffic management queue is closed. */
  tm: 4,
  /** Annex 2: the flow's stream to its destination is not open (yet, or any more). */
  session: 8,
} as const;

export type FlowBlockBit = (typeof FLOW_BLOCK)[keyof typeof FLOW_BLOCK];

/** Bits that only stop a flow from starting a PDU. */
export const PDU_START_BLOCKS: number = FLOW_BLOCK.arbitration | FLOW_BLOCK.tm | FLOW_BLOCK.session;

/** Position of a data packet within its PDU (Part 10 segment kinds; a plain PDU's packets alike). */
export type PacketPosition = 'single' | 'start' | 'continuation' | 'end';

export function packetPosition(index: number, count: number): PacketPosition {
  if (count <= 1) return 'single';
  if (index === 0) return 'start';
  return index === count - 1 ? 'end' : 'continuation';
}

/** A control packet a feature sends: the end point fills in id, src, createdAt and flow -1. */
export interface ControlPacket {
  readonly kind: Exclude<PacketKind, 'data'>;
  readonly dst: number;
  readonly prio: Priority;
  readonly crf: 0 | 1;
  readonly vc?: number;
  /** Octets on the wire (the codec's length in LP-Serial framing, `serialLength`). */
  readonly bytes: number;
  /** The decoded packet, as the receiving feature's engine takes it. */
  readonly wire: unknown;
}

/** What an end point gives its features. */
export interface FeatureHost {
  readonly name: string;
  readonly id: number;
  readonly tt: number;
  readonly crfSupported: boolean;
  /** The end point's receive buffers (Part 6 §5: data of priority p fills at most all but (3 − p) × reservePerPriority). */
  readonly buffers?: BufferSpec;
  /**
   * The MTU and SegSupport (the reassembler's encoding) of the data path's Part 10 segmenter and
   * reassembler, for the end point's Data Streaming registers (tm-registers.ts); default 256 and 64K.
   */
  readonly dataStreaming?: { readonly mtu: number; readonly segSupport?: number };
  /** Named counts (the simulator's results; a host without them may ignore them). */
  count(name: string, by?: number): void;
  /** The source's flows, growing as traffic creates them (`TxFlow.index` is the scenario flow). */
  readonly flows: readonly TxFlow[];
  /** Queues a control packet; it goes before data of its priority (subject to the link's credits). */
  sendControl(packet: ControlPacket, now: number): void;
  /** Sets or clears one reason the flow may not send, and restarts the link when it may send again. */
  setBlocked(flow: TxFlow, bit: FlowBlockBit, blocked: boolean, now: number): void;
  /** Runs an engine timer on the host's clock; when due, the feature's `timer(name, now)` is called. */
  timer(t: TimerOutput): void;
}

/** Source-side view of a data packet leaving the end point. */
export interface SentPacket {
  readonly position: PacketPosition;
  /** Octets on the wire. */
  readonly bytes: number;
  /** Payload bytes of the whole PDU. */
  readonly pduBytes: number;
  /** The Type 9 segment when the end point runs SAR, else undefined. */
  readonly wire: unknown;
}

export interface EndpointFeature {
  /** Short name: counters appear as `<name>.<counter>` in the end point's snapshot. */
  readonly name: string;
  /** Received packet kinds the end point hands to this feature (a kind belongs to one feature). */
  readonly kinds: readonly Exclude<PacketKind, 'data' | 'ccp'>[];
  /** The end point is attached and about to start its traffic. */
  start?(now: number): void;
  /** A packet of one of `kinds` arrived for this end point (its buffer is already freed). */
  receive(p: NodePacket, now: number): void;
  /** A flow was created (before its first PDU): a feature may block it from the start. */
  flowCreated?(f: TxFlow, now: number): void;
  /** A PDU of `bytes` joined flow `f`'s queue (after the queue took it). */
  pduQueued?(f: TxFlow, bytes: number, now: number): void;
  /** A data packet of flow `f` is going on the wire now. */
  packetSent?(f: TxFlow, p: SentPacket, now: number): void;
  /** Sink side: a data packet for this end point arrived (before reassembly and the sink's service). */
  dataReceived?(p: NodePacket, position: PacketPosition, now: number): void;
  /** Sink side: the sink consumed a data packet (its buffer went back to the link). */
  dataConsumed?(p: NodePacket, now: number): void;
  /** Sink side: the receive queue now holds `packets` of `capacity` buffers. */
  sinkLevel?(packets: number, capacity: number, now: number): void;
  /** A timer the feature asked for through `FeatureHost.timer` is due. */
  timer(name: string, now: number): void;
  counters(): Record<string, number>;
  /** The feature's state as a plain JSON object (the host adds its own parts). */
  snapshot(): object;
}
