/**
 * Where a receiver of riodp's file transfer (api-file.ts) puts a file on disk, without trusting
 * the sender (issue 16 item 5):
 * - the bytes go to a temporary "part" file beside the target, named
 *   `.<name>.<pid>.<8 hex>.riodp-part`: hidden, recognisable as riodp's, and naming the process
 *   that writes it, so that a later receiver can tell a part left by a dead process from one a
 *   live receiver is still writing;
 * - a finished file never replaces one the folder has: it takes the first free name of `name`,
 *   `name (1).ext`, `name (2).ext` … (`rename`), or is refused (`refuse`). The name is claimed with
 *   `link()`, which fails with EEXIST instead of replacing (a `rename()` would replace silently),
 *   so two receivers finishing files of the same name into one folder at the same moment each get
 *   their own;
 * - a part is removed whatever ends the transfer; parts of processes that no longer run are
 *   removed when a `recv` starts on the folder (`removeStaleParts`).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, open, readdir, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';

export const PART_SUFFIX = '.riodp-part';

/** What a receiver does with a file whose name its folder already has. */
export const ON_EXISTS = ['rename', 'refuse'] as const;
export type OnExists = (typeof ON_EXISTS)[number];

/**
 * The largest file a receiver takes unless told otherwise: 4 GiB. The header's size is the
 * sender's word (up to 2^53 - 1 bytes) and the receiver writes that much to its disk; 4 GiB is far
 * above what riodp's own demo and tests move (10 MB) and bounds what one unknown sender can make
 * it write. `riodp recv --max-size` raises or lowers it.
 */
export const DEFAULT_MAX_FILE_SIZE = 4 * 1024 ** 3;

/** Numbered names tried after the name itself before a file is refused as `exists`. */
export const MAX_NUMBERED_NAMES = 999;

/** Characters of the file's name kept in its part's name: the rest of the part name is ~30 bytes, and names have 255. */
const PART_NAME_CHARS = 64;
const PART_PATTERN = /^\..*\.(\d+)\.[0-9a-f]{8}\.riodp-part$/s;

/** Names of the parts this process is writing now (unique by their random part): never stale. */
const ours = new Set<string>();

export interface Part {
  readonly path: string;
  readonly fh: FileHandle;
}

export type Placed =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly status: 'exists' | 'write'; readonly text: string };

/** The name of a part file for `name` written by process `pid`. */
export function partName(name: string, pid: number = process.pid): string {
  let short = name.slice(0, PART_NAME_CHARS);
  // Not half of a surrogate pair, which no file system would write as given.
  if (/[\uD800-\uDBFF]$/.test(short)) short = short.slice(0, -1);
  return `.${short}.${pid}.${randomBytes(4).toString('hex')}${PART_SUFFIX}`;
}

/** The pid a part file's name carries, or undefined when the name is not a riodp part's. */
export function partOwner(fileName: string): number | undefined {
  const m = PART_PATTERN.exec(fileName);
  const pid = m === null ? Number.NaN : Number(m[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** `name (n).ext`, the extension being what follows the last dot that does not start the name. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** Why a file is refused in `refuse` mode. */
export function existsText(name: string): string {
  return `${name} exists in the receiver's folder, and it refuses to replace files`;
}

/** Whether a process runs: signal 0 checks without signalling; EPERM means it runs as another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether a directory entry of that name exists (a dangling symlink does: a link() onto it fails). */
export async function nameTaken(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Creates a part for `name` in `dir` (never an existing file: 'wx'). */
export async function openPart(dir: string, name: string): Promise<Part> {
  const file = partName(name);
  const path = join(dir, file);
  // Known as ours before it exists: a sweep of the folder meanwhile must not take it for stale.
  ours.add(file);
  try {
    return { path, fh: await open(path, 'wx') };
  } catch (e) {
    ours.delete(file);
    throw e;
  }
}

/** Closes and removes a part; safe to call twice. */
export async function discardPart(part: Part): Promise<void> {
  await part.fh.close().catch(() => undefined);
  await unlink(part.path).catch(() => undefined);
  ours.delete(basename(part.path));
}

/** File systems without hard links answer link() with one of these; a copy that refuses to replace does instead. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Makes `to` a copy of `from` unless `to` exists (then throws EEXIST). */
async function claim(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (e) {
    if (!NO_HARD_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    try {
      await copyFile(from, to, constants.COPYFILE_EXCL);
    } catch (c) {
      if ((c as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(to).catch(() => undefined);
      throw c;
    }
  }
}

/**
 * Gives a finished part its place in `dir` under `name` or, when that is taken and `onExists` is
 * `rename`, the first free numbered name; the part is removed in every case.
 */
export async function placePart(part: Part, dir: string, name: string, onExists: OnExists): Promise<Placed> {
  try {
    await part.fh.close().catch(() => undefined);
    const last = onExists === 'rename' ? MAX_NUMBERED_NAMES : 0;
    for (let n = 0; n <= last; n++) {
      const path = join(dir, n === 0 ? name : numberedName(name, n));
      try {
        await claim(part.path, path);
        return { ok: true, path };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: false, status: 'write', text: `cannot write ${path}: ${(e as Error).message}` };
      }
    }
    return {
      ok: false,
      status: 'exists',
      text: onExists === 'refuse' ? existsText(name) : `${name} and ${numberedName(name, 1)} to ${numberedName(name, MAX_NUMBERED_NAMES)} exist in the receiver's folder`,
    };
  } finally {
    await discardPart(part);
  }
}

/**
 * Removes the part files in `dir` that processes no longer running left behind (killed
 * receivers); resolves with their names. A part of a live process is kept; so is one of this
 * process unless it is not among those it writes now (a part of an earlier process that had the
 * same pid, as a container's end point often has). Pids are this machine's: a folder shared with
 * another machine or pid namespace must not have receivers on both sides.
 */
export async function removeStaleParts(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const e of entries) {
    const pid = e.isFile() ? partOwner(e.name) : undefined;
    if (pid === undefined) continue;
    const path = join(dir, e.name);
    const stale = pid === process.pid ? !ours.has(e.name) : !processAlive(pid);
    if (!stale) continue;
    try {
      await unlink(path);
      removed.push(e.name);
    } catch {
      // Gone already (another receiver swept it), or not ours to remove: nothing to count.
    }
  }
  return removed;
}
