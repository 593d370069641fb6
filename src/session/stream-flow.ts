import { SMP_COMMAND, smpBytes, smpFlowControl, streamIdUse } from '../wire/smp/index.ts';
import type { SmpFlowControl } from '../wire/smp/index.ts';
import type { SessionCore } from './core.ts';
import { dataContact, transmitPdu, transmitUnopened } from './data-tx.ts';
import { ETHERNET_PROTO_ID, PendingQueue } from './ethernet.ts';
import { answerStreamUnknown } from './status-rules.ts';
import type { StreamRecord } from './stream-table.ts';
import type { StreamRef } from './types.ts';

/**
 * FLOW_CONTROL (Annex 2 §3.5.1.6, §3.6.5, §4.2.6). The data receiver sends XON and XOFF; the data
 * sender "can use RTS to inform the stream owner (data receiver) that data is available to be
 * sent". "The default state when a stream is opened is for traffic to be enabled."
 */

const XON_PREFIX = 'xon:';
const RTS_PREFIX = 'rts:';

export function xonTimer(r: StreamRecord): string {
  return XON_PREFIX + r.key;
}
export function rtsTimer(r: StreamRecord): string {
  return RTS_PREFIX + r.key;
}

/** The stream key a flow timer belongs to, and which timer it is. */
export function flowTimerOf(name: string): { readonly timer: 'xon' | 'rts'; readonly key: string } | undefined {
  if (name.startsWith(XON_PREFIX)) return { timer: 'xon', key: name.slice(XON_PREFIX.length) };
  if (name.startsWith(RTS_PREFIX)) return { timer: 'rts', key: name.slice(RTS_PREFIX.length) };
  return undefined;
}

function flowMessage(core: SessionCore, r: StreamRecord, flow: 'XON' | 'XOFF' | 'RTS'): SmpFlowControl {
  return smpFlowControl({ flowControl: flow, cos: r.cos, sourceID: core.config.nodeId, streamID: r.ref.streamID, protoID: r.protoID });
}

/** The application's PDU for a transmit stream. */
export function sendCommand(core: SessionCore, ref: StreamRef, pdu: Uint8Array): void {
  const r = ref.direction === 'tx' ? core.streams.byRef(ref) : undefined;
  if (r === undefined) {
    if (ref.direction === 'tx' && streamIdUse(ref.streamID) === 'VENDOR_SPECIFIC') {
      transmitUnopened(core, ref, pdu);
      return;
    }
    core.counters.pdusDropped++;
    core.event({ event: 'dropped', reason: 'unknown-stream', node: ref.remote, stream: ref });
    return;
  }
  if (r.xoff) hold(core, r, pdu);
  else transmitPdu(core, r, pdu);
}

/**
 * Under XOFF the PDU waits. §7.3.1 (Ethernet): "the node must retain at least one pending message
 * for transmission, however it may choose to drop additional messages. The pending message(s)
 * should be the most recent message(s), and older messages should be dropped"; other protocols
 * keep the oldest `maxPendingPdus` and drop new ones. §4.2.6: "Once an RTS message is sent,
 * additional RTS messages must not be sent to indicate that additional data is available. A single
 * RTS message is sufficient."
 */
function hold(core: SessionCore, r: StreamRecord, pdu: Uint8Array): void {
  r.queue ??= new PendingQueue(r.protoID === ETHERNET_PROTO_ID ? 'keep-newest' : 'bounded', core.config.maxPendingPdus);
  const dropped = r.queue.push(pdu).length;
  for (let i = 0; i < dropped; i++) {
    core.counters.pdusDropped++;
    core.event({ event: 'dropped', reason: 'xoff-queue-full', node: r.ref.remote, stream: r.ref });
  }
  if (r.rtsSince !== undefined) return;
  r.rtsSince = core.now;
  sendRts(core, r);
  armRts(core, r);
}

function sendRts(core: SessionCore, r: StreamRecord): void {
  const contact = dataContact(core, r.ref.remote, r.settings);
  const m = flowMessage(core, r, 'RTS');
  if (contact === undefined) core.event({ event: 'dropped', reason: 'no-contact', node: r.ref.remote, stream: r.ref });
  else core.emit(r.ref.remote, contact, m, smpBytes(m));
}

/** §4.2.6 "the sender of a FLOW_CONTROL command RTS may retry the message at 250 msec intervals, until 1 second has elapsed." */
function armRts(core: SessionCore, r: StreamRecord): void {
  const since = r.rtsSince ?? core.now;
  const next = core.now + core.config.rtsRetry;
  if (next - since < core.config.rtsLimit) core.timers.arm(rtsTimer(r), next, core.out);
}

export function rtsExpired(core: SessionCore, r: StreamRecord): void {
  if (!r.xoff || r.rtsSince === undefined || (r.queue?.size ?? 0) === 0) return;
  core.counters.retries++;
  sendRts(core, r);
  armRts(core, r);
}

/**
 * A FLOW_CONTROL received. XON and XOFF come from the receiver of a stream we transmit on; RTS
 * from the sender of one we receive. §3.8.3: "If any DATA or FLOW_CONTROL command is received,
 * which specifies a VSID which the recipient does not understand, the recipient must respond with a
 * STATUS command indicating that the VSID is unknown."
 */
export function onFlowControl(core: SessionCore, from: number, m: SmpFlowControl): void {
  const rts = m.flowControlName === 'RTS';
  const r = core.streams.get(from, rts ? 'rx' : 'tx', m.streamID);
  if (r === undefined) {
    answerStreamUnknown(core, from, m.streamID, SMP_COMMAND.FLOW_CONTROL, m.ver);
    return;
  }
  if (rts) {
    core.event({ event: 'rts', stream: r.ref });
  } else if (m.flowControlName === 'XOFF') {
    // §3.7.1 "it may be necessary to handle to receive repeated FLOW_CONTROL XOFF messages": each
    // restarts the FLOW_CONTROL_XON_TIMEOUT ("from the time a FLOW CONTROL XOFF request is received
    // until another FLOW CONTROL XOFF/XON message must be received", §3.5.3.6).
    r.xoff = true;
    core.timers.arm(xonTimer(r), core.now + r.settings.xonTimeout, core.out);
    core.event({ event: 'xoff', stream: r.ref });
  } else {
    // §4.2.6 "it is possible to receive a FLOW-CONTROL command with XON flow when no previous
    // FLOW-CONTROL command with XOFF flow has been received": harmless.
    release(core, r, 'xon');
  }
}

/** §3.5.3.6 "In the event that a FLOW CONTROL XOFF/XON message is not received in the timeout interval, transmission of the XOFF'ed stream should resume." */
export function xonExpired(core: SessionCore, r: StreamRecord): void {
  if (r.xoff) release(core, r, 'xon-timeout');
}

function release(core: SessionCore, r: StreamRecord, why: 'xon' | 'xon-timeout'): void {
  r.xoff = false;
  r.rtsSince = undefined;
  core.timers.cancel(xonTimer(r), core.out);
  core.timers.cancel(rtsTimer(r), core.out);
  core.event({ event: why, stream: r.ref });
  const q = r.queue;
  if (q === undefined) return;
  for (let pdu = q.shift(); pdu !== undefined; pdu = q.shift()) transmitPdu(core, r, pdu);
}

/**
 * The application, as receiver of a stream, turns it off or on (§4.2.6 "use the XON command to
 * enable data traffic. Second, use the XOFF command to suspend data traffic"). "No node is
 * required to initiate FLOW-CONTROL": this end point sends it only when told to.
 */
export function flowCommand(core: SessionCore, kind: 'xoff' | 'xon', ref: StreamRef): void {
  const r = ref.direction === 'rx' ? core.streams.byRef(ref) : undefined;
  if (r === undefined) {
    core.event({ event: 'dropped', reason: ref.direction === 'rx' ? 'unknown-stream' : 'flow-control-is-sent-by-the-receiver', node: ref.remote, stream: ref });
    return;
  }
  r.xoff = kind === 'xoff';
  core.sendTo(r.ref.remote, flowMessage(core, r, kind === 'xoff' ? 'XOFF' : 'XON'));
}

/** A closed stream's flow state goes: its timers, and PDUs still held (counted as dropped). */
export function stopFlow(core: SessionCore, r: StreamRecord): void {
  core.timers.cancel(xonTimer(r), core.out);
  core.timers.cancel(rtsTimer(r), core.out);
  const held = r.queue?.clear() ?? [];
  if (held.length > 0) {
    core.counters.pdusDropped += held.length;
    core.event({ event: 'dropped', reason: `stream-closed: ${held.length} held PDU(s)`, node: r.ref.remote, stream: r.ref });
  }
}
