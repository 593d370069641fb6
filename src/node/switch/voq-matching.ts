/**
 * How an input-VoQ switch ('input-voq') pairs its inputs with its outputs each decision:
 * - 'islip': iSLIP, round-robin grant and accept pointers (McKeown 1999; islip.ts), the default;
 * - 'pim': Parallel Iterative Matching, random grants and accepts (Anderson, Owicki, Saxe &
 *   Thacker 1993; pim.ts), drawn from the switch's random stream;
 * - 'wavefront': the wrapped wave front arbiter, a maximal matching swept over the request
 *   matrix's wrapped diagonals from a rotating start (Tamir & Chi 1993; wavefront.ts).
 * 'islip' and 'pim' run up to `iterations` rounds; 'wavefront' is maximal in one pass.
 */
export type VoqMatcher = 'islip' | 'pim' | 'wavefront';

/**
 * Every input-VoQ matcher, as `matcher` takes them.
 *
 * @example
 * ```ts
 * import { MATCHERS, SwitchElement } from 'riodp/node';
 *
 * const arg: string = 'pim'; // e.g. a --matcher option
 * const matcher = MATCHERS.find((m) => m === arg);
 * if (matcher === undefined) throw new Error(`--matcher: expected one of ${MATCHERS.join(', ')}`);
 * const sw = new SwitchElement({ deviceId: 0x50, ports: 4, routes: { 1: 0, 2: 1, 3: 2, 4: 3 }, queueing: 'input-voq', matcher });
 * console.log(sw.snapshot().queueing); // input-voq
 * ```
 */
export const MATCHERS: readonly VoqMatcher[] = ['islip', 'pim', 'wavefront'];

/** One matcher's decision over a request matrix (islip.ts, pim.ts, wavefront.ts). */
export interface VoqMatching {
  /**
   * `requests[i * n + o]`: the priority level (0 … levels − 1, higher first) of input i's request
   * for output o, or −1 for none. Writes each input's output (or −1) into `match`; returns the
   * number of pairs.
   */
  match(requests: Int8Array, match: Int32Array): number;
}

/** What a switch's settings say about its matcher, before checking (fields as given). */
export interface MatcherSettings {
  readonly queueing: string;
  readonly matcher: VoqMatcher | undefined;
  /** The arbitration policy as given, and where (`arbitration` or `arbitration.policy`). */
  readonly policy: string | undefined;
  readonly policyPath: readonly string[];
  readonly iterations: number | undefined;
  /** `arbitration.byClass` as given (only in the object form). */
  readonly byClass?: boolean | undefined;
}

/**
 * An accepted option must act: the first setting that would not, with its path and what is
 * wrong, or null. The resolver (config.ts) and the configuration schemas (schema.ts) both ask, so
 * a program and a file get the same words. An input-VoQ switch's arbitration is its matcher's.
 */
export function matcherProblem(s: MatcherSettings): { readonly path: readonly string[]; readonly message: string } | null {
  if (s.queueing !== 'input-voq') {
    if (s.matcher !== undefined) return { path: ['matcher'], message: 'expected only with queueing input-voq (a matcher pairs virtual output queues)' };
    // The other modes' outputs each take one offer a decision (matcher.ts): there are no rounds to count.
    if (s.iterations !== undefined) return { path: ['iterations'], message: `expected only with queueing input-voq (the matcher's rounds); queueing ${s.queueing} has none` };
    return null;
  }
  const matcher = s.matcher ?? 'islip';
  if (s.byClass !== undefined) {
    // The matchers' requests carry the head's priority (3 … 0, iSLIP's prioritized form): the
    // class order of the FIFO modes' outputs is not theirs to apply or to turn off.
    return { path: ['arbitration', 'byClass'], message: `expected no byClass with queueing input-voq: the ${matcher} matcher always serves priority levels 3 … 0 first` };
  }
  const p = s.policy;
  if (p !== undefined) {
    if (matcher === 'pim' && p !== 'random') {
      return { path: s.policyPath, message: `${p} does not act with matcher pim: PIM grants and accepts at random (give random, with its seed, or leave arbitration out)` };
    }
    if (matcher !== 'pim' && p === 'random') {
      const why = matcher === 'islip' ? 'iSLIP\'s grant and accept pointers are round robin' : 'the wave front\'s starting diagonal rotates';
      return { path: s.policyPath, message: `random does not act with queueing input-voq and matcher ${matcher} (${why}): matcher: pim is the random matcher` };
    }
    if (matcher !== 'pim' && p !== 'round-robin') {
      return { path: s.policyPath, message: `${p} does not act with queueing input-voq: the matcher arbitrates (${matcher}: round-robin; matcher pim: random)` };
    }
  }
  if (matcher === 'wavefront' && s.iterations !== undefined && s.iterations !== 1) {
    return { path: ['iterations'], message: 'expected 1 with matcher wavefront (the wave front arbiter is maximal in one pass)' };
  }
  return null;
}
