/**
 * Test fabric for flow arbitration in simulated end points (src/node/endpoint/arbitration.ts):
 * real `Endpoint`s on the ports of one output-queued `Switch` (host d on port d, device ID d), 1x
 * 1.25 Gbaud links, and a `Trace` that records, per end point, the data packets it sends and
 * receives and the 'arb' packets it sends and receives, each with its time. The trace taps the end
 * points from outside (an extra observing feature, and the link's receive call), so it sees what
 * the wire carries, not what the arbitration feature believes.
 */
import { makeLink } from '../../src/sim/fabric/channel.ts';
import { Endpoint } from '../../src/sim/fabric/endpoint.ts';
import { ArbitrationFeature } from '../../src/node/endpoint/arbitration.ts';
import type { EndpointFeature, PacketPosition, SentPacket } from '../../src/node/endpoint/feature.ts';
import type { SourceFlow } from '../../src/sim/fabric/endpoint-source.ts';
import type { EndpointConfig } from '../../src/sim/fabric/endpoint-types.ts';
import { Switch } from '../../src/sim/fabric/switch.ts';
import type { SimPacket } from '../../src/sim/fabric/types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import { serialLength } from '../../src/wire/serial.ts';
import { makeCcp, type7Length } from '../../src/wire/type7.ts';
import type { Type7DefinedCommand, Type7Packet } from '../../src/wire/type7.ts';
import { X1, bench } from './sim-endpoint.ts';
import type { Bench } from './sim-endpoint.ts';

export interface DataEvent {
  readonly at: number;
  readonly ep: number;
  /** Source flow's destination and flowID on 'sent'; the packet's source on 'received'. */
  readonly peer: number;
  readonly flowID: string;
  readonly position: PacketPosition;
  readonly pdu: number;
}

export interface ArbEvent {
  readonly at: number;
  /** The end point that sent or received it. */
  readonly ep: number;
  readonly command: string;
  readonly seq: number | undefined;
  /** destinationID and tgtdestinationID of the Type 7 packet. */
  readonly to: number;
  readonly tgt: number;
  readonly flowID: string;
  readonly prio: number;
  readonly crf: number;
}

export class Trace {
  readonly sent: DataEvent[] = [];
  readonly received: DataEvent[] = [];
  readonly arbIn: ArbEvent[] = [];
  readonly arbOut: ArbEvent[] = [];
}

function arbEvent(ep: number, at: number, p: SimPacket): ArbEvent {
  const w = p.wire as Type7Packet;
  return { at, ep, command: w.command, seq: w.seq, to: w.destinationID, tgt: w.tgtdestinationID, flowID: w.flowID, prio: p.prio, crf: p.crf };
}

/** The observing feature: it takes no packet kind and changes nothing. */
function observer(ep: number, trace: Trace): EndpointFeature {
  return {
    name: 'observer',
    kinds: [],
    receive: () => undefined,
    timer: () => undefined,
    counters: () => ({}),
    snapshot: () => ({}),
    packetSent: (f: SourceFlow, p: SentPacket, now: number) => {
      trace.sent.push({ at: now, ep, peer: f.dst, flowID: f.flowID, position: p.position, pdu: -1 });
    },
    dataReceived: (p: SimPacket, position: PacketPosition, now: number) => {
      trace.received.push({ at: now, ep, peer: p.src, flowID: `${p.prio}/${p.crf}`, position, pdu: p.pdu?.id ?? -1 });
    },
  };
}

export interface ArbFabric {
  readonly b: Bench;
  readonly sw: Switch;
  readonly eps: Endpoint[];
  readonly trace: Trace;
  /** The arbitration feature of end point i. */
  arb(i: number): ArbitrationFeature;
  /** Sum of one counter of every end point's arbitration feature. */
  total(counter: string): number;
}

/** One switch with `configs.length` ports; end point i (device ID configs[i].id, which must be i) on port i. */
export function arbFabric(configs: readonly EndpointConfig[], seed = 1): ArbFabric {
  const b = bench(seed);
  const n = configs.length;
  const routes = Object.fromEntries(configs.map((_, d) => [d, d]));
  const sw = new Switch(b.sched, { name: 's', ports: n, queueing: 'output-queued', routes, inputBuffer: { packets: 8 }, tt: 0 }, { ids: b.ctx.ids, probe: b.collector, streams: b.ctx.streams });
  const trace = new Trace();
  const eps = configs.map((c, i) => {
    if (c.id !== i) throw new RangeError(`end point ${i} must have device ID ${i}`);
    const ep = new Endpoint(b.sched, c, b.ctx);
    const link = makeLink(b.sched, `h${i}`, X1, ep, sw.port(i));
    ep.attach(link.ab, link.ba);
    sw.attach(i, link, 'b');
    const obs = observer(i, trace);
    ep.core.features = [...ep.core.features, obs];
    const receive = ep.receive.bind(ep);
    ep.receive = (p: SimPacket, now: number): void => {
      if (p.kind === 'arb') trace.arbIn.push(arbEvent(i, now, p));
      receive(p, now);
    };
    const pull = ep.pull.bind(ep);
    ep.pull = (now: number, free: number, reserve: number): SimPacket | null => {
      const p = pull(now, free, reserve);
      if (p?.kind === 'arb') trace.arbOut.push(arbEvent(i, now, p));
      return p;
    };
    return ep;
  });
  const arb = (i: number): ArbitrationFeature => {
    const f = eps[i]?.features.find((x) => x.name === 'arbitration');
    if (!(f instanceof ArbitrationFeature)) throw new RangeError(`end point ${i} runs no arbitration`);
    return f;
  };
  const total = (counter: string): number => eps.reduce((s, ep) => s + (ep.features.find((x) => x.name === 'arbitration')?.counters()[counter] ?? 0), 0);
  return { b, sw, eps, trace, arb, total };
}

/** An 'arb' packet as an end point `from` would send it (Dev8, SOC 1): REQUEST/RELEASE name the sender in tgtdestinationID, XON/XOFF(ARB) the receiver. */
export function arbPacket(id: number, from: number, wire: Type7Packet): SimPacket {
  return { id, kind: 'arb', ftype: 7, src: from, dst: wire.destinationID, prio: (wire.prio & 3) as 0 | 1 | 2 | 3, crf: wire.crf === 1 ? 1 : 0, vc: wire.vc, bytes: serialLength(type7Length(wire)), flow: -1, createdAt: 0, wire };
}

/** A Type 7 arbitration message from end point `from` to `to` about flow `flowID` (Dev8, SOC 1). */
export function arbMessage(from: number, to: number, command: Type7DefinedCommand, seq: number | undefined, flowID: FlowIdLabel = '0A'): Type7Packet {
  return makeCcp(seq === undefined ? { destinationID: to, tgtdestinationID: from, tt: 0, command, flowID, soc: 1 } : { destinationID: to, tgtdestinationID: from, tt: 0, command, seq, flowID, soc: 1 });
}

export const starts = (e: DataEvent): boolean => e.position === 'start' || e.position === 'single';
export const ends = (e: DataEvent): boolean => e.position === 'end' || e.position === 'single';

/**
 * Single-PDU mode, from the wire: at every moment, the PDUs a source started on a flow are no more
 * than the XON(ARB)s it received for that flow. An XON(ARB) arriving at the very time of a send
 * counts (the pull follows the arrival).
 */
export function startsBeyondGrants(t: Trace): string[] {
  const events = [
    ...t.arbIn.filter((a) => a.command === 'XON_ARB').map((a) => ({ at: a.at, order: 0, key: `${a.ep}>${a.tgt}/${a.flowID}` })),
    ...t.sent.filter(starts).map((s) => ({ at: s.at, order: 1, key: `${s.ep}>${s.peer}/${s.flowID}` })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const credit = new Map<string, number>();
  const bad: string[] = [];
  for (const e of events) {
    const c = (credit.get(e.key) ?? 0) + (e.order === 0 ? 1 : -1);
    credit.set(e.key, c);
    if (c < 0) bad.push(`${e.key} at ${e.at}`);
  }
  return bad;
}

/** Most PDUs host `ep` was receiving at once (a start seen, its end not yet; a single segment counts at its instant). */
export function maxInReception(t: Trace, ep: number): number {
  const open = new Set<string>();
  let max = 0;
  for (const r of t.received.filter((x) => x.ep === ep)) {
    const key = `${r.peer}/${r.flowID}`;
    if (starts(r)) open.add(key);
    max = Math.max(max, open.size);
    if (ends(r)) open.delete(key);
  }
  return max;
}

/** Two packets pulled by one end point at one time would be two transmissions at once on its link. */
export function overlappingPulls(t: Trace): number {
  const seen = new Set<string>();
  let n = 0;
  for (const e of [...t.sent, ...t.arbOut]) {
    const k = `${e.ep}@${e.at}`;
    if (seen.has(k)) n++;
    seen.add(k);
  }
  return n;
}

/**
 * Multi-PDU mode, from the wire: a source starts a PDU on a flow only while it holds a grant there,
 * i.e. it has received more XON(ARB)s for the flow than it has sent RELEASEs. At one time an
 * arriving XON(ARB) comes before a start, and a start before a RELEASE.
 */
export function startsOutsideMultiGrants(t: Trace): string[] {
  const events = [
    ...t.arbIn.filter((a) => a.command === 'XON_ARB').map((a) => ({ at: a.at, order: 0, key: `${a.ep}>${a.tgt}/${a.flowID}` })),
    ...t.sent.filter(starts).map((s) => ({ at: s.at, order: 1, key: `${s.ep}>${s.peer}/${s.flowID}` })),
    ...t.arbOut.filter((a) => a.command === 'RELEASE').map((a) => ({ at: a.at, order: 2, key: `${a.ep}>${a.to}/${a.flowID}` })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const held = new Map<string, number>();
  const bad: string[] = [];
  for (const e of events) {
    const h = held.get(e.key) ?? 0;
    if (e.order === 1 && h < 1) bad.push(`${e.key} at ${e.at}`);
    if (e.order !== 1) held.set(e.key, h + (e.order === 0 ? 1 : -1));
  }
  return bad;
}
