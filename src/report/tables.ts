import { escapeHtml } from './escape.ts';
import { formatNumber, NO_VALUE } from './format.ts';
import { percentileLabel, sortPercentileKeys } from './chart-specs.ts';
import type { Reproduction, SweepReport, VariantResult } from './types.ts';

/**
 * The report's tables as HTML. Every table has a caption and header cells with a scope, so a
 * screen reader announces "variant, quantity" for each number.
 */

export interface TableRow {
  readonly label: string;
  readonly values: readonly (number | undefined)[];
}

function numberCell(value: number | undefined, digits?: number): string {
  const text = formatNumber(value, digits);
  return text === NO_VALUE ? `<td class="num missing" title="not measured">${NO_VALUE}</td>` : `<td class="num">${escapeHtml(text)}</td>`;
}

/** Rows of numbers with one column per variant (issue 7 §5: "variants as columns"). */
export function variantTable(caption: string, corner: string, variants: readonly string[], rows: readonly TableRow[]): string {
  const head = [`<th scope="col">${escapeHtml(corner)}</th>`, ...variants.map((v) => `<th scope="col">${escapeHtml(v)}</th>`)].join('');
  const body = rows
    .map((r) => `<tr><th scope="row">${escapeHtml(r.label)}</th>${variants.map((_, i) => numberCell(r.values[i])).join('')}</tr>`)
    .join('\n');
  return `<table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** Labels in first-seen order across the variants; a variant without a label gets an empty cell. */
function unionRows(variants: readonly VariantResult[], pick: (v: VariantResult) => Readonly<Record<string, number>>): TableRow[] {
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const v of variants) {
    for (const label of Object.keys(pick(v))) {
      if (!seen.has(label)) {
        seen.add(label);
        labels.push(label);
      }
    }
  }
  return labels.map((label) => ({
    label,
    values: variants.map((v) => (Object.hasOwn(pick(v), label) ? pick(v)[label] : undefined)),
  }));
}

export function headlineRows(variants: readonly VariantResult[]): TableRow[] {
  return unionRows(variants, (v) => v.headline);
}

export function countRows(variants: readonly VariantResult[]): TableRow[] {
  return unionRows(variants, (v) => v.counts);
}

/** One row per (flow group, statistic): packet count, mean, then the percentiles ascending. */
export function latencyRows(variants: readonly VariantResult[]): TableRow[] {
  const groups: string[] = [];
  const keysByGroup = new Map<string, string[]>();
  for (const v of variants) {
    for (const l of v.latency) {
      let keys = keysByGroup.get(l.name);
      if (keys === undefined) {
        keys = [];
        keysByGroup.set(l.name, keys);
        groups.push(l.name);
      }
      for (const k of Object.keys(l.percentiles)) if (!keys.includes(k)) keys.push(k);
    }
  }
  const rows: TableRow[] = [];
  for (const group of groups) {
    const find = (v: VariantResult) => v.latency.find((l) => l.name === group);
    rows.push({ label: `${group}: packets`, values: variants.map((v) => find(v)?.count) });
    rows.push({ label: `${group}: mean (ns)`, values: variants.map((v) => find(v)?.mean) });
    for (const key of sortPercentileKeys(keysByGroup.get(group) ?? [])) {
      rows.push({
        label: `${group}: ${percentileLabel(key)} (ns)`,
        values: variants.map((v) => {
          const l = find(v);
          return l !== undefined && Object.hasOwn(l.percentiles, key) ? l.percentiles[key] : undefined;
        }),
      });
    }
  }
  return rows;
}

/**
 * issue 7 §4: published vs measured, shown with the tolerance and a verdict in words (not only a
 * colour). Five significant digits: the Karol et al. figures are given to four decimals. The
 * standard error, when given, follows the measured value to two significant digits ("0.6187 ±
 * 0.00071", with no-break spaces): it says how far the figure could move with another seed. The "run" column (seed,
 * run length) appears when any row has one.
 */
export function reproductionTable(reproductions: readonly Reproduction[]): string {
  const passed = reproductions.filter((r) => r.pass).length;
  const caption = `Published results and what this run measured: ${passed} of ${reproductions.length} within tolerance.`;
  const withRun = reproductions.some((r) => r.run !== undefined);
  const body = reproductions
    .map((r) => {
      const verdict = r.pass ? '<td class="pass">pass</td>' : '<td class="fail">fail</td>';
      const run = withRun ? `<td>${escapeHtml(r.run ?? '')}</td>` : '';
      return (
        `<tr><th scope="row">${escapeHtml(r.source)}</th><td>${escapeHtml(r.quantity)}</td>` +
        `${numberCell(r.published, 5)}${measuredCell(r)}<td>${escapeHtml(r.tolerance)}</td>${verdict}${run}</tr>`
      );
    })
    .join('\n');
  const columns = ['source', 'quantity', 'published', 'measured', 'tolerance', 'result', ...(withRun ? ['run'] : [])];
  const head = columns.map((h) => `<th scope="col">${h}</th>`).join('');
  return `<table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

function measuredCell(r: Reproduction): string {
  const value = formatNumber(r.measured, 5);
  if (r.stdErr === undefined || value === NO_VALUE || !Number.isFinite(r.stdErr)) return numberCell(r.measured, 5);
  // No-break spaces: "0.6187 ± 0.00071" stays on one line in a narrow column.
  return `<td class="num">${escapeHtml(`${value}\u00a0±\u00a0${formatNumber(r.stdErr, 2)}`)}</td>`;
}

/**
 * issue 20 replications: one row per metric, one column per variant with its number of runs, each
 * cell "mean ± half-width" of the 95 % confidence interval (no-break spaces, as the reproductions'
 * standard errors); a variant without replications or without the metric gets an empty cell.
 */
export function replicationTable(variants: readonly VariantResult[], names: readonly string[]): string {
  const labels: string[] = [];
  for (const v of variants) for (const l of Object.keys(v.replications?.metrics ?? {})) if (!labels.includes(l)) labels.push(l);
  const cell = (v: VariantResult, label: string): string => {
    const m = v.replications?.metrics[label];
    if (m === undefined || formatNumber(m.mean) === NO_VALUE) return numberCell(undefined);
    return `<td class="num">${escapeHtml(`${formatNumber(m.mean)}\u00a0±\u00a0${formatNumber(m.halfWidth, 2)}`)}</td>`;
  };
  const head = ['<th scope="col">quantity</th>', ...variants.map((v, i) => `<th scope="col">${escapeHtml(`${names[i] ?? v.name} (${v.replications?.n ?? 1} runs)`)}</th>`)].join('');
  const body = labels.map((l) => `<tr><th scope="row">${escapeHtml(l)}</th>${variants.map((v) => cell(v, l)).join('')}</tr>`).join('\n');
  const caption = 'Mean ± half-width of the 95 % confidence interval (Student t) over independent replications with derived seeds.';
  return `<table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** The sweep's grid points: one row each, one column per key in first-seen order. */
export function pointsTable(points: SweepReport['points']): string {
  const keys: string[] = [];
  for (const p of points) for (const k of Object.keys(p)) if (!keys.includes(k)) keys.push(k);
  const head = keys.map((k) => `<th scope="col">${escapeHtml(k)}</th>`).join('');
  const body = points
    .map((p) => {
      const cells = keys.map((k) => {
        const v = Object.hasOwn(p, k) ? p[k] : undefined;
        return typeof v === 'string' ? `<td>${escapeHtml(v)}</td>` : numberCell(v);
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<table>\n<caption>Every grid point and its results (${points.length} runs).</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}
