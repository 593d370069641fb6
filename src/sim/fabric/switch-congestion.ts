import { CongestionPoint } from '../../flow/congestion-point.ts';
import type { CongestionPointOutput } from '../../flow/congestion-point-types.ts';
import { type7Length } from '../../wire/type7.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { ResolvedSwitchConfig } from './switch-config.ts';
import type { PacketKind, Priority, SimPacket } from './types.ts';

/**
 * The Part 9 congestion points of a switch (§2.1 "logical layer flow control methods shall be
 * employed within a fabric … at the point in time and location at which excessive congestion is
 * detected"; Annex A.1 "monitor their internal packet buffer levels, comparing them on a packet by
 * packet basis to pre-established, locally-defined watermark levels").
 *
 * Where the buffers are: in 'output-queued' and 'cioq-voq-backpressure' switches packets wait in
 * the output queues, so there is one congestion point per output queue (A.1: "In the example
 * output port buffered switch …, congestion occurs when some output buffer watermark is
 * exceeded"); in the input-queued modes an output holds at most one packet and packets wait in
 * the input buffers, so there is one per input buffer (§2.1: the method "is heavily dependent
 * upon the internal packet buffering structure"). A congestion point sees exactly the packets
 * that occupy its buffer: those that arrived on a link, not the CCPs the switch makes.
 */

/** What the congestion points need of their switch. */
export interface CongestionHost {
  /** A CCP to send out of `port` towards its destination. */
  injectCcp(port: number, ccp: Type7Packet, now: number): void;
  /** A congestion point event (ccp-dropped, no-route, list-full …), counted by name. */
  congestionEvent(name: string): void;
}

/**
 * The ftype a packet is classified by when its `wire` names none: Part 9 §2.4.3 "Maintenance and
 * flow control transaction request flows must never cause the generation of a flow control
 * transaction", so CCPs and flow arbitration messages are Type 7; everything else is request
 * traffic, taken as Type 9 (data streaming, the traffic Part 10 and the end points carry).
 */
const KIND_FTYPE: Readonly<Record<PacketKind, number>> = { data: 9, tm: 9, smp: 9, ccp: 7, arb: 7 };

function wireField(p: SimPacket, name: 'ftype' | 'tt'): number | undefined {
  const w = p.wire;
  if (typeof w !== 'object' || w === null) return undefined;
  const v = (w as Record<string, unknown>)[name];
  return typeof v === 'number' ? v : undefined;
}

/**
 * The SimPacket of a CCP the switch sends: `bytes` from the Type 7 codec's length for its tt;
 * `src` is the header's second ID, which in a CCP is tgtdestinationID (Part 9 §3.2 Figure 3-1:
 * the CCP has no sourceID); prio/CRF as the packet says.
 */
export function ccpPacket(ccp: Type7Packet, id: number, now: number): SimPacket {
  return {
    id, kind: 'ccp', src: ccp.tgtdestinationID, dst: ccp.destinationID, prio: (ccp.prio & 3) as Priority, crf: ccp.crf === 1 ? 1 : 0,
    vc: 0, bytes: type7Length(ccp), flow: -1, createdAt: now, wire: ccp,
  };
}

/** The fields of the buffered packet, mutable and reused: the engine keeps none of them. */
interface Scratch {
  sourceID: number;
  destinationID: number;
  tt: number;
  prio: number;
  crf: number;
  vc: number;
  ftype: number;
  size: number;
}

export class SwitchCongestion {
  readonly points: readonly CongestionPoint[];
  /** Whether the points watch the input buffers (input-queued modes) rather than the output queues. */
  readonly atInputs: boolean;
  readonly #host: CongestionHost;
  readonly #tt: number;
  readonly #scratch: Scratch = { sourceID: 0, destinationID: 0, tt: 0, prio: 0, crf: 0, vc: 0, ftype: 0, size: 0 };
  readonly #bp = { kind: 'enqueue' as 'enqueue' | 'dequeue', packet: this.#scratch };

  constructor(cfg: ResolvedSwitchConfig, host: CongestionHost) {
    const c = cfg.congestion;
    if (c === null) throw new RangeError(`${cfg.name}.congestion must be set to build congestion points`);
    this.atInputs = cfg.queueing === 'input-fifo' || cfg.queueing === 'input-voq';
    const table: Record<number, number> = {};
    for (const [id, r] of cfg.routes) table[id] = r.port;
    const routes = cfg.defaultRoute === undefined ? { table } : { table, default: cfg.defaultRoute };
    const points: CongestionPoint[] = [];
    for (let k = 0; k < cfg.ports; k++) {
      // §2.4.6 rule 2 "If a switch runs out of packet buffer space, it is permitted to drop CCPs":
      // by default the buffer's own size, when the watermarks count packets.
      const size = this.atInputs ? (cfg.buffers[k]?.packets ?? 1) : cfg.outputQueue;
      const capacity = c.capacity ?? ((c.unit ?? 'packets') === 'packets' ? size : undefined);
      const config = capacity === undefined ? { ...c, role: 'switch' as const, routes } : { ...c, role: 'switch' as const, routes, capacity };
      try {
        points.push(new CongestionPoint(config));
      } catch (e) {
        throw new RangeError(`${cfg.name}.congestion.${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.points = points;
    this.#host = host;
    this.#tt = cfg.tt;
  }

  enqueue(k: number, p: SimPacket, now: number): void {
    this.#feed(k, p, 'enqueue', now);
  }

  dequeue(k: number, p: SimPacket, now: number): void {
    this.#feed(k, p, 'dequeue', now);
  }

  #feed(k: number, p: SimPacket, kind: 'enqueue' | 'dequeue', now: number): void {
    const s = this.#scratch;
    s.sourceID = p.src;
    s.destinationID = p.dst;
    s.tt = wireField(p, 'tt') ?? this.#tt;
    s.prio = p.prio;
    s.crf = p.crf;
    s.vc = p.vc === 0 ? 0 : 1;
    s.ftype = wireField(p, 'ftype') ?? KIND_FTYPE[p.kind];
    s.size = p.bytes;
    this.#bp.kind = kind;
    const outs = (this.points[k] as CongestionPoint).handle(this.#bp, now);
    if (outs.length > 0) this.#apply(outs, now);
  }

  #apply(outs: CongestionPointOutput[], now: number): void {
    for (const o of outs) {
      if (o.kind === 'send') this.#host.injectCcp(o.port, o.packet, now);
      else this.#host.congestionEvent(o.name);
    }
  }
}
