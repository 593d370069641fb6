import type { Socket } from 'node:net';
import { formatAddress, listen, parseListen } from './listen.ts';
import type { Listener } from './listen.ts';
import { serveSession } from './session.ts';
import type { SessionOptions } from './session.ts';

/**
 * `riodp serve`: stdin and stdout are one client; with --listen, every connection to the address
 * is another, served at the same time, each with its own engine instances. Without --listen the
 * server ends when stdin ends (exit 0); with it, it runs until SIGINT or SIGTERM, which close the
 * listener (and remove the Unix socket) and exit 0. Exit 2 for an unusable --listen address, 1
 * when it cannot listen.
 */
export interface ServeFlags {
  readonly listen?: string;
  /** --max-line, as given: digits, > 0. */
  readonly maxLine: string;
}

function fail(message: string, code: number): number {
  process.stderr.write(`riodp serve: ${message}\n`);
  return code;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => { resolve(); });
    process.once('SIGTERM', () => { resolve(); });
  });
}

export async function runServe(flags: ServeFlags, version: string): Promise<number> {
  const maxLine = /^\d+$/.test(flags.maxLine) ? Number(flags.maxLine) : NaN;
  if (!(maxLine > 0 && Number.isSafeInteger(maxLine))) return fail(`--max-line ${flags.maxLine}: expected a number of bytes > 0`, 2);
  const opts: SessionOptions = { version, maxLine };
  const address = flags.listen === undefined ? undefined : parseListen(flags.listen);
  if (typeof address === 'string') return fail(`--listen ${flags.listen ?? ''}: ${address}`, 2);
  let listener: Listener | undefined;
  if (address !== undefined) {
    const serveConn = (conn: Socket): void => {
      // A reset connection ends its client only: the session sees the error and returns.
      conn.on('error', () => undefined);
      void serveSession(conn, conn, opts).catch((e: unknown) => {
        process.stderr.write(`riodp serve: a connection failed: ${e instanceof Error ? e.message : String(e)}\n`);
      }).finally(() => conn.end());
    };
    try {
      listener = await listen(address, serveConn);
    } catch (e) {
      return fail(e instanceof Error ? e.message : String(e), 1);
    }
    process.stderr.write(`riodp serve: listening on ${formatAddress(listener.address)}\n`);
  }
  const stdin = serveSession(process.stdin, process.stdout, opts);
  if (listener === undefined) {
    await stdin;
    return 0;
  }
  // stdin's end ends that client only: `riodp serve --listen … < /dev/null &` keeps serving.
  await untilSignal();
  await listener.close();
  process.stdin.destroy();
  return 0;
}
