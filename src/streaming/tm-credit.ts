import type { TmDesignation } from './tm-operand-match.ts';

/**
 * The ingress side of credit based traffic management (Part 10 §3.4.4, §4.3.4 Table 4-6,
 * §3.4.5 rule 7): the allocation units one designation (<Q>) holds, used one at a time in the
 * order they were allocated ("When the credits in an allocation unit are consumed, the ingress
 * begins to use credits in the next allocation unit"; "The allocation unit value has local
 * scope to the <Q> designation").
 *
 * Every method returns the CREDIT STATUS messages the change calls for, in order.
 */
export interface CreditStatus {
  readonly allocationUnit: number;
  readonly credits: number;
}

/** An allocation unit the ingress holds (§3.4.4): the credits of its ALLOCATE and those left. */
export interface HeldAu {
  readonly allocationUnit: number;
  /** Credits of the ALLOCATE. */
  readonly credits: number;
  /** Credits not used yet. */
  remaining: number;
  /** Whether a low-level CREDIT STATUS was sent (or the opening one already told as much). */
  lowReported: boolean;
}

export type AllocateResult = 'held' | 'duplicate';
export type RetireResult = 'in-use' | 'waiting' | 'unknown';

export class IngressCreditContext {
  /** The designation of the ALLOCATE that created the context: CREDIT STATUS messages use it. */
  readonly designation: TmDesignation;
  readonly key: string;
  readonly #low: number;
  #current: HeldAu | null = null;
  readonly #waiting: HeldAu[] = [];

  constructor(key: string, designation: TmDesignation, lowCredits: number) {
    this.key = key;
    this.designation = designation;
    this.#low = lowCredits;
  }

  /** The AU in use (opened by its CREDIT STATUS <AU> <n>), if any. */
  get current(): Readonly<HeldAu> | null {
    return this.#current;
  }

  /** AUs allocated and not opened yet, oldest first. */
  get waiting(): readonly Readonly<HeldAu>[] {
    return this.#waiting;
  }

  /** Whether a PDU may take a credit now or after opening the next AU. */
  hasCredit(): boolean {
    return (this.#current !== null && this.#current.remaining > 0) || this.#waiting.length > 0;
  }

  /** Whether the context holds nothing any more (it can be forgotten). */
  isEmpty(): boolean {
    return this.#current === null && this.#waiting.length === 0;
  }

  /**
   * ALLOCATE <AU> <n>, n > 0. An AU already held is a duplicate (§3.4.5 rule 7 "ALLOCATE
   * messages are never duplicated", so it is not a new allocation): ignored.
   */
  allocate(au: number, credits: number): AllocateResult {
    if (this.#current?.allocationUnit === au || this.#waiting.some((a) => a.allocationUnit === au)) return 'duplicate';
    this.#waiting.push({ allocationUnit: au, credits, remaining: credits, lowReported: false });
    return 'held';
  }

  /**
   * Starts the next AU when none is in use: "<Q> CREDIT STATUS <AU> <nn>, where nn is the number
   * of initial credits for an AU, is sent ahead of the first packet to delimit the beginning of
   * the use of that AU".
   */
  open(): CreditStatus[] {
    if (this.#current !== null) return [];
    const next = this.#waiting.shift();
    if (next === undefined) return [];
    // The opening status already tells the egress how few credits there are.
    next.lowReported = next.remaining <= this.#low;
    this.#current = next;
    return [{ allocationUnit: next.allocationUnit, credits: next.remaining }];
  }

  /**
   * One PDU takes one credit of the AU in use (opening the next first when needed). "<Q> CREDIT
   * STATUS <AU> <00> is always sent after the last packet resulting in the number of credits
   * going to 0 for that AU"; at `lowCredits` or below, CREDIT STATUS <AU> <xx> once.
   * Returns null when there is no credit at all.
   */
  consume(): CreditStatus[] | null {
    const out = this.open();
    const au = this.#current;
    if (au === null || au.remaining === 0) return null;
    au.remaining--;
    if (au.remaining === 0) {
      this.#current = null;
      out.push({ allocationUnit: au.allocationUnit, credits: 0 });
    } else if (!au.lowReported && au.remaining <= this.#low) {
      au.lowReported = true;
      out.push({ allocationUnit: au.allocationUnit, credits: au.remaining });
    }
    return out;
  }

  /**
   * ALLOCATE <AU> <0>: "<Q> CREDIT STATUS <AU> <00> is also sent in response to an <Q> ALLOCATE
   * <AU> <00> acknowledging that the ingress will send no more PDUs for that allocation". It is
   * sent for an AU never received too: that is how the egress recovers a lost ALLOCATE (rule 7).
   */
  retire(au: number): { readonly result: RetireResult; readonly status: CreditStatus[] } {
    const status = [{ allocationUnit: au, credits: 0 }];
    if (this.#current?.allocationUnit === au) {
      this.#current = null;
      return { result: 'in-use', status };
    }
    const i = this.#waiting.findIndex((a) => a.allocationUnit === au);
    if (i < 0) return { result: 'unknown', status };
    this.#waiting.splice(i, 1);
    return { result: 'waiting', status };
  }

  /** §3.4.4 "An ingress may use the credit status <0> to asynchronously relinquish credits for a stream". */
  relinquish(): CreditStatus[] {
    const au = this.#current;
    if (au === null) return [];
    this.#current = null;
    return [{ allocationUnit: au.allocationUnit, credits: 0 }];
  }

  toJSON(): { readonly designation: TmDesignation; readonly current: HeldAu | null; readonly waiting: readonly HeldAu[] } {
    return { designation: this.designation, current: this.#current === null ? null : { ...this.#current }, waiting: this.#waiting.map((a) => ({ ...a })) };
  }
}
