import { fitsDeviceId } from '../engine/config-checks.ts';
import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { FLOW_IDS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type7Packet } from '../wire/type7.ts';
import { resolveArbTxConfig } from './arb-tx-config.ts';
import type { ResolvedArbTxConfig } from './arb-tx-config.ts';
import { canRequest, flowView, newFlow } from './arb-tx-flow.ts';
import type { ArbTxFlow, ArbTxFlowView, CurrentGrant, HeldGrant } from './arb-tx-flow.ts';
import { releasePacket, requestPacket } from './arb-tx-messages.ts';
import type { ArbMode, ArbTxConfig, ArbTxCounterName, ArbTxEventName, ArbTxInput, ArbTxOutput, ArbTxSnapshot, SegmentKind } from './arbitration-types.ts';
import { flowKey } from './flows.ts';

/**
 * Flow arbitration, transmitting end point (Part 9 §2.2, §2.4.7, Annex A.3): asks the receiver
 * for a resource per flow with REQUEST, transmits only under XON(ARB), and gives multi-PDU
 * resources back with RELEASE. Sans-IO (src/engine/contract.ts).
 */

const COUNTER_NAMES: readonly ArbTxCounterName[] = ['requests', 'reissued', 'rejected', 'granted', 'stale', 'refusedSegments', 'releases', 'revoked', 'ignored'];
const SEGMENT_KINDS: ReadonlySet<unknown> = new Set<SegmentKind>(['single', 'start', 'continuation', 'end', 'abort']);
const MODES: ReadonlySet<unknown> = new Set<ArbMode>(['single', 'multi']);

type Out = ArbTxOutput[];

function isFlowLabel(v: unknown): v is FlowIdLabel {
  return typeof v === 'string' && Object.hasOwn(FLOW_IDS, v);
}

/** Inputs may come from JSON (`riodp model`): anything that is not an object is ignored, not thrown on. */
function field(input: unknown, name: string): unknown {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
}

/**
 * The transmitting end point of flow arbitration: one per end point, for every flow it sends on (see the top of this file).
 *
 * @example
 * ```ts
 * import { ArbRx, ArbTx } from 'riodp/engines';
 *
 * const tx = new ArbTx({ localID: 1 });
 * const rx = new ArbRx({ localID: 2, resources: 1 });
 * for (const o of tx.handle({ kind: 'request', destinationID: 2, flowID: '0A', mode: 'single' }, 0)) {
 *   if (o.kind === 'send') rx.handle({ kind: 'ccp', packet: o.packet }, 10); // REQUEST → XON(ARB), allocated
 * }
 * ```
 */
export class ArbTx implements ObservableEngine<ArbTxInput, ArbTxOutput, ArbTxSnapshot, ArbTxCounterName> {
  readonly #c: ResolvedArbTxConfig;
  readonly #unsupported: ReadonlySet<number>;
  readonly #flows = new Map<string, ArbTxFlow>();
  readonly #timers = new Timers();
  readonly #counters = zeroCounters(COUNTER_NAMES);

  constructor(config: ArbTxConfig) {
    this.#c = resolveArbTxConfig(config);
    this.#unsupported = new Set(this.#c.unsupportedPeers);
  }

  handle(input: ArbTxInput, now: Time): ArbTxOutput[] {
    const out: Out = [];
    switch (field(input, 'kind')) {
      case 'request':
        this.#onRequest(input as Extract<ArbTxInput, { kind: 'request' }>, now, out);
        break;
      case 'segment':
        this.#onSegment(input as Extract<ArbTxInput, { kind: 'segment' }>, now, out);
        break;
      case 'release':
        this.#onRelease(input as Extract<ArbTxInput, { kind: 'release' }>, now, out);
        break;
      case 'ccp':
        this.#onCcp((input as Extract<ArbTxInput, { kind: 'ccp' }>).packet, now, out);
        break;
      case 'timer':
        this.#onTimer(String((input as { name: unknown }).name), now, out);
        break;
      default:
        this.#event(out, 'ignored');
    }
    return out;
  }

  /** §3.3: arbitration only "when both ends support it"; otherwise congestion management alone. */
  isArbitrated(destinationID: number): boolean {
    return this.#c.enabled && !this.#unsupported.has(destinationID);
  }

  /** The flow's arbitration state (a new flow's initial state when the engine has none for it). */
  state(destinationID: number, flowID: FlowIdLabel): ArbTxFlowView {
    const f = this.#flows.get(flowKey(destinationID, flowID)) ?? newFlow(destinationID, flowID);
    return flowView(f, this.isArbitrated(destinationID));
  }

  counters(): Counters<ArbTxCounterName> {
    return { ...this.#counters };
  }

  snapshot(): ArbTxSnapshot {
    const flows = [...this.#flows.values()]
      .sort((a, b) => a.destinationID - b.destinationID || (a.flowID < b.flowID ? -1 : a.flowID > b.flowID ? 1 : 0))
      .map((f) => flowView(f, this.isArbitrated(f.destinationID)));
    const c = this.#c;
    return {
      config: { ...c, unsupportedPeers: [...c.unsupportedPeers], requestFlow: { ...c.requestFlow } },
      flows,
      timers: this.#timers.pending(),
      counters: this.counters(),
    };
  }

  #validFlow(destinationID: unknown, flowID: unknown): boolean {
    return fitsDeviceId(destinationID, this.#c.tt) && isFlowLabel(flowID);
  }

  #flow(destinationID: number, flowID: FlowIdLabel): ArbTxFlow {
    const key = flowKey(destinationID, flowID);
    let f = this.#flows.get(key);
    if (f === undefined) {
      f = newFlow(destinationID, flowID);
      this.#flows.set(key, f);
    }
    return f;
  }

  #event(out: Out, name: ArbTxEventName, f?: { readonly destinationID: number; readonly flowID: string }, seq?: number): void {
    if (name === 'ignored') this.#counters.ignored++;
    if (f === undefined) out.push({ kind: 'event', name });
    else if (seq === undefined) out.push({ kind: 'event', name, destinationID: f.destinationID, flowID: f.flowID });
    else out.push({ kind: 'event', name, destinationID: f.destinationID, flowID: f.flowID, seq });
  }

  #onRequest(r: Extract<ArbTxInput, { kind: 'request' }>, now: Time, out: Out): void {
    if (!this.#validFlow(r.destinationID, r.flowID) || !MODES.has(r.mode)) {
      this.#event(out, 'ignored');
      return;
    }
    if (!this.isArbitrated(r.destinationID)) {
      this.#event(out, 'not-arbitrated', r);
      return;
    }
    const f = this.#flow(r.destinationID, r.flowID);
    if (f.pending?.waitingRetry === true) {
      // Decision: the application asking again ends the back-off; its REQUEST replaces the retry.
      this.#timers.cancel(`retry:${flowKey(f.destinationID, f.flowID)}`, out);
      f.pending = null;
    }
    if (f.pending !== null) {
      // Rule 11: "the transmitter shall not have more than one outstanding REQUEST"; one more
      // may wait for it, a third has nowhere to go.
      this.#event(out, 'request-refused', f);
      return;
    }
    if (canRequest(f, this.#c.pipelining)) {
      this.#sendNew(f, r.mode, now, out);
      return;
    }
    f.pending = { mode: r.mode, waitingRetry: false };
    this.#event(out, 'request-deferred', f);
  }

  #sendNew(f: ArbTxFlow, mode: ArbMode, now: Time, out: Out): void {
    // Rule 4: "The sequence number shall advance for any new REQUESTs on a given flow."
    const seq = f.nextSeq;
    f.nextSeq = seq ^ 1;
    f.outstanding = { mode, seq, reissues: 0 };
    this.#counters.requests++;
    out.push({ kind: 'send', packet: requestPacket(this.#c, f.destinationID, f.flowID, mode, seq) });
    this.#armRequestTimer(f, now, out);
  }

  #armRequestTimer(f: ArbTxFlow, now: Time, out: Out): void {
    if (this.#c.requestTimeout !== null) this.#timers.arm(`request:${flowKey(f.destinationID, f.flowID)}`, now + this.#c.requestTimeout, out);
  }

  /** Sends the waiting REQUEST once rule 11 and the sequence bit allow it. */
  #pump(f: ArbTxFlow, now: Time, out: Out): void {
    const p = f.pending;
    if (p === null || p.waitingRetry || !canRequest(f, this.#c.pipelining)) return;
    f.pending = null;
    this.#sendNew(f, p.mode, now, out);
  }

  #onSegment(s: Extract<ArbTxInput, { kind: 'segment' }>, now: Time, out: Out): void {
    if (!this.#validFlow(s.destinationID, s.flowID) || !SEGMENT_KINDS.has(s.segment)) {
      this.#event(out, 'ignored');
      return;
    }
    const { destinationID, flowID, segment } = s;
    if (!this.isArbitrated(destinationID)) {
      out.push({ kind: 'transmit', destinationID, flowID, segment });
      return;
    }
    const f = this.#flows.get(flowKey(destinationID, flowID));
    const g = f?.grant ?? null;
    // §2.4.7: "Transmitters shall not transmit on an arbitrated flow unless a resource is
    // available for reception of the PDU"; §2.4.2.1 "arbitrated flows are expected to remain off
    // until explicitly enabled".
    if (f === undefined || g === null) {
      this.#refuse(out, destinationID, flowID, segment, 'no-grant');
      return;
    }
    const starts = segment === 'single' || segment === 'start';
    if (starts && g.releasing) {
      this.#refuse(out, destinationID, flowID, segment, 'releasing');
      return;
    }
    if (starts === g.pduInProgress) {
      this.#refuse(out, destinationID, flowID, segment, 'out-of-sequence');
      return;
    }
    out.push({ kind: 'transmit', destinationID, flowID, segment });
    if (segment === 'start') g.pduInProgress = true;
    if (segment === 'start' || segment === 'continuation') return;
    g.pduInProgress = false;
    // Rule 5: "The transmitter shall assume the context is no longer available upon sending the
    // last segment for the PDU" (§2.4.8 1: an aborted PDU frees it too).
    if (g.mode === 'single') this.#endGrant(f, 'last-segment', now, out);
    else this.#finishIfReleasing(f, now, out);
  }

  #refuse(out: Out, destinationID: number, flowID: FlowIdLabel, segment: SegmentKind, reason: 'no-grant' | 'out-of-sequence' | 'releasing'): void {
    this.#counters.refusedSegments++;
    out.push({ kind: 'refused', destinationID, flowID, segment, reason });
  }

  #onRelease(r: Extract<ArbTxInput, { kind: 'release' }>, now: Time, out: Out): void {
    if (!this.#validFlow(r.destinationID, r.flowID)) {
      this.#event(out, 'ignored');
      return;
    }
    if (!this.isArbitrated(r.destinationID)) {
      this.#event(out, 'not-arbitrated', r);
      return;
    }
    const f = this.#flows.get(flowKey(r.destinationID, r.flowID));
    const g = f?.grant ?? null;
    // Rule 7 is about "a multi-PDU context"; a single-PDU one ends with its last segment.
    if (f === undefined || g === null || g.mode !== 'multi') {
      this.#event(out, 'ignored', r);
      return;
    }
    if (g.releasing) return;
    g.releasing = true;
    this.#finishIfReleasing(f, now, out);
  }

  /** Rules 7, 8: RELEASE "after completion of the current PDU". */
  #finishIfReleasing(f: ArbTxFlow, now: Time, out: Out): void {
    const g = f.grant;
    if (g === null || g.mode !== 'multi' || !g.releasing || g.pduInProgress) return;
    this.#counters.releases++;
    out.push({ kind: 'send', packet: releasePacket(this.#c, f.destinationID, f.flowID, g.seq) });
    this.#endGrant(f, 'released', now, out);
  }

  #endGrant(f: ArbTxFlow, reason: 'last-segment' | 'released' | 'revoked', now: Time, out: Out): void {
    f.grant = null;
    out.push({ kind: 'grant-ended', destinationID: f.destinationID, flowID: f.flowID, reason });
    const h = f.held;
    if (h !== null) {
      // §2.2.2 "The pipelined request shall not be honored until the current transaction has
      // been completely received": the held grant is for the next transaction.
      f.held = null;
      const g = this.#makeCurrent(f, h.mode, h.seq, out);
      if (h.revoked) this.#revokeCurrent(f, g, now, out, false);
    }
    this.#pump(f, now, out);
  }

  #makeCurrent(f: ArbTxFlow, mode: ArbMode, seq: number, out: Out): CurrentGrant {
    const g: CurrentGrant = { mode, seq, pduInProgress: false, releasing: false, revoked: false };
    f.grant = g;
    out.push({ kind: 'grant', destinationID: f.destinationID, flowID: f.flowID, mode, seq });
    return g;
  }

  #onCcp(p: Type7Packet, now: Time, out: Out): void {
    const command = field(p, 'command');
    if (command !== 'XON_ARB' && command !== 'XOFF_ARB') {
      this.#event(out, 'ignored');
      return;
    }
    // Decision: a CCP for another end point, or naming a reserved flowID ("no action required",
    // §3.4), is not ours to act on.
    if (p.destinationID !== this.#c.localID || !isFlowLabel(p.flowID)) {
      this.#event(out, 'ignored');
      return;
    }
    const who = { destinationID: p.tgtdestinationID, flowID: p.flowID };
    const seq = (p.seq ?? p.fam) & 1;
    if (!this.isArbitrated(p.tgtdestinationID)) {
      // §3.3: towards a peer without arbitration only congestion management is in use.
      this.#counters.ignored++;
      this.#event(out, 'not-arbitrated', who, seq);
      return;
    }
    const f = this.#flows.get(flowKey(p.tgtdestinationID, p.flowID));
    const xon = command === 'XON_ARB';
    if (f !== undefined && f.outstanding?.seq === seq) {
      this.#answer(f, xon, now, out);
      return;
    }
    if (!xon && f !== undefined) {
      // Rule 8: "XOFF(ARB) … during the multi-PDU transfer to indicate its desire to deallocate".
      const g = f.grant;
      if (g !== null && g.seq === seq && !g.revoked) {
        this.#revokeCurrent(f, g, now, out, true);
        return;
      }
      const h = f.held;
      if (h !== null && h.seq === seq && !h.revoked) {
        this.#revokeHeld(f, h, now, out);
        return;
      }
    }
    this.#counters.stale++;
    this.#event(out, 'stale-response', who, seq);
  }

  /** Rule 2: the receiver answers every REQUEST with XON(ARB) or XOFF(ARB). */
  #answer(f: ArbTxFlow, xon: boolean, now: Time, out: Out): void {
    const o = f.outstanding;
    if (o === null) return;
    f.outstanding = null;
    this.#timers.cancel(`request:${flowKey(f.destinationID, f.flowID)}`, out);
    if (xon) {
      this.#counters.granted++;
      if (f.grant === null) this.#makeCurrent(f, o.mode, o.seq, out);
      else f.held = { mode: o.mode, seq: o.seq, revoked: false };
    } else {
      this.#counters.rejected++;
      this.#event(out, 'rejected', f, o.seq);
      // §2.4.2.1 "Timeouts at source end points should result in retrying requests, not just
      // arbitrarily starting a flow"; rule 3 2): a new REQUEST after XOFF(ARB). A REQUEST
      // already waiting is that new REQUEST.
      if (f.pending === null && this.#c.retryDelay !== null) {
        f.pending = { mode: o.mode, waitingRetry: true };
        this.#timers.arm(`retry:${flowKey(f.destinationID, f.flowID)}`, now + this.#c.retryDelay, out);
      }
    }
    this.#pump(f, now, out);
  }

  #revokeCurrent(f: ArbTxFlow, g: CurrentGrant, now: Time, out: Out, count: boolean): void {
    if (count) {
      this.#counters.revoked++;
      this.#event(out, 'revoked', f, g.seq);
    }
    g.revoked = true;
    if (g.mode === 'multi') {
      // Rule 8: "shall complete transmission of the current PDU and send a RELEASE message".
      g.releasing = true;
      this.#finishIfReleasing(f, now, out);
    } else if (!g.pduInProgress) {
      // Decision: a single-PDU grant withdrawn before its PDU starts just ends; no RELEASE
      // (Table 3-2: RELEASE goes "in conjunction with" a multi-PDU request's buffer space).
      this.#endGrant(f, 'revoked', now, out);
    }
  }

  /** XOFF(ARB) naming the pipelined grant not yet current. */
  #revokeHeld(f: ArbTxFlow, h: HeldGrant, now: Time, out: Out): void {
    this.#counters.revoked++;
    this.#event(out, 'revoked', f, h.seq);
    if (h.mode === 'single') {
      f.held = null;
      this.#pump(f, now, out);
    } else {
      // The receiver holds the context until RELEASE (rule 8), which goes in turn, after the
      // current grant's PDU: the held grant becomes current and is released at once.
      h.revoked = true;
    }
  }

  #onTimer(name: string, now: Time, out: Out): void {
    if (!this.#timers.expire(name, now)) return;
    const colon = name.indexOf(':');
    const f = this.#flows.get(name.slice(colon + 1));
    if (f === undefined) return;
    const kind = name.slice(0, colon);
    const o = f.outstanding;
    if (kind === 'request' && o !== null) {
      // Rule 3 1): "it did not receive a response to the previous REQUEST message and timed
      // out"; rule 4: "The sequence number shall remain the same for REQUESTs reissued".
      o.reissues++;
      this.#counters.reissued++;
      this.#event(out, 'request-timeout', f, o.seq);
      out.push({ kind: 'send', packet: requestPacket(this.#c, f.destinationID, f.flowID, o.mode, o.seq) });
      this.#armRequestTimer(f, now, out);
    } else if (kind === 'retry' && f.pending?.waitingRetry === true) {
      f.pending.waitingRetry = false;
      this.#pump(f, now, out);
    }
  }
}
