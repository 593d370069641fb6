import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureOf, flowSetups, runFabric, sessionFabric, sessionOf, toDst } from '../../../test/support/sim-session.ts';
import type { SessionFabric } from '../../../test/support/sim-session.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import type { Packet } from '../../wire/packet.ts';
import { SMP_COMMAND } from '../../wire/smp/header.ts';
import { decodeSmp } from '../../wire/smp/index.ts';
import type { EndpointSessionConfig } from '../../node/endpoint/session.ts';
import type { SimPacket } from './types.ts';

/** 200 µs: setup takes about 15–25 µs on these 1 Gbit/s links. */
const RUN = 200_000_000;
const S: EndpointSessionConfig = {};

const wire = (p: SimPacket): Packet => p.wire as Packet;
/** The SMP <CMD> of a Type 11 management message (its first payload octet). */
const cmd = (p: SimPacket): number | undefined => {
  if (p.kind !== 'smp') return undefined;
  const w = wire(p);
  return w.ftype === 11 ? w.payload[0] : undefined;
};

/** Four end points; 0 → 1 and 2, 1 → 2, 2 → 0, 3 → 0 and 1. */
function four(session: EndpointSessionConfig = S, seed = 1): SessionFabric {
  return sessionFabric([
    { traffic: [toDst(1), toDst(2)], session },
    { traffic: [toDst(2)], session },
    { traffic: [toDst(0)], session },
    { traffic: [toDst(0, 0.1), toDst(1, 0.1)], session },
  ], seed);
}

test('Annex 2 §3.6.1 Figure 3-1, §2.3: through a switch every source discovers its destinations, REQUESTs, OPENs and is ACCEPTed; then its data flows and is delivered', () => {
  const f = four();
  runFabric(f, RUN);
  const r = f.collector.results();
  assert.equal(r.flows.length, 6);
  for (const fl of r.flows) assert.ok(fl.deliveredPackets > 20, `flow ${fl.flow} ${fl.src}>${fl.dst}: ${fl.deliveredPackets} packets`);
  for (const ep of f.eps) {
    for (const s of flowSetups(ep)) {
      assert.ok(s.openedAt !== null && s.setup !== null && s.setup > 0, `${ep.name} flow ${s.flow} opened`);
      assert.ok(s.setup < 50_000_000, `setup ${s.setup} ps`);
    }
    // Destinations have open streams; sources that opened one to this end point were discovered back.
    const peers = sessionOf(ep).snapshot()['peers'] as { state: string }[];
    assert.ok(peers.every((p) => p.state === 'open' || p.state === 'discovered'), JSON.stringify(peers));
  }
  // The end point's snapshot (with the feature's) is plain JSON, as `riodp model` and the reports take it.
  const snap = f.eps[0]?.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  // Figure 3-1: the Dest reads the Session Mgmt CSR of the Source too (1 sends nothing to 0).
  assert.equal(featureOf(f, 1).peerState(0), 'discovered');
  // Every node discovered, destinations and sources alike (decision SM13: none failed).
  assert.deepEqual([r.counts['session.unreachable'], r.counts['session.notParticipating'], r.counts['session.ignored']], [undefined, undefined, undefined]);
  // One stream per (source, destination): six transmit streams, six receive streams accepted.
  assert.deepEqual([r.counts['session.opened'], r.counts['session.accepted'], r.counts['session.flowsOpened']], [6, 6, 6]);
  // Figure 3-1's messages, in order, for 0 → 1: REQUEST, ADVERTISE, OPEN, ACCEPT.
  const between = f.sent.filter((s) => s.packet.kind === 'smp' && wire(s.packet).ftype === 11 && ((s.from === 0 && s.packet.dst === 1) || (s.from === 1 && s.packet.dst === 0)));
  const mine = between.filter((s) => (s.from === 0 ? [SMP_COMMAND.REQUEST, SMP_COMMAND.OPEN] : [SMP_COMMAND.ADVERTISE, SMP_COMMAND.ACCEPT]).includes(cmd(s.packet) as never));
  assert.deepEqual(mine.map((s) => cmd(s.packet)), [SMP_COMMAND.REQUEST, SMP_COMMAND.ADVERTISE, SMP_COMMAND.OPEN, SMP_COMMAND.ACCEPT]);
  const total = r.counts['session.setupTime'] ?? 0;
  assert.equal(total, f.eps.reduce((n, ep) => n + (sessionOf(ep).counters()['setupTotal'] ?? 0), 0));
});

test('Annex 2 §2.3: "the management phase separated from the data phase": no data packet of a flow leaves before its stream is open; PDUs offered meanwhile wait', () => {
  const f = four();
  runFabric(f, RUN);
  const opened = new Map<number, number>();
  for (const ep of f.eps) for (const s of flowSetups(ep)) opened.set(s.flow, s.openedAt ?? Infinity);
  const data = f.sent.filter((s) => s.packet.kind === 'data');
  assert.ok(data.length > 200, `${data.length} data packets`);
  // The data stays the simulator's own packets: no DATA message goes over the session.
  assert.ok(data.every((d) => d.packet.wire === undefined));
  assert.ok(!f.sent.some((x) => cmd(x.packet) === SMP_COMMAND.DATA));
  for (const s of data) assert.ok(s.at >= (opened.get(s.packet.flow) ?? Infinity), `flow ${s.packet.flow} sent at ${s.at}`);
  for (const ep of f.eps) {
    for (const s of flowSetups(ep)) {
      assert.ok(s.firstPacketAt !== null && s.openedAt !== null && s.firstPacketAt >= s.openedAt, JSON.stringify(s));
      // The first packet's PDU was generated before the stream opened and waited in the flow's queue.
      const first = data.find((d) => d.packet.flow === s.flow);
      assert.ok(first !== undefined && first.packet.createdAt < s.openedAt, `${JSON.stringify(s)} first PDU at ${first?.packet.createdAt}`);
    }
  }
});

test('Annex 2 §3.3, Part 1 §4.1.10, Part 3 §2.5: discovery reads the destination\'s registers with MAINTENANCE reads that cross the switch, each answered by the destination', () => {
  const f = four();
  runFabric(f, RUN);
  const smp = f.arrivals.filter((a) => a.packet.kind === 'smp');
  const reads = smp.filter((a) => a.to === 1 && a.packet.src === 0 && wire(a.packet).ftype === 8);
  const requests = reads.filter((a) => { const w = wire(a.packet); return w.ftype === 8 && w.transactionName === 'MAINTENANCE_READ_REQUEST'; });
  assert.ok(requests.length >= 5, `${requests.length} reads`);
  // Sent with hop_count 0xFF; the switch decrements it as it forwards them (Part 3 §2.5).
  assert.ok(requests.every((a) => { const w = wire(a.packet); return w.ftype === 8 && w.hopCount === 0xfe && w.destinationID === 1 && w.sourceID === 0; }), 'requests arrive with hop_count 0xFE');
  const answers = smp.filter((a) => { const w = wire(a.packet); return a.to === 0 && a.packet.src === 1 && w.ftype === 8 && w.transactionName === 'MAINTENANCE_READ_RESPONSE'; });
  assert.equal(answers.length, requests.length);
  // Every session packet sent crossed the switch to its destination (links never lose packets).
  const r = f.collector.results();
  assert.equal(smp.length, r.counts['session.packets']);
  assert.equal(r.counts['session.received'], r.counts['session.packets']);
  const sentBy0 = featureOf(f, 0).counters();
  assert.equal(sentBy0['maintenanceSent'], f.sent.filter((s) => s.from === 0 && s.packet.kind === 'smp' && wire(s.packet).ftype === 8).length);
});

test('Annex 2 (decision): session packets are control packets of kind smp whose octets are the codec\'s LP-Serial length, at the prio and CRF of the packet', () => {
  const f = four();
  runFabric(f, RUN);
  const smp = f.sent.filter((s) => s.packet.kind === 'smp');
  assert.ok(smp.length > 50);
  for (const s of smp) {
    const w = wire(s.packet);
    assert.equal(s.packet.bytes, serialPacketLength(w));
    assert.deepEqual([s.packet.prio, s.packet.crf, s.packet.dst, s.packet.src, s.packet.flow], [w.prio, w.crf, w.destinationID, s.from, -1]);
  }
  // §3.7.2: ACCEPT "sent … with higher priority" than OPEN: prio 1 against 0 over Type 11; responses one above their request.
  const accept = smp.find((s) => cmd(s.packet) === SMP_COMMAND.ACCEPT);
  const open = smp.find((s) => cmd(s.packet) === SMP_COMMAND.OPEN);
  assert.ok(accept !== undefined && open !== undefined && accept.packet.prio > open.packet.prio);
  const bytes = f.collector.results().counts['session.bytes'];
  assert.equal(bytes, smp.reduce((n, s) => n + s.packet.bytes, 0));
});

test('Annex 2 §2.4 Table 2-1, §3.3: with the Type 9 conveyance management messages are Part 10 segments on the advertised StreamID; the streams open the same way', () => {
  const f = four({ conveyance: 'type9', streamID: 0xfff3 });
  runFabric(f, RUN);
  const smp = f.arrivals.filter((a) => a.packet.kind === 'smp');
  const ftypes = new Set(smp.map((a) => wire(a.packet).ftype));
  assert.deepEqual([...ftypes].sort(), [8, 9]);
  const segments = smp.flatMap((a) => { const w = wire(a.packet); return w.ftype === 9 ? [w] : []; });
  // Every management message fits one segment: a single segment carries its StreamID (Part 10 §4.2).
  assert.ok(segments.length > 0 && segments.every((w) => 'streamID' in w && w.streamID === 0xfff3));
  const r = f.collector.results();
  assert.deepEqual([r.counts['session.opened'], r.counts['session.accepted']], [6, 6]);
  for (const fl of r.flows) assert.ok(fl.deliveredPackets > 20);
});

test('Annex 2 §3.5.1.5: a destination whose protocol refuses every OPEN answers REFUSE: the flows to it stay held and the refusal is counted; the other flows go', () => {
  const f = four({ refuse: [2] });
  runFabric(f, RUN);
  const r = f.collector.results();
  // 0 → 2 and 1 → 2 are refused.
  assert.equal(r.counts['session.refused'], 2);
  assert.equal(r.counts['session.opened'], 4);
  for (const fl of r.flows) {
    if (fl.dst === 2) assert.equal(fl.deliveredPackets, 0, `${fl.src}>2 delivered nothing`);
    else assert.ok(fl.deliveredPackets > 20);
  }
  assert.equal(f.sent.filter((s) => s.packet.kind === 'data' && s.packet.dst === 2).length, 0);
  assert.equal(featureOf(f, 0).peerState(2), 'refused');
  assert.ok(f.sent.some((s) => s.from === 2 && cmd(s.packet) === SMP_COMMAND.REFUSE));
  // A refusing end point still opens its own streams (its protocol refuses to receive, not to send).
  assert.equal(featureOf(f, 2).peerState(0), 'open');
});

test('Annex 2 §4.2.2, §6.2: a destination whose vendor-defined protocol has another PROTOCOL_NAME answers ADVERTISE with S=0; no OPEN follows, the flows stay held and it is counted', () => {
  const f = sessionFabric([
    { traffic: [toDst(1), toDst(2)], session: S },
    { session: S },
    { session: { protocolName: 'OTHER' } },
  ]);
  runFabric(f, 100_000_000);
  const s0 = featureOf(f, 0);
  assert.deepEqual([s0.peerState(1), s0.peerState(2)], ['open', 'unsupported']);
  const toTwo = f.sent.filter((x) => x.from === 0 && x.packet.dst === 2 && x.packet.kind === 'smp').map((x) => cmd(x.packet)).filter((c) => c !== undefined);
  assert.deepEqual(toTwo, [SMP_COMMAND.REQUEST]);
  const advertise = f.sent.find((x) => x.from === 2 && cmd(x.packet) === SMP_COMMAND.ADVERTISE);
  const w = advertise === undefined ? undefined : wire(advertise.packet);
  assert.ok(w?.ftype === 11);
  const m = decodeSmp(w.payload, 0, w.payload.length);
  assert.ok(m.command === 'ADVERTISE' && m.s === 0 && m.variant === 'NOT_SUPPORTED');
  const r = f.collector.results();
  assert.equal(r.counts['session.unsupported'], 1);
  assert.equal(f.sent.filter((x) => x.packet.kind === 'data' && x.packet.dst === 2).length, 0);
});

test('Annex 2 §3.2, §5.3 (decision): a non-participant\'s registers advertise nothing: discovery finds it not participating and flows to it stay held; its own flows send without a stream', () => {
  const f = four({ nonParticipants: [2] });
  runFabric(f, RUN);
  const r = f.collector.results();
  assert.equal(r.counts['session.notParticipating'], 2);
  for (const fl of r.flows) {
    if (fl.dst === 2) assert.equal(fl.deliveredPackets, 0);
    else assert.ok(fl.deliveredPackets > 20, `${fl.src}>${fl.dst}`);
  }
  // It answered the reads (from its own register space) and sent nothing else.
  const from2 = f.sent.filter((s) => s.from === 2 && s.packet.kind === 'smp');
  assert.ok(from2.length > 0 && from2.every((s) => { const w = wire(s.packet); return w.ftype === 8 && w.transactionName === 'MAINTENANCE_READ_RESPONSE' && w.status === 0; }));
  const snap = featureOf(f, 2).snapshot();
  assert.deepEqual([snap['role'], snap['flows'], snap['endpoint']], ['non-participant', [], null]);
  // 2 → 0 went from the start: no setup.
  const first = f.sent.find((s) => s.from === 2 && s.packet.kind === 'data');
  assert.ok(first !== undefined && first.at < 5_000_000);
});

test('Annex 2 §3.3: an end point without session management does not answer discovery: the reads time out (unreachable) and the flows to it stay held', () => {
  const quick: EndpointSessionConfig = { readTimeout: 20_000_000 };
  const f = sessionFabric([
    { traffic: [toDst(1), toDst(2)], session: quick },
    { traffic: [toDst(0)], session: quick },
    { traffic: [toDst(0)] },
  ]);
  runFabric(f, 100_000_000);
  const r = f.collector.results();
  assert.equal(r.counts['session.unreachable'], 1);
  assert.ok((r.counts['endpoint.rx.smp'] ?? 0) > 0, 'end point 2 counted the reads it could not handle');
  const peer = (featureOf(f, 0).snapshot()['peers'] as { node: number; state: string; since: number }[]).find((p) => p.node === 2);
  assert.equal(peer?.state, 'unreachable');
  // Given up one read timeout after the read went.
  assert.ok(peer.since >= 20_000_000 && peer.since < 25_000_000, `since ${peer.since}`);
  for (const fl of r.flows) assert.ok(fl.dst === 2 ? fl.deliveredPackets === 0 : fl.deliveredPackets > 10);
});

test('Annex 2 §3.5.3.5, §3.7.1: an OPEN lost in the fabric is sent again every REQUEST_RETRY_PERIOD; unanswered after REQUEST_TIMEOUT_PERIOD the flows to that destination stay held and the time-out is counted', () => {
  const s: EndpointSessionConfig = { retryPeriod: 5_000_000, timeoutPeriod: 20_000_000 };
  const lost = (a: { to: number; packet: SimPacket }): boolean => a.to === 1 && a.packet.kind === 'smp' && cmd(a.packet) === SMP_COMMAND.OPEN;
  const f = sessionFabric([{ traffic: [toDst(1), toDst(2)], session: s }, { session: s }, { session: s }], 1, 0, lost);
  runFabric(f, 100_000_000);
  const s0 = featureOf(f, 0);
  assert.deepEqual([s0.peerState(1), s0.peerState(2)], ['timeout', 'open']);
  const opens = f.sent.filter((x) => x.from === 0 && x.packet.dst === 1 && cmd(x.packet) === SMP_COMMAND.OPEN);
  const first = opens[0];
  assert.ok(first !== undefined);
  const since = (s0.snapshot()['peers'] as { node: number; since: number }[]).find((p) => p.node === 1)?.since ?? 0;
  // Given up REQUEST_TIMEOUT_PERIOD after the OPEN was issued (it went on the wire just after).
  assert.ok(since > first.at + 19_000_000 && since <= first.at + 20_000_000, `OPEN at ${first.at}, given up at ${since}`);
  const r = f.collector.results();
  assert.equal(r.counts['session.timeouts'], 1);
  // Sent at 0, 5, 10 and 15 µs after the first: three retries, then the time-out at 20 µs.
  assert.deepEqual(opens.map((x) => Math.round((x.at - first.at) / 1_000_000)), [0, 5, 10, 15]);
  assert.equal(f.sent.filter((x) => x.packet.kind === 'data' && x.packet.dst === 1).length, 0);
  assert.ok(r.flows.some((fl) => fl.dst === 2 && fl.deliveredPackets > 20));
});

test('Annex 2 §3.8.1, §6.2 (decision): with request false the OPEN goes at once, naming the protocol by VENDOR and PROTOCOL_NAME, and is accepted', () => {
  const f = four({ request: false, vendor: 0x00a01e, protocolName: 'ACME' });
  runFabric(f, RUN);
  const cmds = new Set(f.sent.flatMap((s) => (s.packet.kind === 'smp' ? [cmd(s.packet)] : [])));
  assert.ok(!cmds.has(SMP_COMMAND.REQUEST) && !cmds.has(SMP_COMMAND.ADVERTISE));
  const open = f.sent.find((s) => cmd(s.packet) === SMP_COMMAND.OPEN);
  const payload = open === undefined ? undefined : wire(open.packet);
  // VENDOR 0x00 with the OUI in octets 1-3, then PROTOCOL_NAME 0x01 "ACME" (§3.5.3.1, §6.2.2).
  const hex = payload?.ftype === 11 ? Buffer.from(payload.payload).toString('hex') : '';
  assert.ok(hex.includes('0000a01e00000000') && hex.includes(`01${Buffer.from('ACME').toString('hex')}000000`), hex);
  assert.equal(f.collector.results().counts['session.opened'], 6);
});

test('Annex 2 §3.5.1.8 (decision): a stream closed by its receiver holds its flows again; no PDU of theirs starts after the CLOSE arrives, and it is not reopened', () => {
  const f = four();
  const closeAt = 100_000_000;
  let stream = -1;
  f.sched.schedule(closeAt, {
    onEvent: (_k, _d, now) => {
      const peers = featureOf(f, 0).snapshot()['peers'] as { node: number; streamID: number }[];
      stream = peers.find((p) => p.node === 1)?.streamID ?? -1;
      featureOf(f, 1).command({ kind: 'close', stream: { remote: 0, direction: 'rx', streamID: stream } }, now);
    },
  }, 0);
  runFabric(f, RUN);
  assert.ok(stream >= 0);
  const s0 = featureOf(f, 0);
  assert.equal(s0.peerState(1), 'closed');
  const closedAt = (s0.snapshot()['peers'] as { node: number; since: number }[]).find((p) => p.node === 1)?.since ?? 0;
  assert.ok(closedAt > closeAt && closedAt < closeAt + 5_000_000);
  const to1 = f.sent.filter((s) => s.from === 0 && s.packet.kind === 'data' && s.packet.dst === 1);
  assert.ok(to1.some((s) => s.at < closeAt), 'the flow sent while open');
  assert.equal(to1.filter((s) => s.at > closedAt).length, 0);
  assert.ok(f.sent.some((s) => s.from === 0 && s.packet.kind === 'data' && s.packet.dst === 2 && s.at > closedAt), 'the flow to 2 is not affected');
  const r = f.collector.results();
  assert.deepEqual([r.counts['session.closed'], r.counts['session.opened']], [1, 6]);
});

test('Annex 2 §2.3 (decision): one stream per destination: a flow created after it opened goes at once (setup 0); a flow to a new destination starts its own discovery', () => {
  const f = sessionFabric([
    { traffic: [toDst(1)], session: S },
    { session: S },
    { session: S },
  ]);
  for (const ep of f.eps) ep.start(0);
  f.sched.run({ until: 50_000_000 });
  const src = f.eps[0];
  assert.ok(src !== undefined);
  const s = sessionOf(src);
  assert.equal(s.peerState(1), 'open');
  src.source.offer(1, 2, 0, 64, f.sched.now);
  src.source.offer(2, 0, 0, 64, f.sched.now);
  assert.equal(s.peerState(2), 'discovering');
  f.sched.run({ until: 100_000_000 });
  const setups = flowSetups(src);
  assert.deepEqual(setups.map((x) => [x.dst, x.setup === 0]), [[1, false], [1, true], [2, false]]);
  assert.equal(s.counters()['opened'], 2);
  assert.ok(setups.every((x) => x.firstPacketAt !== null));
});

test('issue 7 §1: determinism: the same fabric with session management run twice gives the same packets at the same times', () => {
  const trace = (): string[] => {
    const f = four({}, 9);
    runFabric(f, 60_000_000);
    return f.arrivals.map((a) => `${a.at} ${a.to} ${a.packet.id} ${a.packet.kind} ${a.packet.src} ${a.packet.bytes}`);
  };
  const a = trace();
  assert.ok(a.length > 100);
  assert.deepEqual(trace(), a);
});
