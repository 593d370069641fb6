/**
 * The levels of the end point's receive buffers that its Part 10 traffic management egress acts
 * on (src/node/endpoint/tm-streams.ts `tm-level`; decision EA19). Part 10 §3.3: "Egress queuing
 * should be based on: source ID+cos". The application's receive queue of each stream is that
 * buffer; the level of a source and class is the fullest of its streams in that class, as
 * n/255 of `api.rxHigh` PDUs (not of `rxLimit`): the egress's default XOFF at 240/255 and XON at
 * 128/255 then act just before Annex 2 FLOW_CONTROL would (at `rxHigh`), so TM, when configured,
 * is what paces the senders. A level goes to the engine only when it changes.
 */
import type { StreamRef } from '../session/types.ts';
import type { FabricEndpointInput } from './endpoint-engine.ts';

interface Tracked {
  readonly ref: StreamRef;
  readonly cos: number;
  level: number;
}

export class TmLevels {
  readonly #post: (input: FabricEndpointInput) => void;
  readonly #rxHigh: number;
  readonly #streams = new Map<string, Tracked>();
  /** The level last given per `source/cos`. */
  readonly #given = new Map<string, number>();

  constructor(post: (input: FabricEndpointInput) => void, rxHigh: number) {
    this.#post = post;
    this.#rxHigh = rxHigh;
  }

  /** A receive stream opened, in class `cos`. */
  track(key: string, ref: StreamRef, cos: number): void {
    this.#streams.set(key, { ref, cos, level: 0 });
  }

  /** The stream's queue now holds `size` PDUs. */
  update(key: string, size: number): void {
    const t = this.#streams.get(key);
    if (t === undefined) return;
    t.level = Math.min(0xff, Math.ceil((0xff * size) / this.#rxHigh));
    this.#give(t);
  }

  /** The stream closed: its level no longer counts. */
  forget(key: string): void {
    const t = this.#streams.get(key);
    if (t === undefined) return;
    this.#streams.delete(key);
    t.level = 0;
    this.#give(t);
  }

  #give(t: Tracked): void {
    let level = t.level;
    for (const o of this.#streams.values()) if (o.ref.remote === t.ref.remote && o.cos === t.cos && o.level > level) level = o.level;
    const group = `${t.ref.remote}/${t.cos}`;
    if ((this.#given.get(group) ?? 0) === level) return;
    this.#given.set(group, level);
    this.#post({ kind: 'tm-level', sourceID: t.ref.remote, cos: t.cos, level, streamID: t.ref.streamID });
  }
}
