/**
 * Helpers for the `riodp segment` / `riodp reassemble` tests: the commands with binary stdin and
 * stdout, run in a child process (as users run them, pipes included) or in this process on
 * in-memory streams (the same run functions the commands call, for the larger tables).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runReassemble } from '../../src/cli/reassemble.ts';
import { runSegment } from '../../src/cli/segment.ts';
import type { CliIo } from '../../src/cli/stream-io.ts';
import type { ReassembleFlags, SegmentFlags } from '../../src/cli/stream-options.ts';
import { RIODP_ARGS } from '../support/riodp-entry.ts';


/** `riodp` as a shell word list, for pipelines run through `sh -c`. */
export const RIODP_SH = `'${process.execPath}' ${RIODP_ARGS.map((a) => `'${a}'`).join(' ')}`;

export interface Ran {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** `riodp ARGS` in a child process with binary stdin and stdout. */
export function riodpBytes(args: readonly string[], input: Uint8Array | string = ''): Ran {
  const r = spawnSync(process.execPath, [...RIODP_ARGS, ...args], { input, maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** A shell command line (a pipeline of riodp runs), stdout as bytes. */
export function shell(script: string): Ran {
  const r = spawnSync('sh', ['-c', script], { maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'riodp-stream-'));
}

/** Writes `bytes` to a new file in a new temporary folder; returns its path. */
export function tempFile(bytes: Uint8Array | string, name = 'pdu.bin'): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

/** A command run in this process on in-memory streams (its `io`), as the child process would run it. */
export async function inProcess(run: (io: CliIo) => Promise<number>, input: Uint8Array | string): Promise<Ran> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const chunk = Buffer.from(input);
  const status = await run({ stdin: Readable.from(chunk.length > 0 ? [chunk] : []), stdout, stderr });
  await new Promise((resolve) => setImmediate(resolve));
  return { status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
}

/** The flags commander hands `runSegment` (its defaults filled in) for `riodp segment`. */
export function segmentFlags(over: Partial<SegmentFlags>): SegmentFlags {
  return { flow: '0A', maxPdu: '65536', json: false, ...over };
}

/** `riodp segment` in this process; `file` undefined reads `stdin`. */
export function segment(flags: Partial<SegmentFlags>, stdin: Uint8Array | string = '', file?: string): Promise<Ran> {
  return inProcess((io) => runSegment(file, segmentFlags(flags), io), stdin);
}

/** `riodp reassemble` in this process; `file` undefined reads `stdin`. */
export function reassemble(flags: Partial<ReassembleFlags>, stdin: string = '', file?: string): Promise<Ran> {
  return inProcess((io) => runReassemble(file, { mtu: '256', segSupport: '0', lenient: false, ...flags }, io), stdin);
}

/** The options of a typical run: MTU 64, Dev8 5 ← 1, cos 3, stream 0x12. */
export const BASE = { mtu: '64', dest: '5', src: '1', cos: '3', stream: '0x12' } as const;

export const BASE_ARGS = ['--mtu', '64', '--dest', '5', '--src', '1', '--cos', '3', '--stream', '0x12'] as const;

/** Non-empty output lines. */
export function outLines(text: string | Buffer): string[] {
  return text.toString().split('\n').filter((l) => l !== '');
}
