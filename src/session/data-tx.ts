import { smpBytes } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { DEFAULT_MAX_MESSAGE, maxPdu, pduOctetsPerMessage, pduToDataMessages } from './data-formats.ts';
import type { DataFormat } from './data-formats.ts';
import { BROADCAST_STREAM_ID, ETHERNET_PROTO_ID, broadcastPlan } from './ethernet.ts';
import type { StreamRecord } from './stream-table.ts';
import type { Contact, StreamRef, StreamSettings } from './types.ts';

/**
 * Sending a PDU (Annex 2 §4.3): as DATA, DATA1 or DATA2 messages over Type 11, or, with DATA3
 * ("no header is required", §4.3.4), as a Type 9 PDU for the Part 10 segmenter.
 */

/**
 * "Unless otherwise specified, the conveyance used to transmit DATA and FLOW_CONTROL messages for a
 * stream is the same as the conveyance used to create and manage all streams. Specification of
 * other conveyances for DATA and FLOW_CONTROL traffic is performed by including the CONVEYANCE
 * attribute" (§3.3).
 */
export function dataContact(core: SessionCore, remote: number, settings: StreamSettings): Contact | undefined {
  return settings.conveyance ?? core.contacts.get(remote);
}

function dropped(core: SessionCore, reason: string, stream: StreamRef): void {
  core.counters.pdusDropped++;
  core.event({ event: 'dropped', reason, node: stream.remote, stream });
}

/** A stream's PDU on its way out, flow control already passed. */
export function transmitPdu(core: SessionCore, r: Pick<StreamRecord, 'ref' | 'cos' | 'settings' | 'protoID'>, pdu: Uint8Array): void {
  const s = r.settings;
  // §7.2.1: the MTU is the largest Ethernet frame the receiver takes.
  if (s.mtu !== undefined && r.protoID === ETHERNET_PROTO_ID && pdu.length > s.mtu) {
    dropped(core, `pdu-over-mtu: ${pdu.length} > ${s.mtu}`, r.ref);
    return;
  }
  if (s.dataHeaderFormat === 'DATA3') {
    core.counters.pdusSent++;
    core.out.push({ kind: 'send-pdu', to: r.ref.remote, streamID: r.ref.streamID, cos: r.cos, pdu });
    return;
  }
  const contact = dataContact(core, r.ref.remote, s);
  if (contact === undefined) {
    dropped(core, 'no-contact', r.ref);
    return;
  }
  sendDataMessages(core, r.ref, contact, s.dataHeaderFormat, r.cos, pdu, s);
}

function sendDataMessages(
  core: SessionCore,
  ref: StreamRef,
  contact: Contact,
  format: DataFormat,
  cos: number,
  pdu: Uint8Array,
  s: Pick<StreamSettings, 'data2Octet' | 'dataOffset'>,
): void {
  if (pdu.length > maxPdu(format)) {
    dropped(core, `pdu-too-large: ${pdu.length} > ${maxPdu(format)} for ${format}`, ref);
    return;
  }
  // Decision T2: a mailbox 0–3 takes 16 segments, 4–63 one; over Type 9 the Part 2 message size stays the bound.
  const maxMessage = core.messageLimit(contact) ?? DEFAULT_MAX_MESSAGE;
  if (maxMessage === 0) {
    dropped(core, `unusable-mailbox: ${contact.conveyance === 'type11' ? contact.mailbox : ''} names no Part 2 mailbox`, ref);
    return;
  }
  if (pduOctetsPerMessage(format, maxMessage, s.dataOffset) < 1) {
    dropped(core, `no-room-for-data: a ${maxMessage}-octet message holds no PDU octet after the ${format} header and ${s.dataOffset} Offset octets`, ref);
    return;
  }
  const messages = pduToDataMessages(pdu, {
    format,
    sourceID: core.config.nodeId,
    streamID: ref.streamID,
    cos,
    // §4.3.1 "The <Mailbox> field is set to the mailbox ID used by the receiver of the data."
    mailbox: contact.conveyance === 'type11' ? contact.mailbox : 0,
    data2Octet: s.data2Octet,
    // §3.5.3.3 Offset octets "can be used to convey information such as TCP/IP offload information":
    // their content is vendor-defined, so this end point sends zeros.
    offsetOctets: new Uint8Array(s.dataOffset),
    maxMessage,
  });
  core.counters.pdusSent++;
  for (const m of messages) core.emit(ref.remote, contact, m, smpBytes(m));
}

const PLAIN: Pick<StreamSettings, 'data2Octet' | 'dataOffset'> = { data2Octet: 0, dataOffset: 0 };

/**
 * §3.5.2.5 "StreamIDs with vendor specific values and reserved values are pre-defined and may be
 * used without explicitly opening a stream"; §3.8.2 "vendor-specific VSIDs ... may be defined by the
 * vendor to be available for immediate DATA messages". This end point's definition: a vendor
 * streamID carries DATA messages (DATA header) to the node's management contact, COS 0.
 */
export function transmitUnopened(core: SessionCore, ref: StreamRef, pdu: Uint8Array): void {
  const contact = core.contacts.get(ref.remote);
  if (contact === undefined) {
    dropped(core, 'no-contact', ref);
    return;
  }
  if (contact.conveyance === 'type9') {
    core.counters.pdusSent++;
    core.out.push({ kind: 'send-pdu', to: ref.remote, streamID: ref.streamID, cos: contact.cos, pdu });
    return;
  }
  sendDataMessages(core, ref, contact, 'DATA', 0, pdu, PLAIN);
}

/**
 * §7.3.2: "If multicast capabilities are available in the RapidIO switches, they should be used
 * for broadcast messages" to destination ID 0xFE / 0xFFFE (§7.3.2.1); otherwise "broadcast
 * messages must be sent by unicast transmission. The reserved StreamID value 0xF000 may be used
 * for transmission of broadcast traffic. Note that no OPEN message is required" (§7.3.2.2). Over
 * Type 11 the frame goes as DATA messages naming StreamID 0xF000; over Type 9 as a PDU on it.
 *
 * Multicast is used only when this end point's own conveyance is Type 9: a Type 11 message
 * needs a response to each of its segments (Part 2 §3.1), which a multicast group cannot give, so
 * the Type 11 conveyance takes no multicast (decision T20). A Type 11 end point configured for
 * multicast broadcasts by unicast instead and reports it ('multicast-unavailable').
 */
export function broadcast(core: SessionCore, frame: Uint8Array, members: readonly number[]): void {
  const c = core.config;
  const multicast = c.multicast && c.contact.conveyance === 'type9';
  if (c.multicast && !multicast) {
    core.event({ event: 'multicast-unavailable', reason: 'Type 11 takes no multicast: broadcast by unicast on StreamID 0xF000 (§7.3.2.2)' });
  }
  const plan = broadcastPlan(members, c.nodeId, multicast, c.deviceIdBits);
  const targets: { readonly to: number; readonly contact: Contact }[] = [];
  if (plan.mode === 'multicast') {
    // A multicast group has no advertisement of its own: the members share this end point's conveyance.
    targets.push({ to: plan.destID, contact: c.contact });
  } else {
    for (const m of plan.rejected) core.event({ event: 'dropped', reason: 'broadcast-member-not-a-device-id', node: m });
    for (const to of plan.destIDs) {
      const contact = core.contacts.get(to);
      if (contact === undefined) dropped(core, 'no-contact', { remote: to, direction: 'tx', streamID: BROADCAST_STREAM_ID });
      else targets.push({ to, contact });
    }
  }
  for (const { to, contact } of targets) {
    const ref: StreamRef = { remote: to, direction: 'tx', streamID: BROADCAST_STREAM_ID };
    if (contact.conveyance === 'type9') {
      core.counters.pdusSent++;
      core.out.push({ kind: 'send-pdu', to, streamID: BROADCAST_STREAM_ID, cos: contact.cos, pdu: frame });
    } else {
      sendDataMessages(core, ref, contact, 'DATA', 0, frame, PLAIN);
    }
  }
}
