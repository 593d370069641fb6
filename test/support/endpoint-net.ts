/**
 * Test-only fabric for session management end points (src/node/session-endpoint.ts): a shared
 * medium on which every packet an end point transmits goes to the end point its destinationID
 * names, after being encoded and decoded strictly (so every packet sent is one a strict receiver
 * takes). Each end point transmits one packet per `packetTime` when it has one (it is pulled at
 * each transmit opportunity); a packet arrives `latency` later. Timers fire at their time.
 *
 * A `filter` decides the fate of each packet: delivered, dropped, or (Type 11 segments) answered
 * on the receiver's behalf with a Type 13 RETRY, as a busy mailbox would (Part 2 §3.1 "A RETRY
 * response shall be generated for a message transaction that attempts to access a mailbox that
 * is busy").
 */
import { SessionEndpoint } from '../../src/node/session-endpoint.ts';
import type { EndpointTimerName, EventSource, SessionEndpointConfig, SessionEndpointInput, SessionEndpointOutput } from '../../src/node/session-endpoint.ts';
import type { ProtocolSupport, StreamRef } from '../../src/session/types.ts';
import { SMP_COMMAND } from '../../src/wire/smp/index.ts';
import { decodePacket, encodePacket, packetLength } from '../../src/wire/packet.ts';
import type { Packet } from '../../src/wire/packet.ts';
import type { Type11Packet } from '../../src/wire/type11.ts';
import { messageResponseTo, RESPONSE_STATUS } from '../../src/wire/type13.ts';
import { NodeNet } from './node-net.ts';
import type { NodeNetEvent } from './node-net.ts';

export type { NetDelivery } from './net-clock.ts';

export type Fate = 'deliver' | 'drop' | 'retry';

export interface Wire {
  readonly at: number;
  readonly from: number;
  readonly to: number;
  /** The packet as decoded (strictly) at the receiving end. */
  readonly packet: Packet;
  readonly fate: Fate;
}

export type NetEvent = NodeNetEvent<EventSource>;

/** Decides what becomes of a packet on the medium; `index` counts every packet carried so far. */
export type Filter = (w: { readonly at: number; readonly from: number; readonly to: number; readonly packet: Packet; readonly index: number }) => Fate;

interface Transmitter {
  busyUntil: number;
  scheduled: boolean;
}

/** The packet after encoding and strict decoding. */
export function onWire(p: Packet): Packet {
  const bytes = new Uint8Array(packetLength(p));
  encodePacket(p, bytes, 0);
  return decodePacket(bytes, 0, bytes.length, { strict: true });
}

const DATA_COMMANDS: ReadonlySet<number> = new Set([SMP_COMMAND.DATA, SMP_COMMAND.DATA1, SMP_COMMAND.DATA2]);

/**
 * A Type 11 packet of a management message: a single-segment message (every management message
 * of these tests fits one segment) whose <CMD> octet is not DATA, DATA1 or DATA2.
 */
export function isManagementSegment(p: Packet): p is Type11Packet {
  return p.ftype === 11 && p.msglen === 0 && !DATA_COMMANDS.has(p.payload[0] ?? 0);
}

export class EndpointNet extends NodeNet<EventSource> {
  readonly nodes = new Map<number, SessionEndpoint>();
  readonly trace: Wire[] = [];
  /** Packets for a destinationID no end point has. */
  readonly undeliverable: Wire[] = [];
  readonly packetTime: number;
  readonly latency: number;
  filter: Filter = () => 'deliver';
  readonly #tx = new Map<number, Transmitter>();

  /** Times in ns: by default a packet every microsecond, half a microsecond on the medium. */
  constructor(opts: { readonly packetTime?: number; readonly latency?: number } = {}) {
    super();
    this.packetTime = opts.packetTime ?? 1000;
    this.latency = opts.latency ?? 500;
  }

  add(config: SessionEndpointConfig): SessionEndpoint {
    const e = new SessionEndpoint(config);
    this.nodes.set(config.nodeId, e);
    this.clearTimers(config.nodeId);
    this.#tx.set(config.nodeId, { busyUntil: 0, scheduled: false });
    return e;
  }

  node(id: number): SessionEndpoint {
    const e = this.nodes.get(id);
    if (e === undefined) throw new Error(`no node ${id}`);
    return e;
  }

  /** Hands one input to a node now, routes its outputs and gives it a transmit opportunity. */
  input(node: number, input: SessionEndpointInput): SessionEndpointOutput[] {
    const out = this.node(node).handle(input, this.now);
    this.#route(node, out);
    this.#kick(node);
    return out;
  }

  /** Packets carried from one node to another, optionally of one ftype. */
  packets(from: number, to: number, ftype?: number): Wire[] {
    return this.trace.filter((w) => w.from === from && w.to === to && (ftype === undefined || w.packet.ftype === ftype));
  }

  #route(node: number, out: readonly SessionEndpointOutput[]): void {
    for (const o of out) {
      if (o.kind === 'packet') this.#carry(node, o.packet);
      else this.record(node, o);
    }
  }

  #kick(node: number): void {
    const t = this.#tx.get(node);
    if (t === undefined || t.scheduled) return;
    t.scheduled = true;
    this.schedule(Math.max(this.now, t.busyUntil), () => {
      t.scheduled = false;
      const out = this.node(node).handle({ kind: 'pull' }, this.now);
      this.#route(node, out);
      if (out.some((o) => o.kind === 'packet')) {
        t.busyUntil = this.now + this.packetTime;
        this.#kick(node);
      }
    });
  }

  #carry(from: number, sent: Packet): void {
    const packet = onWire(sent);
    const to = packet.destinationID;
    const fate = this.filter({ at: this.now, from, to, packet, index: this.trace.length });
    const w: Wire = { at: this.now, from, to, packet, fate };
    this.trace.push(w);
    if (fate === 'drop') return;
    if (fate === 'retry') {
      if (packet.ftype !== 11) throw new Error('only a Type 11 segment can be answered RETRY');
      const retry = onWire(messageResponseTo(packet, RESPONSE_STATUS.retry));
      this.schedule(this.now + 2 * this.latency, () => {
        this.#arrive(from, retry);
      });
      return;
    }
    if (!this.nodes.has(to)) {
      this.undeliverable.push(w);
      return;
    }
    this.schedule(this.now + this.latency, () => {
      this.#arrive(to, packet);
    });
  }

  #arrive(node: number, packet: Packet): void {
    if (this.nodes.has(node)) this.input(node, { kind: 'packet', packet });
  }

  protected fire(node: number, name: string): void {
    this.input(node, { kind: 'timer', name: name as EndpointTimerName });
  }
}

/** `n` octets, different for each `seed`. */
export function octets(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (seed * 31 + i * 7 + (i >>> 8)) & 0xff;
  return b;
}

// ---- Configurations the end point tests share -------------------------------------------------

export const MS = 1_000_000;

export interface NodeOptions {
  readonly protocols?: readonly ProtocolSupport[];
  /** Nodes to discover (targets), with their hop_count. */
  readonly discover?: readonly number[];
  readonly hop?: number;
  readonly session?: Partial<SessionEndpointConfig['session']>;
  readonly type11?: SessionEndpointConfig['type11'];
  readonly type9?: SessionEndpointConfig['type9'];
}

function common(nodeId: number, o: NodeOptions): Pick<SessionEndpointConfig, 'nodeId' | 'session' | 'discovery'> & Partial<SessionEndpointConfig> {
  const targets = (o.discover ?? []).map((node) => (o.hop === undefined ? { node } : { node, hop: o.hop }));
  return {
    nodeId,
    session: { protocols: o.protocols ?? [], ...o.session },
    discovery: { targets },
    ...(o.type11 === undefined ? {} : { type11: o.type11 }),
    ...(o.type9 === undefined ? {} : { type9: o.type9 }),
  };
}

/** A Type 11 end point advertising mailbox `mailbox` in a Session Management block (or, with `tag`, the Component Tag CSR only). */
export function type11Node(nodeId: number, mailbox: number, o: NodeOptions & { readonly tag?: boolean } = {}): SessionEndpointConfig {
  const contact = { conveyance: 'type11', mailbox } as const;
  return { ...common(nodeId, o), advertisement: o.tag === true ? { componentTag: contact } : { blocks: [{ contact }] } };
}

/** A Type 9 only end point advertising its management stream in a block. */
export function type9Node(nodeId: number, streamID: number, o: NodeOptions = {}): SessionEndpointConfig {
  return { ...common(nodeId, o), conveyances: ['type9'], advertisement: { blocks: [{ contact: { conveyance: 'type9', streamID, cos: 0 } }] } };
}

/** The transmit stream an `opened` event with `ref` names at `node`, or undefined. */
export function openedStream(net: EndpointNet, node: number, ref: string): StreamRef | undefined {
  const e = net.eventsOf('session', 'opened', node).find((d) => d['ref'] === ref);
  const s = e?.['stream'] as StreamRef | undefined;
  return s === undefined ? undefined : { remote: s.remote, direction: s.direction, streamID: s.streamID };
}

/** Discovers on every node, then opens a stream from `from` to `to` and settles; the stream, asserted open. */
export function discoverAndOpen(net: EndpointNet, from: number, to: number, protoID: number, ref = 'stream'): StreamRef {
  for (const n of net.nodes.keys()) net.input(n, { kind: 'discover' });
  net.settle();
  net.input(from, { kind: 'open', to, protoID, ref });
  net.settle();
  const s = openedStream(net, from, ref);
  if (s === undefined) throw new Error(`stream ${ref} from ${from} to ${to} did not open`);
  return s;
}
