/**
 * A riodp link over one TCP (or TLS) connection: frames in and out (docs/net-framing.md), the
 * HELLO exchange, CLOSE, and the rules that keep or drop the connection (§4). No protocol logic:
 * packets and control symbols go to the caller's handlers as decoded, and come from the caller.
 *
 * Sending (§4.4, issue 8 §3 "a flood does not grow memory without bound"): frames are encoded
 * into a batch of at most `sendBatchBytes` (send-batch.ts), written to the socket once per turn
 * of the event loop or when the batch is full. When the socket says its buffer is over its high-water mark
 * (`write` returns false) the link stops accepting frames — `send` returns false, `writable` is
 * false — until the socket drains, and then calls `onDrain`. Memory held for sending is thus at
 * most the socket's high-water mark plus two batches (and up to four spare batch buffers). Callers that must not lose packets (a
 * switch) keep them in their own bounded queues and stop their sources while `writable` is false.
 *
 * Receiving (link-receive.ts): `pause()` stops delivery at a frame boundary; the rest of the chunk is kept (a view,
 * not a copy) and the socket stops reading, so TCP's window pushes back on the peer's sender.
 */
import type { Socket } from 'node:net';
import { zeroCounters } from '../engine/contract.ts';
import { WireError, WireErrorCode } from '../wire/errors.ts';
import { CLOSE_REASON, FRAME_HEADER_BYTES, LINK_VERSION, clipUtf8, closeFrame, cs48Frame, cs64Frame, decodeFrame, helloFrame, packetFrame } from '../wire/frame.ts';
import type { CloseReasonName, DecodedFrame, FrameDecodeOptions } from '../wire/frame.ts';
import type { Packet } from '../wire/packet.ts';
import type { SymbolFields } from '../wire/symbol.ts';
import type { Symbol64Fields } from '../wire/symbol64.ts';
import type { PacketDecodeOptions } from '../wire/header.ts';
import type { FrameBatch } from '../wire/frame-batch.ts';
import { ReceivedBytes } from '../wire/received-bytes.ts';
import { isStatusOnly, startKeepalive } from './keepalive.ts';
import { SendBatch } from './send-batch.ts';
import type { BatchFeedHost } from './link-batch.ts';
import { LinkReceiver } from './link-receive.ts';
import { linkOptions } from './link-options.ts';
import { LINK_COUNTERS } from './link-types.ts';
import type { HelloFailure, LinkClosed, LinkCounters, LinkHandlers, LinkState, LinkTap, SendableFrame } from './link-types.ts';
import type { LinkOptions } from './link-options.ts';

export { LINK_COUNTERS } from './link-types.ts';
export type { HelloFailure, LinkClosed, LinkCounterName, LinkCounters, LinkHandlers, LinkState, LinkTap, SendableFrame } from './link-types.ts';
export { linkOptions } from './link-options.ts';
export type { LinkOptions, ResolvedLinkOptions } from './link-options.ts';

const CLAUSE_OPEN = 'riodp link §4.1';

export class Link {
  readonly socket: Socket;
  #handlers: LinkHandlers;
  #state: LinkState = 'hello';
  readonly #decode: FrameDecodeOptions;
  /** Record received packets' bytes (LinkOptions.forward); never with 5-bit ackIDs, which the encoder writes as 6. */
  readonly #forward: boolean;
  readonly #counters: LinkCounters = zeroCounters(LINK_COUNTERS);
  readonly #out: SendBatch;
  #peerVersion: number | null = null;
  #closed: LinkClosed | null = null;
  #error: Error | null = null;
  #helloTimer: NodeJS.Timeout | null;
  #closeTimer: NodeJS.Timeout | null = null;
  #keepalive: NodeJS.Timeout | null = null;
  readonly #closeTimeoutMs: number;
  readonly #tap: LinkTap | null;
  /** The WireError of the frame being received, for the tap. */
  #defect: WireError | null = null;
  /** Received bytes, fed and held (link-receive.ts). */
  readonly #rx: LinkReceiver;
  readonly #feedHost: BatchFeedHost = {
    fast: () => this.#state === 'open',
    frame: (bytes, offset, end) => (this.#tap === null ? this.#frame(bytes, offset, end) : this.#tapped(bytes, offset, end, this.#tap)),
    run: (batch, chunk, first, count) => this.#run(batch, chunk, first, count),
    going: () => this.#going(),
    ending: () => this.#ending(),
    fatal: (e) => { this.#fatal(e); },
  };

  constructor(socket: Socket, handlers: LinkHandlers | ((link: Link) => LinkHandlers), opts: LinkOptions = {}) {
    const o = linkOptions(opts);
    const helloMs = o.helloTimeoutMs;
    this.#closeTimeoutMs = o.closeTimeoutMs;
    this.#decode = o.decode;
    this.#forward = opts.forward === true && (o.decode as PacketDecodeOptions).ackIdBits !== 5;
    this.#tap = opts.tap ?? null;
    const tap = this.#tap;
    this.#out = new SendBatch(socket, o.sendBatchBytes, tap === null ? null : (b, start, end) => { tap.sent(b, start, end); });
    this.socket = socket;
    this.#handlers = {};
    this.#handlers = typeof handlers === 'function' ? handlers(this) : handlers;
    // The batch decodes as a link does by default (lenient, 6-bit ackIDs); other decodings keep the object path.
    const plain = (o.decode as PacketDecodeOptions).strict !== true && (o.decode as PacketDecodeOptions).ackIdBits !== 5;
    this.#rx = new LinkReceiver(socket, o.maxFrameSize, this.#handlers.onFrames !== undefined && opts.batch !== false && opts.tap === undefined && plain, this.#feedHost);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.#counters.bytesIn += chunk.length;
      this.#rx.feed(chunk);
    });
    socket.on('drain', () => {
      this.#out.drained();
      if (this.writable) this.#handlers.onDrain?.();
    });
    socket.on('error', (e: Error) => {
      this.#error ??= e;
    });
    socket.on('close', () => {
      this.#ended();
    });
    this.#helloTimer = setTimeout(() => {
      this.#helloTimer = null;
      if (this.#state === 'hello') this.#close('protocol', `no HELLO within ${helloMs} ms`, 'timeout');
    }, helloMs).unref();
    this.#out.add(helloFrame(LINK_VERSION));
    if (o.keepaliveMs > 0) this.#keepalive = startKeepalive(this, o.keepaliveMs);
  }

  get state(): LinkState {
    return this.#state;
  }

  /** The version the peer's HELLO announced, once it has arrived. */
  get peerVersion(): number | null {
    return this.#peerVersion;
  }

  /** How the link ended, once it has. */
  get closedWith(): LinkClosed | null {
    return this.#state === 'closed' ? this.#closed : null;
  }

  /** Whether `send` accepts a frame now. */
  get writable(): boolean {
    return (this.#state === 'hello' || this.#state === 'open') && !this.#out.blocked;
  }

  get paused(): boolean {
    return this.#rx.paused;
  }

  /** Whether received chunks are parsed into frame batches (the fast lane, `onFrames`). */
  get batched(): boolean {
    return this.#rx.batched;
  }

  /** Bytes of received data held while paused. */
  get held(): number {
    return this.#rx.held;
  }

  counters(): LinkCounters {
    return { ...this.#counters, framesOut: this.#out.frames, bytesOut: this.#out.bytes };
  }

  /** `counters().framesOut` without building the counters (the keepalive looks at it every period). */
  get framesOut(): number {
    return this.#out.frames;
  }

  /**
   * Queues a packet or control symbol frame; false (counted in `sendRefused`) when the link is
   * not writable, and then nothing is queued. A frame that does not encode throws its WireError
   * (a caller's error, not protocol input) and nothing is queued either.
   */
  send(frame: SendableFrame): boolean {
    if (!this.writable) {
      this.#counters.sendRefused++;
      return false;
    }
    this.#out.add(frame);
    return true;
  }

  /**
   * With `wire`, the bytes `packet` arrived in (onPacket of a link with `forward`), the packet
   * leaves in those bytes: the encoder would write the same (src/wire/received-bytes.ts). Without, it is
   * encoded.
   */
  sendPacket(packet: Packet, wire?: unknown): boolean {
    if (!(wire instanceof ReceivedBytes)) return this.send(packetFrame(packet));
    return this.sendPacketBytes(wire.bytes, wire.start, wire.end);
  }

  /**
   * A packet frame around the serial packet bytes[start, end) as they are: bytes a packet arrived
   * in (a batch's frame, decision DP1), which the encoder would write again. False (counted in
   * `sendRefused`) when the link is not writable.
   */
  sendPacketBytes(bytes: Uint8Array, start: number, end: number): boolean {
    if (!this.writable) {
      this.#counters.sendRefused++;
      return false;
    }
    this.#out.addPacketBytes(bytes, start, end);
    return true;
  }

  /**
   * The fast lane's send (issue 17, docs/fast-lane.md §10): `write(buf, offset, budget)` writes
   * whole riodp link frames straight into the send batch at buf[offset, offset + budget) and
   * returns their bytes (or a negative number: it wrote nothing). The batch is flushed first when
   * less than `room` bytes are free, so that a frame of up to `room` bytes fits. Returns what
   * `write` returned; -1, without calling it, when the link is not writable. The frames count in
   * `framesOut` as sent ones do. `buf` is the batch's own buffer: valid during the call only.
   */
  fill(write: (buf: Uint8Array, offset: number, budget: number) => number, room: number): number {
    if (!this.writable) return -1;
    let declined = false as boolean;
    const n = this.#out.fill(room, (buf, at, budget) => {
      const r = write(buf, at, budget);
      declined = r < 0;
      return declined ? 0 : r;
    });
    return declined ? -1 : n;
  }

  sendSymbol(symbol: SymbolFields | Symbol64Fields): boolean {
    return this.send(symbol.link === 'cs64' ? cs64Frame(symbol) : cs48Frame(symbol));
  }

  /** Stops delivering frames after the current one and stops reading the socket. */
  pause(): void {
    this.#rx.pause();
  }

  resume(): void {
    this.#rx.resume();
  }

  /**
   * Sends CLOSE with `reason` and a text (cut to 255 bytes of UTF-8), then ends the connection;
   * the socket is destroyed if the peer has not ended its side within `closeTimeoutMs` (§4.3).
   */
  close(reason: Exclude<CloseReasonName, 'RESERVED'> = 'normal', text = ''): void {
    this.#close(reason, text, undefined);
  }

  #close(reason: Exclude<CloseReasonName, 'RESERVED'>, text: string, hello: HelloFailure | undefined): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    const clipped = clipUtf8(text);
    const closed: LinkClosed = { by: 'local', reason: CLOSE_REASON[reason], reasonName: reason, text: clipped };
    this.#closed = hello === undefined ? closed : { ...closed, hello };
    this.#state = 'closing';
    this.#clearHello();
    this.#out.add(closeFrame(CLOSE_REASON[reason], clipped));
    this.#out.flush();
    this.#rx.drainUnread();
    this.#end();
  }

  /** Drops the connection at once, without a CLOSE: a node killed. */
  destroy(): void {
    if (this.#state === 'closed') return;
    this.#closed ??= { by: 'local', reason: null, reasonName: 'lost', text: 'destroyed' };
    this.#state = 'closing';
    this.socket.destroy();
  }

  /** `#frame` seen by the tap: the frame is recorded after the handlers had it, with its defect. */
  #tapped(bytes: Uint8Array, offset: number, end: number, tap: LinkTap): boolean {
    this.#defect = null;
    tap.receiving();
    const going = this.#frame(bytes, offset, end);
    tap.received(bytes, offset, end, this.#defect);
    this.#defect = null;
    return going;
  }

  /** One whole frame; returns whether to go on with the next one. */
  #frame(bytes: Uint8Array, offset: number, end: number): boolean {
    this.#counters.framesIn++;
    if (this.#state !== 'hello' && this.#state !== 'open') return false;
    if (this.#state === 'open') this.#handlers.onFrame?.();
    let f: DecodedFrame;
    try {
      f = decodeFrame(bytes, offset, end, this.#decode);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      this.#counters.malformed++;
      this.#defect = e;
      this.#handlers.onMalformed?.(e);
      if (this.#state === 'hello') this.#close('protocol', `the first frame is not a HELLO: ${e.message}`, 'protocol');
      return this.#going();
    }
    if (this.#state === 'hello') {
      this.#opening(f);
      return this.#going();
    }
    switch (f.kindName) {
      case 'packet':
        this.#handlers.onPacket?.(f.packet, end - offset - FRAME_HEADER_BYTES, this.#forward ? new ReceivedBytes(bytes, offset + FRAME_HEADER_BYTES, end) : undefined);
        break;
      case 'cs48':
      case 'cs64':
        if (isStatusOnly(f.symbol)) {
          this.#counters.statusIn++;
          this.#handlers.onStatus?.();
        } else {
          this.#handlers.onSymbol?.(f.symbol);
        }
        break;
      case 'close':
        this.#peerClosed(f.reason, f.reasonName, f.text);
        break;
      case 'hello': {
        this.#counters.malformed++;
        this.#handlers.onMalformed?.(new WireError(WireErrorCode.invalid, 'kind', offset + 2, CLAUSE_OPEN, 'a HELLO after the link opened'));
        break;
      }
      case 'RESERVED':
        this.#counters.unknownKind++;
        break;
    }
    return this.#going();
  }

  /**
   * A run of good Type 9 packet frames for `onFrames`. A handler that takes fewer pauses the link
   * (the rest is held for `resume`); if it resumed the link again before returning, the rest is
   * offered at once (link-batch.ts). Taking none without pausing would offer the same frames
   * forever: the link pauses then.
   */
  #run(batch: FrameBatch, chunk: Uint8Array, first: number, count: number): number {
    const r = (this.#handlers.onFrames as NonNullable<LinkHandlers['onFrames']>)(batch, chunk, first, count);
    const taken = Number.isInteger(r) ? Math.max(0, Math.min(count, r)) : count;
    this.#counters.framesIn += taken;
    if (taken === 0) this.pause();
    return taken;
  }

  /** A CLOSE went or came (a handler may close the link while a chunk is being read). */
  #ending(): boolean {
    return this.#state === 'closing' || this.#state === 'closed';
  }

  #going(): boolean {
    return !this.#rx.paused && (this.#state === 'hello' || this.#state === 'open');
  }

  /** §4.1: the first frame must be a HELLO of a version this link speaks. */
  #opening(f: DecodedFrame): void {
    if (f.kindName === 'close') {
      this.#peerClosed(f.reason, f.reasonName, f.text);
      return;
    }
    if (f.kindName !== 'hello') {
      if (f.kindName === 'RESERVED') this.#counters.unknownKind++;
      this.#close('protocol', `the first frame is ${f.kindName === 'RESERVED' ? `kind 0x${f.kind.toString(16)}` : f.kindName}, not a HELLO`, 'protocol');
      return;
    }
    this.#peerVersion = f.version;
    if (f.version !== LINK_VERSION) {
      this.#close('version', `riodp link version ${LINK_VERSION} only; the peer speaks version ${f.version}`, 'version');
      return;
    }
    this.#clearHello();
    this.#state = 'open';
    this.#handlers.onOpen?.(f.version);
  }

  #peerClosed(reason: number, reasonName: CloseReasonName, text: string): void {
    this.#closed = { by: 'peer', reason, reasonName, text };
    this.#state = 'closing';
    this.#clearHello();
    this.#out.discard();
    this.#rx.drainUnread();
    this.#end();
  }

  /** §4.2: a length the reader cannot step over ends the link. */
  #fatal(err: WireError): void {
    if (err.code === WireErrorCode.range) this.#counters.oversize++;
    else this.#counters.malformed++;
    this.#handlers.onMalformed?.(err);
    this.#close('protocol', err.message, this.#state === 'hello' ? 'protocol' : undefined);
  }

  #end(): void {
    this.socket.end();
    this.#closeTimer ??= setTimeout(() => {
      this.socket.destroy();
    }, this.#closeTimeoutMs).unref();
  }

  #clearHello(): void {
    if (this.#helloTimer !== null) clearTimeout(this.#helloTimer);
    this.#helloTimer = null;
  }

  #ended(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#clearHello();
    if (this.#closeTimer !== null) clearTimeout(this.#closeTimer);
    this.#closeTimer = null;
    if (this.#keepalive !== null) clearInterval(this.#keepalive);
    this.#keepalive = null;
    this.#rx.drop();
    this.#out.discard();
    const closed = this.#closed ?? { by: 'peer', reason: null, reasonName: 'lost', text: this.#error?.message ?? 'the connection ended without a CLOSE' };
    this.#closed = closed;
    this.#handlers.onClose?.(closed);
  }
}
