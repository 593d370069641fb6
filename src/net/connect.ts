/**
 * Opening a riodp link to a listener (docs/net-framing.md §4.1, §5): plain TCP to a loopback
 * address, TLS to any. The promise resolves once the peer's HELLO has arrived, so a caller holds
 * only links that are open; it rejects if the connection, the TLS handshake or the HELLO exchange
 * fails first.
 */
import { connect as tcpConnect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { positiveInteger } from '../engine/config-checks.ts';
import { Link, linkOptions } from './link.ts';
import type { LinkClosed, LinkHandlers, LinkOptions } from './link.ts';
import { checkSecurity, clientTlsOptions } from './security.ts';
import type { TlsConfig } from './security.ts';

/** Where an end point's link connects (the switch port), and how. */
export interface ConnectOptions extends LinkOptions {
  /** Default 127.0.0.1; any address that is not loopback requires `tls`. */
  readonly host?: string;
  readonly port: number;
  readonly tls?: TlsConfig;
  /** Time for the TCP connection and the TLS handshake, default 10 000 ms. */
  readonly connectTimeoutMs?: number;
}

/** Why a connection did not become an open link. */
export class ConnectError extends Error {
  /** How the link ended, when it got as far as being a link. */
  readonly closed: LinkClosed | null;

  constructor(message: string, closed: LinkClosed | null, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.closed = closed;
  }
}
Object.defineProperty(ConnectError.prototype, 'name', { value: 'ConnectError', writable: true, configurable: true });

/**
 * Checks the options as `connect` does before it opens anything; returns the host, the port and
 * the connect timeout. Throws a RangeError naming the field: a caller that retries connections
 * (an end point process) checks once first, since no retry can mend a configuration.
 */
export function checkConnectOptions(opts: ConnectOptions): { readonly host: string; readonly port: number; readonly timeoutMs: number } {
  const host = checkSecurity(opts.host, opts.tls, 'connect');
  const port = positiveInteger(opts.port, 'port');
  if (port > 65535) throw new RangeError('port must be an integer from 1 to 65535');
  const timeoutMs = positiveInteger(opts.connectTimeoutMs ?? 10_000, 'connectTimeoutMs');
  linkOptions(opts);
  return { host, port, timeoutMs };
}

export async function connect(opts: ConnectOptions, handlers: LinkHandlers | ((link: Link) => LinkHandlers) = {}): Promise<Link> {
  const { host, port, timeoutMs } = checkConnectOptions(opts);
  const socket = await open(host, port, opts.tls, timeoutMs);
  return new Promise<Link>((resolve, reject) => {
    let opened = false;
    new Link(
      socket,
      (l) => {
        const h = typeof handlers === 'function' ? handlers(l) : handlers;
        return {
          ...h,
          onOpen: (version) => {
            opened = true;
            h.onOpen?.(version);
            resolve(l);
          },
          onClose: (closed) => {
            h.onClose?.(closed);
            if (!opened) reject(new ConnectError(`link to ${host}:${port} closed before it opened: ${closed.reasonName} ${closed.text}`.trim(), closed));
          },
        };
      },
      opts,
    );
  });
}

/** A connected socket: TCP, or TLS once the handshake has authenticated both sides. */
function open(host: string, port: number, tls: TlsConfig | undefined, timeoutMs: number): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket: Socket = tls === undefined ? tcpConnect({ host, port }) : tlsConnect({ host, port, ...clientTlsOptions(tls) });
    const ready = tls === undefined ? 'connect' : 'secureConnect';
    const timer = setTimeout(() => {
      socket.destroy(new ConnectError(`no connection to ${host}:${port} within ${timeoutMs} ms`, null));
    }, timeoutMs).unref();
    const fail = (e: Error): void => {
      clearTimeout(timer);
      reject(e instanceof ConnectError ? e : new ConnectError(`cannot connect to ${host}:${port}: ${e.message}`, null, e));
    };
    socket.once('error', fail);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}
