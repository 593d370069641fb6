/**
 * The logger of riodp's fabric processes (`riodp switch`, `riodp endpoint`): pino, JSON lines.
 *
 * Logs go to stderr by default, written synchronously: stdout stays free for the lines a command
 * prints for people and scripts (`port 1 listening on 127.0.0.1:4001`), and a synchronous write
 * holds no buffer, so a flood of events (a peer sending packets it may not send) slows the
 * process rather than growing its memory (issue 8 §3 "a flood does not grow memory without
 * bound"). Tests pass a `destination` with a `write(line)` method and read the lines back.
 */
import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The log levels a process takes (pino's, `fatal` to `trace`, and `silent`: no lines).
 *
 * @example
 * ```ts
 * import { LOG_LEVELS, makeLogger } from 'riodp/net';
 * import type { LogLevel } from 'riodp/net';
 *
 * // A --log option checked before it reaches makeLogger (which throws a RangeError for an unknown level):
 * const isLogLevel = (s: string): s is LogLevel => (LOG_LEVELS as readonly string[]).includes(s);
 * const arg: string = 'debug';
 * if (!isLogLevel(arg)) throw new Error(`--log: expected one of ${LOG_LEVELS.join(', ')}`);
 * const log = makeLogger({ level: arg, destination: { write: () => {} } });
 * console.log(log.isLevelEnabled('debug'), log.isLevelEnabled('trace')); // true false
 * ```
 */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Options of `makeLogger`. */
export interface MakeLoggerOptions {
  /** Default 'info'. */
  readonly level?: LogLevel;
  /** Where the JSON lines go: 'stderr' (default), 'stdout', or any object with `write(line)`. */
  readonly destination?: 'stderr' | 'stdout' | DestinationStream;
  /** Bound to every line as `name` (e.g. 'switch'). */
  readonly name?: string;
}

/**
 * The JSON-lines logger the processes use (pino), at `level`; an unknown level is a RangeError.
 *
 * @example
 * ```ts
 * import { makeLogger } from 'riodp/net';
 *
 * // JSON lines to any object with write(line), here kept in memory (default: stderr, synchronously).
 * const lines: string[] = [];
 * const log = makeLogger({ level: 'warn', name: 'switch', destination: { write: (line: string) => { lines.push(line); } } });
 * log.info({ port: 0 }, 'link-up');             // below warn: not written
 * log.warn({ port: 1, packets: 3 }, 'port-down');
 * const { level, name, port, packets, msg } = JSON.parse(lines[0]!) as Record<string, unknown>;
 * console.log(lines.length, level, name, port, packets, msg); // 1 40 switch 1 3 port-down
 * ```
 */
export function makeLogger(opts: MakeLoggerOptions = {}): Logger {
  const level = opts.level ?? 'info';
  if (!(LOG_LEVELS as readonly unknown[]).includes(level)) throw new RangeError(`log level must be one of ${LOG_LEVELS.join(', ')}`);
  const d = opts.destination ?? 'stderr';
  const stream = typeof d === 'string' ? pino.destination({ fd: d === 'stdout' ? 1 : 2, sync: true }) : d;
  return pino({ level, ...(opts.name === undefined ? {} : { name: opts.name }) }, stream);
}

/** A destination that keeps every line, parsed: for tests and for embedding a process in another program. */
export class LogCapture implements DestinationStream {
  readonly lines: Record<string, unknown>[] = [];

  write(line: string): void {
    this.lines.push(JSON.parse(line) as Record<string, unknown>);
  }

  /** Lines whose `msg` is `msg`. */
  find(msg: string): Record<string, unknown>[] {
    return this.lines.filter((l) => l['msg'] === msg);
  }
}
