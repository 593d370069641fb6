import { toJsonValue } from '../json/output.ts';
import { instantiate } from './adapter.ts';
import type { EngineAdapter, EngineOutput, FieldDoc, KindDoc, ModelInstance } from './adapter.ts';
import { validateConfig } from './config.ts';
import type { EngineName } from './names.ts';

/**
 * The engine registry of `riodp model`: each adapter (and the engine behind it) is imported only
 * when its engine runs, so that one engine's start-up does not load the others.
 */
export interface LoadedEngine {
  readonly name: EngineName;
  readonly fields: readonly FieldDoc[];
  readonly kinds: readonly KindDoc[];
  /** Validates a parsed config file; the engine's own constructor checks count as config errors too. */
  configure(raw: unknown, lenient: boolean): Configured;
}

export type Configured =
  | { readonly ok: true; readonly effective: unknown; readonly instance: ModelInstance }
  | { readonly ok: false; readonly errors: readonly string[] };

/** An adapter as the registry hands it out (exported for tests). */
export function wrap<C, I, O extends EngineOutput>(adapter: EngineAdapter<C, I, O>): LoadedEngine {
  return {
    name: adapter.name,
    fields: adapter.fields,
    kinds: adapter.kinds,
    configure(raw, lenient) {
      const r = validateConfig(adapter.config, raw);
      if (!r.ok) return r;
      try {
        return { ok: true, effective: toJsonValue(r.config), instance: instantiate(adapter, r.config, lenient) };
      } catch (e) {
        // The engine validates its config as well ("RangeError with a one-line message naming the field").
        if (e instanceof RangeError) return { ok: false, errors: [`config: ${e.message}`] };
        throw e;
      }
    },
  };
}

export async function loadEngine(name: EngineName): Promise<LoadedEngine> {
  switch (name) {
    case 'ccp-endpoint':
      return wrap((await import('./ccp-endpoint.ts')).ccpEndpointAdapter);
    case 'congestion-point':
      return wrap((await import('./congestion-point.ts')).congestionPointAdapter);
    case 'arb-tx':
      return wrap((await import('./arb-tx.ts')).arbTxAdapter);
    case 'arb-rx':
      return wrap((await import('./arb-rx.ts')).arbRxAdapter);
    case 'segmenter':
      return wrap((await import('./segmenter.ts')).segmenterAdapter);
    case 'reassembler':
      return wrap((await import('./reassembler.ts')).reassemblerAdapter);
    case 'tm-ingress':
      return wrap((await import('./tm-ingress.ts')).tmIngressAdapter);
    case 'tm-egress':
      return wrap((await import('./tm-egress.ts')).tmEgressAdapter);
    case 'voq-gen':
      return wrap((await import('./voq-gen.ts')).voqGenAdapter);
    case 'voq-rx':
      return wrap((await import('./voq-rx.ts')).voqRxAdapter);
    case 'smp':
      return wrap((await import('./smp.ts')).smpAdapter);
  }
}
