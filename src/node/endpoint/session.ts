/**
 * Annex 2 session management in a simulated end point (issue 7 §2 "Endpoints: … optionally
 * session management to open streams before data flows"). Each end point runs a
 * `SessionEndpoint` (src/node/session-endpoint.ts: its registers, MAINTENANCE both ways,
 * discovery, the session engine and its conveyance); this feature only drives it:
 *
 * - Every flow starts held (`FLOW_BLOCK.session`). For each destination the end point discovers
 *   it (§3.3: MAINTENANCE reads of its registers over the fabric), REQUESTs the protocol and OPENs
 *   a stream to it with what the ADVERTISE lists (Figure 3-1 "Normal Stream Initiation"), and on
 *   ACCEPT lets every flow to it go: §2.3 "The data streaming process is separated into two
 *   phases, with the management phase separated from the data phase".
 * - The protocol is a vendor-defined one (ProtoID 0x0101, Chapter 6) named by VENDOR and
 *   PROTOCOL_NAME, "These two attributes distinguish a vendor-defined protocol" (§6.2).
 * - The session's packets (Type 8, 11, 13, or 9 with a Type 9 conveyance) travel as control
 *   packets of kind 'smp' whose `wire` is the decoded packet, priced by the codecs' LP-Serial
 *   length. The simulated data stays the end point's own data packets: the session opens the
 *   streams, it does not carry the data.
 * - `SessionEndpoint` sends only when pulled; the driver (session-driver.ts) pulls until it
 *   is idle after every input, and the end point's control queues then order the packets by
 *   priority on the link.
 *
 * A destination that refuses, does not take part, cannot be reached or does not answer leaves its
 * flows held, and the reason is counted. A stream closed later holds its flows again.
 */
import { zeroCounters } from '../../engine/contract.ts';
import type { Counters } from '../../engine/contract.ts';
import { SessionEndpoint } from '../session-endpoint.ts';
import type { DiscoverCommand, EndpointCommand, EndpointEventOutput, EndpointTimerName } from '../session-endpoint-types.ts';
import type { DiscoveryEvent } from '../../session/discovery-types.ts';
import type { SessionEvent } from '../../session/types.ts';
import type { Packet } from '../../wire/packet.ts';
import { PROTO_ID } from '../../wire/smp/header.ts';
import { FLOW_BLOCK } from './feature.ts';
import type { EndpointFeature, FeatureHost, SentPacket } from './feature.ts';
import { SessionBystander } from './session-bystander.ts';
import { SESSION_FEATURE_COUNTERS, SessionDriver } from './session-driver.ts';
import type { SessionFeatureCounter } from './session-driver.ts';
import { resolveSessionFeatureConfig, sessionEndpointConfig } from './session-config.ts';
import type { EndpointSessionConfig, ResolvedSessionFeatureConfig } from './session-config.ts';
import { flowSnapshot, newPeer, openRef, peerSnapshot, refNode } from './session-peers.ts';
import type { FlowRecord, Peer, PeerState } from './session-peers.ts';
import type { TxFlow } from './flows.ts';
import type { NodePacket } from './packet.ts';
import { isMaintenanceWrite } from './tm-mode-register.ts';
import { tmDataStreaming } from './tm-registers.ts';
import type { TmRegisterSettings } from './tm-registers.ts';
import type { RegisterSpace } from '../../registers/space.ts';

export type { EndpointSessionConfig } from './session-config.ts';

export { SESSION_FEATURE_COUNTERS } from './session-driver.ts';
export type { SessionFeatureCounter } from './session-driver.ts';

/** The probe counter of each failure state. */
const FAILURE_COUNTER: Partial<Record<PeerState, SessionFeatureCounter>> = {
  refused: 'refused', unsupported: 'unsupported', 'not-participating': 'notParticipating', unreachable: 'unreachable', timeout: 'timeouts', closed: 'closed',
};

export class SessionFeature implements EndpointFeature {
  readonly name = 'session';
  readonly kinds = ['smp'] as const;
  readonly #host: FeatureHost;
  readonly #c: ResolvedSessionFeatureConfig;
  /** The participant's stack; null for a non-participant. */
  readonly #se: SessionEndpoint | null;
  readonly #bystander: SessionBystander | null;
  readonly #counters: Counters<SessionFeatureCounter> = zeroCounters(SESSION_FEATURE_COUNTERS);
  readonly #peers = new Map<number, Peer>();
  readonly #flows = new Map<TxFlow, FlowRecord>();
  /** Flows whose first data packet has not left yet (packetSent looks no further once 0). */
  #awaitingFirst = 0;
  #started = false;
  readonly #driver: SessionDriver;
  /** Called after a MAINTENANCE write request was served (the end point's TM Mode field, features.ts). */
  #written: ((now: number) => void) | undefined;

  /** `tm`: the end point's traffic management, which its registers then advertise (tm-registers.ts). */
  constructor(host: FeatureHost, config: EndpointSessionConfig, tm?: TmRegisterSettings) {
    this.#host = host;
    this.#c = resolveSessionFeatureConfig(config, host.id, host.tt, host.crfSupported);
    if (this.#c.role === 'non-participant') {
      this.#se = null;
      this.#bystander = new SessionBystander(host.id, this.#c.tt, tm === undefined ? undefined : tmDataStreaming(host.dataStreaming ?? {}, tm));
    } else {
      this.#se = new SessionEndpoint({ ...sessionEndpointConfig(this.#c), ...(tm === undefined ? {} : { registers: { dataStreaming: { tm } } }) });
      this.#bystander = null;
    }
    this.#driver = new SessionDriver(host, this.#counters, this.#se, (o, now) => {
      this.#event(o, now);
    });
  }

  start(now: number): void {
    this.#started = true;
    for (const p of this.#peers.values()) if (p.state === 'idle') this.#discover(p, now);
  }

  flowCreated(f: TxFlow, now: number): void {
    // A non-participant has no streams to open: its flows send as without session management.
    if (this.#se === null) return;
    const r: FlowRecord = { flow: f, createdAt: now, openedAt: null, firstPacketAt: null };
    this.#flows.set(f, r);
    this.#awaitingFirst++;
    let peer = this.#peers.get(f.dst);
    if (peer === undefined) {
      peer = newPeer(f.dst, now);
      this.#peers.set(f.dst, peer);
    }
    peer.flows.push(r);
    if (peer.state === 'open') {
      this.#flowOpened(r, now);
      return;
    }
    this.#host.setBlocked(f, FLOW_BLOCK.session, true, now);
    if (!this.#started) return;
    if (peer.state === 'idle') this.#discover(peer, now);
    else if (peer.state === 'discovered') this.#discovered(peer, now);
  }

  packetSent(f: TxFlow, _p: SentPacket, now: number): void {
    if (this.#awaitingFirst === 0) return;
    const r = this.#flows.get(f);
    if (r === undefined || r.firstPacketAt !== null) return;
    r.firstPacketAt = now;
    this.#awaitingFirst--;
  }

  receive(p: NodePacket, now: number): void {
    this.#counters.packetsReceived++;
    this.#host.count('session.received');
    if (this.#bystander !== null) {
      const a = this.#bystander.answer(p.wire);
      if (a.kind === 'response') this.#driver.send(a.response, now);
      else this.#ignored();
    } else {
      this.#driver.feed({ kind: 'packet', packet: p.wire as Packet }, now);
    }
    if (this.#written !== undefined && isMaintenanceWrite(p.wire as Packet)) this.#written(now);
  }

  /** The end point's configuration space, which MAINTENANCE requests read and write: its session stack's, or the non-participant's. */
  get registers(): RegisterSpace {
    return this.#se?.registers ?? (this.#bystander as SessionBystander).registers;
  }

  /** `fn` is called after each MAINTENANCE write request this end point served. */
  watchWrites(fn: (now: number) => void): void {
    this.#written = fn;
  }

  timer(name: string, now: number): void {
    if (this.#se !== null) this.#driver.feed({ kind: 'timer', name: name as EndpointTimerName }, now);
  }

  /**
   * An application command for the end point's session stack (close a stream, query its status,
   * discover a node again …), as `SessionEndpoint` takes it; false for a non-participant.
   */
  command(c: EndpointCommand | DiscoverCommand, now: number): boolean {
    if (this.#se === null) return false;
    this.#driver.feed(c, now);
    return true;
  }

  counters(): Record<string, number> {
    return { ...this.#counters };
  }

  snapshot(): Record<string, unknown> {
    const c = this.#c;
    return {
      role: c.role,
      contact: { ...c.contact },
      protoID: PROTO_ID.VENDOR_DEFINED,
      acceptOpen: c.acceptOpen,
      peers: [...this.#peers.values()].map(peerSnapshot),
      flows: [...this.#flows.values()].map(flowSnapshot),
      endpoint: this.#se?.counters() ?? null,
      engines: this.#se?.engineCounters() ?? null,
    };
  }

  /** The state of the management phase with `node`, undefined when no flow goes there. */
  peerState(node: number): PeerState | undefined {
    return this.#peers.get(node)?.state;
  }

  // ---- The management phase, per destination ----------------------------------------------------

  #discover(p: Peer, now: number): void {
    this.#enter(p, 'discovering', now);
    this.#driver.feed({ kind: 'discover', node: p.node, hop: this.#c.hop }, now);
  }

  /** §3.3 "the end point is then expected to contact remote end points as appropriate". */
  #discovered(p: Peer, now: number): void {
    if (p.flows.length === 0) {
      this.#enter(p, 'discovered', now);
      return;
    }
    if (!this.#c.request) {
      this.#open(p, true, now);
      return;
    }
    this.#enter(p, 'requesting', now);
    this.#driver.feed({ kind: 'request', to: p.node, protoID: PROTO_ID.VENDOR_DEFINED, attributes: this.#c.identity }, now);
  }

  /**
   * After an ADVERTISE the engine opens with the advertised attributes (§3.8.2 "OPEN commands
   * should maintain the order of Attributes that was used in the ADVERTISE command"); without one,
   * with VENDOR and PROTOCOL_NAME, which name the protocol (§6.2).
   */
  #open(p: Peer, named: boolean, now: number): void {
    this.#enter(p, 'opening', now);
    const open: EndpointCommand = named
      ? { kind: 'open', to: p.node, protoID: PROTO_ID.VENDOR_DEFINED, ref: openRef(p.node), attributes: this.#c.identity }
      : { kind: 'open', to: p.node, protoID: PROTO_ID.VENDOR_DEFINED, ref: openRef(p.node) };
    this.#driver.feed(open, now);
  }

  #streamOpen(p: Peer, streamID: number, now: number): void {
    this.#enter(p, 'open', now);
    p.streamID = streamID;
    this.#counters.opened++;
    this.#host.count('session.opened');
    for (const r of p.flows) this.#flowOpened(r, now);
  }

  #flowOpened(r: FlowRecord, now: number): void {
    if (r.openedAt === null) {
      r.openedAt = now;
      const setup = now - r.createdAt;
      const c = this.#counters;
      c.flowsOpened++;
      c.setupTotal += setup;
      c.setupMax = Math.max(c.setupMax, setup);
      this.#host.count('session.flowsOpened');
      this.#host.count('session.setupTime', setup);
    }
    this.#host.setBlocked(r.flow, FLOW_BLOCK.session, false, now);
  }

  /** The management phase ended without a stream (or the stream ended): the flows stay or go back on hold. */
  #fail(p: Peer, state: PeerState, now: number): void {
    const wasOpen = p.state === 'open';
    this.#enter(p, state, now);
    p.streamID = null;
    const counter = FAILURE_COUNTER[state];
    if (counter !== undefined) {
      this.#counters[counter]++;
      this.#host.count(`session.${counter}`);
    }
    if (wasOpen) for (const r of p.flows) this.#host.setBlocked(r.flow, FLOW_BLOCK.session, true, now);
  }

  #enter(p: Peer, state: PeerState, now: number): void {
    p.state = state;
    p.since = now;
  }

  // ---- Its outputs ------------------------------------------------------------------------------

  #event(o: EndpointEventOutput, now: number): void {
    if (o.source === 'discovery') this.#discoveryEvent(o.detail, now);
    else if (o.source === 'session') this.#sessionEvent(o.detail, now);
    else if (o.source === 'endpoint') this.#ignored();
  }

  #discoveryEvent(d: DiscoveryEvent, now: number): void {
    if (d.event !== 'participant' && d.event !== 'not-participating' && d.event !== 'unreachable') return;
    const p = this.#peers.get(d.node);
    if (p?.state !== 'discovering') return;
    if (d.event === 'participant') this.#discovered(p, now);
    else this.#fail(p, d.event, now);
  }

  #sessionEvent(e: SessionEvent, now: number): void {
    switch (e.event) {
      case 'advertised': {
        const p = this.#peers.get(e.node);
        if (p?.state !== 'requesting') return;
        const m = e.message;
        // §4.2.2: S=1 "the requested protocol is supported"; A=1 its attributes follow.
        const supported = m.command === 'ADVERTISE' && m.s === 1 && m.a === 1 && m.protocols.some((b) => b.protoID === PROTO_ID.VENDOR_DEFINED);
        if (supported) this.#open(p, false, now);
        else this.#fail(p, 'unsupported', now);
        return;
      }
      case 'opened': {
        if (e.stream.direction === 'rx') {
          this.#accepted(e.stream.remote, now);
          return;
        }
        const p = this.#peerOf(e.ref);
        if (p?.state === 'opening' && p.node === e.stream.remote) this.#streamOpen(p, e.stream.streamID, now);
        return;
      }
      case 'refused': {
        const p = this.#peerOf(e.ref);
        if (p?.state === 'opening') this.#fail(p, 'refused', now);
        return;
      }
      case 'timeout': {
        const p = this.#peers.get(e.node);
        if ((p?.state === 'requesting' && e.command === 'REQUEST') || (p?.state === 'opening' && e.command === 'OPEN')) this.#fail(p, 'timeout', now);
        return;
      }
      case 'closed': {
        if (e.stream.direction !== 'tx') return;
        const p = this.#peers.get(e.stream.remote);
        if (p?.state === 'open' && p.streamID === e.stream.streamID) this.#fail(p, 'closed', now);
        return;
      }
      default:
    }
  }

  /**
   * A receive stream was opened from `node`. Decision E1 lets the stack answer a node it has not
   * discovered, but a message of its own (CLOSE, FLOW_CONTROL, a STATUS query) needs that node's
   * contact: as in Figure 3-1, where the Dest reads the Session Mgmt CSR of the Source, it is
   * discovered now unless it already is.
   */
  #accepted(node: number, now: number): void {
    this.#counters.accepted++;
    this.#host.count('session.accepted');
    if (this.#peers.has(node)) return;
    const p = newPeer(node, now);
    this.#peers.set(node, p);
    this.#discover(p, now);
  }

  #peerOf(ref: string | undefined): Peer | undefined {
    const node = refNode(ref);
    return node === undefined ? undefined : this.#peers.get(node);
  }

  #ignored(): void {
    this.#counters.ignored++;
    this.#host.count('session.ignored');
  }
}
