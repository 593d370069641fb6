/**
 * Runs the real tshark with riodp's Lua dissector (contrib/wireshark/riodp.lua) over a capture and
 * returns, per frame, the dissector's fields in tree order: what the comparison with riodp's own
 * decoding reads (test/wireshark/reference.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { LINKTYPE_USER0, writePcapng } from '../../src/wire/index.ts';

const run = promisify(execFile);

/** The dissector's main file. */
export const DISSECTOR = resolve(import.meta.dirname, '../../contrib/wireshark/riodp.lua');

/** The tshark on PATH, or a message saying how to get one (CI installs it: .ci/run). */
export function findTshark(): { path?: string; missing?: string } {
  try {
    const path = execFileSync('sh', ['-c', 'command -v tshark'], { encoding: 'utf8' }).trim();
    if (path !== '') return { path };
  } catch {
    // Not found: reported below.
  }
  return { missing: 'tshark is not installed: the Wireshark dissector tests need it (Debian: apt-get install tshark; .ci/run installs it)' };
}

/** A scratch directory for captures, removed by `done`. */
export function scratch(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-wireshark-'));
  return {
    dir,
    done: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `records` as a riodp capture (docs/pcapng.md): one interface, one record per block. */
export function writeCapture(path: string, records: readonly Uint8Array[]): void {
  const file = writePcapng({
    section: { application: 'riodp test/wireshark' },
    interfaces: [{ name: 'test.p0.tx', linkType: LINKTYPE_USER0 }],
    packets: records.map((data, i) => ({ interfaceId: 0, timestamp: BigInt(i) * 1000n, data })),
  });
  writeFileSync(path, file);
}

/** One frame as tshark shows it: field name → values in tree order. */
export type Dissected = Map<string, string[]>;

/**
 * Runs tshark once over `file` with the dissector and the given `-o` preferences (riodp.* keys)
 * and returns every frame's fields. Extra arguments go before `-r` (e.g. `-d` decode-as rules).
 */
export async function dissect(tshark: string, file: string, prefs: Readonly<Record<string, string>> = {}, extra: readonly string[] = []): Promise<Dissected[]> {
  const args = ['-X', `lua_script:${DISSECTOR}`, ...Object.entries(prefs).flatMap(([k, v]) => ['-o', `${k}:${v}`]), ...extra, '-r', file, '-T', 'json', '--no-duplicate-keys'];
  const { stdout, stderr } = await run(tshark, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  if (/lua|error/i.test(stderr.replace(/Running as user "root".*\n?/g, ''))) throw new Error(`tshark: ${stderr}`);
  const frames = JSON.parse(stdout) as { _source: { layers: Record<string, unknown> } }[];
  return frames.map((f) => {
    const fields: Dissected = new Map();
    walk(f._source.layers, fields);
    return fields;
  });
}

function walk(node: unknown, out: Map<string, string[]>): void {
  if (Array.isArray(node)) {
    for (const v of node) walk(v, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (!key.startsWith('riodp')) {
      if (typeof value === 'object') walk(value, out);
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string') {
        const list = out.get(key);
        if (list === undefined) out.set(key, [v]);
        else list.push(v);
      } else {
        walk(v, out);
      }
    }
  }
}
