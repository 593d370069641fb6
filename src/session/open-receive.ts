import { attrConduitStream, attrConveyanceMailbox } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { buildStatus, smpAccept } from '../wire/smp/index.ts';
import type { SmpAccept, SmpOpen } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { judgeOpen, settingsFromAttributes, supportFor } from './negotiate.ts';
import type { OpenVerdict } from './negotiate.ts';
import { openMessageNumberOf, placeAttribute, streamAttributes } from './open-attrs.ts';
import { refuse } from './open-refuse.ts';
import { info, reportConduit, sendConduitOpen } from './open-send.ts';
import { streamFlags } from './status-rules.ts';
import { streamKey } from './stream-table.ts';
import type { StreamRecord } from './stream-table.ts';
import type { ProtocolSupport, RefuseReason, StreamSettings } from './types.ts';

/**
 * The OPEN receiver's side (Annex 2 §3.5.1.3–§3.5.1.5, §3.5.2.5, §3.8.2, §3.8.3, §4.2.3–§4.2.5)
 * and process_incoming_open of the conduit procedure (§3.4.3).
 */

type Accepted = Extract<OpenVerdict, { ok: true }>;

const CONDUIT_DETAIL = {
  'master-without-record': 'a conduit OPEN the master has no record of: "the master may respond with REFUSE" (§3.4.1)',
  'slave-without-record': 'a conduit OPEN other than the master\'s first, with no record of its conduit (§3.4.3)',
  'no-stream-ids': 'no receive streamID left (§3.5.2.5 Table 3-1)',
} as const;

/**
 * Refusals that mean the OPEN breaks a "must" of the text (§4.2.3 "The OPEN request must have the
 * OPEN_MESSAGE_NUMBER attribute as the first attribute", §3.5.3 ordering and required attributes):
 * its sender is "not operating in strict compliance" and is suspect in both modes (§3.7.3,
 * decision E31). Reserved attribute IDs are reserved values (validation mode's, §3.8.5); the
 * other reasons are negotiation outcomes.
 */
const NON_COMPLIANT: ReadonlySet<RefuseReason> = new Set<RefuseReason>(['missing-open-message-number', 'attribute-order', 'missing-required']);

/**
 * DATA2 has no StreamID (§4.3.3 Table 4-14): its stream is the mailbox it arrives in, one of
 * `dataMailboxes`, named to the sender by a CONVEYANCE attribute in the ACCEPT (§3.5.3.10).
 * undefined: not DATA2; null: every such mailbox is taken (the OPEN is refused).
 */
function dataMailbox(core: SessionCore, settings: StreamSettings): number | undefined | null {
  if (settings.dataHeaderFormat !== 'DATA2') return undefined;
  return core.config.dataMailboxes.find((mb) => !core.streams.mailboxInUse(mb)) ?? null;
}

/**
 * An OPEN received. §3.7.1 makes the sender resend an OPEN whose answer is lost, so an OPEN whose
 * OPEN_MESSAGE_NUMBER already opened a stream is answered with the same ACCEPT; any other OPEN is
 * judged afresh (§3.5.3.7: the number only matches responses to requests).
 */
export function onOpen(core: SessionCore, from: number, m: SmpOpen, raw: Uint8Array): void {
  const omn = openMessageNumberOf(m.attributes);
  const again = omn === undefined ? undefined : core.streams.byOpenMessage(from, m.protoID, omn);
  if (again?.accept !== undefined) {
    core.reply(from, again.accept);
    return;
  }
  const support = supportFor(core.config.protocols, m.protoID, m.attributes);
  const v = judgeOpen(m, support, core.defaults);
  if (!v.ok) {
    if (NON_COMPLIANT.has(v.reason)) core.suspect(from, `OPEN: ${v.detail}`);
    if (v.reason === 'missing-open-message-number') {
      // No REFUSE can answer it (§4.2.5: it would need "the OPEN_MESSAGE_NUMBER attribute from the OPEN").
      core.counters.malformed++;
      core.event({ event: 'malformed', node: from, reason: v.detail });
    }
    refuse(core, from, m, raw, v.reason, v.detail);
    return;
  }
  // judgeOpen refuses an OPEN whose protocol has no support (protocol-unsupported): never reached.
  if (support === undefined) return;
  if (v.conduit !== undefined) {
    conduitOpen(core, from, m, raw, v, support, v.conduit);
    return;
  }
  if (support.singleSession === true) {
    // Vendor-defined protocols share ProtoID 0x0101: a session is one of this protocol's only (§6.2).
    const existing = core.streams.singleSession(from, m.protoID, (r) => supportFor(core.config.protocols, r.protoID, r.attributes) === support);
    if (existing !== undefined) {
      acceptExisting(core, from, m, existing);
      return;
    }
  }
  const mailbox = dataMailbox(core, v.settings);
  if (mailbox === null) {
    refuse(core, from, m, raw, 'no-data-mailbox', 'every DATA2 mailbox is in use (§4.3.3)');
    return;
  }
  const streamID = core.rxIds.alloc(core.streams.avoidTx(from));
  if (streamID === undefined) {
    refuse(core, from, m, raw, 'no-stream-ids', 'no receive streamID left (§3.5.2.5 Table 3-1)');
    return;
  }
  openRx(core, from, m, v, support, streamID, mailbox, undefined);
}

/**
 * §3.5.1.4 "A target may optionally support only a single session for a given protocol and
 * source, in which case attempts to OPEN multiple sessions will result in ACCEPT responses which
 * all specify the same stream"; §3.8.3 "the ACCEPT should be followed by a STATUS message
 * indicating that the stream is functional and indicating other status information as
 * appropriate" (no context data: §4.2.8 keeps that for answers to commands and queries).
 */
function acceptExisting(core: SessionCore, from: number, m: SmpOpen, r: StreamRecord): void {
  const self = core.config.nodeId;
  core.reply(from, smpAccept({ destID: self, streamID: r.ref.streamID, cos: r.cos, open: m, attributes: r.attributes }));
  core.reply(from, buildStatus({ sourceID: self, streamID: r.ref.streamID, cos: r.cos, mailbox: core.ownMailbox(), status: streamFlags(r) }));
}

/**
 * Opens the receive stream and ACCEPTs: "The only attribute required in the ACCEPT message is the
 * OPEN_MESSAGE_NUMBER attribute from the OPEN" (§4.2.4), first; then the agreed values, duplicates
 * removed (§3.8.2), DATA_HEADER_FORMAT when the protocol has one (§3.5.3.9), CONDUIT_STREAM for a
 * conduit and CONVEYANCE for a DATA2 mailbox.
 */
function openRx(
  core: SessionCore,
  from: number,
  m: SmpOpen,
  v: Accepted,
  support: ProtocolSupport,
  streamID: number,
  mailbox: number | undefined,
  conduit: { readonly id: number; readonly transmit: number; readonly receive: number } | undefined,
): void {
  const accept = acceptFor(core, m, v, support, streamID, mailbox, conduit);
  const attributes = streamAttributes(accept.attributes, m.protoID);
  const omn = v.openMessageNumber;
  const r: StreamRecord = {
    ref: { remote: from, direction: 'rx', streamID },
    key: streamKey(from, 'rx', streamID),
    protoID: m.protoID,
    cos: accept.cos,
    attributes,
    settings: settingsFromAttributes(attributes, m.protoID, core.defaults),
    openMessageNumber: omn,
    accept,
    ...(mailbox !== undefined && { dataMailbox: mailbox }),
    ...(conduit && { conduitId: conduit.id }),
    xoff: false,
  };
  core.streams.add(r);
  core.reply(from, accept);
  core.event({ event: 'opened', stream: info(core, r) });
}

function acceptFor(
  core: SessionCore,
  m: SmpOpen,
  v: Accepted,
  support: ProtocolSupport,
  streamID: number,
  mailbox: number | undefined,
  conduit: { readonly transmit: number; readonly receive: number } | undefined,
): SmpAccept {
  let list: readonly AttributeLike[] = v.attributes;
  if (conduit !== undefined) list = placeAttribute(list, attrConduitStream(conduit.transmit, conduit.receive), m.protoID);
  if (mailbox !== undefined) list = placeAttribute(list, attrConveyanceMailbox(mailbox), m.protoID);
  return smpAccept({ destID: core.config.nodeId, streamID, cos: support.cos ?? 0, open: m, attributes: list });
}

/**
 * process_incoming_open (§3.4.3): the ACCEPT names the new receive stream with CONDUIT_STREAM =
 * local transmit‖receive, and "if ( local_xmit == 0xFFFF )" our own OPEN follows (§3.4.1 "To
 * complete conduit creation, the slave then sends an OPEN message with the CONDUIT_STREAM
 * attribute set to 0xFFFFSSSS"). A master without a matching record, or a slave asked for a
 * second OPEN it has no record of, refuses (§3.4.1 "the master may respond with REFUSE").
 */
function conduitOpen(core: SessionCore, from: number, m: SmpOpen, raw: Uint8Array, v: Accepted, support: ProtocolSupport, cs: { readonly transmit: number; readonly receive: number }): void {
  const mailbox = dataMailbox(core, v.settings);
  if (mailbox === null) {
    refuse(core, from, m, raw, 'no-data-mailbox', 'every DATA2 mailbox is in use (§4.3.3)');
    return;
  }
  const res = core.conduits.incomingOpen(from, m.protoID, cs.transmit, cs.receive, () => core.rxIds.alloc(core.streams.avoidTx(from)));
  if (!res.ok) {
    refuse(core, from, m, raw, res.reason, CONDUIT_DETAIL[res.reason]);
    return;
  }
  const value = { id: res.conduit.id, transmit: res.accept.transmit, receive: res.accept.receive };
  const existing = core.streams.get(from, 'rx', res.accept.streamID);
  if (existing === undefined) openRx(core, from, m, v, support, res.accept.streamID, mailbox, value);
  else core.reply(from, acceptFor(core, m, v, support, existing.ref.streamID, existing.dataMailbox, value));
  if (res.open !== undefined) sendConduitOpen(core, from, res.conduit, res.open, support);
  reportConduit(core, res.conduit.id);
}
