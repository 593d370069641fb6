/**
 * Small fabrics for the traffic management tests of the simulated end point: simulated end points
 * (device ID = switch port) around one output-queued switch, with a trace of every packet each
 * end point puts on its link or receives, and helpers to read TM packets out of it.
 */
import { makeLink } from '../../src/sim/fabric/channel.ts';
import { Endpoint } from '../../src/sim/fabric/endpoint.ts';
import type { EndpointConfig, EndpointTraffic } from '../../src/sim/fabric/endpoint-types.ts';
import { Switch } from '../../src/sim/fabric/switch.ts';
import type { SwitchConfig } from '../../src/sim/fabric/switch.ts';
import { TmFeature } from '../../src/node/endpoint/tm.ts';
import type { EndpointTmConfig } from '../../src/node/endpoint/tm.ts';
import type { LinkSpec, SimPacket } from '../../src/sim/fabric/types.ts';
import type { TmMessage } from '../../src/wire/type9-tm.ts';
import type { Type9TmPacket } from '../../src/wire/type9-types.ts';
import { bench } from './sim-endpoint.ts';
import type { Bench } from './sim-endpoint.ts';

/** 1x 1.25 Gbaud 8b/10b: 1 Gbit/s, 8000 ps per octet. */
export const SLOW_LINK: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };

export interface Traced {
  readonly at: number;
  /** The end point's device ID. */
  readonly ep: number;
  readonly dir: 'out' | 'in';
  readonly packet: SimPacket;
}

export interface Star extends Bench {
  readonly sw: Switch;
  readonly eps: Endpoint[];
  readonly trace: Traced[];
}

/** End point `i` of `configs` gets device ID i, switch port i; the switch is output-queued, speedup 2. */
export function star(configs: readonly Omit<EndpointConfig, 'id'>[], opts: { readonly link?: LinkSpec; readonly seed?: number; readonly sw?: Partial<SwitchConfig> } = {}): Star {
  const b = bench(opts.seed ?? 1);
  const n = configs.length;
  const sw = new Switch(b.sched, {
    name: 's0', ports: n, queueing: 'output-queued', routes: Object.fromEntries(configs.map((_, d) => [d, d])), inputBuffer: { packets: 8 }, speedup: 2, ...opts.sw,
  }, { ids: b.ctx.ids, probe: b.collector, streams: b.ctx.streams });
  const trace: Traced[] = [];
  const eps = configs.map((c, id) => {
    const ep = new Endpoint(b.sched, { ...c, id }, b.ctx);
    const pull = ep.pull.bind(ep);
    const receive = ep.receive.bind(ep);
    // Own properties shadow the methods the link calls: the trace sees every packet, in order.
    ep.pull = (now, free, reserve) => {
      const p = pull(now, free, reserve);
      if (p !== null) trace.push({ at: now, ep: id, dir: 'out', packet: p });
      return p;
    };
    ep.receive = (p, now) => {
      trace.push({ at: now, ep: id, dir: 'in', packet: p });
      receive(p, now);
    };
    const link = makeLink(b.sched, `h${id}`, opts.link ?? SLOW_LINK, ep, sw.port(id));
    ep.attach(link.ab, link.ba);
    sw.attach(id, link, 'b');
    return ep;
  });
  return { ...b, sw, eps, trace };
}

/** Traffic from one source to one destination: fixed-size PDUs, Poisson arrivals unless given. */
export function toDst(dst: number, load: number, bytes: number, extra: Partial<EndpointTraffic> = {}): EndpointTraffic {
  return { load, arrival: { kind: 'poisson' }, destinations: { kind: 'fixed', dst }, size: { kind: 'fixed', bytes }, ...extra };
}

export function tmFeature(ep: Endpoint): TmFeature {
  const f = ep.features.find((x): x is TmFeature => x instanceof TmFeature);
  if (f === undefined) throw new RangeError(`${ep.name} runs no traffic management`);
  return f;
}

/** The TM message of a traced packet; undefined for any other packet. */
export function tmOf(t: Traced): TmMessage | undefined {
  return t.packet.kind === 'tm' ? (t.packet.wire as Type9TmPacket).tm : undefined;
}

/** Starts every end point at 0 and runs to `until`. */
export function runStar(s: Star, until: number): void {
  for (const ep of s.eps) ep.start(0);
  s.sched.run({ until });
}

/** A 1024-byte PDU is 4 plain packets of 256 bytes; on `SLOW_LINK` each takes about 2.2 µs. */
export const PDU = 1024;
/** The slow sink consumes a packet every 3 µs: two sources at 0.6 of their links need 2.4 times that. */
export const SLOW = 3_000_000;

/** Hosts 1 and 2 send to host 0, whose sink is slow; every end point runs `tm`. */
export function incast(tm: EndpointTmConfig, traffic: (dst: number) => EndpointTraffic = (dst) => toDst(dst, 0.6, PDU), seed = 1): Star {
  const host = (name: string, t: EndpointTraffic[]) => ({ name, buffers: { packets: 8 }, traffic: t, tm });
  return star([{ ...host('sink', []), sink: { serviceTime: SLOW } }, host('a', [traffic(0)]), host('b', [traffic(0)])], { seed });
}
