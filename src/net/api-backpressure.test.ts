import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEndpoint } from './endpoint-start.ts';
import type { FlowChange, RiodpEndpoint, Stream } from './api-types.ts';
import type { EndpointConfigInput } from './endpoint-config.ts';
import { bytes, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';
import type { Relay } from '../../test/support/net-endpoint.ts';

const PROTO = 0x1234;
const DATA3 = { protoID: PROTO, dataHeaderFormat: 'DATA3' as const };
/** PDUs A sends while B's XOFF cannot reach it: far more than B's api.rxLimit. */
const N = 40;

interface Pair {
  readonly relay: Relay;
  readonly a: RiodpEndpoint;
  readonly b: RiodpEndpoint;
  close(): Promise<void>;
}

async function pair(api: NonNullable<EndpointConfigInput['api']>): Promise<Pair> {
  const relay = await startRelay([1, 2]);
  let a: RiodpEndpoint | undefined;
  let b: RiodpEndpoint;
  try {
    a = await startEndpoint(testEndpointConfig(1, relay.port(1), { protocols: [DATA3], api }));
    b = await startEndpoint(testEndpointConfig(2, relay.port(2), { protocols: [DATA3], api }));
  } catch (e) {
    await a?.close();
    await relay.close();
    throw e;
  }
  const ea = a;
  return {
    relay,
    a: ea,
    b,
    close: async () => {
      // A link the test paused must read again for the CLOSE to be seen.
      relay.link(2)?.resume();
      await Promise.all([ea.close(), b.close()]);
      await relay.close();
    },
  };
}

async function incoming(ep: RiodpEndpoint): Promise<Stream> {
  const r = await ep.incoming()[Symbol.asyncIterator]().next();
  if (r.done === true) throw new Error('incoming() ended');
  return r.value;
}

/**
 * A stream from A to B whose FLOW_CONTROL can not reach A: the relay stops reading B's link, so
 * B's XOFF waits in the socket while A, which honours flow control, has not seen it and sends
 * `N` PDUs of 1000 bytes. Every PDU past B's api.rxHigh is in flight after the XOFF, as the
 * megabytes in the loopback sockets between a busy switch and a busy receiver are.
 */
async function flood(p: Pair): Promise<{ tx: Stream; rx: Stream; sent: Promise<void> }> {
  const tx = await p.a.openStream({ to: 2, protoID: PROTO });
  const rx = await incoming(p.b);
  const bLink = p.relay.link(2);
  assert.ok(bLink !== undefined);
  bLink.pause();
  const sent = (async () => {
    for (let i = 0; i < N; i++) await tx.send(bytes(1000, i));
  })();
  return { tx, rx, sent };
}

test('Annex 2 §4.2.6: PDUs in flight after the receiver\'s XOFF are not dropped: at api.rxLimit the end point stops taking packets from its link until the application reads, and every PDU arrives in order', async () => {
  const p = await pair({ sendWindow: 2, rxHigh: 4, rxLow: 1, rxLimit: 8, rxStallMs: 5000 });
  try {
    const { rx, sent } = await flood(p);
    await sent;
    await until(() => (rx.status().rx?.buffered ?? 0) >= 8, 3000, 'B\'s buffer at api.rxLimit');
    // Time for what A sent to reach B, were B still reading its link.
    await new Promise((r) => setTimeout(r, 200));
    const s = rx.status().rx;
    assert.ok(s !== null);
    assert.equal(s.dropped, 0, 'no PDU dropped');
    assert.equal(s.buffered, 8, 'the link was held at api.rxLimit: the other PDUs wait in the fabric');
    assert.equal(p.b.status().counters.api.rxHolds, 1);
    assert.equal(p.b.status().counters.api.rxDropped, 0);
    p.relay.link(2)?.resume();
    const got: Uint8Array[] = [];
    for (let i = 0; i < N; i++) got.push(new Uint8Array((await rx.read()) ?? []));
    assert.deepEqual(got, Array.from({ length: N }, (_, i) => bytes(1000, i)));
    assert.equal(p.b.status().counters.api.rxDropped, 0);
    assert.equal(p.b.status().counters.api.pdusReceived, N);
  } finally {
    await p.close();
  }
});

test('decision (api.rxStallMs): a stream at api.rxLimit whose application reads nothing for api.rxStallMs no longer holds the link: its PDUs beyond the limit are dropped and counted; once it reads, the limit holds the link again', async () => {
  const p = await pair({ sendWindow: 2, rxHigh: 4, rxLow: 1, rxLimit: 8, rxStallMs: 500 });
  try {
    const states: string[] = [];
    p.b.onFlowChange((c: FlowChange) => {
      if (c.kind === 'rx-link') states.push(c.state);
    });
    const { tx, rx, sent } = await flood(p);
    await sent;
    await until(() => (rx.status().rx?.buffered ?? 0) + (rx.status().rx?.dropped ?? 0) === N, 5000, 'every PDU kept or dropped');
    assert.deepEqual([rx.status().rx?.buffered, rx.status().rx?.dropped], [8, N - 8]);
    assert.deepEqual(states, ['held', 'stalled']);
    const c = p.b.status().counters.api;
    assert.deepEqual([c.rxHolds, c.rxStalls, c.rxDropped], [1, 1, N - 8]);
    const got = [new Uint8Array((await rx.read()) ?? [])];
    // The read ends the stall: the next PDU at the limit holds the link, and the one after waits.
    await tx.send(bytes(1000, N));
    await tx.send(bytes(1000, N + 1));
    await until(() => p.b.status().counters.api.rxHolds === 2, 3000, 'the second hold');
    for (let i = 0; i < 9; i++) got.push(new Uint8Array((await rx.read()) ?? []));
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6, 7, N, N + 1].map((i) => bytes(1000, i)));
    assert.equal(p.b.status().counters.api.rxDropped, N - 8);
    // Each time a read frees a place, the next PDU comes in and the stream is at the limit again.
    assert.deepEqual(states.slice(0, 2), ['held', 'stalled']);
    assert.ok(states.length > 2 && states.slice(2).every((st, i) => st === (i % 2 === 0 ? 'held' : 'released')) && states.at(-1) === 'released', states.join(' '));
    assert.equal(p.b.status().counters.api.rxHolds, states.filter((st) => st === 'held').length);
  } finally {
    await p.close();
  }
});
