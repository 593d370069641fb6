import { main } from '../../src/cli/main.ts';

/**
 * Runs `riodp ARGS` in this process (no spawn: a CLI start under tsx costs about a second, which
 * npm test's budget feels), capturing what it writes to stdout and stderr. The exit code is
 * main's; process.exitCode is put back so a refused command does not fail the test run.
 *
 * Only strings are captured, which is all the CLI writes: under `node --test` the test runner
 * reports the tests before through the same process.stdout as serialized Buffers, and those must
 * go on to the runner's parent.
 */
export async function riodpInProcess(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const saved = process.exitCode;
  process.exitCode = undefined;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    if (typeof chunk !== 'string') return (write.out as (c: Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    out.push(chunk);
    return true;
  });
  process.stderr.write = ((chunk: string | Uint8Array): boolean => {
    err.push(String(chunk));
    return true;
  });
  try {
    const status = await main(args);
    return { status, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    process.exitCode = saved;
  }
}
