/**
 * Test fabric for session management in simulated end points (src/node/endpoint/session.ts):
 * real `Endpoint`s, one per port of one output-queued `Switch` (device ID i on port i), with a
 * results collector. Links are 1x 1.25 Gbaud 8b/10b (8000 ps per octet), no propagation delay.
 *
 * Taps on each end point's link record every packet it puts on the wire (`sent`) and every packet
 * that arrives for it (`arrivals`, before the end point handles it).
 */
import { makeLink } from '../../src/sim/fabric/channel.ts';
import type { Channel } from '../../src/sim/fabric/channel.ts';
import { Endpoint } from '../../src/sim/fabric/endpoint.ts';
import type { EndpointSessionConfig } from '../../src/node/endpoint/session.ts';
import { SessionFeature } from '../../src/node/endpoint/session.ts';
import type { EndpointConfig, EndpointTraffic } from '../../src/sim/fabric/endpoint-types.ts';
import { Switch } from '../../src/sim/fabric/switch.ts';
import type { SwitchConfig } from '../../src/sim/fabric/switch.ts';
import type { LinkSpec, PortRx, PortTx, SimPacket, SimSymbol } from '../../src/sim/fabric/types.ts';
import { bench } from './sim-endpoint.ts';
import type { Bench } from './sim-endpoint.ts';

export const X1: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };

export interface Arrival {
  readonly at: number;
  readonly to: number;
  readonly packet: SimPacket;
}

export interface Sent {
  readonly at: number;
  readonly from: number;
  readonly packet: SimPacket;
}

export interface SessionFabric extends Bench {
  readonly sw: Switch;
  readonly eps: Endpoint[];
  /** Every packet that reached an end point, in arrival order. */
  readonly arrivals: Arrival[];
  /** Every packet an end point put on its link, in order. */
  readonly sent: Sent[];
}

/** Per end point: its traffic, and its session settings (undefined: no session management at all). */
export interface NodeSpec {
  readonly traffic?: readonly EndpointTraffic[];
  readonly session?: EndpointSessionConfig;
  readonly flows?: EndpointConfig['flows'];
}

/** Poisson traffic of `bytes`-byte PDUs at `load` to the fixed destination `dst`. */
export function toDst(dst: number, load = 0.2, bytes = 64, extra: Partial<EndpointTraffic> = {}): EndpointTraffic {
  return { load, arrival: { kind: 'poisson' }, destinations: { kind: 'fixed', dst }, size: { kind: 'fixed', bytes }, ...extra };
}

/**
 * `drop`, when given, loses the packets it returns true for at the receiving end point (recorded in
 * `arrivals`, their buffer freed, not handed to the end point): a packet lost in the fabric.
 * `switchExtra` adds switch settings (`maintenanceBudget`, …).
 */
export function sessionFabric(nodes: readonly NodeSpec[], seed = 1, tt: 0 | 1 = 0, drop?: (a: Arrival) => boolean, switchExtra: Partial<SwitchConfig> = {}): SessionFabric {
  const b = bench(seed);
  const ports = nodes.length;
  const routes = Object.fromEntries(nodes.map((_, d) => [d, d]));
  const sw = new Switch(b.sched, { name: 's', ports, queueing: 'output-queued', routes, inputBuffer: { packets: 8 }, tt, ...switchExtra }, { ids: b.ctx.ids, probe: b.collector, streams: b.ctx.streams });
  const arrivals: Arrival[] = [];
  const sent: Sent[] = [];
  const eps = nodes.map((n, id) => {
    const config: EndpointConfig = {
      name: `ep${id}`, id, tt, buffers: { packets: 8 }, traffic: n.traffic ?? [],
      ...(n.flows === undefined ? {} : { flows: n.flows }),
      ...(n.session === undefined ? {} : { session: n.session }),
    };
    const ep = new Endpoint(b.sched, config, b.ctx);
    const inbound: { channel?: Channel } = {};
    const tap: PortRx = {
      receive(packet: SimPacket, now: number): void {
        const a = { at: now, to: id, packet };
        arrivals.push(a);
        if (drop?.(a) === true) inbound.channel?.freed(1, now);
        else ep.receive(packet, now);
      },
    };
    const tx: PortTx = {
      pull(now: number, free: number, reserve: number): SimPacket | null {
        const packet = ep.pull(now, free, reserve);
        if (packet !== null) sent.push({ at: now, from: id, packet });
        return packet;
      },
      onSymbol(symbol: SimSymbol): void {
        ep.onSymbol(symbol);
      },
    };
    const link = makeLink(b.sched, `h${id}`, X1, { tx, rx: tap, buffers: ep.buffers }, sw.port(id));
    ep.attach(link.ab, link.ba);
    inbound.channel = link.ba;
    sw.attach(id, link, 'b');
    return ep;
  });
  return { ...b, sw, eps, arrivals, sent };
}

/** The end point's session feature, asserted to be there. */
export function sessionOf(ep: Endpoint): SessionFeature {
  const f = ep.features.find((x): x is SessionFeature => x instanceof SessionFeature);
  if (f === undefined) throw new Error(`${ep.name} runs no session management`);
  return f;
}

/** The session feature of end point `i`. */
export function featureOf(f: SessionFabric, i: number): SessionFeature {
  const ep = f.eps[i];
  if (ep === undefined) throw new Error(`no end point ${i}`);
  return sessionOf(ep);
}

export interface FlowSetup {
  readonly flow: number;
  readonly dst: number;
  readonly createdAt: number;
  readonly openedAt: number | null;
  readonly setup: number | null;
  readonly firstPacketAt: number | null;
}

export function flowSetups(ep: Endpoint): FlowSetup[] {
  return sessionOf(ep).snapshot()['flows'] as FlowSetup[];
}

/** Starts every end point at 0 and runs until `until` ps. */
export function runFabric(f: SessionFabric, until: number): void {
  for (const ep of f.eps) ep.start(0);
  f.sched.run({ until });
  f.collector.finish(until);
}
