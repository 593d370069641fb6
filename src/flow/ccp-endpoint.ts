import { positiveInteger } from '../engine/config-checks.ts';
import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { FLOW_IDS, FLOW_ID_LABELS } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { type7Command } from '../wire/type7.ts';
import type { Type7Packet } from '../wire/type7.ts';
import { CounterTable } from './ccp-counter-table.ts';
import { CriticalFlows, resolveConfig } from './ccp-endpoint-config.ts';
import type { ResolvedCcpEndpointConfig } from './ccp-endpoint-config.ts';
import type {
  CcpCounterEntry, CcpEndpointConfig, CcpEndpointCounterName, CcpEndpointEventName, CcpEndpointInput, CcpEndpointOutput, CcpEndpointSnapshot, FlowChangeCause,
  OrphanQueueEntry,
} from './ccp-endpoint-types.ts';
import { FLOW_COUNT, flowIndex, flowsAtOrAbove } from './flows.ts';
import { OrphanFifo } from './orphan-fifo.ts';
import type { OrphanEntry } from './orphan-fifo.ts';

/** Module-local copies for the per-CCP path (see ccp-counter-table.ts). */
const FLOWS = FLOW_COUNT;
const LABELS: readonly FlowIdLabel[] = [...FLOW_ID_LABELS];

const COUNTER_NAMES: readonly CcpEndpointCounterName[] = [
  'xoff', 'xon', 'reservedFlowId', 'criticalIgnored', 'saturated', 'xonAtZero', 'orphanRestarts', 'arbitrationIgnored', 'undefinedIgnored',
];

/** Table 3-1 index of each 7-bit flowID code; -1 for "Remaining encodings are reserved". */
const INDEX_BY_CODE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (const label of FLOW_ID_LABELS) t[FLOW_IDS[label]] = flowIndex(label);
  return t;
})();

/**
 * A source end point's reaction to congestion control packets (Part 9 §2.4.2.1, §2.4.2.3,
 * §2.4.5 rules 1–3, Annex A.2). The engine handles one input at a time, so CCPs are processed
 * in the order the driver delivers them, as §2.4.4 rule 4 requires ("An end point processing
 * element must process flow control transactions from the same source … in the order they are
 * received").
 *
 * Outputs of one input come in this order: `flow` changes (by destination, then Table 3-1
 * order), then the event, then the `orphan` timer request.
 *
 * With bounded counters a counter is shared by flows of destinations the end point may never have
 * heard of: `canSend` answers for every destination, while `flow` outputs cover the destinations
 * named so far (by a CCP that reaches a counter, or a reset) and report a destination's flows that
 * shared counters already stop when it is first named, under that input's cause.
 *
 * @example
 * ```ts
 * import { CcpEndpoint } from 'riodp/engines';
 * import { makeCcp } from 'riodp/wire';
 *
 * const ep = new CcpEndpoint({ orphanPeriod: 1_000_000 });
 * const xoff = makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 0, command: 'XOFF', flowID: '0A', soc: 0 });
 * ep.handle({ kind: 'ccp', packet: xoff }, 0);
 * // → { kind: 'flow', destinationID: 2, flowID: '0A', enabled: false, cause: 'xoff' }, the orphan timer
 * ```
 */
export class CcpEndpoint implements ObservableEngine<CcpEndpointInput, CcpEndpointOutput, CcpEndpointSnapshot, CcpEndpointCounterName> {
  readonly #config: ResolvedCcpEndpointConfig;
  #period: number;
  readonly #table: CounterTable;
  readonly #critical: CriticalFlows;
  readonly #fifo = new OrphanFifo();
  readonly #timers = new Timers<'orphan'>();
  readonly #counters: Counters<CcpEndpointCounterName> = zeroCounters(COUNTER_NAMES);
  /** Flows last reported stopped, per destination (bit i = flow i); absent = every flow enabled. */
  readonly #stopped = new Map<number, number>();
  /** Bounded mode only: the destinations `flow` outputs cover, those named by a CCP or a reset. */
  readonly #known = new Set<number>();

  constructor(config: CcpEndpointConfig = {}) {
    this.#config = resolveConfig(config);
    this.#period = this.#config.orphanPeriod;
    this.#table = new CounterTable(this.#config.counters, this.#config.counterBits);
    this.#critical = new CriticalFlows(this.#config.critical);
  }

  handle(input: CcpEndpointInput, now: Time): CcpEndpointOutput[] {
    const out: CcpEndpointOutput[] = [];
    switch (input.kind) {
      case 'ccp':
        this.#ccp(input.packet, now, out);
        break;
      case 'timer':
        if (this.#timers.expire(input.name, now)) this.#orphanExpired(now, out);
        break;
      case 'reset-destination':
        this.#resetDestination(input.destinationID, now, out);
        break;
      case 'set-orphan-period':
        // A register write, not protocol input: validated like the constructor's orphanPeriod.
        this.#period = positiveInteger(input.period, 'period');
        break;
    }
    return out;
  }

  /** Whether (destinationID, flowID) may send: every counter of flowID and the flows above it in its channel is zero. */
  canSend(destinationID: number, flowID: FlowIdLabel): boolean {
    if (this.#critical.has(destinationID, flowID)) return true;
    return flowsAtOrAbove(flowID).every((f) => this.counterValue(destinationID, f) === 0);
  }

  /** The XON/XOFF counter associated with (destinationID, flowID). */
  counterValue(destinationID: number, flowID: FlowIdLabel): number {
    return this.#table.get(this.#table.key(destinationID, flowIndex(flowID)));
  }

  /** The A.2 FIFO, oldest first: the CCP that first stopped each counter, and the counter's value. */
  orphanQueue(): OrphanQueueEntry[] {
    return [...this.#fifo.values()].map((e) => ({ destinationID: e.destinationID, flowID: e.flowID, counter: this.#table.get(e.key) }));
  }

  /** When the oldest stopped counter will be presumed orphaned; undefined when none is stopped. */
  orphanDeadline(): Time | undefined {
    return this.#timers.deadline('orphan');
  }

  /** The period the next arming of the orphan timer uses. */
  get orphanPeriod(): number {
    return this.#period;
  }

  /** The saturation value of every counter, 2^counterBits − 1. */
  get counterMax(): number {
    return this.#table.max;
  }

  counters(): Counters<CcpEndpointCounterName> {
    return { ...this.#counters };
  }

  snapshot(): CcpEndpointSnapshot {
    const c = this.#config;
    const bounded = this.#table.slots !== 0;
    const counters = [...this.#table.entries()].sort((a, b) => a[0] - b[0]).map(([key, value]): CcpCounterEntry => (bounded
      ? { counter: key, value }
      : { destinationID: Math.floor(key / 16), flowID: FLOW_ID_LABELS[key % 16] ?? 'RESERVED', value }));
    const stopped = [...this.#stopped].sort((a, b) => a[0] - b[0]).map(([destinationID, mask]) => ({
      destinationID,
      flows: FLOW_ID_LABELS.filter((_, i) => (mask & (1 << i)) !== 0),
    }));
    return {
      orphanPeriod: this.#period,
      counterBits: c.counterBits,
      counterMax: this.#table.max,
      counterMapping: c.counters,
      critical: c.critical,
      flowArbitration: c.flowArbitration,
      counters,
      stopped,
      orphanQueue: this.orphanQueue(),
      timers: this.#timers.pending(),
      stats: this.counters(),
    };
  }

  #ccp(p: Type7Packet, now: Time, out: CcpEndpointOutput[]): void {
    const index = INDEX_BY_CODE[p.flowIDCode] ?? -1;
    if (index < 0) {
      // §3.4 "no action required and the tgtdestinationID is ignored": the event names no destination.
      this.#counters.reservedFlowId++;
      out.push({ kind: 'event', name: 'reserved-flow-id', flowID: `0b${p.flowIDCode.toString(2).padStart(7, '0')}` });
      return;
    }
    const flowID = LABELS[index] as FlowIdLabel;
    const dest = p.tgtdestinationID;
    // §3.3 "A device that does not support the SAR protocol ignores the FAM bits": only with flow
    // arbitration does a FAM other than 000 make the packet something other than XON/XOFF.
    if (this.#config.flowArbitration && (p.fam & 7) !== 0) {
      const undefinedCommand = type7Command(p.xonXoff, p.fam).command === 'UNDEFINED';
      if (undefinedCommand) this.#counters.undefinedIgnored++;
      else this.#counters.arbitrationIgnored++;
      this.#event(out, undefinedCommand ? 'undefined-command' : 'arbitration-message', dest, flowID);
      return;
    }
    if ((p.xonXoff & 1) === 0) this.#xoff(dest, index, flowID, now, out);
    else this.#xon(dest, index, flowID, now, out);
  }

  /** §2.4.5 rule 1, §2.4.2.3 "The counter increments by one for each associated XOFF CCP". */
  #xoff(dest: number, index: number, flowID: FlowIdLabel, now: Time, out: CcpEndpointOutput[]): void {
    if ((this.#critical.mask(dest) & (1 << index)) !== 0) {
      this.#counters.criticalIgnored++;
      this.#event(out, 'critical-xoff-ignored', dest, flowID);
      return;
    }
    this.#counters.xoff++;
    const learnt = this.#learn(dest);
    const key = this.#table.key(dest, index);
    const value = this.#table.get(key);
    if (value >= this.#table.max) {
      // "In no event shall the counter wrap upon terminal count."
      this.#counters.saturated++;
      if (learnt) this.#refresh(dest, 'xoff', out);
      this.#event(out, 'counter-saturated', dest, flowID, value);
      return;
    }
    this.#table.set(key, value + 1);
    if (value !== 0) {
      if (learnt) this.#refresh(dest, 'xoff', out);
      return;
    }
    const head = this.#fifo.head();
    this.#fifo.push({ key, destinationID: dest, flowID });
    this.#counterChanged(key, dest, 'xoff', out);
    this.#rearm(head, now, out);
  }

  /**
   * §2.4.5 rule 2 "A XON flow control transaction decrements the XON/XOFF counter associated with
   * the specified flowID. If the resulting value is zero, the transaction request flows for that
   * flowID and flowIDs of higher priority are restarted."
   */
  #xon(dest: number, index: number, flowID: FlowIdLabel, now: Time, out: CcpEndpointOutput[]): void {
    this.#counters.xon++;
    const learnt = this.#learn(dest);
    const key = this.#table.key(dest, index);
    const value = this.#table.get(key);
    if (value === 0) {
      // §2.4.2.3 "decrements by one for each associated XON CCP, stopping at zero".
      this.#counters.xonAtZero++;
      if (learnt) this.#refresh(dest, 'xon', out);
      this.#event(out, 'xon-at-zero', dest, flowID, 0);
      return;
    }
    this.#table.set(key, value - 1);
    if (value !== 1) {
      if (learnt) this.#refresh(dest, 'xon', out);
      return;
    }
    const head = this.#fifo.head();
    this.#fifo.remove(key);
    this.#counterChanged(key, dest, 'xon', out);
    this.#rearm(head, now, out);
  }

  /**
   * A.2: the oldest XOFF'd flow "will be presumed to be orphaned due to lost XON CCP and be
   * restarted as if an XON CCP had been received, with the orphaned flow entry removed from the
   * top of the list and the counter reset to count down for the next oldest XOFF'd flow";
   * §2.4.2.3 "If the orphaned XOFF mechanism activates, the counter is reset to zero".
   */
  #orphanExpired(now: Time, out: CcpEndpointOutput[]): void {
    const head = this.#fifo.head();
    if (head === undefined) return;
    const value = this.#table.get(head.key);
    this.#table.set(head.key, 0);
    this.#fifo.remove(head.key);
    this.#counters.orphanRestarts++;
    this.#counterChanged(head.key, head.destinationID, 'orphan', out);
    this.#event(out, 'orphan-restart', head.destinationID, head.flowID, value);
    this.#rearm(head, now, out);
  }

  /** §2.4.2.3 "The counter is initialized to zero … when a new DestinationID and given Priority is initialized". */
  #resetDestination(dest: number, now: Time, out: CcpEndpointOutput[]): void {
    this.#learn(dest);
    const head = this.#fifo.head();
    for (let i = 0; i < FLOWS; i++) {
      const key = this.#table.key(dest, i);
      this.#table.set(key, 0);
      this.#fifo.remove(key);
    }
    if (this.#table.slots === 0) this.#refresh(dest, 'reset', out);
    else for (const d of sortedNumbers(this.#known)) this.#refresh(d, 'reset', out);
    this.#rearm(head, now, out);
  }

  /**
   * A.2 "When a flow first becomes the oldest flow (reaches top of an XOFF'd flow FIFO list
   * within the end point) the timer is reset to its programmed value".
   */
  #rearm(previousHead: OrphanEntry | undefined, now: Time, out: CcpEndpointOutput[]): void {
    const head = this.#fifo.head();
    if (head === previousHead) return;
    if (head === undefined) this.#timers.cancel('orphan', out);
    else this.#timers.arm('orphan', now + this.#period, out);
  }

  /** A counter went from zero to non-zero or back: every destination with a flow on it may change. */
  #counterChanged(key: number, dest: number, cause: FlowChangeCause, out: CcpEndpointOutput[]): void {
    if (this.#table.slots === 0) {
      this.#refresh(dest, cause, out);
      return;
    }
    for (const d of sortedNumbers(this.#known)) if (this.#table.serves(key, d)) this.#refresh(d, cause, out);
  }

  /** Bounded mode: whether `dest` was named for the first time. */
  #learn(dest: number): boolean {
    if (this.#table.slots === 0 || this.#known.has(dest)) return false;
    this.#known.add(dest);
    return true;
  }

  /** Recomputes the 14 permissions of `dest` and reports those that changed, in Table 3-1 order. */
  #refresh(dest: number, cause: FlowChangeCause, out: CcpEndpointOutput[]): void {
    const next = this.#table.stoppedMask(dest, this.#critical.mask(dest));
    const prev = this.#stopped.get(dest) ?? 0;
    const diff = prev ^ next;
    if (diff === 0) return;
    if (next === 0) this.#stopped.delete(dest);
    else this.#stopped.set(dest, next);
    for (let i = 0; i < FLOWS; i++) {
      const bit = 1 << i;
      if ((diff & bit) === 0) continue;
      out.push({ kind: 'flow', destinationID: dest, flowID: LABELS[i] as FlowIdLabel, enabled: (next & bit) === 0, cause });
    }
  }

  #event(out: CcpEndpointOutput[], name: CcpEndpointEventName, destinationID: number, flowID: FlowIdLabel, counter?: number): void {
    out.push(counter === undefined ? { kind: 'event', name, destinationID, flowID } : { kind: 'event', name, destinationID, flowID, counter });
  }
}

function sortedNumbers(set: ReadonlySet<number>): number[] {
  return [...set].sort((a, b) => a - b);
}
