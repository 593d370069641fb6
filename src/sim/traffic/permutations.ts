/**
 * The synthetic permutation patterns of the interconnect literature (issue 21 item 2; Dally &
 * Towles, "Principles and Practices of Interconnection Networks", 2004, §3.2 Table 3.1): each
 * source s of N end points sends to one fixed destination d. For the bit patterns, b = log2 N and
 * s_i, d_i are bit i of s and d (bit 0 the least significant):
 *
 * - transpose:      d_i = s_{(i + b/2) mod b}  (the two halves of s swapped; b even)
 * - bit-complement: d_i = ¬s_i
 * - bit-reverse:    d_i = s_{b − i − 1}
 * - shuffle:        d_i = s_{(i − 1) mod b}  (s rotated left by one bit)
 * - tornado:        d = (s + ⌈N/2⌉ − 1) mod N
 * - neighbour:      d = (s + 1) mod N
 *
 * The book defines tornado and neighbour per dimension of a k-ary n-cube (d_x = s_x + ⌈k/2⌉ − 1
 * mod k; d_x = s_x + 1 mod k); here they are the one-dimensional form over the host index, whatever
 * the topology (decision: a per-dimension form needs topology coordinates the hosts do not carry).
 * s is the host ID, which runs 0..N − 1 over the topology's hosts.
 */

export const BIT_PATTERNS = ['transpose', 'bit-complement', 'bit-reverse', 'shuffle'] as const;
export const FIXED_PATTERNS = [...BIT_PATTERNS, 'tornado', 'neighbour'] as const;
export type FixedPattern = (typeof FIXED_PATTERNS)[number];

export function isFixedPattern(p: string): p is FixedPattern {
  return (FIXED_PATTERNS as readonly string[]).includes(p);
}

/** log2 n when n is a power of two (1, 2, 4, …), else undefined. */
function bitsOf(n: number): number | undefined {
  let b = 0;
  for (let v = 1; v < n; v *= 2) b++;
  return 2 ** b === n ? b : undefined;
}

/**
 * Why `pattern` is not defined over n end points (one line naming the pattern and the count), or
 * undefined when it is. Bit patterns need a power of two, transpose an even number of bits.
 */
export function patternRefusal(pattern: FixedPattern, n: number): string | undefined {
  if (!(BIT_PATTERNS as readonly string[]).includes(pattern)) return undefined;
  const b = bitsOf(n);
  if (b === undefined) return `expected a host count that is a power of two for ${pattern} (the topology has ${n} hosts)`;
  if (pattern === 'transpose' && b % 2 !== 0) return `expected a host count that is an even power of two (4, 16, 64, …) for transpose (the topology has ${n} hosts)`;
  return undefined;
}

/** Bit i of s (s < 2^53, so arithmetic rather than 32-bit operators). */
function bit(s: number, i: number): number {
  return Math.floor(s / 2 ** i) % 2;
}

/** d with d_i = s_{from(i)} for i < b. */
function permuteBits(s: number, b: number, from: (i: number) => number): number {
  let d = 0;
  for (let i = 0; i < b; i++) d += bit(s, from(i)) * 2 ** i;
  return d;
}

/** The destination of source s among n end points; throws where `patternRefusal` refuses. */
export function patternImage(pattern: FixedPattern, s: number, n: number): number {
  if (!Number.isSafeInteger(s) || s < 0 || s >= n) throw new RangeError(`source ${s} must be a host index 0..${n - 1}`);
  const refusal = patternRefusal(pattern, n);
  if (refusal !== undefined) throw new RangeError(refusal);
  const b = bitsOf(n) ?? 0;
  switch (pattern) {
    case 'transpose':
      return permuteBits(s, b, (i) => (i + b / 2) % b);
    case 'bit-complement':
      return n - 1 - s;
    case 'bit-reverse':
      return permuteBits(s, b, (i) => b - i - 1);
    case 'shuffle':
      return permuteBits(s, b, (i) => (i - 1 + b) % b);
    case 'tornado':
      return (s + Math.ceil(n / 2) - 1) % n;
    case 'neighbour':
      return (s + 1) % n;
  }
}

/**
 * The destination of each of `sources` (ascending, duplicates once) under `pattern` over n end
 * points. A source whose image is itself sends nothing (decision: it is left out; e.g. the
 * palindromes under bit-reverse, 0 and N − 1 under shuffle, s with equal halves under transpose).
 */
export function patternMap(pattern: FixedPattern, sources: readonly number[], n: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const s of [...new Set(sources)].sort((a, b) => a - b)) {
    const d = patternImage(pattern, s, n);
    if (d !== s) out.set(s, d);
  }
  return out;
}
