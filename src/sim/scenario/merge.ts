/**
 * Variants (issue 7 §3/§5: the built-in scenario "run three ways"): a variant is the base scenario
 * deep-merged with its `overrides`. Mappings merge key by key; anything else (a list, a number, a
 * string, null) replaces what the base had, so `switch: {congestion: null}` switches Part 9 off
 * and a `traffic` list replaces the base's list whole (entries have no identity to merge by).
 */

function isMapping(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepMerge(base: unknown, overrides: unknown): unknown {
  if (!isMapping(base) || !isMapping(overrides)) return overrides;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overrides)) out[k] = k in base ? deepMerge(base[k], v) : v;
  return out;
}
