import { SMP_COMMAND, STATUS_BIT } from '../wire/smp/index.ts';
import type { SmpMessage, SmpStatus } from '../wire/smp/index.ts';
import { closeStream } from './close.ts';
import type { SessionCore } from './core.ts';
import { openMessageNumberOf } from './open-attrs.ts';
import { openFailed, openKey } from './open-send.ts';
import type { Pending } from './pending.ts';
import { answerStreamUnknown, statusAnswer, statusQuery } from './status-rules.ts';
import type { StreamRecord } from './stream-table.ts';
import { streamKey } from './stream-table.ts';
import type { StreamRef } from './types.ts';

/**
 * STATUS (Annex 2 §3.5.1.9, §3.6.4, §3.7.1, §3.8.3, §4.2.8): queries of our streams, their
 * answers, the answers to CLOSE, and reports of unknown streams and commands.
 */

export function statusKey(r: { readonly key: string }): string {
  return `status/${r.key}`;
}

/** A status query, resent every retry period of the stream and failed after its timeout (§3.7.1). */
export function sendQuery(core: SessionCore, r: StreamRecord, reverify: boolean): void {
  core.request(statusKey(r), r.ref.remote, statusQuery(core, r), { command: 'STATUS', stream: r.ref, reverify }, {
    retry: r.settings.retryPeriod,
    timeout: r.settings.timeoutPeriod,
  });
}

export function statusQueryCommand(core: SessionCore, ref: StreamRef): void {
  const r = core.streams.byRef(ref);
  if (r === undefined) core.event({ event: 'dropped', reason: 'unknown-stream', node: ref.remote, stream: ref });
  else sendQuery(core, r, false);
}

/**
 * §3.8.3 "Upon receipt of such a STATUS command, the node should, at a time deemed appropriate by
 * the system designer, check all other open VSIDs to verify that they are functional. This is
 * intended to handle the condition where a node is rebooted": every stream to the node without a
 * query already in flight is queried.
 */
export function verify(core: SessionCore, node: number, reverify: boolean): void {
  for (const r of core.streams.toRemote(node)) if (!core.pending.has(statusKey(r))) sendQuery(core, r, reverify);
}

/** A query that got no answer: "the streamID specified in the STATUS command must be silently closed locally, and the remote node must be considered suspect" (§3.7.1). */
export function queryTimedOut(core: SessionCore, stream: StreamRef): void {
  const r = core.streams.byRef(stream);
  if (r !== undefined) closeStream(core, r, 'status-timeout', false);
}

function has(m: SmpStatus, bit: number): boolean {
  return (m.status & bit) !== 0;
}

/** A pending request of ours to `from` for this stream, the oldest first. */
function pendingFor(core: SessionCore, from: number, streamID: number, command: 'CLOSE' | 'STATUS'): Pending | undefined {
  const prefix = command === 'CLOSE' ? 'close' : 'status';
  const a = core.pending.get(`${prefix}/${streamKey(from, 'rx', streamID)}`);
  const b = core.pending.get(`${prefix}/${streamKey(from, 'tx', streamID)}`);
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.started <= b.started ? a : b;
}

export function onStatus(core: SessionCore, from: number, m: SmpStatus): void {
  core.event({ event: 'status', node: from, message: m });
  if (has(m, STATUS_BIT.REQUEST_STATUS_OF_REMOTE)) {
    answerQuery(core, from, m);
    return;
  }
  if (has(m, STATUS_BIT.COMMAND_UNKNOWN)) {
    commandUnknown(core, from, m.quotedCommand);
    return;
  }
  const unknown = has(m, STATUS_BIT.STREAM_UNKNOWN);
  // §4.2.7: a CLOSE is answered by "a STATUS message indicating that the StreamID has been closed".
  const close = has(m, STATUS_BIT.CLOSED) ? pendingFor(core, from, m.streamID, 'CLOSE') : undefined;
  if (close !== undefined) {
    core.pending.resolve(close.key, core.out);
    return;
  }
  const query = pendingFor(core, from, m.streamID, 'STATUS');
  if (query !== undefined && query.what.command === 'STATUS') {
    core.pending.resolve(query.key, core.out);
    if (!unknown) return;
    const r = core.streams.byRef(query.what.stream);
    if (r !== undefined) closeStream(core, r, 'stream-unknown', false);
    // A re-verification's own answers start no further round.
    if (!query.what.reverify && core.config.reverifyOnStreamUnknown) verify(core, from, true);
    return;
  }
  if (!unknown) return;
  // Our DATA (tx) or FLOW_CONTROL (rx) named a stream the node does not know (§3.8.3); <CmdID> says which.
  const r = core.streams.either(from, m.streamID, m.cmdID === SMP_COMMAND.FLOW_CONTROL ? 'rx' : 'tx');
  if (r !== undefined) closeStream(core, r, 'stream-unknown', false);
  if (core.config.reverifyOnStreamUnknown) verify(core, from, true);
}

/**
 * §4.2.8 "When a STATUS message is received with the 'Request_Status_of_Remote' bit set, a STATUS
 * message must be sent back to the originator for the streamID requested"; an unknown stream is
 * answered <Stream Unknown, Closed> (Figure 3-4, second example).
 */
function answerQuery(core: SessionCore, from: number, m: SmpStatus): void {
  const r = queried(core, from, m);
  if (r === undefined) answerStreamUnknown(core, from, m.streamID, m.cmd, m.ver);
  else core.reply(from, statusAnswer(core, r));
}

/**
 * The stream a query names. The querier's own flags tell which end it is (a decision): Ready to
 * Receive is a receiver's state and Data Ready to Send a sender's (Table 4-10), so the stream is our
 * transmit or our receive stream; with neither (or both) either may be meant.
 */
function queried(core: SessionCore, from: number, m: SmpStatus): StreamRecord | undefined {
  const receiver = has(m, STATUS_BIT.READY_TO_RECEIVE);
  const sender = has(m, STATUS_BIT.DATA_READY_TO_SEND);
  if (receiver && !sender) return core.streams.get(from, 'tx', m.streamID);
  if (sender && !receiver) return core.streams.get(from, 'rx', m.streamID);
  return core.streams.either(from, m.streamID);
}

/**
 * The node did not understand a command of ours (§4.2.8 Command_Unknown, the original in the
 * context data). A quoted OPEN is refused for good; a quoted REQUEST, CLOSE or status query is
 * answered, as far as waiting for it goes (§3.8.1 "Systems which do not implement support for
 * REQUEST and ADVERTISE will respond to REQUEST with STATUS, indicating Command_Unknown").
 */
function commandUnknown(core: SessionCore, from: number, quoted: SmpMessage | undefined): void {
  if (quoted === undefined) return;
  switch (quoted.command) {
    case 'OPEN': {
      const omn = openMessageNumberOf(quoted.attributes);
      const p = omn === undefined ? undefined : core.pending.get(openKey(omn));
      if (p === undefined || p.to !== from || p.what.command !== 'OPEN') return;
      core.pending.resolve(p.key, core.out);
      openFailed(core, from, p.what.open, 'refused');
      return;
    }
    case 'REQUEST':
      core.pending.resolve(`request/${from}/${quoted.protoID}`, core.out);
      return;
    case 'CLOSE': {
      const p = pendingFor(core, from, quoted.streamID, 'CLOSE');
      if (p !== undefined) core.pending.resolve(p.key, core.out);
      return;
    }
    case 'STATUS': {
      const p = pendingFor(core, from, quoted.streamID, 'STATUS');
      if (p !== undefined) core.pending.resolve(p.key, core.out);
      return;
    }
    default:
      return;
  }
}
