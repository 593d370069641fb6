import { VoqReceiver } from '../../voq/receiver.ts';
import type { VoqReceiverOutput, VoqReceiverSnapshot, VoqRoute } from '../../voq/receiver-types.ts';
import type { ControlSymbol64 } from '../../wire/symbol64.ts';
import type { VoqSymbolForm } from '../../wire/voq-cs64.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import type { Counters } from '../../engine/contract.ts';
import type { SwitchRoute } from './config-types.ts';
import { CLASSES, classOf } from './packet.ts';
import type { SwitchPacket } from './packet.ts';
import { SWITCH_PROBE_COUNTS } from './types.ts';
import type { SwitchCounter, SwitchProbe } from './types.ts';

/** A VoQ backpressure message received from downstream: the CS48 stype2 field (and its VC), or a CS64 VoQ symbol. */
export interface VoqMessageIn {
  readonly stype2?: number;
  readonly vc?: number;
  readonly cs64?: unknown;
}

/**
 * The staging queues of every output of a 'cioq-voq-backpressure' switch, the upstream role (VoQ
 * Backpressure §2.3 "the queue must be shut down when any of those ports are congested"). One
 * `VoqReceiver` per traffic class, each with every output as a local port: the engine serves the
 * oldest eligible head of a port whatever its priority (§4.3 c), and the switch's outputs serve
 * priority 3 … 0 and CRF 1 before 0 (Part 6 §5 priorities), so each class has its own staging
 * (§2.4 lets staging sit per VC; per class is the same idea one level finer). Every received VoQ
 * message goes to all of them: backpressure names downstream ports, not classes.
 */
export class VoqStaging<P extends SwitchPacket> {
  readonly #rx: VoqReceiver[] = [];
  /** Staged packets per (output, class), [o × CLASSES + c]. */
  readonly #staged: Int32Array;
  /** Staged packets per (output, staging queue), all classes, [o × queues + q]. */
  readonly #perQueue: Int32Array;
  /** The engines hold packet handles; the packets wait here. */
  readonly #packets = new Map<number, P>();
  #nextId = 0;
  readonly #form: VoqSymbolForm;
  readonly #routes: ReadonlyMap<number, Required<SwitchRoute>>;
  readonly #queues: number;

  constructor(ports: number, routes: ReadonlyMap<number, Required<SwitchRoute>>, cfg: { readonly format: VoqFormat; readonly symbol: VoqSymbolForm; readonly stagingQueues: number }) {
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
  queueOf(p: P): number {
    return (this.#routes.get(p.dst)?.next ?? 0) % this.#queues;
  }

  /** Packets staged at output o in the queue `p` would join. */
  depth(o: number, p: P): number {
    return this.#perQueue[o * this.#queues + this.queueOf(p)] as number;
  }

  /** Stages a packet for output `o`; false when the forward lookup has no entry for its destination. */
  stage(o: number, p: P, now: number): boolean {
    const c = classOf(p);
    const id = this.#nextId++;
    const out = (this.#rx[c] as VoqReceiver).handle({ kind: 'packet', destID: p.dst, packetId: id }, now);
    if (out.length > 0) return false;
    this.#packets.set(id, p);
    const k = o * CLASSES + c;
    this.#staged[k] = (this.#staged[k] as number) + 1;
    const q = o * this.#queues + this.queueOf(p);
    this.#perQueue[q] = (this.#perQueue[q] as number) + 1;
    return true;
  }

  /** The packet of class `c` output `o` may send now (§4.3 b: blocked traffic "shall not be committed"), or null. */
  take(o: number, c: number, now: number): P | null {
    const k = o * CLASSES + c;
    if (this.#staged[k] === 0) return null;
    for (const r of (this.#rx[c] as VoqReceiver).handle({ kind: 'transmit-opportunity', port: o }, now)) {
      if (r.kind !== 'transmit') continue;
      const id = r.packetId as number;
      const p = this.#packets.get(id) as P;
      this.#packets.delete(id);
      this.#staged[k] = (this.#staged[k] as number) - 1;
      const q = o * this.#queues + r.queue;
      this.#perQueue[q] = (this.#perQueue[q] as number) - 1;
      return p;
    }
    return null;
  }

  /**
   * A VoQ message arrived on output `o`'s link. Returns how many staging queues of class 0's
   * receiver blocked and unblocked (every class changes alike), and whether it was ignored.
   */
  symbol(o: number, s: VoqMessageIn, now: number): { blocked: number; unblocked: number; ignored: boolean } {
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

  snapshot(): { readonly classes: readonly VoqReceiverSnapshot[] } {
    return { classes: this.#rx.map((r) => r.snapshot()) };
  }
}

/**
 * A VoQ backpressure message received on output o's link, counted: honoured by the staging
 * queues of a 'cioq-voq-backpressure' switch, ignored by the others (VoQ §4.1 c "Devices may
 * support only the generation of backpressure messages without the ability to honor messages").
 * Returns whether a staging queue restarted (the output may send again).
 */
export function receiveVoq<P extends SwitchPacket>(
  staging: VoqStaging<P> | null, o: number, voq: VoqMessageIn, now: number, counters: Counters<SwitchCounter>, probe: SwitchProbe,
): boolean {
  counters.voqSymbolsReceived++;
  probe.count(SWITCH_PROBE_COUNTS.voqSymbolsReceived);
  if (staging === null) {
    counters.voqIgnored++;
    return false;
  }
  const r = staging.symbol(o, voq, now);
  if (r.ignored) counters.voqIgnored++;
  counters.voqBlocked += r.blocked;
  counters.voqUnblocked += r.unblocked;
  if (r.blocked > 0) probe.count(SWITCH_PROBE_COUNTS.voqBlocked, r.blocked);
  return r.unblocked > 0;
}
