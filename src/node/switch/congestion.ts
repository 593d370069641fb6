import { CongestionPoint } from '../../flow/congestion-point.ts';
import type { CongestionPointConfig, CongestionPointOutput, CongestionPointSnapshot } from '../../flow/congestion-point-types.ts';
import { within } from '../session-endpoint-config.ts';
import type { SwitchPacket } from './packet.ts';

/**
 * The Part 9 congestion points of a switch (§2.1 "logical layer flow control methods shall be
 * employed within a fabric … at the point in time and location at which excessive congestion is
 * detected"; Annex A.1 "monitor their internal packet buffer levels, comparing them on a packet by
 * packet basis to pre-established, locally-defined watermark levels").
 *
 * Where the buffers are: in 'output-queued' and 'cioq-voq-backpressure' switches packets wait in
 * the output queues, so a point watches an output queue (A.1: "In the example output port
 * buffered switch …, congestion occurs when some output buffer watermark is exceeded"); in the
 * input-queued modes an output holds at most one packet and packets wait in the input buffers, so
 * a point watches an input buffer (§2.1: the method "is heavily dependent upon the internal packet
 * buffering structure"). A point sees exactly the packets that occupy its buffer: those that
 * arrived on a link and the switch's maintenance responses, not the CCPs the switch makes.
 */

/**
 * The header fields a point classifies by (Part 9 §2.4.3 Table 2-1, §3.2), mutable and reused:
 * the engine keeps none of them. A Type 7 packet has no sourceID; its tgtdestinationID stands in,
 * and Type 7 never triggers a CCP anyway ("Maintenance and flow control transaction request flows
 * must never cause the generation of a flow control transaction").
 */
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

function wireTt(p: SwitchPacket): number | undefined {
  const w = p.wire;
  if (typeof w !== 'object' || w === null) return undefined;
  const v = (w as Record<string, unknown>)['tt'];
  return typeof v === 'number' ? v : undefined;
}

export class SwitchCongestion {
  readonly #points: readonly (CongestionPoint | null)[];
  readonly #tt: number;
  readonly #scratch: Scratch = { sourceID: 0, destinationID: 0, tt: 0, prio: 0, crf: 0, vc: 0, ftype: 0, size: 0 };
  readonly #input = { kind: 'enqueue' as 'enqueue' | 'dequeue', packet: this.#scratch };
  /** Whether any port has a point. */
  readonly any: boolean;

  /** `tt`: the transport type of packets that carry no decoded header (Part 3 §2.4). */
  constructor(configs: readonly (CongestionPointConfig | null)[], perPort: boolean, tt: number) {
    this.#points = configs.map((c, k) => (c === null ? null : within(perPort ? `congestion[${k}]` : 'congestion', () => new CongestionPoint(c))));
    this.#tt = tt;
    this.any = this.#points.some((p) => p !== null);
  }

  has(k: number): boolean {
    return this.#points[k] != null;
  }

  /** Buffer k took `p`; the point's outputs (CCPs to route, events), or an empty list. */
  enqueue(k: number, p: SwitchPacket, now: number): readonly CongestionPointOutput[] {
    return this.#feed(k, p, 'enqueue', now);
  }

  dequeue(k: number, p: SwitchPacket, now: number): readonly CongestionPointOutput[] {
    return this.#feed(k, p, 'dequeue', now);
  }

  snapshot(): (CongestionPointSnapshot | null)[] {
    return this.#points.map((p) => p?.snapshot() ?? null);
  }

  #feed(k: number, p: SwitchPacket, kind: 'enqueue' | 'dequeue', now: number): readonly CongestionPointOutput[] {
    const point = this.#points[k];
    if (point == null) return NONE;
    const s = this.#scratch;
    s.sourceID = p.src;
    s.destinationID = p.dst;
    s.tt = p.tt ?? wireTt(p) ?? this.#tt;
    s.prio = p.prio;
    s.crf = p.crf;
    s.vc = p.vc === 0 ? 0 : 1;
    s.ftype = p.ftype;
    s.size = p.bytes;
    this.#input.kind = kind;
    return point.handle(this.#input, now);
  }
}

const NONE: readonly CongestionPointOutput[] = [];
