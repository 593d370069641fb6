import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { TLSSocket } from 'node:tls';
import { once } from 'node:events';
import type { Packet, SerialPacket } from '../wire/packet.ts';
import { ConnectError, connect } from './connect.ts';
import { Link } from './link.ts';
import type { LinkClosed, LinkHandlers } from './link.ts';
import { listen } from './listen.ts';
import type { Listener, ListenerRefusal, ListenOptions } from './listen.ts';
import { clientTlsOptions } from './security.ts';
import type { CertConfig, TlsConfig } from './security.ts';

const pem = (name: string): string => readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
/** testdata/gen.sh: a CA, a server certificate for 127.0.0.1, a client certificate, and one from another CA. */
const serverCert: CertConfig = { cert: pem('server.pem'), key: pem('server.key'), ca: pem('ca.pem') };
const clientCert: CertConfig = { cert: pem('client.pem'), key: pem('client.key'), ca: pem('ca.pem') };
const strangerCert: CertConfig = { cert: pem('stranger.pem'), key: pem('stranger.key'), ca: pem('ca.pem') };
const psk = (fill: number, identity = 'fabric'): TlsConfig => ({ psk: { identity, key: new Uint8Array(32).fill(fill) } });

const doorbell = (info: number): Packet => ({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 1, sourceID: 2, rsrv: 0, srcTID: 0, info });

/** A listener whose links echo every packet back; closed after the test. */
async function echo(ctx: TestContext, opts: ListenOptions = {}): Promise<Listener> {
  const l = await listen(opts, (link) => ({ onPacket: (p) => link.sendPacket(p) }));
  ctx.after(() => l.close());
  return l;
}

/** Connects, sends one packet and waits for it to come back. */
async function roundTrip(ctx: TestContext, port: number, tls?: TlsConfig): Promise<{ link: Link; back: SerialPacket }> {
  let got!: (p: SerialPacket) => void;
  const back = new Promise<SerialPacket>((r) => (got = r));
  const link = await connect({ port, ...(tls === undefined ? {} : { tls }) }, { onPacket: (p) => { got(p); } });
  ctx.after(() => { link.destroy(); });
  assert.equal(link.state, 'open');
  link.sendPacket(doorbell(0xbeef));
  return { link, back: await back };
}

test('issue 8 §3 "Listen on loopback by default": a plain listener binds 127.0.0.1 on an ephemeral port and carries packets', async (ctx) => {
  const l = await echo(ctx);
  assert.equal(l.host, '127.0.0.1');
  assert.ok(l.port > 0);
  const { back } = await roundTrip(ctx, l.port);
  assert.equal(back.ftype === 10 && back.info, 0xbeef);
  assert.equal(l.counters().accepted, 1);
  assert.equal(l.links().length, 1);
});

test('issue 8 §3 "Any other address requires TLS": listen on 0.0.0.0 without tls is refused before anything is bound', async () => {
  await assert.rejects(listen({ host: '0.0.0.0' }, () => ({})), /^RangeError: host must be a loopback address/);
  await assert.rejects(listen({ port: 70000 }, () => ({})), /^RangeError: port must be an integer from 0 to 65535$/);
  await assert.rejects(listen({ maxFrameSize: 10 }, () => ({})), /^RangeError: maxFrameSize/);
});

test('riodp link §5.2: a TLS listener with a pre-shared key (TLS 1.3) carries packets', async (ctx) => {
  const l = await echo(ctx, { tls: psk(7) });
  const { link, back } = await roundTrip(ctx, l.port, psk(7));
  assert.equal(back.ftype === 10 && back.info, 0xbeef);
  assert.ok(link.socket instanceof TLSSocket);
  assert.equal(link.socket.getProtocol(), 'TLSv1.3');
});

test('riodp link §5.2: a TLS 1.2 peer gets an ECDHE-PSK suite', async (ctx) => {
  const l = await echo(ctx, { tls: psk(7) });
  const socket = tlsConnect({ host: '127.0.0.1', port: l.port, ...clientTlsOptions(psk(7)), maxVersion: 'TLSv1.2' });
  ctx.after(() => socket.destroy());
  await once(socket, 'secureConnect');
  assert.equal(socket.getProtocol(), 'TLSv1.2');
  assert.equal(socket.getCipher().name, 'ECDHE-PSK-CHACHA20-POLY1305');
  let opened!: () => void;
  const open = new Promise<void>((r) => (opened = r));
  const link = new Link(socket, { onOpen: () => { opened(); } });
  await open;
  assert.equal(link.state, 'open');
});

/** A listener that records the refusals it reports. */
async function recording(ctx: TestContext, opts: ListenOptions): Promise<{ l: Listener; seen: ListenerRefusal[] }> {
  const seen: ListenerRefusal[] = [];
  return { l: await echo(ctx, { ...opts, onRefused: (r) => seen.push(r) }), seen };
}

/** Waits until the listener has counted `n` refusals. */
async function refusals(l: Listener, n: number): Promise<void> {
  for (let i = 0; i < 200 && l.counters().refused < n; i++) await new Promise((r) => setTimeout(r, 5));
}

/** The connection is refused: connect rejects, the listener counts it (tls), reports it once and creates no link. */
async function refused(ctx: TestContext, listenTls: TlsConfig, tls: TlsConfig | undefined): Promise<void> {
  const { l, seen } = await recording(ctx, { tls: listenTls });
  await assert.rejects(connect({ port: l.port, ...(tls === undefined ? {} : { tls }), helloTimeoutMs: 2_000 }), ConnectError);
  await refusals(l, 1);
  assert.deepEqual(l.counters(), { accepted: 0, refused: 1, tlsRefused: 1, tooManyRefused: 0 });
  assert.deepEqual(seen.map((r) => r.reason), ['tls']);
  assert.match(seen[0]?.peer ?? '', /^127\.0\.0\.1:\d+$/);
  assert.notEqual(seen[0]?.error, '');
}

test('issue 8 §3 "unauthenticated peers are refused": a wrong pre-shared key', async (ctx) => {
  await refused(ctx, psk(7), psk(8));
});

test('issue 8 §3 "unauthenticated peers are refused": an identity the listener does not know', async (ctx) => {
  await refused(ctx, psk(7), psk(7, 'intruder'));
});

test('issue 8 §3 "unauthenticated peers are refused": a plain TCP client against a TLS listener', async (ctx) => {
  await refused(ctx, psk(7), undefined);
});

test('riodp link §5.3: with certificates both sides authenticate (mutual TLS) and packets flow', async (ctx) => {
  const l = await echo(ctx, { tls: { cert: serverCert } });
  const { link, back } = await roundTrip(ctx, l.port, { cert: clientCert });
  assert.equal(back.ftype === 10 && back.info, 0xbeef);
  const peer = l.links()[0]!.socket;
  assert.ok(peer instanceof TLSSocket && link.socket instanceof TLSSocket);
  assert.equal(peer.getPeerCertificate().subject.CN, 'riodp-endpoint');
  assert.equal(link.socket.authorized, true);
});

test('issue 8 §3 "unauthenticated peers are refused": a client without a certificate', async (ctx) => {
  const { l, seen } = await recording(ctx, { tls: { cert: serverCert } });
  const socket = tlsConnect({ host: '127.0.0.1', port: l.port, ca: pem('ca.pem') });
  ctx.after(() => socket.destroy());
  let closed!: (c: LinkClosed) => void;
  const done = new Promise<LinkClosed>((r) => (closed = r));
  socket.once('secureConnect', () => new Link(socket, { onClose: (c) => { closed(c); } }));
  socket.on('error', () => undefined);
  const c = await Promise.race([done, new Promise<null>((r) => socket.once('close', () => { r(null); }))]);
  assert.ok(c === null || c.reasonName === 'lost');
  await refusals(l, 1);
  assert.deepEqual(l.counters(), { accepted: 0, refused: 1, tlsRefused: 1, tooManyRefused: 0 });
  assert.deepEqual(seen.map((r) => r.reason), ['tls']);
});

test('issue 8 §3 "unauthenticated peers are refused": a client certificate from another CA', async (ctx) => {
  await refused(ctx, { cert: serverCert }, { cert: strangerCert });
});

test('riodp link §5.3: the client refuses a server whose certificate does not carry the expected name', async (ctx) => {
  const l = await echo(ctx, { tls: { cert: serverCert } });
  await assert.rejects(connect({ port: l.port, tls: { cert: { ...clientCert, serverName: 'another-switch' } } }), /cannot connect.*another-switch|Hostname\/IP does not match/);
  const ok = await connect({ port: l.port, tls: { cert: { ...clientCert, serverName: 'riodp-switch' } } });
  ctx.after(() => { ok.destroy(); });
  assert.equal(ok.state, 'open');
});

test('riodp link §4.3: closing a listener sends CLOSE normal on every link and waits for them', async () => {
  const l = await listen({}, () => ({}));
  const seen: LinkClosed[] = [];
  const links = await Promise.all([0, 1].map(() => connect({ port: l.port }, { onClose: (c) => seen.push(c) })));
  await l.close();
  for (let i = 0; i < 200 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(seen.map((c) => `${c.by} ${c.reasonName} ${c.text}`), ['peer normal listener closed', 'peer normal listener closed']);
  assert.ok(links.every((k) => k.state === 'closed'));
  assert.equal(l.links().length, 0);
});

test('issue 8 §3 "a flood does not grow memory without bound": connections over maxConnections are refused, counted (tooMany) and reported', async (ctx) => {
  const { l, seen } = await recording(ctx, { maxConnections: 1 });
  const first = await connect({ port: l.port });
  ctx.after(() => { first.destroy(); });
  const extra = tcpConnect({ host: '127.0.0.1', port: l.port });
  extra.on('error', () => undefined);
  await once(extra, 'close');
  assert.deepEqual(l.counters(), { accepted: 1, refused: 1, tooManyRefused: 1, tlsRefused: 0 });
  assert.deepEqual(seen.map((r) => [r.reason, r.error]), [['tooMany', 'more than 1 connections at once']]);
  assert.match(seen[0]?.peer ?? '', /^127\.0\.0\.1:\d+$/);
});

test('riodp link §4.1: connect resolves only once the peer\'s HELLO has arrived; handlers may be built from the link', async (ctx) => {
  const l = await echo(ctx);
  const order: string[] = [];
  const handlers = (link: Link): LinkHandlers => ({ onOpen: () => order.push(`open ${link.state}`) });
  const link = await connect({ port: l.port }, handlers);
  ctx.after(() => { link.destroy(); });
  order.push('resolved');
  assert.deepEqual(order, ['open open', 'resolved']);
  assert.equal(link.peerVersion, 1);
});
