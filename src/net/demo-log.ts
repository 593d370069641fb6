/**
 * How `npm run demo:fabric` (scripts/demo-fabric.ts) shows the logs of its processes: each line
 * prefixed with the process's name, the fabric processes' pino JSON lines (docs/fabric-switch.md
 * "Logs", docs/fabric-api.md §7) turned into `msg key=value …` so that a person can follow them.
 *
 * A flood of identical events (one `ccp-sent` per XOFF, one `flow xoff` per stopped flow) would
 * bury the rest, so `LineLimiter` shows the first lines of each (process, message) and counts the
 * others; the demo prints the counts. The demo's checks read the raw lines, never these.
 */

/** pino's fields that say nothing a person needs here, and the switch's `at` (ns of its monotonic clock). */
const DROPPED = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'at']);

/** pino's numeric levels above info, by name. */
const LEVEL_NAMES: Readonly<Record<number, string>> = { 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return JSON.stringify(v);
}

/** A parsed pino line, or null for any other text. */
export function parseLogLine(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Record<string, unknown>)['msg'] === 'string' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `WARN link-down port=2 reason=lost` from a pino line; any other line as it is. */
export function formatLogLine(line: string): string {
  const o = parseLogLine(line);
  if (o === null) return line;
  const level = typeof o['level'] === 'number' ? LEVEL_NAMES[o['level']] : undefined;
  const parts: string[] = [];
  if (level !== undefined) parts.push(level);
  parts.push(String(o['msg']));
  for (const [k, v] of Object.entries(o)) if (!DROPPED.has(k) && v !== undefined) parts.push(`${k}=${value(v)}`);
  return parts.join(' ');
}

/** `[name  ] text`, names padded to `width`. */
export function prefixed(name: string, width: number, text: string): string {
  return `[${name.padEnd(width)}] ${text}`;
}

/**
 * Shows the first `perKey` lines of each key (a process and a log message) and counts the rest.
 * Lines that are not pino lines are keyed by the process alone and never limited: they are the
 * commands' own output (`sent …`, `ok …`, `riodp status`).
 */
export class LineLimiter {
  readonly #perKey: number;
  readonly #seen = new Map<string, number>();

  constructor(perKey: number) {
    if (!Number.isSafeInteger(perKey) || perKey < 0) throw new RangeError('perKey must be a non-negative integer');
    this.#perKey = perKey;
  }

  /** Whether to show this line of process `name`. */
  admit(name: string, line: string): boolean {
    const o = parseLogLine(line);
    if (o === null) return true;
    const key = `${name}\u0000${String(o['msg'])}`;
    const n = (this.#seen.get(key) ?? 0) + 1;
    this.#seen.set(key, n);
    return n <= this.#perKey;
  }

  /** `[process, message, lines not shown]` for every key that went over, in first-seen order. */
  suppressed(): [string, string, number][] {
    const out: [string, string, number][] = [];
    for (const [key, n] of this.#seen) {
      if (n <= this.#perKey) continue;
      const [name = '', msg = ''] = key.split('\u0000');
      out.push([name, msg, n - this.#perKey]);
    }
    return out;
  }
}
