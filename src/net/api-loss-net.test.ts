import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEndpoint } from './endpoint-start.ts';
import type { RiodpEndpoint, Stream, StreamLoss } from './api-types.ts';
import { bytes, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';
import type { Relay } from '../../test/support/net-endpoint.ts';

const PROTO = 0x1234;
const DATA3 = { protoID: PROTO, dataHeaderFormat: 'DATA3' as const };

async function pair(): Promise<{ relay: Relay; a: RiodpEndpoint; b: RiodpEndpoint; close: () => Promise<void> }> {
  const relay = await startRelay([1, 2]);
  const [a, b] = await Promise.all([
    startEndpoint(testEndpointConfig(1, relay.port(1), { protocols: [DATA3], discovery: { targets: [{ node: 2 }] } })),
    startEndpoint(testEndpointConfig(2, relay.port(2), { protocols: [DATA3], discovery: { targets: [{ node: 1 }] } })),
  ]);
  return {
    relay, a, b,
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      await relay.close();
    },
  };
}

async function conduit(a: RiodpEndpoint, b: RiodpEndpoint): Promise<[Stream, Stream]> {
  await a.discover();
  const incoming = b.incoming()[Symbol.asyncIterator]();
  const [sa, next] = await Promise.all([a.openConduit({ to: 2, protoID: PROTO }), incoming.next()]);
  if (next.done === true) throw new Error('incoming() ended');
  return [sa, next.value];
}

test('issue 16 item 2 "every PDU is either delivered intact or its loss is reported … at once, with the reason" (decision FF5), Part 10 §3.2.5 rule 7: a segment lost on the way makes its PDU a loss on the receiving stream, told when its end segment arrives; the next PDU arrives intact', async () => {
  const p = await pair();
  try {
    const [sa, sb] = await conduit(p.a, p.b);
    const onStream: StreamLoss[] = [];
    const onEndpoint: StreamLoss[] = [];
    sb.onLoss((l) => onStream.push(l));
    p.b.onLoss((l) => onEndpoint.push(l));
    let data = 0;
    // The fifth Type 9 packet from 1 to 2 after this point: a continuation segment of the 64 KiB PDU.
    p.relay.hold = (pk) => pk.ftype === 9 && pk.destinationID === 2 && ++data === 5;
    await sa.send(bytes(65536, 1));
    await until(() => onStream.length === 1, 5000, 'the loss');
    p.relay.hold = null;
    await sa.send(bytes(1000, 2));
    const got = await sb.read();
    assert.deepEqual(new Uint8Array(got ?? []), bytes(1000, 2), 'the next PDU is delivered intact');
    const [l] = onStream;
    assert.ok(l !== undefined);
    assert.deepEqual([l.stream, l.reason, l.pdus], [sb.rx, 'reassembly', 1]);
    assert.match(l.detail, /DATA_STREAMING_PDU_LENGTH_ERROR \(Part 10 §3\.2\.5 reassembly rule 7\)/);
    assert.deepEqual(onEndpoint, onStream);
    assert.deepEqual(sb.status().loss, { pdus: 1, gaps: 0, last: l });
    const api = p.b.status().counters.api;
    assert.deepEqual([api.pdusLost, api.lossReports], [1, 1]);
    assert.equal(p.b.status().streams[0]?.loss.pdus, 1, 'status() of the end point shows it');
  } finally {
    await p.close();
  }
});

test('issue 16 item 2 "link down" (decision FF5): the end point\'s link to the switch going down is reported at once on both streams of its conduit as a possible gap; the streams stay open and carry PDUs once the link is back', async () => {
  const p = await pair();
  try {
    const [sa, sb] = await conduit(p.a, p.b);
    const told: StreamLoss[] = [];
    sa.onLoss((l) => told.push(l));
    const link = p.relay.link(1);
    assert.ok(link !== undefined);
    link.socket.destroy();
    await until(() => told.length === 2, 3000, 'the reports');
    assert.deepEqual(told.map((l) => [l.stream.direction, l.reason, l.pdus]).sort(), [['rx', 'link-down', null], ['tx', 'link-down', null]]);
    assert.match(told[0]?.detail ?? '', /^the link to the switch went down \(.*\); what was in flight is lost$/);
    assert.deepEqual(sa.status().loss.gaps, 2);
    assert.equal(sa.closed, false);
    await until(() => p.a.status().link.state === 'up', 5000, 'the link back');
    await sa.send(bytes(300, 3));
    assert.deepEqual(new Uint8Array((await sb.read()) ?? []), bytes(300, 3));
  } finally {
    await p.close();
  }
});
