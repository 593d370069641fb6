import { toHex } from '../../wire/hex.ts';

/**
 * JSON output of `riodp decode --json`, free of zod so that decoding never loads it: byte arrays
 * become hex strings; everything else is kept.
 */
export function toJsonValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return toHex(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toJsonValue(v);
    return out;
  }
  return value;
}
