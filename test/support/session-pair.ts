/**
 * Session management engines (src/session/engine.ts) connected back to back: every `send` and
 * `send-pdu` output of one engine becomes a `message` or `pdu` input of the engine it names, after
 * a delay the link chooses (none = lost, two = duplicated), and timers fire at their time. Used by
 * the engine tests and by `riodp model smp` traces.
 */
import assert from 'node:assert/strict';
import { SessionEngine } from '../../src/session/engine.ts';
import type { Contact, SendMessageOutput, SessionConfig, SessionEvent, SessionInput, SessionOutput, StreamRef } from '../../src/session/types.ts';
import type { SmpMessage } from '../../src/wire/smp/index.ts';
import { NetClock } from './net-clock.ts';
import type { NetDelivery } from './net-clock.ts';

export type { NetDelivery } from './net-clock.ts';

export interface NetMessage {
  readonly at: number;
  readonly from: number;
  readonly to: number;
  /** The SMP command name, or 'PDU' for a Type 9 data PDU. */
  readonly command: string;
  readonly message?: SmpMessage;
  readonly bytes: Uint8Array;
  readonly contact?: Contact;
  readonly streamID?: number;
  /** How many copies the link delivers (0: lost). */
  readonly copies: number;
}

export interface NetEvent {
  readonly node: number;
  readonly at: number;
  readonly detail: SessionEvent;
}

/** The delays after which the copies of a message arrive: [] loses it, [d, d2] duplicates it. */
export type Link = (m: NetMessage) => readonly number[];

export class SessionNet extends NetClock {
  readonly engines = new Map<number, SessionEngine>();
  readonly configs = new Map<number, SessionConfig>();
  readonly trace: NetMessage[] = [];
  readonly events: NetEvent[] = [];
  readonly deliveries: NetDelivery[] = [];
  /** Default one time unit per hop, in order. */
  link: Link = () => [1];

  add(config: SessionConfig): SessionEngine {
    const e = new SessionEngine(config);
    this.engines.set(config.nodeId, e);
    this.configs.set(config.nodeId, config);
    this.clearTimers(config.nodeId);
    return e;
  }

  /** A node restarts with no memory of its streams (§3.8.3 "the condition where a node is rebooted"). */
  reboot(node: number, config?: SessionConfig): SessionEngine {
    const c = config ?? this.configs.get(node);
    if (c === undefined) throw new Error(`no node ${node}`);
    return this.add(c);
  }

  engine(node: number): SessionEngine {
    const e = this.engines.get(node);
    if (e === undefined) throw new Error(`no node ${node}`);
    return e;
  }

  /** Tells every engine the contact of every other one (what discovery would find, §3.3). */
  connect(): void {
    for (const [node] of this.engines) {
      for (const [other, config] of this.configs) if (other !== node) this.input(node, { kind: 'contact', node: other, contact: config.contact });
    }
  }

  /** Hands one input to a node now and routes its outputs. */
  input(node: number, input: SessionInput): SessionOutput[] {
    const out = this.engine(node).handle(input, this.now);
    this.#route(node, out);
    return out;
  }

  #route(node: number, out: readonly SessionOutput[]): void {
    for (const o of out) {
      switch (o.kind) {
        case 'send':
          this.#transmit(node, o.to, o.message.command, o.bytes, o.message, o.contact, undefined);
          break;
        case 'send-pdu':
          this.#transmit(node, o.to, 'PDU', o.pdu, undefined, undefined, o.streamID, o.cos);
          break;
        case 'timer':
          this.setTimer(node, o.name, o.at);
          break;
        case 'event':
          this.events.push({ node, at: o.at, detail: o.detail });
          break;
        case 'deliver':
          this.deliveries.push({ node, at: this.now, stream: o.stream, protoID: o.protoID, pdu: o.pdu });
          break;
      }
    }
  }

  #transmit(from: number, to: number, command: string, bytes: Uint8Array, message: SmpMessage | undefined, contact: Contact | undefined, streamID: number | undefined, cos = 0): void {
    const base = { at: this.now, from, to, command, bytes, ...(message && { message }), ...(contact && { contact }), ...(streamID !== undefined && { streamID }) };
    const delays = this.link({ ...base, copies: 1 });
    this.trace.push({ ...base, copies: delays.length });
    // A destination that is no node here is a multicast group: every other node is a member.
    const targets = this.engines.has(to) ? [to] : [...this.engines.keys()].filter((n) => n !== from);
    for (const target of targets) {
      for (const d of delays) {
        let input: SessionInput;
        if (streamID !== undefined) input = { kind: 'pdu', from, streamID, cos, pdu: bytes };
        else if (contact?.conveyance === 'type9') input = { kind: 'pdu', from, streamID: contact.streamID, cos: contact.cos, pdu: bytes };
        else input = contact?.conveyance === 'type11' ? { kind: 'message', from, bytes, mailbox: contact.mailbox } : { kind: 'message', from, bytes };
        this.schedule(this.now + d, () => {
          if (this.engines.has(target)) this.input(target, input);
        });
      }
    }
  }

  /** Events of `node` (all nodes when omitted) named `name`. */
  eventsOf<K extends SessionEvent['event']>(name: K, node?: number): Extract<SessionEvent, { event: K }>[] {
    return this.events.filter((e) => e.detail.event === name && (node === undefined || e.node === node)).map((e) => e.detail as Extract<SessionEvent, { event: K }>);
  }

  /** The messages sent so far as "from>to COMMAND" lines, for sequence assertions. */
  lines(filter: (m: NetMessage) => boolean = () => true): string[] {
    return this.trace.filter(filter).map((m) => `${m.from}>${m.to} ${describe(m)}`);
  }

  protected fire(node: number, name: string): void {
    this.input(node, { kind: 'timer', name });
  }
}

function describe(m: NetMessage): string {
  const msg = m.message;
  if (msg === undefined) return `PDU stream 0x${(m.streamID ?? 0).toString(16)}`;
  switch (msg.command) {
    case 'FLOW_CONTROL':
      return `FLOW_CONTROL ${msg.flowControlName}`;
    case 'STATUS':
      return `STATUS ${msg.statusFlags.join('|')}`;
    default:
      return msg.command;
  }
}

/** Two end points, node 1 ("source") and node 2 ("dest"), Type 11 mailboxes 1 and 2, contacts exchanged. */
export function sessionPair(a: Partial<SessionConfig> = {}, b: Partial<SessionConfig> = {}): SessionNet {
  const net = new SessionNet();
  net.add({ nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [], ...a });
  net.add({ nodeId: 2, contact: { conveyance: 'type11', mailbox: 2 }, protocols: [], ...b });
  net.connect();
  return net;
}

/** Opens a stream from `from` to `to` and runs the net until it settles; the transmit stream, or undefined if it did not open. */
export function openStream(net: SessionNet, from: number, to: number, protoID: number, ref = `open-${net.trace.length}`, extra: { readonly conduit?: boolean } = {}): StreamRef | undefined {
  net.input(from, { kind: 'open', to, protoID, ref, ...extra });
  net.settle();
  const ev = net.eventsOf('opened', from).find((e) => e.ref === ref);
  return ev === undefined ? undefined : { remote: ev.stream.remote, direction: ev.stream.direction, streamID: ev.stream.streamID };
}

/** The receive stream at `node` matching a transmit stream of `sender`. */
export function rxOf(sender: number, tx: StreamRef): StreamRef {
  return { remote: sender, direction: 'rx', streamID: tx.streamID };
}

/** `m`, asserted to be a `command` message. */
export function as<C extends SmpMessage['command']>(m: SmpMessage | undefined, command: C): Extract<SmpMessage, { command: C }> {
  assert.equal(m?.command, command);
  return m as Extract<SmpMessage, { command: C }>;
}

/** The first `send` output, asserted to be there. */
export function firstSend(out: readonly SessionOutput[]): SendMessageOutput {
  const s = out.find((o): o is SendMessageOutput => o.kind === 'send');
  assert.ok(s, 'a message is sent');
  return s;
}
