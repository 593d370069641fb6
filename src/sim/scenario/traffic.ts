import { flowNumberKey } from '../fabric/endpoint-flows.ts';
import type { RandomStreams } from '../kernel/random.ts';
import type { EndpointTraffic } from '../fabric/endpoint-types.ts';
import { derangement, incast, makeDestinations } from '../traffic/destinations.ts';
import type { DestinationSpec } from '../traffic/destinations.ts';
import { patternMap } from '../traffic/permutations.ts';
import type { ArrivalSpec } from '../traffic/generator.ts';
import type { SizeSpec } from '../traffic/sizes.ts';
import type { Fabric } from '../topology/types.ts';
import type { RunConfig, TrafficEntry } from './schema.ts';

/**
 * A scenario's traffic entries (issue 7 §3 "Traffic: uniform Bernoulli, hotspot fraction h,
 * permutation, incast, bursty on/off; PDU size distributions; per-source offered load") turned
 * into the traffic sources of each end point (src/sim/traffic/, driven by endpoint-source.ts).
 *
 * - uniform: every source draws among `destinations` (default every host) other than itself.
 * - hotspot: Pfister & Norton; a fraction h to `hotspot`, the rest uniform over `destinations`
 *   with the hotspot added to them (traffic/destinations.ts).
 * - permutation: a derangement of the sources (default every host), drawn from the stream
 *   `traffic:<i>:permutation`, so it is the same for every variant of one seed.
 * - incast: every source (default every host but the sink) to `sink`.
 * - onoff: uniform destinations with bursty on/off arrivals (a burst goes to one destination).
 * - transpose, bit-complement, bit-reverse, shuffle, tornado, neighbour (issue 21; Dally & Towles
 *   §3.2): each source's fixed image over all N hosts (traffic/permutations.ts), whatever
 *   `sources` holds; a source that is its own image sends nothing. No random draw.
 * Arrivals are per-PDU-time Bernoulli unless `arrival` says otherwise (onoff for `onoff`).
 *
 * Groups: an entry's flows belong to its `group` (default: the pattern's name). A flow is
 * (source, destination, prio, CRF); when two entries could send on one flow it belongs to the
 * group of the first entry in the file.
 */

export interface ExpandedTraffic {
  /** perHost[id]: the traffic sources of host id, in entry order. */
  readonly perHost: readonly EndpointTraffic[][];
  readonly groups: readonly string[];
  /** `flowNumberKey(src, dst, prio, crf)` → index into `groups`. */
  readonly flowGroups: ReadonlyMap<number, number>;
}

function sizeSpec(s: TrafficEntry['sizes']): SizeSpec {
  if (typeof s === 'number') return { kind: 'fixed', bytes: s };
  if (Array.isArray(s)) return { kind: 'empirical', values: s.map((v: { bytes: number; weight: number }) => ({ bytes: v.bytes, weight: v.weight })) };
  const r = s;
  return { kind: 'uniform', min: r.min, max: r.max };
}

function arrivalSpec(t: TrafficEntry): ArrivalSpec {
  const kind = t.arrival ?? (t.pattern === 'onoff' ? 'onoff' : 'bernoulli');
  if (kind === 'onoff') return { kind: 'onoff', meanBurst: t.meanBurst, peak: t.peak };
  return { kind };
}

/** The destination spec of each source of entry `i`. */
function destinations(t: TrafficEntry, i: number, all: readonly number[], streams: RandomStreams): Map<number, DestinationSpec> {
  const out = new Map<number, DestinationSpec>();
  const dsts = t.destinations ?? all;
  switch (t.pattern) {
    case 'uniform':
    case 'onoff':
      for (const s of t.sources ?? all) out.set(s, { kind: 'uniform', ids: dsts });
      break;
    case 'hotspot': {
      const hotspot = t.hotspot as number;
      const ids = dsts.includes(hotspot) ? dsts : [...dsts, hotspot];
      for (const s of t.sources ?? all) out.set(s, { kind: 'hotspot', ids, hotspot, h: t.h as number });
      break;
    }
    case 'permutation':
      for (const [s, d] of derangement(t.sources ?? all, streams.stream(`traffic:${i}:permutation`))) out.set(s, { kind: 'fixed', dst: d });
      break;
    case 'incast':
      for (const [s, d] of incast(t.sources ?? all, t.sink as number)) out.set(s, { kind: 'fixed', dst: d });
      break;
    default:
      // transpose, bit-complement, bit-reverse, shuffle, tornado, neighbour: over every host.
      for (const [s, d] of patternMap(t.pattern, t.sources ?? all, all.length)) out.set(s, { kind: 'fixed', dst: d });
  }
  return out;
}

export function expandTraffic(c: RunConfig, fabric: Fabric, streams: RandomStreams): ExpandedTraffic {
  const all = fabric.hosts.map((h) => h.id);
  const perHost: EndpointTraffic[][] = all.map(() => []);
  const groups: string[] = [];
  const flowGroups = new Map<number, number>();
  c.traffic.forEach((t, i) => {
    const name = t.group ?? t.pattern;
    let g = groups.indexOf(name);
    if (g < 0) g = groups.push(name) - 1;
    const size = sizeSpec(t.sizes);
    const arrival = arrivalSpec(t);
    for (const [src, dst] of destinations(t, i, all, streams)) {
      const spec: EndpointTraffic = {
        load: t.load, arrival, destinations: dst, size, prio: t.prio as 0 | 1 | 2, crf: t.crf as 0 | 1,
        ...(t.start === undefined ? {} : { start: t.start }),
        ...(t.stop === undefined ? {} : { stop: t.stop }),
      };
      (perHost[src] as EndpointTraffic[]).push(spec);
      for (const d of makeDestinations(dst, src).destinations()) {
        const k = flowNumberKey(src, d, t.prio, t.crf);
        if (!flowGroups.has(k)) flowGroups.set(k, g);
      }
    }
  });
  return { perHost, groups, flowGroups };
}
