/**
 * The child processes of `npm run demo:fabric` (scripts/demo-fabric.ts): started by name, their
 * stdout and stderr split into lines, kept for the demo's checks and printed with the name in
 * front; waits on their lines and exits with a deadline; every child killed on any way out.
 *
 * Decisions (docs/fabric-demo.md):
 * - A *service* (the switch, the end points) must run until the demo stops it: when one exits on
 *   its own, every wait fails at once with the reason, so that the demo ends with one clear line
 *   instead of running into a timeout.
 * - `stopAll` asks with SIGTERM (the fabric processes then send CLOSE on their links and exit 0),
 *   and sends SIGKILL to what is still there after the grace period; `killAllNow` is the
 *   synchronous SIGKILL for `process.on('exit')`, when nothing can be awaited.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ProcLine {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export interface ProcExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface DemoProc {
  readonly name: string;
  readonly pid: number;
  /** Every line so far, both streams in arrival order. */
  readonly lines: readonly ProcLine[];
  /** Null while it runs. */
  readonly exit: ProcExit | null;
  readonly exited: Promise<ProcExit>;
}

/** Why the demo stopped: one line. */
export class DemoError extends Error {}
Object.defineProperty(DemoError.prototype, 'name', { value: 'DemoError', writable: true, configurable: true });

/** A wait whose deadline passed. */
export class DemoTimeout extends DemoError {}
Object.defineProperty(DemoTimeout.prototype, 'name', { value: 'DemoTimeout', writable: true, configurable: true });

export interface SupervisorOptions {
  /** The program and the arguments before each child's own: e.g. node, ['--import', 'tsx', 'riodp.ts']. */
  readonly command: string;
  readonly baseArgs: readonly string[];
  /** Called with each line of each child, in arrival order. */
  readonly onLine: (name: string, line: ProcLine) => void;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

interface Waiter {
  readonly test: (l: ProcLine) => boolean;
  readonly resolve: (l: ProcLine) => void;
  readonly reject: (e: Error) => void;
}

class Proc implements DemoProc {
  readonly name: string;
  readonly child: ChildProcess;
  readonly service: boolean;
  readonly lines: ProcLine[] = [];
  readonly waiters = new Set<Waiter>();
  exit: ProcExit | null = null;
  stopping = false;
  readonly exited: Promise<ProcExit>;

  constructor(name: string, child: ChildProcess, service: boolean) {
    this.name = name;
    this.child = child;
    this.service = service;
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }
}

export function describeExit(e: ProcExit): string {
  return e.signal !== null ? `was killed by ${e.signal}` : `exited with code ${String(e.code)}`;
}

export class Supervisor {
  readonly #opts: SupervisorOptions;
  readonly #procs: Proc[] = [];
  #abort: DemoError | null = null;
  readonly #abortWaiters = new Set<(e: Error) => void>();

  constructor(opts: SupervisorOptions) {
    this.#opts = opts;
  }

  get procs(): readonly DemoProc[] {
    return this.#procs;
  }

  /** Starts `command baseArgs… args…` named `name`. A service's exit before `stop`/`kill` fails every wait. */
  start(name: string, args: readonly string[], opts: { readonly service?: boolean } = {}): DemoProc {
    this.#check();
    const child = spawn(this.#opts.command, [...this.#opts.baseArgs, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.#opts.cwd === undefined ? {} : { cwd: this.#opts.cwd }),
      ...(this.#opts.env === undefined ? {} : { env: this.#opts.env }),
    });
    const p = new Proc(name, child, opts.service ?? false);
    this.#procs.push(p);
    this.#lines(p, child.stdout, 'stdout');
    this.#lines(p, child.stderr, 'stderr');
    child.on('error', (e) => {
      this.#fail(new DemoError(`${name}: cannot start ${this.#opts.command}: ${e.message}`));
    });
    void p.exited.then((e) => {
      const why = new DemoError(`${name} ${describeExit(e)}${p.service && !p.stopping ? ' while the demo needed it' : ''}`);
      for (const w of p.waiters) w.reject(why);
      p.waiters.clear();
      if (p.service && !p.stopping) this.#fail(why);
    });
    return p;
  }

  #lines(p: Proc, stream: Readable | null, kind: ProcLine['stream']): void {
    if (stream === null) return;
    let partial = '';
    const emit = (text: string): void => {
      const line: ProcLine = { stream: kind, text };
      p.lines.push(line);
      this.#opts.onLine(p.name, line);
      for (const w of p.waiters) {
        if (!w.test(line)) continue;
        p.waiters.delete(w);
        w.resolve(line);
      }
    };
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const t of parts) emit(t);
    });
    stream.on('end', () => {
      if (partial !== '') emit(partial);
      partial = '';
    });
  }

  #fail(e: DemoError): void {
    if (this.#abort !== null) return;
    this.#abort = e;
    for (const r of this.#abortWaiters) r(e);
    this.#abortWaiters.clear();
  }

  #check(): void {
    if (this.#abort !== null) throw this.#abort;
  }

  /** Races `p` against the deadline and against a service's exit. */
  #bounded<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    if (this.#abort !== null) return Promise.reject(this.#abort);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: ((e: Error) => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new DemoTimeout(`no ${what} within ${(timeoutMs / 1000).toFixed(1)} s`));
      }, timeoutMs);
      onAbort = reject;
      this.#abortWaiters.add(reject);
    });
    return Promise.race([p, stop]).finally(() => {
      clearTimeout(timer);
      if (onAbort !== undefined) this.#abortWaiters.delete(onAbort);
    });
  }

  /** The first line of `proc` (from index `from` on) that passes `test`. */
  waitLine(proc: DemoProc, test: (l: ProcLine) => boolean, timeoutMs: number, what: string, from = 0): Promise<ProcLine> {
    const p = this.#own(proc);
    for (let i = from; i < p.lines.length; i++) {
      const l = p.lines[i] as ProcLine;
      if (test(l)) return Promise.resolve(l);
    }
    if (p.exit !== null) return Promise.reject(new DemoError(`${p.name} ${describeExit(p.exit)} before ${what}`));
    const found = new Promise<ProcLine>((resolve, reject) => {
      const w: Waiter = { test, resolve, reject: (e) => { reject(new DemoError(`${e.message} before ${what}`)); } };
      p.waiters.add(w);
      // A wait that gave up leaves no waiter behind.
      setTimeout(() => p.waiters.delete(w), timeoutMs + 10).unref();
    });
    return this.#bounded(found, timeoutMs, what);
  }

  /** The exit of `proc`, which is expected (a command that ends). */
  waitExit(proc: DemoProc, timeoutMs: number, what: string): Promise<ProcExit> {
    const p = this.#own(proc);
    p.stopping = true;
    return this.#bounded(p.exited, timeoutMs, what);
  }

  /** Resolves after `ms`, or fails as soon as a service exits. */
  sleep(ms: number): Promise<void> {
    return this.#bounded(new Promise<void>((r) => setTimeout(r, ms)), ms + 1000, `pause of ${ms} ms`);
  }

  /** Sends `signal`; a service signalled here is no longer expected to run. */
  kill(proc: DemoProc, signal: NodeJS.Signals): void {
    const p = this.#own(proc);
    if (signal !== 'SIGSTOP' && signal !== 'SIGCONT') p.stopping = true;
    if (p.exit === null) p.child.kill(signal);
  }

  /**
   * SIGTERM to every child still running (SIGCONT first, for a stopped one), SIGKILL after
   * `graceMs`; from then on `start` and every wait fail.
   */
  async stopAll(graceMs: number): Promise<void> {
    // Nothing more starts, and every wait ends.
    this.#fail(new DemoError('the demo is stopping'));
    const running = this.#procs.filter((p) => p.exit === null);
    for (const p of running) {
      p.stopping = true;
      p.child.kill('SIGCONT');
      p.child.kill('SIGTERM');
    }
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => {
      timer = setTimeout(r, graceMs);
    });
    await Promise.race([Promise.all(running.map((p) => p.exited)), grace]);
    clearTimeout(timer);
    this.killAllNow();
    await Promise.all(running.map((p) => p.exited));
  }

  /** SIGKILL to every child still running, synchronously. */
  killAllNow(): void {
    for (const p of this.#procs) {
      if (p.exit !== null) continue;
      p.stopping = true;
      p.child.kill('SIGKILL');
    }
  }

  #own(proc: DemoProc): Proc {
    const p = this.#procs.find((x) => x === proc);
    if (p === undefined) throw new Error(`${proc.name} is not a process of this supervisor`);
    return p;
  }
}
