import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./riodp.ts', import.meta.url));

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `riodp ARGS` from source with optional stdin, the way a user's script would. */
export function riodp(args: readonly string[], input?: string): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], { input: input ?? '', encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
