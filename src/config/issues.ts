import type { z } from 'zod';

/**
 * zod issues as "path: expectation" lines, one per bad field, for every configuration file (the
 * simulator's scenarios and grids, the fabric's switch and end point files, `riodp model`'s config
 * files) and for `riodp model`'s input lines: an unknown key is its own line ("unknown field"), a
 * discriminated union names the discriminator's choices, and a missing field says "missing,
 * expected …". Paths are dotted, list indices included (`traffic.0.load`).
 */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

function joinPath(base: readonly PropertyKey[], extra?: string): string {
  const parts = base.map(String);
  if (extra !== undefined) parts.push(extra);
  return parts.join('.');
}

function withoutZodPrefix(message: string): string {
  return message.replace(/^Invalid input: expected (.*), received undefined$/, 'missing, expected $1').replace(/^Invalid input: /, '');
}

/**
 * `prefix` goes before every path (a variant's `variants.<i>`); `invalidKey` is the message for a
 * record key its schema refuses (zod's `invalid_key`), where the caller knows what the keys are;
 * without it zod's own wording is kept.
 */
export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = [], invalidKey?: string): Issue[] {
  const out: Issue[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: joinPath(path, key), message: 'unknown field' });
    } else if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
      out.push({ path: joinPath(path), message: `expected one of ${issue.options.map(String).join(', ')}` });
    } else if (issue.code === 'invalid_key' && invalidKey !== undefined) {
      out.push({ path: joinPath(path), message: invalidKey });
    } else {
      out.push({ path: joinPath(path), message: withoutZodPrefix(issue.message) });
    }
  }
  return out;
}

export function formatIssue(i: Issue): string {
  return i.path === '' ? i.message : `${i.path}: ${i.message}`;
}

/**
 * A configuration that cannot be used: every problem found, one "path: expectation" line each, so
 * that a user fixes a file in one go. A host whose error has its own documented name
 * (SwitchConfigError, EndpointConfigError) subclasses it and sets only `name`. `riodp/sim`'s
 * scenario and grid loaders throw it; `riodp/net`'s config loaders throw those subclasses.
 *
 * @example
 * ```ts
 * import { ConfigError, parseScenario } from 'riodp/sim';
 *
 * try {
 *   parseScenario('duration: 20 apples\ntopology: { kind: switch, hosts: 4 }\ntraffic: [{ pattern: incast, sink: 0, load: 1.5 }]\n');
 * } catch (e) {
 *   if (!(e instanceof ConfigError)) throw e;
 *   for (const i of e.issues) console.log(`${i.path}: ${i.message}`); // every problem, one line each:
 *   // name: missing, expected a non-empty string
 *   // duration: expected a time: ps as a number, or a string with ps, ns, us, ms or s ("10us"), above 0
 *   // traffic.0.load: expected a fraction 0..1 with bernoulli arrivals
 * }
 * ```
 */
export class ConfigError extends Error {
  readonly issues: readonly Issue[];

  constructor(issues: readonly Issue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.issues = issues;
  }
}
// On the prototype and not enumerable, as Error's own: a subclass that sets its own keeps it.
Object.defineProperty(ConfigError.prototype, 'name', { value: 'ConfigError', writable: true, configurable: true });

/** ConfigError or a subclass: what the loaders throw, so that a host gets its own class. */
export type ConfigErrorClass = new (issues: readonly Issue[]) => ConfigError;
