import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/**
 * The checked examples of docs/model.md: fenced blocks whose info string is
 * `json model-config <engine>`, `jsonl model-input <engine>` or `jsonl model-output <engine>` form
 * one example per engine; a further example of an engine adds a label (`json model-config <engine>
 * <label>`, and so on). test/cli/model-docs.test.ts runs them through `riodp model`,
 * src/cli/serve/handler.test.ts through `riodp serve`.
 */
export const MODEL_DOC = readFileSync(new URL('../../docs/model.md', import.meta.url), 'utf8');

export interface ModelExample {
  engine: string;
  config?: string;
  input?: string;
  output?: string;
}

/** Examples by name: the engine's name, followed by the label for a further example. */
export function modelExamples(): Map<string, ModelExample> {
  const out = new Map<string, ModelExample>();
  const fence = /^```(json|jsonl) model-(config|input|output) (\S+)( \S+)?\n([\s\S]*?)^```$/gm;
  for (const m of MODEL_DOC.matchAll(fence)) {
    const [, , part, engine, label, body] = m as unknown as [string, string, 'config' | 'input' | 'output', string, string | undefined, string];
    const name = engine + (label ?? '');
    const e = out.get(name) ?? { engine };
    assert.equal(e[part], undefined, `one ${part} block for ${name}`);
    e[part] = body;
    out.set(name, e);
  }
  return out;
}
