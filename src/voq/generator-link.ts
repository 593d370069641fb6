import { vcOfVcid } from '../wire/symbol-parameters.ts';
import { voqCs64Layout } from '../wire/voq-cs64.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import { voqLayout } from '../wire/voq-stype2.ts';
import type { VoqFormat, VoqLayout } from '../wire/voq-stype2.ts';
import type { SendReason } from './generator-types.ts';

/**
 * What one generating link remembers: the status it last sent for each (VC scope, group) and the
 * groups waiting for a symbol, oldest first.
 *
 * A scope is a VC number when the link links VCs (§3.2) and `ALL_VCS` otherwise ("the VoQ
 * backpressure symbol is not associated with any particular VC").
 */
export const ALL_VCS = 9;

export interface PendingGroup {
  readonly scope: number;
  readonly group: number;
  readonly reason: SendReason;
}

/**
 * VC0 and the optional VCs a VC_Status VCID can name with `activeVcs` of them active, ascending:
 * Part 6 Table 3-12 "When using fewer than 8 VCs, bits in the VCID are ignored starting from the
 * LSB", so 2 active VCs are VC1 and VC5, and 4 are VC1, VC3, VC5 and VC7.
 */
export function activeVcList(activeVcs: 0 | 1 | 2 | 4 | 8): number[] {
  if (activeVcs === 0) return [0];
  return [0, ...new Set(Array.from({ length: 8 }, (_, vcid) => vcOfVcid(vcid, activeVcs)))];
}

/** Part 12 allows up to 64 groups (6 group bits), the seed 32. */
const GROUP_SPAN = 64;

export class LinkState {
  readonly layout: VoqLayout;
  /** Ports this link can report on: 0..reach-1 (a Part 12 group size may name fewer than the device has). */
  readonly reach: number;
  /** Groups that hold at least one of those ports. */
  readonly groups: number;
  readonly #sent = new Map<number, number>();
  readonly #pending = new Map<number, PendingGroup>();

  constructor(
    readonly enabled: boolean,
    readonly linking: boolean,
    format: VoqFormat,
    groupSize: number,
    devicePorts: number,
    symbol: VoqSymbolForm = 'cs48',
  ) {
    this.layout = symbol === 'cs64' ? voqCs64Layout(groupSize) : voqLayout(format, groupSize);
    // Part 12 §3.1: "The combined size of the Port Group and Port Status Bits is 13 bits"; §3.2
    // (CS64): "is 20 bits".
    this.reach = Math.min(devicePorts, this.layout.portsPerGroup * this.layout.groups);
    this.groups = Math.ceil(this.reach / this.layout.portsPerGroup);
  }

  scopes(activeVcs: 0 | 1 | 2 | 4 | 8): number[] {
    if (!this.linking) return [ALL_VCS];
    return activeVcList(activeVcs);
  }

  sent(scope: number, group: number): number {
    return this.#sent.get(scope * GROUP_SPAN + group) ?? 0;
  }

  setSent(scope: number, group: number, bits: number): void {
    const key = scope * GROUP_SPAN + group;
    if (bits === 0) this.#sent.delete(key);
    else this.#sent.set(key, bits);
  }

  /** Queues a group; true when it was not waiting already. A timer or recovery reason overrides 'change'. */
  enqueue(scope: number, group: number, reason: SendReason): boolean {
    const key = scope * GROUP_SPAN + group;
    const had = this.#pending.get(key);
    if (had === undefined) {
      this.#pending.set(key, { scope, group, reason });
      return true;
    }
    if (had.reason === 'change' && reason !== 'change') this.#pending.set(key, { scope, group, reason });
    return false;
  }

  /** Pending groups of one scope (or all), oldest first. */
  pending(scope?: number): PendingGroup[] {
    const all = [...this.#pending.values()];
    return scope === undefined ? all : all.filter((e) => e.scope === scope);
  }

  dequeue(e: PendingGroup): void {
    this.#pending.delete(e.scope * GROUP_SPAN + e.group);
  }

  sentEntries(): { scope: number; group: number; bits: number }[] {
    return [...this.#sent].sort((a, b) => a[0] - b[0]).map(([k, bits]) => ({ scope: Math.floor(k / GROUP_SPAN), group: k % GROUP_SPAN, bits }));
  }
}
