import { fitsDeviceId } from '../engine/config-checks.ts';
import type { Counters, Time } from '../engine/contract.ts';
import type { Timers } from '../engine/timers.ts';
import { messageSegment } from '../wire/type11.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { RESPONSE_STATUS } from '../wire/type13.ts';
import type { Type13MessageResponse } from '../wire/type13.ts';
import type { ResolvedType11Config } from './type11-conveyance-config.ts';
import type {
  MessageId, Type11ConveyanceOutput, Type11ConveyanceSnapshot, Type11CounterName, Type11Event, Type11Failure, Type11MessageSnapshot, Type11Refusal,
  Type11SendInput, Type11TimerName,
} from './type11-conveyance-types.ts';
import {
  MULTI_SEGMENT_MAILBOXES, isMailbox, letterPoolKey, mboxOf, padToDoubleWords, segmentBounds, segmentPlan, xmboxOf,
} from './type11-mailbox.ts';
import type { SegmentPlan } from './type11-mailbox.ts';
import type { SmpPriority } from './types.ts';

/**
 * The sending half of the Type 11 conveyance (see type11-conveyance-types.ts): letters, the
 * waiting queue, segments and their responses. Not an engine of its own: the conveyance hands it
 * inputs and pulls, and it shares the conveyance's timers, counters and output list.
 */

/**
 * Part 6 §6.12 deadlock prevention rule 2: "A packet carrying a request transaction that requires
 * a response shall not be issued at the highest priority"; 'high' messages (Annex 2 §3.7.2) one
 * level above 'normal' ones, their responses one above that (rule 3, messageResponseTo).
 */
export const MESSAGE_PRIO: Readonly<Record<SmpPriority, number>> = { normal: 0, high: 1 };

const PRIORITIES: readonly SmpPriority[] = ['high', 'normal'];

/**
 * A segment's life: `ready` to be pulled, `sent` until its response or `responseTimeout` (`at`
 * is the deadline), `retry-wait` after a RETRY until `at`, `done` once answered DONE or given up.
 */
type SegmentState = 'ready' | 'sent' | 'retry-wait' | 'done';

interface OutSegment {
  readonly index: number;
  readonly payload: Uint8Array;
  state: SegmentState;
  at: Time;
  retries: number;
}

interface OutMessage {
  readonly seq: number;
  readonly id: MessageId | undefined;
  readonly to: number;
  readonly mailbox: number;
  readonly priority: SmpPriority;
  readonly plan: SegmentPlan;
  readonly segments: OutSegment[];
  readonly pool: LetterPool;
  readonly queuedAt: Time;
  /** -1 while the message waits for a letter. */
  letter: number;
  /** Segments sent and not yet answered. */
  outstanding: number;
  done: number;
  failed: boolean;
}

interface LetterPool {
  readonly key: string;
  readonly letters: (OutMessage | null)[];
  readonly waiting: OutMessage[];
}

type Out = Type11ConveyanceOutput[];

export class Type11Sender {
  readonly #config: ResolvedType11Config;
  readonly #counters: Counters<Type11CounterName>;
  readonly #timers: Timers<Type11TimerName>;
  readonly #pools = new Map<string, LetterPool>();
  /** Messages holding a letter, in queueing order. */
  readonly #active: OutMessage[] = [];
  readonly #byTimer = new Map<Type11TimerName, OutMessage>();
  #seq = 0;

  constructor(config: ResolvedType11Config, counters: Counters<Type11CounterName>, timers: Timers<Type11TimerName>) {
    this.#config = config;
    this.#counters = counters;
    this.#timers = timers;
  }

  queue(input: Type11SendInput, now: Time, out: Out): void {
    const refusal = this.#refusal(input);
    const bytes = input.bytes as unknown;
    const length = bytes instanceof Uint8Array ? bytes.length : 0;
    if (refusal !== undefined) {
      this.#counters.messagesRefused++;
      event(out, withId({ name: 'refused', reason: refusal, to: input.to, length }, input.id));
      return;
    }
    const padded = padToDoubleWords(input.bytes);
    if (padded !== input.bytes) this.#counters.messagesPadded++;
    const mailbox = (input.contact as { readonly mailbox: number }).mailbox;
    const plan = segmentPlan(padded.length, this.#config.segmentSize) as SegmentPlan;
    const segments: OutSegment[] = [];
    for (let i = 0; i < plan.segments; i++) {
      const { start, end } = segmentBounds(plan, i, padded.length);
      segments.push({ index: i, payload: padded.subarray(start, end), state: 'ready', at: 0, retries: 0 });
    }
    const pool = this.#pool(letterPoolKey(input.to, mailbox));
    const m: OutMessage = {
      seq: ++this.#seq, id: input.id, to: input.to, mailbox, priority: input.priority, plan, segments, pool, queuedAt: now,
      letter: -1, outstanding: 0, done: 0, failed: false,
    };
    this.#counters.messagesQueued++;
    const letter = this.#freeLetter(pool);
    if (letter < 0) pool.waiting.push(m);
    else this.#admit(m, letter);
  }

  /** The next segment to transmit, 'high' messages first, each priority in queueing order; null when none may go. */
  next(now: Time, out: Out): Type11Packet | null {
    for (const priority of PRIORITIES) {
      for (const m of this.#active) {
        if (m.priority !== priority || m.failed) continue;
        const s = m.segments.find((x) => x.state === 'ready');
        if (s === undefined) continue;
        return this.#send(m, s, now, out);
      }
    }
    return null;
  }

  /** Segments `next` would give, over every message holding a letter. */
  ready(): number {
    let n = 0;
    for (const m of this.#active) for (const s of m.segments) if (s.state === 'ready') n++;
    return n;
  }

  /** A MESSAGE RESPONSE addressed to this node. */
  response(r: Type13MessageResponse, now: Time, out: Out): void {
    const m = this.#pools.get(`${r.sourceID}/${r.mbox}`)?.letters[r.letter] ?? null;
    const s = m === null ? undefined : m.segments[segmentIndex(m, r.msgseg)];
    if (m === null || s === undefined || s.state !== 'sent') {
      this.#counters.staleResponses++;
      event(out, { name: 'stale-response', from: r.sourceID, letter: r.letter, mbox: r.mbox, msgseg: r.msgseg, status: r.status });
      return;
    }
    m.outstanding--;
    s.state = 'done';
    if (m.failed) {
      this.#counters.lateResponses++;
      this.#settle(m, out);
      return;
    }
    if (r.status === RESPONSE_STATUS.done) {
      this.#counters.doneReceived++;
      if (++m.done === m.segments.length) this.#complete(m, out);
      else this.#rearm(m, out);
    } else if (r.status === RESPONSE_STATUS.retry) {
      this.#retry(m, s, now, out);
    } else {
      // Part 2 Table 4-6: ERROR is "Unrecoverable error detected"; reserved and implementation-defined
      // statuses carry no meaning this sender understands, so none of them completes the segment.
      this.#counters.errorsReceived++;
      this.#fail(m, 'error', s.index, out, r.status);
    }
  }

  /** A due timer of the sender (the conveyance checked it with `Timers.expire`). */
  expired(name: Type11TimerName, now: Time, out: Out): void {
    const m = this.#byTimer.get(name);
    if (m === undefined) return;
    let timedOut = -1;
    for (const s of m.segments) {
      if (s.at > now) continue;
      if (s.state === 'sent') {
        s.state = 'done';
        m.outstanding--;
        this.#counters.responseTimeouts++;
        if (timedOut < 0) timedOut = s.index;
      } else if (s.state === 'retry-wait') {
        s.state = 'ready';
      }
    }
    if (timedOut >= 0 && !m.failed) this.#fail(m, 'timeout', timedOut, out);
    else this.#settle(m, out);
  }

  snapshot(): Pick<Type11ConveyanceSnapshot, 'active' | 'waiting'> {
    const show = (m: OutMessage): Type11MessageSnapshot => ({
      seq: m.seq,
      ...(m.id === undefined ? {} : { id: m.id }),
      to: m.to,
      mailbox: m.mailbox,
      priority: m.priority,
      letter: m.letter,
      ssize: m.plan.ssizeBytes,
      failed: m.failed,
      queuedAt: m.queuedAt,
      segments: m.segments.map((s) => ({ state: s.state, ...(s.state === 'sent' || s.state === 'retry-wait' ? { at: s.at } : {}), retries: s.retries })),
    });
    return {
      active: this.#active.map(show),
      waiting: [...this.#pools.values()].flatMap((p) => p.waiting).sort((a, b) => a.seq - b.seq).map(show),
    };
  }

  #refusal(input: Type11SendInput): Type11Refusal | undefined {
    const c = input.contact as { readonly conveyance?: unknown; readonly mailbox?: unknown } | undefined;
    if (c?.conveyance !== 'type11') return 'wrong-conveyance';
    if (!fitsDeviceId(input.to, this.#config.tt)) return 'invalid-destination';
    if (!isMailbox(c.mailbox)) return 'invalid-mailbox';
    if (!PRIORITIES.includes(input.priority)) return 'invalid-priority';
    if (!((input.bytes as unknown) instanceof Uint8Array)) return 'invalid-payload';
    if (input.bytes.length === 0) return 'empty';
    const plan = segmentPlan(padToDoubleWords(input.bytes).length, this.#config.segmentSize);
    if (plan === undefined) return 'too-long';
    if (plan.segments > 1 && c.mailbox >= MULTI_SEGMENT_MAILBOXES) return 'mailbox-single-segment';
    return undefined;
  }

  #pool(key: string): LetterPool {
    let pool = this.#pools.get(key);
    if (pool === undefined) {
      pool = { key, letters: new Array<OutMessage | null>(this.#config.letters).fill(null), waiting: [] };
      this.#pools.set(key, pool);
    }
    return pool;
  }

  #freeLetter(pool: LetterPool): number {
    return pool.letters.indexOf(null);
  }

  #admit(m: OutMessage, letter: number): void {
    m.letter = letter;
    m.pool.letters[letter] = m;
    this.#byTimer.set(timerName(m), m);
    // Keeps #active in queueing order: a message admitted from the waiting queue may be older than active ones.
    let at = this.#active.length;
    while (at > 0 && (this.#active[at - 1] as OutMessage).seq > m.seq) at--;
    this.#active.splice(at, 0, m);
  }

  #send(m: OutMessage, s: OutSegment, now: Time, out: Out): Type11Packet {
    const c = this.#config;
    const single = m.segments.length === 1;
    const packet = messageSegment({
      tt: c.tt,
      destinationID: m.to,
      sourceID: c.nodeId,
      prio: MESSAGE_PRIO[m.priority],
      letter: m.letter,
      mailbox: single ? m.mailbox : mboxOf(m.mailbox),
      msglen: m.segments.length - 1,
      ...(single ? {} : { msgseg: s.index }),
      segmentSize: m.plan.ssizeBytes,
      payload: s.payload,
    });
    s.state = 'sent';
    s.at = now + c.responseTimeout;
    m.outstanding++;
    this.#counters.segmentsSent++;
    if (s.retries > 0) this.#counters.segmentsResent++;
    this.#rearm(m, out);
    return packet;
  }

  /**
   * Part 2 §3.1 "A transaction request which receives a RETRY response must be re-transmitted in
   * order to complete the operation"; bounded by `maxRetries` so a receiver that stays busy fails
   * the message instead of holding its letter for ever.
   */
  #retry(m: OutMessage, s: OutSegment, now: Time, out: Out): void {
    this.#counters.retriesReceived++;
    s.retries++;
    if (s.retries > this.#config.maxRetries) {
      this.#fail(m, 'retry-limit', s.index, out);
      return;
    }
    const delay = this.#config.retryDelay;
    s.state = delay === 0 ? 'ready' : 'retry-wait';
    s.at = now + delay;
    this.#rearm(m, out);
  }

  #complete(m: OutMessage, out: Out): void {
    this.#counters.messagesSent++;
    event(out, withId({ name: 'sent', to: m.to, mailbox: m.mailbox, letter: m.letter, segments: m.segments.length }, m.id));
    this.#release(m, out);
  }

  /**
   * The message is given up: its unsent segments are dropped at once, but its letter stays taken
   * until every segment already sent is answered or timed out, so that a late response cannot be
   * taken for one to the next message under that letter (§4.2.5 "Care must be taken to prevent
   * aliasing").
   */
  #fail(m: OutMessage, reason: Type11Failure, segment: number, out: Out, status?: number): void {
    m.failed = true;
    for (const s of m.segments) if (s.state === 'ready' || s.state === 'retry-wait') s.state = 'done';
    this.#counters.messagesFailed++;
    const e = { name: 'failed', reason, to: m.to, mailbox: m.mailbox, letter: m.letter, segment } as const;
    event(out, withId(status === undefined ? e : { ...e, status }, m.id));
    this.#settle(m, out);
  }

  #settle(m: OutMessage, out: Out): void {
    if (m.failed && m.outstanding === 0) this.#release(m, out);
    else this.#rearm(m, out);
  }

  /** Frees the letter and gives it to the pool's next waiting message, 'high' ones first (Annex 2 §3.7.2). */
  #release(m: OutMessage, out: Out): void {
    const pool = m.pool;
    const name = timerName(m);
    this.#timers.cancel(name, out);
    this.#byTimer.delete(name);
    pool.letters[m.letter] = null;
    this.#active.splice(this.#active.indexOf(m), 1);
    const high = pool.waiting.findIndex((w) => w.priority === 'high');
    const next = pool.waiting.splice(high < 0 ? 0 : high, 1)[0];
    if (next !== undefined) this.#admit(next, m.letter);
    else if (pool.letters.every((x) => x === null)) this.#pools.delete(pool.key);
  }

  /** One timer per message, at its earliest response deadline or end of a retry delay. */
  #rearm(m: OutMessage, out: Out): void {
    let at = Infinity;
    for (const s of m.segments) if ((s.state === 'sent' || s.state === 'retry-wait') && s.at < at) at = s.at;
    const name = timerName(m);
    if (at === Infinity) this.#timers.cancel(name, out);
    else if (this.#timers.deadline(name) !== at) this.#timers.arm(name, at, out);
  }
}

/** Which segment a response's msgseg names: msgseg itself, or 0 when it is the xmbox of a single-segment message. */
function segmentIndex(m: OutMessage, msgseg: number): number {
  if (m.segments.length > 1) return msgseg;
  return msgseg === xmboxOf(m.mailbox) ? 0 : -1;
}

function timerName(m: OutMessage): Type11TimerName {
  return `msg:${m.to}/${mboxOf(m.mailbox)}/${m.letter}`;
}

function withId<E extends Type11Event>(e: E, id: MessageId | undefined): E {
  return id === undefined ? e : { ...e, id };
}

function event(out: Out, e: Type11Event): void {
  out.push({ kind: 'event', ...e });
}
