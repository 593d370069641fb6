import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointConfigError, endpointConfig } from './endpoint-config.ts';
import { startEndpoint } from './endpoint-process.ts';
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

test('issue 8 §1 configuration (decision EA19): the tm section maps onto the end point; a bad mode or level names its path', () => {
  const c = endpointConfig({ nodeId: 1, switch: { port: 4000 }, tm: { mode: 'CREDIT', queuePdus: 4, policy: { credit: { credits: 8 }, onOff: null } } });
  assert.deepEqual(c.engine.tm, { mode: 'CREDIT', queuePdus: 4, policy: { onOff: null, credit: { credits: 8, auCount: 16, maxOutstanding: 2, lowCredits: 2 } } });
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 4000 } }).engine.tm, undefined);
  assert.throws(
    () => endpointConfig({ nodeId: 1, switch: { port: 4000 }, tm: { mode: 'FAST', policy: { onOff: { high: 300, low: 1 } } } }),
    (e: unknown) => e instanceof EndpointConfigError && /tm\.mode: expected DISABLED, BASIC, RATE, CREDIT, CREDIT_RATE/.test(e.message) && /tm\.policy\.onOff\.high: expected an integer 0\.\.255/.test(e.message),
  );
});
