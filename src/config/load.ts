import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError, zodIssues } from './issues.ts';
import type { ConfigErrorClass } from './issues.ts';
import { readYamlFile } from './yaml-input.ts';

/**
 * Loading a configuration: a YAML (or JSON) file, or a value already read, checked against its
 * zod schema; every problem is one issue of the ConfigError (or the host's subclass) thrown.
 */

export interface CheckOptions {
  /** Before every issue's path: where the value sits in a larger document (`config`, `parameters.<path>`). */
  readonly prefix?: readonly PropertyKey[];
  /** The message for a record key the schema refuses (zodIssues). */
  readonly invalidKey?: string;
  readonly error?: ConfigErrorClass;
}

/** `value` as `schema` outputs it; otherwise every issue, thrown together. */
export function checkSchema<S extends z.ZodType>(schema: S, value: unknown, opts: CheckOptions = {}): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new (opts.error ?? ConfigError)(zodIssues(r.error, opts.prefix, opts.invalidKey));
}

/**
 * The configuration file at `path`, its YAML value given to `check` with the file's folder (file
 * names inside a configuration are relative to it). A file that cannot be read or is not YAML is
 * one issue without a path, thrown as `error`; `check` throws its own issues. A plain schema is
 * `(v) => checkSchema(schema, v)`.
 */
export function loadConfigFile<T>(path: string, check: (value: unknown, dir: string) => T, error: ConfigErrorClass = ConfigError): T {
  return check(readYamlFile(path, '', error), dirname(resolve(path)));
}
