import type { FlowIdLabel } from '../wire/flow-id.ts';
import { flowIdForPacket } from '../wire/flow-id.ts';
import { FTYPE_MAINTENANCE } from '../wire/type8.ts';
import { FTYPE_RESPONSE } from '../wire/type13.ts';
import type { EndpointPacket } from './session-endpoint-types.ts';

/**
 * The order in which an end point's packets take its transmit opportunities (`pull`):
 *
 * 0. responses: Type 8 MAINTENANCE responses and Type 13 MESSAGE RESPONSEs. Part 6 §6.12: "end
 *    point processing elements must have the ability to issue outbound response packets even if
 *    outbound request packets awaiting transmission are congestion blocked";
 * 1. segments of 'high' management messages, Annex 2 §3.7.2: "ACCEPT, CLOSE, FLOW_CONTROL and
 *    STATUS messages to be sent and received with higher priority than messages containing
 *    commands OPEN, REQUEST, ADVERTISE, REFUSE, DATA and USERDEFINED";
 * 2. MAINTENANCE read requests of discovery (a decision: a node cannot be contacted before it is
 *    discovered, §3.3, and a read is one short packet);
 * 3. everything else: 'normal' messages, DATA and DATA3 segments.
 *
 * The Type 11 and Type 9 conveyances order their own packets the same way but hand them out one
 * pull at a time, so each has one packet staged here; it is the conveyance's next packet, and
 * the best-ranked of the staged packets and the maintenance queues goes first. Sources of one
 * rank take turns (round robin), so that neither conveyance starves the other.
 */
export type Rank = 0 | 1 | 2 | 3;
export const RANK = { response: 0, high: 1, maintenance: 2, normal: 3 } as const;
const RANK_NAMES = ['response', 'high', 'maintenance', 'normal'] as const;

export type TransmitSource = 'type8' | 'type11' | 'type9';
const SOURCES: readonly TransmitSource[] = ['type8', 'type11', 'type9'];

export interface RankContext {
  /** The Type 9 flow of 'high' messages; its segments rank high. */
  readonly highFlow: FlowIdLabel;
  readonly crfSupported: boolean;
}

/**
 * A packet's rank. Type 11 'high' messages leave at prio 1 and 'normal' ones at prio 0
 * (type11-sender.ts MESSAGE_PRIO); Type 9 'high' messages on `highFlow`.
 */
export function rankOf(p: EndpointPacket, ctx: RankContext): Rank {
  if (p.ftype === FTYPE_RESPONSE) return RANK.response;
  if (p.ftype === FTYPE_MAINTENANCE) return p.transactionName === 'MAINTENANCE_READ_REQUEST' ? RANK.maintenance : RANK.response;
  if (p.ftype === 11) return p.prio >= 1 ? RANK.high : RANK.normal;
  const flow = flowIdForPacket({ prio: p.prio, crf: p.crf, response: false, crfSupported: ctx.crfSupported });
  return flow?.flowID === ctx.highFlow ? RANK.high : RANK.normal;
}

interface Entry {
  readonly packet: EndpointPacket;
  readonly rank: Rank;
}

export class TransmitQueue {
  readonly #ctx: RankContext;
  /** Type 8 packets this end point made itself: responses and discovery's read requests, in order. */
  readonly #type8: Entry[] = [];
  readonly #staged = new Map<'type11' | 'type9', Entry>();
  /** Index into SOURCES of the source served last, for the round robin within a rank. */
  #last = SOURCES.length - 1;

  constructor(ctx: RankContext) {
    this.#ctx = ctx;
  }

  /** A Type 8 packet of this end point (a response, or a read request). */
  addType8(packet: EndpointPacket): void {
    const rank = rankOf(packet, this.#ctx);
    // Responses pass the read requests already queued; each rank stays in order.
    let at = this.#type8.length;
    while (at > 0 && (this.#type8[at - 1] as Entry).rank > rank) at--;
    this.#type8.splice(at, 0, { packet, rank });
  }

  /** Whether a conveyance's slot is empty, so that its next packet may be pulled into it. */
  free(source: 'type11' | 'type9'): boolean {
    return !this.#staged.has(source);
  }

  stage(source: 'type11' | 'type9', packet: EndpointPacket): void {
    this.#staged.set(source, { packet, rank: rankOf(packet, this.#ctx) });
  }

  /** The next packet to transmit, removed; undefined when there is none. */
  next(): EndpointPacket | undefined {
    let best: { source: TransmitSource; entry: Entry; turn: number } | undefined;
    SOURCES.forEach((source, i) => {
      const entry = source === 'type8' ? this.#type8[0] : this.#staged.get(source);
      if (entry === undefined) return;
      // Distance from the source served last: the next one in turn wins a tie.
      const turn = (i - this.#last - 1 + SOURCES.length) % SOURCES.length;
      if (best === undefined || entry.rank < best.entry.rank || (entry.rank === best.entry.rank && turn < best.turn)) best = { source, entry, turn };
    });
    if (best === undefined) return undefined;
    if (best.source === 'type8') this.#type8.shift();
    else this.#staged.delete(best.source);
    this.#last = SOURCES.indexOf(best.source);
    return best.entry.packet;
  }

  /** Packets of `source` left without being staged (the fast lane's pull, issue 17): its turn, as `next()` giving them would record. */
  served(source: 'type9'): void {
    this.#last = SOURCES.indexOf(source);
  }

  get size(): number {
    return this.#type8.length + this.#staged.size;
  }

  snapshot(): { readonly type8: readonly string[]; readonly staged: readonly { readonly source: string; readonly rank: string; readonly ftype: number; readonly destinationID: number }[] } {
    return {
      type8: this.#type8.map((e) => `${RANK_NAMES[e.rank]} to ${e.packet.destinationID}`),
      staged: [...this.#staged].map(([source, e]) => ({ source, rank: RANK_NAMES[e.rank], ftype: e.packet.ftype, destinationID: e.packet.destinationID })),
    };
  }
}
