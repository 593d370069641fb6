/** The options of a riodp link (link.ts) and their defaults (docs/net-framing.md). */
import { integerInRange, positiveInteger } from '../engine/config-checks.ts';
import { DEFAULT_MAX_FRAME_SIZE, MAX_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE } from '../wire/frame-reader.ts';
import { MAX_SENT_FRAME } from '../wire/frame.ts';
import type { FrameDecodeOptions } from '../wire/frame.ts';
import type { LinkTap } from './link-types.ts';

/** Options of a link (docs/net-framing.md). */
export interface LinkOptions {
  /** Largest frame accepted, length field included: 287 to 65537, default 1024 (§2). */
  readonly maxFrameSize?: number;
  /** Bytes encoded before a write to the socket: 287 to 1 MiB, default 64 KiB (16 KiB cost more write calls per byte: issue 17, docs/performance.md). */
  readonly sendBatchBytes?: number;
  /** Time the peer has to send its HELLO (§4.1), default 10 000 ms. */
  readonly helloTimeoutMs?: number;
  /** Time the peer has to end the connection after a CLOSE (§4.3), default 2 000 ms. */
  readonly closeTimeoutMs?: number;
  /** How packets and symbols are decoded (strict mode, VoQ format of CS48 stype2). */
  readonly decode?: FrameDecodeOptions;
  /**
   * Hand each packet's received bytes to `onPacket` (src/wire/received-bytes.ts), so that forwarding it
   * copies them instead of encoding it: a switch's forwarding path. Default false.
   */
  readonly forward?: boolean;
  /**
   * Parse received chunks into frame batches for a handler that takes runs of Type 9 frames
   * (`LinkHandlers.onFrames`, the fast lane); default true. False keeps the object path.
   */
  readonly batch?: boolean;
  /**
   * Send a status control symbol after this many ms without any frame sent (keepalive.ts,
   * Part 6 §6.5.3.2), so that the peer sees a live partner on an idle link; 0 (the default of a
   * bare link) sends none. riodp's switch and end point processes use 100.
   */
  readonly keepaliveMs?: number;
  /**
   * Sees every whole frame received and sent (a capture, docs/pcapng.md). A link with a tap keeps
   * the object path on receive (no frame batches), so that what the handlers do with each frame
   * (a drop) is known when the tap records it.
   */
  readonly tap?: LinkTap;
}

export interface ResolvedLinkOptions {
  readonly maxFrameSize: number;
  readonly sendBatchBytes: number;
  readonly helloTimeoutMs: number;
  readonly closeTimeoutMs: number;
  readonly decode: FrameDecodeOptions;
  readonly keepaliveMs: number;
}

/** The options with their defaults; a RangeError names a field out of range. */
export function linkOptions(opts: LinkOptions): ResolvedLinkOptions {
  return {
    maxFrameSize: integerInRange(opts.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE, MAX_MAX_FRAME_SIZE, 'maxFrameSize'),
    sendBatchBytes: integerInRange(opts.sendBatchBytes ?? 64 * 1024, MAX_SENT_FRAME, 1 << 20, 'sendBatchBytes'),
    helloTimeoutMs: positiveInteger(opts.helloTimeoutMs ?? 10_000, 'helloTimeoutMs'),
    closeTimeoutMs: positiveInteger(opts.closeTimeoutMs ?? 2_000, 'closeTimeoutMs'),
    decode: opts.decode ?? {},
    keepaliveMs: integerInRange(opts.keepaliveMs ?? 0, 0, 60_000, 'keepaliveMs'),
  };
}
