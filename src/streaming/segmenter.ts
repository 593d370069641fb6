import { fitsDeviceId } from '../engine/config-checks.ts';
import type { ObservableEngine, Time } from '../engine/contract.ts';
import { pullCount } from '../engine/input-checks.ts';
import { FLOW_IDS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { PDU_MAX, abortSegment, flowBits, isMtu, payloadView, pduProblem, segmentOf, viewBuffer } from './segment-pdu.ts';
import type { FlowBits } from './segment-pdu.ts';
import { SegmentCrcs, segmentFrameLength, writeSegmentFrame } from './segment-frame.ts';
import { SegmenterCore } from './segmenter-core.ts';
import { abortTarget, canStart, doneOutput, flowKey, pduRef, queuedOutput, removeWaiting, shown } from './segmenter-queues.ts';
import type { FlowQueue, Pdu } from './segmenter-queues.ts';
import type {
  PduId, SegmenterCounterName, SegmenterEventName, SegmenterIdleReason, SegmenterInput, SegmenterOutput, SegmenterSnapshot,
} from './segmenter-types.ts';
import { sourceStreamKey } from './vsid.ts';

/**
 * Module-local copies for the per-segment path (as in src/flow/ccp-counter-table.ts): under a
 * transpiling loader (tsx) a read of an imported binding can cost a getter call.
 */
const SEGMENT_OF = segmentOf;
const PAYLOAD_VIEW = payloadView;
const FLOW_KEY = flowKey;


/**
 * The source side of Part 10 segmentation (§3.2.3–§3.2.5; see segmenter-types.ts for the
 * queueing rules and the inputs). The engine sets no timers and never reads the clock: it
 * produces a segment only when pulled, so links, flow arbitration and traffic management pace it.
 *
 * Outputs of a pull come in this order: `pdu-started` (when the pull starts a PDU), `send`, then
 * `pdu-done` (when the segment was the PDU's end or single segment); or one `idle`.
 *
 * @example
 * ```ts
 * import { Reassembler, Segmenter } from 'riodp/engines';
 *
 * const s = new Segmenter({ sourceID: 1, mtu: 64 });
 * const r = new Reassembler({ mtu: 64 });
 * s.handle({ kind: 'pdu', destinationID: 2, cos: 0, streamID: 7, flowID: '0A', payload: new Uint8Array(150) }, 0);
 * for (const o of s.handle({ kind: 'pull', destinationID: 2, flowID: '0A', max: 10 }, 1)) {
 *   if (o.kind !== 'send') continue;                               // three segments: start, continuation, end
 *   for (const d of r.handle({ kind: 'packet', packet: o.packet }, 2)) if (d.kind === 'pdu') console.log(d.payload.length); // 150
 * }
 * ```
 */
export class Segmenter extends SegmenterCore implements ObservableEngine<SegmenterInput, SegmenterOutput, SegmenterSnapshot, SegmenterCounterName> {
  /** pullInto's CRC pass, created on its first call. */
  #crcs: SegmentCrcs | null = null;

  handle(input: SegmenterInput, now: Time): SegmenterOutput[] {
    const out: SegmenterOutput[] = [];
    switch (input.kind) {
      case 'pull':
        this.#pull(input.destinationID, input.flowID, input.max, now, out);
        break;
      case 'pull-any':
        this.#pullAny(input.max, now, out);
        break;
      case 'pdu':
        this.#queue(input, now, out);
        break;
      case 'abort':
        this.#abort(input.destinationID, input.flowID, input.id, out);
        break;
      case 'set-max-pdu':
        this.#setMaxPdu(input.destinationID, input.maxPdu, out);
        break;
      case 'gate':
        this.#gate(input.destinationID, input.flowID, input.stopped, out);
        break;
      case 'set-mtu':
        this.#setMtu(input.mtu, out);
        break;
      default:
        this.#invalid(out);
    }
    return out;
  }

  /**
   * The fast lane's transmit pull (issue 17, docs/fast-lane.md §6), in the manner of a sans-IO
   * `poll_transmit`: the segments `pull-any` pulls would give, written as riodp link PACKET frames
   * into buf[offset, offset + budget) (budget clamped to the buffer), no object per segment.
   * Returns the bytes written; stops before a frame that would not fit. Its effect on the state
   * and counters is that of one `pull-any` with `max` = the frames written; when nothing may be
   * sent it is an idle `pull-any` (returns 0); when the first frame does not fit it changes
   * nothing (returns 0). With `out`, the outputs that pull would give other than `send` (its
   * `pdu-started` and `pdu-done`, in order) are appended to it (docs/fast-lane.md §10): how an
   * end point learns that a PDU is done and its payload free.
   */
  pullInto(buf: Uint8Array, offset: number, budget: number, now: Time = 0, out: SegmenterOutput[] | null = null): number {
    if (!Number.isInteger(offset) || offset < 0 || offset > buf.length) throw new RangeError('offset must be an index into buf');
    if (!(budget >= 0)) throw new RangeError('budget must be a number of bytes');
    const stop = Math.min(buf.length, offset + budget);
    const crcs = (this.#crcs ??= new SegmentCrcs());
    let at = offset;
    let key = this.#nextAny();
    while (key >= 0) {
      const flow = this.flows.get(key) as FlowQueue;
      const p = flow.active ?? (flow.waiting[0] as Pdu);
      const mtu = flow.active === null ? (this.mtu() as number) : p.mtu;
      if (at + segmentFrameLength(p, mtu) > stop) break;
      if (at === offset) this.count.pulls++;
      if (flow.active === null) this.startPdu(p, mtu, now, out);
      at = this.#writeNext(p, buf, at, crcs, out);
      this.lastServed = key;
      key = this.#nextAny();
    }
    crcs.flush(buf);
    if (at === offset && key < 0) {
      this.count.pulls++;
      this.count.idlePulls++;
    }
    return at - offset;
  }

  #queue(input: Extract<SegmenterInput, { kind: 'pdu' }>, now: Time, out: SegmenterOutput[]): void {
    const { destinationID, cos, streamID, flowID, payload, id } = input;
    const maxPdu = typeof destinationID === 'number' ? this.maxPdu(destinationID) : PDU_MAX;
    const bad = pduProblem(input, this.config.tt, maxPdu);
    if (bad !== undefined) {
      this.count.pdusRefused++;
      const length = (payload as unknown) instanceof Uint8Array ? payload.length : 0;
      const fields = { destinationID, flowID: shown(flowID), cos, streamID, length };
      out.push(id === undefined
        ? { kind: 'refused', reason: bad.reason, clause: bad.clause, ...fields }
        : { kind: 'refused', reason: bad.reason, clause: bad.clause, id, ...fields });
      return;
    }
    const key = FLOW_KEY(destinationID, FLOW_IDS[flowID]);
    let flow = this.flows.get(key);
    if (flow === undefined) {
      flow = { key, destinationID, flowID, active: null, waiting: [] };
      this.flows.set(key, flow);
      this.ring.add(key);
    }
    const skey = sourceStreamKey({ destinationID, cos, streamID });
    let stream = this.streams.get(skey);
    if (stream === undefined) {
      stream = { key: skey, active: null, waiting: [] };
      this.streams.set(skey, stream);
    }
    // §3.2.4 "all segments of a PDU must also have that same flowID and cos": the bits are fixed once.
    const bits = flowBits(flowID, this.config.crfSupported) as FlowBits;
    const c = this.config;
    const pdu: Pdu = {
      tt: c.tt, destinationID, sourceID: c.sourceID, cos, streamID, vc: bits.vc, prio: bits.prio, crf: bits.crf,
      seq: ++this.seq, id, flowID, payload, buffer: viewBuffer(payload), base: payload.byteOffset, flow, stream,
      queuedAt: now, startedAt: null, mtu: 0, offset: 0, aborting: false,
    };
    flow.waiting.push(pdu);
    stream.waiting.push(pdu);
    this.count.pdusQueued++;
    out.push(queuedOutput(pdu));
  }

  #pull(destinationID: number, flowID: FlowIdLabel, max: number | undefined, now: Time, out: SegmenterOutput[]): void {
    const n = pullCount(max);
    const key = this.flowKeyOf(destinationID, flowID);
    if (n === 0 || key < 0) {
      this.#invalid(out, destinationID, flowID);
      return;
    }
    this.count.pulls++;
    let flow = this.flows.get(key);
    const stopped = this.stopped.size !== 0 && this.stopped.has(key);
    for (let sent = 0; sent < n; sent++) {
      const reason = flow === undefined ? 'empty' : stopped ? 'flow-stopped' : this.#serve(flow, now, out);
      if (reason !== null) {
        if (sent === 0) {
          this.count.idlePulls++;
          out.push({ kind: 'idle', reason, destinationID, flowID });
        }
        return;
      }
      // Looked up again only when a PDU ended, which may have released the flow.
      if ((flow as FlowQueue).active === null) flow = this.flows.get(key);
    }
  }

  #pullAny(max: number | undefined, now: Time, out: SegmenterOutput[]): void {
    const n = pullCount(max);
    if (n === 0) {
      this.#invalid(out);
      return;
    }
    this.count.pulls++;
    for (let sent = 0; sent < n; sent++) {
      const reason = this.#serveAny(now, out);
      if (reason !== null) {
        if (sent === 0) {
          this.count.idlePulls++;
          out.push({ kind: 'idle', reason });
        }
        return;
      }
    }
  }

  /** One segment of the first flow after the one served last that has one; null when sent. */
  #serveAny(now: Time, out: SegmenterOutput[]): SegmenterIdleReason | null {
    const ring = this.ring;
    const n = ring.size;
    let reason: SegmenterIdleReason = 'empty';
    const first = ring.after(this.lastServed);
    const stopped = this.stopped.size === 0 ? null : this.stopped;
    for (let i = 0; i < n; i++) {
      const key = ring.at(first + i);
      const r = stopped?.has(key) === true ? 'flow-stopped' : this.#serve(this.flows.get(key) as FlowQueue, now, out);
      if (r === null) {
        this.lastServed = key;
        return null;
      }
      if (reason === 'empty') reason = r;
    }
    return reason;
  }

  /** Emits the flow's next segment and returns null, or returns why there is none. */
  #serve(flow: FlowQueue, now: Time, out: SegmenterOutput[]): SegmenterIdleReason | null {
    let p = flow.active;
    if (p === null) {
      const head = flow.waiting[0];
      if (head === undefined) return 'empty';
      if (!canStart(head)) return 'stream-busy';
      const mtu = this.mtu();
      if (mtu === null) return 'mtu-reserved';
      this.startPdu(head, mtu, now, out);
      p = head;
    }
    const c = this.count;
    if (p.aborting) {
      c.segmentsSent++;
      c.abortSegmentsSent++;
      out.push({ kind: 'send', seq: p.seq, flowID: p.flowID, packet: abortSegment(p) });
      this.finishPdu(p);
      return null;
    }
    const n = p.payload.length;
    const at = p.offset;
    const end = Math.min(n, at + p.mtu);
    const packet = SEGMENT_OF(p, PAYLOAD_VIEW(p.payload, p.buffer, p.base, at, end), at, n, p.mtu);
    p.offset = end;
    c.segmentsSent++;
    c.bytesSent += end - at;
    out.push({ kind: 'send', seq: p.seq, flowID: p.flowID, packet });
    if (end === n) {
      c.pdusDone++;
      out.push(doneOutput(p));
      this.finishPdu(p);
    }
    return null;
  }

  /** Whether a `pull-any` now would send a segment (not answer idle). */
  canPull(): boolean {
    return this.#nextAny() >= 0;
  }

  /** The key of the flow `#serveAny` would serve next, or -1 when none may send. */
  #nextAny(): number {
    const ring = this.ring;
    const first = ring.after(this.lastServed);
    for (let i = 0; i < ring.size; i++) {
      const key = ring.at(first + i);
      if (this.stopped.size !== 0 && this.stopped.has(key)) continue;
      const flow = this.flows.get(key) as FlowQueue;
      if (flow.active !== null) return key;
      const head = flow.waiting[0];
      if (head !== undefined && canStart(head) && this.mtu() !== null) return key;
    }
    return -1;
  }

  /** #serve's bookkeeping for the segment writeSegmentFrame writes. */
  #writeNext(p: Pdu, buf: Uint8Array, at: number, crcs: SegmentCrcs, out: SegmenterOutput[] | null): number {
    const c = this.count;
    const next = writeSegmentFrame(p, buf, at, crcs);
    c.segmentsSent++;
    if (p.aborting) {
      c.abortSegmentsSent++;
      this.finishPdu(p);
      return next;
    }
    const n = p.payload.length;
    const end = Math.min(n, p.offset + p.mtu);
    c.bytesSent += end - p.offset;
    p.offset = end;
    if (end === n) {
      c.pdusDone++;
      out?.push(doneOutput(p));
      this.finishPdu(p);
    }
    return next;
  }

  #abort(destinationID: number, flowID: FlowIdLabel, id: PduId | undefined, out: SegmenterOutput[]): void {
    const key = this.flowKeyOf(destinationID, flowID);
    if (key < 0) {
      this.#invalid(out, destinationID, flowID);
      return;
    }
    const flow = this.flows.get(key);
    const target = flow === undefined ? undefined : abortTarget(flow, id);
    if (target === undefined) {
      this.count.nothingToAbort++;
      this.#event(out, 'nothing-to-abort', destinationID, flowID, id);
      return;
    }
    if (target === target.flow.active) {
      // Rule 9: the start segment is out, so the destination holds an open context to close.
      target.aborting = true;
      this.count.pdusAborted++;
      out.push({ kind: 'aborted', started: true, bytesSent: target.offset, ...pduRef(target) });
      return;
    }
    removeWaiting(target.flow.waiting, target);
    removeWaiting(target.stream.waiting, target);
    this.count.pdusDropped++;
    out.push({ kind: 'aborted', started: false, bytesSent: 0, ...pduRef(target) });
    this.releasePdu(target);
  }

  #gate(destinationID: number, flowID: FlowIdLabel, stopped: boolean, out: SegmenterOutput[]): void {
    const key = this.flowKeyOf(destinationID, flowID);
    if (key < 0 || typeof stopped !== 'boolean') {
      this.#invalid(out, destinationID, flowID);
      return;
    }
    if (stopped) this.stopped.set(key, { destinationID, flowID });
    else this.stopped.delete(key);
  }

  #setMaxPdu(destinationID: unknown, maxPdu: unknown, out: SegmenterOutput[]): void {
    const ok = typeof maxPdu === 'number' && Number.isInteger(maxPdu) && maxPdu >= 1 && maxPdu <= PDU_MAX;
    if (!ok || !fitsDeviceId(destinationID, this.config.tt)) {
      this.#invalid(out, destinationID);
      return;
    }
    this.maxPdus.set(destinationID, maxPdu);
  }

  /**
   * §5.5.1 Table 5-6 MTU written: PDUs that start from now on are cut with it; a PDU already
   * started keeps the MTU it started with (§3.2.4 "Start segments and continuation segments are
   * always filled to the MTU size": one MTU per PDU, the one its destination judges it by). With
   * `registers` the MTU is the register's: write the register instead.
   */
  #setMtu(mtu: unknown, out: SegmenterOutput[]): void {
    if (this.config.registers !== null || !isMtu(mtu)) this.#invalid(out);
    else this.fixedMtu = mtu;
  }

  #invalid(out: SegmenterOutput[], destinationID?: unknown, flowID?: unknown): void {
    this.count.invalidInputs++;
    this.#event(out, 'invalid-input', destinationID, flowID, undefined);
  }

  #event(out: SegmenterOutput[], name: SegmenterEventName, destinationID: unknown, flowID: unknown, id: PduId | undefined): void {
    const e: { kind: 'event'; name: SegmenterEventName; destinationID?: number; flowID?: string; id?: PduId } = { kind: 'event', name };
    if (typeof destinationID === 'number') e.destinationID = destinationID;
    if (flowID !== undefined) e.flowID = shown(flowID);
    if (id !== undefined) e.id = id;
    out.push(e);
  }
}
