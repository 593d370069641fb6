import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCcp } from '../wire/type7.ts';
import { startEndpoint } from './endpoint-start.ts';
import type { FlowChange } from './api-types.ts';
import { bytes, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';

const PROTO = 0x1234;
const P = [{ protoID: PROTO, dataHeaderFormat: 'DATA3' as const }];

test('Part 9 §2.4.5, §3.2: a congestion control XOFF for the stream\'s flow shows in flowState() and flowChanges(); send() then waits, and the data goes on after the XON', async () => {
  const relay = await startRelay([1, 2]);
  // A long orphaned-XOFF period (A.2), so that only the XON restarts the flow.
  const a = await startEndpoint(testEndpointConfig(1, relay.port(1), { protocols: P, ccp: { orphanPeriod: 5_000_000_000 }, heldLimit: 8 }));
  const b = await startEndpoint(testEndpointConfig(2, relay.port(2), { protocols: P }));
  try {
    const changes: FlowChange[] = [];
    a.onFlowChange((c) => changes.push(c));
    const tx = await a.openStream({ to: 2, protoID: PROTO });
    const first = await b.incoming()[Symbol.asyncIterator]().next();
    if (first.done === true) throw new Error('no incoming stream');
    const rx = first.value;
    const link = relay.link(1);
    assert.ok(link !== undefined);
    // A switch's CCP (soc 0) naming node 2 as the congested destination of flow 0A, the flow of data PDUs.
    link.sendPacket(makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 1, command: 'XOFF', flowID: '0A', soc: 0 }));
    await until(() => changes.some((c) => c.kind === 'part9'), 2000, 'the Part 9 XOFF');
    assert.deepEqual(changes.flatMap((c) => (c.kind === 'part9' ? [[c.destinationID, c.flowID, c.state]] : [])), [[2, '0A', 'xoff']]);
    assert.deepEqual(a.flowState().map((f) => [f.destinationID, f.flowID, f.state]), [[2, '0A', 'xoff']]);
    let sent = 0;
    const sending = (async () => {
      for (let i = 0; i < 20; i++) {
        await tx.send(bytes(2000, i));
        sent++;
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(sent < 20, `${sent} PDUs accepted while the flow is stopped`);
    assert.equal(b.status().counters.api.pdusReceived, 0);
    assert.equal(a.flowState()[0]?.state, 'xoff');
    link.sendPacket(makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 1, command: 'XON', flowID: '0A', soc: 0 }));
    const got: number[] = [];
    for (let i = 0; i < 20; i++) got.push((await rx.read())?.length ?? -1);
    await sending;
    assert.deepEqual(got, new Array<number>(20).fill(2000));
    assert.equal(a.flowState()[0]?.state, 'xon');
    assert.deepEqual(a.status().flows.map((f) => f.state), ['xon']);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await relay.close();
  }
});
