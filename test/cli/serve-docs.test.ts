import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { riodp } from '../support/spawn.ts';

/**
 * docs/serve.md: every `jsonl serve-requests <name>` block, sent to `riodp serve`, is answered with
 * exactly the `jsonl serve-responses <name>` block (riodp's version aside).
 */
const DOC = readFileSync(new URL('../../docs/serve.md', import.meta.url), 'utf8');

function examples(): Map<string, { requests?: string; responses?: string }> {
  const out = new Map<string, { requests?: string; responses?: string }>();
  for (const m of DOC.matchAll(/^```jsonl serve-(requests|responses) (\S+)\n([\s\S]*?)^```$/gm)) {
    const [, part, name, body] = m as unknown as [string, 'requests' | 'responses', string, string];
    const e = out.get(name) ?? {};
    assert.equal(e[part], undefined, `one ${part} block for ${name}`);
    e[part] = body;
    out.set(name, e);
  }
  return out;
}

const anyVersion = (s: string): string => s.replace(/"version":"[^"]*"/g, '"version":"…"');

test('docs/serve.md has checked examples of every request and of the errors', () => {
  assert.deepEqual([...examples().keys()].sort(), ['codec', 'create', 'errors', 'input', 'ping', 'snapshot']);
  const requests = [...examples().values()].map((e) => e.requests ?? '').join('');
  for (const op of ['ping', 'create', 'input', 'snapshot', 'counters', 'list', 'delete', 'decode', 'encode']) assert.match(requests, new RegExp(`"op":"${op}"`), op);
});

for (const [name, e] of examples()) {
  test(`issue 18 item 3: the docs/serve.md example ${name}: riodp serve answers exactly the documented responses`, () => {
    assert.ok(e.requests !== undefined && e.responses !== undefined, name);
    const r = riodp(['serve'], e.requests);
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.equal(anyVersion(r.stdout), anyVersion(e.responses));
  });
}
