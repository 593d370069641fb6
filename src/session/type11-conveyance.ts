import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { describeInput, pullUpTo } from '../engine/input-checks.ts';
import { Timers } from '../engine/timers.ts';
import { FTYPE_MESSAGE } from '../wire/type11.ts';
import type { Type11Packet } from '../wire/type11.ts';
import type { Type13MessageResponse, Type13Packet } from '../wire/type13.ts';
import { resolveType11Config } from './type11-conveyance-config.ts';
import type { ResolvedType11Config } from './type11-conveyance-config.ts';
import type {
  Type11ConveyanceConfig, Type11ConveyanceInput, Type11ConveyanceOutput, Type11ConveyanceSnapshot, Type11CounterName, Type11TimerName,
} from './type11-conveyance-types.ts';
import { Type11Receiver } from './type11-receiver.ts';
import { Type11Sender } from './type11-sender.ts';

export const TYPE11_COUNTERS: readonly Type11CounterName[] = [
  'messagesQueued', 'messagesRefused', 'messagesPadded', 'messagesSent', 'messagesFailed', 'segmentsSent', 'segmentsResent',
  'doneReceived', 'retriesReceived', 'errorsReceived', 'responseTimeouts', 'staleResponses', 'lateResponses', 'segmentsReceived',
  'messagesDelivered', 'duplicateSegments', 'rejectedSegments', 'busySegments', 'staleReassemblies', 'reassemblyTimeouts',
  'responsesSent', 'notForUs', 'ignoredPackets', 'pulls', 'idlePulls', 'invalidInputs',
];

type Out = Type11ConveyanceOutput[];

/**
 * The Type 11 conveyance of Annex 2 session management: Part 2 data messages between the session
 * engine and the link (type11-conveyance-types.ts describes the rules; type11-mailbox.ts the
 * mapping of mailboxes and segments). Sans-IO: packets leave only when pulled, timers go through
 * `Timers`.
 *
 * Outputs of one input come in the order they happen: a received segment's delivery or event,
 * then its timer request; a pull's packets in transmit order, or one `idle`.
 *
 * @example
 * ```ts
 * import { Type11Conveyance } from 'riodp/engines';
 *
 * const t11 = new Type11Conveyance({ nodeId: 1 });
 * t11.handle({ kind: 'send', to: 2, contact: { conveyance: 'type11', mailbox: 2 }, bytes: new Uint8Array(16), priority: 'normal' }, 0);
 * t11.handle({ kind: 'pull' }, 1); // → the MESSAGE packet, and its response timer
 * ```
 */
export class Type11Conveyance implements ObservableEngine<Type11ConveyanceInput, Type11ConveyanceOutput, Type11ConveyanceSnapshot, Type11CounterName> {
  readonly #config: ResolvedType11Config;
  readonly #timers = new Timers<Type11TimerName>();
  readonly #counters: Counters<Type11CounterName> = zeroCounters(TYPE11_COUNTERS);
  readonly #sender: Type11Sender;
  readonly #receiver: Type11Receiver;

  constructor(config: Type11ConveyanceConfig) {
    this.#config = resolveType11Config(config);
    this.#sender = new Type11Sender(this.#config, this.#counters, this.#timers);
    this.#receiver = new Type11Receiver(this.#config, this.#counters, this.#timers);
  }

  handle(input: Type11ConveyanceInput, now: Time): Type11ConveyanceOutput[] {
    const out: Out = [];
    switch (input.kind) {
      case 'send':
        this.#sender.queue(input, now, out);
        break;
      case 'packet':
        this.#packet(input.packet, now, out);
        break;
      case 'pull':
        this.#pull(input.max, now, out);
        break;
      case 'timer':
        if (this.#timers.expire(input.name, now)) this.#expired(input.name, now, out);
        break;
      default:
        this.#invalid(`unknown input kind ${describeInput((input as { kind?: unknown }).kind)}`, out);
    }
    return out;
  }

  /** Packets pulls would give now: queued responses and segments ready to go (not those waiting out a retry delay). */
  get pending(): number {
    return this.#receiver.responses.length + this.#sender.ready();
  }

  counters(): Counters<Type11CounterName> {
    return { ...this.#counters };
  }

  snapshot(): Type11ConveyanceSnapshot {
    const c = this.#config;
    return {
      nodeId: c.nodeId,
      tt: c.tt,
      segmentSize: c.segmentSize,
      letters: c.letters,
      responseTimeout: c.responseTimeout,
      retryDelay: c.retryDelay,
      maxRetries: c.maxRetries,
      maxReassemblies: c.maxReassemblies,
      reassemblyTimeout: c.reassemblyTimeout,
      mailboxes: c.mailboxes.flatMap((on, i) => (on ? [i] : [])),
      ...this.#sender.snapshot(),
      ...this.#receiver.snapshot(),
      timers: this.#timers.pending(),
      stats: this.counters(),
    };
  }

  #packet(p: Type11Packet | Type13Packet, now: Time, out: Out): void {
    if (!isPacket(p)) {
      this.#invalid('packet: not a decoded packet', out);
      return;
    }
    const mine = p.destinationID === this.#config.nodeId;
    if (p.ftype === FTYPE_MESSAGE && isMessage(p)) {
      if (mine) this.#receiver.segment(p, now, out);
      else this.#notForUs(p, out);
      return;
    }
    if (isMessageResponse(p)) {
      if (mine) this.#sender.response(p, now, out);
      else this.#notForUs(p, out);
      return;
    }
    // Other RESPONSEs answer maintenance or I/O requests (discovery's), other ftypes are not messages.
    this.#counters.ignoredPackets++;
    out.push({ kind: 'event', name: 'ignored-packet', ftype: p.ftype, sourceID: p.sourceID });
  }

  /** Responses first (Part 6 §6.12), then the sender's segments; `idle` when the first pull finds nothing. */
  #pull(max: unknown, now: Time, out: Out): void {
    const responses = this.#receiver.responses;
    const sent = pullUpTo(max, () => {
      const r = responses.shift();
      if (r !== undefined) {
        this.#counters.responsesSent++;
        out.push({ kind: 'packet', packet: r });
        return true;
      }
      const segment = this.#sender.next(now, out);
      if (segment === null) return false;
      out.push({ kind: 'packet', packet: segment });
      return true;
    });
    if (sent === undefined) {
      this.#invalid(`pull: max ${describeInput(max)} is not a positive integer`, out);
      return;
    }
    this.#counters.pulls++;
    if (sent === 0) {
      this.#counters.idlePulls++;
      out.push({ kind: 'idle' });
    }
  }

  #expired(name: Type11TimerName, now: Time, out: Out): void {
    if (name.startsWith('msg:')) this.#sender.expired(name, now, out);
    else this.#receiver.expired(name, out);
  }

  #notForUs(p: Type11Packet | Type13MessageResponse, out: Out): void {
    this.#counters.notForUs++;
    out.push({ kind: 'event', name: 'not-for-us', ftype: p.ftype, destinationID: p.destinationID, sourceID: p.sourceID });
  }

  #invalid(detail: string, out: Out): void {
    this.#counters.invalidInputs++;
    out.push({ kind: 'event', name: 'invalid-input', detail });
  }
}

/** Inputs also arrive as JSON (`riodp model`): a packet must at least carry its header fields. */
function isPacket(p: unknown): p is Type11Packet | Type13Packet {
  if (typeof p !== 'object' || p === null) return false;
  const r = p as Record<string, unknown>;
  return typeof r['ftype'] === 'number' && typeof r['destinationID'] === 'number' && typeof r['sourceID'] === 'number';
}

function isMessage(p: Type11Packet | Type13Packet): p is Type11Packet {
  const r = p as unknown as Record<string, unknown>;
  return ['msglen', 'ssize', 'letter', 'mbox', 'mailbox', 'prio', 'tt'].every((f) => typeof r[f] === 'number') && r['payload'] instanceof Uint8Array;
}

function isMessageResponse(p: Type11Packet | Type13Packet): p is Type13MessageResponse {
  const r = p as unknown as Record<string, unknown>;
  return r['transactionName'] === 'MESSAGE_RESPONSE' && ['letter', 'mbox', 'msgseg', 'status'].every((f) => typeof r[f] === 'number');
}
