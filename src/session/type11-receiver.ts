import type { Counters, Time } from '../engine/contract.ts';
import type { Timers } from '../engine/timers.ts';
import { attempt } from '../wire/errors.ts';
import { CLAUSE_T11_TABLE, checkType11 } from '../wire/type11.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { RESPONSE_STATUS, messageResponseTo } from '../wire/type13.ts';
import type { Type13MessageResponse } from '../wire/type13.ts';
import type { ResolvedType11Config } from './type11-conveyance-config.ts';
import type { Type11ConveyanceOutput, Type11ConveyanceSnapshot, Type11CounterName, Type11Event, Type11TimerName } from './type11-conveyance-types.ts';

/**
 * The receiving half of the Type 11 conveyance (see type11-conveyance-types.ts): collects the
 * segments of multi-segment messages, delivers messages and queues a response for every segment.
 * Shares the conveyance's timers, counters and output list; responses wait in `responses` until
 * the conveyance is pulled.
 */

const RX_PREFIX = 'rx:';

/** A message being collected under (source, letter, mbox). */
interface Reassembly {
  readonly key: string;
  readonly from: number;
  readonly letter: number;
  readonly mbox: number;
  readonly msglen: number;
  readonly ssize: number;
  /** Segment octets by msgseg (copies: packet buffers belong to the driver). */
  readonly parts: (Uint8Array | undefined)[];
  received: number;
  octets: number;
  readonly openedAt: Time;
  lastAt: Time;
}

type Out = Type11ConveyanceOutput[];

export class Type11Receiver {
  readonly #config: ResolvedType11Config;
  readonly #counters: Counters<Type11CounterName>;
  readonly #timers: Timers<Type11TimerName>;
  readonly #open = new Map<string, Reassembly>();
  /** Responses waiting for a pull, oldest first. */
  readonly responses: Type13MessageResponse[] = [];

  constructor(config: ResolvedType11Config, counters: Counters<Type11CounterName>, timers: Timers<Type11TimerName>) {
    this.#config = config;
    this.#counters = counters;
    this.#timers = timers;
  }

  /** A MESSAGE packet addressed to this node. */
  segment(p: Type11Packet, now: Time, out: Out): void {
    this.#counters.segmentsReceived++;
    const multi = p.msglen > 0;
    const key = `${p.sourceID}/${p.letter}/${p.mbox}`;
    const problem = this.#problem(p);
    if (problem !== undefined) {
      // The sender gives the whole message up on ERROR (Part 2 §3.1 "could not complete the
      // transaction"), so nothing collected for it can ever be completed.
      const old = multi ? this.#open.get(key) : undefined;
      this.#counters.rejectedSegments++;
      this.#respond(p, RESPONSE_STATUS.error);
      event(out, { name: 'segment-rejected', from: p.sourceID, letter: p.letter, mailbox: p.mailbox, ...problem, dropped: old?.octets ?? 0 });
      if (old !== undefined) this.#close(old, out);
      return;
    }
    if (!multi) {
      this.#respond(p, RESPONSE_STATUS.done);
      this.#deliver(p.sourceID, p.mailbox, p.payload.slice(), out);
      return;
    }
    const msgseg = p.msgseg ?? 0;
    let r = this.#open.get(key);
    if (r !== undefined && !sameMessage(r, p)) {
      this.#stale(r, out);
      r = undefined;
    }
    if (r?.parts[msgseg] !== undefined) {
      // The same segment again (sameMessage: same octets): answered like the first time, stored once.
      this.#counters.duplicateSegments++;
      this.#respond(p, RESPONSE_STATUS.done);
      event(out, { name: 'duplicate-segment', from: p.sourceID, letter: p.letter, mailbox: p.mailbox, msgseg });
      return;
    }
    if (r === undefined) {
      // Part 2 §3.1 "A RETRY response shall be generated for a message transaction that attempts
      // to access a mailbox that is busy servicing another message operation"; Annex A.4.3
      // "Subsequent message transactions from a different sender or with a different letter number
      // are now retried until all of the transactions for this message operation have been received".
      if (this.#open.size >= this.#config.maxReassemblies) {
        this.#counters.busySegments++;
        this.#respond(p, RESPONSE_STATUS.retry);
        event(out, { name: 'busy', from: p.sourceID, letter: p.letter, mailbox: p.mailbox, msgseg });
        return;
      }
      r = {
        key, from: p.sourceID, letter: p.letter, mbox: p.mbox, msglen: p.msglen, ssize: p.ssize,
        parts: new Array<Uint8Array | undefined>(p.msglen + 1).fill(undefined), received: 0, octets: 0, openedAt: now, lastAt: now,
      };
      this.#open.set(key, r);
    }
    this.#respond(p, RESPONSE_STATUS.done);
    r.parts[msgseg] = p.payload.slice();
    r.received++;
    r.octets += p.payload.length;
    r.lastAt = now;
    if (r.received === r.parts.length) {
      this.#deliver(r.from, r.mbox, concat(r.parts as Uint8Array[], r.octets), out);
      this.#close(r, out);
      return;
    }
    const timeout = this.#config.reassemblyTimeout;
    if (timeout !== null) this.#timers.arm(timerName(r), now + timeout, out);
  }

  /** A due reassembly timer (the conveyance checked it with `Timers.expire`). */
  expired(name: Type11TimerName, out: Out): void {
    const r = this.#open.get(name.slice(RX_PREFIX.length));
    if (r === undefined) return;
    this.#open.delete(r.key);
    this.#counters.reassemblyTimeouts++;
    event(out, { name: 'reassembly-timeout', from: r.from, letter: r.letter, mailbox: r.mbox, dropped: r.octets });
  }

  snapshot(): Pick<Type11ConveyanceSnapshot, 'reassemblies' | 'responsesQueued'> {
    return {
      reassemblies: [...this.#open.values()].map((r) => ({
        from: r.from, letter: r.letter, mailbox: r.mbox, segments: r.parts.length, ssize: r.ssize,
        received: r.parts.flatMap((p, i) => (p === undefined ? [] : [i])), octets: r.octets, openedAt: r.openedAt, lastAt: r.lastAt,
      })),
      responsesQueued: this.responses.length,
    };
  }

  /**
   * Why no receiver could place the segment: a mailbox this node does not receive on, or a size
   * Part 2 forbids (checkType11: reserved ssize, msgseg beyond msglen, an empty payload, one that is
   * not whole double-words or larger than ssize, a segment before the last that is not ssize).
   */
  #problem(p: Type11Packet): { readonly reason: string; readonly clause: string } | undefined {
    if (this.#config.mailboxes[p.mailbox] !== true) return { reason: `mailbox ${p.mailbox} does not receive messages`, clause: CLAUSE_T11_TABLE };
    const checked = attempt(() => {
      checkType11(p, 0);
    });
    return checked.ok ? undefined : { reason: checked.error.detail, clause: checked.error.clause };
  }

  /**
   * A MESSAGE RESPONSE echoing the segment's letter, mbox and msgseg or xmbox (Part 2 §4.3.3
   * Figure 4-3), one priority above it (Part 6 §6.12 rule 3).
   */
  #respond(p: Type11Packet, status: number): void {
    this.responses.push(messageResponseTo(p, status));
  }

  #deliver(from: number, mailbox: number, bytes: Uint8Array, out: Out): void {
    this.#counters.messagesDelivered++;
    out.push({ kind: 'message', from, mailbox, bytes });
  }

  #stale(r: Reassembly, out: Out): void {
    this.#counters.staleReassemblies++;
    event(out, { name: 'stale-reassembly', from: r.from, letter: r.letter, mailbox: r.mbox, dropped: r.octets });
    this.#close(r, out);
  }

  #close(r: Reassembly, out: Out): void {
    this.#open.delete(r.key);
    this.#timers.cancel(timerName(r), out);
  }
}

/**
 * Whether a segment can be part of the message collected under its (source, letter, mbox): the
 * same msglen and ssize, and a msgseg not yet held, or held with the same octets, which is the
 * same segment again. Anything else means the sender abandoned that message and reused the letter.
 */
function sameMessage(r: Reassembly, p: Type11Packet): boolean {
  if (r.msglen !== p.msglen || r.ssize !== p.ssize) return false;
  const held = r.parts[p.msgseg ?? 0];
  return held === undefined || equalBytes(held, p.payload);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function concat(parts: readonly Uint8Array[], octets: number): Uint8Array {
  const out = new Uint8Array(octets);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function timerName(r: Reassembly): Type11TimerName {
  return `rx:${r.key}`;
}

function event(out: Out, e: Type11Event): void {
  out.push({ kind: 'event', ...e });
}
