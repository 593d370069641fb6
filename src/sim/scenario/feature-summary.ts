import type { EndpointSettings } from './schema.ts';

/**
 * The numbers of the end point features a variant runs (issue 7 §2 "traffic management, flow
 * arbitration, and optionally session management"), read from the results' fabric-wide counts
 * (every feature reports its counters to the probe as `arb.<name>`, `tm.<name>`,
 * `session.<name>`): what `riodp sim` prints in its summary and the report shows among the
 * headline numbers. Only the features a variant runs get numbers, so that "0 REQUESTs" means
 * arbitration that never asked, not arbitration that was off.
 *
 * - Flow arbitration (Part 9 §2.4.7): REQUESTs sent (`arb.requests`, new ones, not the re-sent)
 *   and grants received (`arb.granted`, XON(ARB) that gave a flow its grant).
 * - Traffic management (Part 10 §3.4): TM messages sent (`tm.messages`) and received
 *   (`tm.received`) by the end points.
 * - Session management (Annex 2): streams opened (`session.opened`, counted by the end point that
 *   opened them) and the mean setup time of the flows they let go (`session.setupTime` /
 *   `session.flowsOpened`: from the flow's creation to its stream's opening), null when no flow
 *   was let go.
 */

export const ENDPOINT_FEATURES = ['session', 'arbitration', 'tm'] as const;
export type EndpointFeatureName = (typeof ENDPOINT_FEATURES)[number];

export interface FeatureNumbers {
  readonly arbitration?: { readonly requestsSent: number; readonly grantsReceived: number };
  readonly tm?: { readonly messagesSent: number; readonly messagesReceived: number };
  /** `meanSetupPs`: the mean setup time in ps. */
  readonly session?: { readonly streamsOpened: number; readonly flowsOpened: number; readonly meanSetupPs: number | null };
}

/** What `featureNumbers` reads of a variant's run (run.ts VariantRun). */
export interface FeatureRun {
  readonly features?: readonly EndpointFeatureName[];
  readonly results: { readonly counts: Readonly<Record<string, number>> };
}

/** The features a variant's end point settings turn on, in ENDPOINT_FEATURES order. */
export function endpointFeatures(e: Pick<EndpointSettings, EndpointFeatureName>): EndpointFeatureName[] {
  return ENDPOINT_FEATURES.filter((f) => e[f] !== undefined);
}

export function featureNumbers(v: FeatureRun): FeatureNumbers {
  const on = new Set(v.features ?? []);
  const c = (name: string): number => v.results.counts[name] ?? 0;
  const flowsOpened = c('session.flowsOpened');
  return {
    ...(on.has('arbitration') ? { arbitration: { requestsSent: c('arb.requests'), grantsReceived: c('arb.granted') } } : {}),
    ...(on.has('tm') ? { tm: { messagesSent: c('tm.messages'), messagesReceived: c('tm.received') } } : {}),
    ...(on.has('session') ? { session: { streamsOpened: c('session.opened'), flowsOpened, meanSetupPs: flowsOpened === 0 ? null : c('session.setupTime') / flowsOpened } } : {}),
  };
}

/** The features any of `runs` has, in ENDPOINT_FEATURES order: the columns a summary shows. */
export function featuresOfAny(runs: readonly FeatureRun[]): EndpointFeatureName[] {
  return ENDPOINT_FEATURES.filter((f) => runs.some((v) => v.features?.includes(f) === true));
}
