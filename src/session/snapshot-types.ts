import type { Counters, PendingTimer, Time } from '../engine/contract.ts';
import type { ConduitRecord } from './conduits.ts';
import type { DataReassemblerSnapshot } from './data-formats.ts';
import type { ConduitRole, Contact, SessionCounter, StreamRef, StreamSettings } from './types.ts';

/**
 * What `SessionEngine.snapshot()` gives (Annex 2 session management): plain JSON, byte values as
 * hex strings. Kept apart from types.ts, the engine's inputs and outputs.
 */

/** A stream attribute (§4.2.6) as snapshots show it: the raw value in hex. */
export interface AttributeSnapshot {
  readonly id: number;
  readonly name: string;
  readonly value: string;
}

/** One stream of the stream table; the optional parts only where they apply. */
export interface StreamSnapshot extends StreamRef {
  readonly protoID: number;
  readonly cos: number;
  readonly attributes: readonly AttributeSnapshot[];
  readonly settings: StreamSettings;
  /** tx: XOFF received and not yet released; rx: XOFF sent. */
  readonly xoff: boolean;
  /** The other stream of its conduit. */
  readonly conduitPeer?: StreamRef;
  readonly dataMailbox?: number;
  readonly openMessageNumber?: number;
  /** PDUs waiting on a tx stream (Ethernet pending queue, §7.2). */
  readonly queued?: number;
  /** When the stream last sent RTS without an answer (§3.7.4). */
  readonly rtsSince?: number;
}

/** A request waiting for its answer (retried every retry period until its timeout, §3.7.3). */
export interface PendingRequestSnapshot {
  readonly key: string;
  readonly command: 'REQUEST' | 'OPEN' | 'CLOSE' | 'STATUS';
  readonly to: number;
  readonly started: Time;
  readonly deadline: Time;
  readonly sends: number;
  /** The message as sent, in hex. */
  readonly bytes: string;
  /** OPEN only: the application's reference and the §3.8.2 attempt sent. */
  readonly ref?: string;
  readonly attempt?: number;
}

/** `SessionEngine.snapshot()`. */
export interface SessionEngineSnapshot {
  readonly nodeId: number;
  /** This end point's management contact (§3.3). */
  readonly contact: Contact;
  readonly validation: boolean;
  readonly conduitRole: ConduitRole;
  /** The contacts of remote nodes, by node. */
  readonly contacts: readonly { readonly node: number; readonly contact: Contact }[];
  /** Nodes suspected lost and why, by node. */
  readonly suspects: readonly { readonly node: number; readonly reason: string }[];
  readonly streams: readonly StreamSnapshot[];
  readonly conduits: readonly ConduitRecord[];
  readonly pending: readonly PendingRequestSnapshot[];
  /** ADVERTISE attributes received, by `${node}/${protoID}` (§3.8.2). */
  readonly advertised: readonly { readonly key: string; readonly attributes: readonly AttributeSnapshot[] }[];
  /** `${node}/${protoID}` of the protocols whose intermediate value a node refused: OPENs use the advertised values only (§3.8.2, decision E32). */
  readonly intermediateRefused: readonly string[];
  /** Keys of streams closed and remembered (a late message about one is not an unknown stream). */
  readonly closedStreams: readonly string[];
  /** The receive streamID allocator. */
  readonly streamIds: { readonly inUse: number; readonly next: number };
  /** Multi-message PDUs being rebuilt (DATA, DATA1, DATA2, §4.3). */
  readonly reassembly: DataReassemblerSnapshot;
  readonly timers: readonly PendingTimer[];
  readonly counters: Counters<SessionCounter>;
}
