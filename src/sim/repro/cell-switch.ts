/**
 * One N x N switch in slotted operation with sources and sinks on every port: the fabric of the
 * cell-switch results of issue 7 §4 (Karol, Hluchyj & Morgan 1987; the output-queued wait;
 * McKeown's iSLIP), built from the simulator's own components: `Switch`, `Endpoint`,
 * `makeLink`, `RandomStreams`. No cell model of its own.
 *
 * Every port's far end is two devices sharing the link: a source (device ID N + i, an end point
 * or an always-backlogged FIFO source) that transmits on it and a pure sink end point (device ID
 * i) that receives from it. The analyses let a cell from input i go to any of the N outputs,
 * output i included, with probability 1/N; an end point never sends to itself
 * (traffic/destinations.ts), so the source and the sink of a port are two devices. Destination
 * ID d is routed to port d.
 *
 * Cells. Every PDU is one plain packet of `CELL_PAYLOAD` bytes (Type 9 framing, 20 octets with
 * its CRC and pad), 28 octets with its delimiter (a CS48 and its two special characters):
 * 224 000 ps on the 1x 1.25 Gbaud 8b/10b link.
 * The slot is that plus two CS48 control-symbol times (`CELL_SLOT`): a slot must hold a packet
 * and the credit symbol that shares its link (docs/conformance.md, decision W7 "Slotted
 * operation"), and the source links carry the sinks' credits besides the packets.
 */
import { RandomStreams } from '../kernel/random.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { makeLink } from '../fabric/channel.ts';
import { Endpoint } from '../fabric/endpoint.ts';
import { FlowTable } from '../fabric/endpoint-flows.ts';
import { plainPacketBytes } from '../../node/endpoint/packets.ts';
import { PacketIds } from '../fabric/endpoint-types.ts';
import type { EndpointTraffic } from '../fabric/endpoint-types.ts';
import { packetWireTime, symbolBytes, wireTime } from '../fabric/link-rate.ts';
import { Switch } from '../fabric/switch.ts';
import type { SwitchConfig } from '../fabric/switch.ts';
import type { LinkSpec } from '../fabric/types.ts';
import { BatchProbe } from './batch-probe.ts';
import { SaturatedSource } from './saturated-source.ts';

export const CELL_LINK: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };
export const CELL_PAYLOAD = 8;
/** Octets of one cell on the wire (without its delimiter). */
export const CELL_BYTES = plainPacketBytes(CELL_PAYLOAD, 0);
/** Cells a source has put on its link. */
export function sentBy(s: Endpoint | SaturatedSource): number {
  return s instanceof Endpoint ? s.counters().packetsSent : s.sent;
}

/** Wire time of a cell with its delimiter, ps: what the link (channel.ts) takes to send it. */
export const CELL_TIME = packetWireTime(CELL_LINK, CELL_BYTES);
export const SYMBOL_TIME = wireTime(CELL_LINK, symbolBytes(CELL_LINK));
export const CELL_SLOT = CELL_TIME + 2 * SYMBOL_TIME;

export interface CellSwitchOptions {
  readonly seed: number;
  readonly n: number;
  /** The switch, less what the fabric fixes (name, ports, routes, slot). */
  readonly sw: Omit<SwitchConfig, 'name' | 'ports' | 'routes' | 'slot' | 'inputBuffer'>;
  /**
   * Each source's load and arrival process (an `Endpoint` source); destinations are uniform over
   * the N sinks, sizes one cell. 'saturated': a `SaturatedSource` (saturated-source.ts).
   */
  readonly traffic: Omit<EndpointTraffic, 'destinations' | 'size'> | 'saturated';
  /** Switch input buffer, packets. Default 8. */
  readonly inputBuffer?: number;
  /** Each source flow's queue bound, PDUs. Default 64. */
  readonly queuePdus?: number;
}

export interface CellSwitch {
  readonly sched: Scheduler;
  readonly sw: Switch;
  /** End point sources, or saturated ones. */
  readonly sources: readonly (Endpoint | SaturatedSource)[];
  readonly sinks: readonly Endpoint[];
  readonly probe: BatchProbe;
  readonly flows: FlowTable;
}

export function cellSwitch(o: CellSwitchOptions): CellSwitch {
  const n = o.n;
  const sched = new Scheduler();
  const streams = new RandomStreams(o.seed);
  const probe = new BatchProbe();
  const flows = new FlowTable();
  const ids = new PacketIds();
  const ctx = { probe, streams, flows, ids };
  const routes: Record<number, number> = {};
  for (let d = 0; d < n; d++) routes[d] = d;
  const sw = new Switch(sched, { ...o.sw, name: 'sw', ports: n, routes, slot: CELL_SLOT, inputBuffer: { packets: o.inputBuffer ?? 8 } }, { ids, probe, streams });
  const sinkIds = Array.from({ length: n }, (_, d) => d);
  const sources: (Endpoint | SaturatedSource)[] = [];
  const sinks: Endpoint[] = [];
  for (let i = 0; i < n; i++) {
    const t = o.traffic;
    const source = t === 'saturated'
      ? new SaturatedSource(n + i, sinkIds, CELL_BYTES, ctx)
      : new Endpoint(sched, {
        name: `src${i}`, id: n + i, buffers: { packets: 8 }, queuePdus: o.queuePdus ?? 64, ccp: false,
        traffic: [{ ...t, destinations: { kind: 'uniform', ids: sinkIds }, size: { kind: 'fixed', bytes: CELL_PAYLOAD } }],
      }, ctx);
    const sink = new Endpoint(sched, { name: `sink${i}`, id: i, buffers: { packets: 8 }, ccp: false }, ctx);
    const link = makeLink(sched, `p${i}`, CELL_LINK, { tx: source, rx: sink, buffers: sink.buffers }, sw.port(i));
    if (source instanceof Endpoint) source.attach(link.ab, link.ba);
    sink.attach(link.ab, link.ba);
    sw.attach(i, link, 'b');
    sources.push(source);
    sinks.push(sink);
    if (source instanceof Endpoint) source.start(0);
    else link.ab.kick(0);
  }
  return { sched, sw, sources, sinks, probe, flows };
}

/**
 * Runs `sched` to `start`, then `count` batches of `length` ps, calling `sample(k)` at the end of
 * the warm-up (k = 0) and after each batch (k = 1 … count).
 */
export function runBatches(sched: Scheduler, start: number, length: number, count: number, sample: (k: number) => void): number {
  let events = sched.run({ until: start }).events;
  sample(0);
  for (let k = 1; k <= count; k++) {
    events += sched.run({ until: start + k * length }).events;
    sample(k);
  }
  return events;
}
