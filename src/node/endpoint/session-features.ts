import type { Counters } from '../../engine/contract.ts';
import { flowKey } from '../../flow/flows.ts';
import { flowBits } from '../../streaming/segment-pdu.ts';
import { FLOW_ID_LABELS } from '../../wire/flow-id.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import type { Packet } from '../../wire/packet.ts';
import type { Type9Packet } from '../../wire/type9-types.ts';
import type { EndpointArbitrationConfig } from './arbitration-config.ts';
import { PDU_START_BLOCKS } from './feature.ts';
import type { EndpointFeature, FeatureHost, PacketPosition } from './feature.ts';
import type { FlowBacklog, TxFlow } from './flows.ts';
import type { Priority } from './packet.ts';
import { stoppableFlow } from '../fabric-endpoint-hold.ts';
import type { SessionEndpoint } from '../session-endpoint.ts';
import type { FabricPacket } from '../fabric-endpoint-types.ts';

/**
 * The end point features (feature.ts, built by features.ts as for every end point) in an end
 * point whose data goes through its session stack (the software fabric's `FabricEndpoint`): their
 * flows are the Type 9 conveyance's segmenter flows of the session stack. This is the session
 * streams' `FeatureHost`, as the flow queues (flow-queues.ts) are the simulator's; a feature
 * added to features.ts runs in both.
 *
 * Part 9 flow arbitration (arbitration.ts) is the feature it carries today: each PDU the stack
 * queues on an arbitrated flow waits for a grant from its destination (§2.4.7 rule 1 "The
 * transmitter shall issue a REQUEST when it wishes the receiver to allocate a resource to a
 * particular flow"), the flow's segments start only while one is held (§2.4.2.1 "arbitrated flows
 * are expected to remain off until explicitly enabled"), and every data segment sent or received
 * is a `segment` input of the engines, so a single-PDU grant ends with its PDU (rule 5) and the
 * destination frees its resource. (Part 10 traffic management queues per DATA3 stream, not per
 * flow, and has its own port, tm-streams.ts; session management is the session stack itself.)
 *
 * A feature's bits other than XOFF are permissions to start a PDU (feature.ts `PDU_START_BLOCKS`):
 * the end point gates the segmenter flow while one is set and no PDU of it is being segmented, so
 * a PDU that has started finishes (a Part 10 context is not left half-filled). A start segment the
 * session stack had staged before the permission ended waits in the end point's hold
 * (fabric-endpoint.ts) until the next one.
 */
export interface FabricArbitrationConfig extends EndpointArbitrationConfig {
  /**
   * The Type 9 flows whose PDUs need a grant (their segmenter flows). Default: the conveyance's
   * `normalFlow`, which carries DATA3 streams and the 'normal' management PDUs over Type 9.
   */
  readonly flows?: readonly FlowIdLabel[];
}

/** What the features need of their end point. */
export interface SessionFeaturesHost {
  /** Arm (`at`) or cancel (null) timer `name` of the end point (`<prefix>:<feature's name>`). */
  timer(name: string, at: number | null): void;
  /** A flow's gate may have changed: gate the session stack's flows to `destinationID` anew. */
  regate(destinationID: number): void;
}

/** The end point timer prefix of each feature's timers. */
const TIMER_PREFIX: Readonly<Record<string, string>> = { arbitration: 'arb', tm: 'tm', session: 'session' };

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

interface SessionFlow extends TxFlow {
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

export class SessionFeatures {
  readonly #endpoint: SessionEndpoint;
  readonly #host: SessionFeaturesHost;
  readonly #node: { readonly nodeId: number; readonly tt: number; readonly crfSupported: boolean };
  /** The segmenter flows the features hold back (arbitration's `flows`, default the conveyance's normalFlow). */
  readonly #managed: ReadonlySet<string>;
  readonly #crfSupported: boolean;
  readonly #flows = new Map<string, SessionFlow>();
  readonly #list: SessionFlow[] = [];
  readonly #outbox: FabricPacket[] = [];
  readonly #byPrefix = new Map<string, EndpointFeature>();
  #features: readonly EndpointFeature[] = [];

  /** `flows`: the segmenter flows the features hold back; undefined: the conveyance's normalFlow. */
  constructor(flows: unknown, endpoint: SessionEndpoint, node: { readonly nodeId: number; readonly tt: number; readonly crfSupported: boolean; readonly normalFlow: FlowIdLabel }, host: SessionFeaturesHost) {
    this.#endpoint = endpoint;
    this.#host = host;
    this.#node = node;
    this.#crfSupported = node.crfSupported;
    this.#managed = new Set(checkFlows(flows) ?? [node.normalFlow]);
  }

  /** The features the element built over these flows (core.ts `featuresBuilt`). */
  bind(features: readonly EndpointFeature[]): void {
    this.#features = features;
    this.#byPrefix.clear();
    for (const f of features) this.#byPrefix.set(TIMER_PREFIX[f.name] ?? f.name, f);
  }

  /** The position in its PDU of a received data segment of a flow the features follow (ArbRx follows the PDUs of its arbitrated flows, rule 5, §2.4.8). */
  position(p: Packet): PacketPosition | undefined {
    if (p.ftype !== 9) return undefined;
    const at = position(p);
    return at === undefined || !this.#managed.has(stoppableFlow(p, this.#crfSupported) ?? '') ? undefined : at;
  }

  /** After an input: PDUs the session stack queued on the flows are told to the features (arbitration asks for grants). */
  observe(now: number): void {
    for (const b of this.#endpoint.type9BusyFlows()) {
      if (!this.#managed.has(b.flowID)) continue;
      const f = this.#flow(b.destinationID, b.flowID, now);
      const newest = this.#endpoint.type9Backlog(b.destinationID, b.flowID)?.newest ?? 0;
      // Segmenter numbers increase by one per PDU accepted, for all flows together: one call per new PDU is enough.
      if (newest > f.newest) {
        f.newest = newest;
        for (const ft of this.#features) ft.pduQueued?.(f, 0, now);
      }
    }
  }

  /** A packet the end point sends: a data segment of a flow is `packetSent` (a `segment` of ArbTx). */
  sent(p: Packet, now: number): void {
    if (p.ftype !== 9) return;
    const at = position(p);
    if (at === undefined) return;
    const flowID = stoppableFlow(p, this.#crfSupported);
    const f = flowID === undefined ? undefined : this.#flows.get(flowKey(p.destinationID, flowID));
    if (f === undefined) return;
    f.queue.inProgress = at === 'start' || at === 'continuation';
    const sent = { position: at, bytes: serialPacketLength(p), pduBytes: 0, wire: p };
    for (const ft of this.#features) ft.packetSent?.(f, sent, now);
    // The PDU ended: a flow without its permissions closes its gate now.
    if (at === 'end' || at === 'single') this.#host.regate(p.destinationID);
  }

  /** A start segment of a flow a feature holds back (staged before the permission ended) waits: held. */
  mustHold(p: Packet): boolean {
    if (p.ftype !== 9 || (p.segment !== 'start' && p.segment !== 'single')) return false;
    const flowID = stoppableFlow(p, this.#crfSupported);
    const f = flowID === undefined ? undefined : this.#flows.get(flowKey(p.destinationID, flowID));
    return f !== undefined && (f.blocked & PDU_START_BLOCKS) !== 0;
  }

  /** Whether the gate of segmenter flow `flowID` to `destinationID` is closed by a feature: a permission missing, and no PDU in progress. */
  gateStops(destinationID: number, flowID: FlowIdLabel): boolean {
    const f = this.#flows.get(flowKey(destinationID, flowID));
    return f !== undefined && (f.blocked & PDU_START_BLOCKS) !== 0 && !f.queue.inProgress;
  }

  /** The next control packet of a feature to send (REQUEST, RELEASE, XON(ARB), XOFF(ARB)). */
  next(): FabricPacket | undefined {
    return this.#outbox.shift();
  }

  /** An end point timer `<prefix>:<name>` of a feature. */
  timer(prefixed: string, now: number): boolean {
    const colon = prefixed.indexOf(':');
    const f = colon < 0 ? undefined : this.#byPrefix.get(prefixed.slice(0, colon));
    if (f === undefined) return false;
    f.timer(prefixed.slice(colon + 1), now);
    return true;
  }

  /** Each feature's counters, by its name. */
  counters(): Readonly<Record<string, Counters<string>>> {
    return Object.fromEntries(this.#features.map((f) => [f.name, f.counters()]));
  }

  snapshot(name: string): object | null {
    const f = this.#features.find((x) => x.name === name);
    if (f === undefined) return null;
    return { ...f.snapshot(), outbox: this.#outbox.length, flows: this.#list.map((x) => ({ destinationID: x.dst, flowID: x.flowID, blocked: (x.blocked & PDU_START_BLOCKS) !== 0, queued: x.queue.length })) };
  }

  /** The host side of feature `name`: these flows, the control outbox, timers `<prefix>:<name>`. */
  featureHost(name: string): FeatureHost {
    const node = this.#node;
    const prefix = TIMER_PREFIX[name] ?? name;
    return {
      name: `node ${node.nodeId}`,
      id: node.nodeId,
      tt: node.tt,
      crfSupported: node.crfSupported,
      flows: this.#list,
      // The counts the simulator's probe takes are in each feature's counters() here.
      count: () => undefined,
      sendControl: (c) => { this.#outbox.push(c.wire as FabricPacket); },
      setBlocked: (f, bit, blocked) => {
        f.blocked = blocked ? f.blocked | bit : f.blocked & ~bit;
        this.#host.regate(f.dst);
      },
      timer: (t) => { this.#host.timer(`${prefix}:${t.name}`, t.at); },
    };
  }

  #flow(dst: number, flowID: FlowIdLabel, now: number): SessionFlow {
    const key = flowKey(dst, flowID);
    let f = this.#flows.get(key);
    if (f !== undefined) return f;
    const bits = flowBits(flowID, this.#crfSupported);
    f = { index: -1, dst, prio: (bits?.prio ?? 0) as Priority, crf: bits?.crf === 1 ? 1 : 0, flowID, queue: new SegmenterBacklog(this.#endpoint, dst, flowID), enabled: true, blocked: 0, newest: 0 };
    this.#flows.set(key, f);
    this.#list.push(f);
    for (const ft of this.#features) ft.flowCreated?.(f, now);
    return f;
  }
}

/** Configurations also come from JSON: every entry must be a flowID of Part 9 Table 3-1. */
function checkFlows(flows: unknown): readonly FlowIdLabel[] | undefined {
  if (flows === undefined) return undefined;
  if (!Array.isArray(flows) || flows.length === 0 || !flows.every((f) => typeof f === 'string' && (FLOW_ID_LABELS as readonly string[]).includes(f))) {
    throw new RangeError(`arbitration.flows must list flowIDs of Part 9 Table 3-1 (${FLOW_ID_LABELS.join(', ')})`);
  }
  return flows as FlowIdLabel[];
}
