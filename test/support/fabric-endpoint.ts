/**
 * Test-only software fabric for `FabricEndpoint`s (src/node/fabric-endpoint.ts): one real
 * `SwitchElement` and end points whose device ID is their switch port, wired the way the TCP
 * driver wires them. Every packet is encoded and decoded strictly on each link (`onWire`); an end
 * point sends a packet per `packetTime` while it has one and the switch has not paused its input;
 * a switch port sends a packet per `portTime[port]` (default `packetTime`) while the switch says
 * it is `ready`; a packet arrives `latency` later. Timers fire at their time.
 *
 * A `filter` may drop a packet an end point sends; `kill` stops an end point for good (a process
 * killed: it sends nothing more, its timers are gone and the switch sees its link go down).
 */
import { FabricEndpoint } from '../../src/node/fabric-endpoint.ts';
import type { FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput, FlowStateOutput } from '../../src/node/fabric-endpoint.ts';
import { SwitchElement } from '../../src/node/switch/element.ts';
import type { SwitchElementConfig, SwitchEvent, SwitchOutput } from '../../src/node/switch/element.ts';
import type { StreamRef } from '../../src/session/types.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { serialPacketLength } from '../../src/wire/packet.ts';
import { onWire, type9Node } from './endpoint-net.ts';
import { NodeNet } from './node-net.ts';
import type { NodeNetEvent } from './node-net.ts';

/** The switch's key among the timer owners of the clock. */
const SWITCH = -1;

export interface FabricWire {
  readonly at: number;
  readonly from: number;
  readonly to: number;
  readonly packet: Packet;
  readonly dropped: boolean;
}

export type FabricNetEvent = NodeNetEvent;

export interface FabricNetOptions {
  /** ns per packet on every link. Default 1000. */
  readonly packetTime?: number;
  /** ns on the wire. Default 500. */
  readonly latency?: number;
  /** ns per packet of a switch port's output, for the ports that differ from `packetTime`. */
  readonly portTime?: Readonly<Record<number, number>>;
  /** Switch settings besides the defaults: device ID 0x50, 4 ports, IDs 0–3 on the port of their number, each port accepting its own ID. */
  readonly switch?: Partial<SwitchElementConfig>;
}

interface Transmitter {
  busyUntil: number;
  scheduled: boolean;
}

export class FabricNet extends NodeNet {
  readonly sw: SwitchElement;
  readonly nodes = new Map<number, FabricEndpoint>();
  /** Every packet an end point sent (`to` its destinationID). */
  readonly trace: FabricWire[] = [];
  readonly flowStates: (FlowStateOutput & { readonly node: number })[] = [];
  readonly switchEvents: SwitchEvent[] = [];
  filter: (w: { readonly at: number; readonly from: number; readonly packet: Packet; readonly index: number }) => 'deliver' | 'drop' = () => 'deliver';
  readonly packetTime: number;
  readonly latency: number;
  readonly #portTime: Readonly<Record<number, number>>;
  readonly #tx = new Map<number, Transmitter>();
  readonly #ports = new Map<number, Transmitter>();
  readonly #paused = new Set<number>();
  readonly #dead = new Set<number>();

  constructor(opts: FabricNetOptions = {}) {
    super();
    this.packetTime = opts.packetTime ?? 1000;
    this.latency = opts.latency ?? 500;
    this.#portTime = opts.portTime ?? {};
    this.sw = new SwitchElement({
      deviceId: 0x50,
      ports: 4,
      routes: { 0: 0, 1: 1, 2: 2, 3: 3 },
      portConfig: [{ accept: [0] }, { accept: [1] }, { accept: [2] }, { accept: [3] }],
      ...opts.switch,
    });
    this.clearTimers(SWITCH);
  }

  /** An end point on the port of its device ID, its link up at both ends. */
  add(config: FabricEndpointConfig): FabricEndpoint {
    const e = new FabricEndpoint(config);
    const id = config.nodeId;
    this.nodes.set(id, e);
    this.clearTimers(id);
    this.#tx.set(id, { busyUntil: 0, scheduled: false });
    this.#fromSwitch(this.sw.handle({ kind: 'link-up', port: id }, this.now));
    this.input(id, { kind: 'link-up' });
    return e;
  }

  node(id: number): FabricEndpoint {
    const e = this.nodes.get(id);
    if (e === undefined) throw new Error(`no node ${id}`);
    return e;
  }

  /** Hands one input to a node now, routes its outputs and gives it a transmit opportunity. */
  input(node: number, input: FabricEndpointInput): FabricEndpointOutput[] {
    if (this.#dead.has(node)) return [];
    const out = this.node(node).handle(input, this.now);
    this.#route(node, out);
    this.#kick(node);
    return out;
  }

  /** The end point stops for good; the switch's port sees its link go down. */
  kill(node: number): void {
    this.#dead.add(node);
    this.clearTimers(node);
    this.#fromSwitch(this.sw.handle({ kind: 'link-down', port: node }, this.now));
  }

  packets(from: number, to: number, ftype?: number): FabricWire[] {
    return this.trace.filter((w) => w.from === from && w.to === to && (ftype === undefined || w.packet.ftype === ftype));
  }

  #route(node: number, out: readonly FabricEndpointOutput[]): void {
    for (const o of out) {
      if (o.kind === 'packet') this.#carry(node, o.packet);
      else if (o.kind === 'flow-state') this.flowStates.push({ ...o, node });
      else this.record(node, o);
    }
  }

  #kick(node: number): void {
    const t = this.#tx.get(node);
    if (t === undefined || t.scheduled || this.#paused.has(node) || this.#dead.has(node)) return;
    t.scheduled = true;
    this.schedule(Math.max(this.now, t.busyUntil), () => {
      t.scheduled = false;
      if (this.#paused.has(node) || this.#dead.has(node)) return;
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
    const dropped = this.filter({ at: this.now, from, packet, index: this.trace.length }) === 'drop';
    this.trace.push({ at: this.now, from, to: packet.destinationID, packet, dropped });
    if (dropped) return;
    this.schedule(this.now + this.latency, () => {
      this.#fromSwitch(this.sw.handle({ kind: 'packet', port: from, packet, octets: serialPacketLength(packet) }, this.now));
    });
  }

  #fromSwitch(out: readonly SwitchOutput[]): void {
    for (const o of out) {
      switch (o.kind) {
        case 'ready':
          this.#kickPort(o.port);
          break;
        case 'input-paused':
          this.#paused.add(o.port);
          break;
        case 'input-resumed':
          this.#paused.delete(o.port);
          this.#kick(o.port);
          break;
        case 'event':
          this.switchEvents.push(o.event);
          break;
        case 'timer':
          this.setTimer(SWITCH, o.name, o.at);
          break;
        default:
          break;
      }
    }
  }

  #kickPort(port: number): void {
    let t = this.#ports.get(port);
    if (t === undefined) {
      t = { busyUntil: 0, scheduled: false };
      this.#ports.set(port, t);
    }
    if (t.scheduled) return;
    const tx = t;
    tx.scheduled = true;
    this.schedule(Math.max(this.now, tx.busyUntil), () => {
      tx.scheduled = false;
      const out = this.sw.handle({ kind: 'pull', port }, this.now);
      this.#fromSwitch(out);
      const sent = out.find((o) => o.kind === 'packet');
      if (sent === undefined) return;
      const packet = onWire(sent.packet);
      this.schedule(this.now + this.latency, () => {
        this.input(port, { kind: 'packet', packet });
      });
      tx.busyUntil = this.now + (this.#portTime[port] ?? this.packetTime);
      this.#kickPort(port);
    });
  }

  protected fire(node: number, name: string): void {
    if (node === SWITCH) this.#fromSwitch(this.sw.handle({ kind: 'timer', name: name as 'voq:refresh' }, this.now));
    else this.input(node, { kind: 'timer', name: name as 'ccp:orphan' });
  }
}

/** The transmit stream an `opened` event with `ref` names at `node`, or undefined. */
export function openedOn(net: FabricNet, node: number, ref: string): StreamRef | undefined {
  const s = net.eventsOf('session', 'opened', node).find((d) => d['ref'] === ref)?.['stream'] as StreamRef | undefined;
  return s === undefined ? undefined : { remote: s.remote, direction: s.direction, streamID: s.streamID };
}

/** Discovers on every node and settles, then opens a stream for each [from, to] pair and settles; the streams, asserted open. */
export function discoverAndOpenAll(net: FabricNet, pairs: readonly (readonly [number, number])[], protoID: number): StreamRef[] {
  for (const n of net.nodes.keys()) net.input(n, { kind: 'discover' });
  net.settle();
  pairs.forEach(([from, to], i) => net.input(from, { kind: 'open', to, protoID, ref: `s${i}` }));
  net.settle();
  return pairs.map(([from, to], i) => {
    const s = openedOn(net, from, `s${i}`);
    if (s === undefined) throw new Error(`stream ${from} -> ${to} did not open`);
    return s;
  });
}

/** End points 1, 2 and 3 (Type 9, DATA3 protocol `protoID`) on a fresh FabricNet, streams 1 → 2 and 1 → 3 open; `one` is added to node 1's configuration. */
export function fabricTrio(protoID: number, one: Partial<FabricEndpointConfig> = {}, opts: FabricNetOptions = {}): { readonly net: FabricNet; readonly to2: StreamRef; readonly to3: StreamRef } {
  const net = new FabricNet(opts);
  const protocols = [{ protoID, attributes: [], dataHeaderFormat: 'DATA3' }] as const;
  net.add({ ...type9Node(1, 0xfff1, { protocols, discover: [2, 3] }), ...one });
  net.add(type9Node(2, 0xfff2, { protocols, discover: [1] }));
  net.add(type9Node(3, 0xfff3, { protocols, discover: [1] }));
  const [to2, to3] = discoverAndOpenAll(net, [[1, 2], [1, 3]], protoID);
  return { net, to2: to2 as StreamRef, to3: to3 as StreamRef };
}

/** An end point's inputs, recorded while it discovered and opened streams on a FabricNet. */
export interface RecordedEndpoint {
  readonly config: FabricEndpointConfig;
  /** Every input node `config.nodeId` took, with its time. */
  readonly log: readonly (readonly [FabricEndpointInput, number])[];
  /** The net's time when the setup settled. */
  readonly t: number;
  /** The streams of `pairs`, in order. */
  readonly streams: readonly StreamRef[];
}

/**
 * `config` and its `peers` on a fresh FabricNet, discovered and with a stream open for each
 * [from, to] pair, the inputs `config`'s node took recorded: `replay` builds the same end point
 * again (engines are deterministic), far cheaper than a fabric per property-test case.
 */
export function recordEndpoint(config: FabricEndpointConfig, peers: readonly FabricEndpointConfig[], pairs: readonly (readonly [number, number])[], protoID: number): RecordedEndpoint {
  const net = new FabricNet();
  const e = net.add(config);
  const log: [FabricEndpointInput, number][] = [[{ kind: 'link-up' }, 0]];
  const handle = e.handle.bind(e);
  e.handle = (input, now) => {
    log.push([input, now]);
    return handle(input, now);
  };
  for (const p of peers) net.add(p);
  const streams = discoverAndOpenAll(net, pairs, protoID);
  return { config, log, t: net.now, streams };
}

/** A new end point that took the recorded inputs; `config` replaces the recorded one (a setting the log does not depend on). */
export function replay(r: RecordedEndpoint, config: FabricEndpointConfig = r.config): FabricEndpoint {
  const e = new FabricEndpoint(config);
  for (const [input, now] of r.log) e.handle(input, now);
  return e;
}
