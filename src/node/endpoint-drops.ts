import type { FabricEndpointOutput } from './fabric-endpoint-types.ts';

/**
 * The events of a `FabricEndpoint` that say it discarded the packet it was handling, by source
 * and name (docs/pcapng.md §5 `drop: <reason>`). Others (a PDU aborted by its source, a TM
 * queue full of the end point's own PDUs) are not a received packet's drop.
 */
const DROPS: Readonly<Record<string, ReadonlySet<string>>> = {
  endpoint: new Set(['not-for-us', 'unsupported-packet', 'stale-maintenance-response']),
  session: new Set(['dropped']),
  type9: new Set(['not-for-us', 'defective-pdu', 'no-context']),
  type11: new Set(['not-for-us']),
  fabric: new Set(['unsupported-packet']),
};

/** TM events of the end point itself (`side: 'endpoint'`) that discard the received packet. */
const TM_DROPS: ReadonlySet<string> = new Set(['malformed', 'not-for-us']);

const SKIP: ReadonlySet<string> = new Set(['event', 'name', 'segment', 'context', 'detail']);

function text(v: unknown): string {
  return typeof v === 'number' ? `0x${v.toString(16)}` : typeof v === 'string' ? v : JSON.stringify(v);
}

/** `name: key value, …` of an event's scalar fields (IDs in hex). */
function describe(name: string, detail: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(detail).filter(([k, v]) => !SKIP.has(k) && v !== null && typeof v !== 'object').map(([k, v]) => `${k} ${text(v)}`);
  return parts.length === 0 ? name : `${name}: ${parts.join(', ')}`;
}

/**
 * The drop, if `o` (an output of the end point while it handled a received packet) says the
 * packet was discarded: the text of its capture comment; null for every other output.
 */
export function receivedDropOf(o: FabricEndpointOutput): string | null {
  if (o.kind !== 'event') return null;
  const d = o.detail as unknown as Readonly<Record<string, unknown>>;
  if (o.source === 'fabric' && d['event'] === 'tm') {
    const name = d['name'];
    return d['side'] === 'endpoint' && typeof name === 'string' && TM_DROPS.has(name) ? describe(`tm ${name}`, (d['detail'] ?? {}) as Readonly<Record<string, unknown>>) : null;
  }
  const name = d['event'] ?? d['name'];
  if (typeof name !== 'string' || DROPS[o.source]?.has(name) !== true) return null;
  return describe(name, d);
}
