import { LINKS } from '../wire/symbol-types.ts';
import type { Link } from '../wire/symbol-types.ts';
import { LINK_CS64 } from '../wire/symbol64-types.ts';
import type { Link64 } from '../wire/symbol64-types.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';

/**
 * The codec options of `riodp decode` and `riodp encode`, shared by their command line (main.ts)
 * and by `riodp serve`'s decode and encode requests. Free of commander and zod: serve loads it.
 */
export const LAYERS = ['serial', 'transport', 'symbol', 'smp'] as const;
export type Layer = (typeof LAYERS)[number];

/** `--link`: the control symbol of the link, Control Symbol 24, 48 or 64 (Part 6 §3.1). */
export const CLI_LINKS = [...LINKS, LINK_CS64] as const;
export type CliLink = Link | Link64;

export interface CodecFlags {
  readonly layer: Layer;
  readonly link: CliLink;
  readonly voqFormat: VoqFormat;
  readonly voqGroupSize?: number;
  readonly lenient: boolean;
}

/** Part 12 Port Group Size is a bit count, 0 (the reset value) to 6; 7 is reserved. */
export function isPortGroupSize(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 6;
}
