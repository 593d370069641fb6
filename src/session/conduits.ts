import { oneOf } from '../engine/config-checks.ts';
import type { ConduitRole, StreamDirection } from './types.ts';

/**
 * Conduits (Annex 2 §3.4): "a pair of unidirectional streams for transferring data for a single
 * protocol between two end points", linked by the CONDUIT_STREAM attribute of OPEN and ACCEPT.
 * `ConduitTable` is the local structure of §3.4.3 and its three entry points,
 * process_incoming_open(), process_incoming_accept() and create_conduit(); the engine sends the
 * OPEN and ACCEPT messages the results describe.
 *
 * CONDUIT_STREAM carries the message sender's own view: "The first sixteen bits are used to
 * indicate the stream ID of the stream which the sender of the OPEN or ACCEPT will use to transmit
 * data on. The last sixteen bits ... to receive data on. The value of 0xFFFF for either field
 * indicates that the specified stream ID was not known" (§3.5.3.8). The sender's transmit stream
 * is this end point's receive stream and the other way round.
 */

/** "The value of 0xFFFF for either field indicates that the specified stream ID was not known" (§3.5.3.8). */
export const NO_STREAM = 0xffff;

/** A conduit (§3.4): the pair of streams, one each way, this end point has with `remote` for `protoID`. */
export interface ConduitRecord {
  readonly id: number;
  readonly remote: number;
  readonly protoID: number;
  /** The stream this end point transmits on (allocated by the remote); 0xFFFF while unknown. */
  readonly transmit: number;
  /** The stream this end point receives on (allocated here); 0xFFFF while unknown. */
  readonly receive: number;
  /** §3.4.3 OPEN_SENT: this end point has sent its own OPEN for the conduit. */
  readonly openSent: boolean;
}

/** CONDUIT_STREAM of a message this end point sends: its own transmit and receive streamIDs. */
export interface ConduitStreamValue {
  readonly transmit: number;
  readonly receive: number;
}

export type IncomingOpenResult =
  | {
      readonly ok: true;
      readonly conduit: ConduitRecord;
      /** ACCEPT with this streamID and CONDUIT_STREAM = transmit‖receive */
      readonly accept: { readonly streamID: number; readonly transmit: number; readonly receive: number };
      /** then send our own OPEN with CONDUIT_STREAM = transmit‖receive (transmit is 0xFFFF) */
      readonly open?: ConduitStreamValue;
      /** both streamIDs known: the conduit is complete */
      readonly complete: boolean;
    }
  | { readonly ok: false; readonly reason: 'no-stream-ids' | 'slave-without-record' | 'master-without-record' };

export interface IncomingAcceptResult {
  readonly conduit: ConduitRecord;
  readonly open?: ConduitStreamValue;
  /** both streamIDs known: the conduit is complete */
  readonly complete: boolean;
}

export type CreateResult =
  | { readonly ok: true; readonly conduit: ConduitRecord; readonly open: ConduitStreamValue }
  | { readonly ok: false; readonly reason: 'slave-may-not-initiate' }
  /** A conduit with this node and protocol is already being established: create_conduit finds it and sends nothing. */
  | { readonly ok: false; readonly reason: 'conduit-pending'; readonly conduit: ConduitRecord };

interface Conduit {
  readonly id: number;
  readonly remote: number;
  readonly protoID: number;
  transmit: number;
  receive: number;
  openSent: boolean;
}

export function isComplete(c: Pick<ConduitRecord, 'transmit' | 'receive'>): boolean {
  return c.transmit !== NO_STREAM && c.receive !== NO_STREAM;
}

function copy(c: Conduit): ConduitRecord {
  return { id: c.id, remote: c.remote, protoID: c.protoID, transmit: c.transmit, receive: c.receive, openSent: c.openSent };
}

/**
 * How well a conduit matches find_partial_conduit(remote, proto, remXmit, remRcv): undefined for
 * no match, else the number of streamIDs that matched by being identical. "If the streamID
 * specified in the call is 0xFFFF, then any streamID matches. If the streamID specified in the
 * call is not 0xFFFF but the streamID in the local structure is 0xFFFF, then the streamID matches.
 * If neither is 0xFFFF, then the values must be identical for them to match" (§3.4.3). The call
 * passes the sender's streamIDs, so the sender's transmit is held against the local receive and
 * the sender's receive against the local transmit ("it must be the streamID that the master uses
 * to transmit data on that conduit", §3.4.1).
 *
 * A complete conduit is not partial: it matches only a message naming one of its streams, i.e. a
 * repeat of its own exchange. A first OPEN (0xFFFFFFFF) says "no previous negotiation has already
 * been performed" (§3.4.1), so it never joins a complete conduit.
 */
function matchScore(c: Conduit, remXmit: number, remRcv: number): number | undefined {
  let score = 0;
  for (const [given, local] of [[remXmit, c.receive], [remRcv, c.transmit]] as const) {
    if (given === NO_STREAM || local === NO_STREAM) continue;
    if (given !== local) return undefined;
    score++;
  }
  return isComplete(c) && score === 0 ? undefined : score;
}

/**
 * The conduits this end point has with remote end points (§3.4). Every method is total: protocol
 * input never throws. Repeated OPENs are matched by the engine through OPEN_MESSAGE_NUMBER; a
 * repeat that still reaches the table is answered with the streams already recorded.
 */
export class ConduitTable {
  readonly #role: ConduitRole;
  readonly #conduits = new Map<number, Conduit>();
  #nextId = 1;

  constructor(role: ConduitRole) {
    this.#role = oneOf(role, ['peers', 'master', 'slave'], 'conduitRole', 'or');
  }

  get role(): ConduitRole {
    return this.#role;
  }

  /**
   * find_partial_conduit (§3.4.3) with the sender's streamIDs. Among several matches the one with
   * the most identical streamIDs wins, then the oldest.
   */
  find(remote: number, protoID: number, remXmit: number, remRcv: number): ConduitRecord | undefined {
    const c = this.#find(remote, protoID, remXmit, remRcv);
    return c === undefined ? undefined : copy(c);
  }

  #find(remote: number, protoID: number, remXmit: number, remRcv: number): Conduit | undefined {
    let best: Conduit | undefined;
    let bestScore = -1;
    for (const c of this.#conduits.values()) {
      if (c.remote !== remote || c.protoID !== protoID) continue;
      const s = matchScore(c, remXmit, remRcv);
      if (s !== undefined && s > bestScore) {
        best = c;
        bestScore = s;
      }
    }
    return best;
  }

  #newConduit(remote: number, protoID: number): Conduit {
    const c: Conduit = { id: this.#nextId++, remote, protoID, transmit: NO_STREAM, receive: NO_STREAM, openSent: false };
    this.#conduits.set(c.id, c);
    return c;
  }

  /** process_incoming_open (§3.4.3). `alloc()` gives a new local receive streamID (undefined = none left). */
  incomingOpen(remote: number, protoID: number, remXmit: number, remRcv: number, alloc: () => number | undefined): IncomingOpenResult {
    const found = this.#find(remote, protoID, remXmit, remRcv);
    if (found === undefined) {
      // §3.4.1: the master "is always responsible for initiating conduit establishment" and, when
      // "no such data record is found, the master may respond with REFUSE".
      if (this.#role === 'master') return { ok: false, reason: 'master-without-record' };
      // The slave answers the master's first OPEN (0xFFFFFFFF); any later OPEN needs its record.
      if (this.#role === 'slave' && (remXmit !== NO_STREAM || remRcv !== NO_STREAM)) return { ok: false, reason: 'slave-without-record' };
    }
    // A receive stream already recorded is sent again ("ACCEPT responses which all specify the
    // same stream", §3.5.1.4); a second allocation would leave the first stream orphaned.
    const recorded = found !== undefined && found.receive !== NO_STREAM ? found.receive : undefined;
    const streamID = recorded ?? alloc();
    if (streamID === undefined) return { ok: false, reason: 'no-stream-ids' };
    let c: Conduit;
    if (found === undefined) {
      c = this.#newConduit(remote, protoID);
      c.transmit = remRcv; // local_xmit = rem_rcv
    } else {
      c = found;
    }
    c.receive = streamID;
    const localXmit = c.transmit;
    const accept = { streamID, transmit: localXmit, receive: streamID };
    // §3.4.3 sends our OPEN when local_xmit is 0xFFFF; OPEN_SENT also holds it back when our own
    // OPEN is already out: §3.4.2 node P "will note that stream against its own attempt to
    // establish the conduit" rather than open a second stream.
    if (localXmit === NO_STREAM && !c.openSent) {
      c.openSent = true;
      return { ok: true, conduit: copy(c), accept, open: { transmit: NO_STREAM, receive: streamID }, complete: false };
    }
    return { ok: true, conduit: copy(c), accept, complete: isComplete(c) };
  }

  /**
   * process_incoming_accept (§3.4.3): the ACCEPT of one of our conduit OPENs. `remRcv` is the
   * ACCEPT's CONDUIT_STREAM receive field, the stream the ACCEPT names for us to transmit on.
   */
  incomingAccept(remote: number, protoID: number, remXmit: number, remRcv: number): IncomingAcceptResult {
    const localXmit = remRcv;
    const found = this.#find(remote, protoID, remXmit, remRcv);
    let c: Conduit;
    if (found === undefined) {
      c = this.#newConduit(remote, protoID);
      c.receive = remXmit;
    } else {
      c = found;
      if (c.receive === NO_STREAM) c.receive = remXmit;
    }
    c.transmit = localXmit;
    if (!c.openSent) {
      c.openSent = true;
      return { conduit: copy(c), open: { transmit: NO_STREAM, receive: c.receive }, complete: isComplete(c) };
    }
    return { conduit: copy(c), complete: isComplete(c) };
  }

  /**
   * create_conduit (§3.4.3): our first OPEN, CONDUIT_STREAM 0xFFFFFFFF ("indicating that no previous
   * negotiation has already been performed for this protocol between these two end points",
   * §3.4.1). "the slave may only send the corresponding OPEN message after receiving the OPEN
   * message from the master" (§3.4). A conduit already being established is found and left alone.
   */
  create(remote: number, protoID: number): CreateResult {
    if (this.#role === 'slave') return { ok: false, reason: 'slave-may-not-initiate' };
    const pending = this.#find(remote, protoID, NO_STREAM, NO_STREAM);
    if (pending !== undefined) return { ok: false, reason: 'conduit-pending', conduit: copy(pending) };
    const c = this.#newConduit(remote, protoID);
    c.openSent = true;
    return { ok: true, conduit: copy(c), open: { transmit: NO_STREAM, receive: NO_STREAM } };
  }

  /** The conduit holding this local stream (to close both streams together, §3.5.1.8, §4.2.7). */
  byStream(remote: number, direction: StreamDirection, streamID: number): ConduitRecord | undefined {
    if (streamID === NO_STREAM) return undefined;
    for (const c of this.#conduits.values()) {
      if (c.remote === remote && (direction === 'tx' ? c.transmit : c.receive) === streamID) return copy(c);
    }
    return undefined;
  }

  get(id: number): ConduitRecord | undefined {
    const c = this.#conduits.get(id);
    return c === undefined ? undefined : copy(c);
  }

  remove(id: number): void {
    this.#conduits.delete(id);
  }

  /** Every conduit of a node (a suspect or rebooted node's conduits are closed together, §3.8.3). */
  ofRemote(remote: number): readonly ConduitRecord[] {
    return [...this.#conduits.values()].filter((c) => c.remote === remote).map(copy);
  }

  snapshot(): readonly ConduitRecord[] {
    return [...this.#conduits.values()].map(copy);
  }
}
