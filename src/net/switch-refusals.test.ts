/**
 * Refused connections at the switch process (issue 8 §3 "unauthenticated peers are refused";
 * riodp link §4.1, §5.1; docs/fabric-switch.md "Refusals"): counted per port and reason in
 * `ports()` and `counters()`, logged `connection-refused` at warn, at most `burst` lines per port
 * and reason in a window, the rest told as `suppressed`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { connectPeer, numbered, numberOf, threePortSwitch } from '../../test/support/net-peer.ts';
import { parseHex } from '../wire/hex.ts';
import { ConnectError, connect } from './connect.ts';
import { LogCapture, makeLogger } from './log.ts';
import type { LogLimitOptions } from './log-limit.ts';
import { LogLimiter } from './log-limit.ts';
import { ManualTime } from './manual-time.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';
import type { RunningSwitch, StartSwitchOptions } from './switch-process.ts';
import { PORT_REFUSALS, Refusals, helloRefusal } from './switch-refusals.ts';

const TESTDATA = fileURLToPath(new URL('./testdata/', import.meta.url));
const KEY = '00112233445566778899aabbccddeeff';
const PSK = { psk: { identity: 'lab', key: Buffer.from(KEY, 'hex') } };
const WRONG_PSK = { psk: { identity: 'lab', key: Buffer.from(KEY.replace('00', 'ff'), 'hex') } };
/** riodp link §3.4 HELLO of version 2, and a PACKET frame (a doorbell) where a HELLO must come first. */
const HELLO_V2 = parseHex('0006 10 52494f44 02');
const PACKET_FIRST = parseHex('000d 01 001a0001ffff0000deaf9903');

interface Logged {
  readonly sw: RunningSwitch;
  readonly log: LogCapture;
  tcpPort(port: number): number;
}

async function start(config: Record<string, unknown>, opts: Omit<StartSwitchOptions, 'logger'> & { logLimit: LogLimitOptions }): Promise<Logged> {
  const log = new LogCapture();
  const sw = await startSwitch(parseSwitchConfig(config, { baseDir: TESTDATA }), { ...opts, logger: makeLogger({ level: 'debug', destination: log }) });
  return {
    sw,
    log,
    tcpPort: (port) => {
      const a = sw.addresses.find((x) => x.port === port);
      if (a === undefined) throw new Error(`port ${port} does not listen`);
      return a.tcpPort;
    },
  };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(ok(), what);
}

/** A connection with the wrong key: connect rejects (the handshake fails), no link. */
async function wrongKey(port: number): Promise<void> {
  await assert.rejects(connect({ port, tls: WRONG_PSK, connectTimeoutMs: 2000, helloTimeoutMs: 2000 }), ConnectError);
}

/** A TLS client without a certificate: the switch's handshake refuses it. */
async function noCertificate(port: number): Promise<void> {
  const socket = tlsConnect({ host: '127.0.0.1', port, ca: readFileSync(`${TESTDATA}ca.pem`, 'utf8') });
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  // Not events.once: the handshake's error would reject it.
  await new Promise((resolve) => socket.once('close', resolve));
}

/** A plain TCP peer that writes `bytes` (nothing when empty) and waits for the switch to end the connection. */
async function rawPeer(port: number, bytes: Uint8Array): Promise<void> {
  const raw: Socket = tcpConnect({ host: '127.0.0.1', port });
  raw.on('error', () => undefined);
  raw.on('data', () => undefined);
  await once(raw, 'connect');
  if (bytes.length > 0) raw.write(bytes);
  await new Promise((resolve) => raw.once('close', resolve));
}

const refusedLines = (log: LogCapture): [unknown, unknown, unknown, unknown][] =>
  log.find('connection-refused').map((l) => [l['level'], l['port'], l['reason'], l['suppressed']]);

test('issue 8 §3 "unauthenticated peers are refused", riodp link §5.2 (issue 16 item 4): wrong pre-shared keys are refused, counted per port and reason, and logged once per rate window; the next window\'s line tells how many were left out', async () => {
  const time = new ManualTime(0, { unref: true });
  const t = await start(threePortSwitch({ tls: { psk: { identity: 'lab', key: KEY } } }), { logLimit: { burst: 1, intervalMs: 1000 }, timers: { clock: time, host: time } });
  try {
    for (let i = 0; i < 3; i++) await wrongKey(t.tcpPort(1));
    await until('3 refusals counted', () => t.sw.counters().tlsRefused === 3);
    assert.deepEqual(refusedLines(t.log), [[40, 1, 'tls', undefined]]);
    const line = t.log.find('connection-refused')[0];
    assert.match(String(line?.['peer']), /^127\.0\.0\.1:\d+$/);
    assert.equal(typeof line?.['error'], 'string');
    // The next window: one line again, carrying the two left out of the first.
    time.advance(1000 * 1_000_000);
    await wrongKey(t.tcpPort(1));
    await until('the fourth refusal counted', () => t.sw.counters().tlsRefused === 4);
    assert.deepEqual(refusedLines(t.log), [[40, 1, 'tls', undefined], [40, 1, 'tls', 2]]);
    assert.deepEqual(t.sw.ports().map((p) => p.refused.tls), [0, 4, 0]);
    assert.equal(t.sw.ports()[1]?.link, 'none', 'no link for a refused peer');
    // A peer with the key is still served.
    const good = await connectPeer(t.tcpPort(1), { tls: PSK });
    good.link.close('normal', 'test done');
    const c = t.sw.counters();
    assert.deepEqual([c.tlsRefused, c.tooManyRefused, c.busyRefused, c.helloTimeoutRefused, c.helloProtocolRefused, c.helloVersionRefused], [4, 0, 0, 0, 0, 0]);
  } finally {
    await t.sw.close();
  }
  const stopped = t.log.find('stopped')[0]?.['counters'] as Record<string, number>;
  assert.equal(stopped['tlsRefused'], 4);
  assert.deepEqual(t.log.find('log-suppressed'), [], 'every line left out was told by a later one');
});

test('issue 8 §3 "unauthenticated peers are refused", riodp link §5.3 (issue 16 item 4): TLS clients without a certificate are refused, counted and logged once per window; the count left out is told at stop', async () => {
  const t = await start(threePortSwitch({ tls: { cert: { cert: 'server.pem', key: 'server.key', ca: 'ca.pem' } } }), { logLimit: { burst: 1, intervalMs: 60_000 } });
  try {
    await noCertificate(t.tcpPort(0));
    await noCertificate(t.tcpPort(0));
    await noCertificate(t.tcpPort(2));
    await until('3 refusals counted', () => t.sw.counters().tlsRefused === 3);
    assert.deepEqual(t.sw.ports().map((p) => p.refused.tls), [2, 0, 1]);
    // One line per port and reason in the window: port 0's second refusal is only counted.
    assert.deepEqual(refusedLines(t.log).sort(), [[40, 0, 'tls', undefined], [40, 2, 'tls', undefined]]);
    assert.equal(t.sw.counters().connections, 0, 'no connection got as far as a link');
  } finally {
    await t.sw.close();
  }
  assert.deepEqual(t.log.find('log-suppressed').map((l) => [l['level'], l['lines'], l['suppressed']]), [[40, 'connection-refused:0:tls', 1]]);
});

test('riodp link §4.1 (issue 16 item 4): peers that fail the opening (another version, another first frame, no HELLO in time) are refused, counted per reason and logged connection-refused, not link-down; the ports take proper peers afterwards', async () => {
  const t = await start(threePortSwitch(), { logLimit: {}, link: { helloTimeoutMs: 100 } });
  try {
    await Promise.all([rawPeer(t.tcpPort(0), HELLO_V2), rawPeer(t.tcpPort(1), PACKET_FIRST), rawPeer(t.tcpPort(2), new Uint8Array(0))]);
    await until('3 refusals counted', () => t.sw.ports().every((p) => p.link === 'none') && t.log.find('connection-refused').length === 3);
    assert.deepEqual(
      t.sw.ports().map((p) => [p.refused.helloVersion, p.refused.helloProtocol, p.refused.helloTimeout]),
      [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    );
    assert.deepEqual(refusedLines(t.log).sort(), [[40, 0, 'helloVersion', undefined], [40, 1, 'helloProtocol', undefined], [40, 2, 'helloTimeout', undefined]]);
    const byReason = new Map(t.log.find('connection-refused').map((l) => [l['reason'], String(l['error'])]));
    assert.match(byReason.get('helloVersion') ?? '', /the peer speaks version 2/);
    assert.match(byReason.get('helloProtocol') ?? '', /not a HELLO/);
    assert.match(byReason.get('helloTimeout') ?? '', /no HELLO within 100 ms/);
    const c = t.sw.counters();
    assert.deepEqual([c.helloVersionRefused, c.helloProtocolRefused, c.helloTimeoutRefused, c.linksOpened, c.linksClosed, c.linksLost], [1, 1, 1, 0, 0, 0]);
    assert.deepEqual(t.log.find('link-down'), [], 'a refused opening is no link of the switch');
    const [a, b] = await Promise.all([connectPeer(t.tcpPort(0)), connectPeer(t.tcpPort(1))]);
    await until('links up', () => t.sw.ports()[0]?.link === 'open' && t.sw.ports()[1]?.link === 'open');
    await a.send([numbered(1, 2, 3)]);
    assert.deepEqual((await b.waitFor(1)).map(numberOf), [3]);
    a.link.close('normal', 'test done');
    b.link.close('normal', 'test done');
  } finally {
    await t.sw.close();
  }
});

test('issue 8 §3 "no endpoint can pose as another", riodp switch SP1 (issue 16 item 4): spoofed source IDs and connections to a busy port are counted per port beside the other refusals', async () => {
  const t = await start(threePortSwitch(), { logLimit: {} });
  try {
    const [a, c] = [await connectPeer(t.tcpPort(0)), await connectPeer(t.tcpPort(2))];
    await until('links up', () => t.sw.ports()[0]?.link === 'open' && t.sw.ports()[2]?.link === 'open');
    // Port 0 accepts source 1 only.
    await a.send([numbered(2, 3, 0), numbered(3, 3, 1), numbered(1, 3, 2)]);
    await c.waitFor(1);
    const intruder = await connectPeer(t.tcpPort(0));
    assert.equal((await intruder.closed).text, 'port 0 is busy');
    await until('busy counted', () => t.sw.counters().busyRefused === 1);
    assert.deepEqual(t.sw.ports().map((p) => [p.refused.source, p.refused.busy]), [[2, 1], [0, 0], [0, 0]]);
    assert.deepEqual([t.sw.counters().sourceRejected, t.sw.counters().busyRefused], [2, 1]);
    assert.deepEqual(refusedLines(t.log), [[40, 0, 'busy', undefined]]);
    assert.equal(t.log.find('connection-refused')[0]?.['error'], 'port 0 is busy');
    a.link.close('normal', 'test done');
    c.link.close('normal', 'test done');
  } finally {
    await t.sw.close();
  }
});

test('docs/fabric-switch.md "Refusals": Refusals counts per port and reason, totals per reason, and bounds its lines per port and reason', () => {
  const log = new LogCapture();
  let now = 0;
  const r = new Refusals(2, makeLogger({ level: 'warn', destination: log }), new LogLimiter({ burst: 2, intervalMs: 100 }), () => now);
  for (let i = 0; i < 5; i++) r.connection(1, 'tls', '10.0.0.9:5000', 'bad');
  r.connection(1, 'tooMany', '10.0.0.9:5001', 'more than 64 connections at once');
  r.connection(0, helloRefusal('version'), '127.0.0.1:1', 'v2');
  r.source(0);
  r.source(7);
  now = 100;
  r.connection(1, 'tls', '10.0.0.9:5002', 'bad');
  assert.deepEqual(r.port(1), { ...Object.fromEntries(PORT_REFUSALS.map((k) => [k, 0])), tls: 6, tooMany: 1 });
  assert.deepEqual(r.port(0), { ...Object.fromEntries(PORT_REFUSALS.map((k) => [k, 0])), helloVersion: 1, source: 1 });
  assert.deepEqual(r.totals(), { tlsRefused: 6, tooManyRefused: 1, busyRefused: 0, helloTimeoutRefused: 0, helloProtocolRefused: 0, helloVersionRefused: 1 });
  assert.deepEqual(refusedLines(log), [[40, 1, 'tls', undefined], [40, 1, 'tls', undefined], [40, 1, 'tooMany', undefined], [40, 0, 'helloVersion', undefined], [40, 1, 'tls', 3]]);
  assert.deepEqual([helloRefusal('timeout'), helloRefusal('protocol')], ['helloTimeout', 'helloProtocol']);
});
