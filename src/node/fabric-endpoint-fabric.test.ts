import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverAndOpenAll, FabricNet } from '../../test/support/fabric-endpoint.ts';
import { MS, octets, type11Node, type9Node } from '../../test/support/endpoint-net.ts';
import type { ProtocolSupport, StreamRef } from '../session/types.ts';
import type { ReassemblerSnapshot } from '../streaming/reassembler-types.ts';

const PROTO = 0x1234;
const DATA3: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };
const DATA1: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA1' };

function reassemblerOf(net: FabricNet, node: number): ReassemblerSnapshot {
  return net.node(node).snapshot().endpoint.type9!.reassembler;
}

test('issue 8 §1: two fabric end points behind a SwitchElement discover each other by MAINTENANCE reads, OPEN streams and move multi-segment PDUs both ways over Type 9 and over Type 11', () => {
  for (const conveyance of ['type9', 'type11'] as const) {
    const net = new FabricNet();
    if (conveyance === 'type9') {
      net.add(type9Node(1, 0xfff1, { protocols: [DATA3], discover: [2] }));
      net.add(type9Node(2, 0xfff2, { protocols: [DATA3], discover: [1] }));
    } else {
      net.add(type11Node(1, 1, { protocols: [DATA1], discover: [2] }));
      net.add(type11Node(2, 2, { protocols: [DATA1], discover: [1] }));
    }
    const [there, back] = discoverAndOpenAll(net, [[1, 2], [2, 1]], PROTO);
    const pdus = [octets(5000, 1), octets(1, 2), octets(20_000, 3)];
    for (const pdu of pdus) net.input(1, { kind: 'send', stream: there!, pdu });
    net.input(2, { kind: 'send', stream: back!, pdu: octets(3000, 4) });
    net.settle();
    assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus, conveyance);
    assert.deepEqual(net.deliveriesTo(1).map((d) => d.pdu), [octets(3000, 4)], conveyance);
    assert.deepEqual(net.eventsOf('discovery', 'participant', 1).map((e) => e['node']), [2], conveyance);
    // Discovery's reads crossed the switch as Type 8 with hop_count 0xFF (Part 3 §2.5: for the end point, not the switch).
    assert.ok(net.packets(1, 2, 8).length > 0 && net.switchEvents.every((e) => e.name !== 'maintenance-answered'), conveyance);
    assert.equal(net.sw.counters().packetsOut, net.trace.length, `${conveyance}: the switch lost nothing`);
  }
});

test('Part 9 §2.4.6, §2.4.5 rules 1–2: a switch congestion point\'s XOFF holds the hotspot flow at its source while its flow to another end point goes on; XON releases it and every PDU arrives whole', () => {
  // Port 3 drains a packet every 20 µs, the others every 1 µs: the output to 3 congests.
  const net = new FabricNet({ portTime: { 3: 20_000 }, switch: { congestion: [null, null, null, { highWatermark: 4, lowWatermark: 1 }] } });
  net.add(type9Node(1, 0xfff1, { protocols: [DATA3], discover: [2, 3] }));
  net.add(type9Node(2, 0xfff2, { protocols: [DATA3], discover: [1] }));
  net.add(type9Node(3, 0xfff3, { protocols: [DATA3], discover: [1] }));
  const [to3, to2] = discoverAndOpenAll(net, [[1, 3], [1, 2]], PROTO);
  const start = net.now;
  const hot = [octets(8000, 1), octets(4000, 2)];
  const cool = [octets(8000, 3), octets(8000, 4)];
  for (const pdu of hot) net.input(1, { kind: 'send', stream: to3!, pdu });
  for (const pdu of cool) net.input(1, { kind: 'send', stream: to2!, pdu });
  net.settle();
  assert.deepEqual(net.deliveriesTo(3).map((d) => d.pdu), hot);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), cool);
  const states = net.flowStates.filter((s) => s.node === 1 && s.at >= start);
  assert.ok(states.length >= 2 && states.every((s) => s.destinationID === 3 && s.flowID === '0A'), 'only (3, 0A) was ever stopped');
  assert.deepEqual(states.slice(0, 2).map((s) => [s.state, s.cause]), [['xoff', 'xoff'], ['xon', 'xon']]);
  const [xoff, xon] = states;
  const during = net.packets(1, 2, 9).filter((w) => w.at > xoff!.at && w.at < xon!.at);
  assert.ok(during.length > 0, 'the flow to 2 kept sending while (3, 0A) was stopped');
  assert.equal(net.packets(1, 3, 9).filter((w) => w.at > xoff!.at && w.at < xon!.at).length, 0, 'nothing of (3, 0A) left while stopped');
  const c = net.node(1).counters().fabric;
  // Decision FE10: each change gates the flow held as 0A at the source, so nothing reached the hold.
  assert.deepEqual([c.held, c.released, c.discarded, c.blockedPulls, c.gates], [0, 0, 0, 0, states.length]);
  assert.equal(c.ccpIn, states.length);
  assert.equal(net.sw.counters().ccpSent, states.length);
  assert.deepEqual(net.node(1).flows().find((f) => f.destinationID === 3), { destinationID: 3, flowID: '0A', state: 'xon', held: 0 });
});

interface Killed {
  readonly net: FabricNet;
  readonly from1: StreamRef;
  readonly from3: StreamRef;
  readonly killedAt: number;
}

/**
 * Streams 1 → 2 and 3 → 2; node 1 starts a 4 KiB PDU (16 segments of 256 octets: Type 9 DATA3,
 * or a 16-segment Type 11 DATA1 message) and its process dies after 8 of them. Node 3 sends a PDU
 * to 2 meanwhile. Runs until the reassembly timeout at node 2 has passed (2 ms for Type 9, the
 * Type 11 conveyance's default 100 ms), not further.
 */
function killMidPdu(conveyance: 'type9' | 'type11', verifyOnReassemblyTimeout: boolean): Killed {
  const net = new FabricNet();
  for (const [n, discover] of [[1, [2]], [2, [1, 3]], [3, [2]]] as const) {
    const c = conveyance === 'type9'
      ? type9Node(n, 0xfff0 + n, { protocols: [DATA3], discover: [...discover], type9: { idleTimeout: 2 * MS } })
      : type11Node(n, n, { protocols: [DATA1], discover: [...discover] });
    net.add({ ...c, verifyOnReassemblyTimeout });
  }
  const [from1, from3] = discoverAndOpenAll(net, [[1, 2], [3, 2]], PROTO);
  let segments = 0;
  let killedAt = Infinity;
  net.filter = ({ from, packet }) => {
    const data = packet.ftype === 9 ? packet.prio === 0 : packet.ftype === 11 && packet.msglen === 15;
    if (from !== 1 || !data) return 'deliver';
    if (++segments <= 8) return 'deliver';
    net.kill(1);
    killedAt = net.now;
    return 'drop';
  };
  net.input(1, { kind: 'send', stream: from1!, pdu: octets(4096, 1) });
  net.run(net.now + MS);
  assert.equal(killedAt <= net.now, true, 'node 1 died');
  const open = conveyance === 'type9'
    ? reassemblerOf(net, 2).openContexts.map((c) => c.segments)
    : net.node(2).snapshot().endpoint.type11!.reassemblies.map((r) => r.received.length);
  assert.deepEqual(open, [8], 'the PDU is half reassembled');
  net.input(3, { kind: 'send', stream: from3!, pdu: octets(3000, 2) });
  net.run(net.now + (conveyance === 'type9' ? 2 : 100) * MS);
  return { net, from1: from1!, from3: from3!, killedAt };
}

test('issue 8 §3 "a peer killed mid-PDU leaves the rest running, its reassembly contexts ... reclaimed, its streams reported closed": Type 9 (Part 10 §3.2.5 "a time-out as part of the lost packet detection mechanism"; decision FE3: verify, Annex 2 §3.8.3, §3.7.1)', () => {
  const { net, from1, from3, killedAt } = killMidPdu('type9', true);
  const timeouts = net.eventsOf('type9', 'idle-timeout', 2);
  assert.deepEqual(timeouts.map((e) => [(e['vsid'] as { sourceID: number }).sourceID, e['received']]), [[1, 2048]], '8 segments of 256 octets');
  assert.deepEqual([reassemblerOf(net, 2).openContexts.length, reassemblerOf(net, 2).stats.idleTimeouts], [0, 1], 'the context is reclaimed');
  net.settle();
  const rx1 = { remote: 1, direction: 'rx', streamID: from1.streamID };
  assert.deepEqual(net.eventsOf('session', 'closed', 2), [{ event: 'closed', stream: rx1, cause: 'status-timeout' }]);
  assert.deepEqual(net.eventsOf('session', 'suspect', 2).map((e) => e['node']), [1]);
  // The rest ran on: node 3's PDU arrived, its stream is still open and still carries data.
  net.input(3, { kind: 'send', stream: from3, pdu: octets(500, 3) });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => [d.stream.remote, d.pdu.length]), [[3, 3000], [3, 500]]);
  // Node 2's STATUS queries to the dead node (the first and its retries every 250 ms for 1 s) met its port down at the switch.
  assert.equal(net.packets(2, 1).filter((w) => w.at > killedAt).length, 4);
  assert.deepEqual(net.switchEvents.filter((e) => e.name === 'port-down').map((e) => e.port), [1, 1, 1, 1]);
});

test('issue 8 §3 "a peer killed mid-PDU ...": Type 11 (Part 2 reassembly timeout of the conveyance; decision FE3: verify, Annex 2 §3.8.3, §3.7.1)', () => {
  const { net, from1, from3 } = killMidPdu('type11', true);
  assert.deepEqual(net.eventsOf('type11', 'reassembly-timeout', 2).map((e) => [e['from'], e['dropped']]), [[1, 8 * 256]]);
  assert.deepEqual(net.node(2).snapshot().endpoint.type11!.reassemblies, [], 'the reassembly is reclaimed');
  net.settle();
  assert.deepEqual(net.eventsOf('session', 'closed', 2), [{ event: 'closed', stream: { remote: 1, direction: 'rx', streamID: from1.streamID }, cause: 'status-timeout' }]);
  assert.deepEqual(net.eventsOf('session', 'suspect', 2).map((e) => e['node']), [1]);
  net.input(3, { kind: 'send', stream: from3, pdu: octets(500, 3) });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => [d.stream.remote, d.pdu.length]), [[3, 3000], [3, 500]]);
});

test('issue 8 §3 (decision FE3): with verifyOnReassemblyTimeout false the context is still reclaimed but the dead peer\'s stream stays open: the session engine checks liveness only when asked (status-query, verify)', () => {
  const { net, from1 } = killMidPdu('type9', false);
  assert.equal(reassemblerOf(net, 2).openContexts.length, 0);
  net.settle();
  assert.deepEqual(net.eventsOf('session', 'closed', 2), []);
  net.input(2, { kind: 'status-query', stream: { remote: 1, direction: 'rx', streamID: from1.streamID } });
  net.settle();
  assert.deepEqual(net.eventsOf('session', 'closed', 2).map((e) => e['cause']), ['status-timeout']);
});
