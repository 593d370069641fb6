import { nonNegativeInteger, oneOf, positiveInteger } from '../engine/config-checks.ts';

/**
 * Congestion detectors for the VoQ generator. §2.5: "The generation and application of the
 * congestion message defined in this specification will be highly dependent on the queuing and
 * switch design of the device, and as such, is left to the implementer." riodp offers the two
 * designs §2.5 names, both with watermark hysteresis because "If very small queuing structures
 * are used, a lot of on/off chatter can occur":
 *
 * - `output-queue`: "If the downstream (originating) device is using queues in its output stage
 *   to determine congestion, then congestion messages will have to be sent to all ports that
 *   might be sources of incoming traffic": an egress port's state is the same on every link.
 * - `input-voq`: "If the downstream device is using virtual output queues, presorting traffic by
 *   egress port at the input, then it has the ability to reflect congestion status on only those
 *   ports that are receiving traffic for the congested output": link q reports egress port p
 *   congested only when q's VoQ for p is.
 *
 * A queue becomes congested when its depth reaches `high` and stays so until it falls to `low`
 * (low < high). State is kept per VC so that linked links (§3.2) can report per VC.
 */
export type DetectorConfig =
  | { readonly kind: 'output-queue'; readonly high: number; readonly low: number }
  | { readonly kind: 'input-voq'; readonly high: number; readonly low: number };

/** One depth observation, already checked by the engine (ports, VC and depth in range). */
export type DepthObservation =
  | { readonly kind: 'queue-depth'; readonly port: number; readonly vc: number; readonly depth: number }
  | { readonly kind: 'voq-depth'; readonly input: number; readonly output: number; readonly vc: number; readonly depth: number };

/** Which reported states an observation changed: egress `port` in `vc`, on link `link` (null = every link). */
export interface DetectorChange {
  readonly port: number;
  readonly vc: number;
  readonly link: number | null;
}

/** What the generator needs of a detector; implement it to plug in another design. */
export interface CongestionDetector {
  /** The observation kind this detector consumes. */
  readonly accepts: DepthObservation['kind'];
  /** Applies an observation; returns the change, or null when no state flipped. */
  observe(o: DepthObservation): DetectorChange | null;
  /** Whether egress `port` is congested as seen by `link`, in `vc` or in any VC. */
  congested(link: number, port: number, vc: number | 'any'): boolean;
  /** JSON-serialisable state for snapshots. */
  snapshot(): unknown;
}

/** What the built-in detectors' `snapshot()` gives: the watermarks and the queues congested now. */
export type DetectorSnapshot =
  | { readonly kind: 'output-queue'; readonly high: number; readonly low: number; readonly congested: readonly { readonly port: number; readonly vc: number }[] }
  | {
    readonly kind: 'input-voq';
    readonly high: number;
    readonly low: number;
    readonly congested: readonly { readonly input: number; readonly output: number; readonly vc: number }[];
  };

/** Largest VC number (VC0–VC8, Part 6). */
export const MAX_VC = 8;

function checkWatermarks(high: unknown, low: unknown): { high: number; low: number } {
  const h = positiveInteger(high, 'detector.high');
  const l = nonNegativeInteger(low, 'detector.low');
  if (l >= h) throw new RangeError('detector.low must be less than detector.high');
  return { high: h, low: l };
}

/** Hysteresis shared by both designs: a set of congested keys. */
class Watermarks {
  readonly #congested = new Set<number>();
  constructor(readonly high: number, readonly low: number) {}

  /** Whether the key's state flipped. */
  apply(key: number, depth: number): boolean {
    const was = this.#congested.has(key);
    if (!was && depth >= this.high) this.#congested.add(key);
    else if (was && depth <= this.low) this.#congested.delete(key);
    else return false;
    return true;
  }

  has(key: number): boolean {
    return this.#congested.has(key);
  }

  keys(): number[] {
    return [...this.#congested].sort((a, b) => a - b);
  }
}

const VCS = MAX_VC + 1;

export class OutputQueueDetector implements CongestionDetector {
  readonly accepts = 'queue-depth';
  readonly #marks: Watermarks;

  constructor(high: number, low: number) {
    const w = checkWatermarks(high, low);
    this.#marks = new Watermarks(w.high, w.low);
  }

  observe(o: DepthObservation): DetectorChange | null {
    if (o.kind !== 'queue-depth') return null;
    return this.#marks.apply(o.port * VCS + o.vc, o.depth) ? { port: o.port, vc: o.vc, link: null } : null;
  }

  congested(_link: number, port: number, vc: number | 'any'): boolean {
    if (vc !== 'any') return this.#marks.has(port * VCS + vc);
    for (let v = 0; v < VCS; v++) if (this.#marks.has(port * VCS + v)) return true;
    return false;
  }

  snapshot(): DetectorSnapshot {
    return { kind: 'output-queue', high: this.#marks.high, low: this.#marks.low, congested: this.#marks.keys().map((k) => ({ port: Math.floor(k / VCS), vc: k % VCS })) };
  }
}

/** Keys are (input × 512 + output) × 9 + vc: 512 covers Part 12's 256 ports. */
const PORT_SPAN = 512;

export class InputVoqDetector implements CongestionDetector {
  readonly accepts = 'voq-depth';
  readonly #marks: Watermarks;

  constructor(high: number, low: number) {
    const w = checkWatermarks(high, low);
    this.#marks = new Watermarks(w.high, w.low);
  }

  observe(o: DepthObservation): DetectorChange | null {
    if (o.kind !== 'voq-depth') return null;
    return this.#marks.apply((o.input * PORT_SPAN + o.output) * VCS + o.vc, o.depth) ? { port: o.output, vc: o.vc, link: o.input } : null;
  }

  congested(link: number, port: number, vc: number | 'any'): boolean {
    const base = (link * PORT_SPAN + port) * VCS;
    if (vc !== 'any') return this.#marks.has(base + vc);
    for (let v = 0; v < VCS; v++) if (this.#marks.has(base + v)) return true;
    return false;
  }

  snapshot(): DetectorSnapshot {
    return {
      kind: 'input-voq',
      high: this.#marks.high,
      low: this.#marks.low,
      congested: this.#marks.keys().map((k) => ({ input: Math.floor(k / VCS / PORT_SPAN), output: Math.floor(k / VCS) % PORT_SPAN, vc: k % VCS })),
    };
  }
}

/** A detector from its configuration (or the instance given). */
export function makeDetector(d: DetectorConfig | CongestionDetector): CongestionDetector {
  if (typeof (d as Partial<CongestionDetector>).observe === 'function') return d as CongestionDetector;
  const c = d as DetectorConfig;
  const kind = oneOf((c as { kind?: unknown }).kind, ['output-queue', 'input-voq'], 'detector.kind', 'or');
  return kind === 'output-queue' ? new OutputQueueDetector(c.high, c.low) : new InputVoqDetector(c.high, c.low);
}
