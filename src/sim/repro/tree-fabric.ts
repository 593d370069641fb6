/**
 * A two-stage fabric of 2k-port switches for N = k² sources and N sinks, built by hand from the
 * simulator's `Switch`, `Endpoint` and `makeLink` (issue 7 §4, Pfister & Norton tree saturation).
 *
 *   sources N + i ─ A_⌊i/k⌋ port i mod k ;  A_j port k + m ─ B_m port j ;  B_m port k + q ─ sink k·m + q
 *
 * Every stage-1 switch A_j has one link to every stage-2 switch B_m, so each source reaches each
 * sink by one path: A then B (a two-stage delta network, as in Pfister & Norton's multistage
 * networks). Data flows A → B → sink; the links' other directions carry the credits, and the
 * CCPs that go back to the sources (B_m routes source N + i to A_⌊i/k⌋, which routes it to its
 * port i mod k). Sink device IDs are 0 … N − 1, source IDs N … 2N − 1, all Dev8.
 *
 * Congestion control, one of:
 * - 'none': output-queued switches, nothing else;
 * - 'xon-xoff': the same switches with a Part 9 congestion point on every output queue, and the
 *   CCP reaction engine at the sources (only end points have one: use `sources: 'endpoint'`);
 * - 'voq-backpressure': 'cioq-voq-backpressure' switches; B's output queues report congestion
 *   upstream (VoQ Backpressure §2.5) on its links to the A switches, and each A stages its output
 *   towards B by B's egress port (the routes' `next`, §2.2).
 */
import type { Scheduler } from '../kernel/scheduler.ts';
import type { RandomStreams } from '../kernel/random.ts';
import { makeLink } from '../fabric/channel.ts';
import { Endpoint } from '../fabric/endpoint.ts';
import type { FlowTable } from '../fabric/endpoint-flows.ts';
import { plainPacketBytes } from '../../node/endpoint/packets.ts';
import type { EndpointContext } from '../fabric/endpoint-types.ts';
import { Switch } from '../fabric/switch.ts';
import type { SwitchRoute } from '../../node/switch/config-types.ts';
import type { SwitchConfig } from '../fabric/switch.ts';
import type { LinkSpec } from '../fabric/types.ts';
import type { TrafficSpec } from '../traffic/generator.ts';
import type { BatchProbe } from './batch-probe.ts';
import { FifoSource } from './fifo-source.ts';

export type TreeControl = 'none' | 'xon-xoff' | 'voq-backpressure';
export type TreeSources = 'fifo' | 'endpoint';

export const TREE_LINK: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };
/** Payload of every PDU: one packet of 80 octets (Type 9 framing, Dev8). */
export const TREE_PAYLOAD = 64;
export const TREE_PACKET_BYTES = plainPacketBytes(TREE_PAYLOAD, 0);

export interface TreeFabricOptions {
  readonly k: number;
  readonly control: TreeControl;
  readonly sources: TreeSources;
  /** Source i's traffic (destinations over the sinks, one packet per PDU). */
  readonly traffic: (i: number) => TrafficSpec;
  /** Switch input buffers, packets. */
  readonly inputBuffer: number;
  /** Output queue (per staging queue with VoQ backpressure), packets. */
  readonly outputQueue: number;
  /** Part 9 watermarks of the output queues, packets ('xon-xoff'). */
  readonly xoff: { readonly high: number; readonly low: number };
  /** VoQ Backpressure §2.5 output-queue detector watermarks, packets ('voq-backpressure'). */
  readonly voq: { readonly high: number; readonly low: number };
  /** Per-flow queue bound of an end point source (PDUs); the FIFO source's bound is this × N packets. */
  readonly queuePdus: number;
}

export interface TreeFabric {
  readonly stage1: readonly Switch[];
  readonly stage2: readonly Switch[];
  readonly sources: readonly (Endpoint | FifoSource)[];
  readonly sinks: readonly Endpoint[];
}

function stage1Routes(k: number, j: number): Record<number, SwitchRoute> {
  const n = k * k;
  const routes: Record<number, SwitchRoute> = {};
  for (let d = 0; d < n; d++) routes[d] = { port: k + Math.floor(d / k), next: k + (d % k) };
  for (let p = 0; p < k; p++) routes[n + j * k + p] = { port: p, next: 0 };
  return routes;
}

function stage2Routes(k: number, m: number): Record<number, SwitchRoute> {
  const n = k * k;
  const routes: Record<number, SwitchRoute> = {};
  for (let q = 0; q < k; q++) routes[k * m + q] = { port: k + q, next: 0 };
  for (let i = 0; i < n; i++) routes[n + i] = { port: Math.floor(i / k), next: i % k };
  return routes;
}

export function treeFabric(sched: Scheduler, o: TreeFabricOptions, ctx: { readonly probe: BatchProbe; readonly streams: RandomStreams; readonly flows: FlowTable; readonly ids: EndpointContext['ids'] }): TreeFabric {
  const k = o.k;
  const n = k * k;
  const voq = o.control === 'voq-backpressure';
  const base = {
    ports: 2 * k,
    queueing: voq ? 'cioq-voq-backpressure' : 'output-queued',
    speedup: 2,
    inputBuffer: { packets: o.inputBuffer },
    outputBuffer: { packets: o.outputQueue },
    congestion: o.control === 'xon-xoff' ? { highWatermark: o.xoff.high, lowWatermark: o.xoff.low } : null,
  } as const;
  const upstream = Array.from({ length: k }, (_, j) => j);
  const stage1 = Array.from({ length: k }, (_, j) => new Switch(sched, {
    ...base, name: `A${j}`, routes: stage1Routes(k, j),
    // The A switches' upstream neighbours are end points, which take no VoQ symbols (§4.1 c).
    ...(voq ? { voq: { high: o.voq.high, low: o.voq.low, generate: [] } } : {}),
  } satisfies SwitchConfig, { ids: ctx.ids, probe: ctx.probe }));
  const stage2 = Array.from({ length: k }, (_, m) => new Switch(sched, {
    ...base, name: `B${m}`, routes: stage2Routes(k, m),
    ...(voq ? { voq: { high: o.voq.high, low: o.voq.low, generate: upstream } } : {}),
  } satisfies SwitchConfig, { ids: ctx.ids, probe: ctx.probe }));
  for (let j = 0; j < k; j++) {
    for (let m = 0; m < k; m++) {
      const a = stage1[j] as Switch;
      const b = stage2[m] as Switch;
      const link = makeLink(sched, `A${j}-B${m}`, TREE_LINK, a.port(k + m), b.port(j));
      a.attach(k + m, link, 'a');
      b.attach(j, link, 'b');
    }
  }
  const sources: (Endpoint | FifoSource)[] = [];
  for (let i = 0; i < n; i++) {
    const id = n + i;
    const a = stage1[Math.floor(i / k)] as Switch;
    const port = i % k;
    if (o.sources === 'fifo') {
      const src = new FifoSource(sched, id, o.traffic(i), (payload) => plainPacketBytes(payload, 0), o.queuePdus * n, ctx);
      const link = makeLink(sched, `src${i}`, TREE_LINK, { tx: src, rx: src, buffers: { packets: 8 } }, a.port(port));
      a.attach(port, link, 'b');
      src.start(link.ab, link.ba);
      sources.push(src);
    } else {
      const src = new Endpoint(sched, {
        name: `src${i}`, id, buffers: { packets: 8 }, traffic: [o.traffic(i)], queuePdus: o.queuePdus, ccp: o.control === 'xon-xoff' ? {} : false,
      }, ctx);
      const link = makeLink(sched, `src${i}`, TREE_LINK, src, a.port(port));
      src.attach(link.ab, link.ba);
      a.attach(port, link, 'b');
      sources.push(src);
    }
  }
  const sinks: Endpoint[] = [];
  for (let d = 0; d < n; d++) {
    const b = stage2[Math.floor(d / k)] as Switch;
    const sink = new Endpoint(sched, { name: `sink${d}`, id: d, buffers: { packets: 8 }, ccp: false }, ctx);
    const link = makeLink(sched, `sink${d}`, TREE_LINK, sink, b.port(k + (d % k)));
    sink.attach(link.ab, link.ba);
    b.attach(k + (d % k), link, 'b');
    sinks.push(sink);
  }
  for (const s of sources) if (s instanceof Endpoint) s.start(0);
  return { stage1, stage2, sources, sinks };
}
