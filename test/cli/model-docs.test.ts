import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEngine } from '../../src/cli/model/engines.ts';
import { ENGINE_NAMES } from '../../src/cli/model/names.ts';
import type { EngineName } from '../../src/cli/model/names.ts';
import { riodp } from '../support/spawn.ts';

/**
 * docs/model.md: "each example is also a test". Fenced blocks whose info string is
 * `json model-config <engine>`, `jsonl model-input <engine>` or `jsonl model-output <engine>` form
 * one example per engine; a further example of an engine adds a label (`json model-config <engine>
 * <label>`, and so on). The CLI, run from source, must print the documented output exactly.
 */
const DOC = readFileSync(new URL('../../docs/model.md', import.meta.url), 'utf8');

interface Example {
  engine: string;
  config?: string;
  input?: string;
  output?: string;
}

/** Examples by name: the engine's name, followed by the label for a further example. */
function examples(): Map<string, Example> {
  const out = new Map<string, Example>();
  const fence = /^```(json|jsonl) model-(config|input|output) (\S+)( \S+)?\n([\s\S]*?)^```$/gm;
  for (const m of DOC.matchAll(fence)) {
    const [, , part, engine, label, body] = m as unknown as [string, string, 'config' | 'input' | 'output', string, string | undefined, string];
    const name = engine + (label ?? '');
    const e = out.get(name) ?? { engine };
    assert.equal(e[part], undefined, `one ${part} block for ${name}`);
    e[part] = body;
    out.set(name, e);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'riodp-model-docs-'));

test('docs/model.md has one complete example (config, input, output) per engine, and no other', () => {
  const found = examples();
  assert.deepEqual([...found.keys()].filter((name) => !name.includes(' ')).sort(), [...ENGINE_NAMES].sort());
  for (const [name, e] of found) {
    assert.ok((ENGINE_NAMES as readonly string[]).includes(e.engine), `${name}: an engine riodp model runs`);
    assert.ok(e.config !== undefined && e.input !== undefined && e.output !== undefined, name);
  }
});

for (const [name, e] of examples()) {
  test(`docs/model.md example for ${name}: riodp model prints exactly the documented output`, () => {
    const config = join(dir, `${name.replace(' ', '-')}.json`);
    writeFileSync(config, e.config ?? '');
    const r = riodp(['model', e.engine, '--config', config], e.input ?? '');
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.equal(r.stdout, e.output);
  });
}

/** The section of docs/model.md about one engine: from its heading to the next one. */
function section(engine: EngineName): string {
  const start = DOC.indexOf(`## \`${engine}\``);
  assert.ok(start >= 0, `docs/model.md has a section for ${engine}`);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

test('docs/model.md documents every config field and input kind that riodp model <engine> --describe lists', async () => {
  for (const name of ENGINE_NAMES) {
    const engine = await loadEngine(name);
    const text = section(name);
    for (const f of engine.fields) assert.ok(text.includes(`| \`${f.name}\` |`), `${name}: config field ${f.name} in the table`);
    for (const k of engine.kinds) assert.ok(text.includes(`\`${k.kind}\``), `${name}: input kind ${k.kind}`);
  }
});
