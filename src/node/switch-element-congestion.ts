import type { Time } from '../engine/contract.ts';
import { CongestionPoint } from '../flow/congestion-point.ts';
import type { BufferedPacket, CongestionPointConfig, CongestionPointOutput } from '../flow/congestion-point-types.ts';
import { within } from './session-endpoint-config.ts';
import type { Queued } from './switch-element-queues.ts';
import { senderOf } from './switch-element-receive.ts';

/**
 * The Part 9 congestion points of a switch, one per output buffer that has one: Annex A.1 "In the
 * example output port buffered switch ..., congestion occurs when some output buffer watermark is
 * exceeded"; the points "monitor their internal packet buffer levels, comparing them on a packet by
 * packet basis to pre-established, locally-defined watermark levels". A point sees exactly the
 * packets that occupy its buffer (forwarded packets and the switch's maintenance responses), not
 * the switch's own CCPs, which wait apart. Its outputs go back to the element: CCPs to be routed
 * and queued, events to be reported.
 */
export class SwitchCongestion {
  readonly #points: readonly (CongestionPoint | null)[];

  constructor(configs: readonly (CongestionPointConfig | null)[], perPort: boolean) {
    this.#points = configs.map((c, k) => (c === null ? null : within(perPort ? `congestion[${k}]` : 'congestion', () => new CongestionPoint(c))));
  }

  get any(): boolean {
    return this.#points.some((p) => p !== null);
  }

  enqueue(o: number, q: Queued, now: Time): CongestionPointOutput[] {
    return this.#points[o]?.handle({ kind: 'enqueue', packet: buffered(q) }, now) ?? [];
  }

  dequeue(o: number, q: Queued, now: Time): CongestionPointOutput[] {
    return this.#points[o]?.handle({ kind: 'dequeue', packet: buffered(q) }, now) ?? [];
  }

  snapshot(): (Record<string, unknown> | null)[] {
    return this.#points.map((p) => p?.snapshot() ?? null);
  }
}

/**
 * The header fields a congestion point classifies by (Part 9 §2.4.3 Table 2-1, §3.2). A Type 7
 * packet has no sourceID; its tgtdestinationID stands in, and Type 7 never triggers a CCP anyway
 * ("Maintenance and flow control transaction request flows must never cause the generation of a
 * flow control transaction").
 */
function buffered(q: Queued): BufferedPacket {
  const p = q.packet;
  return { sourceID: senderOf(p), destinationID: p.destinationID, tt: p.tt, prio: p.prio, crf: p.crf, vc: p.vc, ftype: p.ftype, size: q.octets };
}
