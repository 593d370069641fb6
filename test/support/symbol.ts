/** Control-symbol arbitraries shared by the codec's and the CLI JSON's property tests. */
import fc from 'fast-check';
import { encodeSymbol, symbolLength } from '../../src/wire/symbol.ts';
import type { SymbolFields } from '../../src/wire/symbol.ts';
import type { VoqFormat } from '../../src/wire/voq-stype2.ts';

export const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });

/** Every raw field over its whole range (Part 6 Figure 3-1/3-2). */
export const symbolFields: fc.Arbitrary<SymbolFields> = fc.oneof(
  fc.record({ link: fc.constant('cs24' as const), stype0: int(7), parameter0: int(31), parameter1: int(31), stype1: int(7), cmd: int(7) }),
  fc.record({ link: fc.constant('cs48' as const), stype0: int(7), parameter0: int(63), parameter1: int(63), stype1: int(7), cmd: int(7), stype2: int(0x3fff) }),
);

export interface Voq {
  readonly voqFormat: VoqFormat;
  readonly part12GroupSize: number;
}
/** The seed VoQ format, or Part 12 with a group size of 0–6 bits. */
export const voqOptions: fc.Arbitrary<Voq> = fc.oneof(
  fc.constant<Voq>({ voqFormat: 'seed', part12GroupSize: 0 }),
  int(6).map((g): Voq => ({ voqFormat: 'part12-rev4.1', part12GroupSize: g })),
);

/** The encoded symbol, CRC included. */
export function symbolBytes(f: SymbolFields): Uint8Array {
  const out = new Uint8Array(symbolLength(f.link));
  encodeSymbol(f, out, 0);
  return out;
}
