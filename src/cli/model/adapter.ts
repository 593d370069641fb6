import type { z } from 'zod';
import type { EngineName } from './names.ts';

/**
 * What `riodp model` needs from an engine adapter (one file per engine in this folder): the
 * config schema with the types file's defaults, the input line schema, and how outputs print.
 * The driver (driver.ts) never sees the engine's own types: `instantiate` closes over them.
 */

/** One config field as `--describe` and docs/model.md list it. */
export interface FieldDoc {
  readonly name: string;
  readonly type: string;
  /** The default as the header line prints it, or a phrase ("required", "none: unbounded"). */
  readonly default: string;
  readonly meaning: string;
}

/** One input kind as `--describe` lists it. */
export interface KindDoc {
  readonly kind: string;
  readonly fields: string;
  readonly meaning: string;
}

/** Any engine output: the types files' unions all carry `kind`. */
export interface EngineOutput {
  readonly kind: string;
}

/** The query methods every Part 9 engine exposes besides `handle`. */
export interface InspectableEngine<I, O extends EngineOutput> {
  handle(input: I, now: number): O[];
  counters(): Readonly<Record<string, number>>;
  snapshot(): unknown;
}

export interface ParseContext<C> {
  readonly config: C;
  /** `--lenient`: packets with reserved or undefined values reach the engine, labelled. */
  readonly lenient: boolean;
}

export interface EngineAdapter<C, I, O extends EngineOutput> {
  readonly name: EngineName;
  readonly fields: readonly FieldDoc[];
  readonly kinds: readonly KindDoc[];
  /** Strict schema of the config file; its output is the effective config, defaults filled. */
  readonly config: z.ZodType<C>;
  create(config: C): InspectableEngine<I, O>;
  /** An input line without `t`; throws InputError. */
  parse(line: Readonly<Record<string, unknown>>, ctx: ParseContext<C>): I;
  /** The engine's timer input, for engines that ask for timers. */
  timer(name: string): I | undefined;
  /** One output line's fields (without `t`). */
  render(output: O): Record<string, unknown>;
}

/** A bad input line: `path` is the field (dotted JSON path), `message` what is wrong with it. */
export class InputError extends Error {
  readonly path: string;

  constructor(message: string, path = '') {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.path = path;
  }
}
Object.defineProperty(InputError.prototype, 'name', { value: 'InputError', writable: true, configurable: true });

/** One engine with its config applied, its types erased for the driver. */
export interface ModelInstance {
  /** Validates a line (without `t`); returns the step that feeds it to the engine at `now`. */
  parse(line: Readonly<Record<string, unknown>>): (now: number) => readonly EngineOutput[];
  fire(name: string, now: number): readonly EngineOutput[];
  render(output: EngineOutput): Record<string, unknown>;
  counters(): Readonly<Record<string, number>>;
  snapshot(): unknown;
}

export function instantiate<C, I, O extends EngineOutput>(adapter: EngineAdapter<C, I, O>, config: C, lenient: boolean): ModelInstance {
  const engine = adapter.create(config);
  const ctx: ParseContext<C> = { config, lenient };
  return {
    parse(line) {
      let input: I;
      try {
        input = adapter.parse(line, ctx);
      } catch (e) {
        // zod names the union's kinds; the driver's own kind `query` belongs in the list too.
        if (e instanceof InputError && e.path === 'kind') throw new InputError(`expected one of ${[...adapter.kinds.map((k) => k.kind), 'query'].join(', ')}`, 'kind');
        throw e;
      }
      return (now) => engine.handle(input, now);
    },
    fire(name, now) {
      const input = adapter.timer(name);
      return input === undefined ? [] : engine.handle(input, now);
    },
    // The driver hands back only what this engine's handle returned.
    render: (output) => adapter.render(output as O),
    counters: () => engine.counters(),
    snapshot: () => engine.snapshot(),
  };
}
