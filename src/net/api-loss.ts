/**
 * What the end point's engines report as lost, mapped to the streams it concerns (issue 16 item 2
 * "every PDU is either delivered intact or its loss is reported to the application on that
 * stream, at once, with the reason"; decision FF5 in docs/conformance.md).
 *
 * DATA3 carries no sequence number (Annex 2 §4.3.1), so a PDU that never reached the reassembler
 * whole is known only by what the reassembler saw of it: a §3.2.5 defect, an abort, a timeout, a
 * start segment without a free context. A PDU whose every segment was lost leaves nothing to
 * see; the events that can lose whole PDUs (the link to the switch down, the peer's process gone
 * or restarted) are reported as possible gaps of unknown size (`pdus: null`) on every stream they
 * touch (api-streams.ts `linkDown`, `#closed`).
 */
import type { LossReason } from './api-types.ts';

/** What an engine event says was lost, and on which streams. */
export interface LossTarget {
  readonly node: number;
  /** The stream ID when the event names it; null: every stream of `node` of that direction and conveyance. */
  readonly streamID: number | null;
  readonly direction: 'rx' | 'tx';
  /** DATA3 streams (Type 9 segments) or the others (Type 11 messages). */
  readonly type9: boolean;
  readonly reason: LossReason;
  readonly detail: string;
}

type Detail = Readonly<Record<string, unknown>>;

interface VsidLike {
  readonly sourceID: number;
  readonly streamID: number;
}

function vsidOf(d: Detail): VsidLike | null {
  const v = d['vsid'];
  if (typeof v !== 'object' || v === null) return null;
  const { sourceID, streamID } = v as Record<string, unknown>;
  return typeof sourceID === 'number' && typeof streamID === 'number' ? { sourceID, streamID } : null;
}

/** The source ID in a reassembly context key (`…/src<N>/…`, streaming/reassembly-context.ts `contextKey`). */
function contextSource(d: Detail): number | null {
  const key = d['context'];
  const m = typeof key === 'string' ? /\/src(\d+)\//.exec(key) : null;
  return m === null ? null : Number(m[1]);
}

const num = (d: Detail, k: string): number => (typeof d[k] === 'number' ? d[k] : 0);

function type9(d: Detail): LossTarget | null {
  const name = d['name'];
  const v = vsidOf(d);
  const at = (detail: string): LossTarget | null => (v === null ? null : { node: v.sourceID, streamID: v.streamID, direction: 'rx', type9: true, reason: 'reassembly', detail });
  switch (name) {
    case 'idle-timeout':
      return at(`PDU discarded after ${num(d, 'received')} bytes: no segment within the reassembly timeout (Part 10 §3.2.5)`);
    case 'aborted':
      return at(`PDU aborted by its sender after ${num(d, 'received')} bytes (Part 10 §4.2)`);
    case 'no-context':
      return at(`PDU discarded: no reassembly context free (${num(d, 'contexts')} in use, Part 10 §3.2.5)`);
    case 'defective-pdu': {
      const detail = `${String(d['error'])} (${String(d['clause'])})`;
      if (v !== null) return at(detail);
      // Rule 8: segments of a PDU whose start never came; reported once, at its end segment.
      const node = contextSource(d);
      if (d['segment'] !== 'end' || node === null) return null;
      return { node, streamID: null, direction: 'rx', type9: true, reason: 'reassembly', detail: `${detail}: a PDU without its start segment` };
    }
    default:
      return null;
  }
}

function type11(d: Detail): LossTarget | null {
  const name = d['name'];
  if (name === 'failed') {
    return { node: num(d, 'to'), streamID: null, direction: 'tx', type9: false, reason: 'send-failed', detail: `message to mailbox ${num(d, 'mailbox')} failed: ${String(d['reason'])} (Part 6 Type 11)` };
  }
  if (name === 'reassembly-timeout' || (name === 'stale-reassembly' && num(d, 'dropped') > 0)) {
    return { node: num(d, 'from'), streamID: null, direction: 'rx', type9: false, reason: 'reassembly', detail: `message of mailbox ${num(d, 'mailbox')} discarded after ${num(d, 'dropped')} bytes (${name})` };
  }
  return null;
}

/** The loss an engine event reports, or null when it reports none. */
export function engineLoss(source: string, d: Detail): LossTarget | null {
  if (source === 'type9') return type9(d);
  if (source === 'type11') return type11(d);
  return null;
}

/** The loss a stream's closing says (session `closed` cause, src/session/types.ts), or null for a CLOSE. */
export function closeLoss(cause: string): { readonly reason: LossReason; readonly detail: string } | null {
  switch (cause) {
    case 'status-timeout':
      return { reason: 'peer-silent', detail: 'the peer did not answer a STATUS query (Annex 2 §3.7.1); what it had not delivered is lost' };
    case 'stream-unknown':
      return { reason: 'peer-restart', detail: 'the peer no longer knows the stream (Annex 2 §3.8.3): it restarted; what was in flight is lost' };
    case 'peer-lost':
      return { reason: 'peer-lost', detail: "the switch reports the peer's link down: the peer is gone; what was in flight is lost" };
    default:
      return null;
  }
}
