import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segmentAt } from '../streaming/segment-pdu.ts';
import { TT } from '../wire/header.ts';
import { messageSegment } from '../wire/type11.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { messageResponseTo } from '../wire/type13.ts';
import { maintenanceReadRequest, maintenanceResponseTo } from '../wire/type8-build.ts';
import type { Type8ReadRequest } from '../wire/type8.ts';
import type { EndpointPacket } from './session-endpoint-types.ts';
import { RANK, TransmitQueue, rankOf } from './transmit-queue.ts';

const CTX = { highFlow: '0C', crfSupported: true } as const;
const seg = (prio: number, to = 2): Type11Packet => messageSegment({ tt: TT.dev16, destinationID: to, sourceID: 1, prio, letter: 0, mailbox: 1, payload: new Uint8Array(8) });
const req = (to = 2): Type8ReadRequest => maintenanceReadRequest({ tt: TT.dev16, destinationID: to, sourceID: 1, srcTID: 0, byteOffset: 0x6c, byteCount: 4 });
const t9 = (prio: number, crf: number): EndpointPacket => segmentAt({ tt: TT.dev16, destinationID: 2, sourceID: 1, cos: 0, streamID: 0x10, vc: 0, prio, crf }, new Uint8Array(4), 0, 256);
const name = (p: EndpointPacket | undefined): string => (p === undefined ? 'none' : `${p.ftype}/${p.prio}`);

test('Part 6 §6.12, Annex 2 §3.7.2: responses rank first, then high-priority messages (Type 11 prio 1, Type 9 high flow), then maintenance reads, then the rest', () => {
  const r = req();
  assert.equal(rankOf(messageResponseTo(seg(0)), CTX), RANK.response);
  assert.equal(rankOf(maintenanceResponseTo(r, { data: new Uint8Array(4) }), CTX), RANK.response);
  assert.equal(rankOf(seg(1), CTX), RANK.high);
  assert.equal(rankOf(r, CTX), RANK.maintenance);
  assert.equal(rankOf(seg(0), CTX), RANK.normal);
  // Part 6 Table 6-7: flow 0C is prio 1 CRF 0; 0A prio 0 CRF 0.
  assert.equal(rankOf(t9(1, 0), CTX), RANK.high);
  assert.equal(rankOf(t9(0, 0), CTX), RANK.normal);
  assert.equal(rankOf(t9(1, 1), CTX), RANK.normal, 'flow 0D is not the high flow');
  // Part 6 Table 6-6 (no CRF): prio 1 is flow 0B.
  assert.equal(rankOf(t9(1, 0), { highFlow: '0B', crfSupported: false }), RANK.high);
});

test('Annex 2 §3.7.2: the best-ranked packet of the staged conveyance packets and the Type 8 queue goes first', () => {
  const q = new TransmitQueue(CTX);
  q.stage('type11', seg(0));
  q.addType8(req());
  q.stage('type9', t9(1, 0));
  assert.equal(name(q.next()), '9/1');
  assert.equal(name(q.next()), '8/0');
  assert.equal(name(q.next()), '11/0');
  assert.equal(q.next(), undefined);
  assert.equal(q.size, 0);
});

test('Part 6 §6.12: a response added after read requests passes them; each rank of the Type 8 queue stays in order', () => {
  const q = new TransmitQueue(CTX);
  q.addType8(req(3));
  q.addType8(req(4));
  const resp = maintenanceResponseTo(req(9), { data: new Uint8Array(4) });
  q.addType8(resp);
  assert.deepEqual([q.next(), q.next(), q.next()].map((p) => p?.destinationID), [resp.destinationID, 3, 4]);
});

test('Annex 2 §3.7.2 (decision P3): packets of one rank from different sources take turns', () => {
  const q = new TransmitQueue(CTX);
  const order: string[] = [];
  for (let i = 0; i < 3; i++) {
    if (q.free('type11')) q.stage('type11', seg(0));
    if (q.free('type9')) q.stage('type9', t9(0, 0));
    order.push(String(q.next()?.ftype));
  }
  assert.deepEqual(order, ['11', '9', '11']);
  assert.equal(q.free('type9'), false, 'the Type 9 packet is still staged');
  assert.deepEqual(q.snapshot().staged, [{ source: 'type9', rank: 'normal', ftype: 9, destinationID: 2 }]);
});
