import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { formatIssue } from '../../config/issues.ts';
import { cannotRead, yamlProblem } from '../../config/yaml-input.ts';
import { issues } from './schema.ts';

/**
 * The `--config` file: JSON or YAML (YAML 1.2 reads JSON as it is), a mapping of the engine's
 * config fields. Validation reports every bad field as its own line, `config.<path>: <expected>`.
 */
export type ConfigResult<C> = { readonly ok: true; readonly config: C } | { readonly ok: false; readonly errors: readonly string[] };

/** The parsed file, or the one-line reason it cannot be used. No file: an empty mapping. */
export function readConfig(file: string | undefined): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly errors: readonly string[] } {
  if (file === undefined) return { ok: true, value: {} };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, errors: [`config ${file}: ${cannotRead('it', e)}`] };
  }
  try {
    const value: unknown = parseYaml(text);
    // An empty file is an empty mapping: every field takes its default.
    return { ok: true, value: value ?? {} };
  } catch (e) {
    return { ok: false, errors: [`config ${file}: not JSON or YAML: ${yamlProblem(e)}`] };
  }
}

export function validateConfig<C>(schema: z.ZodType<C>, raw: unknown): ConfigResult<C> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: ['config: expected a mapping of config fields'] };
  }
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, config: r.data };
  return { ok: false, errors: issues(r.error, ['config']).map(formatIssue) };
}
