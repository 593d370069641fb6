import { toHex } from '../wire/hex.ts';
import type { SmpAttribute } from '../wire/smp/attributes.ts';
import type { SmpAccept } from '../wire/smp/open-accept-refuse.ts';
import type { PendingQueue } from './ethernet.ts';
import type { StreamSnapshot } from './snapshot-types.ts';
import type { StreamDirection, StreamInfo, StreamRef, StreamSettings } from './types.ts';

/**
 * The streams this end point holds, by (remote, direction, streamID): "The combination of
 * <SourceID><DestID><ProtoID><StreamID> must always be unique in the system" (Annex 2 §3.5.2.5);
 * for one remote, the direction says which of the two nodes is the SourceID.
 */
export interface StreamRecord {
  readonly ref: StreamRef;
  readonly key: string;
  readonly protoID: number;
  readonly cos: number;
  readonly attributes: readonly SmpAttribute[];
  readonly settings: StreamSettings;
  /** rx: the OPEN_MESSAGE_NUMBER of the OPEN it answers, so a repeated OPEN gets the same ACCEPT. */
  readonly openMessageNumber?: number;
  /** rx: the ACCEPT sent (re-sent unchanged for a retried OPEN, §3.7.1). */
  accept?: SmpAccept;
  /** rx DATA2 streams: the mailbox dedicated to the stream (§4.3.3: DATA2 carries no StreamID). */
  readonly dataMailbox?: number;
  /** The ConduitTable record the stream belongs to. */
  conduitId?: number;
  /** tx: XOFF received and not released; rx: XOFF sent. */
  xoff: boolean;
  /** tx: PDUs held while XOFF'd (§7.3.1). */
  queue?: PendingQueue;
  /** tx: when the one RTS of this XOFF was first sent (§4.2.6), undefined before. */
  rtsSince?: number | undefined;
}

export function streamKey(remote: number, direction: StreamDirection, streamID: number): string {
  return `${remote}/${direction}/${streamID}`;
}

function openIndex(remote: number, protoID: number, openMessageNumber: number): string {
  return `${remote}/${protoID}/${openMessageNumber}`;
}

export function refKey(r: StreamRef): string {
  return streamKey(r.remote, r.direction, r.streamID);
}

/** How many closed streams are remembered so that late DATA is discarded quietly (Figure 3-3). */
export const CLOSED_MEMORY = 1024;

export class StreamTable {
  readonly #streams = new Map<string, StreamRecord>();
  readonly #closed = new Set<string>();
  /** rx streams by `${remote}/${protoID}/${openMessageNumber}`, so a repeated OPEN is found at once. */
  readonly #byOpen = new Map<string, StreamRecord>();

  add(r: StreamRecord): void {
    this.#streams.set(r.key, r);
    this.#closed.delete(r.key);
    if (r.ref.direction === 'rx' && r.openMessageNumber !== undefined) this.#byOpen.set(openIndex(r.ref.remote, r.protoID, r.openMessageNumber), r);
  }

  get(remote: number, direction: StreamDirection, streamID: number): StreamRecord | undefined {
    return this.#streams.get(streamKey(remote, direction, streamID));
  }

  byKey(key: string): StreamRecord | undefined {
    return this.#streams.get(key);
  }

  byRef(r: StreamRef): StreamRecord | undefined {
    return this.#streams.get(refKey(r));
  }

  /**
   * A stream named by a message that does not say which node sends its data (STATUS). Receive
   * streamIDs are chosen never to equal a transmit streamID held to the same node (see
   * `avoidTx`), so at most one matches unless both were assigned at the same moment.
   */
  either(remote: number, streamID: number, prefer: StreamDirection = 'rx'): StreamRecord | undefined {
    const other: StreamDirection = prefer === 'rx' ? 'tx' : 'rx';
    return this.get(remote, prefer, streamID) ?? this.get(remote, other, streamID);
  }

  /** rx DATA2 stream of `remote` by its dedicated mailbox. */
  byDataMailbox(remote: number, mailbox: number): StreamRecord | undefined {
    for (const r of this.#streams.values()) if (r.ref.remote === remote && r.ref.direction === 'rx' && r.dataMailbox === mailbox) return r;
    return undefined;
  }

  /**
   * Whether a transmit stream to `remote` uses `streamID`, or did lately (the remote may not have
   * closed its end yet): receive streamIDs avoid both (see `either`).
   */
  avoidTx(remote: number): (id: number) => boolean {
    return (id) => {
      const k = streamKey(remote, 'tx', id);
      return this.#streams.has(k) || this.#closed.has(k);
    };
  }

  mailboxInUse(mailbox: number): boolean {
    for (const r of this.#streams.values()) if (r.dataMailbox === mailbox) return true;
    return false;
  }

  /** The rx stream a node's OPEN with this OPEN_MESSAGE_NUMBER created, if still open. */
  byOpenMessage(remote: number, protoID: number, openMessageNumber: number): StreamRecord | undefined {
    return this.#byOpen.get(openIndex(remote, protoID, openMessageNumber));
  }

  /**
   * An rx stream of `remote` for `protoID` outside any conduit (§3.5.1.4 single session); `same`
   * narrows it to one protocol among several sharing the ProtoID (vendor-defined, §6.2).
   */
  singleSession(remote: number, protoID: number, same: (r: StreamRecord) => boolean = () => true): StreamRecord | undefined {
    for (const r of this.#streams.values()) {
      if (r.ref.remote === remote && r.ref.direction === 'rx' && r.protoID === protoID && r.conduitId === undefined && same(r)) return r;
    }
    return undefined;
  }

  remove(r: StreamRecord): void {
    if (!this.#streams.delete(r.key)) return;
    if (r.ref.direction === 'rx' && r.openMessageNumber !== undefined) {
      const k = openIndex(r.ref.remote, r.protoID, r.openMessageNumber);
      if (this.#byOpen.get(k) === r) this.#byOpen.delete(k);
    }
    this.#closed.add(r.key);
    if (this.#closed.size > CLOSED_MEMORY) {
      const oldest = this.#closed.values().next().value;
      if (oldest !== undefined) this.#closed.delete(oldest);
    }
  }

  /** Closed lately: DATA for it is discarded, not answered (Figure 3-3 "Discard DATA for a closed stream"). */
  wasClosed(remote: number, direction: StreamDirection, streamID: number): boolean {
    return this.#closed.has(streamKey(remote, direction, streamID));
  }

  toRemote(remote: number): StreamRecord[] {
    return this.all().filter((r) => r.ref.remote === remote);
  }

  /** Every stream, ordered by remote, direction (rx first) and streamID. */
  all(): StreamRecord[] {
    return [...this.#streams.values()].sort(
      (a, b) => a.ref.remote - b.ref.remote || (a.ref.direction === b.ref.direction ? 0 : a.ref.direction === 'rx' ? -1 : 1) || a.ref.streamID - b.ref.streamID,
    );
  }

  get size(): number {
    return this.#streams.size;
  }

  closedKeys(): string[] {
    return [...this.#closed];
  }
}

export function streamInfo(r: StreamRecord, conduitPeer: StreamRef | undefined): StreamInfo {
  const base = { ...r.ref, protoID: r.protoID, cos: r.cos, attributes: r.attributes, settings: r.settings, xoff: r.xoff };
  return conduitPeer === undefined ? base : { ...base, conduitPeer };
}

/** A plain, JSON-serialisable view of a stream for `snapshot()`. */
export function streamJson(r: StreamRecord, conduitPeer: StreamRef | undefined): StreamSnapshot {
  return {
    ...r.ref,
    protoID: r.protoID,
    cos: r.cos,
    attributes: r.attributes.map((a) => ({ id: a.id, name: a.name, value: toHex(a.value) })),
    settings: r.settings,
    xoff: r.xoff,
    ...(conduitPeer && { conduitPeer }),
    ...(r.dataMailbox !== undefined && { dataMailbox: r.dataMailbox }),
    ...(r.openMessageNumber !== undefined && { openMessageNumber: r.openMessageNumber }),
    ...(r.queue && { queued: r.queue.size }),
    ...(r.rtsSince !== undefined && { rtsSince: r.rtsSince }),
  };
}
