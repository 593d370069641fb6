import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import type { ControlSymbol } from '../wire/symbol.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import { vcOfVcid } from '../wire/symbol-parameters.ts';
import { Stype0 } from '../wire/symbol-types.ts';
import { STYPE2_BITS, VoqCmdName, decodeStype2 } from '../wire/voq-stype2.ts';
import { resolveConfig, reverseMapQueue } from './receiver-config.ts';
import { readCs64 } from './receiver-cs64.ts';
import type { ResolvedPortConfig, ResolvedVoqReceiverConfig } from './receiver-config.ts';
import type {
  QueueChangeCause, VoqReceiverConfig, VoqReceiverCounterName, VoqReceiverEventName, VoqReceiverInput, VoqReceiverOutput, VoqReceiverSnapshot,
  VoqRoute,
} from './receiver-types.ts';
import { PortStaging } from './staging.ts';
import type { QueueChange, StagedPacket } from './staging.ts';

const COUNTER_NAMES: readonly VoqReceiverCounterName[] = [
  'backpressure', 'nop', 'reservedCmd', 'notExtended', 'invalidStype2', 'unknownPort', 'receptionUnsupported',
  'unlinkedBackpressure', 'unknownVc', 'noRoute', 'staged', 'transmitted', 'idle', 'linkDownOpportunity',
  'controlRejected', 'blocked', 'unblocked', 'linkUpClears', 'reservedVcInd', 'symbolFormMismatch', 'invalidSymbol',
];

/** A VC_Status symbol whose VCID names no active VC (none are active beyond VC0). */
const NO_VC = -1;

interface PortState {
  readonly config: ResolvedPortConfig;
  readonly staging: PortStaging;
  linkUp: boolean;
  enableVcLinking: boolean;
  rxPortGroupSize: number;
}

/**
 * The upstream device of VoQ backpressure (voq-backpressure.txt §2.2–§2.4, §3, §4.3; Part 12
 * §3.1, §3.3): stages traffic per local egress port, honours received backpressure symbols and
 * answers transmit opportunities with a packet whose downstream port is not congested.
 *
 * Outputs of one input: `blocked`/`unblocked` changes (by VC, then queue), then at most one
 * `transmit` or event.
 *
 * @example
 * ```ts
 * import { VoqReceiver } from 'riodp/engines';
 *
 * const r = new VoqReceiver({ ports: [{ queues: 4 }], routes: [{ destID: 5, localPort: 0, downstreamPort: 3 }] });
 * r.handle({ kind: 'packet', destID: 5, packetId: 'p1' }, 0);        // staged in queue 3 (decoder reverse map)
 * r.handle({ kind: 'transmit-opportunity', port: 0 }, 1);          // → { kind: 'transmit', packetId: 'p1', … }
 * ```
 */
export class VoqReceiver implements ObservableEngine<VoqReceiverInput, VoqReceiverOutput, VoqReceiverSnapshot, VoqReceiverCounterName> {
  readonly #config: ResolvedVoqReceiverConfig;
  readonly #ports: PortState[];
  readonly #routes = new Map<number, VoqRoute>();
  /** VC0 and the active optional VCs (Part 6 Table 3-12), ascending; a per-VC lane is an index here. */
  readonly #vcList: readonly number[];
  readonly #counters: Counters<VoqReceiverCounterName> = zeroCounters(COUNTER_NAMES);
  #seq = 0;

  constructor(config: VoqReceiverConfig) {
    this.#config = resolveConfig(config);
    const vcs = this.#config.vcs;
    this.#vcList = vcs === 0 ? [0] : [0, ...new Set(Array.from({ length: 8 }, (_, vcid) => vcOfVcid(vcid, vcs)))];
    this.#ports = this.#config.ports.map((p) => ({
      config: p,
      staging: new PortStaging(p.perVcStaging ? this.#vcList.length : 1, p.queues, (d) => reverseMapQueue(p.reverseMap, p.queues, d)),
      linkUp: true,
      enableVcLinking: p.enableVcLinking,
      rxPortGroupSize: p.rxPortGroupSize,
    }));
    for (const r of this.#config.routes) this.#routes.set(r.destID, r);
  }

  /** The receiver arms no timers: `now` only stamps staged packets (snapshot `stagedAt`). */
  handle(input: VoqReceiverInput, now: Time): VoqReceiverOutput[] {
    const out: VoqReceiverOutput[] = [];
    switch (input.kind) {
      case 'symbol':
        if (this.#symbolForm('cs48', input.port, out)) this.#symbol(input.port, input.symbol, out);
        break;
      case 'stype2':
        if (this.#symbolForm('cs48', input.port, out)) this.#stype2(input.port, input.stype2, input.vc, out);
        break;
      case 'cs64':
        if (this.#symbolForm('cs64', input.port, out)) this.#cs64(input.port, input.symbol, out);
        break;
      case 'packet':
        this.#packet(input.destID, input.vc ?? 0, input.packetId, now, out);
        break;
      case 'transmit-opportunity':
        this.#opportunity(input.port, out);
        break;
      case 'link-down':
        this.#link(input.port, false, out);
        break;
      case 'link-up':
        this.#link(input.port, true, out);
        break;
      case 'control':
        this.#control(input, out);
        break;
    }
    return out;
  }

  /** The forward lookup of a destination ID (§2.2), or undefined. */
  route(destID: number): VoqRoute | undefined {
    return this.#routes.get(destID);
  }

  /** Whether a staging queue is shut down; `vc` selects the per-VC set (ignored without per-VC staging). */
  isBlocked(port: number, queue: number, vc = 0): boolean {
    const p = this.#ports[port];
    return p !== undefined && p.staging.isBlocked(this.#lane(p, vc) ?? -1, queue);
  }

  /** Downstream ports recorded as congested for a local port (for `vc` with per-VC staging), ascending. */
  congestedPorts(port: number, vc = 0): number[] {
    const p = this.#ports[port];
    return p === undefined ? [] : p.staging.congestedPorts(this.#lane(p, vc) ?? -1);
  }

  /** Packet IDs staged in a queue, oldest first. */
  staged(port: number, queue: number, vc = 0): (number | string)[] {
    const p = this.#ports[port];
    return p === undefined ? [] : p.staging.contents(this.#lane(p, vc) ?? -1, queue).map((s) => s.packetId);
  }

  /** Packets staged on a local port, all queues. */
  stagedCount(port: number): number {
    return this.#ports[port]?.staging.size ?? 0;
  }

  /** Whether the local port's link is up (a `link-up` input, and no `link-down` since). */
  isLinkUp(port: number): boolean {
    return this.#ports[port]?.linkUp ?? false;
  }

  counters(): Counters<VoqReceiverCounterName> {
    return { ...this.#counters };
  }

  snapshot(): VoqReceiverSnapshot {
    const c = this.#config;
    return {
      format: c.format,
      symbol: c.symbol,
      vcs: c.vcs,
      clearOnLinkUp: c.clearOnLinkUp,
      routes: [...c.routes].sort((a, b) => a.destID - b.destID),
      ports: this.#ports.map((p, port) => ({
        port,
        queues: p.config.queues,
        reverseMap: p.config.reverseMap,
        reception: p.config.reception,
        perVcStaging: p.config.perVcStaging,
        enableVcLinking: p.enableVcLinking,
        rxPortGroupSize: p.rxPortGroupSize,
        linkUp: p.linkUp,
        lanes: Array.from({ length: p.staging.lanes }, (_, lane) => ({
          vc: p.config.perVcStaging ? (this.#vcList[lane] as number) : null,
          congested: p.staging.congestedPorts(lane),
          queues: Array.from({ length: p.config.queues }, (_, queue) => ({
            queue,
            blocked: p.staging.isBlocked(lane, queue),
            packets: p.staging.contents(lane, queue).map((s) => ({ packetId: s.packetId, destID: s.destID, vc: s.vc, downstreamPort: s.downstreamPort, stagedAt: s.stagedAt })),
          })),
        })),
      })),
      stats: this.counters(),
    };
  }

  #symbol(port: number, s: ControlSymbol, out: VoqReceiverOutput[]): void {
    if (s.link !== 'cs48' || s.stype2 === undefined) {
      // §4.1 d "devices using this method must have the link initialize with the extended control symbol active".
      this.#counters.notExtended++;
      this.#event(out, 'not-extended-symbol', port);
      return;
    }
    // §3.2 "the VCID in the VC_Status symbol is used to identify the VC ... For VC0, the Status Symbol is used."
    let vc: number | undefined;
    if (s.stype0 === Stype0.status) vc = 0;
    else if (s.stype0 === Stype0.vcStatus) vc = this.#config.vcs === 0 ? NO_VC : vcOfVcid(s.parameter0 & 7, this.#config.vcs);
    this.#stype2(port, s.stype2, vc, out);
  }

  #stype2(port: number, stype2: number, vc: number | undefined, out: VoqReceiverOutput[]): void {
    const p = this.#port(port, out);
    if (p === undefined) return;
    if (!Number.isInteger(stype2) || stype2 < 0 || stype2 >= 2 ** STYPE2_BITS) {
      this.#counters.invalidStype2++;
      this.#event(out, 'invalid-stype2', port, undefined, String(stype2));
      return;
    }
    const m = decodeStype2(stype2, { voqFormat: this.#config.format, part12GroupSize: p.rxPortGroupSize });
    if (m.cmdName === VoqCmdName.nop) {
      this.#counters.nop++;
      this.#event(out, 'nop', port);
      return;
    }
    if (m.cmdName === VoqCmdName.reserved) {
      this.#counters.reservedCmd++;
      this.#event(out, 'reserved-cmd', port, undefined, `cmd ${m.cmd}`);
      return;
    }
    if (!p.config.reception) {
      // §4.1 c "Devices may support only the generation of backpressure messages without the ability to honor messages".
      this.#counters.receptionUnsupported++;
      this.#event(out, 'reception-unsupported', port);
      return;
    }
    this.#apply(p, port, vc, m.portGroup, m.format === 'seed' ? 6 : 13 - m.portGroupSize, m.portStatus, out);
  }

  /** Part 12 §3.2 (receiver-cs64.ts); a reserved VC_IND is ignored "without error". */
  #cs64(port: number, s: ControlSymbol64, out: VoqReceiverOutput[]): void {
    const p = this.#port(port, out);
    if (p === undefined) return;
    const r = readCs64(s, p.rxPortGroupSize, this.#config.vcs, NO_VC);
    if (r.kind === 'invalid') {
      this.#counters.invalidSymbol++;
      this.#event(out, 'invalid-symbol', port, undefined, 'not a Control Symbol 64');
    } else if (r.kind === 'no-message') {
      this.#counters.nop++;
      this.#event(out, 'nop', port, undefined, `stype0 ${r.stype0}`);
    } else if (r.kind === 'reserved-vc-ind') {
      this.#counters.reservedVcInd++;
      this.#event(out, 'reserved-vc-ind', port, undefined, `VC_IND 0b${r.vcInd.toString(2)}`);
    } else if (!p.config.reception) {
      this.#counters.receptionUnsupported++;
      this.#event(out, 'reception-unsupported', port);
    } else {
      this.#apply(p, port, r.vc, r.group, r.perGroup, r.status, out);
    }
  }

  /** Applies the status of one port group to the lanes the message acts on. */
  #apply(p: PortState, port: number, vc: number | 'all' | undefined, group: number, perGroup: number, status: number, out: VoqReceiverOutput[]): void {
    const lanes = this.#messageLanes(p, port, vc, out);
    if (lanes === undefined) return;
    this.#counters.backpressure++;
    const base = group * perGroup;
    const changes: QueueChange[] = [];
    // The message carries the status of every port of its group: a 0 bit clears congestion.
    for (const lane of lanes) {
      for (let offset = 0; offset < perGroup; offset++) {
        const change = p.staging.setPort(lane, base + offset, ((status >>> offset) & 1) === 1);
        if (change !== undefined) changes.push(change);
      }
    }
    changes.sort((a, b) => a.lane - b.lane || a.queue - b.queue);
    this.#report(p, port, changes, 'backpressure', out);
  }

  /**
   * The lanes a message acts on. Without linking, §3.2 "the VoQ backpressure symbol is not
   * associated with any particular VC" and "A device with queuing within VCs shall flow control
   * corresponding port queues in all VCs when linking is disabled"; with it, "the upstream device
   * may flow control just the queue within the corresponding VC". A CS64 whose VC_IND says "All
   * VCs" (`'all'`) acts on every VC even under linking, as it names them all (Part 12 §3.3).
   */
  #messageLanes(p: PortState, port: number, vc: number | 'all' | undefined, out: VoqReceiverOutput[]): number[] | undefined {
    if (!p.enableVcLinking || vc === 'all') return Array.from({ length: p.staging.lanes }, (_, i) => i);
    if (vc === undefined) {
      // §4.2 c "The backpressure symbol shall only be included with a VC_status or Status control symbol" when linked.
      this.#counters.unlinkedBackpressure++;
      this.#event(out, 'unlinked-backpressure', port);
      return undefined;
    }
    const lane = this.#lane(p, vc);
    if (lane === undefined) {
      this.#counters.unknownVc++;
      this.#event(out, 'unknown-vc', port, undefined, `VC ${vc === NO_VC ? 'none' : vc}`);
      return undefined;
    }
    return [lane];
  }

  #packet(destID: number, vc: number, packetId: number | string, now: Time, out: VoqReceiverOutput[]): void {
    // §4.3 a "Devices shall have a mechanism to associate traffic with the downstream device's egress port."
    const r = this.#routes.get(destID);
    if (r === undefined) {
      this.#counters.noRoute++;
      out.push({ kind: 'event', name: 'no-route', packetId, detail: `destID ${String(destID)}` });
      return;
    }
    const p = this.#ports[r.localPort] as PortState;
    const lane = this.#lane(p, vc);
    if (lane === undefined) {
      this.#counters.unknownVc++;
      out.push({ kind: 'event', name: 'unknown-vc', port: r.localPort, packetId, detail: `VC ${String(vc)}` });
      return;
    }
    // Routes are checked at construction to have a queue (§2.3 forward and reverse maps agree).
    const queue = p.staging.queueOf(r.downstreamPort) as number;
    const packet: StagedPacket = { packetId, destID, vc, downstreamPort: r.downstreamPort, seq: this.#seq++, stagedAt: now };
    p.staging.enqueue(lane, queue, packet);
    this.#counters.staged++;
  }

  #opportunity(port: number, out: VoqReceiverOutput[]): void {
    const p = this.#port(port, out);
    if (p === undefined) return;
    if (!p.linkUp) {
      this.#counters.linkDownOpportunity++;
      this.#event(out, 'link-down', port);
      return;
    }
    const taken = p.staging.takeEligible();
    if (taken === undefined) {
      this.#counters.idle++;
      this.#event(out, 'idle', port, undefined, `${p.staging.size} staged`);
      return;
    }
    const s = taken.packet;
    this.#counters.transmitted++;
    out.push({ kind: 'transmit', port, packetId: s.packetId, destID: s.destID, vc: s.vc, queue: taken.queue, downstreamPort: s.downstreamPort });
  }

  #link(port: number, up: boolean, out: VoqReceiverOutput[]): void {
    const p = this.#port(port, out);
    if (p === undefined) return;
    const wasUp = p.linkUp;
    p.linkUp = up;
    // §4.2 g "The backpressure symbol may be generated after link recovery to avoid orphaned congestion states".
    if (up && !wasUp && this.#config.clearOnLinkUp) {
      const changes = p.staging.clearCongestion();
      this.#counters.linkUpClears++;
      this.#report(p, port, changes, 'link-up', out);
    }
  }

  #control(input: Extract<VoqReceiverInput, { kind: 'control' }>, out: VoqReceiverOutput[]): void {
    const p = this.#port(input.port, out);
    if (p === undefined) return;
    const problem = this.#controlProblem(p, input.enableVcLinking, input.rxPortGroupSize);
    if (problem !== undefined) {
      this.#counters.controlRejected++;
      this.#event(out, 'control-rejected', input.port, undefined, problem);
      return;
    }
    // Recorded congestion stays per VC: without linking every message writes all VCs alike, so
    // switching linking on or off needs no conversion (§3.2).
    if (input.enableVcLinking !== undefined) p.enableVcLinking = input.enableVcLinking;
    if (input.rxPortGroupSize !== undefined) p.rxPortGroupSize = input.rxPortGroupSize;
  }

  #controlProblem(p: PortState, linking: unknown, size: unknown): string | undefined {
    if (linking !== undefined && typeof linking !== 'boolean') return 'enableVcLinking must be a boolean';
    if (linking === true && !p.config.perVcStaging) return 'enableVcLinking needs per-VC staging (§3.2)';
    if (size === undefined) return undefined;
    if (this.#config.format === 'seed') return 'rxPortGroupSize exists only in the part12-rev4.1 format';
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 6) return 'rxPortGroupSize must be an integer from 0 to 6 (0x7 is reserved)';
    return undefined;
  }

  /** Whether an input's symbol form is the configured one; a mismatch is counted and reported. */
  #symbolForm(form: 'cs48' | 'cs64', port: number, out: VoqReceiverOutput[]): boolean {
    if (this.#config.symbol === form) return true;
    this.#counters.symbolFormMismatch++;
    this.#event(out, 'symbol-form-mismatch', port, undefined, `a ${form.toUpperCase()} input to a ${this.#config.symbol.toUpperCase()} receiver`);
    return false;
  }

  #report(p: PortState, port: number, changes: readonly QueueChange[], cause: QueueChangeCause, out: VoqReceiverOutput[]): void {
    for (const c of changes) {
      if (c.blocked) this.#counters.blocked++;
      else this.#counters.unblocked++;
      const vc = p.config.perVcStaging ? (this.#vcList[c.lane] as number) : null;
      out.push({ kind: c.blocked ? 'blocked' : 'unblocked', port, vc, queue: c.queue, cause });
    }
  }

  /** The lane of a VC on a port, undefined for a VC the links do not run. */
  #lane(p: PortState, vc: number): number | undefined {
    const i = this.#vcList.indexOf(vc);
    if (i < 0) return undefined;
    return p.config.perVcStaging ? i : 0;
  }

  #port(port: number, out: VoqReceiverOutput[]): PortState | undefined {
    const p = Number.isInteger(port) ? this.#ports[port] : undefined;
    if (p === undefined) {
      this.#counters.unknownPort++;
      out.push({ kind: 'event', name: 'unknown-port', detail: `port ${String(port)}` });
    }
    return p;
  }

  #event(out: VoqReceiverOutput[], name: VoqReceiverEventName, port: number, packetId?: number | string, detail?: string): void {
    const e: { kind: 'event'; name: VoqReceiverEventName; port: number; packetId?: number | string; detail?: string } = { kind: 'event', name, port };
    if (packetId !== undefined) e.packetId = packetId;
    if (detail !== undefined) e.detail = detail;
    out.push(e);
  }
}
