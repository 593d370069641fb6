import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { buildSymbol } from '../wire/symbol.ts';
import { vcOfVcid } from '../wire/symbol-parameters.ts';
import { Stype0 } from '../wire/symbol-types.ts';
import { Stype1_64 } from '../wire/symbol64-types.ts';
import type { CongestionDetector, DepthObservation, DetectorChange } from './detectors.ts';
import { mergePortSettings, resolveGeneratorConfig } from './generator-config.ts';
import type { PortSettings, ResolvedGeneratorConfig } from './generator-config.ts';
import { badCarrier, badStype0, cs64SymbolOf, inRange, messageOf, stype2Of } from './generator-encode.ts';
import { ALL_VCS, LinkState, activeVcList } from './generator-link.ts';
import type { PendingGroup } from './generator-link.ts';
import type {
  CarrierFields, SendReason, VoqGeneratorConfig, VoqGeneratorCounterName, VoqGeneratorEventName, VoqGeneratorInput,
  VoqGeneratorOutput, VoqGeneratorSnapshot, VoqMessage, VoqPortSettings,
} from './generator-types.ts';

const COUNTER_NAMES: readonly VoqGeneratorCounterName[] = [
  'messages', 'nops', 'changeTriggers', 'timerRefreshes', 'linkRecoveries',
  'unknownPort', 'unknownVc', 'detectorIgnored', 'carrierRefused', 'invalidSymbol', 'invalidControl', 'groupSizeChangeRefused',
  'symbolFormMismatch',
];

/** Seed NOP "0b000 0b000 0000 0000"; Part 12 has no NOP and Part 6 sets the field "to logic 0s". */
const NOP = 0;

/**
 * The downstream device of VoQ backpressure (§4.2 rules a–g, Table 5-4): keeps each link's view
 * of what its upstream device was last told and fills the stype2 of the control symbols the link
 * layer sends.
 *
 * §4.2 e leaves "what constitutes a status change" to the implementer: here a group is due on a
 * link when a participating port's reported status (Table 5-4) differs from the status last sent
 * for it on that link. A change that is undone before a symbol goes out sends nothing, since the
 * upstream device's view is already right. Due groups go out oldest first, each with the status
 * current when its symbol is filled.
 *
 * The first input's outputs begin with the `symbol-wanted` of groups the configuration already
 * makes due and the first `refresh` timer request; an engine cannot output from its constructor.
 *
 * @example
 * ```ts
 * import { VoqGenerator } from 'riodp/engines';
 *
 * const g = new VoqGenerator({
 *   ports: 8,
 *   detector: { kind: 'output-queue', high: 8, low: 4 },
 *   portSettings: { generation: true, participation: true },
 * });
 * g.handle({ kind: 'queue-depth', port: 3, depth: 8 }, 0);        // port 3 congested: symbol-wanted on every link
 * g.handle({ kind: 'next-stype2', port: 0, stype0: 4 }, 1);        // → stype2 with portStatus 0b1000 (port 3)
 * ```
 */
export class VoqGenerator implements ObservableEngine<VoqGeneratorInput, VoqGeneratorOutput, VoqGeneratorSnapshot, VoqGeneratorCounterName> {
  readonly #config: ResolvedGeneratorConfig;
  readonly #detector: CongestionDetector;
  readonly #settings: PortSettings[];
  readonly #links: LinkState[];
  readonly #timers = new Timers<'refresh'>();
  readonly #counters: Counters<VoqGeneratorCounterName> = zeroCounters(COUNTER_NAMES);
  /** `symbol-wanted` of groups found due by the constructor, handed out with the first input. */
  #initial: VoqGeneratorOutput[] = [];

  constructor(config: VoqGeneratorConfig) {
    this.#config = resolveGeneratorConfig(config);
    this.#detector = this.#config.detector;
    this.#settings = [...this.#config.portSettings];
    this.#links = this.#settings.map((s) => this.#newLink(s));
    // Ports congested by Port XOFF with participation on are due from the start: the upstream
    // device starts from "not congested" (Table 5-4 row 11 "if changing from normal operation
    // causes a state change"). The `symbol-wanted` outputs of these come with the first input.
    for (let q = 0; q < this.#links.length; q++) this.#evaluateLink(q);
  }

  handle(input: VoqGeneratorInput, now: Time): VoqGeneratorOutput[] {
    const out: VoqGeneratorOutput[] = [];
    this.#flushInitial(out);
    const period = this.#config.refreshPeriod;
    // The refresh timer starts with the first input: an engine cannot output from its constructor.
    if (period !== null && !this.#timers.isArmed('refresh') && input.kind !== 'timer') this.#timers.arm('refresh', now + period, out);
    switch (input.kind) {
      case 'queue-depth':
        this.#observe(input.kind, [input.port], input.vc, input.depth, out, () => ({ kind: 'queue-depth', port: input.port, vc: input.vc ?? 0, depth: input.depth }));
        break;
      case 'voq-depth':
        this.#observe(input.kind, [input.input, input.output], input.vc, input.depth, out, () => ({ kind: 'voq-depth', input: input.input, output: input.output, vc: input.vc ?? 0, depth: input.depth }));
        break;
      case 'port-control':
        this.#portControl(input.port, input.settings, out);
        break;
      case 'link-recovered':
        if (!this.#knownPort(input.port, out)) break;
        this.#counters.linkRecoveries++;
        // §4.2 g "The backpressure symbol may be generated after link recovery to avoid orphaned
        // congestion states."
        if (this.#config.resendOnLinkRecovery) this.#refresh(input.port, 'link-recovery', out);
        break;
      case 'next-stype2':
        this.#nextStype2(input.port, input.stype0, input.vcid, null, out);
        break;
      case 'fill':
        this.#nextStype2(input.port, input.symbol.stype0, input.symbol.parameter0, input.symbol, out);
        break;
      case 'next-cs64':
        this.#nextCs64(input.port, input.stype1, out);
        break;
      case 'timer':
        if (!this.#timers.expire(input.name, now)) break;
        this.#counters.timerRefreshes++;
        // §4.2 f "may be generated at arbitrary intervals, based on a timer": every group, the
        // all-clear ones too, since a lost all-clear is what leaves an orphaned congestion state.
        for (let q = 0; q < this.#links.length; q++) this.#refresh(q, 'timer', out);
        if (period !== null) this.#timers.arm('refresh', now + period, out);
        break;
    }
    return out;
  }

  /** Table 5-4: the status port `port` reports on `link` (in `vc` for a linked link). */
  reportedStatus(link: number, port: number, vc: number | null = null): 0 | 1 {
    const s = this.#settings[port];
    if (s === undefined || this.#links[link] === undefined) return 0;
    return s.portXoff || (s.participation && this.#detector.congested(link, port, vc ?? 'any')) ? 1 : 0;
  }

  /** The status bits last sent for `group` on `link` (VC scope `vc`, null when not linked). */
  lastSent(link: number, group: number, vc: number | null = null): number {
    return this.#links[link]?.sent(vc ?? ALL_VCS, group) ?? 0;
  }

  /** Groups waiting for a symbol on `link`, oldest first. */
  pending(link: number): { group: number; vc: number | null; reason: SendReason }[] {
    return (this.#links[link]?.pending() ?? []).map((e) => ({ group: e.group, vc: e.scope === ALL_VCS ? null : e.scope, reason: e.reason }));
  }

  /**
   * The Port n VoQ Control CSR fields in force for `port` (Table 5-3); undefined for a port the device lacks.
   */
  settings(port: number): PortSettings | undefined {
    return this.#settings[port];
  }

  counters(): Counters<VoqGeneratorCounterName> {
    return { ...this.#counters };
  }

  snapshot(): VoqGeneratorSnapshot {
    const c = this.#config;
    return {
      format: c.format,
      symbol: c.symbol,
      ports: c.ports,
      refreshPeriod: c.refreshPeriod,
      resendOnLinkRecovery: c.resendOnLinkRecovery,
      activeVcs: c.activeVcs,
      portSettings: this.#settings.map((s) => ({ ...s })),
      links: this.#links.map((l, port) => ({
        port,
        enabled: l.enabled,
        linking: l.linking,
        portsPerGroup: l.layout.portsPerGroup,
        groups: l.groups,
        reach: l.reach,
        sent: l.sentEntries().map((e) => ({ vc: e.scope === ALL_VCS ? null : e.scope, group: e.group, portStatus: e.bits })),
        pending: this.pending(port),
      })),
      detector: this.#detector.snapshot(),
      timers: this.#timers.pending(),
      stats: this.counters(),
    };
  }

  #newLink(s: PortSettings): LinkState {
    return new LinkState(s.generation, s.vcLinking, this.#config.format, s.txPortGroupSize, this.#config.ports, this.#config.symbol);
  }

  #flushInitial(out: VoqGeneratorOutput[]): void {
    if (this.#initial.length === 0) return;
    out.push(...this.#initial);
    this.#initial = [];
  }

  #observe(kind: DepthObservation['kind'], ports: readonly number[], vc: number | undefined, depth: number, out: VoqGeneratorOutput[], make: () => DepthObservation): void {
    for (const p of ports) if (!this.#knownPort(p, out)) return;
    const v = vc ?? 0;
    const vcs = activeVcList(this.#config.activeVcs);
    if (!vcs.includes(v)) {
      this.#counters.unknownVc++;
      this.#event(out, 'unknown-vc', ports[0], `vc ${String(vc)} is not an active VC (${vcs.join(', ')})`);
      return;
    }
    if (kind !== this.#detector.accepts || typeof depth !== 'number' || !Number.isSafeInteger(depth) || depth < 0) {
      this.#counters.detectorIgnored++;
      this.#event(out, 'detector-input-ignored', ports[0], kind !== this.#detector.accepts ? `the detector takes ${this.#detector.accepts}` : `depth ${String(depth)}`);
      return;
    }
    const change = this.#detector.observe(make());
    if (change !== null) this.#detectorChanged(change, out);
  }

  #detectorChanged(ch: DetectorChange, out: VoqGeneratorOutput[]): void {
    const links = ch.link === null ? this.#links.map((_, q) => q) : [ch.link];
    for (const q of links) {
      const link = this.#links[q];
      if (link === undefined || !link.enabled || ch.port >= link.reach) continue;
      const group = Math.floor(ch.port / link.layout.portsPerGroup);
      this.#evaluate(q, link.linking ? ch.vc : ALL_VCS, group, out);
    }
  }

  /** A register write (Table 5-3). Part 12: TX Port Group Size "shall be changed only when Enable VoQ Symbol Generation is cleared". */
  #portControl(port: number, changes: VoqPortSettings, out: VoqGeneratorOutput[]): void {
    if (!this.#knownPort(port, out)) return;
    const old = this.#settings[port] as PortSettings;
    let next: PortSettings;
    try {
      next = mergePortSettings(old, changes, 'settings');
    } catch (e) {
      this.#counters.invalidControl++;
      this.#event(out, 'invalid-control', port, e instanceof Error ? e.message : String(e));
      return;
    }
    if (this.#config.format === 'part12-rev4.1' && next.txPortGroupSize !== old.txPortGroupSize && next.generation) {
      this.#counters.groupSizeChangeRefused++;
      this.#event(out, 'group-size-change-refused', port, `TX Port Group Size ${old.txPortGroupSize} → ${next.txPortGroupSize} with generation enabled`);
      return;
    }
    this.#settings[port] = next;
    const relink = next.generation !== old.generation || next.vcLinking !== old.vcLinking || (this.#config.format === 'part12-rev4.1' && next.txPortGroupSize !== old.txPortGroupSize);
    if (relink) {
      // The upstream device still holds whatever this link told it last: a port may have cleared
      // while generation was off ("0b0 = No VoQ symbols will be transmitted", Table 5-3 bit 8),
      // and what was sent under another VC linking or group size no longer reads the same. So
      // every group is resent, as after a link recovery (§4.2 g "to avoid orphaned congestion
      // states"), and the upstream view is rebuilt whatever it held.
      this.#links[port] = this.#newLink(next);
      this.#refresh(port, 'restart', out);
    }
    if (next.participation === old.participation && next.portXoff === old.portXoff) return;
    for (let q = 0; q < this.#links.length; q++) {
      const link = this.#links[q] as LinkState;
      if (!link.enabled || port >= link.reach || (relink && q === port)) continue;
      for (const scope of link.scopes(this.#config.activeVcs)) this.#evaluate(q, scope, Math.floor(port / link.layout.portsPerGroup), out);
    }
  }

  /** Every group of a link that differs from the all-clear view the upstream device starts with. */
  #evaluateLink(q: number): void {
    const link = this.#links[q] as LinkState;
    if (!link.enabled) return;
    for (const scope of link.scopes(this.#config.activeVcs)) for (let g = 0; g < link.groups; g++) this.#evaluate(q, scope, g, this.#initial);
  }

  /** §4.2 e, Table 5-4: due when a participating port's status differs from what was sent. */
  #evaluate(q: number, scope: number, group: number, out: VoqGeneratorOutput[]): void {
    const link = this.#links[q] as LinkState;
    const { bits, participating } = this.#status(q, scope, group);
    if (((bits ^ link.sent(scope, group)) & participating) === 0) return;
    if (link.enqueue(scope, group, 'change')) {
      this.#counters.changeTriggers++;
      out.push({ kind: 'symbol-wanted', port: q, group, vc: scope === ALL_VCS ? null : scope });
    }
  }

  #refresh(q: number, reason: SendReason, out: VoqGeneratorOutput[]): void {
    const link = this.#links[q] as LinkState;
    if (!link.enabled) return;
    for (const scope of link.scopes(this.#config.activeVcs)) {
      for (let g = 0; g < link.groups; g++) if (link.enqueue(scope, g, reason)) out.push({ kind: 'symbol-wanted', port: q, group: g, vc: scope === ALL_VCS ? null : scope });
    }
  }

  /** Status bits of a group as link q reports them, and which of its ports participate. */
  #status(q: number, scope: number, group: number): { bits: number; participating: number } {
    const link = this.#links[q] as LinkState;
    const n = link.layout.portsPerGroup;
    let bits = 0;
    let participating = 0;
    for (let o = 0; o < n; o++) {
      const p = group * n + o;
      if (p >= link.reach) break;
      const s = this.#settings[p] as PortSettings;
      // Table 5-4: bit 9 = 0 reports bit 10 and "will not cause symbol to be generated"; bit 9 = 1
      // reports the port's state, forced to 0b1 by bit 10.
      if (s.portXoff || (s.participation && this.#detector.congested(q, p, scope === ALL_VCS ? 'any' : scope))) bits |= 1 << o;
      if (s.participation) participating |= 1 << o;
    }
    return { bits, participating };
  }

  #nextStype2(q: number, stype0: number, p0: number | undefined, carrier: CarrierFields | null, out: VoqGeneratorOutput[]): void {
    if (!this.#knownPort(q, out) || !this.#symbolForm('cs48', q, out)) return;
    const bad = carrier === null ? badStype0(stype0, p0) : badCarrier(carrier);
    if (bad !== undefined) {
      this.#counters.invalidSymbol++;
      this.#event(out, 'invalid-symbol', q, bad);
      return;
    }
    const link = this.#links[q] as LinkState;
    const message = link.enabled ? this.#take(q, link, stype0, p0 ?? 0, out) : null;
    const stype2 = message === null ? NOP : stype2Of(link, message);
    if (message === null) this.#counters.nops++;
    else this.#counters.messages++;
    if (carrier === null) {
      out.push({ kind: 'stype2', port: q, stype2, message });
      return;
    }
    const symbol = buildSymbol({ link: 'cs48', ...carrier, stype2 }, { voqFormat: this.#config.format, part12GroupSize: link.layout.groupBits });
    out.push({ kind: 'stype2', port: q, stype2, message, symbol });
  }

  /**
   * Part 12 §3.2: on a CS64 link the message is its own stype0 symbol, so there is no carrier to
   * restrict it: the oldest due group of any VC goes out, its VC named by the VC_IND.
   */
  #nextCs64(q: number, stype1: number | undefined, out: VoqGeneratorOutput[]): void {
    if (!this.#knownPort(q, out) || !this.#symbolForm('cs64', q, out)) return;
    const s1 = stype1 ?? Stype1_64.nop;
    if (!inRange(s1, 8)) {
      this.#counters.invalidSymbol++;
      this.#event(out, 'invalid-symbol', q, `stype1 ${String(stype1)} is not 8 bits`);
      return;
    }
    const link = this.#links[q] as LinkState;
    const message = link.enabled ? this.#takeFirst(q, link, link.pending()) : null;
    if (message === null) {
      this.#counters.nops++;
      out.push({ kind: 'cs64', port: q, message: null, symbol: null });
      return;
    }
    this.#counters.messages++;
    out.push({ kind: 'cs64', port: q, message, symbol: cs64SymbolOf(link, message, s1) });
  }

  /** Whether the input's symbol form is the configured one; a mismatch is counted and reported. */
  #symbolForm(form: 'cs48' | 'cs64', q: number, out: VoqGeneratorOutput[]): boolean {
    if (this.#config.symbol === form) return true;
    this.#counters.symbolFormMismatch++;
    this.#event(out, 'symbol-form-mismatch', q, `a ${form.toUpperCase()} input to a ${this.#config.symbol.toUpperCase()} generator`);
    return false;
  }

  /**
   * The oldest due group this carrier may take. §4.2 b: without VC linking "the backpressure
   * symbol may be included with any other valid combination of stype 0 and stype 1 symbols";
   * §4.2 c / §3.2: with it, "only ... with a VC_status or Status control symbol", and "For VC0,
   * the Status Symbol is used".
   */
  #take(q: number, link: LinkState, stype0: number, p0: number, out: VoqGeneratorOutput[]): VoqMessage | null {
    let scope = ALL_VCS;
    if (link.linking) {
      if (stype0 !== Stype0.status && stype0 !== Stype0.vcStatus) {
        if (link.pending().length > 0) {
          this.#counters.carrierRefused++;
          this.#event(out, 'carrier-refused', q, `stype0 ${stype0} cannot carry a VC-linked message`);
        }
        return null;
      }
      if (stype0 === Stype0.vcStatus) {
        const active = this.#config.activeVcs;
        if (active === 0) {
          this.#counters.unknownVc++;
          this.#event(out, 'unknown-vc', q, 'VC_Status carrier on a device with VC0 only');
          return null;
        }
        // Part 6 Table 3-11: CS48 parameter0 is "000, VCID".
        scope = vcOfVcid(p0 & 7, active);
      } else scope = 0;
    }
    return this.#takeFirst(q, link, link.pending(scope));
  }

  /**
   * The first of `entries` (oldest first) still worth sending: a group due for a change that was
   * undone meanwhile is dropped, since the upstream view is already right.
   */
  #takeFirst(q: number, link: LinkState, entries: readonly PendingGroup[]): VoqMessage | null {
    for (const e of entries) {
      link.dequeue(e);
      const { bits, participating } = this.#status(q, e.scope, e.group);
      if (e.reason === 'change' && ((bits ^ link.sent(e.scope, e.group)) & participating) === 0) continue;
      link.setSent(e.scope, e.group, bits);
      return messageOf(link, e, bits);
    }
    return null;
  }

  #knownPort(port: number, out: VoqGeneratorOutput[]): boolean {
    if (Number.isInteger(port) && port >= 0 && port < this.#config.ports) return true;
    this.#counters.unknownPort++;
    this.#event(out, 'unknown-port', undefined, `port ${String(port)} is not 0–${this.#config.ports - 1}`);
    return false;
  }

  #event(out: VoqGeneratorOutput[], name: VoqGeneratorEventName, port: number | undefined, detail: string): void {
    out.push(port === undefined ? { kind: 'event', name, detail } : { kind: 'event', name, port, detail });
  }
}
