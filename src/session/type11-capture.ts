import { zeroCounters } from '../engine/contract.ts';
import type { Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { resolveType11Config } from './type11-conveyance-config.ts';
import { TYPE11_COUNTERS } from './type11-conveyance.ts';
import type { Type11ConveyanceOutput, Type11TimerName } from './type11-conveyance-types.ts';
import { Type11Receiver } from './type11-receiver.ts';

/**
 * Type 11 traffic seen from the outside (a captured trace): every MESSAGE packet, whoever it is
 * for, goes to the receiving half of the Type 11 conveyance of its destination, which collects
 * multi-segment messages as that node's session layer gets them (Part 2 §3.3.2 "The message length
 * and segment fields allow the individual packets of a data message to be sent or received out of
 * order"; Annex 2 §4.3.1). Passive: the responses a receiver would send are not kept (a capture
 * holds the real ones), no time-out drops a message (the end of the capture is the only limit),
 * every mailbox receives, and any number of messages may be collected at once.
 */

/** A whole message as the destination's session layer gets it. */
export interface CapturedMessage {
  readonly kind: 'message';
  readonly tt: number;
  readonly sourceID: number;
  readonly destinationID: number;
  /** xmbox‖mbox of a single-packet message, mbox of a multi-segment one (Part 2 Table 4-4). */
  readonly mailbox: number;
  readonly bytes: Uint8Array;
}

/** A segment that loses (part of) a message: `text` says what and why, after its clause. */
export interface CaptureProblem {
  readonly kind: 'problem';
  readonly clause: string;
  readonly text: string;
}

export type CaptureOutput = CapturedMessage | CaptureProblem;

/** A message still being collected when asked (`unfinished`): its first segment's time. */
export interface UnfinishedMessage {
  readonly at: Time;
  readonly clause: string;
  readonly text: string;
}

interface Destination {
  readonly tt: number;
  readonly id: number;
  readonly receiver: Type11Receiver;
}

const CLAUSE_REASSEMBLY = 'Part 2 §3.3.2';

export class Type11Capture {
  /** One receiver per destination: a receiver keys its messages by (source, letter, mbox). */
  readonly #destinations = new Map<string, Destination>();

  /** One captured MESSAGE packet at `now` (e.g. its line number). */
  packet(p: Type11Packet, now: Time): CaptureOutput[] {
    const d = this.#destination(p.tt, p.destinationID);
    const out: Type11ConveyanceOutput[] = [];
    d.receiver.segment(p, now, out);
    // Nothing answers a capture: the responses the receiver queued are dropped.
    d.receiver.responses.length = 0;
    const who = `from ${p.sourceID} to ${p.destinationID}, letter ${p.letter}, mailbox ${p.mailbox}`;
    return out.flatMap((o): CaptureOutput[] => {
      if (o.kind === 'message') return [{ kind: 'message', tt: p.tt, sourceID: o.from, destinationID: p.destinationID, mailbox: o.mailbox, bytes: o.bytes }];
      if (o.kind !== 'event') return [];
      switch (o.name) {
        case 'segment-rejected':
          return [{ kind: 'problem', clause: o.clause, text: `segment ${who} cannot be placed: ${o.reason}${dropped(o.dropped, 'of its message')}` }];
        case 'stale-reassembly':
          // Decision T13: another msglen or ssize, or other octets for a segment already held.
          return [{ kind: 'problem', clause: CLAUSE_REASSEMBLY, text: `segment ${who} belongs to a new message under the letter of one not complete${dropped(o.dropped, 'of the old one')}` }];
        default:
          // duplicate-segment: the same segment again, stored once (decision T12); busy and
          // reassembly-timeout cannot happen with the passive settings.
          return [];
      }
    });
  }

  /** The messages still incomplete, oldest first: the end of a capture loses them. */
  unfinished(): UnfinishedMessage[] {
    const out: UnfinishedMessage[] = [];
    for (const d of this.#destinations.values()) {
      const { reassemblies } = d.receiver.snapshot();
      for (const r of reassemblies) {
        out.push({
          at: r.openedAt,
          clause: CLAUSE_REASSEMBLY,
          text: `the message from ${r.from} to ${d.id}, letter ${r.letter}, mailbox ${r.mailbox} has ${r.received.length} of its ${r.segments} segments (msgseg ${r.received.join(', ')}) at the end of the input: ${r.octets} octets dropped (lost segment)`,
        });
      }
    }
    return out.sort((a, b) => a.at - b.at);
  }

  #destination(tt: number, id: number): Destination {
    const key = `${tt}/${id}`;
    let d = this.#destinations.get(key);
    if (d === undefined) {
      const config = resolveType11Config({ nodeId: id, tt, maxReassemblies: Number.MAX_SAFE_INTEGER, reassemblyTimeout: null });
      d = { tt, id, receiver: new Type11Receiver(config, zeroCounters(TYPE11_COUNTERS), new Timers<Type11TimerName>()) };
      this.#destinations.set(key, d);
    }
    return d;
  }
}

function dropped(octets: number, of: string): string {
  return octets === 0 ? '' : `; the ${octets} octets ${of} collected so far are dropped`;
}
