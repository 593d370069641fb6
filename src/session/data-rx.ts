import { PROTO_ID, SMP_COMMAND, streamIdUse } from '../wire/smp/index.ts';
import type { SmpData, SmpData1, SmpData2 } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { BROADCAST_STREAM_ID, ETHERNET_PROTO_ID } from './ethernet.ts';
import { answerStreamUnknown } from './status-rules.ts';
import type { StreamRecord } from './stream-table.ts';
import type { StreamRef } from './types.ts';

/**
 * Receiving data (Annex 2 §4.3): DATA, DATA1 and DATA2 messages reassembled into PDUs, and Type 9
 * PDUs (DATA3, §4.3.4–§4.3.5), delivered on the receive stream they belong to.
 */

type DataMessage = SmpData | SmpData1 | SmpData2;

/** DATA3 "can be considered as CMD=0x0B" (§4.3.4): the <CmdID> a STATUS about a Type 9 PDU names. */
const DATA3_CMD = SMP_COMMAND.DATA3;

function discard(core: SessionCore, from: number, reason: string, stream?: StreamRef): void {
  core.counters.dataDiscarded++;
  core.event(stream === undefined ? { event: 'dropped', reason, node: from } : { event: 'dropped', reason, node: from, stream });
}

function deliver(core: SessionCore, stream: StreamRef, protoID: number, pdu: Uint8Array): void {
  core.counters.pdusDelivered++;
  core.out.push({ kind: 'deliver', stream, protoID, pdu });
}

/**
 * A complete PDU for `streamID` from `from`:
 * - an open receive stream: delivered;
 * - StreamID 0xF000 with Ethernet supported: "Receivers of broadcast traffic know that it is a
 *   broadcast message, by reading the StreamID of incoming messages" (§7.3.2.2);
 * - a vendor-specific streamID (0xE000–0xEFFF): "may be used without explicitly opening a stream"
 *   (§3.5.2.5); delivered under ProtoID 0x0101, vendor-defined (a decision);
 * - a stream closed lately: "Discard DATA for a closed stream" (Figure 3-3), quietly;
 * - otherwise unknown: "the receiver must respond with a STATUS message with the Closed bit set to
 *   indicate that the stream is no longer open" (§4.3.1, §3.8.3).
 */
function arrived(core: SessionCore, from: number, streamID: number, pdu: Uint8Array, cmd: number, ver: number): void {
  const r = core.streams.get(from, 'rx', streamID);
  const ref: StreamRef = { remote: from, direction: 'rx', streamID };
  if (r !== undefined) {
    deliver(core, r.ref, r.protoID, pdu);
  } else if (streamID === BROADCAST_STREAM_ID && core.config.protocols.some((p) => p.protoID === ETHERNET_PROTO_ID)) {
    deliver(core, ref, ETHERNET_PROTO_ID, pdu);
  } else if (streamIdUse(streamID) === 'VENDOR_SPECIFIC') {
    deliver(core, ref, PROTO_ID.VENDOR_DEFINED, pdu);
  } else if (core.streams.wasClosed(from, 'rx', streamID)) {
    discard(core, from, 'closed-stream', ref);
  } else {
    core.counters.dataDiscarded++;
    answerStreamUnknown(core, from, streamID, cmd, ver);
  }
}

/**
 * DATA, DATA1 or DATA2 from `from`, arrived in Type 11 mailbox `mailbox`. A Start segment names the
 * stream, whose DATA_OFFSET says how many Offset octets each message of the transfer carries
 * (§3.5.3.3); DATA2 names none, and its stream is the one its mailbox was dedicated to.
 */
export function onData(core: SessionCore, from: number, mailbox: number | undefined, m: DataMessage): void {
  let r: StreamRecord | undefined;
  if (m.command === 'DATA2') {
    r = mailbox === undefined ? undefined : core.streams.byDataMailbox(from, mailbox);
    if (r === undefined) {
      discard(core, from, 'data2-without-stream');
      return;
    }
  } else if (m.s === 1 && m.streamID !== undefined) {
    r = core.streams.get(from, 'rx', m.streamID);
  }
  const res = core.reassembler.accept(from, mailbox, m, r?.settings.dataOffset ?? 0);
  if (res.kind === 'partial') return;
  const ver = m.command === 'DATA2' ? 0x01 : m.ver;
  // A defect may still carry a whole PDU: a single-segment message that met a broken transfer.
  if (res.kind === 'defect') discard(core, from, `data-defect: ${res.reason}`);
  const pdu = res.pdu;
  if (pdu === undefined) return;
  if (m.command === 'DATA2' && r !== undefined) deliver(core, r.ref, r.protoID, pdu);
  else if (res.streamID !== undefined) arrived(core, from, res.streamID, pdu, m.cmd, ver);
}

/** A Type 9 PDU on a data stream (§4.3.4 DATA3, §4.3.5 "no additional header needs to be used"). */
export function onPdu(core: SessionCore, from: number, streamID: number, pdu: Uint8Array): void {
  arrived(core, from, streamID, pdu, DATA3_CMD, 0x01);
}
