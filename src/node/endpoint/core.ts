/**
 * The end point element (issue 15 "One end point element: ... CCP reaction, flow arbitration,
 * segmenter/reassembler, traffic management and session management are wired once"), for every
 * host: the Part 9 source reaction to CCPs (ccp-reaction.ts), the features (feature.ts: session
 * management, flow arbitration, traffic management, built by features.ts) and the dispatch of
 * received packets by kind. Where the data goes is its data path's:
 * - the flow queues (flow-queue-path.ts): the host offers whole PDUs, queued per flow, segmented
 *   and reassembled here; the simulator's end points (src/sim/fabric/endpoint.ts);
 * - the session streams (src/node/fabric-endpoint.ts): the application's PDUs go through the
 *   session stack's conveyances; the software fabric's end point.
 * A path gives the features their flows (a `FeatureHost`), realises a Part 9 flow change (flow
 * bits, or segmenter gates and a hold) and takes what no feature takes.
 *
 * Received packets: data goes to the features first (`dataReceived`, its position in its PDU),
 * then to the path; a CCP to the reaction; a feature's kind to that feature; anything else to the
 * path. Control packets are consumed on arrival (Part 9 §2.4.5 has the end point act on a CCP as it
 * arrives; a feature's message likewise).
 */
import { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import type { CcpEndpointConfig, FlowChangeCause } from '../../flow/ccp-endpoint-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { CcpReaction } from './ccp-reaction.ts';
import type { CcpReactionEvent } from './ccp-reaction.ts';
import type { EndpointFeature, FeatureHost, PacketPosition } from './feature.ts';
import { makeEndpointFeatures } from './features.ts';
import type { EndpointFeatureConfig, EndpointFeatureOptions } from './features.ts';
import type { NodePacket } from './packet.ts';

/** A data path of the element. */
export interface EndpointPath<P extends NodePacket> {
  /** The host side of the `index`-th feature, `name`: its flows, their `blocked` bits, its control packets and timers. */
  featureHost(name: string, index: number): FeatureHost;
  /** The features are built (in features.ts order): the path tells them of its flows so far and calls their hooks from now on. */
  featuresBuilt(features: readonly EndpointFeature[], now: number): void;
  /** The feature list changed (tests add observers): the path calls these from now on. */
  useFeatures(features: readonly EndpointFeature[]): void;
  /** Part 9 changed the send permission of (destinationID, flowID) (the engine's `flow` output). */
  flowChanged(destinationID: number, flowID: FlowIdLabel, enabled: boolean, cause: FlowChangeCause, now: number): void;
  /** Runs the CCP engine (`run`) and whatever the path does around a run (the session streams re-gate after it). */
  aroundCcp(run: () => void): void;
  /** A received data packet's position in its PDU for the features; undefined: the features do not follow it. */
  dataPosition(p: P): PacketPosition | undefined;
  /** A received packet no feature takes; data after the features heard of it. */
  receive(p: P, now: number): void;
  /** The element is built: `flowOpen` answers for the Part 9 state of any (destinationID, flowID). */
  attached(flowOpen: (destinationID: number, flowID: FlowIdLabel) => boolean): void;
}

/** What the element reports to its host about CCPs (the rest goes through the path). */
export interface EndpointCoreHost<P extends NodePacket> {
  /** Arm (at) or cancel (null) the orphaned XOFF timer (Annex A.2); call `ccpTimer` when due. */
  ccpTimer(at: number | null): void;
  /** Something the CCP engine reports. */
  ccpEvent(e: CcpReactionEvent, now: number): void;
  /** A CCP arrived for the engine. */
  ccpArrived(p: P, now: number): void;
  /** The CCP was taken (refusal undefined) or refused, with why. */
  ccpDone(p: P, refusal: string | undefined, now: number): void;
}

export interface EndpointCoreConfig extends EndpointFeatureConfig {
  readonly id: number;
  /** The Part 9 reaction engine, or its settings in the host's time unit; null: CCPs are refused (counted). */
  readonly ccp: CcpEndpointConfig | CcpEndpoint | null;
}

export class EndpointCore<P extends NodePacket, D extends EndpointPath<P>> {
  readonly path: D;
  /** The Part 9 reaction engine; null when `ccp` is null. */
  readonly ccp: CcpEndpoint | null;
  readonly #reaction: CcpReaction | null;
  readonly #host: EndpointCoreHost<P>;
  readonly #byKind = new Map<string, EndpointFeature>();
  #features: readonly EndpointFeature[];

  constructor(c: EndpointCoreConfig, host: EndpointCoreHost<P>, path: D, now: number, options: EndpointFeatureOptions = {}) {
    this.#host = host;
    this.path = path;
    this.ccp = c.ccp === null || c.ccp instanceof CcpEndpoint ? c.ccp : new CcpEndpoint(c.ccp);
    this.#reaction = this.ccp === null ? null : new CcpReaction(this.ccp, c.id, {
      flowChanged: (destinationID, flowID, enabled, cause, at) => { path.flowChanged(destinationID, flowID, enabled, cause, at); },
      orphanTimer: (at) => { host.ccpTimer(at); },
      event: (e, at) => { host.ccpEvent(e, at); },
    });
    let next = 0;
    this.#features = makeEndpointFeatures(c, (name) => path.featureHost(name, next++), options);
    for (const f of this.#features) for (const k of f.kinds) this.#byKind.set(k, f);
    path.featuresBuilt(this.#features, now);
    const reaction = this.#reaction;
    if (reaction !== null) path.attached((d, f) => reaction.flowOpen(d, f));
  }

  /** Session management, flow arbitration, traffic management, as configured (in that order). */
  get features(): readonly EndpointFeature[] {
    return this.#features;
  }

  /** Replaces the feature list the element calls (tests add observers); kinds are not re-routed. */
  set features(list: readonly EndpointFeature[]) {
    this.#features = list;
    this.path.useFeatures(list);
  }

  /** Whether a feature takes received packets of `kind`. */
  takes(kind: string): boolean {
    return this.#byKind.has(kind);
  }

  /** The end point is attached and about to start its traffic. */
  start(now: number): void {
    for (const f of this.#features) f.start?.(now);
  }

  /** A packet for this end point (a host with receive buffers frees a control packet's first). */
  receive(p: P, now: number): void {
    const kind = p.kind;
    if (kind === 'data') {
      this.dataIn(p, now);
      return;
    }
    const feature = this.#byKind.get(kind);
    // Part 9 §3.3: "A device that does not support the SAR protocol ignores the FAM bits": a flow
    // arbitration message at an end point without arbitration acts on its XON/XOFF bit alone.
    if (kind === 'ccp' || (kind === 'arb' && feature === undefined)) {
      this.#ccp(p, now);
      return;
    }
    if (feature !== undefined) feature.receive(p, now);
    else this.path.receive(p, now);
  }

  /** A data packet for this end point: the features hear of it, then the path. */
  dataIn(p: P, now: number): void {
    const features = this.#features;
    if (features.length > 0) {
      const position = this.path.dataPosition(p);
      if (position !== undefined) for (const ft of features) ft.dataReceived?.(p, position, now);
    }
    this.path.receive(p, now);
  }

  /** The host consumed a data packet (its buffer went back to the link). */
  dataConsumed(p: P, now: number): void {
    for (const ft of this.#features) ft.dataConsumed?.(p, now);
  }

  /** The receive queue now holds `packets` of `capacity` buffers. */
  rxLevel(packets: number, capacity: number, now: number): void {
    for (const ft of this.#features) ft.sinkLevel?.(packets, capacity, now);
  }

  /** The orphan timer is due. */
  ccpTimer(now: number): void {
    const r = this.#reaction;
    if (r !== null) this.path.aroundCcp(() => { r.orphanTimer(now); });
  }

  /** Feature `index`'s timer `name` is due. */
  featureTimer(index: number, name: string, now: number): void {
    this.#features[index]?.timer(name, now);
  }

  /** The link went up or down: the counters of every destination a CCP named restart (ccp-reaction.ts). */
  linkChange(now: number): void {
    const r = this.#reaction;
    if (r !== null) this.path.aroundCcp(() => { r.linkChange(now); });
  }

  /** Part 9 §2.4.5 rule 2: whether (destinationID, flowID) may send as the CCP engine has it. */
  flowOpen(destinationID: number, flowID: FlowIdLabel): boolean {
    return this.#reaction?.flowOpen(destinationID, flowID) ?? true;
  }

  #ccp(p: P, now: number): void {
    this.#host.ccpArrived(p, now);
    const r = this.#reaction;
    let refusal: string | undefined = 'this end point has no CCP engine';
    if (r !== null) this.path.aroundCcp(() => { refusal = r.receive(p.wire as Type7Packet, now); });
    this.#host.ccpDone(p, refusal, now);
  }
}
