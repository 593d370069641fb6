import { chmod, lstat, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { isLoopback } from '../../net/security.ts';
import { socketInUse } from '../../net/socket-in-use.ts';

/**
 * `riodp serve --listen`: a loopback TCP port (`127.0.0.1:PORT`, `[::1]:PORT`, port 0 for any
 * free port) or a Unix socket path. The golden model has no authentication and no TLS, so TCP
 * listens on loopback only; a Unix socket is made mode 0600 (only its owner may connect).
 */
export type ListenAddress = { readonly host: string; readonly port: number } | { readonly path: string };

const HOST_PORT = /^(?:\[([^\]]+)\]|([^:/[\]]+)):(\d+)$/;

/** The address of a --listen value, or the one-line reason it cannot be used. */
export function parseListen(text: string): ListenAddress | string {
  const m = HOST_PORT.exec(text);
  if (m === null) return text === '' ? 'expected HOST:PORT or a Unix socket path' : { path: text };
  const host = m[1] ?? m[2] ?? '';
  const port = Number(m[3]);
  if (!isLoopback(host)) return `${host} is not a loopback address (127.0.0.0/8 or ::1): riodp serve listens on loopback or a Unix socket only`;
  if (port > 65535) return `port ${m[3]} is not 0..65535`;
  return { host, port };
}

/** An address as people write it: IPv6 in brackets. */
export function formatAddress(a: ListenAddress): string {
  if ('path' in a) return a.path;
  return a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

export interface Listener {
  /** The bound address: the port the system chose for port 0. */
  readonly address: ListenAddress;
  close(): Promise<void>;
}

/** Listens; each connection goes to `serve`. Rejects with an Error naming the address when it cannot listen. */
export async function listen(a: ListenAddress, serve: (conn: Socket) => void): Promise<Listener> {
  if ('path' in a) {
    const existing = await lstat(a.path).catch(() => undefined);
    if (existing !== undefined) {
      // Only a socket file nobody answers on (left by a killed server) is replaced: never a file.
      if (!existing.isSocket()) throw new Error(`${a.path}: exists and is not a socket`);
      if (await socketInUse(a.path)) throw new Error(`${a.path}: another process listens on it`);
      await unlink(a.path).catch(() => undefined);
    }
  }
  const conns = new Set<Socket>();
  const server: Server = createServer((conn) => {
    conns.add(conn);
    conn.once('close', () => conns.delete(conn));
    serve(conn);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(new Error(`${formatAddress(a)}: cannot listen (${e.code ?? e.message})`));
    });
    if ('path' in a) server.listen(a.path, resolve);
    else server.listen(a.port, a.host, resolve);
  });
  if ('path' in a) await chmod(a.path, 0o600);
  const bound = 'path' in a ? a : { host: a.host, port: (server.address() as AddressInfo).port };
  return {
    address: bound,
    close: async () => {
      for (const c of conns) c.destroy();
      await new Promise<void>((resolve) => server.close(() => { resolve(); }));
      if ('path' in a) await unlink(a.path).catch(() => undefined);
    },
  };
}
