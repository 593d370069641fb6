import { test } from 'node:test';
import assert from 'node:assert/strict';
import { numberOf, numbered, startTestSwitch } from '../../test/support/net-peer.ts';
import { SWITCH_OFFSETS } from '../node/switch/registers.ts';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import type { Type8Packet, Type8Response } from '../wire/type8.ts';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connect } from './connect.ts';
import { LogCapture, makeLogger } from './log.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';
import type { SwitchProcessSnapshot } from './switch-process.ts';

/**
 * A 3-port switch, ID 0x50: port 0 for end point 1, port 1 for end point 2, port 2 towards the
 * rest of the fabric (any source), where ID 3 lives.
 */
const CONFIG = {
  deviceId: 0x50,
  ports: [
    { port: 0, listen: { port: 0 }, accept: [1] },
    { port: 1, listen: { port: 0 }, accept: [2] },
    { port: 2, listen: { port: 0 }, accept: 'any' },
  ],
  routes: { 1: 0, 2: 1, 3: 2 },
  identity: { deviceIdentity: 0x1234, deviceVendorIdentity: 0x0abc },
};

const read = (byteOffset: number, hopCount: number, destinationID = 0x50) =>
  maintenanceReadRequest({ tt: 1, destinationID, sourceID: 1, hopCount, srcTID: 7, byteOffset, byteCount: 4 });

/** Part 1 Table 4-3: a word read's response carries it in the lane wdptr names. */
function wordOf(r: Type8Packet, byteOffset: number): number {
  const lane = ((byteOffset >>> 2) & 1) * 4;
  return new DataView(r.payload.buffer, r.payload.byteOffset + lane, 4).getUint32(0);
}

test('issue 8 §1 "routing table destID -> port": packets from one TCP peer reach the peers their destinationIDs route to, in order', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    const [a, b, c] = [await t.peer(0), await t.peer(1), await t.peer(2)];
    await t.waitUp(0, 1, 2);
    await a.send([numbered(1, 2, 0), numbered(1, 3, 1), numbered(1, 2, 2), numbered(1, 3, 3)]);
    await b.waitFor(2);
    await c.waitFor(2);
    assert.deepEqual(b.packets.map(numberOf), [0, 2]);
    assert.deepEqual(c.packets.map(numberOf), [1, 3]);
    assert.deepEqual(a.packets, []);
    const n = t.sw.counters();
    assert.deepEqual([n.packetsIn, n.forwarded, n.linksOpened], [4, 4, 3]);
  } finally {
    await t.stop();
  }
});

test('issue 8 §3 "drops (and counts) packets with any other sourceID": a peer posing as another ID is dropped, counted and logged', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    const [a, , c] = [await t.peer(0), await t.peer(1), await t.peer(2)];
    await t.waitUp(0, 1, 2);
    // Port 0 accepts source 1 only: the packet claiming to come from 2 goes nowhere.
    await a.send([numbered(2, 3, 0), numbered(1, 3, 1)]);
    await c.waitFor(1);
    assert.deepEqual(c.packets.map(numberOf), [1]);
    assert.equal(t.sw.counters().sourceRejected, 1);
    const line = t.log.find('source-rejected')[0];
    assert.deepEqual([line?.['level'], line?.['port'], line?.['id']], [40, 0, 2]);
  } finally {
    await t.stop();
  }
});

test('issue 8 §3 "a flood does not grow memory without bound" (decision: log lines): a flood of spoofed packets is all counted, but logs at most 10 lines a second per port and message, then one line with the count left out', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    const [a, , c] = [await t.peer(0), await t.peer(1), await t.peer(2)];
    await t.waitUp(0, 1, 2);
    await a.send([...Array.from({ length: 200 }, (_, i) => numbered(2, 3, i)), numbered(1, 3, 999)]);
    await c.waitFor(1);
    assert.equal(t.sw.counters().sourceRejected, 200);
  } finally {
    await t.stop();
  }
  const lines = t.log.find('source-rejected');
  const told = t.log.find('log-suppressed');
  assert.ok(lines.length >= 10 && lines.length <= 20, `${lines.length} source-rejected lines`);
  const left = lines.reduce((n, l) => n + ((l['suppressed'] as number | undefined) ?? 0), 0) + told.reduce((n, l) => n + (l['suppressed'] as number), 0);
  assert.equal(lines.length + left, 200, 'every rejected packet is either a line or counted in one');
  assert.ok(told.every((l) => l['lines'] === 'source-rejected:0' && l['level'] === 40));
});

test('Part 3 §2.5 "If the received hop_count is zero, the access is for that switch": a Type 8 read over TCP is answered from the switch\'s registers', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    const a = await t.peer(0);
    await t.waitUp(0);
    await a.send([read(0x0, 0), read(SWITCH_OFFSETS.switchPortInformation, 0)]);
    const [id, info] = (await a.waitFor(2)) as Type8Response[];
    assert.deepEqual([id?.transactionName, id?.statusName, id?.targetTID], ['MAINTENANCE_READ_RESPONSE', 'DONE', 7]);
    assert.equal(wordOf(id!, 0x0), 0x12340abc);
    // Part 1 Table 5-8: PortTotal 3, PortNumber 0 (the port the request came in on).
    assert.equal(wordOf(info!, SWITCH_OFFSETS.switchPortInformation), 0x0300);
    assert.equal(t.sw.counters().maintenanceReads, 2);
    assert.equal(t.log.find('maintenance-answered').length, 2);
  } finally {
    await t.stop();
  }
});

test('Part 3 §2.5 "If the hop_count is not zero, it is decremented and the packet is sent out": the forwarded request arrives with hop_count 0 and a valid CRC', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    const [a, b] = [await t.peer(0), await t.peer(1)];
    await t.waitUp(0, 1);
    await a.send([read(0x0, 1, 2)]);
    // The peer's link checked the CRC when it decoded the packet (riodp link §3.1).
    const [fwd] = (await b.waitFor(1)) as Type8Packet[];
    assert.deepEqual([fwd?.transactionName, fwd?.hopCount, fwd?.destinationID], ['MAINTENANCE_READ_REQUEST', 0, 2]);
    assert.equal(t.sw.counters().maintenanceForwarded, 1);
  } finally {
    await t.stop();
  }
});

test('riodp switch: a second connection to a busy port is refused with CLOSE application "port 0 is busy"; the first keeps working', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    const [a, b] = [await t.peer(0), await t.peer(1)];
    await t.waitUp(0, 1);
    const intruder = await t.peer(0);
    const closed = await intruder.closed;
    assert.deepEqual([closed.by, closed.reasonName, closed.text], ['peer', 'application', 'port 0 is busy']);
    await a.send([numbered(1, 2, 9)]);
    await b.waitFor(1);
    assert.deepEqual(b.packets.map(numberOf), [9]);
    assert.equal(t.sw.counters().busyRefused, 1);
    assert.equal(t.log.find('connection-refused').length, 1);
  } finally {
    await t.stop();
  }
});

test('riodp link §4.3: close() ends every link with CLOSE normal "shutdown" and stops listening', async () => {
  const t = await startTestSwitch(CONFIG);
  const a = await t.peer(0);
  await t.waitUp(0);
  const port = t.tcpPort(0);
  await t.sw.close();
  const closed = await a.closed;
  assert.deepEqual([closed.by, closed.reasonName, closed.text], ['peer', 'normal', 'shutdown']);
  await assert.rejects(connect({ port, connectTimeoutMs: 2000 }));
  assert.equal(t.log.find('stopped').length, 1);
});

test('riodp switch, issue 18 (typed snapshots): ports() and snapshot() show each port\'s link; the snapshot is a SwitchProcessSnapshot of plain JSON', async () => {
  const t = await startTestSwitch(CONFIG);
  try {
    await t.peer(1);
    await t.waitUp(1);
    const ports = t.sw.ports();
    assert.deepEqual(ports.map((p) => p.link), ['none', 'open', 'none']);
    assert.equal(ports[1]?.address?.tcpPort, t.tcpPort(1));
    const snap: SwitchProcessSnapshot = t.sw.snapshot();
    assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
    assert.deepEqual(snap.element.ports.map((p) => p.up), [false, true, false]);
    assert.deepEqual(snap.ports.map((p) => p.link), ['none', 'open', 'none']);
    assert.deepEqual(Object.keys(snap).sort(), ['clock', 'counters', 'element', 'ports', 'timers']);
    assert.equal(snap.counters.linksOpened, 1);
  } finally {
    await t.stop();
  }
});

test('issue 8 §3 "unauthenticated peers are refused": with tls.psk, a peer with the key is routed, a plain TCP peer never gets a link', async () => {
  const key = '00112233445566778899aabbccddeeff';
  const t = await startTestSwitch({ ...CONFIG, tls: { psk: { identity: 'lab', key } } });
  try {
    const tls = { psk: { identity: 'lab', key: Buffer.from(key, 'hex') } };
    const [a, b] = [await t.peer(0, { tls }), await t.peer(1, { tls })];
    await t.waitUp(0, 1);
    await a.send([numbered(1, 2, 5)]);
    await b.waitFor(1);
    assert.deepEqual(b.packets.map(numberOf), [5]);
    await assert.rejects(connect({ port: t.tcpPort(2), connectTimeoutMs: 2000, helloTimeoutMs: 2000 }));
    assert.equal(t.sw.ports()[2]?.link, 'none');
  } finally {
    await t.stop();
  }
});

test('issue 8 §1 "Engines\' timers run on the real clock through one driver": the VoQ refresh timer (ns) sends a CS48 symbol on each expiry; received symbols reach the element', async () => {
  const t = await startTestSwitch({ ...CONFIG, voq: { high: 2, low: 1, refreshPeriod: 20_000_000, generate: [1] } });
  try {
    const b = await t.peer(1);
    await t.waitUp(1);
    // VoQ Backpressure §4.2 g: one message after the link came up, then one per 20 ms refresh.
    for (let k = 0; k < 400 && b.symbols.length < 4; k++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(b.symbols.length >= 4, `${b.symbols.length} symbols`);
    assert.ok(b.symbols.every((s) => s.link === 'cs48' && s.stype0Name === 'status' && s.voq?.cmdName === 'VOQ_BACKPRESSURE'));
    // A packet-accepted symbol (a status-only symbol is the link's keepalive, absorbed by the link).
    b.link.sendSymbol({ link: 'cs48', stype0: 0b000, parameter0: 0, parameter1: 62, stype1: 0b111, cmd: 0 });
    for (let k = 0; k < 100 && t.sw.counters().symbolsReceived === 0; k++) await new Promise((r) => setTimeout(r, 2));
    assert.equal(t.sw.counters().symbolsReceived, 1);
    assert.deepEqual(t.sw.snapshot().timers.map((x) => x.name), ['voq:refresh']);
  } finally {
    await t.stop();
  }
});

test('riodp switch: a port that cannot listen rejects startSwitch with the port and the address, and nothing is left open', async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const busy = (taken.address() as AddressInfo).port;
  try {
    const log = new LogCapture();
    const config = parseSwitchConfig({ ...CONFIG, ports: [CONFIG.ports[0], { port: 1, listen: { port: busy } }], routes: { 1: 0, 2: 1 } });
    await assert.rejects(startSwitch(config, { logger: makeLogger({ destination: log }) }), new RegExp(`^Error: port 1: cannot listen on 127\\.0\\.0\\.1:${busy}: .*EADDRINUSE`));
    const first = log.find('listening')[0]?.['tcpPort'] as number;
    await assert.rejects(connect({ port: first, connectTimeoutMs: 2000 }));
  } finally {
    taken.close();
  }
});
