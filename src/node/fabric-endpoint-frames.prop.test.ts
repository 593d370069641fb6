import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams, FC_RUNS_MODEL } from '../../test/support/fc.ts';
import { recordEndpoint, replay } from '../../test/support/fabric-endpoint.ts';
import { type9Node } from '../../test/support/endpoint-net.ts';
import { decoded, framed, rxTrafficArb } from '../../test/support/rx-traffic.ts';
import type { ProtocolSupport } from '../session/types.ts';
import type { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointOutput } from './fabric-endpoint.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

/** Node 1 with conduits to 2 and 3, recorded once and replayed per case (engines are deterministic). */
const SETUP = recordEndpoint(
  type9Node(1, 0xfff1, { protocols: [P], discover: [2, 3] }),
  [type9Node(2, 0xfff2, { protocols: [P], discover: [1] }), type9Node(3, 0xfff3, { protocols: [P], discover: [1] })],
  // Streams 2 → 1 and 3 → 1: node 1 receives on them.
  [[1, 2], [1, 3], [2, 1], [3, 1]],
  PROTO,
);

function fresh(): FabricEndpoint {
  return replay(SETUP);
}

const STREAMS = SETUP.streams.filter((r) => r.remote === 1).map((r) => r.streamID);
let delivered = 0;

test('issue 17, Part 10 §3.2.5, Annex 2 §4.3.4: the end point taking Type 9 frames from the batch (handleFrames) delivers every PDU and reports every defect, not-for-us, TM and stream event, with the same counters, as one packet input per frame', () => {
  assert.ok(STREAMS.length >= 2, 'the setup opened conduits with receive streams');
  const arb = rxTrafficArb({ mtu: 256, tt: 1, sources: [2, 3, 9], destinations: [1, 1, 5], streamIDs: [...STREAMS, 0x7777], coses: [0, 0, 5], maxPdu: 1100 });
  fc.assert(fc.property(arb, fc.integer({ min: 1, max: 7 }), (packets, cut) => {
    const { chunk, batch } = framed(packets);
    const now = SETUP.t + 1;
    const a = fresh();
    const b = fresh();
    const outA: FabricEndpointOutput[] = [];
    for (let i = 0; i < batch.count; i++) outA.push(...a.handle({ kind: 'packet', packet: decoded(batch, chunk, i) }, now));
    const outB: FabricEndpointOutput[] = [];
    // Runs cut where the link would cut them (chunks, pauses): every `cut` frames.
    for (let from = 0; from < batch.count; from += cut) {
      const n = Math.min(cut, batch.count - from);
      for (let k = 0; k < n;) {
        const taken = b.handleFrames(batch, chunk, from + k, n - k, now, outB);
        assert.ok(taken >= 1 && taken <= n - k);
        k += taken;
      }
    }
    delivered += outA.filter((o) => o.kind === 'deliver').length;
    assert.deepStrictEqual(outB, outA);
    assert.deepStrictEqual(b.counters(), a.counters());
    assert.deepStrictEqual(b.snapshot(), a.snapshot());
  }), fcParams(Math.max(1, Math.floor(FC_RUNS_MODEL / 100))));
  assert.ok(delivered > 0, 'some cases delivered PDUs to open streams');
});
