import { VoqGenerator } from '../../voq/generator.ts';
import type { VoqGeneratorOutput } from '../../voq/generator-types.ts';
import { VoqReceiver } from '../../voq/receiver.ts';
import type { VoqReceiverOutput, VoqRoute } from '../../voq/receiver-types.ts';
import { Stype0 } from '../../wire/symbol-types.ts';
import type { ControlSymbol64 } from '../../wire/symbol64.ts';
import type { ResolvedVoqConfig, SwitchRoute } from './switch-config.ts';
import type { SimPacket, SimSymbol } from './types.ts';

/**
 * VoQ backpressure inside a 'cioq-voq-backpressure' switch (VoQ Backpressure Chapters 2–4): the
 * upstream role stages each output's traffic with `VoqReceiver` engines, the downstream role
 * reports its output queues' congestion upstream with a `VoqGenerator`.
 */

/** Traffic classes: prio × 2 + CRF, served 7 (prio 3, CRF 1) down to 0. */
export const CLASSES = 8;

export function classOf(p: SimPacket): number {
  return p.prio * 2 + p.crf;
}

/**
 * The staging queues of every output (§2.3 "the queue must be shut down when any of those ports
 * are congested"). One `VoqReceiver` per traffic class, each with every output as a local port:
 * the engine serves the oldest eligible head of a port whatever its priority (§4.3 c), and the
 * switch's outputs serve priority 3 … 0 and CRF 1 before 0 (Part 6 §5 priorities), so each class
 * has its own staging (§2.4 lets staging sit per VC; per class is the same idea one level
 * finer). Every received VoQ message goes to all of them: backpressure names downstream ports, not
 * classes.
 */
export class VoqStaging {
  readonly #rx: VoqReceiver[] = [];
  /** Staged packets per (output, class), [o × CLASSES + c]. */
  readonly #staged: Int32Array;
  /** Staged packets per (output, staging queue), all classes, [o × queues + q]. */
  readonly #perQueue: Int32Array;
  readonly #packets = new Map<number, SimPacket>();
  readonly #form: 'cs48' | 'cs64';
  readonly #routes: ReadonlyMap<number, Required<SwitchRoute>>;
  readonly #queues: number;

  constructor(ports: number, routes: ReadonlyMap<number, Required<SwitchRoute>>, cfg: ResolvedVoqConfig) {
    const voqRoutes: VoqRoute[] = [...routes].map(([destID, r]) => ({ destID, localPort: r.port, downstreamPort: r.next }));
    const portConfigs = Array.from({ length: ports }, () => ({ queues: cfg.stagingQueues }));
    for (let c = 0; c < CLASSES; c++) this.#rx.push(new VoqReceiver({ format: cfg.format, symbol: cfg.symbol, ports: portConfigs, routes: voqRoutes }));
    this.#staged = new Int32Array(ports * CLASSES);
    this.#form = cfg.symbol;
    this.#routes = routes;
    this.#queues = cfg.stagingQueues;
    this.#perQueue = new Int32Array(ports * cfg.stagingQueues);
  }

  /** The staging queue a packet goes to (§2.3 with the receiver's default decoder: downstream port mod queues). */
  queueOf(p: SimPacket): number {
    return (this.#routes.get(p.dst)?.next ?? 0) % this.#queues;
  }

  /** Packets staged at output o in the queue `p` would join. */
  depth(o: number, p: SimPacket): number {
    return this.#perQueue[o * this.#queues + this.queueOf(p)] as number;
  }

  /** Stages a packet for output `o`; false when the forward lookup has no entry for its destination. */
  stage(o: number, p: SimPacket, now: number): boolean {
    const c = classOf(p);
    const out = (this.#rx[c] as VoqReceiver).handle({ kind: 'packet', destID: p.dst, packetId: p.id }, now);
    if (out.length > 0) return false;
    this.#packets.set(p.id, p);
    const k = o * CLASSES + c;
    this.#staged[k] = (this.#staged[k] as number) + 1;
    const q = o * this.#queues + this.queueOf(p);
    this.#perQueue[q] = (this.#perQueue[q] as number) + 1;
    return true;
  }

  /** The packet of class `c` output `o` may send now (§4.3 b: blocked traffic "shall not be committed"), or null. */
  take(o: number, c: number, now: number): SimPacket | null {
    const k = o * CLASSES + c;
    if (this.#staged[k] === 0) return null;
    for (const r of (this.#rx[c] as VoqReceiver).handle({ kind: 'transmit-opportunity', port: o }, now)) {
      if (r.kind !== 'transmit') continue;
      const p = this.#packets.get(r.packetId as number) as SimPacket;
      this.#packets.delete(p.id);
      this.#staged[k] = (this.#staged[k] as number) - 1;
      const q = o * this.#queues + r.queue;
      this.#perQueue[q] = (this.#perQueue[q] as number) - 1;
      return p;
    }
    return null;
  }

  /**
   * A VoQ symbol arrived on output `o`'s link. Returns how many staging queues of class 0's
   * receiver blocked and unblocked (every class changes alike).
   */
  symbol(o: number, s: Extract<SimSymbol, { kind: 'voq' }>, now: number): { blocked: number; unblocked: number; ignored: boolean } {
    let blocked = 0;
    let unblocked = 0;
    let ignored = false;
    for (let c = 0; c < CLASSES; c++) {
      let out: VoqReceiverOutput[];
      if (this.#form === 'cs64') out = (this.#rx[c] as VoqReceiver).handle({ kind: 'cs64', port: o, symbol: s.cs64 as ControlSymbol64 }, now);
      else if (s.vc === undefined) out = (this.#rx[c] as VoqReceiver).handle({ kind: 'stype2', port: o, stype2: s.stype2 ?? 0 }, now);
      else out = (this.#rx[c] as VoqReceiver).handle({ kind: 'stype2', port: o, stype2: s.stype2 ?? 0, vc: s.vc }, now);
      if (c !== 0) continue;
      for (const r of out) {
        if (r.kind === 'blocked') blocked++;
        else if (r.kind === 'unblocked') unblocked++;
        else if (r.kind === 'event') ignored = true;
      }
    }
    return { blocked, unblocked, ignored };
  }

  staged(o: number): number {
    let n = 0;
    for (let c = 0; c < CLASSES; c++) n += this.#staged[o * CLASSES + c] as number;
    return n;
  }

  isBlocked(o: number, queue: number): boolean {
    return (this.#rx[0] as VoqReceiver).isBlocked(o, queue);
  }

  congestedPorts(o: number): number[] {
    return (this.#rx[0] as VoqReceiver).congestedPorts(o);
  }

  snapshot(): Record<string, unknown> {
    return { classes: this.#rx.map((r) => r.snapshot()) };
  }
}

/** What the generator side needs of its switch. */
export interface VoqHost {
  /** Puts a VoQ symbol on the link of port `port` towards the upstream device. */
  sendVoqSymbol(port: number, s: SimSymbol, now: number): void;
  /** Keeps the generator's one timer: `at` null cancels. */
  setVoqTimer(at: number | null, now: number): void;
  /** A generator event (unknown port, ignored observation …), counted by name. */
  voqEvent(name: string): void;
}

/**
 * The downstream role (§2.5 "If the downstream (originating) device is using queues in its output
 * stage to determine congestion, then congestion messages will have to be sent to all ports that
 * might be sources of incoming traffic"): an output-queue detector on every output, messages on
 * every link with generation enabled. Each message is sent as its own control symbol as soon as
 * the generator asks for one (`symbol-wanted`), with a Status stype0 carrier (§4.2 b: any carrier
 * will do without VC linking).
 */
export class VoqSignals {
  readonly generator: VoqGenerator;
  readonly #host: VoqHost;
  readonly #form: 'cs48' | 'cs64';
  readonly #depth: Int32Array;

  constructor(ports: number, cfg: ResolvedVoqConfig, host: VoqHost) {
    const gen = new Set(cfg.generate);
    this.generator = new VoqGenerator({
      format: cfg.format,
      symbol: cfg.symbol,
      ports,
      refreshPeriod: cfg.refreshPeriod,
      detector: { kind: 'output-queue', high: cfg.high, low: cfg.low },
      portSettings: Array.from({ length: ports }, (_, p) => ({ generation: gen.has(p), participation: true })),
    });
    this.#host = host;
    this.#form = cfg.symbol;
    this.#depth = new Int32Array(ports).fill(-1);
  }

  /** Output `o`'s queue holds `depth` packets. */
  depth(o: number, depth: number, now: number): void {
    if (this.#depth[o] === depth) return;
    this.#depth[o] = depth;
    this.#apply(this.generator.handle({ kind: 'queue-depth', port: o, depth }, now), now);
  }

  timer(now: number): void {
    this.#apply(this.generator.handle({ kind: 'timer', name: 'refresh' }, now), now);
  }

  #apply(outs: VoqGeneratorOutput[], now: number): void {
    for (const o of outs) {
      switch (o.kind) {
        case 'symbol-wanted':
          this.#apply(this.generator.handle(this.#form === 'cs64' ? { kind: 'next-cs64', port: o.port } : { kind: 'next-stype2', port: o.port, stype0: Stype0.status }, now), now);
          break;
        case 'stype2':
          // A group whose change was undone before its symbol went out gives a NOP: nothing to send.
          if (o.message !== null) this.#host.sendVoqSymbol(o.port, { kind: 'voq', stype2: o.stype2 }, now);
          break;
        case 'cs64':
          if (o.symbol !== null) this.#host.sendVoqSymbol(o.port, { kind: 'voq', cs64: o.symbol }, now);
          break;
        case 'timer':
          this.#host.setVoqTimer(o.at, now);
          break;
        case 'event':
          this.#host.voqEvent(o.name);
          break;
      }
    }
  }
}
