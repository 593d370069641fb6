/**
 * Issue 15 equivalence: one small fabric (a switch with ports 0–3, an end point on each port with
 * the port's number as its device ID) and one workload, run by three hosts of the node elements:
 * - the simulator (src/sim: Scheduler, links with wire time and credits) around the switch
 *   element's core and the end point element (`EndpointCore`);
 * - a manual clock (`FabricNet`): the switch element and fabric end points stepped by a test
 *   clock, every packet encoded and decoded on its link;
 * - the software fabric over TCP loopback (`riodp switch` and end point processes, in process).
 * The switch settings are one object for the three (the one switch schema); the end point
 * settings are the feature sections both end points take.
 */
import { Switch } from '../../src/sim/fabric/switch.ts';
import { Endpoint } from '../../src/sim/fabric/endpoint.ts';
import { makeLink } from '../../src/sim/fabric/channel.ts';
import type { SimPacket } from '../../src/sim/fabric/types.ts';
import type { SwitchConfig } from '../../src/node/switch/config-types.ts';
import type { EndpointArbitrationConfig } from '../../src/node/endpoint/arbitration-config.ts';
import type { EndpointTmConfig } from '../../src/node/endpoint/tm-config.ts';
import type { Type9Packet } from '../../src/wire/type9-types.ts';
import type { ProtocolSupport, StreamRef } from '../../src/session/types.ts';
import type { FabricCounters } from '../../src/node/fabric-endpoint.ts';
import { parseSwitchConfig } from '../../src/net/switch-config.ts';
import { startSwitch } from '../../src/net/switch-process.ts';
import { startEndpoint } from '../../src/net/endpoint-start.ts';
import { makeLogger } from '../../src/net/log.ts';
import { bench, X1 } from './sim-endpoint.ts';
import { FabricNet } from './fabric-endpoint.ts';
import { octets, type9Node } from './endpoint-net.ts';
import { testEndpointConfig } from './net-endpoint.ts';

export const EQ_PROTO = 0x1234;
const DATA3: ProtocolSupport = { protoID: EQ_PROTO, attributes: [], dataHeaderFormat: 'DATA3' };
const NODES = [0, 1, 2, 3] as const;
/** Management stream of node n (Annex 2 §3.3), advertised in its discovery block. */
const mgmtStream = (n: number): number => 0xfff0 + n;

/** Switch settings every host takes (the parts of `SwitchConfig` the workload chooses). */
export type EqSwitch = Partial<Pick<SwitchConfig, 'queueing' | 'congestion' | 'outputBuffer' | 'inputBuffer'>>;

export interface Workload {
  /** PDUs in the order each source offers them: [source, destination, bytes]. */
  readonly pdus: readonly (readonly [number, number, number])[];
  readonly switch?: EqSwitch;
  readonly arbitration?: EndpointArbitrationConfig;
  readonly tm?: EndpointTmConfig;
  /** An end point that drains slowly (its port is the hotspot). */
  readonly slow?: number;
}

/** What a host saw, per flow `src>dst`. */
export interface Observed {
  /** The data segments that reached the destination, in order: `<segment kind>/<payload bytes>`. */
  readonly segments: Map<string, string[]>;
  /** The PDUs delivered, in order: payload bytes. */
  readonly pdus: Map<string, number[]>;
  /** Part 9 XOFF CCPs each end point received. */
  readonly xoffs: Map<number, number>;
  /** The destinations the XOFFs named (tgtdestinationID, Part 9 §3.2). */
  readonly xoffTargets: Set<number>;
  /** Per destination, the most PDUs of different flows ever in reception at once. */
  readonly interleaved: Map<number, number>;
  /** Per flow, the time its last PDU was delivered (the host's unit). */
  readonly lastAt: Map<string, number>;
}

function observed(): Observed {
  return { segments: new Map(), pdus: new Map(), xoffs: new Map(), xoffTargets: new Set(), interleaved: new Map(), lastAt: new Map() };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l === undefined) m.set(k, [v]);
  else l.push(v);
}

/** Follows the data segments arriving at each destination. */
class SegmentFollower {
  readonly o = observed();
  readonly #open = new Map<number, Set<string>>();
  readonly #bytes = new Map<string, number>();

  segment(src: number, dst: number, p: Type9Packet, at: number): void {
    if (p.segment === 'tm' || p.segment === 'extended') return;
    const key = `${src}>${dst}`;
    push(this.o.segments, key, `${p.segment}/${p.payload.length}`);
    const open = this.#open.get(dst) ?? new Set<string>();
    this.#open.set(dst, open);
    const sofar = (p.segment === 'start' || p.segment === 'single' ? 0 : (this.#bytes.get(key) ?? 0)) + p.payload.length;
    this.#bytes.set(key, sofar);
    if (p.segment === 'start') open.add(key);
    this.o.interleaved.set(dst, Math.max(this.o.interleaved.get(dst) ?? 0, open.size));
    if (p.segment === 'end' || p.segment === 'single') {
      open.delete(key);
      push(this.o.pdus, key, sofar);
      this.o.lastAt.set(key, at);
    }
  }

  xoff(node: number, target: number): void {
    this.o.xoffs.set(node, (this.o.xoffs.get(node) ?? 0) + 1);
    this.o.xoffTargets.add(target);
  }
}

function isType9(w: unknown): w is Type9Packet {
  return typeof w === 'object' && w !== null && (w as { ftype?: unknown }).ftype === 9;
}

/** The simulator: X1 links, the slow end point serving a packet every 20 µs; times in ps. */
export function runSim(w: Workload): { readonly o: Observed; readonly endpoints: readonly Endpoint[] } {
  const b = bench(1);
  const sw = new Switch(b.sched, {
    name: 's', ports: 4, routes: { 0: 0, 1: 1, 2: 2, 3: 3 }, tt: 0, queueing: 'output-queued', inputBuffer: { packets: 8 }, ...w.switch,
  }, { ids: b.ctx.ids, probe: b.collector, streams: b.ctx.streams });
  const f = new SegmentFollower();
  const endpoints = NODES.map((i) => {
    const ep = new Endpoint(b.sched, {
      name: `ep${i}`, id: i, buffers: { packets: 8 }, sar: true,
      ...(w.slow === i ? { sink: { serviceTime: 20_000_000 } } : {}),
      ...(w.arbitration === undefined ? {} : { arbitration: w.arbitration }),
      ...(w.tm === undefined ? {} : { tm: w.tm }),
    }, b.ctx);
    const link = makeLink(b.sched, `h${i}`, X1, ep, sw.port(i));
    ep.attach(link.ab, link.ba);
    sw.attach(i, link, 'b');
    const receive = ep.receive.bind(ep);
    ep.receive = (p: SimPacket, now: number): void => {
      if (p.kind === 'data' && isType9(p.wire)) f.segment(p.src, p.dst, p.wire, now);
      const ccp = p.wire as { xonXoff?: number; tgtdestinationID?: number } | undefined;
      if (p.kind === 'ccp' && ccp?.xonXoff === 0) f.xoff(i, ccp.tgtdestinationID ?? -1);
      receive(p, now);
    };
    return ep;
  });
  for (const ep of endpoints) ep.start(0);
  for (const [src, dst, bytes] of w.pdus) endpoints[src]?.source.offer(dst, 0, 0, bytes, 0);
  b.sched.run({ until: 1_000_000_000_000 });
  return { o: f.o, endpoints };
}

/** The flows of a workload, as `src>dst` pairs in first-offer order. */
function flowsOf(w: Workload): [number, number][] {
  const seen = new Map<string, [number, number]>();
  for (const [s, d] of w.pdus) if (!seen.has(`${s}>${d}`)) seen.set(`${s}>${d}`, [s, d]);
  return [...seen.values()];
}

/** The payload of the k-th PDU of a workload: its bytes differ per PDU. */
export function payloadOf(w: Workload, k: number): Uint8Array {
  const pdu = w.pdus[k];
  if (pdu === undefined) throw new RangeError(`no PDU ${k}`);
  return octets(pdu[2], k + 1);
}

/** The manual clock: FabricNet, 1 µs per packet, the slow port draining a packet every 20 µs; times in ns. */
export function runManual(w: Workload): { readonly o: Observed; readonly net: FabricNet } {
  const net = new FabricNet({ ...(w.slow === undefined ? {} : { portTime: { [w.slow]: 20_000 } }), switch: { queueing: 'output-queued', inputBuffer: { packets: 8 }, ...w.switch } });
  const flows = flowsOf(w);
  for (const n of NODES) {
    const discover = flows.filter(([s, d]) => s === n || d === n).map(([s, d]) => (s === n ? d : s));
    net.add({
      ...type9Node(n, mgmtStream(n), { protocols: [DATA3], discover: [...new Set(discover)] }),
      ...(w.arbitration === undefined ? {} : { arbitration: w.arbitration }),
      ...(w.tm === undefined ? {} : { tm: w.tm }),
    });
  }
  for (const n of NODES) net.input(n, { kind: 'discover' });
  net.settle();
  const streams = new Map<string, StreamRef>();
  for (const [s, d] of flows) {
    net.input(s, { kind: 'open', to: d, protoID: EQ_PROTO, ref: `${s}>${d}` });
    net.settle();
    const e = net.eventsOf('session', 'opened', s).find((x) => x['ref'] === `${s}>${d}`);
    const st = e?.['stream'] as StreamRef | undefined;
    if (st === undefined) throw new Error(`stream ${s}>${d} did not open`);
    streams.set(`${s}>${d}`, { remote: st.remote, direction: st.direction, streamID: st.streamID });
  }
  const t0 = net.now;
  // The fabric end point's TM holds at most `queuePdus` (16) PDUs per stream and refuses more, as
  // the application's send window would keep it from doing over TCP: with TM, PDUs go in rounds of 8.
  w.pdus.forEach(([s, d], k) => {
    net.input(s, { kind: 'send', stream: streams.get(`${s}>${d}`) as StreamRef, pdu: payloadOf(w, k) });
    if (w.tm !== undefined && k % 8 === 7) net.settle();
  });
  net.settle();
  const f = new SegmentFollower();
  const dataStreams = new Set([...streams.values()].map((s) => s.streamID));
  // Continuation and end segments carry no streamID: they belong to the PDU their flow has open (Part 10 §3.2.5).
  const openIsData = new Map<string, boolean>();
  for (const x of net.trace) {
    if (x.dropped || x.packet.ftype !== 9) continue;
    const p = x.packet;
    const flow = `${x.from}>${x.to}/${p.prio}/${p.crf}`;
    let data: boolean;
    if (p.segment === 'start' || p.segment === 'single') {
      data = dataStreams.has(p.streamID);
      openIsData.set(flow, data);
    } else {
      data = openIsData.get(flow) === true;
    }
    if (data && x.at >= t0) f.segment(x.from, x.to, p, x.at);
  }
  for (const n of NODES) for (const s of net.flowStates.filter((x) => x.node === n && x.state === 'xoff' && x.cause === 'xoff')) f.xoff(s.node, s.destinationID);
  return { o: f.o, net };
}

/** The software fabric over TCP loopback: PDUs delivered per flow, in order, as bytes. */
export async function runTcp(w: Workload): Promise<{ readonly pdus: Map<string, Uint8Array[]>; readonly counters: readonly FabricCounters[] }> {
  const sw = await startSwitch(parseSwitchConfig({
    deviceId: 0x50,
    ports: NODES.map((n) => ({ port: n, listen: { port: 0 }, accept: [n] })),
    routes: { 0: 0, 1: 1, 2: 2, 3: 3 },
    queueing: 'output-queued',
    ...w.switch,
    log: 'silent',
  }), { logger: makeLogger({ level: 'silent' }) });
  const port = (p: number): number => sw.addresses.find((x) => x.port === p)?.tcpPort ?? -1;
  const eps = await Promise.all(NODES.map((n) => startEndpoint(testEndpointConfig(n, port(n), {
    protocols: [{ protoID: EQ_PROTO, dataHeaderFormat: 'DATA3' }],
    ...(w.arbitration === undefined ? {} : { arbitration: w.arbitration }),
    ...(w.tm === undefined ? {} : { tm: w.tm }),
  }))));
  const got = new Map<string, Uint8Array[]>();
  let counters: FabricCounters[] = [];
  try {
    const flows = flowsOf(w);
    const expected = new Map<string, number>();
    for (const [s, d] of w.pdus) expected.set(`${s}>${d}`, (expected.get(`${s}>${d}`) ?? 0) + 1);
    const readers: Promise<void>[] = [];
    const byDst = new Map<number, number>();
    for (const [, d] of flows) byDst.set(d, (byDst.get(d) ?? 0) + 1);
    for (const [d, count] of byDst) {
      const ep = eps[d];
      if (ep === undefined) continue;
      readers.push((async () => {
        const it = ep.incoming()[Symbol.asyncIterator]();
        const reads: Promise<void>[] = [];
        for (let k = 0; k < count; k++) {
          const next = await it.next();
          if (next.done === true) break;
          const rx = next.value;
          const key = `${rx.remote}>${d}`;
          reads.push((async () => {
            for (let i = 0; i < (expected.get(key) ?? 0); i++) {
              const pdu = await rx.read();
              if (pdu === null) break;
              push(got, key, pdu);
            }
          })());
        }
        await Promise.all(reads);
      })());
    }
    const streams = new Map<string, Awaited<ReturnType<(typeof eps)[number]['openStream']>>>();
    // Each end point learns the others as they come up (Annex 2 §3.3 discovery).
    for (const [s, d] of flows) {
      const from = eps[s] as (typeof eps)[number];
      for (let tries = 0; !(await from.discover(d)).some((p) => p.node === d && p.complete); tries++) {
        if (tries > 100) throw new Error(`node ${s} does not discover ${d}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    for (const [s, d] of flows) streams.set(`${s}>${d}`, await (eps[s] as (typeof eps)[number]).openStream({ to: d, protoID: EQ_PROTO }));
    const sends = new Map<number, Promise<void>>();
    w.pdus.forEach(([s, d], k) => {
      const before = sends.get(s) ?? Promise.resolve();
      sends.set(s, before.then(() => streams.get(`${s}>${d}`)?.send(payloadOf(w, k))));
    });
    await Promise.all([...sends.values()]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(readers), new Promise((r) => { timer = setTimeout(r, 20_000); })]);
    clearTimeout(timer);
    counters = eps.map((e) => e.status().counters.engine);
  } finally {
    await Promise.all(eps.map((e) => e.close()));
    await sw.close();
  }
  return { pdus: got, counters };
}

/** The workload's PDUs per flow, in order: what every host must deliver. */
export function expectedPdus(w: Workload): Map<string, Uint8Array[]> {
  const m = new Map<string, Uint8Array[]>();
  w.pdus.forEach(([s, d], k) => { push(m, `${s}>${d}`, payloadOf(w, k)); });
  return m;
}
