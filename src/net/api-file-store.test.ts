import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_MAX_FILE_SIZE, MAX_NUMBERED_NAMES, numberedName, openPart, partName, partOwner, placePart, processAlive, removeStaleParts,
} from './api-file-store.ts';

async function inDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-store-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.equal(typeof r.pid, 'number');
  assert.equal(processAlive(r.pid), false, 'the child has ended');
  return r.pid;
}

async function partWith(dir: string, name: string, text: string) {
  const p = await openPart(dir, name);
  await p.fh.write(text);
  return p;
}

test('issue 16 item 5 (decision EA21): a part file is named .<name>.<pid>.<8 hex>.riodp-part, and its pid read back; other names are not parts', () => {
  const n = partName('data.bin', 4242);
  assert.match(n, /^\.data\.bin\.4242\.[0-9a-f]{8}\.riodp-part$/);
  assert.equal(partOwner(n), 4242);
  assert.equal(partOwner(partName('a.7.b', 12)), 12, 'digits in the name do not confuse the pid');
  assert.equal(partOwner(partName('x'.repeat(300), 5)), 5);
  assert.ok(partName('x'.repeat(300)).length < 100, 'a long name is cut in the part name (names have 255 bytes)');
  for (const other of ['data.bin', '.data.bin.riodp-part', 'data.bin.12.0123abcd.riodp-part', '.x.0.0123abcd.riodp-part', '.x.12.0123ABCD.riodp-part', '.x.12.0123abcd.part']) {
    assert.equal(partOwner(other), undefined, other);
  }
});

test('issue 16 item 5 (decision EA20): a taken name becomes "name (n).ext", the extension after the last dot that does not start the name', () => {
  assert.equal(numberedName('data.bin', 1), 'data (1).bin');
  assert.equal(numberedName('archive.tar.gz', 2), 'archive.tar (2).gz');
  assert.equal(numberedName('README', 3), 'README (3)');
  assert.equal(numberedName('.bashrc', 1), '.bashrc (1)');
  assert.equal(DEFAULT_MAX_FILE_SIZE, 4 * 1024 ** 3);
});

test('issue 16 item 5 "never overwrite": a finished part takes the first free name (rename) and the files there are left as they were; the part is gone', async () => {
  await inDir(async (dir) => {
    await writeFile(join(dir, 'x.bin'), 'first');
    await writeFile(join(dir, 'x (1).bin'), 'second');
    const placed = await placePart(await partWith(dir, 'x.bin', 'third'), dir, 'x.bin', 'rename');
    assert.deepEqual(placed, { ok: true, path: join(dir, 'x (2).bin') });
    assert.deepEqual(await Promise.all(['x.bin', 'x (1).bin', 'x (2).bin'].map((f) => readFile(join(dir, f), 'utf8'))), ['first', 'second', 'third']);
    assert.deepEqual((await readdir(dir)).sort(), ['x (1).bin', 'x (2).bin', 'x.bin']);
  });
});

test('issue 16 item 5 "never overwrite": with refuse, a taken name is answered exists, the file there is unchanged and the part removed; a dangling symlink counts as taken', async () => {
  await inDir(async (dir) => {
    await writeFile(join(dir, 'y.txt'), 'mine');
    const placed = await placePart(await partWith(dir, 'y.txt', 'theirs'), dir, 'y.txt', 'refuse');
    assert.deepEqual(placed, { ok: false, status: 'exists', text: "y.txt exists in the receiver's folder, and it refuses to replace files" });
    assert.equal(await readFile(join(dir, 'y.txt'), 'utf8'), 'mine');
    assert.deepEqual(await readdir(dir), ['y.txt']);
    await symlink(join(dir, 'nowhere'), join(dir, 'z'));
    assert.equal((await placePart(await partWith(dir, 'z', 'x'), dir, 'z', 'refuse')).ok, false);
  });
});

test('issue 16 item 5 "never overwrite" (decision EA20): parts of one name finished at the same moment each get their own name (link() claims a name or fails, rename() would replace)', async () => {
  await inDir(async (dir) => {
    const parts = await Promise.all(Array.from({ length: 6 }, (_, i) => partWith(dir, 'same.dat', `copy ${i}`)));
    const placed = await Promise.all(parts.map((p) => placePart(p, dir, 'same.dat', 'rename')));
    const paths = placed.map((p) => (p.ok ? p.path : p.text));
    assert.equal(new Set(paths).size, 6);
    const texts = await Promise.all(paths.map((p) => readFile(p, 'utf8')));
    assert.deepEqual(texts.sort(), ['copy 0', 'copy 1', 'copy 2', 'copy 3', 'copy 4', 'copy 5']);
    assert.equal((await readdir(dir)).length, 6, 'no part left');
  });
});

test(`issue 16 item 5 (decision EA20): after the name and its ${MAX_NUMBERED_NAMES} numbered names the file is refused as exists; a name the file system refuses is a write failure; the part is removed either way`, async () => {
  await inDir(async (dir) => {
    await Promise.all([writeFile(join(dir, 'n'), ''), ...Array.from({ length: MAX_NUMBERED_NAMES }, (_, i) => writeFile(join(dir, numberedName('n', i + 1)), ''))]);
    const full = await placePart(await partWith(dir, 'n', 'x'), dir, 'n', 'rename');
    assert.deepEqual(full, { ok: false, status: 'exists', text: `n and n (1) to n (${MAX_NUMBERED_NAMES}) exist in the receiver's folder` });
    const long = 'L'.repeat(255);
    await writeFile(join(dir, long), '');
    const tooLong = await placePart(await partWith(dir, long, 'x'), dir, long, 'rename');
    assert.ok(!tooLong.ok && tooLong.status === 'write', JSON.stringify(tooLong));
    assert.equal((await readdir(dir)).filter((f) => partOwner(f) !== undefined).length, 0);
  });
});

test('issue 16 item 5 ".part files removed when the process restarts": parts of processes that have ended are removed; parts of a live process, and this process\'s own open parts, are kept', async () => {
  await inDir(async (dir) => {
    const dead = partName('gone.bin', deadPid());
    const earlierSelf = partName('earlier.bin', process.pid);
    const alive = partName('parent.bin', process.ppid);
    await Promise.all([dead, earlierSelf, alive, 'notes.txt', '.hidden'].map((f) => writeFile(join(dir, f), 'x')));
    const open = await openPart(dir, 'writing.bin');
    const removed = await removeStaleParts(dir);
    assert.deepEqual(removed.sort(), [dead, earlierSelf].sort());
    const left = (await readdir(dir)).sort();
    assert.deepEqual(left, ['.hidden', alive, open.path.slice(dir.length + 1), 'notes.txt'].sort());
    assert.deepEqual(await removeStaleParts(join(dir, 'missing')), [], 'a folder that does not exist has none');
    await open.fh.close();
  });
});

test('issue 16 item 5: processAlive is true for a running process (this one, its parent) and false for one that ended', () => {
  assert.equal(processAlive(process.pid), true);
  assert.equal(processAlive(process.ppid), true);
  assert.equal(processAlive(deadPid()), false);
});
