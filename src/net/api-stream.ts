/**
 * One stream, or both streams of a conduit, as the application holds it (api-types.ts `Stream`).
 * The end point's engine keeps the protocol state; this object keeps what the application side
 * needs: the PDUs received and not yet read, and whether a PDU may be handed over now.
 *
 * Receive buffer (decision): Annex 2 §4.2.6 lets the receiver "use the XOFF command to suspend
 * data traffic", and the session engine sends FLOW_CONTROL when told to. So when `rxHigh` PDUs
 * wait unread the stream is XOFF'd, and XON'd again at `rxLow`. What the sender had sent before
 * the XOFF reached it is still in flight, and over TCP that is not bounded by anything the end
 * point sets (megabytes in loopback socket buffers); so at `rxLimit` the end point stops taking
 * packets from its link until the application reads (api-streams.ts), as an LP-Serial receiver
 * answers packet-retry for a packet it has no buffer for, and the fabric holds the rest. Only a stream whose
 * application reads nothing for `rxStallMs` meanwhile has its PDUs beyond `rxLimit` dropped and
 * counted (`rxDropped`), so that it cannot hold the link, or memory, without bound.
 */
import type { StreamRef, StreamSettings } from '../session/types.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { AsyncQueue } from './api-queue.ts';
import type { LossStatus, Stream, StreamLoss, StreamStatus } from './api-types.ts';

/** What a stream asks of the API layer (api.ts). */
export interface StreamCore {
  /** Hands a PDU to the engine: undefined when accepted, else why not. */
  sendPdu(s: StreamHandle, tx: TxSide, pdu: Uint8Array): string | undefined;
  /** The application read from the receive buffer (it may now be XON'd). */
  consumed(s: StreamHandle, rx: RxSide): void;
  /** The application is done with a PDU it read: its memory may hold a later PDU. */
  release(pdu: Uint8Array): void;
  /** CLOSE each open side. */
  closeStream(s: StreamHandle): void;
  readonly sendWindow: number;
  /** Whether the end point can take a PDU of a non-DATA3 stream now (Type 11 backlog). */
  type11Room(): boolean;
}

export interface TxSide {
  readonly ref: StreamRef;
  readonly settings: StreamSettings;
  xoff: boolean;
  outstanding: number;
  closed: boolean;
}

export interface RxSide {
  readonly ref: StreamRef;
  readonly settings: StreamSettings;
  readonly queue: AsyncQueue<Uint8Array>;
  xoffSent: boolean;
  dropped: number;
  /** Its application read nothing for `rxStallMs` while the link waited for it: PDUs beyond `rxLimit` are dropped until it reads. */
  stalled: boolean;
  closed: boolean;
}

/**
 * A stream cannot take what was asked: it is closed, has no transmit side, or refuses the PDU (too long,
 * wrong stream).
 *
 * @example
 * ```ts
 * import { StreamError, endpointConfig, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], routes: { 1: 0 }, log: 'silent' }));
 * const ep = await startEndpoint(endpointConfig({ nodeId: 1, switch: { port: sw.addresses[0]!.tcpPort }, log: 'silent' })); // no `tm` section
 * try {
 *   ep.tmCommand({ side: 'egress', to: { peer: 2, cos: 0, streamID: 0, wildcard: 1, mask: 0 }, command: { message: 'XOFF' } });
 * } catch (e) {
 *   if (!(e instanceof StreamError)) throw e;
 *   console.log(e.message); // this end point has no traffic management (tm in its configuration)
 * }
 * await ep.close();
 * await sw.close();
 * ```
 */
export class StreamError extends Error {}
Object.defineProperty(StreamError.prototype, 'name', { value: 'StreamError', writable: true, configurable: true });

export class StreamHandle implements Stream {
  readonly remote: number;
  readonly protoID: number;
  #attributes: readonly AttributeLike[];
  #tx: TxSide | null = null;
  #rx: RxSide | null = null;
  /** A conduit whose other stream is not known yet. */
  #conduit: boolean;
  readonly #core: StreamCore;
  #waiters: (() => void)[] = [];
  #closeWaiters: (() => void)[] = [];
  #abandoned: Error | null = null;
  #loss: LossStatus = { pdus: 0, gaps: 0, last: null };
  readonly #lossListeners = new Set<(l: StreamLoss) => void>();

  constructor(core: StreamCore, remote: number, protoID: number, attributes: readonly AttributeLike[], conduit: boolean) {
    this.#core = core;
    this.remote = remote;
    this.protoID = protoID;
    this.#attributes = attributes;
    this.#conduit = conduit;
  }

  get attributes(): readonly AttributeLike[] {
    return this.#attributes;
  }

  get tx(): StreamRef | null {
    return this.#tx?.ref ?? null;
  }

  get rx(): StreamRef | null {
    return this.#rx?.ref ?? null;
  }

  get conduit(): boolean {
    return this.#conduit;
  }

  get txSide(): TxSide | null {
    return this.#tx;
  }

  get rxSide(): RxSide | null {
    return this.#rx;
  }

  get closed(): boolean {
    return this.#abandoned !== null || ((this.#tx === null || this.#tx.closed) && (this.#rx === null || this.#rx.closed) && (this.#tx !== null || this.#rx !== null));
  }

  attachTx(ref: StreamRef, settings: StreamSettings): TxSide {
    this.#tx = { ref, settings, xoff: false, outstanding: 0, closed: false };
    this.wake();
    return this.#tx;
  }

  attachRx(ref: StreamRef, settings: StreamSettings, attributes: readonly AttributeLike[], rx?: RxSide): RxSide {
    this.#rx = rx ?? { ref, settings, queue: new AsyncQueue<Uint8Array>(), xoffSent: false, dropped: 0, stalled: false, closed: false };
    this.#attributes = attributes;
    this.wake();
    return this.#rx;
  }

  /** Both streams of the conduit are known. */
  completeConduit(): void {
    this.#conduit = true;
    this.wake();
  }

  /** Something a waiting `send` or `close` looks at changed. */
  wake(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
    if (this.closed) {
      const c = this.#closeWaiters;
      this.#closeWaiters = [];
      for (const f of c) f();
    }
  }

  /** The stream can no longer be used: the end point closed, or its conduit never completed. */
  abandon(e: Error): void {
    if (this.#abandoned !== null) return;
    this.#abandoned = e;
    if (this.#tx !== null) this.#tx.closed = true;
    if (this.#rx !== null) {
      this.#rx.closed = true;
      this.#rx.queue.end();
    }
    this.wake();
  }

  /** A loss on this stream (api-loss.ts): counted, and told to its listeners at once. */
  lost(l: StreamLoss): void {
    this.#loss = { pdus: this.#loss.pdus + (l.pdus ?? 0), gaps: this.#loss.gaps + (l.pdus === null ? 1 : 0), last: l };
    for (const f of [...this.#lossListeners]) f(l);
  }

  onLoss(listener: (l: StreamLoss) => void): () => void {
    this.#lossListeners.add(listener);
    return () => this.#lossListeners.delete(listener);
  }

  async send(pdu: Uint8Array): Promise<void> {
    if (!(pdu instanceof Uint8Array)) throw new TypeError('pdu must be a Uint8Array');
    for (;;) {
      if (this.#abandoned !== null) throw this.#abandoned;
      const tx = this.#tx;
      if (tx?.closed === true) throw new StreamError(`stream ${describe(tx.ref)} is closed`);
      if (tx === null && !this.#conduit) throw new StreamError(`stream to ${this.remote} has no transmit side`);
      if (tx !== null && this.#ready(tx)) {
        const why = this.#core.sendPdu(this, tx, pdu);
        if (why !== undefined) throw new StreamError(`PDU of ${pdu.length} bytes not accepted on ${describe(tx.ref)}: ${why}`);
        // The event loop turns before the next PDU: a sender in a loop never keeps the link's
        // received packets (an XOFF among them) from being read.
        await new Promise<void>((resolve) => setImmediate(resolve));
        return;
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #ready(tx: TxSide): boolean {
    if (tx.xoff) return false;
    return tx.settings.dataHeaderFormat === 'DATA3' ? tx.outstanding < this.#core.sendWindow : this.#core.type11Room();
  }

  async read(): Promise<Uint8Array | null> {
    for (;;) {
      const rx = this.#rx;
      if (rx === null) {
        if (this.#abandoned !== null || !this.#conduit) return null;
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
        continue;
      }
      const r = await rx.queue.next();
      if (r.done === true) return null;
      this.#core.consumed(this, rx);
      return r.value;
    }
  }

  release(pdu: Uint8Array): void {
    if (!(pdu instanceof Uint8Array)) throw new TypeError('pdu must be a Uint8Array');
    this.#core.release(pdu);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const done = new Promise<void>((resolve) => this.#closeWaiters.push(resolve));
    this.#core.closeStream(this);
    await done;
  }

  status(): StreamStatus {
    const tx = this.#tx;
    const rx = this.#rx;
    return {
      remote: this.remote,
      protoID: this.protoID,
      conduit: this.#conduit,
      tx: tx === null ? null : { streamID: tx.ref.streamID, xoff: tx.xoff, outstanding: tx.outstanding, dataHeaderFormat: tx.settings.dataHeaderFormat },
      rx: rx === null ? null : { streamID: rx.ref.streamID, buffered: rx.queue.size, xoffSent: rx.xoffSent, dropped: rx.dropped },
      closed: this.closed,
      loss: this.#loss,
    };
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array, undefined> {
    return {
      next: async () => {
        const v = await this.read();
        return v === null ? { done: true, value: undefined } : { done: false, value: v };
      },
      return: () => Promise.resolve({ done: true, value: undefined }),
    };
  }
}

export function describe(ref: StreamRef): string {
  return `${ref.direction} ${ref.remote}/0x${ref.streamID.toString(16)}`;
}
