/**
 * Builds the features an end point's configuration asks for (endpoint-feature.ts), in a fixed
 * order: session management first (it opens the streams the others then act on), then flow
 * arbitration, then traffic management.
 */
import { ArbitrationFeature } from './endpoint-arbitration.ts';
import type { EndpointFeature, FeatureHost } from './endpoint-feature.ts';
import { SessionFeature } from './endpoint-session.ts';
import { TmFeature } from './endpoint-tm.ts';
import type { EndpointConfig } from './endpoint-types.ts';

/** `host()` is called once per feature, in order: each feature has its own host (its own timers). */
export function makeEndpointFeatures(c: EndpointConfig, host: () => FeatureHost): EndpointFeature[] {
  const out: EndpointFeature[] = [];
  if (c.session !== undefined) out.push(new SessionFeature(host(), c.session));
  if (c.arbitration !== undefined) out.push(new ArbitrationFeature(host(), c.arbitration));
  if (c.tm !== undefined) out.push(new TmFeature(host(), c.tm));
  const owner = new Map<string, string>();
  for (const f of out) {
    for (const k of f.kinds) {
      const other = owner.get(k);
      if (other !== undefined) throw new RangeError(`${c.name}: ${f.name} and ${other} both take '${k}' packets`);
      owner.set(k, f.name);
    }
  }
  return out;
}
