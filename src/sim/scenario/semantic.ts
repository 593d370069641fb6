import type { Fabric } from '../topology/types.ts';
import type { Issue } from '../../config/issues.ts';
import { isFixedPattern, patternMap, patternRefusal } from '../traffic/permutations.ts';
import { linkPattern } from './link-match.ts';
import type { RunConfig } from './schema.ts';
import { checkSwitchOverrides } from './switch-overrides.ts';

/**
 * The checks that need the built topology: every host ID a traffic entry names exists, every
 * source has somewhere to send, device IDs fit the transport size, and every link override
 * matches a link (a pattern that matches nothing is a typo, not a no-op).
 */

/** Part 3 §2.4: Dev8 carries 8-bit device IDs. */
const DEV8_HOSTS = 256;

/** Part 10 Table 4-1 length "0x0000 - 64kbytes": the segmenter refuses a longer PDU. */
const SAR_PDU_MAX = 65_536;

function largestSize(sizes: RunConfig['traffic'][number]['sizes']): number {
  if (typeof sizes === 'number') return sizes;
  if (Array.isArray(sizes)) return Math.max(...sizes.map((s) => s.bytes));
  return (sizes as { max: number }).max;
}

export function checkAgainstFabric(c: RunConfig, fabric: Fabric): Issue[] {
  const out: Issue[] = [];
  const n = fabric.hosts.length;
  const hostWhat = `a host ID 0..${n - 1} (the topology has ${n} hosts)`;
  const checkId = (id: number | undefined, path: string): void => {
    if (id !== undefined && id >= n) out.push({ path, message: `expected ${hostWhat}` });
  };
  if (c.tt === 0 && n > DEV8_HOSTS) out.push({ path: 'tt', message: `expected 1 (Dev16): ${n} hosts do not fit 8-bit device IDs` });
  c.traffic.forEach((t, i) => {
    const p = `traffic.${i}`;
    t.sources?.forEach((id, k) => { checkId(id, `${p}.sources.${k}`); });
    t.destinations?.forEach((id, k) => { checkId(id, `${p}.destinations.${k}`); });
    checkId(t.hotspot, `${p}.hotspot`);
    checkId(t.sink, `${p}.sink`);
    if (c.endpoints.sar && largestSize(t.sizes) > SAR_PDU_MAX) out.push({ path: `${p}.sizes`, message: `expected PDUs of at most ${SAR_PDU_MAX} bytes with endpoints.sar (Part 10 Table 4-1)` });
    const sources = new Set(t.sources ?? fabric.hosts.map((h) => h.id));
    if (t.pattern === 'incast' && t.sink !== undefined) sources.delete(t.sink);
    if (sources.size === 0) out.push({ path: `${p}.sources`, message: 'expected at least one source other than the sink' });
    if (t.pattern === 'permutation' && sources.size < 2) out.push({ path: `${p}.sources`, message: 'expected at least two sources for a permutation' });
    if (isFixedPattern(t.pattern)) {
      const refusal = patternRefusal(t.pattern, n);
      if (refusal !== undefined) out.push({ path: `${p}.pattern`, message: refusal });
      else if ([...sources].every((s) => s < n) && patternMap(t.pattern, [...sources], n).size === 0) {
        out.push({ path: `${p}.sources`, message: `expected a source whose ${t.pattern} image is another host (over ${n} hosts each source given is its own image)` });
      }
    }
    if (t.pattern === 'uniform' || t.pattern === 'onoff' || t.pattern === 'hotspot') {
      const dsts = new Set(t.destinations ?? fabric.hosts.map((h) => h.id));
      if (t.pattern === 'hotspot' && t.hotspot !== undefined) dsts.add(t.hotspot);
      for (const s of sources) {
        if (dsts.size === 0 || (dsts.size === 1 && dsts.has(s))) {
          out.push({ path: `${p}.destinations`, message: `expected a destination other than source ${s}` });
          break;
        }
      }
    }
  });
  c.linkOverrides.forEach((o, i) => {
    const re = linkPattern(o.match);
    if (!fabric.links.some((l) => re.test(l.name))) {
      const examples = fabric.links.slice(0, 2).map((l) => l.name).concat(fabric.links.find((l) => l.kind === 'fabric')?.name ?? []);
      out.push({ path: `linkOverrides.${i}.match`, message: `expected a link name or pattern that matches a link (names look like ${examples.join(', ')})` });
    }
  });
  out.push(...checkSwitchOverrides(c, fabric));
  return out;
}
