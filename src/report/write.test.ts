import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReport } from './write.ts';

test('issue 7 §5: writeReport creates the directory and writes index.html and the companion files', async () => {
  const base = await mkdtemp(join(tmpdir(), 'riodp-write-'));
  try {
    const dir = join(base, 'a', 'riodp-report');
    const written = await writeReport(dir, '<p>x</p>', { 'results.json': '{"a":1}', 'results.csv': 'a\n1\n' });
    assert.deepEqual(written, [join(dir, 'index.html'), join(dir, 'results.csv'), join(dir, 'results.json')]);
    assert.equal(await readFile(join(dir, 'index.html'), 'utf8'), '<p>x</p>');
    assert.equal(await readFile(join(dir, 'results.json'), 'utf8'), '{"a":1}');
    await writeReport(dir, '<p>y</p>');
    assert.equal(await readFile(join(dir, 'index.html'), 'utf8'), '<p>y</p>', 'an existing report is overwritten');
    assert.deepEqual((await readdir(dir)).sort(), ['index.html', 'results.csv', 'results.json']);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});

test('issue 7 §5 (decision): a companion file name that is not a plain file name, or is index.html, is refused before writing', async () => {
  const base = await mkdtemp(join(tmpdir(), 'riodp-write-'));
  try {
    for (const name of ['../x.json', 'a/b.json', 'a\\b.json', '..', '.', '', 'index.html']) {
      await assert.rejects(writeReport(join(base, 'r'), 'x', { [name]: 'y' }), RangeError, name);
    }
    assert.deepEqual(await readdir(base), [], 'nothing was written');
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});
