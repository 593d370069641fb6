/**
 * The streams of an end point as the application sees them (api-stream.ts), kept in step with
 * what the session engine reports (src/session/types.ts SessionEvent): opened, conduit, closed,
 * XOFF/XON, and the PDUs it delivers. Streams are found by (remote, direction, streamID), the
 * engine's StreamRef; one handle is registered under both streams of a conduit.
 *
 * Conduits (Annex 2 §3.4): the session engine reports each stream `opened` as it opens and then
 * `conduit` once "both the transmit and receive stream IDs for the conduit will be known"
 * (§3.4.2), in either order. A receive stream whose ACCEPT carried CONDUIT_STREAM waits for that
 * event: then it joins the application's own `openConduit` (its transmit stream), or it is a
 * conduit a peer opened and takes the transmit stream the engine opened back (§3.4.1). Whether a
 * receive stream belongs to a conduit is the engine's conduit table's to say (its snapshot).
 */
import type { Time } from '../engine/contract.ts';
import type { SessionEvent, StreamInfo, StreamRef } from '../session/types.ts';
import { AsyncQueue } from './api-queue.ts';
import { TmLevels } from './api-tm-levels.ts';
import { describe, StreamError, StreamHandle } from './api-stream.ts';
import type { RxSide, StreamCore, TxSide } from './api-stream.ts';
import type { FlowChange, LossReason, StreamLoss } from './api-types.ts';
import { closeLoss } from './api-loss.ts';
import type { LossTarget } from './api-loss.ts';
import type { ApiSettings } from './endpoint-config.ts';
import type { FabricEndpointInput } from './endpoint-engine.ts';

export function refKey(r: StreamRef): string {
  return `${r.remote}/${r.direction}/${r.streamID}`;
}

function plainRef(r: StreamRef): StreamRef {
  return { remote: r.remote, direction: r.direction, streamID: r.streamID };
}

/** What the registry asks of the API layer. */
export interface StreamHost {
  /** An engine input; queued when the engine is busy. */
  post(input: FabricEndpointInput): void;
  setTimer(name: string, at: Time | null): void;
  now(): Time;
  flowChange(c: FlowChange): void;
  count(name: 'pdusReceived' | 'rxDropped' | 'rxHolds' | 'rxStalls' | 'xoffSent' | 'xonSent'): void;
  /** Whether the engine holds a conduit record whose receive stream this is (§3.4.3 process_incoming_open). */
  inConduit(ref: StreamRef): boolean;
  /** Stop (true) or go on (false) taking packets from the link; true again is harmless, and needed for a new link. */
  holdReceive(on: boolean): void;
  /** A loss was reported on a stream (after its own listeners). */
  lost(l: StreamLoss): void;
}

/** An application `openStream`/`openConduit` waiting for the engine. */
export interface PendingOpen {
  readonly handle: StreamHandle;
  readonly conduit: boolean;
  resolve(s: StreamHandle): void;
  reject(e: Error): void;
}

const XOFF_TIMER = 'xoff:';
const STALL_TIMER = 'stall:';
const MS = 1_000_000;

export class StreamRegistry {
  readonly #byRef = new Map<string, StreamHandle>();
  /** Transmit streams the conduit procedure opened for a peer's conduit, waiting for their `conduit` event. */
  readonly #looseTx = new Map<string, StreamInfo>();
  readonly pending = new Map<string, PendingOpen>();
  readonly incoming = new AsyncQueue<StreamHandle>();
  readonly #host: StreamHost;
  readonly #core: StreamCore;
  readonly #api: ApiSettings;
  /** Receive streams at `rxLimit` the link waits for (api-stream.ts, receive buffer). */
  readonly #holding = new Map<string, RxSide>();
  /** With traffic management: the receive queues' levels for its egress (api-tm-levels.ts). */
  readonly #tm: TmLevels | null;

  constructor(host: StreamHost, core: StreamCore, api: ApiSettings, tm = false) {
    this.#host = host;
    this.#core = core;
    this.#api = api;
    this.#tm = tm ? new TmLevels((input) => { host.post(input); }, api.rxHigh) : null;
  }

  handles(): StreamHandle[] {
    return [...new Set(this.#byRef.values())];
  }

  get(ref: StreamRef): StreamHandle | undefined {
    return this.#byRef.get(refKey(ref));
  }

  /** The session engine's event. */
  session(d: SessionEvent, at: Time): void {
    switch (d.event) {
      case 'opened':
        this.#opened(d.stream, d.ref);
        break;
      case 'conduit':
        this.#conduit(d.tx, d.rx);
        break;
      case 'refused':
        this.#failed(d.ref, new StreamError(`OPEN of protocol 0x${d.protoID.toString(16)} refused by node ${d.node} (REFUSE, Annex 2 §4.2.5)`));
        break;
      case 'timeout':
        if (d.command === 'OPEN' && d.ref !== undefined) this.#failed(d.ref, new StreamError(`OPEN to node ${d.node} timed out (Annex 2 §3.7.1)`));
        break;
      case 'closed':
        this.#closed(d.stream, d.cause, at);
        break;
      case 'xoff':
      case 'xon':
      case 'xon-timeout':
        this.#txFlow(d.stream, d.event, at);
        break;
      default:
        break;
    }
  }

  #opened(info: StreamInfo, ref: string | undefined): void {
    const stream = plainRef(info);
    if (ref !== undefined) {
      const p = this.pending.get(ref);
      if (p === undefined) return;
      p.handle.attachTx(stream, info.settings);
      this.#byRef.set(refKey(stream), p.handle);
      if (!p.conduit) {
        this.pending.delete(ref);
        p.resolve(p.handle);
      }
      return;
    }
    if (stream.direction === 'tx') {
      this.#looseTx.set(refKey(stream), info);
      return;
    }
    const h = new StreamHandle(this.#core, stream.remote, info.protoID, info.attributes, false);
    h.attachRx(stream, info.settings, info.attributes);
    this.#byRef.set(refKey(stream), h);
    this.#tm?.track(refKey(stream), stream, info.cos);
    // The ACCEPT's CONDUIT_STREAM is not among the stream's attributes: the engine's conduit table says.
    if (!this.#host.inConduit(stream)) this.incoming.push(h);
  }

  #conduit(tx: StreamRef, rx: StreamRef): void {
    const owner = this.#byRef.get(refKey(tx));
    const rxHandle = this.#byRef.get(refKey(rx));
    const pendingRef = owner === undefined ? undefined : [...this.pending].find(([, p]) => p.handle === owner)?.[0];
    if (owner !== undefined && pendingRef !== undefined) {
      const p = this.pending.get(pendingRef);
      this.pending.delete(pendingRef);
      const side = rxHandle?.rxSide ?? undefined;
      if (side !== undefined) owner.attachRx(side.ref, side.settings, rxHandle?.attributes ?? [], side);
      this.#byRef.set(refKey(rx), owner);
      owner.completeConduit();
      p?.resolve(owner);
      return;
    }
    const loose = this.#looseTx.get(refKey(tx));
    if (rxHandle === undefined || loose === undefined) return;
    this.#looseTx.delete(refKey(tx));
    rxHandle.attachTx(plainRef(tx), loose.settings);
    this.#byRef.set(refKey(tx), rxHandle);
    rxHandle.completeConduit();
    this.incoming.push(rxHandle);
  }

  #failed(ref: string, e: Error): void {
    const p = this.pending.get(ref);
    if (p === undefined) return;
    this.pending.delete(ref);
    p.handle.abandon(e);
    p.reject(e);
  }

  #closed(ref: StreamRef, cause: string, at: Time): void {
    const key = refKey(ref);
    this.#looseTx.delete(key);
    const h = this.#byRef.get(key);
    if (h === undefined) return;
    // Told before the stream ends, so that a reader sees why it ended (decision FF5).
    const loss = closeLoss(cause);
    if (loss !== null) this.#lost(h, ref, loss.reason, null, loss.detail, at);
    this.#byRef.delete(key);
    const side = ref.direction === 'tx' ? h.txSide : h.rxSide;
    if (side !== null && side.ref.streamID === ref.streamID) {
      side.closed = true;
      if (ref.direction === 'rx') {
        (side as RxSide).queue.end();
        this.#host.setTimer(XOFF_TIMER + key, null);
        this.#release(key, null);
        this.#tm?.forget(key);
      }
    }
    // A conduit whose other stream will not come now: the application's open fails.
    for (const [pref, p] of this.pending) {
      if (p.handle !== h) continue;
      this.pending.delete(pref);
      const e = new StreamError(`conduit to node ${h.remote} closed before it was complete (${describe(ref)})`);
      h.abandon(e);
      p.reject(e);
    }
    h.wake();
  }

  #txFlow(ref: StreamRef, what: 'xoff' | 'xon' | 'xon-timeout', at: Time): void {
    const h = this.#byRef.get(refKey(ref));
    const tx = h?.txSide;
    if (h === undefined || tx === null || tx === undefined) return;
    tx.xoff = what === 'xoff';
    h.wake();
    this.#host.flowChange({ kind: 'session-tx', at, stream: plainRef(ref), state: what === 'xoff' ? 'xoff' : 'xon', cause: what });
  }

  /** The Type 9 conveyance segmented a data PDU of a transmit stream (its `sent` event). */
  segmented(to: number, streamID: number): void {
    const h = this.#byRef.get(`${to}/tx/${streamID}`);
    const tx = h?.txSide;
    if (h === undefined || tx === null || tx === undefined || tx.outstanding === 0) return;
    tx.outstanding--;
    h.wake();
  }

  /** Streams whose PDUs go as Type 11 messages may go on (the conveyance's backlog changed). */
  wakeType11(): void {
    for (const h of this.handles()) if (h.txSide !== null && h.txSide.settings.dataHeaderFormat !== 'DATA3') h.wake();
  }

  /** A PDU the engine delivered. */
  deliver(ref: StreamRef, pdu: Uint8Array): void {
    const h = this.#byRef.get(refKey(ref));
    const rx = h?.rxSide;
    if (h === undefined || rx === null || rx === undefined || rx.closed) {
      this.#host.count('rxDropped');
      return;
    }
    if (rx.stalled && rx.queue.size >= this.#api.rxLimit) {
      rx.dropped++;
      this.#host.count('rxDropped');
      this.#lost(h, rx.ref, 'overflow', 1, `PDU dropped: ${rx.queue.size} PDUs unread for ${this.#api.rxStallMs} ms (api.rxLimit, api.rxStallMs)`, this.#host.now());
      return;
    }
    rx.queue.push(pdu);
    this.#host.count('pdusReceived');
    this.#tm?.update(refKey(ref), rx.queue.size);
    if (!rx.xoffSent && rx.queue.size >= this.#api.rxHigh) this.#xoff(rx, true);
    if (rx.queue.size >= this.#api.rxLimit) this.#hold(rx);
  }

  /** The application read a PDU. */
  consumed(rx: RxSide): void {
    if (rx.xoffSent && !rx.closed && rx.queue.size <= this.#api.rxLow) this.#xoff(rx, false);
    rx.stalled = false;
    const key = refKey(rx.ref);
    this.#tm?.update(key, rx.queue.size);
    if (!this.#holding.has(key)) return;
    if (rx.queue.size < this.#api.rxLimit) this.#release(key, 'released');
    else this.#host.setTimer(STALL_TIMER + key, this.#host.now() + this.#api.rxStallMs * MS);
  }

  /**
   * The stream is at `rxLimit`: no packet more from the link until its application reads, so what
   * the sender sent before the XOFF reached it waits in the fabric (the switch's buffers, then
   * the sender's link, issue 8 §1 "bounded buffers with backpressure (no loss)"), as an LP-Serial
   * receiver without a buffer for a packet answers packet-retry (Part 6 §3.4.2 Table 3-6) and the
   * packet stays with its sender. Every delivery at the limit asks again: the link may be a new one.
   */
  #hold(rx: RxSide): void {
    const key = refKey(rx.ref);
    if (!this.#holding.has(key)) {
      this.#holding.set(key, rx);
      this.#host.count('rxHolds');
      this.#host.setTimer(STALL_TIMER + key, this.#host.now() + this.#api.rxStallMs * MS);
      this.#host.flowChange({ kind: 'rx-link', at: this.#host.now(), stream: rx.ref, state: 'held' });
    }
    this.#host.holdReceive(true);
  }

  /** The link no longer waits for the stream: read below the limit, closed, or stalled (state null: closed, no report). */
  #release(key: string, state: 'released' | 'stalled' | null): void {
    const rx = this.#holding.get(key);
    if (rx === undefined) return;
    this.#holding.delete(key);
    this.#host.setTimer(STALL_TIMER + key, null);
    if (state !== null) this.#host.flowChange({ kind: 'rx-link', at: this.#host.now(), stream: rx.ref, state });
    if (this.#holding.size === 0) this.#host.holdReceive(false);
  }

  /** §4.2.6 XOFF / XON of a receive stream; an XOFF is repeated within the sender's FLOW_CONTROL_XON_TIMEOUT_PERIOD. */
  #xoff(rx: RxSide, off: boolean): void {
    rx.xoffSent = off;
    const key = refKey(rx.ref);
    this.#host.post({ kind: off ? 'xoff' : 'xon', stream: rx.ref });
    this.#host.count(off ? 'xoffSent' : 'xonSent');
    this.#host.setTimer(XOFF_TIMER + key, off ? this.#host.now() + this.#refresh(rx) : null);
    this.#host.flowChange({ kind: 'session-rx', at: this.#host.now(), stream: rx.ref, state: off ? 'xoff' : 'xon', cause: 'buffer' });
  }

  /**
   * §3.5.3.6: "In the event that a FLOW CONTROL XOFF/XON message is not received in the timeout
   * interval, transmission of the XOFF'ed stream should resume"; repeated at half the period so a
   * stream the application is still not reading stays off.
   */
  #refresh(rx: RxSide): number {
    return Math.max(1, Math.floor(rx.settings.xonTimeout / 2));
  }

  /** An API timer; true when it was one of the registry's. */
  timer(name: string): boolean {
    if (name.startsWith(STALL_TIMER)) {
      this.#stalled(name.slice(STALL_TIMER.length));
      return true;
    }
    if (!name.startsWith(XOFF_TIMER)) return false;
    const h = this.#byRef.get(name.slice(XOFF_TIMER.length));
    const rx = h?.rxSide;
    if (rx === null || rx === undefined || !rx.xoffSent || rx.closed) return true;
    this.#host.post({ kind: 'xoff', stream: rx.ref });
    this.#host.count('xoffSent');
    this.#host.setTimer(name, this.#host.now() + this.#refresh(rx));
    return true;
  }

  /**
   * The application read nothing of a stream at the limit for `rxStallMs`: the link goes on
   * without it, and its PDUs beyond the limit are dropped until it reads again, so that a stream
   * nobody reads holds neither the link nor memory without bound (issue 8 §3).
   */
  #stalled(key: string): void {
    const rx = this.#holding.get(key);
    if (rx === undefined) return;
    rx.stalled = true;
    this.#host.count('rxStalls');
    this.#release(key, 'stalled');
  }

  // ---- Losses (api-loss.ts) ----------------------------------------------------------------------

  #lost(h: StreamHandle, ref: StreamRef, reason: LossReason, pdus: number | null, detail: string, at: Time): void {
    const l: StreamLoss = { at, stream: plainRef(ref), reason, pdus, detail };
    h.lost(l);
    this.#host.lost(l);
  }

  /** An engine event's loss: on the stream it names, else on each open stream of the node it may be (a possible gap when more than one). */
  report(t: LossTarget, at: Time): void {
    const sides: { h: StreamHandle; ref: StreamRef }[] = [];
    for (const h of this.handles()) {
      const side = t.direction === 'tx' ? h.txSide : h.rxSide;
      if (h.remote !== t.node || side === null || side.closed || (side.settings.dataHeaderFormat === 'DATA3') !== t.type9) continue;
      if (t.streamID === null || side.ref.streamID === t.streamID) sides.push({ h, ref: side.ref });
    }
    const pdus = sides.length === 1 ? 1 : null;
    for (const { h, ref } of sides) this.#lost(h, ref, t.reason, pdus, t.detail, at);
  }

  /**
   * The link to the switch went down: what was on it, in the switch, or in the sockets is lost,
   * of unknown count, on every open stream (a switch restart leaves the streams open, decision FF5).
   */
  linkDown(detail: string, at: Time): void {
    for (const h of this.handles()) {
      for (const side of [h.txSide, h.rxSide]) if (side !== null && !side.closed) this.#lost(h, side.ref, 'link-down', null, detail, at);
    }
  }

  /** The end point stopped: every stream and open ends. */
  abandonAll(e: Error): void {
    for (const key of [...this.#holding.keys()]) this.#release(key, null);
    for (const [, p] of this.pending) p.reject(e);
    this.pending.clear();
    for (const h of this.handles()) h.abandon(e);
    this.#byRef.clear();
    this.incoming.end();
  }
}

export type { TxSide };
