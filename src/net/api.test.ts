import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEndpoint } from './endpoint-start.ts';
import type { FlowChange, RiodpEndpoint, Stream } from './api-types.ts';
import type { EndpointConfigInput } from './endpoint-config.ts';
import { bytes, MS, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';
import type { Relay } from '../../test/support/net-endpoint.ts';

const PROTO = 0x1234;
const DATA3 = { protoID: PROTO, dataHeaderFormat: 'DATA3' as const };

interface Pair {
  readonly relay: Relay;
  readonly a: RiodpEndpoint;
  readonly b: RiodpEndpoint;
  close(): Promise<void>;
}

async function pair(more: Partial<EndpointConfigInput> = {}, moreB: Partial<EndpointConfigInput> = more): Promise<Pair> {
  const relay = await startRelay([1, 2]);
  const [a, b] = await Promise.all([
    startEndpoint(testEndpointConfig(1, relay.port(1), { protocols: [DATA3], discovery: { targets: [{ node: 2 }] }, ...more })),
    startEndpoint(testEndpointConfig(2, relay.port(2), { protocols: [DATA3], discovery: { targets: [{ node: 1 }] }, ...moreB })),
  ]);
  return {
    relay,
    a,
    b,
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      await relay.close();
    },
  };
}

/** PDUs as plain Uint8Arrays (a PDU of one segment is a Buffer view of what the link read). */
function plain(pdus: readonly (Uint8Array | null)[]): Uint8Array[] {
  return pdus.map((p) => new Uint8Array(p ?? []));
}

async function next(it: AsyncIterator<Stream>): Promise<Stream> {
  const r = await it.next();
  if (r.done === true) throw new Error('incoming() ended');
  return r.value;
}

test('Annex 2 §3.3: discover() reads the configured targets\' registers and resolves with the participants and their contacts', async () => {
  const p = await pair();
  try {
    const peers = await p.a.discover();
    assert.deepEqual(peers.map((x) => [x.node, x.contact, x.source, x.complete]), [[2, { conveyance: 'type9', streamID: 0xfff0, cos: 0 }, 'block', true]]);
    assert.deepEqual((await p.b.discover(1)).map((x) => x.node), [1]);
    assert.deepEqual(p.a.status().peers.map((x) => x.node), [2]);
  } finally {
    await p.close();
  }
});

test('Annex 2 §3.3: discover(node) of a node nobody answers for resolves with no peer (unreachable after the read timeout)', async () => {
  const p = await pair();
  try {
    assert.deepEqual(await p.a.discover(7), []);
    assert.ok(p.relay.counts.dropped > 0, 'the reads for node 7 found no link');
  } finally {
    await p.close();
  }
});

test('Annex 2 §3.5.1.3, §4.3.4, Part 10 §3.2.5: openStream() resolves once ACCEPTed; PDUs of 1 B, 300 B, 4 KiB and 64 KiB arrive intact, in order, on the stream incoming() yields', async () => {
  const p = await pair();
  try {
    const tx = await p.a.openStream({ to: 2, protoID: PROTO });
    assert.equal(tx.tx?.direction, 'tx');
    assert.equal(tx.rx, null);
    const it = p.b.incoming()[Symbol.asyncIterator]();
    const rx = await next(it);
    assert.deepEqual([rx.remote, rx.protoID, rx.rx?.streamID, rx.tx], [1, PROTO, tx.tx.streamID, null]);
    const pdus = [1, 300, 4096, 65536].map((n, i) => bytes(n, i + 1));
    for (const pdu of pdus) await tx.send(pdu);
    const got: Uint8Array[] = [];
    for (let i = 0; i < pdus.length; i++) got.push((await rx.read()) as Uint8Array);
    assert.deepEqual(plain(got), pdus);
    assert.equal(p.a.status().counters.api.pdusSent, 4);
    assert.equal(p.b.status().counters.api.pdusReceived, 4);
  } finally {
    await p.close();
  }
});

test('Annex 2 §3.5.1.3: openStream() to a node that is not discovered yet discovers it first (§3.3), and the receiver discovers the opener before answering (Figure 3-1)', async () => {
  const p = await pair({ discovery: {} });
  try {
    const tx = await p.a.openStream({ to: 2, protoID: PROTO });
    assert.ok(tx.tx !== null);
    assert.deepEqual(p.a.status().peers.map((x) => x.node), [2]);
    await until(() => p.b.status().peers.some((x) => x.node === 1), 2000, 'B to discover A');
    assert.ok(p.b.status().counters.api.gatedPackets > 0, 'the OPEN waited for discovery of its sender');
  } finally {
    await p.close();
  }
});

test('Annex 2 §4.2.5: openStream() of a protocol the node does not accept rejects with the REFUSE', async () => {
  const p = await pair();
  try {
    await assert.rejects(p.a.openStream({ to: 2, protoID: 0x4321 }), /refused by node 2/);
  } finally {
    await p.close();
  }
});

test('Annex 2 §3.7.3 "judged to be suspect": a peer whose OPEN goes unanswered is shown suspect in status().peers and discover() until it is discovered again', async () => {
  const session = { retryPeriod: 20 * MS, timeoutPeriod: 120 * MS };
  const p = await pair({ session });
  try {
    assert.deepEqual((await p.a.discover()).map((x) => [x.node, x.suspect]), [[2, false]]);
    p.relay.hold = (pk) => pk.destinationID === 2;
    await assert.rejects(p.a.openStream({ to: 2, protoID: PROTO }));
    await until(() => p.a.status().peers.some((x) => x.node === 2 && x.suspect), 3000, 'node 2 suspect in status');
    p.relay.hold = null;
    assert.deepEqual((await p.a.discover(2)).map((x) => [x.node, x.suspect]), [[2, false]]);
    assert.deepEqual(p.a.status().peers.map((x) => [x.node, x.suspect]), [[2, false]]);
  } finally {
    await p.close();
  }
});

test('Annex 2 §3.3: openStream() to a node that is not a participant rejects', async () => {
  const p = await pair();
  try {
    await assert.rejects(p.a.openStream({ to: 9, protoID: PROTO }), /node 9 is not a session management participant/);
    await assert.rejects(p.a.openStream({ to: 0x10000, protoID: PROTO }), RangeError);
  } finally {
    await p.close();
  }
});

test('Part 10 §5.4.3: a PDU over 64 KiB is refused by send() (MaxPDU "0x0000 - 64K"); the stream goes on', async () => {
  const p = await pair();
  try {
    const tx = await p.a.openStream({ to: 2, protoID: PROTO });
    await assert.rejects(tx.send(new Uint8Array(65537)), /not accepted.*type9 refused it/);
    await tx.send(bytes(10));
    const rx = await next(p.b.incoming()[Symbol.asyncIterator]());
    assert.deepEqual(plain([await rx.read()]), [bytes(10)]);
    assert.equal(p.a.status().counters.api.sendRefused, 1);
  } finally {
    await p.close();
  }
});

test('Annex 2 §4.2.7: close() ends the stream on both sides: the receiver\'s iteration ends after the PDUs sent before, a later send rejects', async () => {
  const p = await pair();
  try {
    const tx = await p.a.openStream({ to: 2, protoID: PROTO });
    const rx = await next(p.b.incoming()[Symbol.asyncIterator]());
    await tx.send(bytes(100, 1));
    await tx.send(bytes(200, 2));
    await until(() => rx.status().rx?.buffered === 2, 2000, 'two PDUs');
    await tx.close();
    assert.equal(tx.closed, true);
    const got: number[] = [];
    for await (const pdu of rx) got.push(pdu.length);
    assert.deepEqual(got, [100, 200]);
    assert.equal(rx.closed, true);
    await assert.rejects(tx.send(bytes(1)), /is closed/);
    assert.deepEqual(p.a.status().streams, []);
  } finally {
    await p.close();
  }
});

test('Annex 2 §3.4: openConduit() resolves with both streams; the peer\'s incoming() yields the conduit; PDUs cross both ways', async () => {
  const p = await pair();
  try {
    const c = await p.a.openConduit({ to: 2, protoID: PROTO });
    assert.ok(c.conduit && c.tx !== null && c.rx !== null);
    const d = await next(p.b.incoming()[Symbol.asyncIterator]());
    assert.ok(d.conduit && d.tx !== null && d.rx !== null);
    assert.deepEqual([d.rx.streamID, d.tx.streamID], [c.tx.streamID, c.rx.streamID]);
    await c.send(bytes(5000, 3));
    await d.send(bytes(70, 4));
    assert.deepEqual(plain([await d.read()]), [bytes(5000, 3)]);
    assert.deepEqual(plain([await c.read()]), [bytes(70, 4)]);
    const s = p.a.status().streams;
    assert.equal(s.length, 1);
    assert.deepEqual([s[0]?.conduit, s[0]?.tx?.dataHeaderFormat, s[0]?.rx?.buffered], [true, 'DATA3', 0]);
    await c.close();
    assert.equal(await d.read(), null);
  } finally {
    await p.close();
  }
});

test('Annex 2 §4.2.6: a receiver that does not read XOFFs the stream at api.rxHigh; the sender\'s send() waits and flowChanges() shows XOFF, then XON once the receiver reads', async () => {
  const api = { sendWindow: 2, rxHigh: 4, rxLow: 1, rxLimit: 200 };
  const p = await pair({ protocols: [DATA3], discovery: { targets: [{ node: 2 }] }, api }, { protocols: [DATA3], discovery: { targets: [{ node: 1 }] }, api });
  try {
    const changes: FlowChange[] = [];
    p.a.onFlowChange((c) => changes.push(c));
    const seenB = p.b.flowChanges()[Symbol.asyncIterator]();
    const tx = await p.a.openStream({ to: 2, protoID: PROTO });
    const rx = await next(p.b.incoming()[Symbol.asyncIterator]());
    let sent = 0;
    const sending = (async () => {
      for (let i = 0; i < 200; i++) {
        await tx.send(bytes(1000, i));
        sent++;
      }
    })();
    await until(() => changes.some((c) => c.kind === 'session-tx' && c.state === 'xoff'), 3000, 'XOFF at the sender');
    const first = await seenB.next();
    const c0: FlowChange | undefined = first.done === true ? undefined : first.value;
    assert.deepEqual([c0?.kind, c0?.state], ['session-rx', 'xoff']);
    assert.equal(p.a.status().streams[0]?.tx?.xoff, true);
    const stalled = sent;
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(sent, stalled, 'send() waits while the stream is XOFF\'d');
    assert.ok(stalled < 200, `${stalled} PDUs sent before the XOFF held the sender`);
    const got: Uint8Array[] = [];
    for (let i = 0; i < 200; i++) got.push((await rx.read()) as Uint8Array);
    await sending;
    assert.deepEqual(plain(got), Array.from({ length: 200 }, (_, i) => bytes(1000, i)));
    assert.ok(changes.some((c) => c.kind === 'session-tx' && c.state === 'xon'));
    assert.equal(p.b.status().counters.api.rxDropped, 0);
    assert.ok(p.b.status().counters.api.xoffSent >= 1 && p.b.status().counters.api.xonSent >= 1);
  } finally {
    await p.close();
  }
});

test('Part 1 §4.1.10, Part 3 §2.5: readRegister() reads a word of the node\'s configuration space over Type 8 (Base Device ID CSR 0x60 holds its ID)', async () => {
  const p = await pair();
  try {
    const v = await p.a.readRegister(2, 0xff, 0x60);
    assert.equal(v & 0xffff, 2);
    const features = await p.a.readRegister(2, 0xff, 0x10);
    assert.equal(typeof features, 'number');
    assert.equal(p.a.status().counters.api.readResponses, 2);
    await assert.rejects(p.a.readRegister(2, 0xff, 0x61), RangeError);
  } finally {
    await p.close();
  }
});

test('Part 1 §4.1.10: a readRegister() without a response rejects after api.readTimeoutMs', async () => {
  const p = await pair({ api: { readTimeoutMs: 50 } });
  try {
    await assert.rejects(p.a.readRegister(9, 0xff, 0x60), /no MAINTENANCE response within 50 ms/);
    assert.equal(p.a.status().counters.api.readTimeouts, 1);
  } finally {
    await p.close();
  }
});

test('riodp link §4.3: when the link is lost the end point reports it, connects again with backoff and carries on', async () => {
  const p = await pair();
  try {
    const tx = await p.a.openStream({ to: 2, protoID: PROTO });
    const rx = await next(p.b.incoming()[Symbol.asyncIterator]());
    p.relay.link(1)?.destroy();
    await until(() => p.a.status().link.connects === 2 && p.a.status().link.state === 'up', 3000, 'reconnection');
    assert.equal(p.a.status().counters.api.linkDowns, 1);
    await tx.send(bytes(300, 9));
    assert.deepEqual(plain([await rx.read()]), [bytes(300, 9)]);
  } finally {
    await p.close();
  }
});

test('riodp link §4.1: startEndpoint() rejects when no switch answers within connect.timeoutMs', async () => {
  const relay = await startRelay([1]);
  const port = relay.port(1);
  await relay.close();
  await assert.rejects(startEndpoint(testEndpointConfig(1, port, { connect: { timeoutMs: 200, retryMs: 20, maxRetryMs: 40 } })), /no link to the switch at 127\.0\.0\.1:\d+ within 200 ms/);
});

test('issue 8 §3 "Any other address requires TLS" (issue 16 item 6): startEndpoint() with a non-loopback switch host and no tls rejects at once with a RangeError, before any connection attempt', async () => {
  const c = testEndpointConfig(1, 4000, { connect: { timeoutMs: 10_000 } });
  const t0 = Date.now();
  await assert.rejects(startEndpoint({ ...c, switch: { ...c.switch, host: '192.0.2.1' } }), /^RangeError: host must be a loopback address \(127\.0\.0\.0\/8 or ::1\) to connect to 192\.0\.2\.1 without tls/);
  await assert.rejects(startEndpoint({ ...c, switch: { ...c.switch, port: 70000 } }), /^RangeError: port must be an integer from 1 to 65535$/);
  assert.ok(Date.now() - t0 < 1000, `${Date.now() - t0} ms: refused at once, not after connect.timeoutMs`);
});

test('Annex 2 §3.5.1.3: close() of the end point rejects what waits and ends the iterations', async () => {
  const p = await pair();
  const it = p.a.incoming()[Symbol.asyncIterator]();
  const waiting = it.next();
  await p.a.close();
  assert.deepEqual(await waiting, { done: true, value: undefined });
  await assert.rejects(p.a.openStream({ to: 2, protoID: PROTO }), /closed/);
  assert.equal(p.a.status().link.state, 'closed');
  await p.close();
});
