import { booleanFlag, integerInRange, nonNegativeInteger, oneOf, orDefault } from '../engine/config-checks.ts';
import { FLOW_ID_LABELS, channelPacketFields, flowIdChannel, packetForFlowId } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { ClassifierSnapshot } from './tm-snapshot-types.ts';
import { cosBin, ingressCosId, sourceStreamKey } from './vsid.ts';

/**
 * The ingress classifier (Part 10 §2.5, §3.2.2, §3.3): application streams are mapped to a
 * target (destinationID, cos, streamID, flowID) by a rule table, and targets to ingress queues.
 *
 * "The relationship between the ingress/egress cos and the end to end flowID assigned to the
 * traffic stream is implementation specific" (§2.5): each rule names its flowID, and the prio,
 * CRF and VC of every packet of the stream (data and traffic management, §3.4.5 protocol rule 1)
 * follow from it.
 */

/** A value of an application key. */
export type AppValue = string | number | boolean;
/** What the application knows a stream by: a flat object of named fields. */
export type AppKey = Readonly<Record<string, AppValue>>;

/**
 * Where classified traffic goes: the destination, class of service, stream and flow of its PDUs (Part 10
 * §3.3).
 */
export interface StreamTarget {
  readonly destinationID: number;
  /** 8-bit class of service. */
  readonly cos: number;
  /** 16-bit stream ID. */
  readonly streamID: number;
  /** The Part 9 flow the stream's packets travel in (Table 3-1 label). */
  readonly flowID: FlowIdLabel;
}

/** A classification rule: traffic whose key has every field of `match` goes to `target`. */
export interface ClassifierRule {
  /** Every field given here must equal the key's field (===); `{}` matches every key. */
  readonly match: AppKey;
  readonly target: StreamTarget;
}

/**
 * Ingress queue granularity. `stream`: one queue per destination ID+cos+streamID (§3.2.2 "From
 * the source's viewpoint: destination ID+cos+streamID represents a unique stream"). `class`: one
 * queue per destination ID + cos bin, the bin being the `cosBits` most significant cos bits
 * (§3.3 "Ingress queuing should be based on: destination ID+cos"; "The cos field shall be used
 * beginning with the MSB (bit 0) using the necessary number of bits for the number of classes
 * supported"). cosBits 0 is one queue per destination.
 */
export type QueueGranularity = { readonly mode: 'stream' } | { readonly mode: 'class'; readonly cosBits: number };

/** The classification table of a `TmIngress` (Part 10 §3.3 ingress queuing). */
export interface ClassifierConfig {
  /** Tried in order; the first whose `match` fits the key wins. Default none. */
  readonly rules?: readonly ClassifierRule[];
  /** Target of a key no rule matches. Omitted: such a key is unclassified. */
  readonly default?: StreamTarget;
  /** Default `{ mode: 'class', cosBits: 8 }` (§3.3: destination ID + the whole cos). */
  readonly granularity?: QueueGranularity;
  /** DECISIONS §3 system setting: whether CRF is supported (Part 6 Table 6-7). Default true. */
  readonly crfSupported?: boolean;
}

/** The prio, CRF and VC bits of a packet. */
export interface PacketFlow {
  readonly prio: number;
  readonly crf: number;
  readonly vc: number;
}

/** An ingress queue and the traffic it holds. */
export interface IngressQueueId {
  /** `sourceStreamKey` for stream queues, `ingressCosId` for class queues. */
  readonly key: string;
  readonly destinationID: number;
  /** The stream's cos; for a class queue the lowest cos of its bin. */
  readonly cos: number;
  /** Low cos bits the queue does not tell apart: 0 for stream queues, 8 − cosBits for class queues. */
  readonly cosFreeBits: number;
  /** The stream of a per-stream queue; null for a class queue (every stream). */
  readonly streamID: number | null;
}

export const DEFAULT_GRANULARITY: QueueGranularity = { mode: 'class', cosBits: 8 };

function checkGranularity(g: QueueGranularity, field: string): QueueGranularity {
  const mode = oneOf((g as { mode?: unknown }).mode, ['stream', 'class'], `${field}.mode`, 'or');
  if (mode === 'stream') return { mode };
  return { mode, cosBits: integerInRange((g as { cosBits?: unknown }).cosBits, 0, 8, `${field}.cosBits`) };
}

export function resolveGranularity(g: QueueGranularity | undefined, field: string): QueueGranularity {
  return checkGranularity(orDefault(g, DEFAULT_GRANULARITY), field);
}

export function checkTarget(t: StreamTarget, field: string): StreamTarget {
  if (typeof t !== 'object') throw new RangeError(`${field} must be a stream target`);
  const destinationID = nonNegativeInteger(t.destinationID, `${field}.destinationID`);
  if (destinationID > 0xffffffff) throw new RangeError(`${field}.destinationID must be an integer from 0 to 4294967295`);
  return {
    destinationID,
    cos: integerInRange(t.cos, 0, 0xff, `${field}.cos`),
    streamID: integerInRange(t.streamID, 0, 0xffff, `${field}.streamID`),
    flowID: oneOf(t.flowID, FLOW_ID_LABELS, `${field}.flowID`),
  };
}

function checkMatch(m: AppKey, field: string): AppKey {
  if (typeof m !== 'object' || Array.isArray(m)) throw new RangeError(`${field} must be a mapping of field names to values`);
  const out: Record<string, AppValue> = {};
  for (const [k, v] of Object.entries(m)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw new RangeError(`${field}.${k} must be a string, number or boolean`);
    }
    out[k] = v;
  }
  return out;
}

/**
 * The prio/CRF/VC of a flow's request packets: VC0 flows from Part 6 Tables 6-6/6-7 (DECISIONS
 * §3), VC1–VC8 flows as VC = 1 and PRIO||CRF = channel − 1 (Part 6 Table 2-2).
 */
export function flowPacketFields(flowID: FlowIdLabel, crfSupported = true): PacketFlow {
  const channel = flowIdChannel(flowID) ?? 0;
  if (channel !== 0) {
    const f = channelPacketFields(channel);
    if (f !== undefined) return f;
  }
  const p = packetForFlowId(flowID, { response: false, crfSupported });
  return { prio: p?.prio ?? 0, crf: p?.crf ?? 0, vc: 0 };
}

/** The queue a target goes to under a granularity. */
export function ingressQueueOf(t: Pick<StreamTarget, 'destinationID' | 'cos' | 'streamID'>, g: QueueGranularity): IngressQueueId {
  if (g.mode === 'stream') {
    return { key: sourceStreamKey(t), destinationID: t.destinationID, cos: t.cos, cosFreeBits: 0, streamID: t.streamID };
  }
  const free = 8 - g.cosBits;
  return {
    key: ingressCosId(t, g.cosBits),
    destinationID: t.destinationID,
    cos: g.cosBits === 0 ? 0 : cosBin(t.cos, g.cosBits) << free,
    cosFreeBits: free,
    streamID: null,
  };
}

export class Classifier {
  readonly #rules: readonly ClassifierRule[];
  readonly #default: StreamTarget | undefined;
  readonly granularity: QueueGranularity;
  readonly crfSupported: boolean;

  constructor(config: ClassifierConfig = {}) {
    const rules: unknown = orDefault(config.rules, []);
    if (!Array.isArray(rules)) throw new RangeError('rules must be a list of rules');
    this.#rules = (rules as readonly ClassifierRule[]).map((r, i) => ({ match: checkMatch(r.match, `rules[${i}].match`), target: checkTarget(r.target, `rules[${i}].target`) }));
    this.#default = config.default === undefined ? undefined : checkTarget(config.default, 'default');
    this.granularity = resolveGranularity(config.granularity, 'granularity');
    this.crfSupported = booleanFlag(orDefault(config.crfSupported, true), 'crfSupported');
  }

  /** The target of an application key: the first matching rule's, else the default; undefined when neither. */
  classify(key: AppKey): StreamTarget | undefined {
    for (const r of this.#rules) if (matches(r.match, key)) return r.target;
    return this.#default;
  }

  queueOf(t: Pick<StreamTarget, 'destinationID' | 'cos' | 'streamID'>): IngressQueueId {
    return ingressQueueOf(t, this.granularity);
  }

  flowOf(t: Pick<StreamTarget, 'flowID'>): PacketFlow {
    return flowPacketFields(t.flowID, this.crfSupported);
  }

  /** Every target the table can produce, rules first, then the default. */
  targets(): readonly StreamTarget[] {
    const all = this.#rules.map((r) => r.target);
    return this.#default === undefined ? all : [...all, this.#default];
  }

  toJSON(): ClassifierSnapshot {
    return { rules: this.#rules, default: this.#default ?? null, granularity: this.granularity, crfSupported: this.crfSupported };
  }
}

function matches(match: AppKey, key: AppKey): boolean {
  for (const k of Object.keys(match)) if (!Object.hasOwn(key, k) || key[k] !== match[k]) return false;
  return true;
}
