/**
 * Helpers of the Annex 2 §3.7.1 loss matrices (test/session/loss-matrix*.test.ts) over a
 * `SessionNet`: a link losing the first k messages of a kind, traces stamped with their offsets,
 * and events with their times.
 */
import assert from 'node:assert/strict';
import type { SessionEvent, StreamRef } from '../../src/session/types.ts';
import { openStream, sessionPair } from './session-pair.ts';
import type { NetMessage, SessionNet } from './session-pair.ts';

export const MS = 1_000_000;
export const PROTO = 0x1234;
/** How many transmissions are lost: k = 4 loses every attempt of the default 1 s timeout. */
export const KS = [1, 2, 3, 4] as const;

export const times = (k: number): string => `${k} time${k > 1 ? 's' : ''}`;

/** An offset from a start time as "250ms+1ns". */
export function stamp(d: number): string {
  const ms = Math.floor(d / MS);
  const ns = d - ms * MS;
  return ns === 0 ? `${ms}ms` : `${ms}ms+${ns}ns`;
}

/** The messages sent from trace index `from` on, stamped from `since`, lost ones marked. */
export function timed(net: SessionNet, from: number, since: number): string[] {
  return net.trace.slice(from).map((m) => `${stamp(m.at - since)} ${net.lines((x) => x === m)[0] ?? ''}${m.copies === 0 ? ' lost' : ''}`);
}

/** `[offset, line]` pairs as timed() lines, in time order. */
export function inOrder(lines: readonly (readonly [number, string])[]): string[] {
  return [...lines].sort((a, b) => a[0] - b[0]).map(([t, l]) => `${stamp(t)} ${l}`);
}

/** A link that loses the first `k` messages `pred` picks and delivers everything else after 1 ns. */
export function loseFirst(net: SessionNet, pred: (m: NetMessage) => boolean, k: number): void {
  let lost = 0;
  net.link = (m) => {
    if (lost < k && pred(m)) {
      lost++;
      return [];
    }
    return [1];
  };
}

/** The events of `node` named `name`, with their times. */
export function timedEvents<K extends SessionEvent['event']>(net: SessionNet, node: number, name: K): { at: number; detail: Extract<SessionEvent, { event: K }> }[] {
  return net.events.filter((e) => e.node === node && e.detail.event === name).map((e) => ({ at: e.at, detail: e.detail as Extract<SessionEvent, { event: K }> }));
}

/** Node 1 and node 2, both receiving PROTO, and a stream 1 → 2 open. */
export function withStream(): { net: SessionNet; tx: StreamRef } {
  const net = sessionPair({ protocols: [{ protoID: PROTO, attributes: [] }] }, { protocols: [{ protoID: PROTO, attributes: [] }] });
  const tx = openStream(net, 1, 2, PROTO, 'setup');
  assert.ok(tx);
  return { net, tx };
}
