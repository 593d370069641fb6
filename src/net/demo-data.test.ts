import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSize, seededBytes, sha256File, writeSeededFile } from './demo-data.ts';

test('issue 8 §4 "move a 10 MB file": the bytes come from a seeded generator, the same for the same seed', () => {
  const a = seededBytes(4096, 7);
  assert.deepEqual(seededBytes(4096, 7), a);
  assert.notDeepEqual(seededBytes(4096, 8), a);
  // A longer run of the generator starts with the shorter one.
  assert.deepEqual(seededBytes(10_000, 7).subarray(0, 4096), a);
  // Uniform enough that no byte value is missing from 64 KiB.
  assert.equal(new Set(seededBytes(65536, 1)).size, 256);
});

test('issue 8 §4 "compare checksums": the file written holds the generator\'s bytes, and the SHA-256 returned is theirs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-demo-data-'));
  try {
    const path = join(dir, 'f.bin');
    // 2.5 MiB: more than one chunk, the last one partial.
    const size = (5 << 20) / 2 + 3;
    const sha = await writeSeededFile(path, size, 3);
    const bytes = await readFile(path);
    assert.deepEqual(bytes, seededBytes(size, 3));
    assert.equal(sha, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(await sha256File(path), sha);
    assert.equal(await writeSeededFile(join(dir, 'empty.bin'), 0, 3), createHash('sha256').digest('hex'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('issue 8 §4: a bad size or seed is a RangeError naming it', async () => {
  assert.throws(() => seededBytes(-1, 1), /size must be a non-negative integer/);
  assert.throws(() => seededBytes(1, 1.5), /seed must be a non-negative integer/);
  await assert.rejects(writeSeededFile('/nonexistent/x', Number.NaN, 1), /size must be a non-negative integer/);
});

test('decision: --size and --flood take decimal (kB, MB, GB) and binary (KiB, MiB, GiB) units, bytes without one', () => {
  assert.equal(parseSize('10MB'), 10_000_000);
  assert.equal(parseSize('2 MiB'), 2 * 1024 * 1024);
  assert.equal(parseSize('512KiB'), 524_288);
  assert.equal(parseSize('1.5kB'), 1500);
  assert.equal(parseSize('1000'), 1000);
  assert.equal(parseSize(' 64MB '), 64_000_000);
  for (const bad of ['', 'MB', '-1MB', '10 TB', '1e6', '0x10']) assert.equal(parseSize(bad), null, bad);
});
