/**
 * A source that is always backlogged with a single FIFO of cells whose destinations are drawn
 * independently and uniformly: the input of Karol, Hluchyj & Morgan's saturation analysis (every
 * input always has a cell at the head of its queue, each cell's output uniform over the N
 * outputs and independent of the others). It is the transmitting side of a link (`PortTx`): when the link may send, it makes the next cell and
 * draws its output at that moment, so the queue never needs to be stored.
 *
 * Why not a simulated `Endpoint` with its traffic source: an end point keeps a queue per flow
 * (per destination) and serves them round robin (endpoint-source.ts, issue 7 §2 "per-flow
 * queues"). Saturated, every flow queue is full and round robin sends the destinations in
 * cyclic order; a FIFO switch input fed cyclically loses no throughput to head-of-line blocking
 * once the inputs desynchronise (measured: 0.990 per output for N = 8, against Karol's 0.6184),
 * which is the end point doing its job, not the model Karol analysed.
 */
import type { Rng } from '../kernel/random.ts';
import type { RandomStreams } from '../kernel/random.ts';
import { requestFlowId } from '../../node/endpoint/flows.ts';
import type { FlowTable } from '../fabric/endpoint-flows.ts';
import type { PacketIdSource } from '../fabric/endpoint-types.ts';
import type { PortTx, SimPacket } from '../fabric/types.ts';
import { makeDestinations } from '../traffic/destinations.ts';
import type { DestinationPattern } from '../traffic/destinations.ts';

export class SaturatedSource implements PortTx {
  readonly id: number;
  /** Cells put on the link. */
  sent = 0;
  readonly #bytes: number;
  readonly #pattern: DestinationPattern;
  readonly #rng: Rng;
  readonly #ids: PacketIdSource;
  /** Flow index by destination ID (the shared FlowTable's numbering). */
  readonly #flowOf: Int32Array;

  constructor(id: number, destinations: readonly number[], bytes: number, ctx: { readonly streams: RandomStreams; readonly flows: FlowTable; readonly ids: PacketIdSource }) {
    this.id = id;
    this.#bytes = bytes;
    this.#pattern = makeDestinations({ kind: 'uniform', ids: destinations }, id);
    this.#rng = ctx.streams.stream(`source:${id}:dst`);
    this.#ids = ctx.ids;
    const flowID = requestFlowId(0, 0, true, 'source');
    const list = this.#pattern.destinations();
    this.#flowOf = new Int32Array(Math.max(...list) + 1).fill(-1);
    for (const d of list) this.#flowOf[d] = ctx.flows.register(id, d, 0, 0, flowID);
  }

  /** A priority 0 cell may go while more than 3 × reserve buffers are free (Part 6 §5, types.ts RxBufferSpec). */
  pull(now: number, free: number, reserve: number): SimPacket | null {
    if (free <= 3 * reserve) return null;
    const dst = this.#pattern.draw(this.#rng);
    this.sent++;
    return { id: this.#ids.nextPacketId(), kind: 'data', ftype: 9, src: this.id, dst, prio: 0, crf: 0, vc: 0, bytes: this.#bytes, flow: this.#flowOf[dst] as number, createdAt: now };
  }

  onSymbol(): void {
    // Credits are the channel's; this source has nothing else to hear.
  }
}
