import { fitsDeviceId } from '../engine/config-checks.ts';
import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { describeInput, pullUpTo } from '../engine/input-checks.ts';
import { Reassembler } from '../streaming/reassembler.ts';
import type { ReassemblerOutput } from '../streaming/reassembler-types.ts';
import type { FrameColumns } from '../wire/frame-batch-types.ts';
import { isMtu } from '../streaming/segment-pdu.ts';
import { Segmenter } from '../streaming/segmenter.ts';
import type { SegmenterOutput } from '../streaming/segmenter-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { reassemblerConfig, resolveType9Config, segmenterConfig } from './type9-conveyance-config.ts';
import type { ResolvedType9Config } from './type9-conveyance-config.ts';
import type {
  Type9Backlog, Type9ConveyanceConfig, Type9ConveyanceInput, Type9ConveyanceOutput, Type9ConveyanceSnapshot, Type9CounterName, Type9Event,
  Type9GateInput, Type9Id, FastPull, Type9SendInput, Type9SendPduInput, Type9Unit,
} from './type9-conveyance-types.ts';
import type { SmpPriority } from './types.ts';

const COUNTER_NAMES: readonly Type9CounterName[] = [
  'messagesQueued', 'pdusQueued', 'refused', 'sent', 'segmentsSent', 'segmentsReceived', 'pdusDelivered', 'reassemblyEvents',
  'notForUs', 'pulls', 'idlePulls', 'recycled', 'recyclesIgnored', 'invalidInputs',
];

/** A unit queued in the segmenter, by the segmenter's PDU number. */
interface Unit {
  readonly unit: Type9Unit;
  readonly id: Type9Id | undefined;
}

type Out = Type9ConveyanceOutput[];

const PRIORITIES: readonly SmpPriority[] = ['high', 'normal'];

/**
 * The Type 9 conveyance of Annex 2 session management (type9-conveyance-types.ts describes the
 * rules): the session engine's `send` (Type 9 contact) and `send-pdu` outputs through a Part 10
 * `Segmenter`, received segments through a `Reassembler`. Sans-IO; its only timers are the
 * reassembler's idle timers, passed through under their own names.
 *
 * Outputs of one input come in the order they happen: a pull's segments, each followed by the
 * `sent` event of the unit it ended; a received segment's PDU or reassembler events, then timers.
 *
 * @example
 * ```ts
 * import { Type9Conveyance } from 'riodp/engines';
 *
 * const t9 = new Type9Conveyance({ nodeId: 1, mtu: 64 });
 * t9.handle({ kind: 'send-pdu', to: 2, streamID: 7, cos: 0, pdu: new Uint8Array(100) }, 0);
 * t9.handle({ kind: 'pull', max: 4 }, 1); // → the start and end segments, then event `sent`
 * ```
 */
export class Type9Conveyance implements ObservableEngine<Type9ConveyanceInput, Type9ConveyanceOutput, Type9ConveyanceSnapshot, Type9CounterName> {
  readonly #config: ResolvedType9Config;
  readonly #segmenter: Segmenter;
  readonly #reassembler: Reassembler;
  readonly #units = new Map<number, Unit>();
  readonly #counters: Counters<Type9CounterName> = zeroCounters(COUNTER_NAMES);
  /** The reassembler's outputs of one `frame`, reused. */
  readonly #frameOut: ReassemblerOutput[] = [];
  /** PDUs delivered in a buffer the reassembler lent (`bufferPool`) and not yet given back. */
  readonly #lent = new WeakSet<Uint8Array>();
  readonly #pooling: boolean;

  constructor(config: Type9ConveyanceConfig) {
    const c = resolveType9Config(config);
    this.#config = c;
    this.#segmenter = new Segmenter(segmenterConfig(c, config));
    this.#reassembler = new Reassembler(reassemblerConfig(c, config));
    this.#pooling = (config.bufferPool ?? 0) > 0;
  }

  handle(input: Type9ConveyanceInput, now: Time): Type9ConveyanceOutput[] {
    const out: Out = [];
    switch (input.kind) {
      case 'send':
        this.#send(input, now, out);
        break;
      case 'send-pdu':
        this.#sendPdu(input, now, out);
        break;
      case 'packet':
        this.#packet(input.packet, now, out);
        break;
      case 'pull':
        this.#pull(input.max, now, out);
        break;
      case 'gate':
        this.#gate(input, now, out);
        break;
      case 'timer':
        this.#fromReassembler(this.#reassembler.handle(input, now), out);
        break;
      case 'recycle':
        this.#recycle(input.pdu, now, out);
        break;
      case 'set-mtu':
        this.#setMtu(input.mtu, now, out);
        break;
      default:
        this.#invalid(`unknown input kind ${describeInput((input as { kind?: unknown }).kind)}`, out);
    }
    return out;
  }

  /**
   * The fast lane (issue 17, docs/fast-lane.md §8): frame `i` of a frame batch parsed from `chunk`
   * (a good Type 9 packet frame), handled as a `packet` input of its decoded packet is, outputs
   * appended to `out`. A PDU is in a buffer of its own (Reassembler.frame), so a single segment's
   * is not copied again here.
   */
  frame(frames: FrameColumns, i: number, chunk: Uint8Array, now: Time, out: Type9ConveyanceOutput[]): void {
    const dst = frames.destinationID[i] as number;
    if (!this.#config.accepted.has(dst)) {
      this.#counters.notForUs++;
      event(out, { name: 'not-for-us', destinationID: dst, sourceID: frames.sourceID[i] as number });
      return;
    }
    this.#counters.segmentsReceived++;
    const r = this.#frameOut;
    this.#reassembler.frame(frames, i, chunk, now, r);
    if (r.length === 0) return;
    this.#fromReassembler(r, out, true);
    r.length = 0;
  }

  /** The MTU PDUs that start now are cut and judged with. */
  get mtu(): number {
    return this.#reassembler.mtu;
  }

  counters(): Counters<Type9CounterName> {
    return { ...this.#counters };
  }

  /**
   * What the segmenter holds for one flow, read only (a host that arbitrates the flow, Part 9
   * §2.4.7, needs to know when a PDU waits and when one is being sent): whether a PDU is being
   * segmented, its bytes sent, and the PDUs waiting behind it.
   */
  backlog(destinationID: number, flowID: FlowIdLabel): Type9Backlog {
    const active = this.#segmenter.activePdu(destinationID, flowID);
    const waiting = this.#segmenter.waiting(destinationID, flowID);
    let bytes = active === undefined ? 0 : active.length - active.bytesSent;
    for (const w of waiting) bytes += w.length;
    const newest = waiting.at(-1)?.seq ?? active?.seq ?? 0;
    return { active: active !== undefined, headSent: active?.bytesSent ?? 0, waiting: waiting.length, queuedBytes: bytes, newest };
  }

  /** The flows whose PDUs the segmenter holds, in its round-robin order. */
  busyFlows(): readonly { readonly destinationID: number; readonly flowID: FlowIdLabel }[] {
    return this.#segmenter.busyFlows();
  }

  snapshot(): Type9ConveyanceSnapshot {
    const c = this.#config;
    return {
      nodeId: c.nodeId,
      tt: c.tt,
      highFlow: c.highFlow,
      normalFlow: c.normalFlow,
      multicastIds: [...c.accepted].filter((id) => id !== c.nodeId).sort((a, b) => a - b),
      segmenter: this.#segmenter.snapshot(),
      reassembler: this.#reassembler.snapshot(),
      stats: this.counters(),
    };
  }

  /** §3.3: a management message goes to the (StreamID, COS) its target advertised. */
  #send(input: Type9SendInput, now: Time, out: Out): void {
    const contact = input.contact as { readonly conveyance?: unknown; readonly streamID: number; readonly cos: number } | undefined;
    const length = lengthOf(input.bytes);
    if (contact?.conveyance !== 'type9') {
      this.#refuse(out, { name: 'refused', unit: 'message', reason: 'wrong-conveyance', to: input.to, length }, input.id);
      return;
    }
    if (!PRIORITIES.includes(input.priority)) {
      this.#refuse(out, { name: 'refused', unit: 'message', reason: 'invalid-priority', to: input.to, length }, input.id);
      return;
    }
    const flowID = input.priority === 'high' ? this.#config.highFlow : this.#config.normalFlow;
    this.#queue('message', input.to, contact.streamID, contact.cos, flowID, input.bytes, input.id, now, out);
  }

  /** §4.3.4–§4.3.5: DATA3, the PDU alone on its stream ("no additional header needs to be used"). */
  #sendPdu(input: Type9SendPduInput, now: Time, out: Out): void {
    this.#queue('pdu', input.to, input.streamID, input.cos, this.#config.normalFlow, input.pdu, input.id, now, out);
  }

  #queue(unit: Type9Unit, to: number, streamID: number, cos: number, flowID: FlowIdLabel, payload: Uint8Array, id: Type9Id | undefined, now: Time, out: Out): void {
    for (const o of this.#segmenter.handle({ kind: 'pdu', destinationID: to, cos, streamID, flowID, payload }, now)) {
      if (o.kind === 'queued') {
        this.#units.set(o.seq, { unit, id });
        this.#counters[unit === 'message' ? 'messagesQueued' : 'pdusQueued']++;
      } else if (o.kind === 'refused') {
        this.#refuse(out, { name: 'refused', unit, reason: o.reason, clause: o.clause, to, length: o.length }, id);
      }
    }
  }

  /**
   * One segment per step: the first `highFlow` flow that has one to send (Annex 2 §3.7.2), else the
   * segmenter's round robin over every flow.
   */
  #pull(max: unknown, now: Time, out: Out): void {
    const sent = pullUpTo(max, () => this.#pullHigh(now, out) || this.#fromSegmenter(this.#segmenter.handle({ kind: 'pull-any' }, now), out));
    if (sent === undefined) {
      this.#invalid(`pull: max ${describeInput(max)} is not a positive integer`, out);
      return;
    }
    this.#counters.pulls++;
    if (sent === 0) {
      this.#counters.idlePulls++;
      out.push({ kind: 'idle' });
    }
  }

  /**
   * The fast lane's pull (issue 17, docs/fast-lane.md §10): the segments consecutive `pull`s would
   * give, written as riodp link PACKET frames into buf[offset, offset + budget) by
   * `Segmenter.pullInto`. Null, changing nothing, while a `highFlow` flow has a PDU: a pull serves
   * those first (#pullHigh, Annex 2 §3.7.2) and pullInto keeps `pull-any`'s order only. Outputs
   * and counters are those of one pull per frame written, then, when nothing more may be sent
   * (`more` false), of the idle pull that finds it so; a first frame that does not fit changes
   * nothing (0 frames, `more` true).
   */
  pullInto(buf: Uint8Array, offset: number, budget: number, now: Time, out: Type9ConveyanceOutput[]): FastPull | null {
    const seg = this.#segmenter;
    const high = this.#config.highFlow;
    for (const f of seg.busyFlows()) if (f.flowID === high) return null;
    const before = seg.counters().segmentsSent;
    const done: SegmenterOutput[] = [];
    const bytes = seg.pullInto(buf, offset, budget, now, done);
    const frames = seg.counters().segmentsSent - before;
    this.#fromSegmenter(done, out);
    const more = seg.canPull();
    const c = this.#counters;
    c.segmentsSent += frames;
    c.pulls += frames;
    if (!more) {
      c.pulls++;
      c.idlePulls++;
      if (frames === 0) out.push({ kind: 'idle' });
    }
    return { bytes, frames, more };
  }

  /** The `highFlow` flows in turn, those a gate stopped passed over (Part 9 §2.4.5 rule 1). */
  #pullHigh(now: Time, out: Out): boolean {
    const high = this.#config.highFlow;
    const seg = this.#segmenter;
    for (const f of seg.busyFlows()) {
      if (f.flowID !== high || seg.isStopped(f.destinationID, high)) continue;
      if (this.#fromSegmenter(this.#segmenter.handle({ kind: 'pull', destinationID: f.destinationID, flowID: high }, now), out)) return true;
    }
    return false;
  }

  /** The segmenter keeps the gate state, so that `pull-any` passes over a stopped flow and keeps the others' turns. */
  #gate(input: Type9GateInput, now: Time, out: Out): void {
    const { destinationID, flowID, stopped } = input;
    const bad = this.#segmenter.handle({ kind: 'gate', destinationID, flowID, stopped }, now).some((o) => o.kind === 'event');
    const shown = typeof stopped === 'boolean' ? String(stopped) : describeInput(stopped);
    if (bad) this.#invalid(`gate: ${describeInput(destinationID)}/${describeInput(flowID)} stopped ${shown} is not a flow and a boolean`, out);
  }

  /** Part 10 §5.5.1: both engines take the MTU written; each keeps what it has begun (Type9SetMtuInput). */
  #setMtu(mtu: unknown, now: Time, out: Out): void {
    if (!isMtu(mtu)) {
      this.#invalid(`set-mtu: ${describeInput(mtu)} is not a multiple of 4 from 32 to 256`, out);
      return;
    }
    this.#segmenter.handle({ kind: 'set-mtu', mtu }, now);
    this.#reassembler.handle({ kind: 'set-mtu', mtu }, now);
  }

  /** Maps a pull's outputs; true when it sent a segment. */
  #fromSegmenter(outputs: readonly SegmenterOutput[], out: Out): boolean {
    let sent = false;
    for (const o of outputs) {
      if (o.kind === 'send') {
        sent = true;
        this.#counters.segmentsSent++;
        out.push({ kind: 'packet', packet: o.packet });
      } else if (o.kind === 'pdu-done') {
        const u = this.#units.get(o.seq);
        this.#units.delete(o.seq);
        this.#counters.sent++;
        const e = { name: 'sent', unit: u?.unit ?? 'pdu', to: o.destinationID, streamID: o.streamID, cos: o.cos, length: o.length } as const;
        event(out, u?.id === undefined ? e : { ...e, id: u.id });
      }
    }
    return sent;
  }

  #packet(p: Type9Packet, now: Time, out: Out): void {
    if (!isPacket(p)) {
      this.#invalid('packet: not a decoded Type 9 packet', out);
      return;
    }
    if (!this.#config.accepted.has(p.destinationID)) {
      this.#counters.notForUs++;
      event(out, { name: 'not-for-us', destinationID: p.destinationID, sourceID: p.sourceID });
      return;
    }
    this.#counters.segmentsReceived++;
    this.#fromReassembler(this.#reassembler.handle({ kind: 'packet', packet: p }, now), out);
  }

  /** `owned`: every PDU is in a buffer of its own (the fast lane), none a view of a packet. */
  #fromReassembler(outputs: readonly ReassemblerOutput[], out: Out, owned = false): void {
    for (const o of outputs) {
      if (o.kind === 'pdu') {
        this.#counters.pdusDelivered++;
        // A single segment's PDU is a view of its packet, whose bytes belong to the driver.
        const pdu = o.segments === 1 && !owned ? o.payload.slice() : o.payload;
        // The reassembler lends every multi-segment PDU's buffer while its pool is on (reassembly-pool.ts).
        if (this.#pooling && o.segments > 1) this.#lent.add(pdu);
        out.push({ kind: 'pdu', from: o.vsid.sourceID, streamID: o.vsid.streamID, cos: o.vsid.cos, pdu });
      } else {
        if (o.kind === 'event') this.#counters.reassemblyEvents++;
        out.push(o);
      }
    }
  }

  #recycle(pdu: unknown, now: Time, out: Out): void {
    if (!(pdu instanceof Uint8Array)) {
      this.#invalid('recycle: pdu must be a Uint8Array', out);
    } else if (this.#lent.delete(pdu)) {
      this.#counters.recycled++;
      this.#fromReassembler(this.#reassembler.handle({ kind: 'recycle', payload: pdu }, now), out);
    } else {
      this.#counters.recyclesIgnored++;
    }
  }

  #refuse(out: Out, e: Extract<Type9Event, { name: 'refused' }>, id: Type9Id | undefined): void {
    this.#counters.refused++;
    event(out, id === undefined ? e : { ...e, id });
  }

  #invalid(detail: string, out: Out): void {
    this.#counters.invalidInputs++;
    event(out, { name: 'invalid-input', detail });
  }
}

function event(out: Out, e: Type9Event): void {
  out.push({ kind: 'event', ...e });
}

function lengthOf(b: unknown): number {
  return b instanceof Uint8Array ? b.length : 0;
}

/** Inputs also arrive as JSON (`riodp model`): a packet must at least be an object with IDs and a segment type. */
function isPacket(p: unknown): p is Type9Packet {
  if (typeof p !== 'object' || p === null) return false;
  const r = p as Record<string, unknown>;
  return typeof r['segment'] === 'string' && fitsDeviceId(r['destinationID'], 2) && fitsDeviceId(r['sourceID'], 2);
}
