/**
 * What an end point's traffic management (tm-engines.ts and its two queue ports) checks of what
 * it is handed. Packets and inputs also arrive as JSON (`riodp model`), so their shape is looked
 * at at run time: what does not fit is counted and reported, never thrown.
 */
import type { StreamRef } from '../../session/types.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import type { SessionEndpointOutput } from '../session-endpoint-types.ts';
import { PDU_BYTES_MAX } from '../../streaming/tm-ingress-config.ts';

/** The Figure 4-5 fields of a TM packet and their largest values (Part 10 §4.3: TM_OP 4 bits, wildcard 3, mask and parameters 8). */
const TM_FIELDS = [
  ['cos', 0xff], ['streamID', 0xffff], ['tmOp', 0xf], ['wildcard', 7], ['mask', 0xff], ['parameter1', 0xff], ['parameter2', 0xff],
  ['prio', 3], ['crf', 1], ['vc', 1],
] as const;

/** Why a packet cannot be given to a TM engine as a Type 9 TM packet (Part 10 §4.3 Figure 4-5, xh = 1); undefined when it can. */
export function malformedTm(p: Type9TmPacket): string | undefined {
  const u: unknown = p;
  if (typeof u !== 'object' || u === null) return 'not a TM packet';
  const r = u as Record<string, unknown>;
  if (r['ftype'] !== 9 || r['segment'] !== 'tm') return 'not a TM packet';
  for (const field of ['sourceID', 'destinationID'] as const) {
    const v = r[field];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return `${field} is not a device ID`;
  }
  for (const [field, max] of TM_FIELDS) {
    const v = r[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) return `${field} is not an integer from 0 to ${max}`;
  }
  return undefined;
}

/** The rejections of a TM engine that say the packet breaks Part 10 §4.3 (a reserved value, §4.3.1 "No other combinations ... is permitted"). */
export const MALFORMED_REJECTIONS: ReadonlySet<string> = new Set(['invalid-operand', 'reserved-message', 'not-tm']);

/** A `tm-level` input's fields, checked; the reason when they do not fit. */
export function badLevelInput(i: { readonly sourceID: unknown; readonly cos: unknown; readonly level: unknown; readonly streamID?: unknown }): string | undefined {
  const int = (v: unknown, max: number): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max;
  if (!int(i.sourceID, 0xffffffff)) return 'sourceID is not a device ID';
  if (!int(i.cos, 0xff)) return 'cos is not an integer from 0 to 255';
  if (!int(i.level, 0xff)) return 'level is not an integer from 0 to 255';
  if (i.streamID !== undefined && !int(i.streamID, 0xffff)) return 'streamID is not an integer from 0 to 65535';
  return undefined;
}

/** Whether an output of the session stack to a `send` on `stream` says it did not take the PDU (api.ts `refusal` reads the same). */
export function refuses(o: SessionEndpointOutput, stream: StreamRef): boolean {
  if (o.kind !== 'event') return false;
  const d = o.detail as unknown as Readonly<Record<string, unknown>>;
  if (o.source === 'session' && d['event'] === 'dropped') return (d['stream'] as StreamRef | undefined)?.streamID === stream.streamID && d['node'] === stream.remote;
  if (o.source === 'type9' && d['name'] === 'refused') return d['to'] === stream.remote;
  return o.source === 'endpoint' && d['event'] === 'no-conveyance' && d['to'] === stream.remote;
}

/** Transmit streams are known by remote node and streamID, as the Type 9 conveyance's `sent` events name them. */
export function streamKey(remote: number, streamID: number): string {
  return `${remote}/${streamID}`;
}

/** Part 10 Table 4-1 "0x0000 - 64kbytes": a PDU is reported to the engine as 1..65536 bytes. */
export function engineBytes(bytes: number): number {
  return Math.min(PDU_BYTES_MAX, Math.max(1, bytes));
}
