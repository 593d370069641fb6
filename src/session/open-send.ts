import { attrConduitStream } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { smpOpen } from '../wire/smp/index.ts';
import type { SmpAccept, SmpOpen, SmpRefuse } from '../wire/smp/index.ts';
import { closeConduit, closeStream, sendClose } from './close.ts';
import type { ConduitRecord, ConduitStreamValue } from './conduits.ts';
import { isComplete } from './conduits.ts';
import type { SessionCore } from './core.ts';
import { PROTO_ID } from '../wire/smp/header.ts';
import { identityMatches, planOpenAttempts, settingsFromAttributes, supportFor } from './negotiate.ts';
import { conduitStreamOf, mergeAgreed, openMessageNumberOf, placeAttribute } from './open-attrs.ts';
import type { OpenJob } from './pending.ts';
import { streamInfo, streamKey } from './stream-table.ts';
import type { StreamRecord } from './stream-table.ts';
import type { OpenCommand, ProtocolSupport, StreamRef } from './types.ts';

/**
 * The OPEN sender's side (Annex 2 §3.5.1.3–§3.5.1.5, §3.5.3.7, §3.8.2, §4.2.3–§4.2.5) and the
 * conduit procedure's OPEN and ACCEPT handling (§3.4.3).
 */

export function openKey(openMessageNumber: number): string {
  return `open/${openMessageNumber}`;
}

type Attempts = Pick<OpenJob, 'attempts' | 'intermediate'>;

/**
 * The OPEN attempts planned from `offered` for `to` (§3.8.2: an intermediate value first, then only
 * the values specified). Once `to` has refused an intermediate value for the protocol, only the
 * values specified: "the sender must not attempt any other intermediate value for any such
 * attribute, but restrict itself to the values specified. A single attempt at intermediate values
 * may be attempted" — for this OPEN and every later one to that node.
 */
function planFor(core: SessionCore, to: number, protoID: number, offered: readonly AttributeLike[]): Attempts {
  const plan = planOpenAttempts(offered, protoID);
  const key = `${to}/${protoID}`;
  if (plan.length < 2) return { attempts: plan.length > 0 ? plan : [[]] };
  return core.intermediateRefused.has(key) ? { attempts: plan.slice(1) } : { attempts: plan, intermediate: key };
}

/**
 * The attribute lists to try: the application's own list, else the node's ADVERTISE for the
 * protocol (`planFor`), else the OPEN carries OPEN_MESSAGE_NUMBER alone and the receiver's
 * defaults apply.
 */
function attemptsFor(core: SessionCore, to: number, protoID: number, given: readonly AttributeLike[] | undefined): Attempts {
  if (given !== undefined) return { attempts: [given] };
  const adv = core.advertised.get(`${to}/${protoID}`);
  return adv === undefined ? { attempts: [[]] } : planFor(core, to, protoID, adv);
}

export function openCommand(core: SessionCore, c: OpenCommand): void {
  if (!Number.isInteger(c.protoID) || c.protoID < 0 || c.protoID > 0xfffe) {
    core.event({ event: 'dropped', reason: 'invalid-protoID', node: c.to });
    return;
  }
  let conduit: ConduitRecord | undefined;
  let conduitStream: ConduitStreamValue | undefined;
  if (c.conduit === true) {
    const r = core.conduits.create(c.to, c.protoID);
    if (!r.ok) {
      core.event({ event: 'dropped', reason: r.reason, node: c.to });
      return;
    }
    conduit = r.conduit;
    conduitStream = r.open;
  }
  const job: OpenJob = {
    ref: c.ref,
    byApplication: true,
    protoID: c.protoID,
    openMessageNumber: 0,
    ...attemptsFor(core, c.to, c.protoID, c.attributes),
    attempt: 0,
    ...(conduit && { conduitId: conduit.id }),
  };
  if (!sendOpen(core, c.to, job, conduitStream) && conduit !== undefined) core.conduits.remove(conduit.id);
}

/**
 * The conduit procedure's own OPEN (§3.4.3 send_open with CONDUIT_STREAM = 0xFFFF‖receive). Its
 * attributes: the node's ADVERTISE for the protocol when there is one, else this end point's own
 * advertised attributes for it, since both ends of a conduit carry the same protocol (a decision).
 * `own` is the protocol of the conduit's other stream: among vendor-defined protocols (§6.2) an
 * ADVERTISE block of another VENDOR or PROTOCOL_NAME is not this protocol's.
 */
export function sendConduitOpen(
  core: SessionCore,
  to: number,
  conduit: ConduitRecord,
  value: ConduitStreamValue,
  own: ProtocolSupport | undefined = supportFor(core.config.protocols, conduit.protoID),
): void {
  const adv = core.advertised.get(`${to}/${conduit.protoID}`);
  let attempts = attemptsFor(core, to, conduit.protoID, undefined);
  if (adv === undefined || (own !== undefined && own.protoID === PROTO_ID.VENDOR_DEFINED && !identityMatches(own, adv))) {
    attempts = planFor(core, to, conduit.protoID, own?.attributes ?? []);
  }
  const job: OpenJob = { ref: `conduit-${conduit.id}`, byApplication: false, protoID: conduit.protoID, openMessageNumber: 0, ...attempts, attempt: 0, conduitId: conduit.id };
  sendOpen(core, to, job, value);
}

/**
 * §4.2.3 "The OPEN request must have the OPEN_MESSAGE_NUMBER attribute as the first attribute in
 * its attribute list"; each attempt gets a number of its own so that parallel OPENs are told
 * apart (§3.5.3.7), and a retry resends the same message.
 */
function sendOpen(core: SessionCore, to: number, base: OpenJob, conduitStream: ConduitStreamValue | undefined): boolean {
  const omn = core.nextOpenMessageNumber();
  const job: OpenJob = { ...base, openMessageNumber: omn };
  let attrs: readonly AttributeLike[] = job.attempts[job.attempt] ?? [];
  if (conduitStream !== undefined) attrs = placeAttribute(attrs, attrConduitStream(conduitStream.transmit, conduitStream.receive), job.protoID);
  const m = smpOpen({ sourceID: core.config.nodeId, protoID: job.protoID, openMessageNumber: omn, attributes: attrs });
  return core.request(openKey(omn), to, m, { command: 'OPEN', open: job });
}

/**
 * The OPEN a response answers, found by its OPEN_MESSAGE_NUMBER when it came from that OPEN's
 * target, and no longer pending; undefined when the response is stale (and dealt with as such).
 */
function answeredOpen(core: SessionCore, from: number, m: SmpAccept | SmpRefuse): { readonly job: OpenJob; readonly open: SmpOpen } | undefined {
  const omn = openMessageNumberOf(m.attributes);
  const p = omn === undefined ? undefined : core.pending.get(openKey(omn));
  if (p === undefined || p.to !== from || p.what.command !== 'OPEN' || p.what.open.protoID !== m.protoID) {
    stale(core, from, m);
    return undefined;
  }
  core.pending.resolve(p.key, core.out);
  return { job: p.what.open, open: p.message as SmpOpen };
}

/**
 * A response no outstanding OPEN of ours is waiting for (a duplicate, a late answer to a timed-out
 * OPEN, or one we never sent). A stale ACCEPT naming a stream we do not hold is closed, so the
 * remote does not keep a receive stream nobody sends on (a decision).
 */
function stale(core: SessionCore, from: number, m: SmpAccept | SmpRefuse): void {
  core.counters.staleResponses++;
  core.event({ event: 'dropped', reason: `stale-${m.command.toLowerCase()}`, node: from });
  if (m.command === 'ACCEPT' && core.streams.get(from, 'tx', m.streamID) === undefined) {
    sendClose(core, { remote: from, direction: 'tx', streamID: m.streamID }, m.cos);
  }
}

/** §4.2.4 "inform a requestor that a stream or virtual stream is now open and that the requestor can send data traffic using the StreamID specified". */
export function onAccept(core: SessionCore, from: number, m: SmpAccept): void {
  const answered = answeredOpen(core, from, m);
  if (answered === undefined) return;
  const { job, open } = answered;
  const ref: StreamRef = { remote: from, direction: 'tx', streamID: m.streamID };
  let r = core.streams.byRef(ref);
  if (r === undefined) {
    const attributes = mergeAgreed(open.attributes, m.attributes, m.protoID);
    r = {
      ref,
      key: streamKey(from, 'tx', m.streamID),
      protoID: m.protoID,
      cos: m.cos,
      attributes,
      settings: settingsFromAttributes(attributes, m.protoID, core.defaults),
      openMessageNumber: job.openMessageNumber,
      xoff: false,
    };
    core.streams.add(r);
  }
  // The conduit was closed while its OPEN was out (its other stream closed): the stream opens and closes with it.
  const abandoned = job.conduitId !== undefined && core.conduits.get(job.conduitId) === undefined;
  const conduitStream = job.conduitId === undefined || abandoned ? undefined : conduitStreamOf(m.attributes);
  let conduit: ConduitRecord | undefined;
  let next: ConduitStreamValue | undefined;
  if (conduitStream !== undefined) {
    const res = core.conduits.incomingAccept(from, m.protoID, conduitStream.transmit, conduitStream.receive);
    conduit = res.conduit;
    next = res.open;
    r.conduitId = conduit.id;
  }
  // The answer joined another conduit (a repeat of its exchange), or named none: this OPEN's own record is left over.
  if (job.conduitId !== undefined && conduit?.id !== job.conduitId) core.conduits.remove(job.conduitId);
  core.event(job.byApplication ? { event: 'opened', stream: info(core, r), ref: job.ref } : { event: 'opened', stream: info(core, r) });
  if (conduit !== undefined && next !== undefined) sendConduitOpen(core, from, conduit, next, supportFor(core.config.protocols, m.protoID, open.attributes));
  if (conduit !== undefined) reportConduit(core, conduit.id);
  if (abandoned) closeStream(core, r, 'conduit', true);
}

/**
 * §3.5.1.5 "The REFUSE message contains all the attributes in the OPEN request, in order to allow
 * the OPEN sender to differentiate which OPEN request was refused." After a refused intermediate
 * value, §3.8.2: "the sender must not attempt any other intermediate value for any such attribute,
 * but restrict itself to the values specified. A single attempt at intermediate values may be
 * attempted": the one further attempt planOpenAttempts gives.
 */
export function onRefuse(core: SessionCore, from: number, m: SmpRefuse): void {
  const job = answeredOpen(core, from, m)?.job;
  if (job === undefined) return;
  if (job.attempt === 0 && job.intermediate !== undefined) core.intermediateRefused.add(job.intermediate);
  if (job.attempt + 1 < job.attempts.length) {
    const c = job.conduitId === undefined ? undefined : core.conduits.get(job.conduitId);
    sendOpen(core, from, { ...job, attempt: job.attempt + 1 }, c && { transmit: 0xffff, receive: c.receive });
    return;
  }
  openFailed(core, from, job, 'refused');
}

/** The OPEN is over without a stream: REFUSE, Command_Unknown, or no answer (§3.7.1). */
export function openFailed(core: SessionCore, to: number, job: OpenJob, how: 'refused' | 'timeout'): void {
  if (how === 'refused') core.event({ event: 'refused', ref: job.ref, node: to, protoID: job.protoID });
  else core.event(job.byApplication ? { event: 'timeout', node: to, command: 'OPEN', ref: job.ref } : { event: 'timeout', node: to, command: 'OPEN' });
  // Half a conduit carries nothing back: its stream already open goes too.
  if (job.conduitId !== undefined) closeConduit(core, job.conduitId);
}

export function info(core: SessionCore, r: StreamRecord): ReturnType<typeof streamInfo> {
  return streamInfo(r, conduitPeer(core, r));
}

function conduitPeer(core: SessionCore, r: StreamRecord): StreamRef | undefined {
  const c = r.conduitId === undefined ? undefined : core.conduits.get(r.conduitId);
  if (c === undefined) return undefined;
  const other = r.ref.direction === 'tx' ? core.streams.get(c.remote, 'rx', c.receive) : core.streams.get(c.remote, 'tx', c.transmit);
  return other?.ref;
}

/** §3.4.2 "both the transmit and receive stream IDs for the conduit will be known": the 'conduit' event, once. */
export function reportConduit(core: SessionCore, conduitId: number): void {
  const c = core.conduits.get(conduitId);
  if (c === undefined || !isComplete(c) || core.conduitsReported.has(conduitId)) return;
  const tx = core.streams.get(c.remote, 'tx', c.transmit);
  const rx = core.streams.get(c.remote, 'rx', c.receive);
  if (tx === undefined || rx === undefined) return;
  core.conduitsReported.add(conduitId);
  core.event({ event: 'conduit', tx: tx.ref, rx: rx.ref, protoID: c.protoID });
}
