import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arbMessage, arbPacket } from '../../../test/support/sim-arbitration.ts';
import { bench, dataPacket, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import type { ScriptedPort } from '../../../test/support/sim-endpoint.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { ArbitrationFeature } from '../../node/endpoint/arbitration.ts';
import { SIM_ARB_IDLE_TIMEOUT, SIM_ARB_REQUEST_TIMEOUT, SIM_ARB_RETRY_DELAY } from '../../node/endpoint/arbitration-config.ts';
import type { EndpointArbitrationConfig } from '../../node/endpoint/arbitration-config.ts';
import type { Endpoint } from './endpoint.ts';
import type { SimPacket } from './types.ts';

/** Wire time on the X1 link of a Dev8 Type 7 packet (8 octets with its CRC) and of a 64-byte PDU's one packet (76 octets), delimiters included. */
const ARB_TIME = x1Time(8);
const DATA64_TIME = x1Time(76);
/** A CS48 control symbol (a credit) on the X1 link. */
const SYMBOL_TIME = withScriptedPeer(bench(), { name: 'probe', id: 1, buffers: { packets: 8 } }).link.ab.symbolTime;

function x1Time(octets: number): number {
  return withScriptedPeer(bench(), { name: 'probe', id: 1, buffers: { packets: 8 } }).link.ab.packetTime(octets);
}

function arbOf(ep: Endpoint): ArbitrationFeature {
  const f = ep.features.find((x) => x.name === 'arbitration');
  assert.ok(f instanceof ArbitrationFeature);
  return f;
}

/** End point 1 with arbitration, linked to a scripted end point 2. */
function setup(arbitration: EndpointArbitrationConfig, extra: { mtu?: number } = {}): { b: ReturnType<typeof bench>; ep: Endpoint; peer: ScriptedPort; arb: ArbitrationFeature } {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, arbitration, ...extra });
  return { b, ep, peer, arb: arbOf(ep) };
}

function arbs(peer: ScriptedPort): { at: number; w: Type7Packet; p: SimPacket }[] {
  return peer.got.filter((r) => r.packet.kind === 'arb').map((r) => ({ at: r.at, w: r.packet.wire as Type7Packet, p: r.packet }));
}

function data(peer: ScriptedPort): { at: number; p: SimPacket }[] {
  return peer.got.filter((r) => r.packet.kind === 'data').map((r) => ({ at: r.at, p: r.packet }));
}

test('Part 9 §2.4.7 rules 1, 3 1) and 4, §2.4.2.1: a PDU waits for XON(ARB); unanswered, the REQUEST is re-sent every requestTimeout ps with the same sequence bit', () => {
  const { b, ep, peer, arb } = setup({ requestTimeout: 5_000_000 });
  ep.source.offer(2, 0, 0, 64, 0);
  b.sched.run({ until: 12_000_000 });
  const reqs = arbs(peer);
  assert.deepEqual(reqs.map((r) => r.at), [ARB_TIME, 5_000_000 + ARB_TIME, 10_000_000 + ARB_TIME]);
  assert.deepEqual(reqs.map((r) => [r.w.command, r.w.seq, r.w.destinationID, r.w.tgtdestinationID, r.w.flowID]), Array(3).fill(['REQUEST_SINGLE_PDU', 0, 2, 1, '0A']));
  assert.equal(data(peer).length, 0, 'nothing before XON(ARB)');
  assert.deepEqual([arb.counters()['requests'], arb.counters()['reissued']], [1, 2]);
  peer.sendAt(12_000_000, arbPacket(100, 2, arbMessage(2, 1, 'XON_ARB', 0)));
  b.sched.run({ until: 14_000_000 });
  const d = data(peer);
  assert.equal(d.length, 1);
  // The PDU's one packet leaves as the XON(ARB) arrives, after the credit for the XON(ARB)'s buffer.
  assert.equal(d[0]?.at, 12_000_000 + ARB_TIME + SYMBOL_TIME + DATA64_TIME);
  assert.deepEqual([arb.counters()['granted'], arb.counters()['waits'], arb.counters()['waitPs'], arb.counters()['refused']], [1, 1, 12_000_000 + ARB_TIME, 0]);
  // The single-PDU grant ended with the PDU's last segment (rule 5): the flow is blocked again.
  assert.equal((ep.source.flows[0]?.blocked ?? 0) & 2, 2);
});

test('Part 9 §2.4.7 rule 12, §2.4.2: REQUEST goes at prio 3 with CRF 1 (CRF 0 when the end point does not support CRF), RELEASE in the flow of its data', () => {
  for (const crfSupported of [true, false]) {
    const b = bench();
    const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, crfSupported, arbitration: { mode: 'multi' } });
    ep.source.offer(2, 1, 0, 64, 0);
    b.sched.run({ until: 1_000_000 });
    // Prio 1, CRF 0 is flow 0C with CRF (Part 6 Table 6-7) and 0B without (Table 6-6).
    const flowID = crfSupported ? '0C' : '0B';
    peer.sendAt(1_000_000, arbPacket(100, 2, arbMessage(2, 1, 'XON_ARB', 0, flowID)));
    b.sched.run({ until: 3_000_000 });
    const got = arbs(peer).map((r) => [r.w.command, r.p.prio, r.p.crf, r.w.flowID]);
    assert.deepEqual(got, [['REQUEST_MULTI_PDU', 3, crfSupported ? 1 : 0, flowID], ['RELEASE', 1, 0, flowID]], `crfSupported ${crfSupported}`);
    // RELEASE "in the same flow that the context is allocated for": after the PDU's last packet.
    const release = arbs(peer)[1];
    assert.ok(release !== undefined && (data(peer)[0]?.at ?? Infinity) < release.at);
    // As a destination it answers at prio 3 with its own CRF setting.
    peer.sendAt(3_000_000, arbPacket(101, 2, arbMessage(2, 1, 'REQUEST_SINGLE_PDU', 0, '0A')));
    b.sched.run({ until: 4_000_000 });
    assert.deepEqual(arbs(peer).slice(2).map((r) => [r.w.command, r.p.prio, r.p.crf]), [['XON_ARB', 3, crfSupported ? 1 : 0]]);
  }
});

test('Part 9 §2.2.1 Figure 2-3, §2.4.7 rules 6-8: XOFF(ARB) in the middle of the second PDU of a multi-PDU grant — the PDU completes, RELEASE follows it, the rest waits for a new grant', () => {
  // 768-byte PDUs of three 256-byte packets; three PDUs queued at 0.
  const { b, ep, peer, arb } = setup({ mode: 'multi' });
  for (let i = 0; i < 3; i++) ep.source.offer(2, 0, 0, 768, 0);
  b.sched.run({ until: 1_000_000 });
  assert.deepEqual(arbs(peer).map((r) => [r.w.command, r.w.seq]), [['REQUEST_MULTI_PDU', 0]], 'one REQUEST for the backlog');
  peer.sendAt(1_000_000, arbPacket(100, 2, arbMessage(2, 1, 'XON_ARB', 0)));
  // Rule 6: the PDUs go back to back; XOFF(ARB) leaves when the second PDU's first packet arrives.
  while (data(peer).length < 4) b.sched.run({ until: b.sched.now + 100_000 });
  peer.sendAt(b.sched.now, arbPacket(101, 2, arbMessage(2, 1, 'XOFF_ARB', 0)));
  b.sched.run({ until: b.sched.now + 20_000_000 });
  const d = data(peer);
  assert.equal(d.length, 6, 'the second PDU completes; the third waits');
  assert.deepEqual(d.map((x) => [x.p.pdu?.index, x.p.pdu?.count]), [[0, 3], [1, 3], [2, 3], [0, 3], [1, 3], [2, 3]]);
  const after = arbs(peer).slice(1);
  const release = after.find((r) => r.w.command === 'RELEASE');
  const again = after.find((r) => r.w.command === 'REQUEST_MULTI_PDU');
  assert.ok(release !== undefined && again !== undefined);
  assert.equal(release.w.seq, 0, 'RELEASE carries the grant\'s sequence bit');
  assert.equal(again.w.seq, 1, 'a new REQUEST advances the sequence bit (rule 4)');
  assert.ok(release.at > (d[5]?.at ?? Infinity), 'RELEASE after the PDU\'s last packet');
  assert.deepEqual([arb.counters()['revoked'], arb.counters()['released'], arb.counters()['refused']], [1, 1, 0]);
  peer.sendAt(b.sched.now, arbPacket(102, 2, arbMessage(2, 1, 'XON_ARB', 1)));
  b.sched.run({ until: b.sched.now + 20_000_000 });
  assert.equal(data(peer).length, 9);
  // The backlog has gone: rule 7 RELEASE with the new grant's Y.
  assert.deepEqual(arbs(peer).slice(-1).map((r) => [r.w.command, r.w.seq]), [['RELEASE', 1]]);
});

test('Part 9 §2.4.7 rules 2, 5, 9, §2.4.8: the destination answers XON(ARB), queues what its resources cannot take, frees on the last segment, and frees a silent resource after idleTimeout ps', () => {
  const { b, ep, peer, arb } = setup({ resources: 1, idleTimeout: 3_000_000 });
  peer.sendAt(0, arbPacket(100, 2, arbMessage(2, 1, 'REQUEST_SINGLE_PDU', 0)));
  peer.sendAt(0, arbPacket(101, 3, arbMessage(3, 1, 'REQUEST_SINGLE_PDU', 0, '0B')));
  b.sched.run({ until: 1_000_000 });
  // Rule 2 XON(ARB) to source 2; rule 9 the second REQUEST waits (resources 1).
  assert.deepEqual(arbs(peer).map((r) => [r.w.command, r.w.destinationID, r.w.tgtdestinationID, r.w.seq, r.p.prio, r.p.crf]), [['XON_ARB', 2, 1, 0, 3, 1]]);
  assert.deepEqual([arb.counters()['allocated'], arb.counters()['queued']], [1, 1]);
  // Rule 5 1): the PDU's one packet frees the resource on arrival; source 3 gets it.
  peer.sendAt(1_000_000, dataPacket(102, 2, 1, 0, { id: 0, index: 0, count: 1, bytes: 64 }));
  b.sched.run({ until: 2_000_000 });
  const granted = arbs(peer)[1];
  assert.deepEqual([granted?.w.command, granted?.w.destinationID, granted?.w.flowID], ['XON_ARB', 3, '0B']);
  assert.equal(ep.counters().pdusReceived, 1);
  // §2.4.8 / rule 5 2): source 3 sends nothing; 3 µs after its grant the resource is freed.
  const grantedAt = (granted?.at ?? 0) - ARB_TIME;
  // run({until}) simulates [now, until): the expiry at grantedAt + 3 µs runs in the second step.
  b.sched.run({ until: grantedAt + 3_000_000 });
  assert.equal(arb.snapshot()['allocated'], 1);
  b.sched.run({ until: grantedAt + 3_000_000 + 1 });
  assert.equal(arb.snapshot()['allocated'], 0);
  assert.deepEqual([arb.counters()['idleFreed'], arb.counters()['freed'], arb.counters()['maxAllocated']], [1, 2, 1]);
});

test('Part 9 §3.4, engine contract: bad arbitration input is counted, never thrown — no Type 7, a command of neither engine, another end point, a segment with no resource', () => {
  const { b, ep, peer, arb } = setup({});
  const junk: SimPacket = { id: 100, kind: 'arb', ftype: 7, src: 2, dst: 1, prio: 3, crf: 1, vc: 0, bytes: 8, flow: -1, createdAt: 0, wire: { ftype: 9 } };
  peer.sendAt(0, junk);
  peer.sendAt(0, { ...junk, id: 101, wire: undefined });
  peer.sendAt(0, arbPacket(102, 2, arbMessage(2, 1, 'XON', undefined)));
  // Delivered here, but naming end point 9 (§3.2: not ours to answer).
  peer.sendAt(0, { ...arbPacket(103, 2, arbMessage(2, 9, 'REQUEST_SINGLE_PDU', 0)), dst: 1 });
  peer.sendAt(0, arbPacket(104, 2, arbMessage(2, 1, 'XON_ARB', 1)));
  peer.sendAt(0, dataPacket(105, 2, 1, 0, { id: 0, index: 0, count: 1, bytes: 64 }));
  // A request at prio 3 is "Illegal" (Part 9 Table 2-1): it names no flow to arbitrate.
  peer.sendAt(0, { ...dataPacket(106, 2, 1, 0, { id: 1, index: 0, count: 1, bytes: 64 }), prio: 3 });
  b.sched.run({ until: 5_000_000 });
  const c = arb.counters();
  assert.deepEqual([c['malformed'], c['ignored'], c['stale'], c['unexpectedSegments'], c['unknownFlow']], [2, 2, 1, 1, 1]);
  assert.equal(arbs(peer).length, 0, 'nothing answered');
  // Arbitration does not drop data: the segments are counted and delivered.
  assert.equal(ep.counters().pdusReceived, 2);
});

test('Part 9 §2.4.8 NOTE, contract.ts: the engines\' nanosecond defaults are scaled to ps (100 µs, 10 µs, 1 ms); settings are checked with a RangeError naming the field', () => {
  const { arb } = setup({});
  const snap = arb.snapshot() as { tx: { config: { requestTimeout: number; retryDelay: number } }; rx: { config: { idleTimeout: number; resources: number } } };
  assert.deepEqual([snap.tx.config.requestTimeout, snap.tx.config.retryDelay, snap.rx.config.idleTimeout, snap.rx.config.resources], [100_000_000, 10_000_000, 1_000_000_000, 4]);
  assert.deepEqual([SIM_ARB_REQUEST_TIMEOUT, SIM_ARB_RETRY_DELAY, SIM_ARB_IDLE_TIMEOUT], [100_000_000, 10_000_000, 1_000_000_000]);
  assert.deepEqual(JSON.parse(JSON.stringify(arb.snapshot())), arb.snapshot(), 'the snapshot is plain JSON');
  const bad: [EndpointArbitrationConfig, RegExp][] = [
    [{ resources: -1 }, /^arbitration\.resources must be a non-negative integer$/],
    [{ mode: 'both' as 'single' }, /^arbitration\.mode must be 'single' or 'multi'$/],
    [{ requestTimeout: 0 }, /^arbitration\.requestTimeout must be a positive integer or null$/],
    [{ retryDelay: 1.5 }, /^arbitration\.retryDelay must be a non-negative integer$/],
    // The end point always asks again: no null (the engine's "the application must ask again").
    [{ retryDelay: null as unknown as number }, /^arbitration\.retryDelay must be a non-negative integer$/],
    [{ idleTimeout: -5 }, /^arbitration\.idleTimeout must be a positive integer or null$/],
    [{ whenBusy: 'drop' as 'queue' }, /^arbitration\.whenBusy must be 'queue' or 'reject'$/],
    [{ maxQueued: -1 }, /^arbitration\.maxQueued must be a non-negative integer$/],
    [{ pipelining: 1 as unknown as boolean }, /^arbitration\.pipelining must be a boolean$/],
  ];
  for (const [config, message] of bad) assert.throws(() => setup(config), { name: 'RangeError', message });
});
