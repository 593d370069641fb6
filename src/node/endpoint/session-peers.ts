/**
 * What a session management end point knows of each destination its flows send to, and of each
 * flow's wait for its stream (session.ts). Annex 2 §2.3: "The data streaming process is
 * separated into two phases, with the management phase separated from the data phase": a flow's
 * data phase starts when the stream to its destination is open.
 */
import type { TxFlow } from './flows.ts';

/**
 * Where the management phase with one destination stands. The first six are steps of Figure 3-1
 * (discovery §3.3, REQUEST/ADVERTISE §3.5.1.1–§3.5.1.2, OPEN §3.5.1.3, ACCEPT); the others end it
 * without a stream, and its flows stay held.
 */
export type PeerState =
  /** Known, discovery not started yet (the end point has not started). */
  | 'idle'
  | 'discovering'
  /**
   * Discovered, no stream wanted: a node that opened a stream to this one, discovered so that this
   * end point can send it management messages of its own (Figure 3-1: the Dest reads the Session
   * Mgmt CSR of the Source).
   */
  | 'discovered'
  | 'requesting'
  | 'opening'
  | 'open'
  /** REFUSE (§3.5.1.5). */
  | 'refused'
  /** ADVERTISE with S=0: "the protocol is not supported" (§4.2.2). */
  | 'unsupported'
  /** Its registers advertise no session management (§3.2, §5.3). */
  | 'not-participating'
  /** Discovery's reads failed or found no conveyance in common (§3.3). */
  | 'unreachable'
  /** REQUEST or OPEN unanswered after REQUEST_TIMEOUT_PERIOD (§3.5.3.5, §3.7.1). */
  | 'timeout'
  /** The stream was closed (§3.5.1.8 CLOSE, or §3.8.3 Stream_Unknown): "the stream is no longer open". */
  | 'closed';

export interface FlowRecord {
  readonly flow: TxFlow;
  readonly createdAt: number;
  /** When the flow's stream opened (its management phase ended), null while it waits. */
  openedAt: number | null;
  /** When its first data packet left, null before. */
  firstPacketAt: number | null;
}

export interface Peer {
  readonly node: number;
  state: PeerState;
  /** When `state` was entered. */
  since: number;
  /** The transmit stream, when open. */
  streamID: number | null;
  readonly flows: FlowRecord[];
}

export function newPeer(node: number, now: number): Peer {
  return { node, state: 'idle', since: now, streamID: null, flows: [] };
}

/** The OPEN's application handle: one stream per destination, whatever the flows' priorities. */
export function openRef(node: number): string {
  return `dst:${node}`;
}

/** The destination an OPEN handle names, or undefined for a handle this feature did not give. */
export function refNode(ref: string | undefined): number | undefined {
  if (ref === undefined || !ref.startsWith('dst:')) return undefined;
  const n = Number(ref.slice(4));
  return Number.isSafeInteger(n) ? n : undefined;
}

export function peerSnapshot(p: Peer): Record<string, unknown> {
  return { node: p.node, state: p.state, since: p.since, streamID: p.streamID, flows: p.flows.map((f) => f.flow.index) };
}

export function flowSnapshot(r: FlowRecord): Record<string, unknown> {
  return {
    flow: r.flow.index,
    dst: r.flow.dst,
    createdAt: r.createdAt,
    openedAt: r.openedAt,
    setup: r.openedAt === null ? null : r.openedAt - r.createdAt,
    firstPacketAt: r.firstPacketAt,
  };
}
