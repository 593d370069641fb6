import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import { incast, runStar, tmFeature, tmOf, toDst } from '../../../test/support/sim-tm.ts';
import { rawTmPacket, tmPacket } from '../../streaming/tm-packet.ts';
import { serialLength } from '../../wire/serial.ts';
import { TM_OP } from '../../wire/type9-tm.ts';
import type { TmMessage } from '../../wire/type9-tm.ts';
import { type9Length } from '../../wire/type9.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm.ts';
import type { SimPacket } from './types.ts';

/** End point 1 with traffic management, its link's far end scripted (device 2 beyond it). */
function alone(tm: EndpointTmConfig = {}, traffic = [toDst(2, 0.3, 256)]) {
  const b = bench(1);
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, traffic, tm });
  return { b, ep, peer, f: tmFeature(ep) };
}

let nextId = 1_000_000;
function asPacket(wire: unknown, dst = 1): SimPacket {
  const w = wire as Partial<Type9TmPacket> | undefined;
  return { id: nextId++, kind: 'tm', ftype: 9, src: 2, dst, prio: 0, crf: 0, vc: 0, bytes: w?.segment === 'tm' ? serialLength(type9Length(w as Type9TmPacket)) : 12, flow: -1, createdAt: 0, ...(wire === undefined ? {} : { wire }) };
}

/** A TM packet from device 2 to end point 1 about the designated traffic. */
function from2(tmOp: number, m: TmMessage, o: { cos?: number; streamID?: number; wildcard?: number } = {}): SimPacket {
  return asPacket(tmPacket({ localID: 2, tt: 0 }, { peer: 1, cos: o.cos ?? 0, streamID: o.streamID ?? 0, wildcard: o.wildcard ?? 0, mask: 0 }, { prio: 0, crf: 0, vc: 0 }, tmOp, m));
}

test('Part 10 §4.3 (bad input is normal input): a packet of kind tm that is not a Type 9 TM packet is counted as malformed and dropped', () => {
  const { b, ep, peer, f } = alone();
  const data = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 1, sourceID: 2, cos: 0, start: 1, end: 1, xh: 0, segment: 'single' };
  peer.sendAt(1_000_000, asPacket(undefined));
  peer.sendAt(2_000_000, asPacket(data));
  peer.sendAt(3_000_000, asPacket({ ftype: 7 }));
  ep.start(0);
  b.sched.run({ until: 10_000_000 });
  const c = f.counters();
  assert.deepEqual([c['received'], c['malformed'], c['ingress.tmReceived'], c['egress.tmReceived']], [3, 3, 0, 0]);
  b.collector.finish(b.sched.now);
  assert.equal(b.collector.results().counts['tm.malformed'], 3);
});

test('Part 10 §3.4.2–§3.4.4: a received TM packet goes to the engine its message is for: an XOFF to the ingress, a Q_STATUS to the egress', () => {
  const { b, ep, peer, f } = alone();
  // By 50 µs the flow has queued PDUs: its TM queue exists.
  peer.sendAt(50_000_000, from2(TM_OP.basic, { message: 'XOFF' }, { wildcard: 0b011 }));
  peer.sendAt(51_000_000, from2(TM_OP.basic, { message: 'Q_STATUS', level: 12, fullness: 12 / 255 }));
  ep.start(0);
  b.sched.run({ until: 55_000_000 });
  const c = f.counters();
  assert.deepEqual([c['ingress.tmReceived'], c['ingress.xoff'], c['egress.tmReceived'], c['egress.qStatus']], [1, 1, 1, 1]);
});

test('Part 10 Table 4-4 "The implementer may overload the parameter 2 field": messages either end may receive (user defined, application defined, reserved) go to the ingress, which surfaces them', () => {
  const { b, ep, peer, f } = alone();
  peer.sendAt(1_000_000, from2(TM_OP.basic, { message: 'USER_DEFINED', value: 0x42 }));
  peer.sendAt(2_000_000, asPacket(rawTmPacket({ localID: 2, tt: 0 }, { peer: 1, cos: 0, streamID: 0, wildcard: 0, mask: 0 }, { prio: 0, crf: 0, vc: 0 }, TM_OP.application, 1, 2)));
  peer.sendAt(3_000_000, asPacket(rawTmPacket({ localID: 2, tt: 0 }, { peer: 1, cos: 0, streamID: 0, wildcard: 0, mask: 0 }, { prio: 0, crf: 0, vc: 0 }, 9, 0, 0)));
  ep.start(0);
  b.sched.run({ until: 5_000_000 });
  const c = f.counters();
  assert.deepEqual([c['ingress.tmReceived'], c['ingress.userDefined'], c['ingress.applicationDefined'], c['ingress.reserved'], c['egress.tmReceived']], [3, 1, 1, 1, 0]);
  b.collector.finish(b.sched.now);
  assert.equal(b.collector.results().counts['tm.user-defined'], 1);
});

test('Part 10 §3.4.5 protocol rule 2: an XOFF for a stream this end point does not send stops nothing and is counted', () => {
  const { b, ep, peer, f } = alone();
  peer.sendAt(5_000_000, from2(TM_OP.basic, { message: 'XOFF' }, { cos: 7 }));
  ep.start(0);
  b.sched.run({ until: 200_000_000 });
  const c = f.counters();
  assert.deepEqual([c['ingress.noQueue'], c['gateClosed']], [1, 0]);
  assert.ok(peer.got.filter((g) => g.packet.kind === 'data' && g.at > 10_000_000).length > 5);
});

test('Part 10 §3.4.2: a stream XOFF stops the flow whose streamID is its flow index and cos 0, until the XON', () => {
  const { b, ep, peer, f } = alone({}, [toDst(2, 0.5, 256)]);
  const flow = ep.source.flows[0]?.index ?? -1;
  peer.sendAt(20_000_000, from2(TM_OP.basic, { message: 'XOFF' }, { streamID: flow }));
  peer.sendAt(120_000_000, from2(TM_OP.basic, { message: 'XON' }, { streamID: flow }));
  ep.start(0);
  b.sched.run({ until: 200_000_000 });
  const data = peer.got.filter((g) => g.packet.kind === 'data').map((g) => g.at);
  // One packet time (2.2 µs) for a packet already on the wire, and the XOFF's own.
  assert.equal(data.filter((t) => t > 26_000_000 && t <= 120_000_000).length, 0);
  assert.ok(data.filter((t) => t > 120_000_000).length > 5);
  assert.deepEqual([f.counters()['gateClosed'], f.counters()['gateOpened']], [1, 1]);
});

test('Part 10 Table 4-1 "0x0000 - 64kbytes": a plain PDU longer than 64 KiB is reported to the ingress as 65536 bytes', () => {
  const { b, ep, f } = alone({}, [toDst(2, 0.5, 100_000, { stop: 10_000_000_000 })]);
  ep.start(0);
  b.sched.run({ until: 30_000_000_000 });
  const c = f.counters();
  assert.ok((c['ingress.pdusReady'] as number) > 0);
  assert.equal(c['ingress.pdusSent'], c['ingress.pdusReady']);
  assert.equal(c['ingress.badCommand'], 0);
});

test('Part 10 §3.4.5 Supported Functionality "Supporting traffic management is entirely optional": mode DISABLED sends no TM packet and holds no flow back', () => {
  const s = incast({ mode: 'DISABLED' });
  runStar(s, 1_000_000_000);
  for (const ep of s.eps) {
    const c = tmFeature(ep).counters();
    assert.deepEqual([c['messages'], c['gateClosed']], [0, 0], ep.name);
  }
  assert.ok(s.trace.filter((t) => t.packet.kind === 'data').length > 100);
});

test('Part 10 §3.3, Part 6 §5: the receive queue every source shares is each source\'s egress queue, full when its data may not take another buffer', () => {
  const s = incast({ mode: 'BASIC' });
  runStar(s, 1_000_000_000);
  s.collector.finish(s.sched.now);
  // 8 buffers, 1 reserved per priority above 0: priority 0 data fills 5, level 0xFF, the XOFF watermark (240).
  assert.equal(s.collector.results().occupancy.find((o) => o.component === 'sink:rx')?.maxPackets, 5);
  for (const src of [1, 2]) {
    assert.ok(s.trace.some((t) => t.ep === src && t.dir === 'in' && tmOf(t)?.message === 'XOFF'), `source ${src} XOFF'd`);
  }
  const egress = tmFeature(s.eps[0]!).snapshot()['egressQueues'] as { sourceID: number }[];
  assert.deepEqual(egress.map((q) => q.sourceID).sort(), [1, 2]);
});
