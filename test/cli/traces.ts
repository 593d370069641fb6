import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary folder for a test file's configs; `file(text)` writes one and returns its path. */
export function tempFiles(prefix: string): (text: string, ext?: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  return (text, ext = 'yaml') => {
    const p = join(dir, `f${n++}.${ext}`);
    writeFileSync(p, text);
    return p;
  };
}

/** A JSON Lines trace: objects are serialised, strings (raw or deliberately bad lines) kept as they are. */
export function trace(objects: readonly unknown[]): string {
  return objects.map((o) => (typeof o === 'string' ? o : JSON.stringify(o))).join('\n') + '\n';
}
