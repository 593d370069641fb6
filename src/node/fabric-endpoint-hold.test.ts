import { test } from 'node:test';
import assert from 'node:assert/strict';
import { message, tagOf } from '../../test/support/switch-element.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { messageResponse } from '../wire/type13.ts';
import { maintenanceReadRequest, maintenanceResponse } from '../wire/type8-build.ts';
import { FlowBook, flowSlot, gateFlows, HeldPackets, stoppableFlow } from './fabric-endpoint-hold.ts';

test('Part 9 Table 2-1, Part 6 Tables 6-6/6-7 (DECISIONS §3): a request\'s flow is its prio/CRF; Part 6 §6.12: responses (Type 8 responses, Type 13) have none, so no XOFF stops them', () => {
  const flows = (crf: boolean) => [0, 1, 2, 3].flatMap((prio) => [0, 1].map((c) => stoppableFlow(message(1, 2, { prio, crf: c }), crf) ?? '-'));
  // With CRF A=(0,0) B=(0,1) C=(1,0) D=(1,1) E=(2,0) F=(2,1); without, prio 0 A, 1 B, 2 "C or higher"; prio 3 requests are "Illegal".
  assert.deepEqual(flows(true), ['0A', '0B', '0C', '0D', '0E', '0F', '-', '-']);
  assert.deepEqual(flows(false), ['0A', '0A', '0B', '0B', '0C', '0C', '-', '-']);
  assert.equal(stoppableFlow(maintenanceReadRequest({ tt: 1, destinationID: 2, sourceID: 1, srcTID: 0, byteOffset: 0, byteCount: 4 }), true), '0A');
  assert.equal(stoppableFlow(maintenanceResponse({ tt: 1, destinationID: 2, sourceID: 1, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID: 0 }), true), undefined);
  assert.equal(stoppableFlow(messageResponse({ tt: 1, destinationID: 2, sourceID: 1, letter: 0, mbox: 0, msgseg: 0 }), true), undefined);
});

test('Part 10 §2.4 rule 1, §3.2.4: held packets leave FIFO per flow, flows in the order first held, only those whose flow may send; the hold counts against its limit and discards whole', () => {
  const h = new HeldPackets(4);
  const put = (dest: number, flow: FlowIdLabel, tag: number) => {
    h.hold(flowSlot(dest, flow), dest, flow, message(1, dest, { tag }));
  };
  put(3, '0A', 1);
  put(2, '0A', 2);
  put(3, '0A', 3);
  assert.deepEqual([h.total, h.full, h.count(flowSlot(3, '0A'))], [3, false, 2]);
  put(2, '0C', 4);
  assert.equal(h.full, true);
  const open = new Set(['2/0A', '3/0A']);
  const maySend = (d: number, f: FlowIdLabel) => open.has(`${d}/${f}`);
  const order: number[] = [];
  for (let p = h.release(maySend); p !== undefined; p = h.release(maySend)) order.push(tagOf(p));
  assert.deepEqual(order, [1, 3, 2]);
  assert.deepEqual([h.total, h.release(() => true) === undefined, h.total], [1, false, 0]);
  put(2, '0A', 5);
  assert.deepEqual([h.discard(), h.total, h.count(flowSlot(2, '0A'))], [1, 0, 0]);
});

test('issue 8 §2: the flow book lists every (destination, flow) once, by destination then Table 3-1 order', () => {
  const b = new FlowBook();
  for (const [d, f] of [[3, '1A'], [2, '0C'], [3, '0A'], [2, '0C']] as const) b.note(flowSlot(d, f), d, f);
  assert.deepEqual(b.list().map((e) => `${e.destinationID}/${e.flowID}`), ['2/0C', '3/0A', '3/1A']);
});

test('Part 6 Table 2-2, Part 9 Table 3-1 "Flow nA and higher for VCn": a packet with its VC bit set is in the flow of channel 1 + PRIO||CRF, and the gate of 1A–8A stops exactly those', () => {
  const vcFlow = (prio: number, crf: number) => stoppableFlow({ ...message(1, 2, { prio, crf }), vc: 1 }, true);
  assert.deepEqual([vcFlow(0, 0), vcFlow(0, 1), vcFlow(1, 0), vcFlow(3, 1)], ['1A', '2A', '3A', '8A']);
  for (const crf of [true, false]) {
    const byFlow = new Map(gateFlows(crf).map((g) => [g.flowID, g.heldAs]));
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) assert.equal(byFlow.get(`${n}A` as FlowIdLabel), `${n}A`);
  }
});
