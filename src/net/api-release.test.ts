/**
 * `Stream.release` (api-types.ts): a PDU the application is done with goes back to the end point,
 * and a later multi-segment PDU is reassembled into its memory (docs/fast-lane.md §12), on the fast
 * lane and on the object path alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEndpoint } from './endpoint-start.ts';
import type { RiodpEndpoint, Stream } from './api-types.ts';
import type { EndpointConfigInput } from './endpoint-config.ts';
import type { Type9CounterName } from '../session/type9-conveyance-types.ts';
import { bytes, startRelay, testEndpointConfig } from '../../test/support/net-endpoint.ts';

const PROTO = 0x1234;
const DATA3 = { protoID: PROTO, dataHeaderFormat: 'DATA3' as const };

async function withPair(more: Partial<EndpointConfigInput>, fn: (a: RiodpEndpoint, b: RiodpEndpoint) => Promise<void>): Promise<void> {
  const relay = await startRelay([1, 2]);
  const [a, b] = await Promise.all([
    startEndpoint(testEndpointConfig(1, relay.port(1), { protocols: [DATA3], discovery: { targets: [{ node: 2 }] }, ...more })),
    startEndpoint(testEndpointConfig(2, relay.port(2), { protocols: [DATA3], discovery: { targets: [{ node: 1 }] }, ...more })),
  ]);
  try {
    await fn(a, b);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await relay.close();
  }
}

async function incoming(b: RiodpEndpoint): Promise<Stream> {
  const r = await b.incoming()[Symbol.asyncIterator]().next();
  if (r.done === true) throw new Error('incoming() ended');
  return r.value;
}

function type9(e: RiodpEndpoint, name: Type9CounterName): number {
  return e.status().counters.engine.engines.type9?.[name] ?? -1;
}

for (const fastLane of [true, false]) {
  test(`issue 17 "reassembly into PDU buffers the caller supplies and recycles" (Part 10 §3.2.5 rule 2), ${fastLane ? 'fast lane' : 'object path'}: a released PDU's memory holds the next multi-segment PDU, which arrives intact`, async () => {
    await withPair({ link: { fastLane } }, async (a, b) => {
      const tx = await a.openStream({ to: 2, protoID: PROTO });
      const rx = await incoming(b);
      await tx.send(bytes(4096, 1));
      const first = await rx.read();
      assert.ok(first !== null);
      assert.deepEqual(new Uint8Array(first), bytes(4096, 1));
      rx.release(first);
      await tx.send(bytes(3000, 2));
      const second = await rx.read();
      assert.ok(second !== null);
      assert.deepEqual(new Uint8Array(second), bytes(3000, 2));
      assert.equal(second.buffer, first.buffer, 'the released memory holds the next PDU');
      // A single segment's PDU is not reused; giving one back is passed over and counted.
      await tx.send(bytes(100, 3));
      const small = await rx.read();
      assert.ok(small !== null);
      rx.release(small);
      rx.release(second);
      rx.release(second);
      assert.deepEqual([type9(b, 'recycled'), type9(b, 'recyclesIgnored'), type9(b, 'invalidInputs')], [2, 2, 0]);
      assert.throws(() => {
        rx.release('x' as unknown as Uint8Array);
      }, TypeError);
    });
  });
}

test('issue 17: type9.bufferPool 0 turns the reuse off: a released PDU is passed over and its bytes are never written again', async () => {
  await withPair({ type9: { bufferPool: 0 } }, async (a, b) => {
    const tx = await a.openStream({ to: 2, protoID: PROTO });
    const rx = await incoming(b);
    await tx.send(bytes(4096, 1));
    const first = await rx.read();
    assert.ok(first !== null);
    rx.release(first);
    await tx.send(bytes(4096, 2));
    const second = await rx.read();
    assert.ok(second !== null);
    assert.notEqual(second.buffer, first.buffer);
    assert.deepEqual(new Uint8Array(first), bytes(4096, 1));
    assert.deepEqual([type9(b, 'recycled'), type9(b, 'recyclesIgnored')], [0, 1]);
  });
});
