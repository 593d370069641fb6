/**
 * The parallel CRC equations of Part 6 §3.6 (Tables 3-25, 3-26, 3-27) as the CRC tests read them.
 * A table is transcribed column by column: for data bit Dj, character i of row j marks CRC bit Ci
 * — '1' when the Exclusive-OR giving Ci takes Dj (the table's x), '!' when it takes Dj inverted
 * (the table's "!x", which folds in the preset), '.' otherwise. C0 is the first character.
 *
 * Data bits D0..Dlast are held as two numbers, most significant bit first: `high` holds D0 to
 * D(split−1), `low` the rest (a CS48 or CS64 passes bits 0–23 and 24–last; a CS24 all 19 bits
 * in `high`).
 */
export type CrcTable = Readonly<Record<number, string>>;

/** One CRC bit: the data bits its Exclusive-OR takes, and whether the result is inverted. */
export interface CrcEquation {
  readonly high: number;
  readonly low: number;
  readonly invert: number;
}

export function parity(v: number): number {
  let x = v;
  x ^= x >>> 16;
  x ^= x >>> 8;
  x ^= x >>> 4;
  x ^= x >>> 2;
  x ^= x >>> 1;
  return x & 1;
}

/** Data bit Dj alone, as (high, low). */
export function dataBit(j: number, last: number, split = 24): { readonly high: number; readonly low: number } {
  return j < split ? { high: 1 << (split - 1 - j), low: 0 } : { high: 0, low: 1 << (last - j) };
}

/** The equations of C0..C(crcBits−1), from a table over data bits D0..Dlast. */
export function crcEquations(table: CrcTable, crcBits: number, last: number, split = 24): readonly CrcEquation[] {
  return Array.from({ length: crcBits }, (_, i) => {
    let high = 0;
    let low = 0;
    let invert = 0;
    for (let j = 0; j <= last; j++) {
      const mark = table[j]?.[i];
      if (mark !== '1' && mark !== '!') continue;
      if (mark === '!') invert ^= 1;
      const bit = dataBit(j, last, split);
      high |= bit.high;
      low |= bit.low;
    }
    return { high, low, invert };
  });
}

/** The CRC the equations give, C0 as its most significant bit. */
export function applyCrcEquations(equations: readonly CrcEquation[], high: number, low = 0): number {
  let c = 0;
  for (const m of equations) c = (c << 1) | (parity((high & m.high) ^ (low & m.low)) ^ m.invert);
  return c >>> 0;
}

/** A CRC value written as a table row: '1' for each set bit, '.' for each clear one, C0 first. */
export function tableRow(crc: number, crcBits: number): string {
  return (crc >>> 0).toString(2).padStart(crcBits, '0').replace(/0/g, '.');
}

/** One step of the fixed linear-congruential sweep the CRC tests draw data patterns from. */
export function nextLcg(x: number): number {
  return (Math.imul(x, 1103515245) + 12345) >>> 0;
}
