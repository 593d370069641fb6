/**
 * One comparison run: records written as a riodp capture, read once by tshark with the dissector,
 * and each record's fields and expert infos compared with riodp's own decoding of it.
 */
import { join } from 'node:path';
import { toHex } from '../../src/wire/hex.ts';
import { compare } from './compare.ts';
import { reference } from './reference.ts';
import type { Reference, VoqPrefs } from './reference.ts';
import { dissect, findTshark, scratch, writeCapture } from './tshark.ts';

/** What a run found. */
export interface RunResult {
  readonly refs: readonly Reference[];
  /** One line per record that disagrees (the first few), with its bytes. */
  readonly mismatches: readonly string[];
  readonly bad: number;
  readonly ms: number;
}

export const SEED_PREFS: VoqPrefs = { voqFormat: 'seed', voqGroupSize: 0 };

const tshark = findTshark();
const dir = scratch();
process.on('exit', dir.done);

/** Fails with a clear message when tshark is missing (CI installs it). */
export function tsharkPath(): string {
  if (tshark.path === undefined) throw new Error(tshark.missing);
  return tshark.path;
}

/** Writes `records` to a capture named `name`, runs tshark with `prefs` and compares every record. */
export async function run(name: string, records: readonly Uint8Array[], prefs: VoqPrefs = SEED_PREFS): Promise<RunResult> {
  const file = join(dir.dir, `${name}.pcapng`);
  writeCapture(file, records);
  return runFile(file, records, prefs);
}

/** Runs tshark over the capture `file`, whose records are `records` in file order, and compares every record. */
export async function runFile(file: string, records: readonly Uint8Array[], prefs: VoqPrefs = SEED_PREFS): Promise<RunResult> {
  const path = tsharkPath();
  const t0 = Date.now();
  const shown = await dissect(path, file, { 'riodp.voq_format': prefs.voqFormat, 'riodp.voq_group_size': String(prefs.voqGroupSize) });
  const ms = Date.now() - t0;
  if (shown.length !== records.length) throw new Error(`tshark printed ${shown.length} frames for ${records.length} records`);
  const refs = records.map((r) => reference(r, prefs));
  const mismatches: string[] = [];
  let bad = 0;
  refs.forEach((ref, i) => {
    const m = compare(ref, shown[i] as Map<string, string[]>);
    if (m.length === 0) return;
    bad++;
    if (mismatches.length < 8) mismatches.push(`record ${i + 1} ${toHex(records[i] as Uint8Array)}:\n    ${m.join('\n    ')}`);
  });
  return { refs, mismatches, bad, ms };
}

/** The values riodp printed for field `name` over all records (a coverage check). */
export function seen(refs: readonly Reference[], name: string): Set<unknown> {
  const out = new Set<unknown>();
  for (const r of refs) for (const v of r.fields.get(name) ?? []) out.add(v);
  return out;
}

/** How many records riodp printed field `name` for. */
export function count(refs: readonly Reference[], name: string): number {
  return refs.filter((r) => r.fields.has(name)).length;
}
