import { zeroCounters } from '../engine/contract.ts';
import type { Counters, Engine, Observable, Time } from '../engine/contract.ts';
import { pullCount } from '../engine/input-checks.ts';
import { CcpEndpoint } from '../flow/ccp-endpoint.ts';
import type { RegisterSpace } from '../registers/space.ts';
import type { Participation } from '../session/local-advertisement.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Packet } from '../wire/packet.ts';
import { isPacket } from './endpoint-input.ts';
import { resolveFabricConfig } from './fabric-endpoint-config.ts';
import { ORPHAN_TIMER, fabricElement } from './fabric-endpoint-element.ts';
import type { FabricElement } from './fabric-endpoint-element.ts';
import type { ResolvedFabricConfig } from './fabric-endpoint-config.ts';
import { FlowBook, flowSlot, gateFlows, HeldPackets } from './fabric-endpoint-hold.ts';
import { FabricTransmit } from './fabric-endpoint-transmit.ts';
import { nodeView } from './fabric-endpoint-view.ts';
import { SessionFeatures } from './endpoint/session-features.ts';
import { SessionGates } from './endpoint/session-gates.ts';
import { fabricTm } from './endpoint/tm-streams.ts';
import { isMaintenanceWrite, TmModeRegister, tmModeReport } from './endpoint/tm-mode-register.ts';
import type { FabricTm } from './endpoint/tm-streams.ts';
import { FABRIC_COUNTERS } from './fabric-endpoint-types.ts';
import type {
  FabricArbitrationSnapshot, FabricCounter, FabricCounters, FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput, FabricEndpointSnapshot, FabricEvent,
  FabricTimerName, FlowState,
} from './fabric-endpoint-types.ts';
import { frameFlows } from './fast-pull.ts';
import { SessionEndpoint } from './session-endpoint.ts';
import { takeFrames } from './fabric-endpoint-frames.ts';
import type { FrameIntakeHost } from './fabric-endpoint-frames.ts';
import type { FrameColumns } from '../wire/frame-batch-types.ts';
import { within } from './session-endpoint-config.ts';
import type { EndpointPacket, EndpointTimerName, PullInput, SessionEndpointOutput } from './session-endpoint-types.ts';

export type * from './fabric-endpoint-types.ts';

const TM_TIMERS = 'tm:';

/**
 * The end point processing element of issue 8's software fabric (fabric-endpoint-types.ts): the
 * end point element (endpoint/core.ts `EndpointCore`: Part 9 CCP reaction, features, dispatch by
 * kind) with a `SessionEndpoint` as its data path, the session streams, as an `Engine` for
 * drivers on real links (src/net) and manual clocks in tests.
 *
 * - Received packets go through the element: a Type 7 addressed to this end point (Part 9 §3.2
 *   destinationID "which end point the CCP is destined for") to the CCP engine or, FAM ≠ 000 with
 *   arbitration, to flow arbitration; TM packets to traffic management; the rest to the session
 *   stack.
 * - A stopped flow is realised by gating the session stack's segmenter flows (endpoint/
 *   session-gates.ts, decision FE10) and, for a request staged before its stop (a Type 9 segment,
 *   a Type 11 segment, a discovery read), by the hold: FIFO per flow, sent first, in order, when
 *   the flow may send again (XON, orphaned XOFF restart, link restart).
 * - The hold is bounded (`heldLimit`); with gating it takes a few packets per stopped flow and
 *   practically never fills. The session stack hands out its packets one at a time and cannot be
 *   asked for "a response, if it has one", so while the hold is full the end point pulls nothing
 *   from it and answers idle (`blockedPulls`) until a held flow restarts (decision FE1). Some flow
 *   always does: §2.4.2.1 "there shall be an orphaned XOFF mechanism", which restarts the stopped
 *   counters one after the other, oldest first (A.2), so nothing waits for ever.
 * - `link-down` discards the held packets; `link-down` and `link-up` both reset the XON/XOFF
 *   counters of every destination a CCP named (§2.4.2.3; endpoint/ccp-reaction.ts).
 * - With `tm`, Part 10 traffic management (endpoint/tm-streams.ts) takes the `send`s of Type 9
 *   transmit streams, received TM packets and `tm-level`s; its TM packets go ahead of the session
 *   stack's. With `arbitration`, Part 9 flow arbitration runs over the segmenter flows
 *   (endpoint/session-features.ts).
 *
 * @example
 * ```ts
 * import { FabricEndpoint } from 'riodp/node';
 * import type { FabricEndpointConfig } from 'riodp/node';
 *
 * const config = (nodeId: number, peer: number): FabricEndpointConfig => ({
 *   nodeId,
 *   conveyances: ['type9'],
 *   advertisement: { blocks: [{ contact: { conveyance: 'type9', streamID: 0xfff0 + nodeId, cos: 0 } }] },
 *   session: { protocols: [{ protoID: 0x1234, attributes: [], dataHeaderFormat: 'DATA3' }] },
 *   discovery: { targets: [{ node: peer }] },
 * });
 * const a = new FabricEndpoint(config(1, 2));
 * const b = new FabricEndpoint(config(2, 1));
 * a.handle({ kind: 'link-up' }, 0);
 * b.handle({ kind: 'link-up' }, 0);
 * a.handle({ kind: 'discover' }, 0);
 * // A back-to-back link: what one side sends (a pull's packet) is given to the other.
 * const send = (from: FabricEndpoint, to: FabricEndpoint, now: number) =>
 *   from.handle({ kind: 'pull' }, now).flatMap((o) => (o.kind === 'packet' ? to.handle({ kind: 'packet', packet: o.packet }, now) : []));
 * for (let now = 1; now <= 10; now++) {
 *   send(a, b, now); // a Type 8 MAINTENANCE read of b's registers
 *   for (const o of send(b, a, now)) { // b's read response, and what a makes of it
 *     if (o.kind === 'event' && o.source === 'discovery' && o.detail.event === 'participant') console.log(now, o.detail.contact); // 8 { conveyance: 'type9', streamID: 65522, cos: 0 }
 *   }
 * }
 * ```
 */
export class FabricEndpoint implements Engine<FabricEndpointInput, FabricEndpointOutput>, Observable<FabricEndpointSnapshot, FabricCounters> {
  readonly #config: ResolvedFabricConfig;
  readonly #endpoint: SessionEndpoint;
  readonly #ccp: CcpEndpoint;
  readonly #held: HeldPackets;
  /** The end point element, with this end point's session streams as its data path. */
  readonly #core: FabricElement;
  readonly #book = new FlowBook();
  readonly #gates: SessionGates;
  readonly #counters: Counters<FabricCounter> = zeroCounters(FABRIC_COUNTERS);
  #link: 'unknown' | 'up' | 'down' = 'unknown';
  #now: Time = 0;
  #out: FabricEndpointOutput[] = [];
  readonly #tm: FabricTm | undefined;
  /** The TM Mode field of 0x48 and the engines it sets (endpoint/tm-mode-register.ts). */
  readonly #tmMode: TmModeRegister;
  /** The session stack's flows as the features' (flow arbitration) host; undefined: no feature configured. */
  readonly #arb: SessionFeatures | undefined;
  readonly #segmentOut: SessionEndpointOutput[] = [];
  /** The fast lane's receive side (fabric-endpoint-frames.ts). */
  readonly #intake: FrameIntakeHost = {
    fast: () => this.#tm === undefined && this.#arb === undefined && this.#endpoint.takesFrames,
    segment: (frames, i, chunk) => {
      const o = this.#segmentOut;
      this.#endpoint.frame(frames, i, chunk, this.#now, o);
      if (o.length > 0) this.#fromEndpoint(o.splice(0));
    },
    packet: (p) => {
      this.#packet(p);
      this.#arb?.observe(this.#now);
    },
    invalid: (detail) => { this.#invalid(detail); },
  };
  /** The object path's transmit opportunity and its hold (fabric-endpoint-transmit.ts). */
  readonly #tx: FabricTransmit;

  constructor(config: FabricEndpointConfig) {
    const r = resolveFabricConfig(config);
    this.#config = r;
    this.#endpoint = new SessionEndpoint(r.endpoint);
    this.#ccp = within('ccp', () => new CcpEndpoint(r.ccp));
    this.#held = new HeldPackets(r.heldLimit);
    this.#gates = new SessionGates(r.gateFlows ? gateFlows(r.crfSupported) : [], {
      flowOpen: (destinationID, flowID) => this.#flowOpen(destinationID, flowID),
      featureStops: (destinationID, flowID) => this.#arb?.gateStops(destinationID, flowID) === true,
      gate: (gate) => { this.#fromEndpoint(this.#endpoint.handle(gate, this.#now)); },
    }, this.#counters);
    this.#tm = fabricTm(r.tm, this.#endpoint, r.crfSupported, {
      handOn: (stream, pdu) => this.#passOn(this.#endpoint.handle({ kind: 'send', stream, pdu }, this.#now)),
      output: (o) => { this.#out.push(o); },
      invalid: (detail) => { this.#invalid(detail); },
    });
    this.#tmMode = new TmModeRegister(this.#endpoint.registers, this.#tm !== undefined);
    const { flows, ...arbitration } = r.arbitration ?? {};
    this.#arb = r.arbitration === undefined ? undefined : new SessionFeatures(flows, this.#endpoint, r, {
      timer: (name, at) => { this.#out.push({ kind: 'timer', name: name as FabricTimerName, at }); },
      regate: (destinationID) => { this.#gates.regate(destinationID); },
    });
    this.#tx = new FabricTransmit({ held: this.#held, book: this.#book, gates: this.#gates, counters: this.#counters, tm: this.#tm, arb: this.#arb, crfSupported: r.crfSupported }, {
      flowOpen: (destinationID, flowID) => this.#flowOpen(destinationID, flowID),
      pullSession: () => this.#fromEndpoint(this.#endpoint.handle({ kind: 'pull' }, this.#now)),
      output: (o) => { this.#out.push(o); },
    });
    this.#core = fabricElement(r.nodeId, this.#ccp, r.arbitration === undefined ? undefined : arbitration, {
      gates: this.#gates, book: this.#book, arb: this.#arb, counters: this.#counters,
      output: (o) => { this.#out.push(o); },
      event: (detail) => { this.#event(detail); },
      received: (p) => { this.#received(p); },
    });
  }

  handle(input: FabricEndpointInput, now: Time): FabricEndpointOutput[] {
    this.#now = now;
    const out: FabricEndpointOutput[] = [];
    this.#out = out;
    switch (input.kind) {
      case 'packet':
        this.#packet(input.packet);
        break;
      case 'pull':
        this.#pull(input);
        break;
      case 'timer':
        this.#timer(input.name);
        break;
      case 'link-up':
      case 'link-down':
        this.#linkChange(input.kind);
        break;
      case 'tm-level':
        if (this.#tm === undefined) this.#invalid('tm-level: this end point has no traffic management (tm)');
        else this.#tm.level(input, now);
        break;
      case 'tm-command':
        if (this.#tm === undefined) this.#invalid('tm-command: this end point has no traffic management (tm)');
        else this.#tm.command(input, now);
        break;
      default:
        // Commands, discovery, and (from JSON) unknown kinds, which the session stack reports.
        if ((input as { kind: unknown }).kind === 'gate') this.#invalid('gate: the end point gates its flows from the CCPs it receives');
        else if (input.kind !== 'send' || this.#tm?.send(input, now) !== true) this.#fromEndpoint(this.#endpoint.handle(input, now));
    }
    this.#arb?.observe(now);
    return out;
  }

  /**
   * The fast lane (issue 17, docs/fast-lane.md §8): frames [first, first + count) of a frame batch
   * parsed from `chunk`, good Type 9 packet frames, each handled as its `packet` input would be,
   * outputs appended to `out`. Returns the frames taken: it stops after the first that produced
   * an output (fabric-endpoint-frames.ts). The PDUs delivered are buffers of their own: nothing
   * of `chunk` is kept.
   */
  handleFrames(frames: FrameColumns, chunk: Uint8Array, first: number, count: number, now: Time, out: FabricEndpointOutput[]): number {
    this.#now = now;
    this.#out = out;
    return takeFrames(this.#intake, frames, chunk, first, count, out);
  }

  /**
   * The fast lane's transmit pull (issue 17, docs/fast-lane.md §10): the Type 9 segments a `pull`
   * would send, written as riodp link PACKET frames into buf[offset, offset + budget), no packet
   * object each; the outputs that pull would give but its packets (the `sent` events of the PDUs
   * done, `idle` when nothing may be sent) are appended to `out`. Returns the bytes written, or -1
   * (nothing changed, `out` untouched) when the object `pull` must be used: whenever it could
   * send, or order, anything else — traffic management or flow arbitration configured, a packet
   * held, a flow stopped (a counter of the CCP reaction not zero, Part 9 §2.4.5), a response, a
   * read or a Type 11 message waiting, a 'high' Type 9 message queued — or when the first frame
   * does not fit. Equivalent to a `pull` whose `max` is the frames written (one more when the
   * answer ends idle): same bytes as encoding its packets, same outputs, counters and state
   * (fabric-endpoint-fast.prop.test.ts).
   */
  pullInto(buf: Uint8Array, offset: number, budget: number, now: Time, out: FabricEndpointOutput[]): number {
    if (this.#tm !== undefined || this.#arb !== undefined || this.#held.total !== 0 || this.#ccp.orphanDeadline() !== undefined) return -1;
    const outs: SessionEndpointOutput[] = [];
    const r = this.#endpoint.pullInto(buf, offset, budget, now, outs);
    if (r === null || (r.frames === 0 && r.more)) return -1;
    this.#now = now;
    this.#out = out;
    this.#fromEndpoint(outs);
    if (r.frames === 0) this.#out.push({ kind: 'idle' });
    frameFlows(buf, offset, offset + r.bytes, this.#config.crfSupported, (dest, flowID) => { this.#book.note(flowSlot(dest, flowID), dest, flowID); });
    return r.bytes;
  }

  counters(): FabricCounters {
    const c = { fabric: { ...this.#counters }, endpoint: this.#endpoint.counters(), engines: this.#endpoint.engineCounters(), ccp: this.#ccp.counters() };
    const withTm = this.#tm === undefined ? c : { ...c, tm: this.#tm.counters() };
    const arbitration = this.#arb?.counters()['arbitration'];
    return arbitration === undefined ? withTm : { ...withTm, arbitration };
  }

  /** Every (destination, flowID) this end point has sent on or been told about, by destination then Table 3-1 order. */
  flows(): FlowState[] {
    return this.#book.list().map((f) => ({
      destinationID: f.destinationID,
      flowID: f.flowID,
      state: this.#flowOpen(f.destinationID, f.flowID) ? 'xon' : 'xoff',
      held: this.#held.count(f.slot),
    }));
  }

  /** The end point's configuration space (SessionEndpoint's), as MAINTENANCE requests see it. */
  get registers(): RegisterSpace {
    return this.#endpoint.registers;
  }

  /**
   * What this end point's registers advertise (§3.2), as its own processor reads them
   * (`SessionEndpoint.participation`).
   */
  participation(): Participation {
    return this.#endpoint.participation();
  }

  snapshot(): FabricEndpointSnapshot {
    const c = this.#config;
    return {
      nodeId: c.nodeId,
      heldLimit: c.heldLimit,
      gateFlows: c.gateFlows,
      verifyOnReassemblyTimeout: c.verifyOnReassemblyTimeout,
      link: this.#link,
      held: this.#held.total,
      flows: this.flows(),
      gated: this.#gates.snapshot(),
      counters: { ...this.#counters },
      endpoint: this.#endpoint.snapshot(),
      ccp: this.#ccp.snapshot(),
      tm: this.#tm?.snapshot() ?? null,
      // Flow arbitration is the one feature a FabricEndpoint runs (ArbitrationFeature.snapshot, with the host's parts).
      arbitration: (this.#arb?.snapshot('arbitration') ?? null) as FabricArbitrationSnapshot | null,
    };
  }

  // ---- Inputs --------------------------------------------------------------------------------

  /** A received packet, as the element reads it (NodePacket, fabric-endpoint-view.ts), goes through the element's dispatch (endpoint/core.ts). */
  #packet(p: Packet): void {
    if (!isPacket(p)) {
      // The session stack words the report of what is not a packet.
      this.#fromEndpoint(this.#endpoint.handle({ kind: 'packet', packet: p }, this.#now));
      return;
    }
    // Without features only a Type 7 needs the element's dispatch (its CCP reaction); the rest goes straight on.
    if (p.ftype !== 7 && this.#arb === undefined) this.#received(p);
    else this.#core.receive(nodeView(p, this.#core.takes('arb'), this.#now), this.#now);
  }

  /** What no feature takes: TM packets to traffic management, the rest to the session stack (a data PDU's start tells the TM egress first). */
  #received(p: Packet): void {
    if (this.#tm !== undefined && p.ftype === 9 && this.#tm.received(p, this.#now)) return;
    this.#fromEndpoint(this.#endpoint.handle({ kind: 'packet', packet: p }, this.#now));
    // A new TM Mode acts, or is refused and put back (endpoint/tm-mode-register.ts).
    const w = isMaintenanceWrite(p) ? this.#tmMode.written() : undefined;
    const report = w === undefined ? undefined : tmModeReport(w);
    if (report !== undefined) this.#event({ event: 'tm', side: 'endpoint', ...report });
    if (w?.kind === 'changed') this.#tm?.setMode(w.to, this.#now);
  }

  #timer(name: FabricTimerName): void {
    if (name === ORPHAN_TIMER) this.#core.ccpTimer(this.#now);
    else if (this.#tm !== undefined && name.startsWith(TM_TIMERS)) this.#tm.timer(name.slice(TM_TIMERS.length), this.#now);
    else if (this.#arb?.timer(name, this.#now) === true) return;
    else this.#fromEndpoint(this.#endpoint.handle({ kind: 'timer', name: name as EndpointTimerName }, this.#now));
  }

  #linkChange(kind: 'link-up' | 'link-down'): void {
    this.#link = kind === 'link-up' ? 'up' : 'down';
    if (kind === 'link-down') {
      const discarded = this.#held.discard();
      this.#counters.discarded += discarded;
      this.#event({ event: 'link-down', discarded });
    }
    this.#core.linkChange(this.#now);
  }

  /** One transmit opportunity (fabric-endpoint-transmit.ts). */
  #pull(input: PullInput): void {
    const n = pullCount(input.max);
    // The session stack words the report of a bad `max`.
    if (n === 0) this.#fromEndpoint(this.#endpoint.handle(input, this.#now));
    else this.#tx.pull(n, this.#now);
  }

  #flowOpen(destinationID: number, flowID: FlowIdLabel): boolean {
    return this.#core.flowOpen(destinationID, flowID);
  }

  // ---- Between the engines -------------------------------------------------------------------

  #passOn(outs: readonly SessionEndpointOutput[]): readonly SessionEndpointOutput[] {
    this.#fromEndpoint(outs);
    return outs;
  }

  /** The session stack's outputs, passed on; the packet among them (a pull's answer) is returned instead. */
  #fromEndpoint(outs: readonly SessionEndpointOutput[]): EndpointPacket | undefined {
    let packet: EndpointPacket | undefined;
    for (const o of outs) {
      if (o.kind === 'packet') {
        packet = o.packet;
        continue;
      }
      if (o.kind === 'idle') continue;
      this.#out.push(o);
      if (o.kind === 'event' && this.#config.verifyOnReassemblyTimeout) this.#verifyAfterTimeout(o);
      this.#tm?.observe(o);
    }
    return packet;
  }

  /**
   * issue 8 §3 "a peer killed mid-PDU ... its streams reported closed": a reassembly that timed
   * out says its source fell silent mid-PDU, so every stream to it is queried (Annex 2 §3.8.3
   * "check all other open VSIDs to verify that they are functional"); a query unanswered within the
   * stream's timeout closes it (§3.7.1).
   */
  #verifyAfterTimeout(o: Extract<SessionEndpointOutput, { kind: 'event' }>): void {
    let node: number | undefined;
    if (o.source === 'type9' && o.detail.name === 'idle-timeout') node = o.detail.vsid.sourceID;
    else if (o.source === 'type11' && o.detail.name === 'reassembly-timeout') node = o.detail.from;
    if (node !== undefined) this.#fromEndpoint(this.#endpoint.handle({ kind: 'verify', node }, this.#now));
  }

  // ---- Outputs -------------------------------------------------------------------------------

  #event(detail: FabricEvent): void {
    this.#out.push({ kind: 'event', source: 'fabric', at: this.#now, detail });
  }

  #invalid(detail: string): void {
    this.#counters.invalidInputs++;
    this.#event({ event: 'invalid-input', detail });
  }
}
