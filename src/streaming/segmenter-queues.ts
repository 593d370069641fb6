import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { SegmentHeader } from './segment-pdu.ts';
import type { PduId, PduRef, SegmenterOutput } from './segmenter-types.ts';

/**
 * The segmenter's bookkeeping: a PDU record, the per-flow and per-stream queues that enforce
 * §3.2.5 segmentation rule 1, and the ordered set of flows `pull-any` turns over.
 */

/** A queued or active PDU. It is its own SegmentHeader, so a segment costs no header object. */
export interface Pdu extends SegmentHeader {
  readonly seq: number;
  readonly id: PduId | undefined;
  readonly flowID: FlowIdLabel;
  readonly payload: Uint8Array;
  /** viewBuffer(payload) and payload.byteOffset, read once: segment views are cut from them. */
  readonly buffer: ArrayBufferLike | null;
  readonly base: number;
  readonly flow: FlowQueue;
  readonly stream: StreamQueue;
  /** When the `pdu` input queued it, and when its start segment was pulled. */
  readonly queuedAt: number;
  startedAt: number | null;
  /** The MTU the PDU is cut with, fixed when it starts (0 while it waits). */
  mtu: number;
  /** PDU bytes sent so far. */
  offset: number;
  /** Aborted after its start segment: the abort segment is the flow's next segment. */
  aborting: boolean;
}

/**
 * Rule 1 "No more than one PDU from a given RapidIO flow shall be segmented at a time": `active`
 * is that PDU; `waiting` holds the flow's other PDUs in arrival order.
 */
export interface FlowQueue {
  /** destinationID × 128 + Part 9 Table 3-1 code: ascending keys are the `pull-any` order. */
  readonly key: number;
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  active: Pdu | null;
  readonly waiting: Pdu[];
}

/** Rule 1 "No more than one PDU from a given stream shall be segmented at a time". */
export interface StreamQueue {
  /** sourceStreamKey: "destination ID+cos+streamID" (§3.2.2). */
  readonly key: string;
  active: Pdu | null;
  readonly waiting: Pdu[];
}

export function flowKey(destinationID: number, code: number): number {
  return destinationID * 128 + code;
}

export function pduRef(p: Pdu): PduRef {
  const { seq, id, destinationID, flowID, cos, streamID } = p;
  const length = p.payload.length;
  return id === undefined ? { seq, destinationID, flowID, cos, streamID, length } : { seq, id, destinationID, flowID, cos, streamID, length };
}

/*
 * The outputs every PDU produces, as literals with pduRef's keys in its order: an object spread
 * (`{ kind, ...pduRef(p) }`) costs about 1.4 µs on this Node 20 build (docs/performance.md), as
 * much as several segments.
 */

export function queuedOutput(p: Pdu): SegmenterOutput {
  const { seq, id, destinationID, flowID, cos, streamID } = p;
  const length = p.payload.length;
  return id === undefined
    ? { kind: 'queued', seq, destinationID, flowID, cos, streamID, length }
    : { kind: 'queued', seq, id, destinationID, flowID, cos, streamID, length };
}

export function startedOutput(p: Pdu, segments: number, mtu: number): SegmenterOutput {
  const { seq, id, destinationID, flowID, cos, streamID } = p;
  const length = p.payload.length;
  return id === undefined
    ? { kind: 'pdu-started', segments, mtu, seq, destinationID, flowID, cos, streamID, length }
    : { kind: 'pdu-started', segments, mtu, seq, id, destinationID, flowID, cos, streamID, length };
}

export function doneOutput(p: Pdu): SegmenterOutput {
  const { seq, id, destinationID, flowID, cos, streamID } = p;
  const length = p.payload.length;
  return id === undefined
    ? { kind: 'pdu-done', seq, destinationID, flowID, cos, streamID, length }
    : { kind: 'pdu-done', seq, id, destinationID, flowID, cos, streamID, length };
}

/** Whether a waiting PDU may start: first of its flow and of its stream, both free. */
export function canStart(p: Pdu): boolean {
  return p.flow.active === null && p.stream.active === null && p.flow.waiting[0] === p && p.stream.waiting[0] === p;
}

/** Flow keys with a PDU active or waiting, ascending. */
export class FlowRing {
  readonly #keys: number[] = [];

  get size(): number {
    return this.#keys.length;
  }

  at(i: number): number {
    return this.#keys[i % this.#keys.length] as number;
  }

  /** Index of the first key above `key` (the length when none is). */
  after(key: number): number {
    const k = this.#keys;
    let lo = 0;
    let hi = k.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((k[mid] as number) <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(key: number): void {
    const i = this.after(key);
    if (this.#keys[i - 1] !== key) this.#keys.splice(i, 0, key);
  }

  remove(key: number): void {
    const i = this.after(key) - 1;
    if (this.#keys[i] === key) this.#keys.splice(i, 1);
  }

  keys(): readonly number[] {
    return this.#keys;
  }
}

/** Removes `p` from a waiting list (abort of a PDU that has not started). */
export function removeWaiting(list: Pdu[], p: Pdu): void {
  const i = list.indexOf(p);
  if (i >= 0) list.splice(i, 1);
}

/** A field as given, for outputs that echo bad input. */
export function shown(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return typeof v;
}

/** The PDU `id` names, else the oldest of the flow not yet aborted. */
export function abortTarget(flow: FlowQueue, id: PduId | undefined): Pdu | undefined {
  const a = flow.active !== null && !flow.active.aborting ? flow.active : undefined;
  if (id === undefined) return a ?? flow.waiting[0];
  if (a !== undefined && a.id === id) return a;
  return flow.waiting.find((p) => p.id === id);
}
