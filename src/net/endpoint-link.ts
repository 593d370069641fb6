/**
 * The end point process's link to its switch port (docs/fabric-api.md §2): connecting, retrying
 * with backoff (endpoint-retry.ts), and what the clock learns from the link (peer-clock.ts): the
 * link is watched for silence while it is open, read (not paused by the end point) and kept alive
 * by the switch's status symbols. Packets, drains and ends go to the process.
 */
import type { FrameBatch } from '../wire/frame-batch.ts';
import type { SerialPacket } from '../wire/packet.ts';
import type { WireError } from '../wire/errors.ts';
import type { LinkStatus } from './api-types.ts';
import { connect } from './connect.ts';
import type { ConnectOptions } from './connect.ts';
import type { RetrySettings } from './endpoint-config.ts';
import { nextRetryDelay } from './endpoint-retry.ts';
import type { Link } from './link.ts';
import type { PeerClock } from './peer-clock.ts';

export interface SwitchLinkHost {
  /** The link opened; the host may close it at once (an end point closing). */
  up(link: Link): void;
  down(by: string, reason: string, text: string): void;
  packet(p: SerialPacket): void;
  /**
   * The fast lane (docs/fast-lane.md §8): a run of good Type 9 frames instead of one `packet`
   * each (LinkHandlers.onFrames: returns how many were taken, fewer only with the link paused).
   * Without it, or with `batch: false` in the link's options, every packet comes to `packet`.
   */
  frames?(batch: FrameBatch, chunk: Uint8Array, first: number, count: number): number;
  symbol(): void;
  drain(): void;
  malformed(e: WireError): void;
  /** A connection attempt failed: try again `ms` from now. */
  retry(ms: number, error: Error): void;
}

export class SwitchLink {
  readonly #options: ConnectOptions;
  readonly #retry: RetrySettings;
  readonly #clock: PeerClock;
  readonly #host: SwitchLinkHost;
  #link: Link | null = null;
  #state: LinkStatus['state'] = 'connecting';
  #connects = 0;
  #retryMs: number | null = null;
  #lastError: Error | null = null;
  /** The switch keeps this link alive with status symbols: its silence then stops the clock. */
  #partnerKeepalive = false;

  constructor(options: ConnectOptions, retry: RetrySettings, clock: PeerClock, host: SwitchLinkHost) {
    this.#options = options;
    this.#retry = retry;
    this.#clock = clock;
    this.#host = host;
  }

  get link(): Link | null {
    return this.#link;
  }

  get lastError(): Error | null {
    return this.#lastError;
  }

  get address(): string {
    return `${this.#options.host ?? '127.0.0.1'}:${this.#options.port}`;
  }

  status(): LinkStatus {
    return { state: this.#state, switch: this.address, connects: this.#connects };
  }

  attempt(): void {
    this.#state = 'connecting';
    const frames = this.#host.frames?.bind(this.#host);
    connect(this.#options, (l) => ({
      ...(frames === undefined ? {} : {
        onFrames: (batch: FrameBatch, chunk: Uint8Array, first: number, count: number): number => {
          // A link no longer the process's: its frames are dropped, as its packets are.
          if (this.#link !== l) return count;
          this.#clock.heard();
          return frames(batch, chunk, first, count);
        },
      }),
      onOpen: () => {
        this.#opened(l);
      },
      onPacket: (p) => {
        if (this.#link !== l) return;
        this.#clock.heard();
        this.#host.packet(p);
      },
      onSymbol: () => {
        if (this.#link !== l) return;
        this.#clock.heard();
        this.#host.symbol();
      },
      onStatus: () => {
        if (this.#link !== l) return;
        if (!this.#partnerKeepalive) {
          this.#partnerKeepalive = true;
          this.#watch();
        }
        this.#clock.heard();
      },
      onDrain: () => {
        if (this.#link === l) this.#host.drain();
      },
      onMalformed: (e) => {
        this.#host.malformed(e);
      },
      onClose: (c) => {
        if (this.#link !== l) return;
        this.#link = null;
        this.#watch();
        this.#host.down(c.by, c.reasonName, c.text);
      },
    })).catch((e: unknown) => {
      this.#lastError = e instanceof Error ? e : new Error(String(e));
      this.#retryMs = nextRetryDelay(this.#retryMs, this.#retry);
      this.#host.retry(this.#retryMs, this.#lastError);
    });
  }

  /** After the link went down: the delay before the next attempt. */
  nextRetryMs(): number {
    this.#retryMs = nextRetryDelay(this.#retryMs, this.#retry);
    return this.#retryMs;
  }

  /** Whether the process is closing (no more attempts); 'closed' once the link is gone. */
  ended(closed: boolean): void {
    this.#state = closed ? 'closed' : 'connecting';
  }

  /** The end point holds its receive (a stream at `api.rxLimit`): the link is paused and not watched. */
  hold(on: boolean): void {
    if (on) this.#link?.pause();
    else this.#link?.resume();
    this.#watch();
  }

  #opened(l: Link): void {
    this.#link = l;
    this.#partnerKeepalive = false;
    this.#state = 'up';
    this.#connects++;
    this.#retryMs = null;
    this.#host.up(l);
  }

  #watch(): void {
    const l = this.#link;
    this.#clock.watch(l !== null && l.state === 'open' && !l.paused && this.#partnerKeepalive);
  }
}
