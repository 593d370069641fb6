import type { Counters } from '../engine/contract.ts';
import { flowKey } from '../flow/flows.ts';
import { flowBits } from '../streaming/segment-pdu.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { serialPacketLength } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { ArbitrationFeature } from './endpoint/arbitration.ts';
import { FABRIC_ARB_TIMES } from './endpoint/arbitration-config.ts';
import type { EndpointArbitrationConfig } from './endpoint/arbitration-config.ts';
import { FLOW_BLOCK } from './endpoint/feature.ts';
import type { FeatureHost, PacketPosition } from './endpoint/feature.ts';
import type { FlowBacklog, TxFlow } from './endpoint/flows.ts';
import type { NodePacket, PacketKind, Priority } from './endpoint/packet.ts';
import { stoppableFlow } from './fabric-endpoint-hold.ts';
import type { SessionEndpoint } from './session-endpoint.ts';

/**
 * Part 9 flow arbitration in the software fabric's end point (issue 15): the same feature the
 * simulator's end points run (src/node/endpoint/arbitration.ts), whose flows here are the Type 9
 * conveyance's segmenter flows of the session stack. Each PDU the stack queues on an arbitrated
 * flow waits for a grant from its destination (§2.4.7 rule 1 "The transmitter shall issue a REQUEST
 * when it wishes the receiver to allocate a resource to a particular flow"), the flow's segments
 * start only while one is held (§2.4.2.1 "arbitrated flows are expected to remain off until
 * explicitly enabled"), and every data segment sent or received is a `segment` input of the
 * engines, so a single-PDU grant ends with its PDU (rule 5) and the destination frees its resource.
 *
 * The end point gates the segmenter flow while the feature blocks it and no PDU of it is being
 * segmented: a PDU that has started finishes (the feature's blocking is a permission to start, and
 * a Part 10 context is not left half-filled). A start segment the session stack had staged before
 * the grant ended waits in the end point's hold (fabric-endpoint.ts) until the next grant.
 */
export interface FabricArbitrationConfig extends EndpointArbitrationConfig {
  /**
   * The Type 9 flows whose PDUs need a grant (their segmenter flows). Default: the conveyance's
   * `normalFlow`, which carries DATA3 streams and the 'normal' management PDUs over Type 9.
   */
  readonly flows?: readonly FlowIdLabel[];
}

/** What the arbitration needs of its end point. */
export interface FabricArbitrationHost {
  /** Arm (`at`) or cancel (null) timer `name` of the end point. */
  timer(name: string, at: number | null): void;
  /** A flow's gate may have changed: gate the session stack's flows to `destinationID` anew. */
  regate(destinationID: number): void;
}

const ARB = FLOW_BLOCK.arbitration;

/**
 * One arbitrated flow's PDUs as the feature counts them: the segmenter's (waiting, and the one it
 * is cutting), of which one is in progress from its start segment sent to its end segment sent. A
 * PDU the segmenter has started but whose start segment has not gone (staged in the session stack,
 * or held for want of a grant) has not started for arbitration.
 */
class SegmenterBacklog implements FlowBacklog {
  readonly limit = Number.MAX_SAFE_INTEGER;
  /** A start segment of the flow was sent and its end has not been. */
  inProgress = false;
  readonly #endpoint: SessionEndpoint;
  readonly #dst: number;
  readonly #flowID: FlowIdLabel;

  constructor(endpoint: SessionEndpoint, dst: number, flowID: FlowIdLabel) {
    this.#endpoint = endpoint;
    this.#dst = dst;
    this.#flowID = flowID;
  }

  get length(): number {
    const b = this.#endpoint.type9Backlog(this.#dst, this.#flowID);
    return b === undefined ? 0 : b.waiting + (b.active ? 1 : 0);
  }

  /** Non-zero while a PDU is in progress (the feature asks only whether the head has started). */
  get headSent(): number {
    return this.inProgress ? 1 : 0;
  }

  get queuedBytes(): number {
    return this.#endpoint.type9Backlog(this.#dst, this.#flowID)?.queuedBytes ?? 0;
  }
}

interface ArbFlow extends TxFlow {
  readonly queue: SegmenterBacklog;
  /** The segmenter's number of the newest PDU told to the feature (`pduQueued`). */
  newest: number;
}

function position(p: Type9Packet): PacketPosition | undefined {
  switch (p.segment) {
    case 'single':
    case 'start':
    case 'continuation':
    case 'end':
      return p.segment;
    case 'abort':
      return 'end';
    default:
      return undefined;
  }
}

export class FabricArbitration {
  readonly feature: ArbitrationFeature;
  readonly #endpoint: SessionEndpoint;
  readonly #host: FabricArbitrationHost;
  readonly #arbitrated: ReadonlySet<string>;
  readonly #crfSupported: boolean;
  readonly #flows = new Map<string, ArbFlow>();
  readonly #list: ArbFlow[] = [];
  readonly #outbox: Type7Packet[] = [];
  readonly #counts = new Map<string, number>();

  constructor(config: FabricArbitrationConfig, endpoint: SessionEndpoint, node: { readonly nodeId: number; readonly tt: number; readonly crfSupported: boolean; readonly normalFlow: FlowIdLabel }, host: FabricArbitrationHost) {
    const { flows, ...settings } = config;
    this.#endpoint = endpoint;
    this.#host = host;
    this.#crfSupported = node.crfSupported;
    this.#arbitrated = new Set(checkFlows(flows) ?? [node.normalFlow]);
    const featureHost: FeatureHost = {
      name: `node ${node.nodeId}`,
      id: node.nodeId,
      tt: node.tt,
      crfSupported: node.crfSupported,
      flows: this.#list,
      count: (name, by = 1) => { this.#counts.set(name, (this.#counts.get(name) ?? 0) + by); },
      sendControl: (c) => { this.#outbox.push(c.wire as Type7Packet); },
      setBlocked: (f, bit, blocked) => {
        f.blocked = blocked ? f.blocked | bit : f.blocked & ~bit;
        this.#host.regate(f.dst);
      },
      timer: (t) => { this.#host.timer(`arb:${t.name}`, t.at); },
    };
    this.feature = new ArbitrationFeature(featureHost, settings, FABRIC_ARB_TIMES);
  }

  /** Whether a received Type 7 packet is a flow arbitration message (Part 9 §3.3: FAM 000 is XON/XOFF, the others arbitration). */
  takes(p: Type7Packet): boolean {
    return (p.fam & 7) !== 0;
  }

  receive(p: Type7Packet, now: number): void {
    this.feature.receive(nodePacket(p, 'arb', p.tgtdestinationID, now), now);
  }

  /** A Type 9 data segment received: the destination's ArbRx follows the PDUs of its arbitrated flows (rule 5, §2.4.8). */
  received(p: Type9Packet, now: number): void {
    const at = position(p);
    if (at === undefined || !this.#arbitrated.has(stoppableFlow(p, this.#crfSupported) ?? '')) return;
    this.feature.dataReceived(nodePacket(p, 'data', p.sourceID, now), at, now);
  }

  /** After an input: PDUs the session stack queued on arbitrated flows are told to the feature, which asks for grants. */
  observe(now: number): void {
    for (const b of this.#endpoint.type9BusyFlows()) {
      if (!this.#arbitrated.has(b.flowID)) continue;
      const f = this.#flow(b.destinationID, b.flowID, now);
      const newest = this.#endpoint.type9Backlog(b.destinationID, b.flowID)?.newest ?? 0;
      // Segmenter numbers increase by one per PDU accepted, for all flows together: one call per new PDU is enough.
      if (newest > f.newest) {
        f.newest = newest;
        this.feature.pduQueued(f, 0, now);
      }
    }
  }

  /** A packet the end point sends: a data segment of an arbitrated flow is a `segment` of ArbTx. */
  sent(p: Packet, now: number): void {
    if (p.ftype !== 9) return;
    const at = position(p);
    if (at === undefined) return;
    const flowID = stoppableFlow(p, this.#crfSupported);
    const f = flowID === undefined ? undefined : this.#flows.get(flowKey(p.destinationID, flowID));
    if (f === undefined) return;
    f.queue.inProgress = at === 'start' || at === 'continuation';
    this.feature.packetSent(f, { position: at, bytes: serialPacketLength(p), pduBytes: 0, wire: p }, now);
    // The PDU ended: a flow without a grant closes its gate now.
    if (at === 'end' || at === 'single') this.#host.regate(p.destinationID);
  }

  /** A start segment of a flow without a grant (staged before the grant ended) waits: held. */
  mustHold(p: Packet): boolean {
    if (p.ftype !== 9 || (p.segment !== 'start' && p.segment !== 'single')) return false;
    const flowID = stoppableFlow(p, this.#crfSupported);
    const f = flowID === undefined ? undefined : this.#flows.get(flowKey(p.destinationID, flowID));
    return f !== undefined && (f.blocked & ARB) !== 0;
  }

  /** Whether the gate of segmenter flow `flowID` to `destinationID` is closed by arbitration: no grant, and no PDU in progress. */
  gateStops(destinationID: number, flowID: FlowIdLabel): boolean {
    const f = this.#flows.get(flowKey(destinationID, flowID));
    return f !== undefined && (f.blocked & ARB) !== 0 && !f.queue.inProgress;
  }

  /** The next arbitration message to send (REQUEST, RELEASE, XON(ARB), XOFF(ARB)). */
  next(): Type7Packet | undefined {
    return this.#outbox.shift();
  }

  timer(name: string, now: number): void {
    this.feature.timer(name, now);
  }

  counters(): Counters<string> {
    return this.feature.counters();
  }

  snapshot(): Record<string, unknown> {
    return { ...this.feature.snapshot(), outbox: this.#outbox.length, flows: this.#list.map((f) => ({ destinationID: f.dst, flowID: f.flowID, blocked: (f.blocked & ARB) !== 0, queued: f.queue.length })) };
  }

  #flow(dst: number, flowID: FlowIdLabel, now: number): ArbFlow {
    const key = flowKey(dst, flowID);
    let f = this.#flows.get(key);
    if (f !== undefined) return f;
    const bits = flowBits(flowID, this.#crfSupported);
    f = { index: -1, dst, prio: (bits?.prio ?? 0) as Priority, crf: bits?.crf === 1 ? 1 : 0, flowID, queue: new SegmenterBacklog(this.#endpoint, dst, flowID), enabled: true, blocked: 0, newest: 0 };
    this.#flows.set(key, f);
    this.#list.push(f);
    this.feature.flowCreated(f, now);
    return f;
  }
}

/** A decoded packet as the feature reads it (NodePacket): the fields its engines and flow rules use. */
function nodePacket(p: Type7Packet | Type9Packet, kind: PacketKind, src: number, now: number): NodePacket {
  return {
    id: 0, kind, ftype: p.ftype, src, dst: p.destinationID, prio: (p.prio & 3) as Priority, crf: p.crf === 1 ? 1 : 0, vc: p.vc,
    bytes: serialPacketLength(p), flow: -1, createdAt: now, wire: p,
  };
}

/** Configurations also come from JSON: every entry must be a flowID of Part 9 Table 3-1. */
function checkFlows(flows: unknown): readonly FlowIdLabel[] | undefined {
  if (flows === undefined) return undefined;
  if (!Array.isArray(flows) || flows.length === 0 || !flows.every((f) => typeof f === 'string' && (FLOW_ID_LABELS as readonly string[]).includes(f))) {
    throw new RangeError(`arbitration.flows must list flowIDs of Part 9 Table 3-1 (${FLOW_ID_LABELS.join(', ')})`);
  }
  return flows as FlowIdLabel[];
}
