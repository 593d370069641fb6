import { toJsonValue } from '../json/output.ts';
import { InputError } from './adapter.ts';
import type { EngineOutput, ModelInstance } from './adapter.ts';
import { MODEL_SCHEMA, MODEL_SCHEMA_MAJOR } from './names.ts';
import { TimerQueue } from './timer-queue.ts';

/**
 * The `riodp model` driver loop, free of I/O: text lines in, JSON objects (stdout lines) and
 * messages (stderr lines) out through a sink. It owns time and the engine's timers (contract.ts):
 * before an input at time t it fires every pending timer due at or before t, in order of
 * (at, arming sequence), so a timer due exactly at t fires before the input at t.
 */

export interface DriverSink {
  out(line: Readonly<Record<string, unknown>>): void;
  /** A stderr message, without the `riodp: ` prefix. */
  err(message: string): void;
}

export interface DriverOptions {
  /** Timer expiries allowed per run before the driver assumes a timer loop and stops. */
  readonly maxExpiries?: number;
  /**
   * What an input's number counts (docs/model.md "Captures"): input lines, or the records of a
   * capture (`--pcap`), whose error lines then carry `record` and `recordT` for `line` and `lineT`.
   */
  readonly unit?: 'line' | 'record';
}

export const DEFAULT_MAX_EXPIRIES = 1_000_000;

/** A trace the driver must refuse as a whole (exit 2): another schema, another engine. */
export class TraceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceError';
  }
}

const SCHEMA_NAME = /^riodp-model\/(\d+)(?:\.\d+)?$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isTimerOutput(o: EngineOutput): o is EngineOutput & { readonly name: string; readonly at: number | null } {
  const r = o as { readonly kind: string; readonly name?: unknown; readonly at?: unknown };
  return r.kind === 'timer' && typeof r.name === 'string' && (r.at === null || typeof r.at === 'number');
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class ModelDriver {
  readonly #engine: ModelInstance;
  readonly #engineName: string;
  readonly #header: Readonly<Record<string, unknown>>;
  readonly #sink: DriverSink;
  readonly #maxExpiries: number;
  readonly #unit: 'line' | 'record';
  readonly #timers = new TimerQueue();
  #clock = 0;
  #started = false;
  #expiries = 0;
  #bad = 0;
  #stopped = false;
  /** The `t` of the line being handled, once it reads as a time: what its error lines carry as `lineT`. */
  #lineT: number | undefined;

  constructor(engine: ModelInstance, engineName: string, header: Readonly<Record<string, unknown>>, sink: DriverSink, opts: DriverOptions = {}) {
    this.#engine = engine;
    this.#engineName = engineName;
    this.#header = header;
    this.#sink = sink;
    this.#maxExpiries = opts.maxExpiries ?? DEFAULT_MAX_EXPIRIES;
    this.#unit = opts.unit ?? 'line';
  }

  /** Lines that were bad (each reported); the run exits 1 when non-zero. */
  get bad(): number {
    return this.#bad;
  }

  /** True once the expiry cap stopped the run: later lines are not read. */
  get stopped(): boolean {
    return this.#stopped;
  }

  get now(): number {
    return this.#clock;
  }

  /** One input line (1-based number `n`); throws TraceError when the whole trace must be refused. */
  line(text: string, n: number): void {
    if (this.#stopped) return;
    this.#lineT = undefined;
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      this.#reject(n, new InputError(`not JSON: ${message(e)}`));
      return;
    }
    if (!isRecord(value)) {
      this.#reject(n, new InputError('expected a JSON object {"t": ..., "kind": ...}'));
      return;
    }
    if (!this.#started) {
      // A refused schema line leaves stdout empty: the header is printed only once it passed.
      if ('schema' in value) this.#checkSchema(value, n);
      this.start();
      if ('schema' in value) return;
    }
    try {
      this.#input(value, n);
    } catch (e) {
      if (e instanceof InputError) this.#reject(n, e);
      else throw e;
    }
  }

  /**
   * Input `n` is bad before it became a line (a capture record that does not decode): reported as a
   * bad line is, with no time of its own; nothing changes.
   */
  reject(n: number, text: string): void {
    if (this.#stopped) return;
    this.#lineT = undefined;
    this.#error(n, text);
  }

  /**
   * One input line already parsed, `{"t": …, "kind": …, …fields}`, for a host that answers bad
   * lines itself (`riodp serve`): a bad line throws its InputError and changes nothing. Outputs,
   * engine errors and the timer loop guard go to the sink as for `line`.
   */
  input(value: Readonly<Record<string, unknown>>, n?: number): void {
    if (this.#stopped) throw new InputError(`stopped after more than ${this.#maxExpiries} timer expiries: no more input`);
    this.start();
    this.#input(value, n);
  }

  /** End of input: with `until`, fire the timers due up to it; then the end line. */
  finish(until?: number): void {
    this.start();
    if (until !== undefined && !this.#stopped) this.#advance(Math.max(until, this.#clock), undefined);
    this.#sink.out({ t: this.#clock, kind: 'end', pending: this.pending(), counters: toJsonValue(this.#engine.counters()) });
  }

  /** The header line, unless it was printed already: the first line of every run. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#sink.out(this.#header);
  }

  /** The pending timers in firing order, as the end line lists them. */
  pending(): { name: string; at: number }[] {
    return this.#timers.pending().map(({ name, at }) => ({ name, at }));
  }

  /** The `state` line of a `query` at the current time, without firing anything: no time passes. */
  state(): Record<string, unknown> {
    return { t: this.#clock, kind: 'state', state: toJsonValue(this.#engine.snapshot()), counters: toJsonValue(this.#engine.counters()) };
  }

  #checkSchema(line: Record<string, unknown>, n: number): void {
    const schema = line['schema'];
    const m = typeof schema === 'string' ? SCHEMA_NAME.exec(schema) : null;
    if (m === null) throw new TraceError(`line ${n}: schema ${JSON.stringify(schema)} is not riodp-model/<major> (schema)`);
    if (Number(m[1]) !== MODEL_SCHEMA_MAJOR) throw new TraceError(`line ${n}: schema ${String(schema)} is not supported: this riodp reads ${MODEL_SCHEMA} (schema)`);
    const engine = line['engine'];
    if (engine !== undefined && engine !== this.#engineName) {
      throw new TraceError(`line ${n}: the trace is for engine ${JSON.stringify(engine)}, not ${this.#engineName} (engine)`);
    }
  }

  #input(line: Readonly<Record<string, unknown>>, n: number | undefined): void {
    if ('schema' in line) throw new InputError('a schema line may only be the first line', 'schema');
    const { t, kind, ...fields } = line;
    if (t === undefined) throw new InputError('missing, expected the time in nanoseconds, a non-negative integer', 't');
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) throw new InputError('expected the time in nanoseconds, a non-negative integer', 't');
    this.#lineT = t;
    if (t < this.#clock) throw new InputError(`time ${t} is before the current time ${this.#clock}: time must not decrease`, 't');
    if (kind === undefined) {
      const extra = Object.keys(fields)[0];
      if (extra !== undefined) throw new InputError('unknown field (a line without kind only advances time)', extra);
      this.#advance(t, n);
      return;
    }
    if (typeof kind !== 'string') throw new InputError('expected a string', 'kind');
    if (kind === 'query') {
      const extra = Object.keys(fields)[0];
      if (extra !== undefined) throw new InputError('unknown field', extra);
      if (!this.#advance(t, n)) return;
      this.#sink.out(this.state());
      return;
    }
    if (kind === 'timer') throw new InputError('timers are fired by the driver, not given as input', 'kind');
    const step = this.#engine.parse({ kind, ...fields });
    if (!this.#advance(t, n)) return;
    this.#emit(() => step(t), t, n);
  }

  /** Fires the timers due up to `t`, then sets the clock to `t`. False when the expiry cap stopped the run. */
  #advance(t: number, n: number | undefined): boolean {
    for (let due = this.#timers.popDue(t); due !== undefined; due = this.#timers.popDue(t)) {
      if (++this.#expiries > this.#maxExpiries) {
        // Not fired: it stays pending, and the end line lists it.
        this.#timers.set(due.name, due.at);
        this.#stopped = true;
        this.#error(n, `more than ${this.#maxExpiries} timer expiries: stopped (a timer that keeps re-arming itself?)`);
        return false;
      }
      // A timer asked for in the past still fires now: engine time never goes backwards.
      const at = Math.max(due.at, this.#clock);
      this.#clock = at;
      this.#sink.out({ t: at, kind: 'expired', name: due.name });
      this.#emit(() => this.#engine.fire(due.name, at), at, n);
    }
    this.#clock = t;
    return true;
  }

  #emit(run: () => readonly EngineOutput[], t: number, n: number | undefined): void {
    let outputs: readonly EngineOutput[];
    try {
      outputs = run();
    } catch (e) {
      // Engines must not throw on protocol input; if one does, report it and go on.
      this.#error(n, `engine error: ${message(e)}`);
      return;
    }
    for (const o of outputs) {
      if (isTimerOutput(o)) this.#timers.set(o.name, o.at);
      let rendered: Record<string, unknown>;
      try {
        rendered = this.#engine.render(o);
      } catch (e) {
        this.#error(n, `cannot print the ${o.kind} output: ${message(e)}`);
        continue;
      }
      this.#sink.out({ t, ...rendered });
    }
  }

  #reject(n: number, e: InputError): void {
    this.#error(n, e.path === '' ? e.message : `${e.message} (${e.path})`);
  }

  /**
   * An error line. `t` is the current time, so that output time never goes back (a bad line does
   * not advance it); `lineT` is the time of the input line that caused the error, when that line
   * gave a valid one.
   */
  #error(n: number | undefined, text: string): void {
    // The header stays the first line even when the first line is bad.
    this.start();
    this.#bad++;
    const unit = this.#unit;
    this.#sink.err(n === undefined ? `--until: ${text}` : `${unit} ${n}: ${text}`);
    if (n === undefined) this.#sink.out({ t: this.#clock, kind: 'error', message: text });
    else if (this.#lineT === undefined) this.#sink.out({ t: this.#clock, kind: 'error', [unit]: n, message: text });
    else this.#sink.out({ t: this.#clock, kind: 'error', [unit]: n, [`${unit}T`]: this.#lineT, message: text });
  }
}
