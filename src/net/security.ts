/**
 * Who may talk to a riodp link (issue 8 §3: "Listen on loopback by default. Any other address
 * requires TLS (node:tls) with a pre-shared key or certificates; unauthenticated peers are
 * refused"), as docs/net-framing.md §5 specifies.
 *
 * - Without TLS, both ends must be loopback IP literals (127.0.0.0/8, ::1); a name such as
 *   "localhost" is refused, since what it resolves to is not ours to check.
 * - PSK: TLS 1.3 external PSK (any TLS 1.3 suite with SHA-256; OpenSSL picks
 *   TLS_AES_128_GCM_SHA256 or TLS_CHACHA20_POLY1305_SHA256) or, for peers without TLS 1.3,
 *   TLS 1.2 with the ECDHE-PSK suites below (forward secrecy; plain PSK suites are not offered).
 *   The server knows one identity and its key and refuses any other identity.
 * - Certificates: TLS 1.2 or 1.3, mutual. The server asks for and verifies the client's
 *   certificate against the configured CA (`requestCert` + `rejectUnauthorized`); the client
 *   verifies the server's against the same CA and its name (the host, or `serverName`).
 */
import { isIP } from 'node:net';
import type { ConnectionOptions, TlsOptions } from 'node:tls';

/** A pre-shared key and its identity. */
export interface PskConfig {
  /** 1 to 128 bytes of UTF-8 (RFC 4279 §5.3). */
  readonly identity: string;
  /** 16 to 64 bytes (RFC 4279 §5.3: "PSKs up to 64 octets in length MUST be supported"). */
  readonly key: Uint8Array;
}

/** Certificates for mutual TLS. */
export interface CertConfig {
  /** PEM: this node's certificate chain, its private key, and the CA its peers' certificates chain to. */
  readonly cert: string | Uint8Array;
  readonly key: string | Uint8Array;
  readonly ca: string | Uint8Array;
  /** The name the client checks the server's certificate against, when it is not the host. */
  readonly serverName?: string;
}

/** TLS of a link: a pre-shared key or certificates (docs/net-framing.md §5). */
export type TlsConfig = { readonly psk: PskConfig } | { readonly cert: CertConfig };

/** TLS 1.2 suites offered with a PSK: ECDHE for forward secrecy, AEAD first. */
export const PSK_TLS12_CIPHERS = 'ECDHE-PSK-CHACHA20-POLY1305:ECDHE-PSK-AES256-CBC-SHA384:ECDHE-PSK-AES128-CBC-SHA256';

export const DEFAULT_HOST = '127.0.0.1';

const utf8 = new TextEncoder();

/** Whether `host` is a loopback IP literal: 127.0.0.0/8, ::1, or 127.x.y.z mapped into IPv6. */
export function isLoopback(host: string): boolean {
  const kind = isIP(host);
  if (kind === 4) return host.startsWith('127.');
  if (kind !== 6) return false;
  // The URL parser writes an IPv6 address in its one canonical form, mapped IPv4 in hex.
  let h: string;
  try {
    h = new URL(`http://[${host}]`).hostname;
  } catch {
    return false; // a zone index (fe80::1%eth0) names a link, never loopback
  }
  return h === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
}

/**
 * Checks the address and the TLS configuration of a listener or a connection; returns the host
 * to use. Throws a RangeError naming the field.
 */
export function checkSecurity(host: unknown, tls: unknown, side: 'listen' | 'connect'): string {
  const h = host === undefined ? DEFAULT_HOST : host;
  if (typeof h !== 'string' || h === '') throw new RangeError('host must be a non-empty string');
  if (tls === undefined) {
    if (!isLoopback(h)) {
      const what = side === 'listen' ? 'listen on' : 'connect to';
      throw new RangeError(`host must be a loopback address (127.0.0.0/8 or ::1) to ${what} ${h} without tls; configure tls.psk or tls.cert`);
    }
    return h;
  }
  checkTls(tls);
  return h;
}

function checkTls(tls: unknown): asserts tls is TlsConfig {
  if (typeof tls !== 'object' || tls === null) throw new RangeError('tls must be an object with psk or cert');
  const hasPsk = 'psk' in tls && tls.psk !== undefined;
  const hasCert = 'cert' in tls && tls.cert !== undefined;
  if (hasPsk === hasCert) throw new RangeError('tls must have exactly one of psk, cert');
  if (hasPsk) {
    const psk = tls.psk as Partial<PskConfig> | null;
    if (typeof psk !== 'object' || psk === null) throw new RangeError('tls.psk must be an object');
    const id = psk.identity;
    if (typeof id !== 'string' || id === '' || utf8.encode(id).length > 128) throw new RangeError('tls.psk.identity must be 1 to 128 bytes of UTF-8');
    const key = psk.key;
    if (!(key instanceof Uint8Array) || key.length < 16 || key.length > 64) throw new RangeError('tls.psk.key must be 16 to 64 bytes');
    return;
  }
  const cert = (tls as { cert: unknown }).cert as Partial<CertConfig> | null;
  if (typeof cert !== 'object' || cert === null) throw new RangeError('tls.cert must be an object');
  for (const f of ['cert', 'key', 'ca'] as const) {
    const v = cert[f];
    if (!(typeof v === 'string' || v instanceof Uint8Array) || v.length === 0) throw new RangeError(`tls.cert.${f} must be PEM text or bytes`);
  }
  if (cert.serverName !== undefined && (typeof cert.serverName !== 'string' || cert.serverName === '')) {
    throw new RangeError('tls.cert.serverName must be a non-empty string');
  }
}

const pem = (v: string | Uint8Array): string | Buffer => (typeof v === 'string' ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength));

/** node:tls server options for a checked configuration. */
export function serverTlsOptions(tls: TlsConfig): TlsOptions {
  if ('psk' in tls) {
    const { identity, key } = tls.psk;
    const k = Buffer.from(key);
    return {
      minVersion: 'TLSv1.2',
      ciphers: PSK_TLS12_CIPHERS,
      pskCallback: (_socket, id) => (id === identity ? k : null),
    };
  }
  const c = tls.cert;
  return { minVersion: 'TLSv1.2', cert: pem(c.cert), key: pem(c.key), ca: pem(c.ca), requestCert: true, rejectUnauthorized: true };
}

/** node:tls client options for a checked configuration. */
export function clientTlsOptions(tls: TlsConfig): ConnectionOptions {
  if ('psk' in tls) {
    const { identity, key } = tls.psk;
    const k = Buffer.from(key);
    return {
      minVersion: 'TLSv1.2',
      ciphers: PSK_TLS12_CIPHERS,
      pskCallback: () => ({ psk: k, identity }),
      // No certificate to check: the PSK authenticates the server ("a custom checkServerIdentity
      // should be passed because the default one will fail in the absence of a certificate").
      checkServerIdentity: () => undefined,
    };
  }
  const c = tls.cert;
  return {
    minVersion: 'TLSv1.2',
    cert: pem(c.cert),
    key: pem(c.key),
    ca: pem(c.ca),
    rejectUnauthorized: true,
    ...(c.serverName === undefined ? {} : { servername: c.serverName }),
  };
}
