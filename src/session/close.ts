import { smpClose } from '../wire/smp/index.ts';
import type { SmpClose } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { answerClosed } from './status-rules.ts';
import { stopFlow } from './stream-flow.ts';
import { refKey, streamKey } from './stream-table.ts';
import type { StreamRecord } from './stream-table.ts';
import type { StreamDirection, StreamRef } from './types.ts';

/**
 * CLOSE (Annex 2 §3.5.1.8, §3.6.3, §4.2.7): "Either endpoint may initiate the CLOSE behavior. In
 * the event that the stream or virtual stream is part of a conduit, both streams or virtual
 * streams must be closed at the same time."
 */
export type CloseCause = 'local' | 'remote' | 'status-timeout' | 'stream-unknown' | 'conduit' | 'peer-lost';

export function closeKey(ref: StreamRef): string {
  return `close/${refKey(ref)}`;
}

/**
 * Forgets a stream here. §3.5.1.8 "After sending a CLOSE message, the system must be able to
 * receive, without error, messages in transit at the time the CLOSE was sent. Such messages may be
 * dropped": the stream is remembered as closed, and its late DATA is discarded (Figure 3-3).
 */
function forget(core: SessionCore, r: StreamRecord, cause: CloseCause): void {
  core.streams.remove(r);
  if (r.ref.direction === 'rx') {
    core.rxIds.free(r.ref.streamID);
    core.reassembler.dropStream(r.ref.remote, r.ref.streamID);
  }
  stopFlow(core, r);
  core.pending.resolve(`status/${r.key}`, core.out);
  core.event({ event: 'closed', stream: r.ref, cause });
}

/**
 * CLOSE names the stream by its data sender: "Regardless of which endpoint initiates the CLOSE,
 * the SourceID indicates the node sending data" (§4.2.7). Sent with retries until STATUS Closed
 * answers it (§3.7.1), at the stream's negotiated periods.
 */
export function sendClose(core: SessionCore, ref: StreamRef, cos: number, periods?: { readonly retry: number; readonly timeout: number }): void {
  const self = core.config.nodeId;
  const sender = ref.direction === 'tx' ? self : ref.remote;
  const receiver = ref.direction === 'tx' ? ref.remote : self;
  const m = smpClose({ sourceID: sender, destID: receiver, cos, streamID: ref.streamID });
  core.request(closeKey(ref), ref.remote, m, { command: 'CLOSE', stream: ref }, periods);
}

/**
 * Closes a stream here, and its conduit: "When the stream is part of a conduit, the conduit should
 * be closed" (§3.5.1.8). `tell` sends CLOSE for this stream; the conduit's other stream always
 * gets a CLOSE (the remote may not know that the pair goes together).
 */
export function closeStream(core: SessionCore, r: StreamRecord, cause: CloseCause, tell: boolean): void {
  if (!core.streams.byRef(r.ref)) return;
  forget(core, r, cause);
  if (tell) sendClose(core, r.ref, r.cos, { retry: r.settings.retryPeriod, timeout: r.settings.timeoutPeriod });
  if (r.conduitId !== undefined) closeConduit(core, r.conduitId);
}

/** Both streams of a conduit go, and the conduit record with them. */
export function closeConduit(core: SessionCore, conduitId: number): void {
  const c = core.conduits.get(conduitId);
  core.conduits.remove(conduitId);
  core.conduitsReported.delete(conduitId);
  if (c === undefined) return;
  for (const [direction, id] of [['tx', c.transmit], ['rx', c.receive]] as const) {
    const other = core.streams.get(c.remote, direction, id);
    if (other !== undefined && other.conduitId === conduitId) closeStream(core, other, 'conduit', true);
  }
}

export function closeCommand(core: SessionCore, ref: StreamRef): void {
  const r = core.streams.byRef(ref);
  if (r === undefined) {
    core.event({ event: 'dropped', reason: 'unknown-stream', node: ref.remote, stream: ref });
    return;
  }
  closeStream(core, r, 'local', true);
}

/**
 * A CLOSE received: §3.5.1.8 "After reception of a CLOSE message, the stream specified must no
 * longer be used"; §4.2.7 "the receiver of the CLOSE must reply with a STATUS message indicating
 * that the StreamID has been closed". The NOTE "The stream may or may not exist at either the
 * source or destination" makes the reply due for an unknown stream too (a decision: it says
 * Closed, which is true of a stream this end point does not hold).
 */
export function onClose(core: SessionCore, from: number, m: SmpClose): void {
  const direction: StreamDirection = m.sourceID === core.config.nodeId ? 'tx' : 'rx';
  const r = core.streams.get(from, direction, m.streamID);
  // Both ends closing at once: the remote's CLOSE settles ours.
  core.pending.resolve(`close/${streamKey(from, direction, m.streamID)}`, core.out);
  if (r !== undefined) closeStream(core, r, 'remote', false);
  answerClosed(core, from, m.streamID, m.cos);
}

/**
 * The node is known to be gone (decision FF4: the switch reports its port uninitialized, Part 6
 * §7.6.10). As for a STATUS query without an answer, "the streamID specified in the STATUS command
 * must be silently closed locally, and the remote node must be considered suspect" (§3.7.1), here
 * for every stream to the node at once: each is closed locally with cause 'peer-lost' and no CLOSE
 * is sent (the node cannot take it, and a CLOSE left retrying would only time out); the node's
 * conduits go with their streams, and the node becomes suspect with `reason`.
 */
export function peerLost(core: SessionCore, node: number, reason: string): void {
  for (const r of core.streams.toRemote(node)) if (core.streams.byRef(r.ref)) forget(core, r, 'peer-lost');
  for (const c of core.conduits.ofRemote(node)) {
    core.conduits.remove(c.id);
    core.conduitsReported.delete(c.id);
  }
  core.suspect(node, reason);
}
