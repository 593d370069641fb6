import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointConfigError, endpointConfig } from './endpoint-config.ts';
import { startEndpoint } from './endpoint-start.ts';
import type { RiodpEndpoint, Stream } from './api-types.ts';
import type { EndpointConfigInput } from './endpoint-config.ts';
import { bytes, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';

const PROTO = 0x1234;
const DATA3 = { protoID: PROTO, dataHeaderFormat: 'DATA3' as const };
const N = 40;

async function incoming(ep: RiodpEndpoint): Promise<Stream> {
  const r = await ep.incoming()[Symbol.asyncIterator]().next();
  if (r.done === true) throw new Error('incoming() ended');
  return r.value;
}

test('Part 10 §3.3, §3.4.2 (decision EA19): with tm BASIC, a receiver that does not read makes its egress XOFF the sender\'s stream queue; once it reads, XON, and every PDU arrives in order', async () => {
  const relay = await startRelay([1, 2]);
  const more: Partial<EndpointConfigInput> = { protocols: [DATA3], tm: { mode: 'BASIC' }, api: { sendWindow: 2, rxHigh: 8, rxLow: 2, rxLimit: 64 } };
  const [a, b] = await Promise.all([startEndpoint(testEndpointConfig(1, relay.port(1), more)), startEndpoint(testEndpointConfig(2, relay.port(2), more))]);
  try {
    const tx = await a.openStream({ to: 2, protoID: PROTO });
    const rx = await incoming(b);
    const sent = (async () => {
      for (let i = 0; i < N; i++) await tx.send(bytes(500, i));
    })();
    // Awaited below; a failure before must not leave it unhandled.
    sent.catch(() => undefined);
    const tmOf = (ep: RiodpEndpoint) => ep.status().counters.engine.tm;
    await until(() => (tmOf(a)?.endpoint.gateCloses ?? 0) >= 1, 5000, 'the sender\'s TM queue stopped by the receiver\'s XOFF');
    assert.ok((tmOf(b)?.egress.xoffSent ?? 0) >= 1, 'B\'s egress sent the XOFF');
    // Stopped by TM, B holds fewer PDUs than were sent.
    assert.ok((rx.status().rx?.buffered ?? 0) < N);
    const got: Uint8Array[] = [];
    for (let i = 0; i < N; i++) got.push(new Uint8Array((await rx.read()) ?? []));
    await sent;
    assert.deepEqual(got, Array.from({ length: N }, (_, i) => bytes(500, i)));
    assert.ok((tmOf(a)?.endpoint.gateOpens ?? 0) >= 1, 'the XON opened it again');
    assert.ok((tmOf(b)?.egress.xonSent ?? 0) >= 1);
    assert.equal(b.status().counters.api.rxDropped, 0);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await relay.close();
  }
});

test('issue 8 §1 configuration (decision EA19), issue 15 one schema: the tm section maps onto the end point; a bad mode or level names its path, in the simulator\'s words (src/node/endpoint/tm-schema.ts)', () => {
  const c = endpointConfig({ nodeId: 1, switch: { port: 4000 }, tm: { mode: 'CREDIT', queuePdus: 4, policy: { credit: { credits: 8 }, onOff: null } } });
  assert.deepEqual(c.engine.tm, { mode: 'CREDIT', queuePdus: 4, policy: { onOff: null, credit: { credits: 8, auCount: 16, maxOutstanding: 2, lowCredits: 2 } } });
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 4000 } }).engine.tm, undefined);
  assert.throws(
    () => endpointConfig({ nodeId: 1, switch: { port: 4000 }, tm: { mode: 'FAST', policy: { onOff: { high: 300, low: 1 } } } }),
    (e: unknown) => e instanceof EndpointConfigError && /tm\.mode: expected one of DISABLED, BASIC, RATE, CREDIT, CREDIT_RATE/.test(e.message) && /tm\.policy\.onOff\.high: expected an integer 0\.\.255/.test(e.message),
  );
});

test('Part 10 §3.4.2, §3.4.5 rule 5 (RiodpEndpoint.tmCommand): the receiving application XOFFs a sender by hand and XONs it again; an ingress insists with Q_STATUS; a stream with no TM queue, or an end point without tm, gets a StreamError', async () => {
  const relay = await startRelay([1, 2, 3]);
  const more: Partial<EndpointConfigInput> = { protocols: [DATA3], tm: { mode: 'BASIC', policy: { onOff: null } } };
  const [a, b, c] = await Promise.all([
    startEndpoint(testEndpointConfig(1, relay.port(1), more)),
    startEndpoint(testEndpointConfig(2, relay.port(2), more)),
    startEndpoint(testEndpointConfig(3, relay.port(3), { protocols: [DATA3] })),
  ]);
  try {
    const tx = await a.openStream({ to: 2, protoID: PROTO });
    const rx = await incoming(b);
    const streamID = tx.status().tx?.streamID ?? -1;
    const to = { peer: 1, cos: 0, streamID, wildcard: 0, mask: 0 };
    b.tmCommand({ side: 'egress', to, command: { message: 'XOFF' } });
    await until(() => (a.status().counters.engine.tm?.endpoint.gateCloses ?? 0) === 1, 3000, 'A\'s queue stopped');
    const sent = Promise.all([0, 1, 2].map((i) => tx.send(bytes(300, i))));
    sent.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(rx.status().rx?.buffered, 0, 'nothing passes the XOFF');
    b.tmCommand({ side: 'egress', to, command: { message: 'XON' } });
    const got: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) got.push(new Uint8Array((await rx.read()) ?? []));
    await sent;
    assert.deepEqual(got, [0, 1, 2].map((i) => bytes(300, i)));
    const before = a.status().counters.engine.tm?.ingress.qStatusSent ?? 0;
    a.tmCommand({ side: 'ingress', to: 2, streamID, command: { message: 'Q_STATUS' } });
    assert.equal(a.status().counters.engine.tm?.ingress.qStatusSent, before + 1);
    assert.throws(() => { a.tmCommand({ side: 'ingress', to: 2, streamID: 0x7777, command: { message: 'Q_STATUS' } }); }, /not an open Type 9 transmit stream/);
    assert.throws(() => { c.tmCommand({ side: 'egress', to, command: { message: 'XOFF' } }); }, /no traffic management/);
  } finally {
    await Promise.all([a.close(), b.close(), c.close()]);
    await relay.close();
  }
});

test('issue 15 one configuration schema: riodp endpoint\'s tm section is checked across fields as a scenario\'s endpoints.tm is (rate bounds, watermarks, credit outstanding), before the engines are built', () => {
  const refused = (tm: unknown): string => {
    try {
      endpointConfig({ nodeId: 1, switch: { port: 4000 }, tm });
    } catch (e) {
      return e instanceof EndpointConfigError ? e.message : `not an EndpointConfigError: ${String(e)}`;
    }
    return 'accepted';
  };
  assert.match(refused({ mode: 'RATE', types: 'BASIC_CREDIT' }), /tm\.types: expected TM types that support mode RATE/);
  assert.match(refused({ rate: { average: 10, minRate: 20 } }), /tm\.rate\.average: expected a rate from minRate \(20\) to maxRate/);
  assert.match(refused({ policy: { onOff: { high: 100, low: 100 } } }), /tm\.policy\.onOff\.low: expected a level below high \(100\)/);
  assert.match(refused({ policy: { credit: { auCount: 2, maxOutstanding: 3 } } }), /tm\.policy\.credit\.maxOutstanding: expected at most auCount \(2\)/);
  assert.equal(refused({ mode: 'CREDIT', policy: { onOff: { high: 200 } } }), 'accepted');
});
