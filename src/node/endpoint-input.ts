import type { Packet } from '../wire/packet.ts';
import type { Untagged } from './session-endpoint-types.ts';

/**
 * Checks of what a `SessionEndpoint` is handed. Inputs also arrive as JSON (`riodp model`), so their
 * shape is looked at at run time: what does not fit is reported as an `invalid-input` event, never
 * thrown (the engine contract: bad input is normal input).
 */

/** The session engine's commands, which pass through to it unchanged (types.ts SessionInput). */
export const SESSION_COMMANDS: ReadonlySet<string> = new Set(['contact', 'request', 'open', 'close', 'status-query', 'verify', 'peer-lost', 'send', 'broadcast', 'xoff', 'xon', 'userdefined']);

/**
 * A decoded packet carries at least its ftype and IDs; a Type 7 congestion control packet has no
 * sourceID (Part 9 §3.1 Figure 3-1).
 */
export function isPacket(p: unknown): p is Packet {
  if (typeof p !== 'object' || p === null) return false;
  const r = p as Record<string, unknown>;
  return typeof r['ftype'] === 'number' && typeof r['destinationID'] === 'number' && (r['ftype'] === 7 || typeof r['sourceID'] === 'number');
}

/** The source ID of a packet that has one. */
export function sourceOf(p: Packet): number | null {
  return 'sourceID' in p ? p.sourceID : null;
}

/** An inner engine's event as the detail of an end point event: its own `kind` tag dropped. */
export function untag<E extends { readonly kind: string }>(e: E): Untagged<E> {
  const copy: Record<string, unknown> = { ...e };
  delete copy['kind'];
  return copy as unknown as Untagged<E>;
}

/** `engine:inner` as the end point names the timers of its inner engines; undefined when there is no engine part. */
export function splitTimerName(name: unknown): { readonly engine: string; readonly inner: string } | undefined {
  const at = typeof name === 'string' ? name.indexOf(':') : -1;
  return typeof name === 'string' && at > 0 ? { engine: name.slice(0, at), inner: name.slice(at + 1) } : undefined;
}
