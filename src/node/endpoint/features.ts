/**
 * Builds the features an end point's configuration asks for (feature.ts), in a fixed
 * order: session management first (it opens the streams the others then act on), then flow
 * arbitration, then traffic management.
 */
import { ArbitrationFeature } from './arbitration.ts';
import type { EndpointFeature, FeatureHost } from './feature.ts';
import { SessionFeature } from './session.ts';
import { TmFeature } from './tm.ts';
import type { ArbitrationTimes, EndpointArbitrationConfig } from './arbitration-config.ts';
import type { EndpointSessionConfig } from './session-config.ts';
import type { EndpointTmConfig } from './tm.ts';
import { tmRegisterSettings } from './tm-registers.ts';

/** The feature sections of an end point's configuration. */
export interface EndpointFeatureConfig {
  /** Names the end point in messages. */
  readonly name: string;
  readonly session?: EndpointSessionConfig;
  readonly arbitration?: EndpointArbitrationConfig;
  readonly tm?: EndpointTmConfig;
}

/** What differs between hosts: the defaults of durations that are not the same in every host. */
export interface EndpointFeatureOptions {
  /** Flow arbitration's default timeouts (arbitration-config.ts: SIM_ARB_TIMES by default, FABRIC_ARB_TIMES over TCP). */
  readonly arbitrationTimes?: ArbitrationTimes;
}

/**
 * `host(name)` is called once per feature, in order, with the feature's name: each feature has its
 * own host (its own timers). The flow queues (core.ts) and the session streams
 * (session-features.ts) are the two hosts' sides.
 */
export function makeEndpointFeatures(c: EndpointFeatureConfig, host: (name: string) => FeatureHost, options: EndpointFeatureOptions = {}): EndpointFeature[] {
  const out: EndpointFeature[] = [];
  // One configuration space per end point: session management's, with traffic management's
  // registers in it (tm-registers.ts), else traffic management's own.
  const session = c.session === undefined ? undefined : new SessionFeature(host('session'), c.session, c.tm === undefined ? undefined : tmRegisterSettings(c.tm));
  if (session !== undefined) out.push(session);
  if (c.arbitration !== undefined) out.push(new ArbitrationFeature(host('arbitration'), c.arbitration, options.arbitrationTimes));
  if (c.tm !== undefined) {
    const tm = new TmFeature(host('tm'), c.tm, session?.registers);
    // A MAINTENANCE write of the TM Mode field acts on the engines (tm-mode-register.ts).
    session?.watchWrites((now) => { tm.registersWritten(now); });
    out.push(tm);
  }
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
