import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, ccpPacket, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import { makeCcp } from '../../wire/type7.ts';

/** A CCP of Dev8 is 6 octets, 8 with its CRC; with an 8-character delimiter 16 × 8000 ps. */
const CCP_TIME = 128_000;

test('Part 9 §2.4.5 rule 1 with Part 10 §3.4.5 protocol rule 1 (decision EP8): a TM packet is a request of its data\'s flow, so a CCP XOFF of that flow holds the Q_STATUS at the source with the data; the XON lets both go; a flow not stopped is not held', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, {
    name: 'ep1', id: 1, buffers: { packets: 8 }, flows: [{ dst: 2 }, { dst: 3 }], ccp: { orphanPeriod: 1_000_000_000 }, tm: { mode: 'BASIC', queueLevelBits: 8 },
  });
  ep.start(0);
  peer.sendAt(0, ccpPacket(100, 1, 2, 'XOFF', '0A'));
  b.sched.run({ until: CCP_TIME + 1 });
  // A PDU for each destination: each queue reports its level (Q_STATUS) in the data's flow, 0A.
  ep.source.offer(2, 0, 0, 64, b.sched.now);
  ep.source.offer(3, 0, 0, 64, b.sched.now);
  b.sched.run({ until: 50_000_000 });
  const sent = (dst: number): string[] => peer.got.filter((g) => g.packet.dst === dst).map((g) => g.packet.kind);
  // Q_STATUS of the queue's new level, the PDU, Q_STATUS of the emptied queue.
  assert.deepEqual(sent(3), ['tm', 'data', 'tm'], 'to 3: not stopped');
  assert.deepEqual(sent(2), [], 'to 2: nothing while 0A to 2 is stopped, the TM packet included');
  assert.equal(ep.source.controlQueued, 1);
  peer.sendAt(b.sched.now, ccpPacket(101, 1, 2, 'XON', '0A'));
  b.sched.run();
  assert.deepEqual(sent(2), ['tm', 'data', 'tm']);
  const q = peer.got.find((g) => g.packet.dst === 2 && g.packet.kind === 'tm')?.packet.wire as Type9TmPacket;
  assert.deepEqual([q.prio, q.crf], [0, 0], 'in the data\'s flow');
});

test('Part 9 §3.3 "A device that does not support the SAR protocol ignores the FAM bits" (plan difference D3): an arbitration message at a simulated end point without arbitration goes to the CCP engine, which acts on its XON/XOFF bit', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: [{ dst: 2 }], ccp: { orphanPeriod: 1_000_000_000 } });
  ep.start(0);
  const wire = makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 0, command: 'XOFF_ARB', seq: 0, flowID: '0A', soc: 1 });
  peer.sendAt(0, { ...ccpPacket(100, 1, 2, 'XOFF', '0A'), kind: 'arb', wire });
  b.sched.run({ until: CCP_TIME + 1 });
  assert.deepEqual(ep.source.flows.map((f) => f.enabled), [false], 'XOFF(ARB) read as an XOFF of 0A to 2');
  assert.deepEqual([ep.counters().ccpsReceived, ep.counters().ccpsIgnored, ep.counters().otherPackets], [1, 0, 0]);
});
