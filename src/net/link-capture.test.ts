import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINK_VERSION, encodeFrame, frameLength, helloFrame, packetFrame } from '../wire/frame.ts';
import type { Frame } from '../wire/frame.ts';
import { decodePcapng } from '../wire/pcapng/decode.ts';
import type { PcapngFile, PcapngPacketRead } from '../wire/pcapng/decode.ts';
import { decodeCaptureRecord } from '../wire/pcapng/record.ts';
import { isFileTransfer, receiveFile, sendFile } from './api-file.ts';
import { startEndpoint } from './endpoint-start.ts';
import { makeLogger } from './log.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';
import { until } from '../../test/support/net-endpoint.ts';
import { bytes, closeInOrder, testEndpointConfig } from '../../test/support/net-endpoint.ts';

const silent = makeLogger({ level: 'silent' });

function records(f: PcapngFile, name: string): PcapngPacketRead[] {
  const i = f.interfaces.findIndex((x) => x.name === name);
  assert.ok(i >= 0, `interface ${name}`);
  return f.packets.filter((p) => p.interface === i);
}

function frameBytes(frames: readonly Frame[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + frameLength(f), 0));
  let at = 0;
  for (const f of frames) at = encodeFrame(f, out, at);
  return out;
}

test('riodp capture §2–§5 (issue 19): riodp switch and riodp endpoint captures hold every frame of each link direction, the same bytes at both ends, wall-clock times, and the defects and drops of what was received', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-capture-'));
  const t0 = BigInt(Date.now()) * 1_000_000n;
  const sw = await startSwitch(
    parseSwitchConfig({
      deviceId: 0x50,
      ports: [{ port: 0, listen: { port: 0 }, accept: [1] }, { port: 1, listen: { port: 0 }, accept: [2] }, { port: 2, listen: { port: 0 }, accept: [3] }],
      routes: { 1: 0, 2: 1, 3: 2 },
      log: 'silent',
    }),
    { logger: silent, capture: { path: join(dir, 'sw.pcapng') } },
  );
  const port = (p: number): number => sw.addresses.find((a) => a.port === p)?.tcpPort ?? -1;
  const a = await startEndpoint(testEndpointConfig(1, port(0)), { capture: { path: join(dir, 'ep1.pcapng') } });
  const b = await startEndpoint(testEndpointConfig(2, port(1)), { capture: { path: join(dir, 'ep2.pcapng'), name: 'B' } });
  const data = bytes(100_000, 5);
  try {
    await writeFile(join(dir, 'in.bin'), data);
    const receiving = (async () => {
      for await (const s of b.incoming()) if (isFileTransfer(s)) return receiveFile(s, dir);
      return undefined;
    })();
    const sent = await sendFile(a, 2, join(dir, 'in.bin'), { name: 'out.bin' });
    assert.equal(sent.result.status, 'ok');
    assert.equal((await receiving)?.status, 'ok');
    // Port 2, as node 3: a doorbell to node 9, which has no route, and one whose CRC is wrong.
    const doorbell = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 9, sourceID: 3, rsrv: 0, srcTID: 1, info: 7 } as const;
    const raw = frameBytes([helloFrame(LINK_VERSION), packetFrame(doorbell), packetFrame({ ...doorbell, destinationID: 1 })]);
    const last = frameLength(packetFrame(doorbell));
    raw[raw.length - last + 8] = (raw[raw.length - last + 8] as number) ^ 1; // a byte of the logical fields
    const s = tcpConnect(port(2), '127.0.0.1');
    await new Promise<void>((done) => s.once('connect', () => { done(); }));
    s.write(raw);
    await until(() => sw.counters().noRoute === 1 && sw.counters().malformedFrames === 1);
    s.destroy();
  } finally {
    await closeInOrder(sw, [a, b]);
  }
  const t1 = BigInt(Date.now()) * 1_000_000n;
  try {
    const swCap = decodePcapng(new Uint8Array(await readFile(join(dir, 'sw.pcapng'))));
    const ep1 = decodePcapng(new Uint8Array(await readFile(join(dir, 'ep1.pcapng'))));
    const ep2 = decodePcapng(new Uint8Array(await readFile(join(dir, 'ep2.pcapng'))));
    // §3: one interface per link direction, <element>.p<port>.<tx|rx>; the switch's name is sw<deviceId>.
    assert.deepEqual(swCap.interfaces.map((i) => i.name), ['sw80.p0.tx', 'sw80.p0.rx', 'sw80.p1.tx', 'sw80.p1.rx', 'sw80.p2.tx', 'sw80.p2.rx']);
    assert.deepEqual(ep1.interfaces.map((i) => i.name), ['ep1.p0.tx', 'ep1.p0.rx']);
    assert.deepEqual(ep2.interfaces.map((i) => i.name), ['B.p0.tx', 'B.p0.rx']);
    // §2: what one end sent is what the other received, frame for frame, HELLO to CLOSE.
    const data_ = (ps: readonly PcapngPacketRead[]): string[] => ps.map((p) => Buffer.from(p.data).toString('hex'));
    assert.deepEqual(data_(records(ep1, 'ep1.p0.tx')), data_(records(swCap, 'sw80.p0.rx')));
    assert.deepEqual(data_(records(swCap, 'sw80.p1.tx')), data_(records(ep2, 'B.p0.rx')));
    assert.deepEqual(data_(records(ep2, 'B.p0.tx')), data_(records(swCap, 'sw80.p1.rx')));
    // The file crossed as Type 9 packets (docs/fabric-api.md: conduits on Type 9): at least its bytes in their payloads.
    const type9 = records(swCap, 'sw80.p1.tx').map((p) => decodeCaptureRecord(p.data, 0, p.data.length)).filter((r) => r.kindName === 'packet' && r.packet.ftype === 9);
    assert.ok(type9.length >= Math.ceil(data.length / 256), `${type9.length} Type 9 packets`);
    // §4: wall-clock nanoseconds, in order on each interface; §1: directions.
    for (const f of [swCap, ep1, ep2]) {
      f.interfaces.forEach((iface, i) => {
        const ps = f.packets.filter((p) => p.interface === i);
        for (const [k, p] of ps.entries()) {
          assert.ok(p.timestampNs >= t0 && p.timestampNs <= t1, `${iface.name} record ${k} at ${p.timestampNs}`);
          if (k > 0) assert.ok(p.timestampNs >= (ps[k - 1] as PcapngPacketRead).timestampNs);
          assert.equal(p.direction, iface.name.endsWith('.tx') ? 'outbound' : 'inbound');
        }
      });
    }
    // §5: every record decodes but the one with the bad CRC, which says so; the no-route doorbell says it was dropped.
    const p2 = records(swCap, 'sw80.p2.rx');
    assert.equal(p2.length, 3);
    assert.deepEqual(p2[0]?.comments ?? [], []);
    assert.deepEqual(p2[1]?.comments, ['drop: no-route: no route for destinationID 0x9 (ftype 10)']);
    assert.match(p2[2]?.comments?.[0] ?? '', /^defect: crc crc at byte \d+: .* \(Part 6 §/);
    for (const f of [swCap, ep1, ep2]) {
      for (const p of f.packets) {
        if (p.comments?.some((c) => c.startsWith('defect:')) === true) assert.throws(() => decodeCaptureRecord(p.data, 0, p.data.length));
        else decodeCaptureRecord(p.data, 0, p.data.length);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('riodp capture §5 (issue 19): a capture stops at its size limit and says how much it left out; a file it cannot write is one error naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-capture-'));
  const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], routes: { 1: 0 }, log: 'silent' }), { logger: silent, capture: { path: join(dir, 'sw.pcapng'), maxBytes: 400 } });
  const ep = await startEndpoint(testEndpointConfig(1, sw.addresses[0]?.tcpPort ?? -1));
  try {
    for (let i = 0; i < 5; i++) await ep.readRegister(0x50, 0, 0x60);
  } finally {
    await ep.close();
    await sw.close();
  }
  try {
    const file = await readFile(join(dir, 'sw.pcapng'));
    assert.ok(file.length <= 400, `${file.length} bytes`);
    assert.ok(decodePcapng(new Uint8Array(file)).packets.length >= 1);
    await assert.rejects(
      startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], log: 'silent' }), { logger: silent, capture: { path: join(dir, 'no', 'such', 'x.pcapng') } }),
      (e: Error) => e.message.startsWith(`cannot write the capture ${join(dir, 'no', 'such', 'x.pcapng')}: ENOENT`),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
