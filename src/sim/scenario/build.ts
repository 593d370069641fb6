import { makeLink } from '../fabric/channel.ts';
import type { Link } from '../fabric/channel.ts';
import { Endpoint } from '../fabric/endpoint.ts';
import { FlowTable, flowNumberKey } from '../fabric/endpoint-flows.ts';
import { PacketIds } from '../fabric/endpoint-types.ts';
import type { EndpointConfig } from '../fabric/endpoint-types.ts';
import { Switch } from '../fabric/switch.ts';
import { switchSettingsConfig } from '../../node/switch/schema.ts';
import type { BufferSpec } from '../../node/switch/config-types.ts';
import { withoutUndefined } from '../../config/zod-parts.ts';
import type { SwitchConfig } from '../fabric/switch.ts';
import type { LinkSpec } from '../fabric/types.ts';
import { RandomStreams } from '../kernel/random.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import type { Fabric } from '../topology/types.ts';
import { GroupCollector } from './group-collector.ts';
import { linkPattern } from './link-match.ts';
import type { Scenario, ScenarioVariant } from './load.ts';
import type { LinkSettings, RunConfig } from './schema.ts';
import { resolveSwitch, withPortLinks } from './switch-overrides.ts';
import type { PortLink } from './switch-overrides.ts';
import { expandTraffic } from './traffic.ts';

/**
 * Wiring a scenario variant into a simulation (issue 7 §3): one Scheduler, the seed's
 * RandomStreams, a `Switch` per topology switch with its routing table, an `Endpoint` per host
 * with its traffic sources, a link (`makeLink`) per topology link, and the results collector
 * every component reports into.
 *
 * Choices the topology leaves open:
 * - Transport size: `tt` of the scenario, default Dev8 when every host ID fits 8 bits, else
 *   Dev16; switches assume the same tt for packets that carry no decoded header.
 * - VoQ backpressure: a switch generates VoQ symbols only on the links to other switches (an end
 *   point stages nothing, VoQ Backpressure §4.1 c lets it ignore them, and the symbols would only
 *   take host link time); the default number of staging queues is the largest port count of any
 *   switch, so that every next-hop port of any downstream switch has its own queue.
 */

export interface BuiltFabric {
  readonly variant: ScenarioVariant;
  readonly sched: Scheduler;
  readonly streams: RandomStreams;
  readonly collector: GroupCollector;
  readonly flows: FlowTable;
  readonly switches: readonly Switch[];
  readonly endpoints: readonly Endpoint[];
  readonly links: readonly { readonly name: string; readonly link: Link; readonly spec: LinkSpec }[];
}

/** Default output.sampleInterval: 1/200 of the run, in whole nanoseconds (at least 1 ns). */
export function defaultSampleInterval(duration: number): number {
  return Math.max(1000, Math.floor(duration / 200 / 1000) * 1000);
}

export function transportSize(c: RunConfig, fabric: Fabric): 0 | 1 {
  return c.tt ?? (fabric.hosts.length <= 256 ? 0 : 1);
}

function linkSpec(base: LinkSettings, overrides: RunConfig['linkOverrides'], name: string, ends: readonly (PortLink | undefined)[]): LinkSpec {
  let s: LinkSettings = base;
  for (const o of overrides) {
    if (!linkPattern(o.match).test(name)) continue;
    s = {
      lanes: o.lanes ?? s.lanes,
      baud: o.baud ?? s.baud,
      encoding: o.encoding ?? s.encoding,
      propagation: o.propagation ?? s.propagation,
      symbol: o.symbol ?? s.symbol,
    };
  }
  // switches.<key>.ports.<n>.link: over `link` and `linkOverrides` (switch-overrides.ts).
  s = withPortLinks(s, ends);
  return { lanes: s.lanes, baud: s.baud, encoding: s.encoding, propagation: s.propagation, ...(s.symbol === undefined ? {} : { symbol: s.symbol }) };
}

/** The object without its undefined fields (zod gives absent optional fields as undefined; the engines' configs want them absent). */
function defined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

function switchConfig(c: RunConfig, fabric: Fabric, s: number, tt: 0 | 1): SwitchConfig {
  const sw = fabric.switches[s];
  if (sw === undefined) throw new RangeError(`no switch ${s}`);
  const st = resolveSwitch(c, fabric, s).settings;
  const routes = Object.fromEntries([...(fabric.routes[s] ?? new Map<number, { port: number; next: number }>())].map(([d, r]) => [d, { port: r.port, next: r.next }]));
  // Per-port input buffers (switches.<key>.ports) are a list the element takes as is.
  const { inputBuffer, ...shared } = st;
  const element = { ...switchSettingsConfig(shared), ...(inputBuffer === undefined ? {} : { inputBuffer: withoutUndefined(inputBuffer) as BufferSpec | readonly BufferSpec[] }) };
  const v = element.voq;
  // Generation on the links to other switches unless the scenario lists the ports; staging
  // queues for the widest switch, so every next-hop port of any downstream switch has its own.
  const generate = v?.generate ?? (fabric.peers[s] ?? []).flatMap((p, port) => (p?.kind === 'switch' ? [port] : []));
  const widest = Math.min(256, Math.max(...fabric.switches.map((x) => x.ports)));
  return {
    ...element,
    ...(v == null ? {} : { voq: { ...v, generate, stagingQueues: v.stagingQueues ?? widest } }),
    name: sw.name,
    ports: sw.ports,
    routes,
    speedup: st.speedup,
    slot: st.slot,
    tt,
  };
}

function endpointConfig(c: RunConfig, name: string, id: number, tt: 0 | 1, traffic: EndpointConfig['traffic']): EndpointConfig {
  const e = c.endpoints;
  return {
    name, id, tt,
    buffers: e.buffers,
    traffic: traffic ?? [],
    sar: e.sar,
    mtu: e.mtu,
    sarMtu: e.sarMtu,
    queuePdus: e.queuePdus,
    ...(e.sourceQueue === undefined ? {} : { sourceQueue: e.sourceQueue }),
    crfSupported: e.crfSupported,
    ccp: e.ccp === false ? false : defined(e.ccp),
    sink: {
      serviceTime: e.serviceTime,
      ...(e.reassembly === undefined ? {} : { reassembler: { segSupport: e.reassembly.contexts, idleTimeout: e.reassembly.idleTimeout } }),
    },
    ...(e.arbitration === undefined ? {} : { arbitration: e.arbitration }),
    ...(e.tm === undefined ? {} : { tm: e.tm }),
    ...(e.session === undefined ? {} : { session: e.session }),
  };
}

/** Builds variant `variant` (its name or index) of a loaded scenario. */
export function buildFabric(scenario: Scenario, variant: string | number = 0): BuiltFabric {
  const v = typeof variant === 'number' ? scenario.variants[variant] : scenario.variants.find((x) => x.name === variant);
  if (v === undefined) throw new RangeError(`scenario ${scenario.name} has no variant ${String(variant)}`);
  return buildVariant(v);
}

export function buildVariant(v: ScenarioVariant): BuiltFabric {
  const c = v.config;
  const fabric = v.fabric;
  const sched = new Scheduler();
  const streams = new RandomStreams(c.seed);
  const ids = new PacketIds();
  const flows = new FlowTable();
  const traffic = expandTraffic(c, fabric, streams);
  const collector = new GroupCollector(traffic.groups, {
    warmup: c.warmup, sampleInterval: c.output.sampleInterval ?? defaultSampleInterval(c.duration), flows,
    perFlow: c.output.flows !== 'none', buffers: c.output.occupancy !== 'none',
  });
  const tt = transportSize(c, fabric);
  const switches = fabric.switches.map((_, s) => new Switch(sched, switchConfig(c, fabric, s, tt), { ids, probe: collector, streams }));
  const ctx = { probe: collector, streams, flows, ids };
  const endpoints = fabric.hosts.map((h) => new Endpoint(sched, endpointConfig(c, h.name, h.id, tt, traffic.perHost[h.id]), ctx));
  const portLinks = c.switches === undefined ? null : fabric.switches.map((_, s) => resolveSwitch(c, fabric, s).links);
  const links = fabric.links.map((l) => {
    const ends = portLinks === null ? [] : [l.kind === 'fabric' ? portLinks[l.a.switch]?.get(l.a.port) : undefined, portLinks[l.b.switch]?.get(l.b.port)];
    const spec = linkSpec(c.link, c.linkOverrides, l.name, ends);
    const bs = switches[l.b.switch] as Switch;
    if (l.kind === 'host') {
      const ep = endpoints[l.host] as Endpoint;
      const link = makeLink(sched, l.name, spec, ep, bs.port(l.b.port));
      ep.attach(link.ab, link.ba);
      bs.attach(l.b.port, link, 'b');
      return { name: l.name, link, spec };
    }
    const as = switches[l.a.switch] as Switch;
    const link = makeLink(sched, l.name, spec, as.port(l.a.port), bs.port(l.b.port));
    as.attach(l.a.port, link, 'a');
    bs.attach(l.b.port, link, 'b');
    return { name: l.name, link, spec };
  });
  collector.setGroups(flows.list().map((f) => traffic.flowGroups.get(flowNumberKey(f.src, f.dst, f.prio, f.crf)) ?? -1));
  return { variant: v, sched, streams, collector, flows, switches, endpoints, links };
}
