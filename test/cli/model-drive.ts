import assert from 'node:assert/strict';
import { ModelDriver } from '../../src/cli/model/driver.ts';
import { loadEngine } from '../../src/cli/model/engines.ts';
import { MODEL_SCHEMA } from '../../src/cli/model/names.ts';
import type { EngineName } from '../../src/cli/model/names.ts';
import type { JsonLine } from './output.ts';

/**
 * `riodp model` in process, as the model tests drive it where the CLI's own behaviour (exit codes,
 * stderr) is not under test: the driver an engine's adapter configures, fed input lines.
 */

/**
 * Runs input lines (objects as JSON, strings as they are) through engine `name` configured with
 * `config`: the output lines (the header and end line included) and the stderr messages.
 */
export async function drive(name: EngineName, config: unknown, input: readonly unknown[], opts: { lenient?: boolean; until?: number } = {}): Promise<{ out: JsonLine[]; err: string[] }> {
  const c = (await loadEngine(name)).configure(config, opts.lenient === true);
  if (!c.ok) assert.fail(c.errors.join('; '));
  const out: JsonLine[] = [];
  const err: string[] = [];
  const d = new ModelDriver(c.instance, name, { schema: MODEL_SCHEMA, engine: name, config: c.effective }, { out: (l) => out.push(JSON.parse(JSON.stringify(l)) as JsonLine), err: (m) => err.push(m) });
  input.forEach((l, i) => {
    d.line(typeof l === 'string' ? l : JSON.stringify(l), i + 1);
  });
  d.finish(opts.until);
  return { out, err };
}

/** The effective configuration of engine `name`, or the errors its configuration gives. */
export async function configure(name: EngineName, config: unknown): Promise<{ ok: true; effective: unknown } | { ok: false; errors: readonly string[] }> {
  const c = (await loadEngine(name)).configure(config, false);
  return c.ok ? { ok: true, effective: c.effective } : { ok: false, errors: c.errors };
}
