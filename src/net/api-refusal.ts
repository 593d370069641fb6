/** Why the end point did not take an application's command, read from the outputs of that very input (api.ts). */
import type { FabricEndpointOutput } from './endpoint-engine.ts';

/**
 * Why the engine did not take a command, read from the outputs of that very input: a session
 * `dropped` naming the node (and stream), a conveyance refusing the PDU, or no conveyance for it.
 */
export function refusal(out: readonly FabricEndpointOutput[], node: number, streamID: number | undefined): string | undefined {
  for (const o of out) {
    if (o.kind !== 'event') continue;
    const d = o.detail as unknown as Readonly<Record<string, unknown>>;
    if (o.source === 'session' && d['event'] === 'dropped' && d['node'] === node) {
      const s = d['stream'] as { streamID?: number } | undefined;
      if (streamID === undefined || s === undefined || s.streamID === streamID) return String(d['reason']);
    }
    if ((o.source === 'type9' || o.source === 'type11') && d['name'] === 'refused' && d['to'] === node) return `${o.source} refused it: ${String(d['reason'])}`;
    if (o.source === 'endpoint' && d['event'] === 'no-conveyance' && d['to'] === node) return `this end point has no ${String(d['conveyance'])} conveyance`;
    if (o.source === 'fabric' && d['event'] === 'tm' && d['name'] === 'queue-full') {
      const s = (d['detail'] as { stream?: { remote?: number; streamID?: number } } | undefined)?.stream;
      if (s?.remote === node && (streamID === undefined || s.streamID === streamID)) return 'its traffic management queue is full (tm.queuePdus, Part 10 §3.4.5 rule 4)';
    }
  }
  return undefined;
}

/**
 * Why the traffic management did not take an application's TM message (TmCommand): the end point's
 * `invalid-input` (no TM queue for the stream), or the engine's `bad-command` (a field out of range,
 * a message the mode does not have).
 */
export function tmRefusal(out: readonly FabricEndpointOutput[]): string | undefined {
  for (const o of out) {
    if (o.kind !== 'event' || o.source !== 'fabric') continue;
    const d = o.detail as unknown as Readonly<Record<string, unknown>>;
    if (d['event'] === 'invalid-input') return String(d['detail']);
    if (d['event'] === 'tm' && d['name'] === 'bad-command') return `traffic management refused it: ${String((d['detail'] as { detail?: unknown } | undefined)?.detail)}`;
  }
  return undefined;
}
