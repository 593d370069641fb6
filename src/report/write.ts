import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * Writes a report directory (issue 7 §5: "writes `riodp-report/index.html`"): the page and any
 * companion files (results.json, results.csv …) side by side, so the directory can be zipped or
 * served as it is.
 */

/** A companion file: its text, or a function that writes it at the path given (a file too large for one string). */
export type ReportFile = string | ((path: string) => Promise<void> | void);

export type ReportFiles = Readonly<Partial<Record<'results.json' | 'results.csv' | 'points.json' | 'points.csv', ReportFile>>> &
  Readonly<Record<string, ReportFile>>;

/**
 * Returns the paths written, index.html first. A companion file name must be a plain file name:
 * a path separator or ".." would write outside the report directory, and "index.html" would
 * overwrite the page.
 */
export async function writeReport(dir: string, html: string, extra: ReportFiles = {}): Promise<string[]> {
  for (const name of Object.keys(extra)) {
    if (name === '' || name === '.' || name === '..' || basename(name) !== name || name.includes('/') || name.includes('\\')) {
      throw new RangeError(`extra: ${JSON.stringify(name)} is not a plain file name`);
    }
    if (name === 'index.html') throw new RangeError('extra: "index.html" is the report page itself');
  }
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  const index = join(dir, 'index.html');
  await writeFile(index, html, 'utf8');
  written.push(index);
  for (const name of Object.keys(extra).sort()) {
    const path = join(dir, name);
    const file = extra[name] ?? '';
    if (typeof file === 'string') await writeFile(path, file, 'utf8');
    else await file(path);
    written.push(path);
  }
  return written;
}
