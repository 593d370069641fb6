/**
 * The end point process's engine inputs, one at a time (endpoint-process.ts): an input the API
 * makes while the engine's outputs are being dispatched (an XOFF because a delivery filled a
 * stream's buffer) waits until that dispatch is over, so that every input's outputs are
 * dispatched in the order of the inputs. The three ways into the engine — `handle`, the fast
 * lane's `handleFrames` on receive and its `pullInto` on transmit (docs/fast-lane.md §8, §10) —
 * all go through here.
 *
 * Separate from endpoint-process.ts: this ordering is what the fast lane must keep exactly as the
 * object path has it; the process owns the link, the clock and the API.
 */
import type { Time } from '../engine/contract.ts';
import type { FrameBatch } from '../wire/frame-batch.ts';
import type { EndpointEngine, FabricEndpointInput, FabricEndpointOutput } from './endpoint-engine.ts';
import type { Link } from './link.ts';

/**
 * Free room the link's send batch keeps for a fast-lane pull (docs/fast-lane.md §10): it is flushed
 * first when it has less, so that each pull writes some frames (the largest, a 276-byte segment
 * of MTU 256, is 287 bytes framed) and the first always fits.
 */
const FILL_ROOM = 2048;

export class EngineInputs {
  readonly #engine: EndpointEngine;
  /** Each output of the engine but `idle`, in order. */
  readonly #dispatch: (o: FabricEndpointOutput) => void;
  #busy = false;
  readonly #queue: FabricEndpointInput[] = [];
  /** `handleFrames`'s outputs, reused. */
  readonly #frameOut: FabricEndpointOutput[] = [];
  /** The engine may have a packet to send: set by every input but a pull, cleared by an idle pull. */
  #may = true;

  constructor(engine: EndpointEngine, dispatch: (o: FabricEndpointOutput) => void) {
    this.#engine = engine;
    this.#dispatch = dispatch;
  }

  /** An engine input is running (its outputs being dispatched). */
  get busy(): boolean {
    return this.#busy;
  }

  /** Whether a pull may give a packet (no pull answered idle since the last other input). */
  get may(): boolean {
    return this.#may;
  }

  /** Queues an input behind the one running. */
  queue(input: FabricEndpointInput): void {
    this.#queue.push(input);
  }

  /** Runs the input (or queues it behind the one running, null) and every input queued meanwhile. */
  input(input: FabricEndpointInput, now: () => Time): FabricEndpointOutput[] | null {
    if (this.#busy) {
      this.#queue.push(input);
      return null;
    }
    this.#busy = true;
    try {
      const out = this.#run(input, now());
      this.#drain(now);
      return out;
    } finally {
      this.#busy = false;
    }
  }

  /** `handleFrames` as one input: its outputs dispatched, then the inputs queued meanwhile (as `input`). */
  frames(frames: FrameBatch, chunk: Uint8Array, first: number, count: number, now: Time, clock: () => Time): number {
    this.#busy = true;
    const out = this.#frameOut;
    try {
      const taken = this.#engine.handleFrames(frames, chunk, first, count, now, out);
      this.#may = true;
      for (let i = 0; i < out.length; i++) this.#output(out[i] as FabricEndpointOutput);
      this.#drain(clock);
      return taken;
    } finally {
      out.length = 0;
      this.#busy = false;
    }
  }

  /**
   * A pull of the fast lane: the engine writes its Type 9 segments into the link's send batch
   * (FabricEndpoint.pullInto); its other outputs (each PDU's `sent`, `idle`) are dispatched as a
   * pull's are, and inputs the API makes meanwhile run after them. False when the engine
   * declined (something else may go first, or the batch has no room): the object pull is used.
   */
  fastPull(link: Link, clock: () => Time): boolean {
    this.#busy = true;
    try {
      const out: FabricEndpointOutput[] = [];
      const now = clock();
      const taken = link.fill((buf, at, budget) => this.#engine.pullInto(buf, at, budget, now, out), FILL_ROOM) >= 0;
      for (const o of out) this.#output(o);
      this.#drain(clock);
      return taken;
    } finally {
      this.#busy = false;
    }
  }

  #drain(clock: () => Time): void {
    for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) this.#run(next, clock());
  }

  #run(input: FabricEndpointInput, now: Time): FabricEndpointOutput[] {
    const out = this.#engine.handle(input, now);
    if (input.kind !== 'pull') this.#may = true;
    for (const o of out) this.#output(o);
    return out;
  }

  #output(o: FabricEndpointOutput): void {
    if (o.kind === 'idle') this.#may = false;
    else this.#dispatch(o);
  }
}
