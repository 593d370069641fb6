/**
 * What an end point process logs of its engine's outputs (log.ts: pino, JSON lines on stderr).
 * At `info`: what an operator follows (issue 8 §4 "the log shows XOFF/XON"): participants found
 * or lost, streams opened and closed, FLOW_CONTROL XOFF/XON, Part 9 flow-state changes, suspect
 * nodes, timeouts. Every other event at `debug`; deliveries at `trace`.
 */
import type { FlowChange } from './api-types.ts';
import type { FabricEndpointOutput } from './endpoint-engine.ts';
import type { Logger } from './log.ts';

const INFO_EVENTS: ReadonlySet<string> = new Set([
  'session:opened',
  'session:closed',
  'session:conduit',
  'session:refused',
  'session:xoff',
  'session:xon',
  'session:xon-timeout',
  'session:suspect',
  'session:timeout',
  'discovery:participant',
  'discovery:not-participating',
  'discovery:unreachable',
  'fabric:link-down',
]);

/** A stream reference or info as a short label: `tx 2/0x10`. */
function streamLabel(s: unknown): string | undefined {
  if (typeof s !== 'object' || s === null) return undefined;
  const r = s as { remote?: unknown; direction?: unknown; streamID?: unknown };
  return typeof r.streamID === 'number' ? `${String(r.direction)} ${String(r.remote)}/0x${r.streamID.toString(16)}` : undefined;
}

export function logEngineOutput(log: Logger, o: FabricEndpointOutput): void {
  if (o.kind === 'flow-state') {
    log.info({ destinationID: o.destinationID, flowID: o.flowID, cause: o.cause }, `flow ${o.state}`);
    return;
  }
  if (o.kind === 'deliver') {
    if (log.isLevelEnabled('trace')) log.trace({ stream: streamLabel(o.stream), bytes: o.pdu.length }, 'pdu delivered');
    return;
  }
  if (o.kind !== 'event') return;
  const d = o.detail as unknown as Readonly<Record<string, unknown>>;
  const name = String(d['event'] ?? d['name']);
  const key = `${o.source}:${name}`;
  const info = INFO_EVENTS.has(key);
  if (!info && !log.isLevelEnabled('debug')) return;
  const fields: Record<string, unknown> = { source: o.source };
  for (const [k, v] of Object.entries(d)) {
    if (k === 'event' || k === 'name' || k === 'message' || k === 'contacts' || k === 'attributes') continue;
    fields[k] = k === 'stream' || k === 'tx' || k === 'rx' ? streamLabel(v) : v instanceof Uint8Array ? v.length : v;
  }
  if (info) log.info(fields, name);
  else log.debug(fields, name);
}

/**
 * The receive side of flow control, which the engine's events do not show (they report the
 * FLOW_CONTROL a transmit stream receives): `xoff sent` / `xon sent` at `info` (api.rxHigh,
 * api.rxLow), the link held for a stream at api.rxLimit and released at `debug` (a busy transfer
 * does it often), and a stream stalled at `warn`, since its PDUs beyond the limit are now
 * dropped. Part 9 and transmit-side changes are logged from the engine's outputs already.
 */
export function logFlowChange(log: Logger, c: FlowChange): void {
  if (c.kind === 'session-rx') {
    log.info({ stream: streamLabel(c.stream) }, `${c.state} sent`);
  } else if (c.kind === 'rx-link') {
    const fields = { stream: streamLabel(c.stream) };
    if (c.state === 'stalled') log.warn(fields, 'receive stalled: the application does not read; PDUs beyond api.rxLimit are dropped');
    else log.debug(fields, c.state === 'held' ? 'receive held' : 'receive released');
  }
}
