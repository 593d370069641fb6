import { fitsDeviceId } from '../engine/config-checks.ts';
import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import type { TmMessage } from '../wire/type9-tm.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';
import type { PacketFlow } from './classifier.ts';
import { EgressCreditContext } from './tm-credit-egress.ts';
import { EgressFlows } from './tm-egress-flows.ts';
import { OwnQueues } from './tm-egress-queues.ts';
import { resolveTmEgressConfig } from './tm-egress-config.ts';
import type { ResolvedTmEgressConfig } from './tm-egress-config.ts';
import { checkEgressCommand, commandMessage } from './tm-egress-rules.ts';
import { checkUserCommand } from './tm-ingress-rules.ts';
import { currentMode, modeSourceJson, onOffOp, setModeSource, usesCredit, usesRate } from './tm-mode.ts';
import type { TmModeSetting, TmModeSource } from './tm-mode.ts';
import { coversStream, designationKey, specificity } from './tm-operand-match.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { REJECTION_COUNTER, packetFlow, rawTmPacket, rejectionEvent, screenTm, tmPacket } from './tm-packet.ts';
import { roundLevel } from './tm-rate.ts';
import type {
  TmEgressCommand, TmEgressConfig, TmEgressCounterName, TmEgressEventName, TmEgressInput, TmEgressOutput, TmEvent,
} from './tm-types.ts';
import type { TmEgressCreditState, TmEgressSnapshot } from './tm-snapshot-types.ts';

const COUNTER_NAMES: readonly TmEgressCounterName[] = [
  'tmReceived', 'tmSent', 'qStatus', 'creditStatus', 'pdus', 'pdusWithoutCredit', 'allocations', 'retires', 'auClosed', 'auAssumedClosed',
  'auAssumedOpen', 'allocateLost', 'csUnknownAu', 'auBusy', 'xoffSent', 'xonSent', 'rateSent', 'userDefined', 'applicationDefined', 'tmDisabled',
  'opNotInMode', 'invalidOperand', 'reserved', 'wrongDirection', 'notTm', 'badCommand',
];

type Out = TmEgressOutput[];

/**
 * The egress end of data streaming traffic management (Part 10 §3.4): it directs the ingress
 * with XOFF/XON, rate messages and credit allocations, from a default policy over its own queue
 * levels and the ingress's Q_STATUS and CREDIT STATUS (tm-types.ts TmEgressPolicy), or on
 * command. Every message travels in the flow of the data it concerns (§3.4.5 protocol rule 1):
 * the flow the data last arrived in, else the flow of the ingress's TM messages about it, else
 * `defaultFlow`.
 *
 * Outputs of one input: TM packets and events in the order they arise.
 *
 * @example
 * ```ts
 * import { TmEgress } from 'riodp/engines';
 *
 * const egress = new TmEgress({ localID: 2, policy: { onOff: { high: 240, low: 128 } } });
 * // Its own queue for source 1, cos 0 is nearly full: XOFF to the ingress (§3.4.2).
 * egress.handle({ kind: 'queue-level', sourceID: 1, cos: 0, streamID: 7, level: 250 }, 0); // → { kind: 'tm', packet }
 * ```
 */
export class TmEgress implements ObservableEngine<TmEgressInput, TmEgressOutput, TmEgressSnapshot, TmEgressCounterName> {
  readonly #config: ResolvedTmEgressConfig;
  readonly #own: OwnQueues;
  readonly #credit = new Map<string, EgressCreditContext>();
  /** The flows data and the ingress's TM messages came in (§3.4.5 rule 1). */
  readonly #flows: EgressFlows;
  /** Last Q_STATUS level (rounded) per designation key. */
  readonly #levels = new Map<string, number>();
  /** Designations an XOFF was sent to and no XON since. */
  readonly #off = new Set<string>();
  readonly #counters: Counters<TmEgressCounterName> = zeroCounters(COUNTER_NAMES);
  /** The configuration's, until a `set-mode`. */
  #modeSource: TmModeSource;
  #mode: TmModeSetting;
  #now: Time = 0;

  constructor(config: TmEgressConfig = {}) {
    this.#config = resolveTmEgressConfig(config);
    this.#modeSource = this.#config.mode;
    this.#mode = currentMode(this.#modeSource);
    this.#own = new OwnQueues(this.#config.granularity);
    this.#flows = new EgressFlows(this.#config.defaultFlow);
  }

  /** The egress keeps no timers (§3.4.5 rule 5 "There are no requirements for timers"); `now` only dates the snapshot. */
  handle(input: TmEgressInput, now: Time): TmEgressOutput[] {
    const out: Out = [];
    this.#now = now;
    this.#mode = currentMode(this.#modeSource);
    switch (input.kind) {
      case 'tm':
        this.#tm(input.packet, out);
        break;
      case 'pdu':
        this.#pdu(input.sourceID, input.cos, input.streamID, input.flow, out);
        break;
      case 'queue-level':
        this.#queueLevel(input.sourceID, input.cos, input.streamID, input.level, out);
        break;
      case 'command':
        this.#command(input.to, input.command, out);
        break;
      case 'set-mode': {
        // TmSetModeInput: the state is kept, the new mode decides what applies.
        const src = setModeSource(this.#modeSource, input.mode);
        if (typeof src === 'string') this.#bad(out, src);
        else this.#mode = currentMode((this.#modeSource = src));
        break;
      }
    }
    return out;
  }

  /** The TM Mode in force (from the configuration, or read from the registers at the last input). */
  mode(): TmModeSetting {
    return this.#mode;
  }

  /** The last Q_STATUS level (rounded to `levelBits`) the ingress reported for a designation. */
  ingressLevel(d: TmDesignation): number | undefined {
    const key = designationKey(d);
    return key === undefined ? undefined : this.#levels.get(key);
  }

  /** The credit context of a designation: next AU of the rotation and the AUs in use. */
  creditState(d: TmDesignation): TmEgressCreditState | undefined {
    const key = designationKey(d);
    return key === undefined ? undefined : this.#credit.get(key)?.toJSON();
  }

  /** Whether an XOFF was sent to the designation and no XON since. */
  isOff(d: TmDesignation): boolean {
    const key = designationKey(d);
    return key !== undefined && this.#off.has(key);
  }

  counters(): Counters<TmEgressCounterName> {
    return { ...this.#counters };
  }

  snapshot(): TmEgressSnapshot {
    const c = this.#config;
    const sorted = <V>(m: ReadonlyMap<string, V>): [string, V][] => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return {
      now: this.#now,
      localID: c.localID,
      tt: c.tt,
      mode: modeSourceJson(this.#modeSource),
      granularity: c.granularity,
      levelBits: c.levelBits,
      defaultFlow: c.defaultFlowID,
      policy: c.policy,
      queues: sorted(this.#own.all).map(([key, q]) => ({ key, level: q.level, designation: q.designation, reduceStreak: q.reduceStreak })),
      off: [...this.#off].sort(),
      ingressLevels: sorted(this.#levels).map(([designation, level]) => ({ designation, level })),
      credit: sorted(this.#credit).map(([key, ctx]) => ({ key, ...ctx.toJSON() })),
      stats: this.counters(),
    };
  }

  // ---- received TM -------------------------------------------------------------------------

  #tm(p: Type9TmPacket, out: Out): void {
    this.#counters.tmReceived++;
    const s = screenTm(p, this.#mode, 'egress');
    if (!s.ok) {
      this.#counters[REJECTION_COUNTER[s.rejection]]++;
      out.push(rejectionEvent(s.rejection, p));
      return;
    }
    this.#flows.tm(s.key, packetFlow(p));
    const m = s.message;
    if (m.message === 'Q_STATUS') {
      const level = roundLevel(m.level, this.#config.levelBits);
      this.#counters.qStatus++;
      this.#levels.set(s.key, level);
      this.#event(out, 'q-status', { designation: s.key, level });
      // §3.4.4 Queue Status: "get attention for a queue that has become active, needing credits".
      if (level > 0 && usesCredit(this.#mode)) this.#creditAsked(s.designation, s.key, out);
      return;
    }
    if (m.message === 'CREDIT_STATUS') this.#creditStatus(s.designation, s.key, m.allocationUnit, m.credits, out);
  }

  #creditStatus(d: TmDesignation, key: string, au: number, credits: number, out: Out): void {
    this.#counters.creditStatus++;
    const ctx = this.#credit.get(key);
    const r = ctx?.status(au, credits) ?? { kind: 'unknown' as const };
    switch (r.kind) {
      case 'unknown':
        this.#counters.csUnknownAu++;
        this.#event(out, 'cs-unknown-au', { designation: key, allocationUnit: au, credits });
        return;
      case 'closed':
        this.#counters.auClosed++;
        return;
      case 'opened':
        for (const closed of r.assumedClosed) {
          this.#counters.auAssumedClosed++;
          this.#event(out, 'au-assumed-closed', { designation: key, allocationUnit: closed });
        }
        // §3.4.5 rule 7: "If an allocation unit message is lost, the egress may recover it with a
        // <Q> ALLOCATE <AU><0> message, insuring it is de-allocated before reusing it."
        for (const lost of r.lost) {
          this.#counters.allocateLost++;
          this.#event(out, 'allocate-lost', { designation: key, allocationUnit: lost });
          this.#retire(ctx as EgressCreditContext, lost, out);
        }
        break;
      case 'low':
        break;
    }
    const low = this.#config.policy.credit?.lowCredits ?? 0;
    if (credits <= low) this.#creditAsked(d, key, out);
  }

  /** The default credit policy: one more AU while fewer than `maxOutstanding` are allocated or open. */
  #creditAsked(d: TmDesignation, key: string, out: Out): void {
    const policy = this.#config.policy.credit;
    if (policy === null) return;
    const ctx = this.#context(d, key);
    if (ctx.outstanding() >= policy.maxOutstanding) return;
    this.#allocate(ctx, policy.credits, out);
  }

  // ---- PDUs and own queues -----------------------------------------------------------------

  #pdu(sourceID: number, cos: number, streamID: number, flow: PacketFlow | undefined, out: Out): void {
    if (!this.#validVsid(sourceID, cos, streamID, out)) return;
    this.#counters.pdus++;
    if (flow !== undefined) this.#flows.data(sourceID, cos, streamID, flow);
    if (!usesCredit(this.#mode)) return;
    let ctx: EgressCreditContext | undefined;
    for (const c of this.#credit.values()) {
      if (!coversStream(c.designation, 'egress', sourceID, cos, streamID)) continue;
      if (ctx === undefined || specificity(c.designation) < specificity(ctx.designation)) ctx = c;
    }
    const r = ctx?.pdu() ?? { kind: 'no-credit' as const };
    if (r.kind === 'no-credit') {
      this.#counters.pdusWithoutCredit++;
      this.#event(out, 'pdu-without-credit', { detail: `${sourceID}/${cos}/${streamID}`, ...(ctx === undefined ? {} : { designation: ctx.key }) });
      return;
    }
    const key = (ctx as EgressCreditContext).key;
    for (const closed of r.assumedClosed) {
      this.#counters.auAssumedClosed++;
      this.#event(out, 'au-assumed-closed', { designation: key, allocationUnit: closed });
    }
    if (r.assumedOpen) {
      this.#counters.auAssumedOpen++;
      this.#event(out, 'au-assumed-open', { designation: key, allocationUnit: r.allocationUnit });
    }
  }

  #queueLevel(sourceID: number, cos: number, streamID: number, level: number, out: Out): void {
    if (!this.#validVsid(sourceID, cos, streamID, out)) return;
    if (!Number.isInteger(level) || level < 0 || level > 0xff) {
      this.#bad(out, `level ${String(level)} is not 0..255`);
      return;
    }
    const q = this.#own.get(sourceID, cos, streamID);
    q.level = level;
    if (this.#mode === 'DISABLED') return;
    const key = designationKey(q.designation) as string;
    const onOff = this.#config.policy.onOff;
    if (onOff !== null) {
      if (level >= onOff.high && !this.#off.has(key)) this.#sendOnOff(q.designation, key, 'XOFF', out);
      else if (level <= onOff.low && this.#off.has(key)) this.#sendOnOff(q.designation, key, 'XON', out);
    }
    const rate = this.#config.policy.rate;
    if (rate === null || !usesRate(this.#mode) || this.#off.has(key)) return;
    if (level >= rate.high) {
      // §3.4.5 rule 6: a lost DECREASE is made up by "a second DECREASE with a larger requested decrease amount".
      const amount = Math.min(0xff, rate.reduce * 2 ** Math.min(q.reduceStreak, 8));
      q.reduceStreak++;
      this.#sendRate(q.designation, { message: 'REDUCE', rate: rate.rate, amount, factor: 1 - amount / 256 }, out);
    } else {
      q.reduceStreak = 0;
      if (level <= rate.low) this.#sendRate(q.designation, { message: 'INCREASE', rate: rate.rate, amount: rate.increase, factor: 1 + rate.increase / 256 }, out);
    }
  }

  // ---- commands and sending ----------------------------------------------------------------

  #command(to: TmDesignation, c: TmEgressCommand, out: Out): void {
    const key = this.#checkTarget(to);
    if (key === undefined) {
      this.#bad(out, 'the command target is not a valid designation');
      return;
    }
    const problem = c.message === 'USER_DEFINED' || c.message === 'APPLICATION_DEFINED' ? checkUserCommand(c, this.#mode) : checkEgressCommand(c, this.#mode);
    if (problem !== undefined) {
      this.#bad(out, problem);
      return;
    }
    switch (c.message) {
      case 'XOFF':
      case 'XON':
        this.#sendOnOff(to, key, c.message, out);
        return;
      case 'ALLOCATE':
        this.#allocate(this.#context(to, key), c.credits, out);
        return;
      case 'RETIRE':
        this.#retire(this.#context(to, key), c.allocationUnit, out);
        return;
      case 'USER_DEFINED':
        this.#send(tmPacket(this.#config, to, this.#flows.flowFor(to, key), c.tmOp, { message: 'USER_DEFINED', value: c.value }), out);
        return;
      case 'APPLICATION_DEFINED':
        this.#send(rawTmPacket(this.#config, to, this.#flows.flowFor(to, key), TM_OP.application, c.parameter1, c.parameter2), out);
        return;
      default:
        this.#sendRate(to, commandMessage(c), out);
    }
  }

  #allocate(ctx: EgressCreditContext, credits: number, out: Out): void {
    const au = ctx.allocate(credits);
    if (au === null) {
      this.#counters.auBusy++;
      this.#event(out, 'au-busy', { designation: ctx.key, allocationUnit: ctx.nextAllocationUnit });
      return;
    }
    this.#counters.allocations++;
    this.#send(tmPacket(this.#config, ctx.designation, this.#flows.flowFor(ctx.designation, ctx.key), TM_OP.credit, { message: 'ALLOCATE', allocationUnit: au, credits }), out);
  }

  #retire(ctx: EgressCreditContext, au: number, out: Out): void {
    ctx.retire(au);
    this.#counters.retires++;
    this.#send(tmPacket(this.#config, ctx.designation, this.#flows.flowFor(ctx.designation, ctx.key), TM_OP.credit, { message: 'ALLOCATE', allocationUnit: au, credits: 0 }), out);
  }

  #sendOnOff(d: TmDesignation, key: string, message: 'XOFF' | 'XON', out: Out): void {
    if (message === 'XOFF') this.#off.add(key);
    else this.#off.delete(key);
    this.#counters[message === 'XOFF' ? 'xoffSent' : 'xonSent']++;
    this.#send(tmPacket(this.#config, d, this.#flows.flowFor(d, key), onOffOp(this.#mode), { message }), out);
  }

  #sendRate(d: TmDesignation, m: TmMessage, out: Out): void {
    this.#counters.rateSent++;
    this.#send(tmPacket(this.#config, d, this.#flows.flowFor(d, designationKey(d) as string), TM_OP.rate, m), out);
  }

  #send(packet: Type9TmPacket, out: Out): void {
    this.#counters.tmSent++;
    out.push({ kind: 'tm', packet });
  }

  // ---- helpers -----------------------------------------------------------------------------

  #context(d: TmDesignation, key: string): EgressCreditContext {
    let ctx = this.#credit.get(key);
    if (ctx === undefined) {
      ctx = new EgressCreditContext(key, d, this.#config.policy.credit?.auCount ?? 16);
      this.#credit.set(key, ctx);
    }
    return ctx;
  }

  #checkTarget(d: TmDesignation): string | undefined {
    const ok = typeof d === 'object' && fitsDeviceId(d.peer, this.#config.tt) && byte(d.cos, 0xff) && byte(d.streamID, 0xffff) && byte(d.wildcard, 7) && byte(d.mask, 0xff);
    return ok ? designationKey(d) : undefined;
  }

  #validVsid(sourceID: number, cos: number, streamID: number, out: Out): boolean {
    if (fitsDeviceId(sourceID, this.#config.tt) && byte(cos, 0xff) && byte(streamID, 0xffff)) return true;
    this.#bad(out, `${String(sourceID)}/${String(cos)}/${String(streamID)} is not a VSID`);
    return false;
  }

  #bad(out: Out, detail: string): void {
    this.#counters.badCommand++;
    this.#event(out, 'bad-command', { detail });
  }

  #event(out: Out, name: TmEgressEventName, fields: Omit<TmEvent<TmEgressEventName>, 'kind' | 'name'>): void {
    out.push({ kind: 'event', name, ...fields });
  }
}

function byte(v: unknown, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}
