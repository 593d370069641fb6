import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clauses, conformanceIndex } from '../../scripts/conformance-index.mjs';

test('issue 18 item 6, conformance index: a bare § belongs to the document named last before it; other documents start their own', () => {
  assert.deepEqual(clauses('Part 10 §3.2.5 rule 7, §5.5.1 and Annex 2 §4.2.5, §3.5.3: a REFUSE'), [
    ['Part 10', '3.2.5'], ['Part 10', '5.5.1'], ['Annex 2', '4.2.5'], ['Annex 2', '3.5.3'],
  ]);
  assert.deepEqual(clauses('VoQ Backpressure §3.1 Table 3-1, DECISIONS §5, riodp link §4.1'), [
    ['VoQ Backpressure', '3.1'], ['DECISIONS (docs/decisions.md)', '5'], ['riodp link (docs/net-framing.md)', '4.1'],
  ]);
  assert.deepEqual(clauses('§3.2 with no document before it, and issue 17 text'), []);
});

test('issue 18 item 6, conformance index: clauses in number order under their document, each with the tests citing it, a title citing a clause twice listed once', () => {
  const source = [
    "test('Part 9 §2.10 and §2.2.1: a', () => {});",
    'test("Part 9 §2.2.1: b, again §2.2.1", () => {});',
    'test(`Part 6 §2.4.1 ${x}: c`, () => {});',
  ].join('\n');
  const md = conformanceIndex([{ file: 'src/a.test.ts', source }]);
  const body = md.slice(md.indexOf('## '));
  assert.equal(body, [
    '## Part 6', '', '### Part 6 §2.4.1', '', '- `src/a.test.ts`: Part 6 §2.4.1 …: c', '',
    '## Part 9', '', '### Part 9 §2.2.1', '', '- `src/a.test.ts`: Part 9 §2.10 and §2.2.1: a', '- `src/a.test.ts`: Part 9 §2.2.1: b, again §2.2.1', '',
    '### Part 9 §2.10', '', '- `src/a.test.ts`: Part 9 §2.10 and §2.2.1: a', '',
  ].join('\n'));
  assert.match(md, /^4 citations in all\.$/m);
});
