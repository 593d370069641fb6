/**
 * Accepting riodp links: a TCP listener on loopback, or a TLS listener on any address
 * (docs/net-framing.md §5, issue 8 §3). Every accepted connection becomes a Link at once (after
 * the TLS handshake, which refuses unauthenticated peers), so its handlers are in place before
 * any frame can arrive.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { TLSSocket } from 'node:tls';
import { nonNegativeInteger, positiveInteger } from '../engine/config-checks.ts';
import { zeroCounters } from '../engine/contract.ts';
import type { Counters } from '../engine/contract.ts';
import { Link, linkOptions } from './link.ts';
import type { LinkHandlers, LinkOptions } from './link.ts';
import { checkSecurity, serverTlsOptions } from './security.ts';
import type { TlsConfig } from './security.ts';

export interface ListenOptions extends LinkOptions {
  /** Default 127.0.0.1; any address that is not loopback requires `tls`. */
  readonly host?: string;
  /** Default 0: an ephemeral port (read it from `Listener.port`). */
  readonly port?: number;
  readonly tls?: TlsConfig;
  /** Connections open at once, default 64; more are refused (counted in `refused`). */
  readonly maxConnections?: number;
  /** Called for each connection refused before it became a link (for logs; the counters say how many). */
  readonly onRefused?: (refusal: ListenerRefusal) => void;
}

/**
 * Why a listener turned a connection away (§5.1): `tls`, the handshake failed (no or a wrong
 * key or certificate, not TLS at all, no handshake within the hello timeout); `tooMany`, over
 * `maxConnections`.
 */
export type ListenerRefusalReason = 'tls' | 'tooMany';

export interface ListenerRefusal {
  readonly reason: ListenerRefusalReason;
  /** The peer's address:port, `?` for what the socket no longer knows. */
  readonly peer: string;
  /** What failed, in Node's words (the TLS error; the connection limit). */
  readonly error: string;
}

/** refused = tlsRefused + tooManyRefused. */
export const LISTENER_COUNTERS = ['accepted', 'refused', 'tlsRefused', 'tooManyRefused'] as const;
export type ListenerCounters = Counters<(typeof LISTENER_COUNTERS)[number]>;

export interface Listener {
  readonly host: string;
  readonly port: number;
  /** accepted: links created; refused: connections turned away, and per reason (failed TLS handshake, too many). */
  counters(): ListenerCounters;
  /** The links of this listener not yet closed. */
  links(): Link[];
  /** Stops accepting, closes every link (CLOSE normal), resolves once all are closed. */
  close(): Promise<void>;
}

/**
 * Listens; `onLink` is called with each new Link before it can receive anything and returns its
 * handlers. Rejects with a RangeError naming the field for a bad configuration.
 */
export async function listen(opts: ListenOptions, onLink: (link: Link) => LinkHandlers): Promise<Listener> {
  const host = checkSecurity(opts.host, opts.tls, 'listen');
  const port = nonNegativeInteger(opts.port ?? 0, 'port');
  if (port > 65535) throw new RangeError('port must be an integer from 0 to 65535');
  const max = positiveInteger(opts.maxConnections ?? 64, 'maxConnections');
  // Checked here too, so that a bad value fails listen() rather than each connection.
  linkOptions(opts);
  const counters = zeroCounters(LISTENER_COUNTERS);
  const refuse = (reason: ListenerRefusalReason, peer: string, error: string): void => {
    counters.refused++;
    counters[reason === 'tls' ? 'tlsRefused' : 'tooManyRefused']++;
    opts.onRefused?.({ reason, peer, error });
  };
  const open = new Set<Link>();
  const accept = (socket: Socket): void => {
    counters.accepted++;
    const link = new Link(socket, onLink, opts);
    open.add(link);
    socket.once('close', () => open.delete(link));
  };
  let server: Server;
  if (opts.tls === undefined) {
    server = createServer(accept);
  } else {
    const tls = createTlsServer({ ...serverTlsOptions(opts.tls), handshakeTimeout: opts.helloTimeoutMs ?? 10_000 }, accept);
    // A failed handshake may have destroyed both the TLS socket and the TCP socket it wraps
    // (Node's `_parent`) before `tlsClientError`, and then neither knows its peer any more.
    const peers = new WeakMap<Socket, string>();
    tls.on('connection', (tcp: Socket) => { peers.set(tcp, `${tcp.remoteAddress ?? '?'}:${tcp.remotePort ?? '?'}`); });
    tls.on('tlsClientError', (err, socket) => {
      const tcp = (socket as TLSSocket & { readonly _parent?: Socket | null })._parent;
      refuse('tls', (tcp == null ? undefined : peers.get(tcp)) ?? `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`, err.message);
      socket.destroy();
    });
    server = tls;
  }
  server.maxConnections = max;
  server.on('drop', (data?: { remoteAddress?: string; remotePort?: number }) => {
    refuse('tooMany', `${data?.remoteAddress ?? '?'}:${data?.remotePort ?? '?'}`, `more than ${max} connections at once`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors after listening (an accepted socket's are the Link's) have nowhere to go but here.
  server.on('error', () => undefined);
  const address = server.address() as AddressInfo;
  return {
    host,
    port: address.port,
    counters: () => ({ ...counters }),
    links: () => [...open],
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => { resolve(); }));
      const links = [...open].map(
        (l) =>
          new Promise<void>((resolve) => {
            if (l.state === 'closed') resolve();
            else l.socket.once('close', () => { resolve(); });
          }),
      );
      for (const l of open) l.close('normal', 'listener closed');
      await Promise.all([closed, ...links]);
    },
  };
}

