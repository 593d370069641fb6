import { featureNumbers, featuresOfAny } from '../sim/scenario/feature-summary.ts';
import type { EndpointFeatureName, FeatureNumbers } from '../sim/scenario/feature-summary.ts';
import type { ReplicatedMetric } from '../sim/scenario/replications.ts';
import type { ScenarioRun } from '../sim/scenario/run.ts';
import { formatTime } from '../sim/scenario/units.ts';

/**
 * The short summary `riodp sim` prints (issue 7 §5 "prints a short summary"): per variant, each
 * flow group's delivered payload rate and p99 packet latency, and the CCPs and VoQ symbols the
 * fabric sent; then, for each end point feature some variant runs (feature-summary.ts), its
 * columns: flow arbitration's REQUESTs sent and grants (XON(ARB)) received, the TM messages sent
 * and received, the session streams opened and their flows' mean setup time. A variant without
 * the feature shows "-" there. `--json` prints the same numbers as one JSON object. A variant run
 * with `replications` (issue 20) shows the rate and p99 as "mean±half-width" of the 95 %
 * confidence interval over its replications, and its JSON gains their summary.
 */

function fixed(v: number, digits: number): string {
  return Number.isFinite(v) ? v.toFixed(digits) : '-';
}

const FEATURE_HEADERS: Readonly<Record<EndpointFeatureName, readonly string[]>> = {
  session: ['streams opened', 'mean setup µs'],
  arbitration: ['REQUESTs', 'XON(ARB)'],
  tm: ['TM sent', 'TM received'],
};

function featureCells(f: FeatureNumbers, feature: EndpointFeatureName): string[] {
  if (feature === 'arbitration') return f.arbitration === undefined ? ['-', '-'] : [String(f.arbitration.requestsSent), String(f.arbitration.grantsReceived)];
  if (feature === 'tm') return f.tm === undefined ? ['-', '-'] : [String(f.tm.messagesSent), String(f.tm.messagesReceived)];
  if (f.session === undefined) return ['-', '-'];
  return [String(f.session.streamsOpened), f.session.meanSetupPs === null ? '-' : fixed(f.session.meanSetupPs / 1e6, 2)];
}

/** "9.113±0.042": a replicated metric's mean and half-width, scaled. */
function interval(m: ReplicatedMetric | null | undefined, scale: number, digits: number): string | undefined {
  return m == null ? undefined : `${fixed(m.mean / scale, digits)}±${fixed(m.halfWidth / scale, digits)}`;
}

export function summaryTable(run: ScenarioRun, index: string, wallSeconds: number): string {
  const groups = run.variants[0]?.groups.map((g) => g.name) ?? [];
  const features = featuresOfAny(run.variants);
  const header = ['variant', ...groups.flatMap((g) => [`${g} Gbit/s`, `${g} p99 µs`]), 'CCPs', 'VoQ symbols', ...features.flatMap((f) => FEATURE_HEADERS[f])];
  const rows = run.variants.map((v) => [
    v.name,
    ...groups.flatMap((name) => {
      const g = v.groups.find((x) => x.name === name);
      const r = v.replications?.groups.find((x) => x.name === name);
      return g === undefined ? ['-', '-'] : [interval(r?.deliveredBps, 1e9, 3) ?? fixed(g.deliveredBps / 1e9, 3), interval(r?.latencyP99, 1e6, 1) ?? fixed(g.packetLatency.p99 / 1e6, 1)];
    }),
    String(v.results.headline.ccpsSent),
    String(v.results.headline.voqSymbols),
    ...features.flatMap((f) => featureCells(featureNumbers(v), f)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [
    `${run.name}: ${run.variants.length} variant${run.variants.length === 1 ? '' : 's'} of ${formatTime(run.variants[0]?.duration ?? 0)} simulated in ${wallSeconds.toFixed(1)} s`,
    ...(run.variants.some((v) => v.replications !== undefined) ? [`replications: mean±half-width of the 95 % confidence interval over ${run.variants.map((v) => v.replications?.n ?? 1).join(', ')} runs`] : []),
    line(header),
    ...rows.map(line),
    `report: ${index}`,
    '',
  ].join('\n');
}

export function summaryJson(run: ScenarioRun, index: string, files: readonly string[], wallSeconds: number): unknown {
  return {
    scenario: run.name,
    report: index,
    files,
    wallSeconds,
    variants: run.variants.map((v) => ({
      name: v.name,
      seed: v.seed,
      groups: v.groups.map((g) => ({
        name: g.name, offeredBps: g.offeredBps, deliveredBps: g.deliveredBps, deliveredFraction: g.deliveredFraction, p99LatencyPs: g.packetLatency.p99,
      })),
      ccpsSent: v.results.headline.ccpsSent,
      ccpDrops: v.results.headline.ccpDrops,
      voqSymbols: v.results.headline.voqSymbols,
      pduDefects: v.results.headline.pduDefects,
      // Present only for the features the variant runs.
      ...featureNumbers(v),
      ...(v.replications === undefined ? {} : { replications: v.replications }),
    })),
  };
}
