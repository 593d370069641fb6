import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEngine } from '../../src/cli/model/engines.ts';
import { ENGINE_NAMES } from '../../src/cli/model/names.ts';
import type { EngineName } from '../../src/cli/model/names.ts';
import { riodp } from '../support/spawn.ts';
import { MODEL_DOC, modelExamples } from '../support/model-examples.ts';

/**
 * docs/model.md: "each example is also a test". The CLI, run from source, must print the
 * documented output exactly (the examples: test/support/model-examples.ts).
 */
const dir = mkdtempSync(join(tmpdir(), 'riodp-model-docs-'));

test('docs/model.md has one complete example (config, input, output) per engine, and no other', () => {
  const found = modelExamples();
  assert.deepEqual([...found.keys()].filter((name) => !name.includes(' ')).sort(), [...ENGINE_NAMES].sort());
  for (const [name, e] of found) {
    assert.ok((ENGINE_NAMES as readonly string[]).includes(e.engine), `${name}: an engine riodp model runs`);
    assert.ok(e.config !== undefined && e.input !== undefined && e.output !== undefined, name);
  }
});

for (const [name, e] of modelExamples()) {
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
  const start = MODEL_DOC.indexOf(`## \`${engine}\``);
  assert.ok(start >= 0, `docs/model.md has a section for ${engine}`);
  const end = MODEL_DOC.indexOf('\n## ', start + 1);
  return MODEL_DOC.slice(start, end < 0 ? undefined : end);
}

test('docs/model.md documents every config field and input kind that riodp model <engine> --describe lists', async () => {
  for (const name of ENGINE_NAMES) {
    const engine = await loadEngine(name);
    const text = section(name);
    for (const f of engine.fields) assert.ok(text.includes(`| \`${f.name}\` |`), `${name}: config field ${f.name} in the table`);
    for (const k of engine.kinds) assert.ok(text.includes(`\`${k.kind}\``), `${name}: input kind ${k.kind}`);
  }
});
