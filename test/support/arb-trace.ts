/**
 * The trace vocabulary of the end-to-end arbitration harness (test/support/arb-link.ts): entries,
 * their one-line form, the names of messages and segments, PDU shapes, and seeded loss.
 */
import type { SegmentKind } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import type { Type7Packet } from '../../src/wire/type7.ts';

export type Side = 'A' | 'B';
export type TraceKind = 'message' | 'segment' | 'resource' | 'grant' | 'event';

export interface TraceEntry {
  readonly t: number;
  readonly from: Side;
  /** `REQUEST_SINGLE_PDU(seq 0)`, `SOM`, `allocated(single, seq 0)`, `grant-ended(last-segment)`, `rejected(seq 0)` … */
  readonly what: string;
  readonly kind: TraceKind;
  readonly flowID: FlowIdLabel | null;
  readonly lost?: true;
  /** The Type 7 packet of a `message` entry. */
  readonly packet?: Type7Packet;
}

/** What the loss function sees of each message put on the link. */
export interface WireMessage {
  readonly t: number;
  readonly from: Side;
  readonly what: string;
  readonly flowID: FlowIdLabel;
  /** A Type 7 message (true) or a data segment (false). */
  readonly type7: boolean;
  /** 1 for the first message with this (from, flowID, what), 2 for the second … */
  readonly n: number;
}

export type LossFn = (m: WireMessage) => boolean;

/** The segments of a PDU of n segments: `single`, or start, continuation…, end/abort (an aborted PDU has at least a start and the abort). */
export function pduSegments(n: number, last: 'end' | 'abort' = 'end'): SegmentKind[] {
  if (n <= 1 && last === 'end') return ['single'];
  const middle = Math.max(0, n - 2);
  return ['start', ...Array.from({ length: middle }, (): SegmentKind => 'continuation'), last];
}

export const SEGMENT_NAMES: Readonly<Record<SegmentKind, string>> = { single: 'SINGLE', start: 'SOM', continuation: 'COM', end: 'EOM', abort: 'ABORT' };

export function messageName(p: Type7Packet): string {
  return p.seq === undefined ? p.command : `${p.command}(seq ${p.seq})`;
}

export function eventName(name: string, seq: number | undefined): string {
  return seq === undefined ? name : `${name}(seq ${seq})`;
}

/** A small deterministic PRNG (mulberry32) for seeded loss decisions. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Drops each Type 7 message sent before `until` with probability p (seeded); data segments never. */
export function seededType7Loss(seed: number, p: number, until: number): LossFn {
  const next = prng(seed);
  return (m) => m.type7 && m.t < until && next() < p;
}

/**
 * One line per trace entry, for exact comparison with a figure: `20 A SOM`, `10 B XON_ARB(seq 0)`,
 * `30 B freed(last-segment)`, `0 A REQUEST_SINGLE_PDU(seq 0) LOST`. `flows` prefixes the flowID;
 * `kinds` keeps only those kinds.
 */
export function traceLines(trace: readonly TraceEntry[], opts: { readonly flows?: boolean; readonly kinds?: readonly TraceKind[] } = {}): string[] {
  return trace
    .filter((e) => opts.kinds === undefined || opts.kinds.includes(e.kind))
    .map((e) => `${e.t} ${e.from}${opts.flows === true ? ` ${e.flowID ?? '-'}` : ''} ${e.what}${e.lost === true ? ' LOST' : ''}`);
}
