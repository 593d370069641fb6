import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './issues.ts';
import type { ConfigErrorClass, Issue } from './issues.ts';

/**
 * Reading configuration files (scenarios, grids and the scenario a grid names, switch and end
 * point files, `riodp model --config`). A file that cannot be read, or text that is not YAML, is
 * refused like a bad field: one "path: expectation" line (issues.ts), at `at`, the field that named
 * the file ('' for the file given on the command line). JSON needs nothing of its own: YAML 1.2
 * reads it as it is.
 */

/** "cannot read <file> (<errno code>)": `file` as the user wrote it. */
export function cannotRead(file: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return `cannot read ${file}${code === undefined ? '' : ` (${code})`}`;
}

/** The YAML parser's first line, which names the place; the rest is a drawing of it. */
export function yamlProblem(e: unknown): string {
  return ((e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '').replace(/:$/, '');
}

/** The file's text; otherwise "cannot read <path> (<errno code>)". */
export function readTextFile(path: string, at = '', error: ConfigErrorClass = ConfigError): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new error([{ path: at, message: cannotRead(path, e) }]);
  }
}

/** The YAML value of `text`; otherwise "not YAML: <the parser's first line>". */
export function parseYamlText(text: string, at = '', error: ConfigErrorClass = ConfigError): unknown {
  try {
    return parseYaml(text);
  } catch (e) {
    throw new error([{ path: at, message: `not YAML: ${yamlProblem(e)}` }]);
  }
}

/** The YAML (or JSON) value of the file at `path`. */
export function readYamlFile(path: string, at = '', error: ConfigErrorClass = ConfigError): unknown {
  return parseYamlText(readTextFile(path, at, error), at, error);
}

/**
 * A file that a configuration names (a key or a certificate), relative to `dir`, the
 * configuration file's folder. When it cannot be read, an issue at `at` joins `issues` and the
 * result is undefined, so that the other fields are still checked.
 */
export function readNamedFile(dir: string, file: string, at: string, issues: Issue[]): Buffer | undefined {
  try {
    return readFileSync(resolve(dir, file));
  } catch (e) {
    issues.push({ path: at, message: cannotRead(file, e) });
    return undefined;
  }
}
