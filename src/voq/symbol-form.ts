import { oneOf, orDefault } from '../engine/config-checks.ts';
import { VOQ_SYMBOL_FORMS } from '../wire/voq-cs64.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';

/**
 * The `symbol` config field of the VoQ engines: 'cs48' (default) or 'cs64'. Part 12 §3.2 defines
 * the CS64 form and the seed document has none, so 'cs64' needs format 'part12-rev4.1'
 * (DECISIONS §5).
 */
export function symbolForm(v: unknown, format: VoqFormat): VoqSymbolForm {
  const symbol = oneOf(orDefault(v, 'cs48'), VOQ_SYMBOL_FORMS, 'symbol', 'or');
  if (symbol === 'cs64' && format !== 'part12-rev4.1') throw new RangeError(`symbol must be 'cs48' in the ${format} format`);
  return symbol;
}
