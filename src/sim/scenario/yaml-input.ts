import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ScenarioError } from './issues.ts';

/**
 * Reading the YAML files of `riodp sim` and `riodp sweep` (scenarios, grids and the scenario a
 * grid names). A file that cannot be read, or text that is not YAML, is refused like a bad field:
 * one "path: expectation" line (issues.ts), at `at`, the field that named the file ('' for the
 * file given on the command line).
 */

/** The file's text; otherwise "cannot read <path> (<errno code>)". */
export function readTextFile(path: string, at = ''): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ScenarioError([{ path: at, message: `cannot read ${path}${code === undefined ? '' : ` (${code})`}` }]);
  }
}

/** The YAML value of `text`; otherwise "not YAML: <the parser's first line>". */
export function parseYamlText(text: string, at = ''): unknown {
  try {
    return parseYaml(text);
  } catch (e) {
    const first = ((e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '').replace(/:$/, '');
    throw new ScenarioError([{ path: at, message: `not YAML: ${first}` }]);
  }
}
