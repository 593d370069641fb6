import type { z } from 'zod';
import type { Packet } from '../../wire/packet.ts';
import { toJsonValue } from '../json/output.ts';
import { InputError } from './input-error.ts';
import type { EngineName } from './names.ts';
import { renderPacket } from './packets.ts';
import { firstIssue } from './schema.ts';

/**
 * What `riodp model` needs from an engine adapter (one file per engine in this folder): the
 * config schema with the types file's defaults, the input line schema, and how outputs print.
 * The driver (driver.ts) never sees the engine's own types: `instantiate` closes over them.
 * `defineAdapter` builds an adapter from what is particular to its engine.
 */

/** Part of the adapter contract (`parse` throws it); defined on its own so that schema.ts and packets.ts can throw it too. */
export { InputError };

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

/** The query methods every Part 9 and Part 10 engine exposes besides `handle`. */
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

/** What an engine's adapter file states; `defineAdapter` adds what every engine shares. */
export interface AdapterSpec<C, L, I, O extends EngineOutput> extends Pick<EngineAdapter<C, I, O>, 'name' | 'fields' | 'kinds' | 'config'> {
  /** Schema of an input line without `t`, a union on `kind`. */
  readonly input: z.ZodType<L>;
  readonly engine: new (config: C) => InspectableEngine<I, O>;
  /**
   * The engine input of a line `input` accepted; throws InputError for what the schema alone
   * cannot judge (packets, device IDs wider than the configured tt).
   */
  readonly toInput: (line: L, ctx: ParseContext<C>) => I;
  /** The engine's timer input, for engines that ask for timers. */
  readonly timer: (name: string) => I | undefined;
}

/** A `send` output of the types files: the packet to put on the link (Type 7 or Type 9), and where (`port`) if the engine says. */
interface SendOutput extends EngineOutput {
  readonly kind: 'send';
  readonly packet: Packet;
}

function isSend(o: EngineOutput): o is SendOutput {
  return o.kind === 'send' && 'packet' in o;
}

/**
 * One output line's fields (docs/model.md Output): a `send` prints its packet as `riodp decode
 * --json` does plus the serial `hex`; any other output is its JSON form.
 */
export function renderOutput(o: EngineOutput): Record<string, unknown> {
  if (!isSend(o)) return toJsonValue(o) as Record<string, unknown>;
  const { packet, ...where } = o;
  return { ...(toJsonValue(where) as Record<string, unknown>), ...renderPacket(packet) };
}

export function defineAdapter<C, L, I, O extends EngineOutput>(spec: AdapterSpec<C, L, I, O>): EngineAdapter<C, I, O> {
  const { name, fields, kinds, config, input, engine, toInput, timer } = spec;
  return {
    name,
    fields,
    kinds,
    config,
    create: (c) => new engine(c),
    parse(line, ctx) {
      const r = input.safeParse(line);
      if (!r.success) throw firstIssue(r.error);
      return toInput(r.data, ctx);
    },
    timer,
    render: renderOutput,
  };
}

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
