import { zeroCounters } from '../engine/contract.ts';
import type { Counters, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { attempt } from '../wire/errors.ts';
import type { SmpAttribute } from '../wire/smp/attributes.ts';
import { smpBytes } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { ConduitTable } from './conduits.ts';
import { DataReassembler } from './data-formats.ts';
import { negotiationDefaults } from './engine-config.ts';
import type { ResolvedSessionConfig } from './engine-config.ts';
import type { NegotiationDefaults } from './negotiate.ts';
import { priorityOf } from './outbox.ts';
import { PendingTable } from './pending.ts';
import type { PendingWhat } from './pending.ts';
import { StreamIdAllocator, streamIdStart } from './stream-ids.ts';
import { StreamTable } from './stream-table.ts';
import { fitsMessage, messageLimit } from './type11-mailbox.ts';
import { SESSION_COUNTERS } from './types.ts';
import type { Contact, SessionCounter, SessionEvent, SessionOutput } from './types.ts';

/**
 * The state of one session management end point and the operations every part of the engine
 * shares (sending, events, suspects, requests with retries). `SessionEngine` owns one and hands it
 * to the modules that implement each command (open-*.ts, close.ts, stream-flow.ts, data-tx.ts, data-rx.ts,
 * status.ts); `now` and `out` are those of the `handle()` call in progress.
 */
export class SessionCore {
  readonly config: ResolvedSessionConfig;
  readonly defaults: NegotiationDefaults;
  readonly timers = new Timers();
  readonly pending: PendingTable;
  readonly streams = new StreamTable();
  readonly rxIds: StreamIdAllocator;
  readonly conduits: ConduitTable;
  readonly reassembler = new DataReassembler();
  readonly counters: Counters<SessionCounter> = zeroCounters(SESSION_COUNTERS);
  readonly contacts = new Map<number, Contact>();
  /** Suspect nodes and why (§3.7.1, §3.7.3, §3.8.5). */
  readonly suspects = new Map<number, string>();
  /** ADVERTISE attributes by `${node}/${protoID}` (§3.8.2: OPEN follows the advertised order and values). */
  readonly advertised = new Map<string, readonly SmpAttribute[]>();
  /**
   * `${node}/${protoID}` whose REFUSE answered an OPEN with an intermediate value: §3.8.2 "the
   * sender must not attempt any other intermediate value for any such attribute, but restrict
   * itself to the values specified. A single attempt at intermediate values may be attempted."
   */
  readonly intermediateRefused = new Set<string>();
  /** Conduits whose 'conduit' event was emitted. */
  readonly conduitsReported = new Set<number>();
  now: Time = 0;
  out: SessionOutput[] = [];
  #openMessageNumber = 0;

  constructor(config: ResolvedSessionConfig) {
    this.config = config;
    this.defaults = negotiationDefaults(config);
    this.pending = new PendingTable(this.timers);
    this.rxIds = new StreamIdAllocator(streamIdStart(config.nodeId));
    this.conduits = new ConduitTable(config.conduitRole);
  }

  event(detail: SessionEvent): void {
    this.out.push({ kind: 'event', at: this.now, detail });
  }

  /** §3.7.3: the node "is judged to be suspect (unreliable)"; reported once until it is rediscovered. */
  suspect(node: number, reason: string): void {
    if (this.suspects.has(node)) return;
    this.suspects.set(node, reason);
    this.counters.suspects++;
    this.event({ event: 'suspect', node, reason });
  }

  /** The encoded octets, or undefined (event 'dropped') when a value the application gave does not fit its field. */
  encode(m: SmpMessage, node: number): Uint8Array | undefined {
    const r = attempt(() => smpBytes(m));
    if (r.ok) return r.value;
    this.event({ event: 'dropped', reason: `unencodable ${m.command}: ${r.error.message}`, node });
    return undefined;
  }

  /** Emits a `send` of an encoded message; the priority follows §3.7.2. */
  emit(to: number, contact: Contact, message: SmpMessage, bytes: Uint8Array): void {
    this.counters.messagesOut++;
    this.out.push({ kind: 'send', to, contact, priority: priorityOf(message), message, bytes });
  }

  /**
   * The largest message `contact` takes: over Type 11 its mailbox's (16 segments for mailboxes
   * 0–3, one for 4–63, decision T2), 0 when the ID names no Part 2 mailbox; undefined over Type 9
   * (Part 10 segments a PDU of any length the management process sends).
   */
  messageLimit(contact: Contact): number | undefined {
    if (contact.conveyance !== 'type11') return undefined;
    return messageLimit(contact.mailbox, this.config.type11SegmentSize) ?? 0;
  }

  /** Whether `bytes` can reach `contact` (the conveyance would refuse it); reported as 'dropped' when not. */
  fits(to: number, contact: Contact, m: SmpMessage, bytes: Uint8Array): boolean {
    const limit = this.messageLimit(contact);
    if (limit === undefined || fitsMessage(bytes.length, limit)) return true;
    const reason = limit === 0
      ? `unusable-mailbox: ${contact.conveyance === 'type11' ? contact.mailbox : ''} names no Part 2 mailbox`
      : `too-long-for-mailbox: ${m.command} of ${bytes.length} octets > ${limit}`;
    this.event({ event: 'dropped', reason, node: to });
    return false;
  }

  /** Sends to a node whose contact is known; without one the application must discover it first. */
  sendTo(to: number, message: SmpMessage): boolean {
    const ready = this.#ready(to, message);
    if (ready === undefined) return false;
    this.emit(to, ready.contact, message, ready.bytes);
    return true;
  }

  /** The contact and octets of a message to a node, or undefined (event 'dropped') when it cannot go. */
  #ready(to: number, message: SmpMessage): { readonly contact: Contact; readonly bytes: Uint8Array } | undefined {
    const contact = this.contacts.get(to);
    if (contact === undefined) {
      this.event({ event: 'dropped', reason: 'no-contact', node: to });
      return undefined;
    }
    const bytes = this.encode(message, to);
    return bytes !== undefined && this.fits(to, contact, message, bytes) ? { contact, bytes } : undefined;
  }

  /**
   * Answers a node: `to` is the node the conveyance says the message came from (decision X1). Its
   * contact when known; otherwise that node reached through this end point's own kind of
   * conveyance and address (decision E1: a node that found this one through discovery advertises
   * the same way).
   */
  reply(to: number, message: SmpMessage): void {
    const contact = this.replyContact(to);
    const bytes = this.encode(message, to);
    if (bytes !== undefined && this.fits(to, contact, message, bytes)) this.emit(to, contact, message, bytes);
  }

  replyContact(node: number): Contact {
    return this.contacts.get(node) ?? this.config.contact;
  }

  /** Sends a REQUEST, OPEN, CLOSE or STATUS query and waits for its answer (§3.7.1). */
  request(key: string, to: number, message: SmpMessage, what: PendingWhat, periods?: { readonly retry: number; readonly timeout: number }): boolean {
    const ready = this.#ready(to, message);
    if (ready === undefined) return false;
    const { contact, bytes } = ready;
    this.pending.resolve(key, this.out);
    this.emit(to, contact, message, bytes);
    this.pending.add(
      {
        key,
        to,
        contact,
        priority: priorityOf(message),
        message,
        bytes,
        started: this.now,
        retry: periods?.retry ?? this.config.retryPeriod,
        timeout: periods?.timeout ?? this.config.timeoutPeriod,
        what,
        sends: 1,
      },
      this.out,
    );
    return true;
  }

  /**
   * §3.5.3.7 "used by the originator of an OPEN message to identify the response to the OPEN
   * request. This allows the originator to have multiple parallel OPEN requests in flight": one
   * per OPEN attempt, never one still outstanding, wrapping at 2^32.
   */
  nextOpenMessageNumber(): number {
    for (;;) {
      this.#openMessageNumber = (this.#openMessageNumber + 1) >>> 0;
      if (!this.pending.has(`open/${this.#openMessageNumber}`)) return this.#openMessageNumber;
    }
  }

  /** The Type 11 mailbox this end point receives management messages in (0 over Type 9). */
  ownMailbox(): number {
    return this.config.contact.conveyance === 'type11' ? this.config.contact.mailbox : 0;
  }
}
