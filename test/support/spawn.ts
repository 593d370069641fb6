import { spawnSync } from 'node:child_process';
import { RIODP_ARGS } from './riodp-entry.ts';

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `riodp ARGS` (riodp-entry.ts) with optional stdin, the way a user's script would. */
export function riodp(args: readonly string[], input?: string): Run {
  const r = spawnSync(process.execPath, [...RIODP_ARGS, ...args], { input: input ?? '', encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
