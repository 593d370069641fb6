import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ethernetAttributes } from '../../src/session/ethernet.ts';
import type { ProtocolSupport } from '../../src/session/types.ts';
import { decodeSmp } from '../../src/wire/smp/index.ts';
import type { SmpMessage } from '../../src/wire/smp/index.ts';
import { discoverAndOpen, EndpointNet, MS, octets, openedStream, type11Node } from '../support/endpoint-net.ts';
import type { Wire } from '../support/endpoint-net.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA1' };

/** The management message a single-segment Type 11 packet carries, or undefined. */
function smpOf(w: Wire): SmpMessage | undefined {
  const p = w.packet;
  if (p.ftype !== 11 || p.msglen !== 0) return undefined;
  return decodeSmp(p.payload, 0, p.payload.length);
}

function pair(): EndpointNet {
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [P], discover: [2] }));
  net.add(type11Node(2, 2, { protocols: [P], discover: [1] }));
  return net;
}

test('Part 2 §3.1: a storm of Type 13 RETRY responses (every segment refused three times) is recovered by the conveyance: PDUs arrive intact and in order, no session retry', () => {
  const net = pair();
  const bounced = new Map<string, number>();
  net.filter = ({ from, to, packet }) => {
    if (packet.ftype !== 11) return 'deliver';
    // "A transaction request which receives a RETRY response must be re-transmitted in order to complete the operation".
    const key = `${from}>${to}/${packet.letter}/${packet.mbox}/${packet.msgseg ?? packet.xmbox ?? 0}`;
    const n = bounced.get(key) ?? 0;
    if (n < 3) {
      bounced.set(key, n + 1);
      return 'retry';
    }
    bounced.delete(key);
    return 'deliver';
  };
  const tx = discoverAndOpen(net, 1, 2, PROTO);
  const pdus = [octets(100 * 1024, 1), octets(4096, 2), octets(1, 3)];
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  const c = net.node(1).engineCounters();
  const delivered = net.packets(1, 2, 11).filter((w) => w.fate === 'deliver').length;
  const t11 = c.type11;
  assert.ok(t11);
  assert.deepEqual([t11.retriesReceived, t11.segmentsResent, t11.messagesFailed], [3 * delivered, 3 * delivered, 0]);
  assert.equal(c.session.retries, 0);
  assert.equal(net.node(2).engineCounters().session.dataDiscarded, 0);
});

test('Annex 2 §3.7.1: a lost OPEN is "detectable through timeouts on ... ACCEPT" and sent again after REQUEST_RETRY_PERIOD (250 ms); the stream opens and carries data', () => {
  const net = pair();
  let dropped = 0;
  net.filter = (w) => {
    const m = smpOf({ ...w, fate: 'deliver' });
    if (m?.command === 'OPEN' && dropped === 0) {
      dropped++;
      return 'drop';
    }
    return 'deliver';
  };
  for (const n of [1, 2]) net.input(n, { kind: 'discover' });
  net.settle();
  const start = net.now;
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'o' });
  net.settle();
  const tx = openedStream(net, 1, 'o');
  assert.ok(tx);
  const opens = net.trace.filter((w) => smpOf(w)?.command === 'OPEN');
  assert.deepEqual(opens.map((w) => [w.at - start, w.fate]), [[0, 'drop'], [250 * MS, 'deliver']]);
  // The Type 11 segment itself went unanswered: the conveyance gave the message up after its response timeout (100 ms).
  assert.deepEqual(net.eventsOf('type11', 'failed', 1).map((e) => [e['reason'], e['id']]), [['timeout', 'OPEN']]);
  assert.equal(net.node(1).engineCounters().session.retries, 1);
  const pdu = octets(6000, 9);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), [pdu]);
});

test('Annex 2 §3.7.1, §3.5.3.7: a lost ACCEPT: the OPEN is sent again with its OPEN_MESSAGE_NUMBER and answered with the same stream, which carries data once', () => {
  const net = pair();
  let dropped = 0;
  net.filter = (w) => {
    if (smpOf({ ...w, fate: 'deliver' })?.command === 'ACCEPT' && dropped++ === 0) return 'drop';
    return 'deliver';
  };
  const tx = discoverAndOpen(net, 1, 2, PROTO, 'o');
  const accepts = net.trace.flatMap((w) => {
    const m = smpOf(w);
    return m?.command === 'ACCEPT' ? [[m.streamID, w.fate]] : [];
  });
  assert.deepEqual(accepts, [[tx.streamID, 'drop'], [tx.streamID, 'deliver']]);
  const opens = net.trace.flatMap((w) => {
    const m = smpOf(w);
    return m?.command === 'OPEN' ? [m.attributes[0]] : [];
  });
  assert.equal(opens.length, 2);
  assert.deepEqual(opens[0], opens[1], 'the same OPEN_MESSAGE_NUMBER');
  assert.equal(net.eventsOf('session', 'opened', 2).length, 1);
  const pdu = octets(300, 4);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), [pdu]);
});

test('Annex 2 §7.3.2.2: without multicast an Ethernet broadcast goes by unicast to each of 3 members on StreamID 0xF000, with no OPEN', () => {
  const net = new EndpointNet();
  const mac = (n: number) => Uint8Array.of(0x00, 0xa0, 0x1e, 0, 0, n);
  for (const n of [1, 2, 3, 4]) {
    // Mailboxes 0-3: a 1400-octet frame is a multi-segment message, which has no xmbox (Part 2 Table 4-4).
    const eth: ProtocolSupport = { protoID: 0x0102, attributes: ethernetAttributes({ mtu: 1500, mailbox: n & 3, mac: mac(n) }) };
    net.add({ ...type11Node(n, n & 3, { protocols: [eth] }), discovery: { scan: { first: 1, last: 4 } } });
  }
  for (const n of [1, 2, 3, 4]) net.input(n, { kind: 'discover' });
  net.settle();
  assert.equal(net.eventsOf('discovery', 'participant', 1).length, 3);
  const frame = octets(1400, 5);
  net.input(1, { kind: 'broadcast', frame, members: [1, 2, 3, 4] });
  net.settle();
  for (const n of [2, 3, 4]) {
    assert.deepEqual(net.deliveriesTo(n).map((d) => [d.stream, d.protoID, d.pdu]), [[{ remote: 1, direction: 'rx', streamID: 0xf000 }, 0x0102, frame]]);
    // Table 4-12: a Start segment's octets 10-11 are the StreamID; the 1400-octet frame is one DATA message of 6 segments.
    const starts = net.packets(1, n, 11).flatMap((w) => {
      const p = w.packet;
      return p.ftype === 11 && p.msgseg === 0 && p.payload[0] === 0x06 ? [[p.msglen + 1, ((p.payload[10] ?? 0) << 8) | (p.payload[11] ?? 0)]] : [];
    });
    assert.deepEqual(starts, [[6, 0xf000]]);
  }
  assert.deepEqual(net.deliveriesTo(1), []);
  assert.equal(net.trace.filter((w) => smpOf(w)?.command === 'OPEN').length, 0);
});

test('Annex 2 §4.2.6: FLOW_CONTROL XOFF and XON cross the fabric as high-priority messages: data waits under XOFF (with one RTS) and flows in order after XON', () => {
  const net = pair();
  const tx = discoverAndOpen(net, 1, 2, PROTO);
  const rx = { remote: 1, direction: 'rx' as const, streamID: tx.streamID };
  net.input(2, { kind: 'xoff', stream: rx });
  // Not settle(): that would run on to the FLOW_CONTROL_XON_TIMEOUT (1 s) and resume the stream.
  net.run(net.now + 10 * MS);
  assert.deepEqual(net.eventsOf('session', 'xoff', 1), [{ event: 'xoff', stream: tx }]);
  const pdus = [octets(10, 1), octets(5000, 2), octets(20, 3)];
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: tx, pdu });
  net.run(net.now + 100 * MS);
  assert.deepEqual(net.deliveriesTo(2), []);
  net.input(2, { kind: 'xon', stream: rx });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  const flow = net.trace.flatMap((w) => {
    const m = smpOf(w);
    return m?.command === 'FLOW_CONTROL' ? [`${w.from}>${w.to} ${m.flowControlName} prio ${w.packet.prio}`] : [];
  });
  assert.deepEqual(flow, ['2>1 XOFF prio 1', '1>2 RTS prio 1', '2>1 XON prio 1']);
});

test('Annex 2 §4.3.1 "PDUs in a multi-segment transfer must be sent in order", Part 2 §2.4.2 (decision): one letter per mailbox keeps a transfer in order under RETRY; with four, the End message overtakes', () => {
  const run = (letters: number | undefined) => {
    // A latency of three packet times: the RETRY comes back after the next message has left.
    const net = new EndpointNet({ latency: 3000 });
    const type11 = letters === undefined ? {} : { type11: { letters } };
    net.add(type11Node(1, 1, { protocols: [P], discover: [2], ...type11 }));
    net.add(type11Node(2, 2, { protocols: [P], discover: [1], ...type11 }));
    const tx = discoverAndOpen(net, 1, 2, PROTO);
    let bounced = false;
    net.filter = ({ packet }) => {
      if (packet.ftype !== 11 || packet.msgseg !== 15 || bounced) return 'deliver';
      bounced = true;
      return 'retry';
    };
    // Two DATA1 messages: 4080 octets in 16 segments, then the End segment's 10 in one.
    const pdu = octets(4090, 1);
    net.input(1, { kind: 'send', stream: tx, pdu });
    net.settle();
    return { net, pdu };
  };
  const one = run(undefined);
  assert.equal(one.net.node(1).snapshot().type11?.letters, 1);
  assert.deepEqual(one.net.deliveriesTo(2).map((d) => d.pdu), [one.pdu]);
  const four = run(4);
  assert.deepEqual(four.net.deliveriesTo(2), []);
  assert.match(String(four.net.eventsOf('session', 'dropped', 2)[0]?.['reason']), /end segment without a start segment/);
});
