import { VOQ_CS64 } from '../../wire/voq-cs64.ts';
import type { VoqMessageIn } from './voq-staging.ts';

/**
 * The VoQ backpressure message a received control symbol carries, as the staging engines take it,
 * or null: a CS48 symbol's stype2 field when it is not NOP (VoQ Backpressure §3: stype2 0 carries
 * no message), a CS64 symbol whose stype0 is VoQ-backpressure (Part 12 §3.2, 0b1101).
 */
export function voqMessageOf(symbol: unknown): VoqMessageIn | null {
  if (typeof symbol !== 'object' || symbol === null) return null;
  const s = symbol as { readonly link?: unknown; readonly stype0?: unknown; readonly stype2?: unknown };
  if (s.link === 'cs48') return typeof s.stype2 === 'number' && s.stype2 !== 0 ? { stype2: s.stype2 } : null;
  if (s.link === 'cs64' && s.stype0 === VOQ_CS64.stype0) return { cs64: symbol };
  return null;
}
