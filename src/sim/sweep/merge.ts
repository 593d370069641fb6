import type { PointResult } from './output.ts';
import { parseResultFile, pointResultOf } from './unit.ts';
import type { GridIdentity, ResultFile } from './unit.ts';

/**
 * Gathers the point results of a grid run in pieces (issue 21 item 1: `riodp sweep --merge`):
 * files written by `--run-point` or by shards, in any order and split any way. They must be of
 * one grid (its identity) and one riodp version, and hold every point; a point found twice is
 * accepted when both files hold the same result (a task run again) and refused otherwise. Each
 * problem is one line.
 */

export interface MergeInput {
  /** The file's name, for messages. */
  readonly name: string;
  readonly text: string;
}

export interface Merged {
  readonly grid: GridIdentity;
  readonly riodp: string;
  /** In point order, one per point. */
  readonly results: readonly PointResult[];
}

/** "2, 5-7, 9": sorted indices with runs collapsed. */
export function indexRanges(indices: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < indices.length) {
    let j = i;
    while (j + 1 < indices.length && (indices[j + 1] as number) === (indices[j] as number) + 1) j++;
    parts.push(i === j ? String(indices[i]) : `${indices[i]}-${indices[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

function describe<K>(groups: Map<K, string[]>, label: (k: K) => string): string {
  return [...groups].map(([k, names]) => `${label(k)} (${names.length} file${names.length === 1 ? '' : 's'}, e.g. ${names[0] ?? ''})`).join(', ');
}

/** The results in point order, or a one-line problem. */
export function mergeResults(inputs: readonly MergeInput[]): Merged | string {
  if (inputs.length === 0) return 'no point result files (*.json) to merge';
  const files: { name: string; file: ResultFile }[] = [];
  for (const input of inputs) {
    const parsed = parseResultFile(input.text);
    if (typeof parsed === 'string') return `${input.name}: ${parsed}`;
    files.push({ name: input.name, file: parsed });
  }
  const byGrid = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const { name, file } of files) {
    byGrid.set(file.grid.id, [...(byGrid.get(file.grid.id) ?? []), name]);
    names.set(file.grid.id, file.grid.name);
  }
  if (byGrid.size > 1) return `results of ${byGrid.size} different grids: ${describe(byGrid, (id) => `"${names.get(id) ?? ''}" ${id}`)}`;
  const byVersion = new Map<string, string[]>();
  for (const { name, file } of files) byVersion.set(file.riodp, [...(byVersion.get(file.riodp) ?? []), name]);
  if (byVersion.size > 1) return `results of ${byVersion.size} riodp versions (a point's result may differ between versions): ${describe(byVersion, (v) => `riodp ${v}`)}`;
  const first = files[0] as { name: string; file: ResultFile };
  const grid = first.file.grid;
  const seen = new Map<number, { name: string; json: string }>();
  for (const { name, file } of files) {
    const json = JSON.stringify(file);
    const before = seen.get(file.index);
    if (before === undefined) seen.set(file.index, { name, json });
    else if (before.json !== json) return `point ${file.index} twice with different results: ${before.name} and ${name}`;
  }
  const missing: number[] = [];
  for (let i = 0; i < grid.points; i++) if (!seen.has(i)) missing.push(i);
  if (missing.length > 0) return `missing point${missing.length === 1 ? '' : 's'} ${indexRanges(missing)} of the ${grid.points} of "${grid.name}"`;
  const results = [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => pointResultOf(JSON.parse(s.json) as ResultFile));
  return { grid, riodp: first.file.riodp, results };
}
