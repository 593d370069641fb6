/**
 * The comparison of one record: every field riodp prints (reference.ts) against what tshark shows
 * with the dissector (tshark.ts), and the dissector's expert infos against riodp's verdict.
 */
import type { Reference } from './reference.ts';
import type { Dissected } from './tshark.ts';

/** Fields the dissector adds that riodp's JSON has no key for: the record's length field. */
const EXTRA = new Set(['riodp.length']);
const EXPERT = 'riodp.expert.';

/** Whether tshark's text for a field equals riodp's JSON value. */
export function sameValue(riodp: unknown, shown: string): boolean {
  if (typeof riodp === 'number') {
    const n = Number(shown);
    if (Number.isInteger(riodp)) return n === riodp;
    // Doubles: tshark prints 15 significant digits (%.15g), JSON the shortest exact form.
    return Math.abs(n - riodp) <= 1e-12 * Math.max(1, Math.abs(riodp));
  }
  // Byte strings: riodp prints hex, tshark colon-separated hex.
  return shown === riodp || (typeof riodp === 'string' && shown.replace(/:/g, '') === riodp);
}

/** The experts a record should raise, by riodp's verdict (docs/pcapng.md "Wireshark dissector"). */
export function expectedExperts(ref: Reference): { crc: boolean; malformed: boolean; reserved: boolean; smp: boolean } {
  const crc = ref.error?.code === 'crc';
  const malformed = ref.error !== undefined && !crc;
  return { crc, malformed, reserved: ref.error === undefined && ref.strictError !== undefined, smp: ref.smpStrictError !== undefined };
}

/** Mismatches between riodp and tshark for one record; empty when they agree. */
export function compare(ref: Reference, shown: Dissected): string[] {
  const out: string[] = [];
  for (const [name, values] of ref.fields) {
    const got = shown.get(name) ?? [];
    if (got.length !== values.length || values.some((v, i) => !sameValue(v, got[i] as string))) {
      out.push(`${name}: riodp ${JSON.stringify(values)}, tshark ${JSON.stringify(got)}`);
    }
  }
  const want = expectedExperts(ref);
  for (const e of ['crc', 'malformed', 'reserved', 'smp'] as const) {
    const has = shown.has(`${EXPERT}${e}`);
    if (has !== want[e]) {
      const strictWhy = e === 'smp' ? ref.smpStrictError : ref.strictError;
      const why = e === 'reserved' || e === 'smp' ? (strictWhy?.message ?? 'strict decoding accepts it') : (ref.error?.message ?? 'riodp decodes it');
      out.push(`${EXPERT}${e}: tshark ${has ? 'raises' : 'does not raise'} it; riodp: ${why}`);
    }
  }
  // Fields the dissector shows that riodp does not print (only checked where riodp decodes the record).
  if (ref.error === undefined) {
    for (const name of shown.keys()) {
      if (!ref.fields.has(name) && !EXTRA.has(name) && !name.startsWith(EXPERT)) out.push(`${name}: shown by tshark ${JSON.stringify(shown.get(name))}, not printed by riodp`);
    }
  }
  return out;
}
