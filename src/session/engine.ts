import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { attempt } from '../wire/errors.ts';
import { toHex } from '../wire/hex.ts';
import { smpUserDefined } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { closeCommand, onClose, peerLost } from './close.ts';
import { SessionCore } from './core.ts';
import { onData, onPdu } from './data-rx.ts';
import { broadcast } from './data-tx.ts';
import { checkContact, resolveSessionConfig } from './engine-config.ts';
import { onOpen } from './open-receive.ts';
import { refuse } from './open-refuse.ts';
import { onAccept, onRefuse, openCommand, openFailed } from './open-send.ts';
import { prioritise } from './outbox.ts';
import { pendingOfTimer } from './pending.ts';
import { onAdvertise, onRequest, requestCommand } from './request.ts';
import { onStatus, queryTimedOut, statusQueryCommand, verify } from './status.ts';
import { answerCommandUnknown } from './status-rules.ts';
import { flowCommand, flowTimerOf, onFlowControl, rtsExpired, sendCommand, xonExpired } from './stream-flow.ts';
import { streamJson } from './stream-table.ts';
import { DOUBLE_WORD } from './type11-mailbox.ts';
import type { Contact, SessionConfig, SessionCounter, SessionInput, SessionOutput, UserDefinedCommand } from './types.ts';
import type { SessionEngineSnapshot } from './snapshot-types.ts';
import { receive } from './validation.ts';

/**
 * The Annex 2 session management end point: one node's management process (Chapter 3), its
 * messages (Chapter 4) and the data of its streams (§4.3, Chapter 7). See types.ts for the inputs
 * and outputs; the work is done by the modules imported above, over the shared `SessionCore`.
 *
 * Outputs of one input come in the order they were caused, except that every high-priority send
 * (ACCEPT, CLOSE, FLOW_CONTROL, STATUS) precedes every normal one (§3.7.2).
 *
 * @example
 * ```ts
 * import { SessionEngine } from 'riodp/engines';
 *
 * const e = new SessionEngine({ nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [{ protoID: 0x1234, attributes: [] }] });
 * e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, 0); // from discovery
 * e.handle({ kind: 'open', to: 2, protoID: 0x1234, ref: 'a' }, 0);
 * // → { kind: 'send', message: OPEN, to: 2, contact, … } and the request's retry timer
 * ```
 */
export class SessionEngine implements ObservableEngine<SessionInput, SessionOutput, SessionEngineSnapshot, SessionCounter> {
  readonly #core: SessionCore;

  constructor(config: SessionConfig) {
    this.#core = new SessionCore(resolveSessionConfig(config));
  }

  handle(input: SessionInput, now: Time): SessionOutput[] {
    const core = this.#core;
    core.now = now;
    core.out = [];
    switch (input.kind) {
      case 'message':
        this.#message(input.from, input.bytes, input.mailbox);
        break;
      case 'pdu': {
        const c = core.config.contact;
        // §3.3: a Type 9 management contact is "a stream dedicated for the reception of management messages".
        if (c.conveyance === 'type9' && input.streamID === c.streamID) this.#message(input.from, input.pdu, undefined);
        else onPdu(core, input.from, input.streamID, input.pdu);
        break;
      }
      case 'contact':
        this.#contact(input.node, input.contact);
        break;
      case 'request':
        requestCommand(core, input);
        break;
      case 'open':
        openCommand(core, input);
        break;
      case 'close':
        closeCommand(core, input.stream);
        break;
      case 'status-query':
        statusQueryCommand(core, input.stream);
        break;
      case 'verify':
        verify(core, input.node, false);
        break;
      case 'peer-lost':
        peerLost(core, input.node, input.reason);
        break;
      case 'send':
        sendCommand(core, input.stream, input.pdu);
        break;
      case 'broadcast':
        broadcast(core, input.frame, input.members ?? []);
        break;
      case 'xoff':
      case 'xon':
        flowCommand(core, input.kind, input.stream);
        break;
      case 'userdefined':
        this.#userDefined(input);
        break;
      case 'timer':
        if (core.timers.expire(input.name, now)) this.#timer(input.name);
        break;
    }
    return prioritise(core.out);
  }

  counters(): Counters<SessionCounter> {
    return { ...this.#core.counters };
  }

  snapshot(): SessionEngineSnapshot {
    const core = this.#core;
    const c = core.config;
    return {
      nodeId: c.nodeId,
      contact: c.contact,
      validation: c.validation,
      conduitRole: c.conduitRole,
      contacts: [...core.contacts].sort((a, b) => a[0] - b[0]).map(([node, contact]) => ({ node, contact })),
      suspects: [...core.suspects].sort((a, b) => a[0] - b[0]).map(([node, reason]) => ({ node, reason })),
      streams: core.streams.all().map((r) => streamJson(r, this.#peer(r.conduitId, r.ref.direction))),
      conduits: core.conduits.snapshot(),
      pending: core.pending.snapshot(),
      advertised: [...core.advertised].map(([key, attrs]) => ({ key, attributes: attrs.map((a) => ({ id: a.id, name: a.name, value: toHex(a.value) })) })),
      intermediateRefused: [...core.intermediateRefused],
      closedStreams: core.streams.closedKeys(),
      streamIds: core.rxIds.snapshot(),
      reassembly: core.reassembler.snapshot(),
      timers: core.timers.pending(),
      counters: this.counters(),
    };
  }

  #peer(conduitId: number | undefined, direction: 'tx' | 'rx'): { remote: number; direction: 'tx' | 'rx'; streamID: number } | undefined {
    const c = conduitId === undefined ? undefined : this.#core.conduits.get(conduitId);
    if (c === undefined) return undefined;
    const other = direction === 'tx' ? this.#core.streams.get(c.remote, 'rx', c.receive) : this.#core.streams.get(c.remote, 'tx', c.transmit);
    return other?.ref;
  }

  /**
   * §3.3 "the end point is then expected to contact remote end points as appropriate". A contact
   * given again (the node was discovered anew) also clears its suspicion (a decision: recovery is
   * "outside the scope of this specification", §3.7.3, and rediscovery is this end point's).
   */
  #contact(node: number, contact: unknown): void {
    let c: Contact;
    try {
      c = checkContact(contact, 'contact');
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      this.#core.event({ event: 'dropped', reason: `invalid-contact: ${e.message}`, node });
      return;
    }
    this.#core.contacts.set(node, c);
    this.#core.suspects.delete(node);
  }

  #message(from: number, bytes: Uint8Array, mailbox: number | undefined): void {
    const core = this.#core;
    core.counters.messagesIn++;
    const r = receive(bytes, core.config.validation);
    if (!r.ok) {
      if (r.suspect) core.suspect(from, `${r.rejection}: ${r.reason}`);
      if (r.rejection !== 'unknown-command') {
        core.counters.malformed++;
        core.event({ event: 'malformed', node: from, reason: r.reason });
      }
      // §4.2.8 "If not well-formed, the STATUS command must be ignored" (Figure 3-4, fourth example).
      if (r.isStatus) return;
      // §3.8.5 "Normal error handling is used in such a case": an OPEN's is REFUSE (§3.5.1.5).
      if (r.rejection === 'validation' && r.message?.command === 'OPEN') refuse(core, from, r.message, bytes, 'validation', r.reason);
      else answerCommandUnknown(core, from, bytes, r.message);
      return;
    }
    this.#dispatch(from, r.message, bytes, mailbox);
  }

  #dispatch(from: number, m: SmpMessage, raw: Uint8Array, mailbox: number | undefined): void {
    const core = this.#core;
    switch (m.command) {
      case 'REQUEST':
        onRequest(core, from, m, raw);
        break;
      case 'ADVERTISE':
        onAdvertise(core, from, m);
        break;
      case 'OPEN':
        onOpen(core, from, m, raw);
        break;
      case 'ACCEPT':
        onAccept(core, from, m);
        break;
      case 'REFUSE':
        onRefuse(core, from, m);
        break;
      case 'FLOW_CONTROL':
        onFlowControl(core, from, m);
        break;
      case 'CLOSE':
        onClose(core, from, m);
        break;
      case 'STATUS':
        onStatus(core, from, m);
        break;
      case 'USERDEFINED':
        // §3.8.4 "If any USERDEFINED command is received, which the recipient does not understand,
        // the receiver must respond with a STATUS command indicating that the USERDEFINED command is unknown."
        if (core.config.userDefined.includes(m.cmd)) core.event({ event: 'userdefined', node: from, message: m });
        else answerCommandUnknown(core, from, raw, m);
        break;
      case 'DATA':
      case 'DATA1':
      case 'DATA2':
        onData(core, from, mailbox, m);
        break;
      case 'UNKNOWN':
        answerCommandUnknown(core, from, raw, m);
        break;
    }
  }

  /**
   * A USERDEFINED message carries its data to the end of the message (Table 4-11 draws it in
   * whole double-words). The Type 11 conveyance pads a message to double-words and the receiver
   * cannot tell pad from data (decision T5), so the data must be whole double-words, which keeps
   * what arrives what was sent over either conveyance (decision E27).
   */
  #userDefined(c: UserDefinedCommand): void {
    const core = this.#core;
    const length = (c.data as unknown) instanceof Uint8Array ? c.data.length : 0;
    if (length % DOUBLE_WORD !== 0) {
      core.event({ event: 'dropped', reason: `invalid-userdefined: data of ${length} octets is not whole double-words (8 octets each)`, node: c.to });
      return;
    }
    const m = attempt(() => smpUserDefined({ cmd: c.cmd, sourceID: core.config.nodeId, streamID: c.streamID, userDefinedData: c.data }));
    if (m.ok) core.sendTo(c.to, m.value);
    else core.event({ event: 'dropped', reason: `invalid-userdefined: ${m.error.message}`, node: c.to });
  }

  #timer(name: string): void {
    const core = this.#core;
    const key = pendingOfTimer(name);
    if (key !== undefined) {
      this.#pendingTimer(key);
      return;
    }
    const flow = flowTimerOf(name);
    const r = flow === undefined ? undefined : core.streams.byKey(flow.key);
    if (flow === undefined || r === undefined) return;
    if (flow.timer === 'xon') xonExpired(core, r);
    else rtsExpired(core, r);
  }

  /**
   * §3.7.1: a request without an answer is "sent again" every retry period; after the timeout
   * period "the target of the message and all intervening nodes should be deemed suspect".
   */
  #pendingTimer(key: string): void {
    const core = this.#core;
    const res = core.pending.fire(key, core.now, core.out);
    if (res === undefined) return;
    const p = res.pending;
    if (res.outcome === 'retry') {
      core.counters.retries++;
      core.emit(p.to, p.contact, p.message, p.bytes);
      return;
    }
    core.counters.timeouts++;
    const what = p.what;
    if (what.command === 'OPEN') openFailed(core, p.to, what.open, 'timeout');
    else core.event({ event: 'timeout', node: p.to, command: what.command });
    core.suspect(p.to, `${what.command} timed out`);
    if (what.command === 'STATUS') queryTimedOut(core, what.stream);
  }
}
