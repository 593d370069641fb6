import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect as tcpConnect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';
import { encodeFrame, frameLength, helloFrame, closeFrame, CLOSE_REASON, decodeFrame, packetFrame } from '../wire/frame.ts';
import type { DecodedFrame, Frame } from '../wire/frame.ts';
import { FrameReader } from '../wire/frame-reader.ts';
import { parseHex } from '../wire/hex.ts';
import type { Packet, SerialPacket } from '../wire/packet.ts';
import { Link, linkOptions } from './link.ts';
import type { LinkClosed, LinkHandlers, LinkOptions } from './link.ts';

/** DECISIONS §1 doorbell, 12 bytes with CRC 0x9903. */
const DOORBELL = '001a0001ffff0000deaf9903';
const doorbell = (info: number): Packet => ({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 1, sourceID: 0xffff, rsrv: 0, srcTID: 0, info });

function bytesOf(...frames: Frame[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + frameLength(f), 0));
  frames.reduce((at, f) => encodeFrame(f, out, at), 0);
  return out;
}

interface Recorder extends LinkHandlers {
  readonly packets: SerialPacket[];
  readonly events: string[];
  readonly closed: Promise<LinkClosed>;
  readonly opened: Promise<number>;
}

function recorder(): Recorder {
  let closed!: (c: LinkClosed) => void;
  let opened!: (v: number) => void;
  const r: Recorder = {
    packets: [],
    events: [],
    closed: new Promise((res) => (closed = res)),
    opened: new Promise((res) => (opened = res)),
    onOpen: (v) => {
      r.events.push(`open ${v}`);
      opened(v);
    },
    onPacket: (p) => r.packets.push(p),
    onSymbol: (s) => r.events.push(`symbol ${s.link}`),
    onDrain: () => r.events.push('drain'),
    onMalformed: (e) => r.events.push(`malformed ${e.code} ${e.field}`),
    onClose: (c) => { closed(c); },
  };
  return r;
}

/** A Link on one end of a loopback connection and the raw socket at the other, reading frames. */
async function linkAndRaw(ctx: TestContext, opts: LinkOptions = {}, rawHalfOpen = false): Promise<{ link: Link; rec: Recorder; raw: Socket; frames: DecodedFrame[]; ended: Promise<void> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const raw = tcpConnect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, allowHalfOpen: rawHalfOpen });
  const [accepted] = (await once(server, 'connection')) as [Socket];
  const rec = recorder();
  const link = new Link(accepted, rec, opts);
  const frames: DecodedFrame[] = [];
  const reader = new FrameReader({ maxFrameSize: 65537 });
  raw.on('data', (c: Buffer) => reader.push(c, (b, o, e) => void frames.push(decodeFrame(b, o, e))));
  const ended = once(raw, 'end').then(() => undefined);
  // Cleaned up also when an assertion fails, so that no socket keeps the test process alive.
  ctx.after(async () => {
    raw.destroy();
    link.destroy();
    await new Promise((r) => server.close(r));
  });
  return { link, rec, raw, frames, ended };
}

/** Two Links joined by a loopback connection. */
async function linkPair(ctx: TestContext, a: LinkOptions = {}, b: LinkOptions = {}): Promise<{ left: Link; right: Link; l: Recorder; r: Recorder }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sock = tcpConnect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  const [accepted] = (await once(server, 'connection')) as [Socket];
  const l = recorder();
  const r = recorder();
  const left = new Link(sock, l, a);
  const right = new Link(accepted, r, b);
  ctx.after(async () => {
    left.destroy();
    right.destroy();
    await new Promise((res) => server.close(res));
  });
  await Promise.all([l.opened, r.opened]);
  return { left, right, l, r };
}

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), `timed out waiting for ${what}`);
};

test('riodp link §4.1: both ends send HELLO first; once each has the other\'s, packets and CS48/CS64 symbols flow both ways', async (ctx) => {
  const { left, right, l, r } = await linkPair(ctx);
  assert.equal(left.state, 'open');
  assert.equal(right.peerVersion, 1);
  assert.ok(left.sendPacket(doorbell(0x1234)));
  assert.ok(left.sendSymbol({ link: 'cs48', stype0: 3, parameter0: 21, parameter1: 5, stype1: 0, cmd: 0, stype2: 0 }));
  assert.ok(left.sendSymbol({ link: 'cs64', stype0: 0, parameter0: 3, parameter1: 5, stype1: 0x38 }));
  assert.ok(right.sendPacket(doorbell(0x4321)));
  await until(() => r.packets.length === 1 && r.events.length >= 3 && l.packets.length === 1, 'frames');
  assert.equal(r.packets[0]!.ftype === 10 && r.packets[0]!.info, 0x1234);
  assert.deepEqual(r.events, ['open 1', 'symbol cs48', 'symbol cs64']);
  assert.equal(l.packets[0]!.ftype === 10 && l.packets[0]!.info, 0x4321);
  const c = left.counters();
  assert.equal(c.framesOut, 4); // HELLO, packet, two symbols
  assert.equal(c.bytesOut, 8 + 15 + 9 + 11);
  assert.equal(right.counters().framesIn, 4);
  assert.equal(right.counters().bytesIn, 8 + 15 + 9 + 11);
});

test('riodp link §2: frames written one byte at a time arrive whole', async (ctx) => {
  const t = await linkAndRaw(ctx);
  const stream = bytesOf(helloFrame(), packetFrame(doorbell(1)), packetFrame(doorbell(2)));
  for (const b of stream) {
    t.raw.write(Uint8Array.of(b));
    await new Promise((r) => setImmediate(r));
  }
  await until(() => t.rec.packets.length === 2, 'two packets');
  assert.deepEqual(t.rec.packets.map((p) => p.ftype === 10 && p.info), [1, 2]);
});

test('riodp link §4.1: a first frame other than HELLO gets CLOSE protocol and the connection ends; the link reports the refused opening (hello protocol)', async (ctx) => {
  const t = await linkAndRaw(ctx);
  t.raw.write(bytesOf(packetFrame(doorbell(1))));
  const closed = await t.rec.closed;
  await t.ended;
  assert.deepEqual(t.frames.map((f) => f.kindName), ['hello', 'close']);
  const c = t.frames[1]!;
  assert.ok(c.kindName === 'close' && c.reasonName === 'protocol' && /not a HELLO/.test(c.text));
  assert.deepEqual({ by: closed.by, reasonName: closed.reasonName, hello: closed.hello }, { by: 'local', reasonName: 'protocol', hello: 'protocol' });
  assert.equal(t.rec.packets.length, 0);
});

test('riodp link §4.1: a HELLO of another version gets CLOSE version (hello version)', async (ctx) => {
  const t = await linkAndRaw(ctx);
  t.raw.write(bytesOf(helloFrame(2)));
  assert.equal((await t.rec.closed).hello, 'version');
  await t.ended;
  const c = t.frames[1]!;
  assert.ok(c.kindName === 'close' && c.reason === CLOSE_REASON.version, JSON.stringify(c));
  assert.equal(t.link.peerVersion, 2);
});

test('riodp link §4.1: a peer that sends no HELLO within helloTimeoutMs is closed (protocol; hello timeout)', async (ctx) => {
  const t = await linkAndRaw(ctx, { helloTimeoutMs: 50 });
  const closed = await t.rec.closed;
  assert.equal(closed.reasonName, 'protocol');
  assert.equal(closed.hello, 'timeout');
  assert.match(closed.text, /no HELLO within 50 ms/);
});

test('riodp link §4.2: a packet frame that fails its CRC is counted malformed and dropped; the connection is kept', async (ctx) => {
  const t = await linkAndRaw(ctx);
  const bad = parseHex('000d01' + DOORBELL);
  bad[14] = bad[14]! ^ 0xff;
  t.raw.write(new Uint8Array([...bytesOf(helloFrame()), ...bad, ...bytesOf(packetFrame(doorbell(7)))]));
  await until(() => t.rec.packets.length === 1, 'the good packet');
  assert.equal(t.link.counters().malformed, 1);
  assert.ok(t.rec.events.includes('malformed crc crc'));
  assert.equal(t.link.state, 'open');
});

test('riodp link §4.2: a frame of a kind this version does not define is skipped and counted; so is a second HELLO (malformed)', async (ctx) => {
  const t = await linkAndRaw(ctx);
  const reserved: Frame = { kind: 0x7e, kindName: 'RESERVED', body: new Uint8Array(5) };
  t.raw.write(bytesOf(helloFrame(), reserved, helloFrame(), packetFrame(doorbell(9))));
  await until(() => t.rec.packets.length === 1, 'the packet');
  const c = t.link.counters();
  assert.equal(c.unknownKind, 1);
  assert.equal(c.malformed, 1);
  assert.equal(c.framesIn, 4);
  assert.equal(t.link.state, 'open');
});

test('riodp link §3.5, §4.2: a malformed CLOSE (text not UTF-8) is counted and dropped; the connection is kept', async (ctx) => {
  const t = await linkAndRaw(ctx);
  t.raw.write(new Uint8Array([...bytesOf(helloFrame()), ...parseHex('000411' + '00' + 'c328'), ...bytesOf(packetFrame(doorbell(3)))]));
  await until(() => t.rec.packets.length === 1, 'the packet after the bad CLOSE');
  assert.equal(t.link.counters().malformed, 1);
  assert.ok(t.rec.events.includes('malformed invalid text'));
  assert.equal(t.link.state, 'open');
});

test('riodp link §4.2, issue 8 §3: an oversize length is counted and ends the connection with CLOSE protocol', async (ctx) => {
  const t = await linkAndRaw(ctx, { maxFrameSize: 300 });
  t.raw.write(new Uint8Array([...bytesOf(helloFrame()), 0x01, 0x2b, 0x01]));
  const closed = await t.rec.closed;
  await t.ended;
  assert.equal(t.link.counters().oversize, 1);
  assert.equal(closed.reasonName, 'protocol');
  assert.equal(closed.hello, undefined, 'after the HELLO: an open link ended, not an opening refused');
  const c = t.frames.at(-1)!;
  assert.ok(c.kindName === 'close' && /exceeds the limit of 300/.test(c.text));
});

test('riodp link §4.1, §4.2: a length that cannot be trusted as the first frame refuses the opening (hello protocol)', async (ctx) => {
  const t = await linkAndRaw(ctx, { maxFrameSize: 300 });
  t.raw.write(Uint8Array.of(0x01, 0x2b, 0x01));
  const closed = await t.rec.closed;
  assert.deepEqual([closed.reasonName, closed.hello, t.link.counters().oversize], ['protocol', 'protocol', 1]);
});

test('riodp link §4.2: a length of 0 is counted malformed and ends the connection', async (ctx) => {
  const t = await linkAndRaw(ctx);
  t.raw.write(new Uint8Array([...bytesOf(helloFrame()), 0, 0]));
  const closed = await t.rec.closed;
  assert.equal(t.link.counters().malformed, 1);
  assert.equal(closed.reasonName, 'protocol');
});

test('riodp link §4.3: close() sends CLOSE with its reason and text; the peer reports who closed and why', async (ctx) => {
  const { left, l, r } = await linkPair(ctx);
  left.close('application', 'source ID mismatch');
  const [lc, rc] = await Promise.all([l.closed, r.closed]);
  assert.deepEqual(lc, { by: 'local', reason: 3, reasonName: 'application', text: 'source ID mismatch' });
  assert.deepEqual(rc, { by: 'peer', reason: 3, reasonName: 'application', text: 'source ID mismatch' });
  assert.equal(left.state, 'closed');
  assert.equal(left.sendPacket(doorbell(1)), false);
  assert.equal(left.counters().sendRefused, 1);
});

test('riodp link §4.3, issue 8 §3 "a peer killed": a connection that ends without CLOSE is reported lost', async (ctx) => {
  const { left, r } = await linkPair(ctx);
  left.destroy();
  const rc = await r.closed;
  assert.equal(rc.by, 'peer');
  assert.equal(rc.reason, null);
  assert.equal(rc.reasonName, 'lost');
});

test('riodp link §4.3: after CLOSE a peer that keeps its side open is cut off after closeTimeoutMs', async (ctx) => {
  const t = await linkAndRaw(ctx, { closeTimeoutMs: 50 }, true);
  t.raw.write(bytesOf(helloFrame()));
  await t.rec.opened;
  const t0 = process.hrtime.bigint();
  t.link.close();
  const closed = await t.rec.closed;
  assert.ok(process.hrtime.bigint() - t0 >= 45_000_000n, 'closed before the timeout: the raw end did not stay open');
  assert.equal(closed.by, 'local');
  assert.equal(t.link.state, 'closed');
});

test('riodp link §4.3: after close() what the peer still sends is dropped unread: no frame, no malformed report, in any chunking', async (ctx) => {
  const t = await linkAndRaw(ctx, { closeTimeoutMs: 5_000 }, true);
  t.raw.write(bytesOf(helloFrame()));
  await t.rec.opened;
  t.link.close();
  // Chunks cut inside frames: a reader that stopped at a frame end and lost the rest of a chunk
  // would take bytes inside a packet for a length.
  const tail = bytesOf(...Array.from({ length: 60 }, (_, i) => packetFrame(doorbell(i))));
  for (let at = 0; at < tail.length; at += 37) {
    t.raw.write(tail.subarray(at, at + 37));
    await new Promise((r) => setTimeout(r, 1));
  }
  await t.ended;
  t.raw.end();
  const closed = await t.rec.closed;
  assert.equal(closed.by, 'local');
  assert.deepEqual(t.rec.events, ['open 1']);
  assert.equal(t.rec.packets.length, 0);
  assert.equal(t.link.counters().malformed, 0);
  assert.equal(t.link.counters().oversize, 0);
});

test('riodp link §4.3, §4.4: a paused link that closes reads on, so the peer\'s FIN ends it before the close timeout', async (ctx) => {
  const t = await linkAndRaw(ctx, { closeTimeoutMs: 10_000 }, true);
  t.raw.write(bytesOf(helloFrame()));
  await t.rec.opened;
  t.link.pause();
  t.raw.write(bytesOf(...Array.from({ length: 20 }, (_, i) => packetFrame(doorbell(i)))));
  await new Promise((r) => setTimeout(r, 20));
  const t0 = Date.now();
  t.link.close();
  await t.ended;
  t.raw.end();
  const closed = await t.rec.closed;
  assert.ok(Date.now() - t0 < 5_000, 'the link waited for its close timeout');
  assert.equal(closed.by, 'local');
  assert.equal(t.link.held, 0);
  assert.equal(t.rec.packets.length, 0);
  assert.equal(t.link.counters().malformed, 0);
});

test('riodp link §4.4, issue 8 §3: a peer that does not read stops the link accepting frames; memory stays bounded; draining calls onDrain', async (ctx) => {
  const batch = 4096;
  const t = await linkAndRaw(ctx, { sendBatchBytes: batch });
  t.raw.write(bytesOf(helloFrame()));
  await t.rec.opened;
  t.raw.pause();
  const p = doorbell(5);
  let sent = 0;
  for (let round = 0; round < 2000 && t.link.writable; round++) {
    for (let i = 0; i < 200; i++) if (t.link.sendPacket(p)) sent++;
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(t.link.writable, false, 'the link never pushed back');
  assert.equal(t.link.sendPacket(p), false);
  assert.ok(t.link.counters().sendRefused >= 1);
  assert.ok(t.link.socket.writableLength <= t.link.socket.writableHighWaterMark + 2 * batch, `${t.link.socket.writableLength} bytes queued`);
  t.raw.resume();
  await until(() => t.rec.events.includes('drain'), 'drain');
  assert.equal(t.link.writable, true);
  await until(() => t.frames.length === 1 + sent, 'every accepted frame');
});

test('riodp link §4.4: pause() stops delivery at a frame boundary and keeps the rest; resume() delivers it in order', async (ctx) => {
  const t = await linkAndRaw(ctx);
  let seen = 0;
  t.rec.onPacket = (p): void => {
    t.rec.packets.push(p);
    seen++;
    if (seen === 2) t.link.pause();
  };
  const frames = [helloFrame(), ...Array.from({ length: 10 }, (_, i) => packetFrame(doorbell(i)))];
  t.raw.write(bytesOf(...frames));
  await until(() => seen === 2, 'two packets');
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(seen, 2);
  assert.ok(t.link.paused);
  assert.ok(t.link.held > 0 && t.link.held <= 8 * 15);
  t.link.resume();
  await until(() => seen === 10, 'all packets');
  assert.deepEqual(t.rec.packets.map((p) => p.ftype === 10 && p.info), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('riodp link §4.4, issue 16 item 3: onFrame sees every frame after the HELLO, of any kind, before its handler; a pause there stops delivery after that frame', async (ctx) => {
  const t = await linkAndRaw(ctx);
  t.rec.onFrame = (): void => {
    t.rec.events.push('frame');
    if (t.rec.events.filter((e) => e === 'frame').length === 3) t.link.pause();
  };
  const reserved: Frame = { kind: 0x7e, kindName: 'RESERVED', body: new Uint8Array(5) };
  t.raw.write(bytesOf(helloFrame(), reserved, helloFrame(), packetFrame(doorbell(1)), packetFrame(doorbell(2))));
  await until(() => t.rec.packets.length === 1, 'the first packet');
  await new Promise((r) => setTimeout(r, 30));
  // The reserved kind and the second HELLO count; the first HELLO opens the link and does not.
  assert.deepEqual(t.rec.events, ['open 1', 'frame', 'frame', 'malformed invalid kind', 'frame']);
  assert.equal(t.rec.packets.length, 1);
  t.link.resume();
  await until(() => t.rec.packets.length === 2, 'the second packet');
  assert.deepEqual(t.rec.events.slice(5), ['frame']);
});

test('riodp link §4.3: a CLOSE frame as the first frame is the peer closing, not a protocol error', async (ctx) => {
  const t = await linkAndRaw(ctx);
  t.raw.write(bytesOf(closeFrame(CLOSE_REASON.normal, 'going away')));
  const closed = await t.rec.closed;
  assert.deepEqual(closed, { by: 'peer', reason: 0, reasonName: 'normal', text: 'going away' });
  assert.deepEqual(t.frames.map((f) => f.kindName), ['hello']);
});

test('riodp link §2: link options are checked, each RangeError naming its field', () => {
  assert.throws(() => linkOptions({ maxFrameSize: 100 }), /^RangeError: maxFrameSize must be an integer from 287 to 65537$/);
  assert.throws(() => linkOptions({ sendBatchBytes: 10 }), /^RangeError: sendBatchBytes must be an integer from 287 to 1048576$/);
  assert.throws(() => linkOptions({ helloTimeoutMs: 0 }), /^RangeError: helloTimeoutMs must be a positive integer$/);
  assert.throws(() => linkOptions({ closeTimeoutMs: -1 }), /^RangeError: closeTimeoutMs must be a positive integer$/);
  assert.deepEqual(linkOptions({}), { maxFrameSize: 1024, sendBatchBytes: 65536, helloTimeoutMs: 10_000, closeTimeoutMs: 2_000, decode: {}, keepaliveMs: 0 });
});

test('Part 6 §6.5.3.2 (decision FF1): an idle link with keepaliveMs sends status symbols, which the peer absorbs and counts; a busy one sends none', async (ctx) => {
  const { left, right, l, r } = await linkPair(ctx, { keepaliveMs: 20 });
  let statuses = 0;
  r.onStatus = () => {
    statuses++;
  };
  await until(() => right.counters().statusIn >= 3, 'status symbols');
  assert.equal(statuses, right.counters().statusIn);
  assert.deepEqual(r.events, ['open 1'], 'no keepalive reaches onSymbol');
  assert.equal(left.counters().statusIn, 0, 'the side without keepaliveMs sends none');
  assert.deepEqual(l.events, ['open 1']);
  // A link that sends frames in every period sends no keepalive.
  const before = right.counters().statusIn;
  const timer = setInterval(() => left.sendPacket(doorbell(1)), 5);
  await new Promise((res) => setTimeout(res, 120));
  clearInterval(timer);
  assert.ok(right.counters().statusIn - before <= 1, `${right.counters().statusIn - before} keepalives while busy`);
  // Any other symbol still reaches the application, a status symbol with stype2 included.
  left.sendSymbol({ link: 'cs48', stype0: 0b100, parameter0: 0, parameter1: 63, stype1: 0b111, cmd: 0, stype2: 1 });
  await until(() => r.events.length === 2, 'the symbol');
  assert.deepEqual(r.events, ['open 1', 'symbol cs48']);
});

test('riodp link §2: keepaliveMs is 0 to 60 000', () => {
  assert.throws(() => linkOptions({ keepaliveMs: -1 }), /keepaliveMs/);
  assert.throws(() => linkOptions({ keepaliveMs: 60_001 }), /keepaliveMs/);
  assert.equal(linkOptions({ keepaliveMs: 100 }).keepaliveMs, 100);
});
