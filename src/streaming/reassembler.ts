import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { describeInput } from '../engine/input-checks.ts';
import { Timers } from '../engine/timers.ts';
import type { FrameColumns } from '../wire/frame-batch-types.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { isMtu } from './segment-pdu.ts';
import { resolveReassemblerConfig } from './reassembler-config.ts';
import type { ResolvedReassemblerConfig } from './reassembler-config.ts';
import type {
  ContextKey, DefectEvent, IdleTimerName, OpenContextInfo, ReassemblerConfig, ReassemblerCounterName, ReassemblerInput,
  ReassemblerOutput, ReassemblerSnapshot,
} from './reassembler-types.ts';
import { ReassemblyContext, contextKey, packetFlow } from './reassembly-context.ts';
import { DEFECT_ERRORS } from './reassembly-defects.ts';
import { BufferPool } from './reassembly-pool.ts';
import { SegmentIn } from './reassembler-segment.ts';

const COUNTER_NAMES: readonly ReassemblerCounterName[] = [
  'segments', 'pdus', 'pduBytes', 'defects', 'missingContext', 'openExistingContext', 'longSegment', 'shortSegment', 'pduLengthError',
  'aborted', 'idleTimeouts', 'noContext', 'discardedSegments', 'notData', 'invalidInputs',
];

const IDLE_PREFIX = 'idle:';

/**
 * Module-local copy for the per-segment path (as in src/flow/ccp-counter-table.ts): under a
 * transpiling loader (tsx) a read of an imported binding can cost a getter call.
 */
const CONTEXT_KEY = contextKey;

/**
 * Part 10 reassembly (§3.2.5 reassembly rules 1–9 and the paragraph after them, §3.2.4, §4.2),
 * destination side. See reassembler-types.ts for the context key and the one-outcome-per-PDU
 * rule. Outputs of one input come in the order they happen: a rule 9 report of the old PDU before
 * anything about the new one, and a timer request after the output that caused it.
 *
 * Idle timer: armed when a context opens, for `idleTimeout` after it; a segment only records its
 * time, and an expiry that finds the context active since then re-arms for the remaining time.
 * So a PDU costs one arm and one cancel, not a timer request per segment.
 *
 * Per-segment path (docs/performance.md): a PDU's segments arrive back to back on one context, so
 * the context the previous segment found is checked first, field by field (`matches`), and the
 * key string is built and looked up only when that fails. A PDU's buffer starts at the length of
 * the PDU delivered last, so a stream of equal PDUs is copied once into a buffer that needs no
 * regrowth.
 *
 * @example
 * ```ts
 * import { Reassembler } from 'riodp/engines';
 * import type { Type9Packet } from 'riodp/wire';
 *
 * const r = new Reassembler({ mtu: 32, idleTimeout: 1_000_000 });
 * // A 40-byte PDU from node 1 on stream 7 (class of service 5), in two received Type 9 segments:
 * const hdr = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 2, sourceID: 1, cos: 5, xh: 0, rsrv: 0 } as const;
 * const start: Type9Packet = { ...hdr, start: 1, end: 0, segment: 'start', streamID: 7, payload: new Uint8Array(32) };
 * const end: Type9Packet = { ...hdr, start: 0, end: 1, segment: 'end', length: 40, pduLength: 40, payload: new Uint8Array(8) };
 * r.handle({ kind: 'packet', packet: start }, 0); // → [{ kind: 'timer', name: 'idle:Dev8/src1/vc0/prio0/crf0', at: 1000000 }]
 * for (const o of r.handle({ kind: 'packet', packet: end }, 10)) {
 *   if (o.kind === 'pdu') console.log(o.vsid, o.payload.length, o.segments); // { sourceID: 1, destinationID: 2, cos: 5, streamID: 7 } 40 2
 *   else if (o.kind === 'timer') console.log(o.name, o.at);                   // idle:Dev8/src1/vc0/prio0/crf0 null (cancelled)
 * }
 * ```
 */
export class Reassembler implements ObservableEngine<ReassemblerInput, ReassemblerOutput, ReassemblerSnapshot, ReassemblerCounterName> {
  readonly #config: ResolvedReassemblerConfig;
  #mtu: number;
  readonly #open = new Map<ContextKey, ReassemblyContext>();
  readonly #timers = new Timers<IdleTimerName>();
  readonly #counters: Counters<ReassemblerCounterName> = zeroCounters(COUNTER_NAMES);
  /** The open context the last data segment found or opened; null once it closes. */
  #last: ReassemblyContext | null = null;
  /** Length of the multi-segment PDU delivered last: the first allocation of the next PDU's buffer. */
  #lastPduBytes = 0;
  /** Recycled buffers (`bufferPool`); null when recycling is off. */
  readonly #pool: BufferPool | null;
  /** The segment being handled, refilled per segment by both entries (`packet` input, `frame`). */
  readonly #seg = new SegmentIn();

  constructor(config: ReassemblerConfig = {}) {
    this.#config = resolveReassemblerConfig(config);
    this.#mtu = this.#config.mtu;
    this.#pool = this.#config.bufferPool > 0 ? new BufferPool(this.#config.bufferPool) : null;
  }

  handle(input: ReassemblerInput, now: Time): ReassemblerOutput[] {
    const out: ReassemblerOutput[] = [];
    switch (input.kind) {
      case 'packet':
        if (isPacket(input.packet)) {
          this.#segment(this.#seg.fromPacket(input.packet), now, out);
          this.#seg.clear();
        }
        else this.#invalid('packet: not a decoded Type 9 packet', out);
        break;
      case 'timer':
        if (this.#timers.expire(input.name, now)) this.#idle(input.name, now, out);
        break;
      case 'set-mtu':
        this.#setMtu(input.mtu, out);
        break;
      case 'recycle':
        this.#recycle(input.payload, out);
        break;
      default:
        this.#invalid(`unknown input kind ${describeInput((input as { kind?: unknown }).kind)}`, out);
    }
    return out;
  }

  /**
   * The fast lane (issue 17, docs/fast-lane.md §8): frame `i` of a frame batch parsed from `chunk`,
   * a good Type 9 packet frame, handled exactly as a `packet` input of its decoded packet is
   * (the same rule code runs on both: SegmentIn), its outputs appended to `out`. The payload is
   * copied once from the chunk into the PDU's buffer (around the early CRC); a single segment's
   * PDU is a new buffer of its own, never a view of the chunk, and nothing of the chunk is kept.
   */
  frame(frames: FrameColumns, i: number, chunk: Uint8Array, now: Time, out: ReassemblerOutput[]): void {
    const seg = this.#seg;
    this.#segment(seg.fromFrame(frames, i, chunk), now, out);
    seg.clear();
  }

  /** The MTU single segments and new PDUs are judged with. */
  get mtu(): number {
    return this.#mtu;
  }

  /** Recycled buffers waiting for reuse (0 when `bufferPool` is 0). */
  get pooledBuffers(): number {
    return this.#pool?.size ?? 0;
  }

  /** SegSupport as a number of contexts. */
  get contextLimit(): number {
    return this.#config.contexts;
  }

  /** Open contexts, by key. */
  openContexts(): OpenContextInfo[] {
    return [...this.#open.values()].map((c) => c.info()).sort((a, b) => (a.context < b.context ? -1 : a.context > b.context ? 1 : 0));
  }

  counters(): Counters<ReassemblerCounterName> {
    return { ...this.#counters };
  }

  snapshot(): ReassemblerSnapshot {
    const c = this.#config;
    return {
      mtu: this.#mtu,
      contextLimit: c.contexts,
      destinationInContext: c.destinationInContext,
      idleTimeout: c.idleTimeout,
      vcCount: c.vcCount,
      crfSupported: c.crfSupported,
      openContexts: this.openContexts(),
      timers: this.#timers.pending(),
      ...(this.#pool === null ? {} : { bufferPool: c.bufferPool, pooledBuffers: this.#pool.size }),
      stats: this.counters(),
    };
  }

  #segment(p: SegmentIn, now: Time, out: ReassemblerOutput[]): void {
    if (p.segment === 'tm' || p.segment === 'extended') {
      this.#counters.notData++;
      out.push({ kind: 'event', name: 'not-data', segment: p.segment, sourceID: p.sourceID, destinationID: p.destinationID });
      return;
    }
    this.#counters.segments++;
    const withDestination = this.#config.destinationInContext;
    const last = this.#last;
    let key: ContextKey;
    let ctx: ReassemblyContext | undefined;
    if (last !== null && last.matches(p, withDestination)) {
      key = last.key;
      ctx = last;
    } else {
      key = CONTEXT_KEY(p, withDestination);
      ctx = this.#open.get(key);
      if (ctx !== undefined) this.#last = ctx;
    }
    switch (p.segment) {
      case 'single':
      case 'start':
        this.#start(p, key, ctx, now, out);
        break;
      case 'continuation':
        this.#continuation(p, key, ctx, now, out);
        break;
      case 'end':
      case 'abort':
        this.#end(p, key, ctx, out);
        break;
    }
  }

  /**
   * Rule 9 "Receiving a start or single segment on an open context indicates a lost end segment
   * and the PDU is defective. The existing context is closed, and the new context is opened." Then
   * rule 3 (single) or rules 1 and 4 (start).
   */
  #start(p: SegmentIn, key: ContextKey, old: ReassemblyContext | undefined, now: Time, out: ReassemblerOutput[]): void {
    if (old !== undefined) {
      this.#close(old);
      // A PDU already reported defective (rules 4, 5) is not reported again.
      if (old.assembling) this.#defect(out, { rule: 9, context: key, segment: p.segment as 'single' | 'start', vsid: old.vsid, received: old.received, payloadLength: p.length, mtu: old.mtu });
    }
    const n = p.length;
    const mtu = this.#mtu;
    const flow = packetFlow(p, this.#config.vcCount, this.#config.crfSupported);
    let opened: ReassemblyContext | undefined;
    if (p.segment === 'single') {
      // Rule 3 "the amount of payload data must be equal to or less than the MTU size or the PDU is defective".
      if (n > mtu) this.#defect(out, { rule: 3, context: key, segment: 'single', vsid: vsidOf(p), received: n, payloadLength: n, mtu });
      else this.#deliver(out, key, vsidOf(p), p.tt, flow, p.own(), 1);
    } else {
      // Rule 4 "If the packet is a start segment and the payload data does not match the MTU size the PDU is defective".
      const fits = n === mtu;
      if (!fits) this.#defect(out, { rule: 4, context: key, segment: 'start', vsid: vsidOf(p), received: n, payloadLength: n, mtu });
      if (this.#open.size < this.#config.contexts) {
        opened = new ReassemblyContext(key, p, flow, mtu, now, fits, this.#lastPduBytes, this.#pool);
        this.#open.set(key, opened);
        this.#last = opened;
      } else if (fits) {
        this.#counters.noContext++;
        out.push({ kind: 'event', name: 'no-context', context: key, vsid: vsidOf(p), contexts: this.#config.contexts });
      }
    }
    const timeout = this.#config.idleTimeout;
    if (timeout === null) return;
    if (opened !== undefined) this.#timers.arm(`${IDLE_PREFIX}${key}`, now + timeout, out);
    else if (old !== undefined) this.#timers.cancel(`${IDLE_PREFIX}${key}`, out);
  }

  /** Rule 5 "All continuation packets must match the MTU size or the PDU is defective"; rule 8 on a closed context. */
  #continuation(p: SegmentIn, key: ContextKey, ctx: ReassemblyContext | undefined, now: Time, out: ReassemblerOutput[]): void {
    const n = p.length;
    if (ctx === undefined) {
      this.#defect(out, { rule: 8, context: key, segment: 'continuation', vsid: null, received: n, payloadLength: n, mtu: this.#mtu });
      return;
    }
    ctx.segments++;
    ctx.lastSegmentAt = now;
    if (!ctx.assembling) {
      this.#counters.discardedSegments++;
      ctx.append(p);
      return;
    }
    if (n !== ctx.mtu) {
      ctx.discard();
      ctx.append(p);
      this.#defect(out, { rule: 5, context: key, segment: 'continuation', vsid: ctx.vsid, received: ctx.received, payloadLength: n, mtu: ctx.mtu });
      return;
    }
    ctx.append(p);
  }

  /**
   * Rule 6 "An end segment terminates the reassembly process … The data payload size must be less
   * than or equal to the MTU size or the PDU is defective"; rule 7 "the length (provided by the end
   * segment packet header) is checked against the received data count. A mismatch indicates a
   * lost continuation segment and the PDU is defective"; rule 8 on a closed context. An abort
   * ("length 0 and no payload can be used to force the PDU to be discarded", §4.2) ends the PDU
   * without a defect.
   */
  #end(p: SegmentIn, key: ContextKey, ctx: ReassemblyContext | undefined, out: ReassemblerOutput[]): void {
    const n = p.length;
    if (ctx === undefined) {
      this.#defect(out, { rule: 8, context: key, segment: p.segment as 'end' | 'abort', vsid: null, received: n, payloadLength: n, mtu: this.#mtu });
      return;
    }
    this.#close(ctx);
    ctx.segments++;
    this.#closePdu(p, ctx, out);
    // Without a timeout no timer was armed: the name is not built for nothing once per PDU.
    if (this.#config.idleTimeout !== null) this.#timers.cancel(`${IDLE_PREFIX}${key}`, out);
  }

  /** Closes an open context; the next segment of its key opens a new one or meets rule 8. */
  #close(ctx: ReassemblyContext): void {
    this.#open.delete(ctx.key);
    if (this.#last === ctx) this.#last = null;
  }

  #closePdu(p: SegmentIn, ctx: ReassemblyContext, out: ReassemblerOutput[]): void {
    const n = p.length;
    const key = ctx.key;
    if (!ctx.assembling) {
      this.#counters.discardedSegments++;
      return;
    }
    if (p.segment === 'abort') {
      this.#counters.aborted++;
      out.push({ kind: 'event', name: 'aborted', context: key, vsid: ctx.vsid, received: ctx.received });
      return;
    }
    const received = ctx.received + n;
    if (n > ctx.mtu) {
      this.#defect(out, { rule: 6, context: key, segment: 'end', vsid: ctx.vsid, received, payloadLength: n, mtu: ctx.mtu });
      return;
    }
    if (received !== p.pduLength) {
      this.#defect(out, { rule: 7, context: key, segment: 'end', vsid: ctx.vsid, received, payloadLength: n, mtu: ctx.mtu, length: p.pduLength });
      return;
    }
    ctx.append(p);
    this.#lastPduBytes = received;
    const payload = ctx.delivered();
    const pool = this.#pool;
    if (pool !== null) {
      pool.lend(payload);
      const spare = ctx.unshared(payload);
      if (spare !== null) pool.keep(spare);
    }
    this.#deliver(out, key, ctx.vsid, ctx.tt, ctx.flow, payload, ctx.segments);
  }

  /** `recycle` (reassembler-types.ts): the buffer of a delivered PDU back from its receiver. */
  #recycle(payload: unknown, out: ReassemblerOutput[]): void {
    const pool = this.#pool;
    if (pool === null) this.#invalid('recycle: bufferPool is 0, recycling is off', out);
    else if (!pool.giveBack(payload)) this.#invalid('recycle: not a payload this reassembler delivered in a buffer of its own, or recycled already', out);
  }

  /**
   * §3.2.5 "It may be desirable for a destination to have a time-out as part of the lost packet
   * detection mechanism": the open PDU is discarded. A context already reported defective closes
   * without a second report.
   */
  #idle(name: IdleTimerName, now: Time, out: ReassemblerOutput[]): void {
    const timeout = this.#config.idleTimeout;
    const ctx = this.#open.get(name.slice(IDLE_PREFIX.length));
    if (ctx === undefined || timeout === null) return;
    const due = ctx.lastSegmentAt + timeout;
    if (due > now) {
      this.#timers.arm(name, due, out);
      return;
    }
    this.#close(ctx);
    if (!ctx.assembling) return;
    this.#counters.idleTimeouts++;
    out.push({ kind: 'event', name: 'idle-timeout', context: ctx.key, vsid: ctx.vsid, received: ctx.received, lastSegmentAt: ctx.lastSegmentAt });
  }

  #setMtu(mtu: unknown, out: ReassemblerOutput[]): void {
    if (isMtu(mtu)) this.#mtu = mtu;
    else this.#invalid(`set-mtu: ${describeInput(mtu)} is not a multiple of 4 from 32 to 256`, out);
  }

  #invalid(detail: string, out: ReassemblerOutput[]): void {
    this.#counters.invalidInputs++;
    out.push({ kind: 'event', name: 'invalid-input', detail });
  }

  #deliver(out: ReassemblerOutput[], context: ContextKey, vsid: ReassemblyContext['vsid'], tt: number, flow: ReassemblyContext['flow'], payload: Uint8Array, segments: number): void {
    this.#counters.pdus++;
    this.#counters.pduBytes += payload.length;
    out.push({ kind: 'pdu', context, vsid, tt, flowID: flow.flowID, channel: flow.channel, payload, segments });
  }

  /** Reports a defective PDU; `f` names what the rule found, the error and clause follow from the rule. */
  #defect(out: ReassemblerOutput[], f: DefectFields): void {
    const { rule, ...found } = f;
    const error = DEFECT_ERRORS[rule](f.payloadLength, f.mtu);
    this.#counters.defects++;
    this.#counters[error.counter]++;
    out.push({ kind: 'event', name: 'defective-pdu', rule, clause: `Part 10 §3.2.5 reassembly rule ${rule}`, error: error.name, errorBit: error.bit, ...found });
  }
}

type DefectFields = Omit<DefectEvent, 'kind' | 'name' | 'clause' | 'error' | 'errorBit'>;

function vsidOf(p: SegmentIn): ReassemblyContext['vsid'] {
  return { sourceID: p.sourceID, destinationID: p.destinationID, cos: p.cos, streamID: p.streamID };
}

/** Inputs also arrive as JSON (`riodp model`): a packet must at least be an object with a segment type. */
function isPacket(p: unknown): p is Type9Packet {
  return typeof p === 'object' && p !== null && typeof (p as { segment?: unknown }).segment === 'string';
}
