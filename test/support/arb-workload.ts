/**
 * An application at end point A for the end-to-end arbitration tests (test/support/arb-link.ts):
 * it asks for a resource per transfer, sends the transfer's PDUs as soon as A holds the grant, and
 * gives a multi-PDU grant back when its PDUs are done (Part 9 §2.4.7 rules 1, 6, 7). Whatever the
 * link loses or the receiver takes back, it asks again until every PDU went:
 *
 * - one request in A at a time per flow (rule 11 leaves A one outstanding REQUEST, and A holds at
 *   most one more), pipelined behind the current grant when `pipelining` (§2.2.2);
 * - a request A dropped (XOFF(ARB) with no retry, or a pipelined single-PDU grant withdrawn) is
 *   asked again;
 * - a grant that ended before all the transfer's PDUs went (XOFF(ARB), rule 8) is asked again for
 *   the PDUs left.
 */
import type { ArbMode, SegmentKind } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import { B_ID } from './arb-link.ts';
import { pduSegments } from './arb-trace.ts';
import type { ArbLink, LinkEvent } from './arb-link.ts';

export interface Transfer {
  readonly flowID: FlowIdLabel;
  readonly mode: ArbMode;
  /** Segments per PDU; a single-PDU transfer has one PDU. */
  readonly pdus: readonly number[];
  /** When the application wants it. */
  readonly at: number;
}

interface Active {
  readonly transfer: Transfer;
  /** PDUs whose last segment A transmitted. */
  sent: number;
}

interface FlowApp {
  readonly todo: Active[];
  /** The transfer A's current grant serves. */
  owner: Active | null;
  /** The transfer whose request A holds (outstanding, waiting, or granted and held). */
  asked: Active | null;
  /** A PDU is being sent (its segments are offered every segmentTime). */
  sending: boolean;
  /** `release` was fed for the owner's grant. */
  released: boolean;
  /** No PDU starts before this time (one segment per segmentTime). */
  nextStart: number;
  kickAt: number | null;
}

export class Workload {
  /** Application-side anomalies (a grant nobody asked for, a refused segment mid-PDU). */
  readonly anomalies: string[] = [];
  readonly #link: ArbLink;
  readonly #pipelining: boolean;
  readonly #flows = new Map<FlowIdLabel, FlowApp>();
  #finished = 0;
  #total = 0;

  constructor(link: ArbLink, transfers: readonly Transfer[], pipelining: boolean) {
    this.#link = link;
    this.#pipelining = pipelining;
    link.observe((e) => {
      this.#observe(e);
    });
    for (const t of transfers) {
      this.#total++;
      link.at(t.at, () => {
        this.#flow(t.flowID).todo.push({ transfer: t, sent: 0 });
        this.#kick(t.flowID);
      });
    }
  }

  /** Every transfer had all its PDUs sent and its grant ended. */
  get done(): boolean {
    return this.#finished === this.#total;
  }

  get finished(): number {
    return this.#finished;
  }

  #flow(flowID: FlowIdLabel): FlowApp {
    let f = this.#flows.get(flowID);
    if (f === undefined) {
      f = { todo: [], owner: null, asked: null, sending: false, released: false, nextStart: 0, kickAt: null };
      this.#flows.set(flowID, f);
    }
    return f;
  }

  /** Book-keeping only: observers run inside A's output processing and must not feed A. */
  #observe(e: LinkEvent): void {
    if (e.kind !== 'output' || e.side !== 'A') return;
    const o = e.output;
    if (o.kind === 'grant') {
      const f = this.#flow(o.flowID);
      if (f.asked === null) this.anomalies.push(`${e.t} ${o.flowID}: grant nobody asked for`);
      f.owner = f.asked;
      f.asked = null;
      f.released = false;
      this.#kick(o.flowID);
    } else if (o.kind === 'grant-ended') {
      const f = this.#flow(o.flowID);
      const owner = f.owner;
      f.owner = null;
      if (owner !== null && owner.sent === owner.transfer.pdus.length) this.#finish(f, owner);
      this.#kick(o.flowID);
    } else if (o.kind === 'event' && o.flowID !== undefined) {
      this.#kick(o.flowID as FlowIdLabel);
    }
  }

  #finish(f: FlowApp, a: Active): void {
    const i = f.todo.indexOf(a);
    if (i < 0) return;
    f.todo.splice(i, 1);
    this.#finished++;
  }

  /** Acts at `t` (default now), once per flow and time. */
  #kick(flowID: FlowIdLabel, t = this.#link.now): void {
    const f = this.#flow(flowID);
    if (f.kickAt !== null && f.kickAt <= t) return;
    f.kickAt = t;
    this.#link.at(t, () => {
      if (f.kickAt === t) f.kickAt = null;
      this.#act(flowID, f);
    });
  }

  #act(flowID: FlowIdLabel, f: FlowApp): void {
    const link = this.#link;
    const s = link.tx.state(B_ID, flowID);
    if (f.asked !== null && s.outstanding === null && s.pending === null && s.held === null) f.asked = null;
    const owner = f.owner;
    if (owner !== null && !f.sending && s.grant !== null && !s.releasing && !s.pduInProgress) {
      if (owner.sent < owner.transfer.pdus.length) {
        if (link.now < f.nextStart) this.#kick(flowID, f.nextStart);
        else this.#sendPdu(flowID, f, owner, pduSegments(owner.transfer.pdus[owner.sent] ?? 1), 0);
      } else if (owner.transfer.mode === 'multi' && !f.released) {
        f.released = true;
        link.feedA({ kind: 'release', destinationID: B_ID, flowID });
      }
    }
    if (f.asked === null) {
      const next = f.todo.find((a) => a !== f.owner && a.sent < a.transfer.pdus.length);
      if (next !== undefined && (f.owner === null || this.#pipelining)) {
        f.asked = next;
        link.feedA({ kind: 'request', destinationID: B_ID, flowID, mode: next.transfer.mode });
      }
    }
  }

  #sendPdu(flowID: FlowIdLabel, f: FlowApp, owner: Active, segments: readonly SegmentKind[], i: number): void {
    const link = this.#link;
    const segment = segments[i];
    if (segment === undefined) return;
    f.sending = true;
    const out = link.feedA({ kind: 'segment', destinationID: B_ID, flowID, segment });
    const refused = out.find((o) => o.kind === 'refused');
    if (refused !== undefined) {
      f.sending = false;
      // A start can be refused when XOFF(ARB) ended the grant at this very time; mid-PDU never.
      if (i > 0) this.anomalies.push(`${link.now} ${flowID}: ${segment} refused mid-PDU (${refused.reason})`);
      return;
    }
    if (i + 1 < segments.length) {
      link.at(link.now + link.segmentTime, () => {
        this.#sendPdu(flowID, f, owner, segments, i + 1);
      });
      return;
    }
    owner.sent++;
    f.sending = false;
    f.nextStart = link.now + link.segmentTime;
    if (f.owner !== owner && owner.sent === owner.transfer.pdus.length) this.#finish(f, owner);
    this.#kick(flowID);
  }
}
