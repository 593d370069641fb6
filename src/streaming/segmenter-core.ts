/**
 * The state of the Part 10 segmenter (segmenter.ts) and what reads it: its flows and streams,
 * the PDU lifecycle shared by the object pull and the fast lane's `pullInto`, and the queries and
 * snapshot. Fields are protected, not private, so that the two pulls in segmenter.ts share them.
 */
import { zeroCounters } from '../engine/contract.ts';
import type { Counters, Time } from '../engine/contract.ts';
import { fitsDeviceId } from '../engine/config-checks.ts';
import { getMtuBytes } from '../registers/data-streaming.ts';
import { FLOW_IDS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { segmentCount } from './segment-pdu.ts';
import { resolveSegmenterConfig } from './segmenter-config.ts';
import type { ResolvedSegmenterConfig } from './segmenter-config.ts';
import { FlowRing, flowKey, pduRef, startedOutput } from './segmenter-queues.ts';
import type { FlowQueue, Pdu, StreamQueue } from './segmenter-queues.ts';
import type { ActivePdu, PduRef, SegmenterConfig, SegmenterCounterName, SegmenterOutput, SegmenterSnapshot } from './segmenter-types.ts';

const COUNTER_NAMES: readonly SegmenterCounterName[] = [
  'pdusQueued', 'pdusRefused', 'pdusStarted', 'pdusDone', 'pdusAborted', 'pdusDropped',
  'segmentsSent', 'abortSegmentsSent', 'bytesSent', 'pulls', 'idlePulls', 'nothingToAbort', 'invalidInputs',
];

/** Part 9 Table 3-1 code of each flow label; anything else is not a flow. */
const FLOW_CODE: ReadonlyMap<unknown, number> = new Map(Object.entries(FLOW_IDS));
const FLOW_KEY = flowKey;
const FITS_DEVICE_ID = fitsDeviceId;

export class SegmenterCore {
  protected readonly config: ResolvedSegmenterConfig;
  protected readonly maxPdus: Map<number, number>;
  protected readonly flows = new Map<number, FlowQueue>();
  protected readonly streams = new Map<string, StreamQueue>();
  protected readonly ring = new FlowRing();
  /** Flows a `gate` input stopped, by flow key. */
  protected readonly stopped = new Map<number, { readonly destinationID: number; readonly flowID: FlowIdLabel }>();
  protected readonly count: Counters<SegmenterCounterName> = zeroCounters(COUNTER_NAMES);
  /** Key of the flow `pull-any` served last; -1 before the first. */
  protected lastServed = -1;
  protected seq = 0;
  /** The MTU without `registers`: the config's, then the last `set-mtu`'s. */
  protected fixedMtu: number | null;

  constructor(config: SegmenterConfig = {}) {
    this.config = resolveSegmenterConfig(config);
    this.maxPdus = new Map(this.config.maxPdu);
    this.fixedMtu = this.config.mtu;
  }

  /** The MTU a PDU starting now is cut with; null while the register holds a reserved encoding. */
  mtu(): number | null {
    const r = this.config.registers;
    return r === null ? this.fixedMtu : getMtuBytes(r);
  }

  /** The MaxPDU in bytes that PDUs to `destinationID` are checked against. */
  maxPdu(destinationID: number): number {
    return this.maxPdus.get(destinationID) ?? this.config.defaultMaxPdu;
  }

  /** The PDU the flow is segmenting (rule 1: at most one), if any. */
  activePdu(destinationID: number, flowID: FlowIdLabel): ActivePdu | undefined {
    const p = this.flowOf(destinationID, flowID)?.active;
    return p === null || p === undefined
      ? undefined
      : { ...pduRef(p), queuedAt: p.queuedAt, startedAt: p.startedAt ?? p.queuedAt, mtu: p.mtu, bytesSent: p.offset, aborting: p.aborting };
  }

  /** The flow's PDUs that have not started, oldest first. */
  waiting(destinationID: number, flowID: FlowIdLabel): PduRef[] {
    return (this.flowOf(destinationID, flowID)?.waiting ?? []).map(pduRef);
  }

  /** Whether a `gate` input stopped the flow. */
  isStopped(destinationID: number, flowID: FlowIdLabel): boolean {
    return this.stopped.size !== 0 && this.stopped.has(this.flowKeyOf(destinationID, flowID));
  }

  /** Flows with a PDU active or waiting, in `pull-any` order, stopped ones included. */
  busyFlows(): { readonly destinationID: number; readonly flowID: FlowIdLabel }[] {
    return this.ring.keys().map((k) => {
      const f = this.flows.get(k) as FlowQueue;
      return { destinationID: f.destinationID, flowID: f.flowID };
    });
  }

  counters(): Counters<SegmenterCounterName> {
    return { ...this.count };
  }

  snapshot(): SegmenterSnapshot {
    const c = this.config;
    const last = this.flows.get(this.lastServed);
    return {
      sourceID: c.sourceID,
      tt: c.tt,
      mtuSource: c.registers === null ? 'config' : 'register',
      mtu: this.mtu(),
      defaultMaxPdu: c.defaultMaxPdu,
      maxPdu: [...this.maxPdus].sort((a, b) => a[0] - b[0]).map(([destinationID, maxPdu]) => ({ destinationID, maxPdu })),
      crfSupported: c.crfSupported,
      nextSeq: this.seq + 1,
      flows: this.ring.keys().map((k) => {
        const f = this.flows.get(k) as FlowQueue;
        return {
          destinationID: f.destinationID,
          flowID: f.flowID,
          active: f.active === null ? null : this.activePdu(f.destinationID, f.flowID) ?? null,
          waiting: f.waiting.map((p) => ({ ...pduRef(p), queuedAt: p.queuedAt })),
        };
      }),
      lastServed: last === undefined ? null : { destinationID: last.destinationID, flowID: last.flowID },
      stopped: [...this.stopped].sort((a, b) => a[0] - b[0]).map(([, f]) => f),
      stats: this.counters(),
    };
  }

  protected flowOf(destinationID: unknown, flowID: unknown): FlowQueue | undefined {
    const key = this.flowKeyOf(destinationID, flowID);
    return key < 0 ? undefined : this.flows.get(key);
  }

  /** The flow's key, or -1 when destinationID is not a device ID of the tt or flowID not a Table 3-1 flow. */
  protected flowKeyOf(destinationID: unknown, flowID: unknown): number {
    const code = FLOW_CODE.get(flowID);
    if (code === undefined || !FITS_DEVICE_ID(destinationID, this.config.tt)) return -1;
    return FLOW_KEY(destinationID, code);
  }

  protected startPdu(p: Pdu, mtu: number, now: Time, out: SegmenterOutput[] | null): void {
    p.flow.waiting.shift();
    p.stream.waiting.shift();
    p.flow.active = p;
    p.stream.active = p;
    p.mtu = mtu;
    p.startedAt = now;
    this.count.pdusStarted++;
    out?.push(startedOutput(p, segmentCount(p.payload.length, mtu), mtu));
  }

  /** The PDU's context is closed ("the sending processing element has an analogous definition for open and closed", §3.2.4). */
  protected finishPdu(p: Pdu): void {
    p.flow.active = null;
    p.stream.active = null;
    this.releasePdu(p);
  }

  /** Forgets a flow or stream with nothing active or waiting, so the maps stay bounded by the work queued. */
  protected releasePdu(p: Pdu): void {
    const { flow, stream } = p;
    if (flow.active === null && flow.waiting.length === 0) {
      this.flows.delete(flow.key);
      this.ring.remove(flow.key);
    }
    if (stream.active === null && stream.waiting.length === 0) this.streams.delete(stream.key);
  }
}
