import { SMP_COMMAND, STATUS_BIT, buildStatus, smpStatus } from '../wire/smp/index.ts';
import type { SmpMessage, SmpStatus } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import type { StreamRecord } from './stream-table.ts';

/** The STATUS messages this end point sends (Annex 2 §3.5.1.9, §4.2.8 Tables 4-9 and 4-10). */

/** <DataSize> is one octet of 8-octet words: at most 2040 octets of context-specific data. */
export const MAX_CONTEXT_OCTETS = 255 * 8;
/** A stream's ProtoID word and attributes must fit in those 2040 octets. */
export const MAX_CONTEXT_ATTRIBUTES = (MAX_CONTEXT_OCTETS - 4) >> 3;
/** StreamID of a STATUS that concerns no stream: 0xFFFF, "Invalid" as a stream (Table 3-1). */
export const NO_STREAM_ID = 0xffff;
/** Table 4-9: the four words before <ContextSpecificData>. */
export const STATUS_HEADER_OCTETS = 16;

/**
 * Context octets a STATUS to `to` can carry: 2040, or fewer when the node's Type 11 mailbox takes
 * a single segment (decision T2), whole double-words since <DataSize> counts them.
 */
export function contextRoom(core: SessionCore, to: number): number {
  const limit = core.messageLimit(core.replyContact(to));
  if (limit === undefined) return MAX_CONTEXT_OCTETS;
  return Math.max(0, Math.min(MAX_CONTEXT_OCTETS, Math.floor((limit - STATUS_HEADER_OCTETS) / 8) * 8));
}

/** The stream a message names, if it names one. */
export function streamOf(m: SmpMessage | undefined): number | undefined {
  if (m === undefined) return undefined;
  switch (m.command) {
    case 'ACCEPT':
    case 'FLOW_CONTROL':
    case 'CLOSE':
    case 'STATUS':
    case 'USERDEFINED':
    case 'DATA':
    case 'DATA1':
      return m.streamID;
    default:
      return undefined;
  }
}

/**
 * §4.2.8 "If the STATUS message is sent in response to an invalid, unknown, or malformed command,
 * then the original command is sent in the <ContextSpecificData> fields and the Command_Unknown
 * flag bit is set." Only Command_Unknown is set: Figure 3-4 also shows Stream Unknown, but "In
 * the case that the Stream_Unknown bit is set in the status field, the only two valid flag bits
 * are Stream_Unknown and Closed" (a decision, see the conformance notes). A quote longer than
 * <DataSize> allows is cut at 2040 octets, or at what the node's mailbox takes (`contextRoom`).
 */
export function answerCommandUnknown(core: SessionCore, to: number, raw: Uint8Array, decoded: SmpMessage | undefined): void {
  core.counters.statusCommandUnknown++;
  core.reply(
    to,
    smpStatus({
      sourceID: core.config.nodeId,
      streamID: streamOf(decoded) ?? NO_STREAM_ID,
      mailbox: core.ownMailbox(),
      status: 0,
      quote: raw.subarray(0, contextRoom(core, to)),
    }),
  );
}

/**
 * §3.8.3 "If any DATA or FLOW_CONTROL command is received, which specifies a VSID which the
 * recipient does not understand, the recipient must respond with a STATUS command indicating that
 * the VSID is unknown"; §4.3.1 "with the Closed bit set"; §4.2.8 "the only two valid flag bits are
 * Stream_Unknown and Closed". <CmdID><CmdVersion> name the command answered.
 */
export function answerStreamUnknown(core: SessionCore, to: number, streamID: number, cmd: number, ver = 0x01): void {
  core.counters.statusStreamUnknown++;
  core.reply(to, buildStatus({ sourceID: core.config.nodeId, streamID, mailbox: core.ownMailbox(), cmdID: cmd, cmdVersion: ver, status: ['STREAM_UNKNOWN', 'CLOSED'] }));
}

/** §4.2.7 "the receiver of the CLOSE must reply with a STATUS message indicating that the StreamID has been closed." */
export function answerClosed(core: SessionCore, to: number, streamID: number, cos: number): void {
  core.reply(to, buildStatus({ sourceID: core.config.nodeId, streamID, cos, mailbox: core.ownMailbox(), cmdID: SMP_COMMAND.CLOSE, status: ['CLOSED'] }));
}

/** The Table 4-10 state of one of our streams. */
export function streamFlags(r: StreamRecord): number {
  let s = STATUS_BIT.STREAM_FUNCTIONAL;
  if (r.ref.direction === 'rx' && !r.xoff) s |= STATUS_BIT.READY_TO_RECEIVE;
  if (r.ref.direction === 'tx' && (r.queue?.size ?? 0) > 0) s |= STATUS_BIT.DATA_READY_TO_SEND;
  return s >>> 0;
}

/**
 * §4.2.8 "When a STATUS message is received with the 'Request_Status_of_Remote' bit set, a STATUS
 * message must be sent back to the originator for the streamID requested. The STATUS message which
 * is sent back must not have the 'Request_Status_of_Remote' bit set"; its context data is "a copy of
 * the ProtoID and attributes used to create the StreamID" (at most 254 attributes fit, fewer when
 * the querier's mailbox takes a single segment: `contextRoom`).
 */
export function statusAnswer(core: SessionCore, r: StreamRecord): SmpStatus {
  return buildStatus({
    sourceID: core.config.nodeId,
    streamID: r.ref.streamID,
    cos: r.cos,
    mailbox: core.ownMailbox(),
    status: streamFlags(r),
    streamProtocol: { protoID: r.protoID, attributes: r.attributes.slice(0, Math.max(0, Math.min(MAX_CONTEXT_ATTRIBUTES, (contextRoom(core, r.ref.remote) - 4) >> 3))) },
  });
}

/** A status query (§3.5.1.9): our own state of the stream plus Request_Status_of_Remote, <DataSize> zero. */
export function statusQuery(core: SessionCore, r: StreamRecord): SmpStatus {
  return buildStatus({
    sourceID: core.config.nodeId,
    streamID: r.ref.streamID,
    cos: r.cos,
    mailbox: core.ownMailbox(),
    status: (streamFlags(r) | STATUS_BIT.REQUEST_STATUS_OF_REMOTE) >>> 0,
  });
}
