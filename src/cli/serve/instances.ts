import { ModelDriver } from '../model/driver.ts';
import { loadEngine } from '../model/engines.ts';
import type { LoadedEngine } from '../model/engines.ts';
import { InputError } from '../model/input-error.ts';
import { ENGINE_NAMES, ENGINE_SUMMARIES, MODEL_SCHEMA } from '../model/names.ts';
import type { EngineName } from '../model/names.ts';
import { ServeError, bool, object, onlyFields, oneOf, optionalInt, str } from './request.ts';
import type { Request } from './request.ts';

/**
 * The engine instances of one `riodp serve` client: `riodp model`'s engines (model/engines.ts),
 * each run by `riodp model`'s driver (model/driver.ts), which owns its clock and timers, so that
 * an instance answers an input exactly as `riodp model` answers the same line. Instances belong to
 * the connection that created them: another client cannot see or change them, and they go when
 * their connection closes.
 */

type Line = Readonly<Record<string, unknown>>;

class Instance {
  readonly engine: EngineName;
  readonly driver: ModelDriver;
  #out: Line[] = [];

  constructor(engine: EngineName, loaded: LoadedEngine, configured: Extract<ReturnType<LoadedEngine['configure']>, { ok: true }>, maxExpiries: number | undefined) {
    this.engine = engine;
    const header = { schema: MODEL_SCHEMA, engine, config: configured.effective };
    this.driver = new ModelDriver(configured.instance, loaded.name, header, {
      out: (line) => { this.#out.push(line); },
      // Every error the driver reports also comes as an output line ({"kind":"error"}): that one is answered.
      err: () => undefined,
    }, maxExpiries === undefined ? {} : { maxExpiries });
  }

  /** The lines the driver printed since the last call. */
  take(): Line[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }
}

/** Adapters load once per process (an import each); after that `create` answers synchronously. */
const loaded = new Map<EngineName, LoadedEngine>();

function engineOf(name: EngineName): LoadedEngine | Promise<LoadedEngine> {
  return loaded.get(name) ?? loadEngine(name).then((e) => {
    loaded.set(name, e);
    return e;
  });
}

/** A driver's InputError as the error response: its field path, as seen from the request. */
function inputError(e: InputError): ServeError {
  if (e.path === '') return new ServeError('input', e.message);
  return new ServeError('input', `${e.message} (${e.path === 't' ? 't' : `input.${e.path}`})`);
}

export class Instances {
  readonly #map = new Map<string, Instance>();

  /** `{"op":"create","instance","engine","config"?,"lenient"?,"maxExpiries"?}`: `{"instance","header"}`. */
  create(req: Request): Record<string, unknown> | Promise<Record<string, unknown>> {
    onlyFields(req, ['instance', 'engine', 'config', 'lenient', 'maxExpiries']);
    const name = str(req, 'instance');
    const engine = oneOf(req, 'engine', ENGINE_NAMES);
    const config = object(req, 'config', {});
    const lenient = bool(req, 'lenient', false);
    const maxExpiries = optionalInt(req, 'maxExpiries', 1);
    this.#free(name);
    const e = engineOf(engine);
    const make = (l: LoadedEngine): Record<string, unknown> => {
      // Checked again: another request may have taken the name while the engine loaded.
      this.#free(name);
      const configured = l.configure(config, lenient);
      if (!configured.ok) throw new ServeError('config', configured.errors.join('; '), { errors: configured.errors });
      const inst = new Instance(engine, l, configured, maxExpiries);
      inst.driver.start();
      this.#map.set(name, inst);
      return { instance: name, header: inst.take()[0] };
    };
    return e instanceof Promise ? e.then(make) : make(e);
  }

  /** `{"op":"input","instance","t","input"?}`: `{"outputs":[…]}`, the lines `riodp model` prints for the line `{"t":t,…input}`. */
  input(req: Request): Record<string, unknown> {
    onlyFields(req, ['instance', 't', 'input']);
    const inst = this.#get(req);
    const input = object(req, 'input', {});
    if ('t' in input) throw new ServeError('request', "the time is the request's t, not a field of input (input.t)");
    if (inst.driver.stopped) throw new ServeError('stopped', 'the instance stopped after its timer loop guard (maxExpiries): delete it');
    try {
      inst.driver.input({ t: req['t'], ...input });
    } catch (e) {
      if (e instanceof InputError) throw inputError(e);
      throw e;
    }
    return { outputs: inst.take() };
  }

  /** `{"op":"snapshot","instance"}`: the state a `query` would print, now, with the pending timers; no time passes. */
  snapshot(req: Request): Record<string, unknown> {
    onlyFields(req, ['instance']);
    const { driver } = this.#get(req);
    const { t, state, counters } = driver.state();
    return { t, state, counters, pending: driver.pending() };
  }

  /** `{"op":"counters","instance"}`: the engine's counters now. */
  counters(req: Request): Record<string, unknown> {
    onlyFields(req, ['instance']);
    const { driver } = this.#get(req);
    const { t, counters } = driver.state();
    return { t, counters };
  }

  /** `{"op":"delete","instance","until"?}`: `{"outputs":[…]}`, the end of a `riodp model` run (`--until`, the end line). */
  delete(req: Request): Record<string, unknown> {
    onlyFields(req, ['instance', 'until']);
    const until = optionalInt(req, 'until', 0);
    const inst = this.#get(req);
    this.#map.delete(str(req, 'instance'));
    inst.driver.finish(until);
    return { outputs: inst.take() };
  }

  /** `{"op":"list"}`: this client's instances, in creation order. */
  list(req: Request): Record<string, unknown> {
    onlyFields(req, []);
    return { instances: [...this.#map].map(([instance, { engine, driver }]) => ({ instance, engine, t: driver.now })) };
  }

  /** The connection closed: its instances go. */
  clear(): void {
    this.#map.clear();
  }

  get size(): number {
    return this.#map.size;
  }

  #get(req: Request): Instance {
    const name = str(req, 'instance');
    const inst = this.#map.get(name);
    if (inst === undefined) throw new ServeError('instance', `no instance ${JSON.stringify(name)} (instance)`);
    return inst;
  }

  #free(name: string): void {
    if (this.#map.has(name)) throw new ServeError('exists', `instance ${JSON.stringify(name)} exists: delete it first (instance)`);
  }
}

/** `{"op":"describe","engine"}`: `riodp model <engine> --describe` as data. */
export function describeOp(req: Request): Record<string, unknown> | Promise<Record<string, unknown>> {
  onlyFields(req, ['engine']);
  const engine = oneOf(req, 'engine', ENGINE_NAMES);
  const answer = (l: LoadedEngine): Record<string, unknown> => ({ engine, summary: ENGINE_SUMMARIES[engine], schema: MODEL_SCHEMA, fields: l.fields, kinds: l.kinds });
  const e = engineOf(engine);
  return e instanceof Promise ? e.then(answer) : answer(e);
}
