/**
 * Builds the features an end point's configuration asks for (feature.ts), in a fixed
 * order: session management first (it opens the streams the others then act on), then flow
 * arbitration, then traffic management.
 */
import { ArbitrationFeature } from './arbitration.ts';
import type { EndpointFeature, FeatureHost } from './feature.ts';
import { SessionFeature } from './session.ts';
import { TmFeature } from './tm.ts';
import type { EndpointArbitrationConfig } from './arbitration-config.ts';
import type { EndpointSessionConfig } from './session-config.ts';
import type { EndpointTmConfig } from './tm.ts';

/** The feature sections of an end point's configuration. */
export interface EndpointFeatureConfig {
  /** Names the end point in messages. */
  readonly name: string;
  readonly session?: EndpointSessionConfig;
  readonly arbitration?: EndpointArbitrationConfig;
  readonly tm?: EndpointTmConfig;
}

/** `host()` is called once per feature, in order: each feature has its own host (its own timers). */
export function makeEndpointFeatures(c: EndpointFeatureConfig, host: () => FeatureHost): EndpointFeature[] {
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
