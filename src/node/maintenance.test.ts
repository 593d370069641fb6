import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../registers/builder.ts';
import { COMPONENT_TAG_OFFSET } from '../registers/component-tag.ts';
import { EF_ID, findEfBlocks } from '../registers/ef-chain.ts';
import { SESSION_BLOCK } from '../registers/session-block.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { TT } from '../wire/header.ts';
import { maintenanceReadRequest, maintenanceResponse, maintenanceWriteRequest } from '../wire/type8-build.ts';
import { MAINTENANCE_STATUS, type8FromFields } from '../wire/type8.ts';
import type { Type8ReadRequest } from '../wire/type8.ts';
import { answerMaintenance, MaintenanceReads } from './maintenance.ts';

const ME = 2;
const PEER = 1;
const word = (v: number): Uint8Array => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
const wordAt = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0);

function space(): RegisterSpace {
  return buildEndpointRegisters({ messaging: true, componentTag: 0x1234, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3 }] } });
}

function read(byteOffset: number, byteCount: 4 | 8 | 16 | 32 | 64 = 4, srcTID = 7): Type8ReadRequest {
  return maintenanceReadRequest({ tt: TT.dev16, destinationID: ME, sourceID: PEER, srcTID, byteOffset, byteCount });
}

test('Part 1 §4.1.10: a MAINTENANCE word read is answered DONE from the register space, the word in the lane wdptr names, to the requester', () => {
  const s = space();
  // 0x6C: double-word 0x68, wdptr 1, so the word is in bytes 4-7 of the payload (Table 4-3 rdsize 0b1000).
  const a = answerMaintenance(s, read(COMPONENT_TAG_OFFSET));
  assert.ok(a.ok);
  const r = a.response;
  assert.deepEqual([r.transactionName, r.status, r.targetTID, r.destinationID, r.sourceID, r.payload.length], ['MAINTENANCE_READ_RESPONSE', 0, 7, PEER, ME, 8]);
  assert.equal(wordAt(r.payload, 4), s.readWord(COMPONENT_TAG_OFFSET));
  // Part 6 §6.12: the response one priority above the request.
  assert.equal(r.prio, 1);
});

test('Part 1 §4.1.10: a read of double-words returns them in ascending order', () => {
  const s = space();
  const a = answerMaintenance(s, read(0x08, 16));
  assert.ok(a.ok);
  assert.deepEqual([0, 4, 8, 12].map((i) => wordAt(a.response.payload, i)), [0x08, 0x0c, 0x10, 0x14].map((o) => s.readWord(o)));
});

test('Annex 2 §5.2.2: MAINTENANCE writes from the network take Lock_Val and are answered DONE; a write while unlocked leaves the block as it was', () => {
  const s = space();
  const base = findEfBlocks(s, EF_ID.sessionManagement)[0] ?? -1;
  const adv = s.readWord(base + SESSION_BLOCK.advertisement);
  const write = (offset: number, v: number) => answerMaintenance(s, maintenanceWriteRequest({ tt: TT.dev16, destinationID: ME, sourceID: PEER, srcTID: 1, byteOffset: offset, data: word(v) }));
  // "When the Lock_Val is 0xFFFF, all other registers in this block are read only".
  const ignored = write(base + SESSION_BLOCK.advertisement, 0x00000009);
  assert.ok(ignored.ok);
  assert.equal(ignored.response.transactionName, 'MAINTENANCE_WRITE_RESPONSE');
  assert.equal(s.readWord(base + SESSION_BLOCK.advertisement), adv);
  // "Writing to this register when Lock_Val is 0xFFFF sets the Lock_Val field to the value written".
  assert.ok(write(base + SESSION_BLOCK.writeEnable, 0x0042).ok);
  assert.equal(s.readWord(base + SESSION_BLOCK.writeEnable), 0x0042);
  assert.ok(write(base + SESSION_BLOCK.advertisement, 0x00000009).ok);
  assert.equal(s.readWord(base + SESSION_BLOCK.advertisement), 0x00000009);
});

test('Part 1 §4.1.10, Table 4-7: a request the space cannot serve (not a word or double-words, wrong data length) is answered ERROR', () => {
  const s = space();
  // rdsize 0b0000 with wdptr 0: one byte (Table 4-3), not a maintenance size.
  const oneByte = type8FromFields({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: TT.dev16, ftype: 8, destinationID: ME, sourceID: PEER, transaction: 0, sizeOrStatus: 0, tid: 9, hopCount: 0xff, word: 0x68, payload: new Uint8Array(0) });
  assert.equal(oneByte.transactionName, 'MAINTENANCE_READ_REQUEST');
  const a = answerMaintenance(s, oneByte);
  assert.equal(a.ok, false);
  assert.deepEqual([a.response?.transactionName, a.response?.status, a.response?.targetTID], ['MAINTENANCE_READ_RESPONSE', MAINTENANCE_STATUS.error, 9]);
  assert.match(a.reason, /word or 1–8 double-words/);
  // A word write carrying 16 bytes (a lenient decoding keeps them).
  const w = maintenanceWriteRequest({ tt: TT.dev16, destinationID: ME, sourceID: PEER, srcTID: 3, byteOffset: 0x60, data: word(1) });
  const long = answerMaintenance(s, { ...w, payload: new Uint8Array(16) });
  assert.equal(long.ok, false);
  assert.deepEqual([long.response?.transactionName, long.response?.status], ['MAINTENANCE_WRITE_RESPONSE', MAINTENANCE_STATUS.error]);
});

test('Part 3 §2.5: discovery reads leave as word reads with the hop_count given, under round-robin transaction IDs', () => {
  const reads = new MaintenanceReads({ nodeId: PEER, tt: TT.dev16, readTimeout: 100 });
  const a = reads.request({ kind: 'read', tag: 10, node: ME, hop: 3, offset: 0x6c }, 0);
  const b = reads.request({ kind: 'read', tag: 11, node: ME, hop: 0xff, offset: 0x10 }, 0);
  assert.ok(a.ok && b.ok);
  assert.deepEqual([a.packet.hopCount, a.packet.srcTID, a.packet.byteOffset, a.packet.byteCount, a.packet.destinationID, a.packet.sourceID], [3, 0, 0x6c, 4, ME, PEER]);
  assert.equal(b.packet.srcTID, 1);
  assert.equal(reads.inFlight, 2);
});

test('Part 1 §4.1.10: a read response is matched by targetTID and source; its word comes from the lane of the offset read', () => {
  const reads = new MaintenanceReads({ nodeId: PEER, tt: TT.dev16, readTimeout: 100 });
  const r = reads.request({ kind: 'read', tag: 5, node: ME, hop: 0xff, offset: 0x6c }, 0);
  assert.ok(r.ok);
  const payload = Uint8Array.of(0, 0, 0, 0, 0x80, 0x05, 0x12, 0x34);
  const resp = (from: number, tid: number, status = 0) => maintenanceResponse({ tt: TT.dev16, destinationID: PEER, sourceID: from, transactionName: 'MAINTENANCE_READ_RESPONSE', targetTID: tid, status, payload: status === 0 ? payload : new Uint8Array(0) });
  assert.equal(reads.response(resp(3, r.packet.srcTID)), undefined, 'another node answering the same TID is stale');
  assert.equal(reads.response(resp(ME, 200)), undefined, 'a TID never used is stale');
  assert.deepEqual(reads.response(resp(ME, r.packet.srcTID)), { kind: 'read-result', tag: 5, value: 0x80051234 });
  assert.equal(reads.response(resp(ME, r.packet.srcTID)), undefined, 'a second response is stale');
  const e = reads.request({ kind: 'read', tag: 6, node: ME, hop: 0xff, offset: 0x6c }, 0);
  assert.ok(e.ok);
  assert.deepEqual(reads.response(resp(ME, e.packet.srcTID, MAINTENANCE_STATUS.error)), { kind: 'read-result', tag: 6, error: 'MAINTENANCE read response status ERROR (7)' });
});

test('Part 1 §4.1.10: srcTID is 8 bits: with 256 reads in flight the next one is refused; a read past its time frees its ID', () => {
  const reads = new MaintenanceReads({ nodeId: PEER, tt: TT.dev16, readTimeout: 100 });
  for (let i = 0; i < 256; i++) assert.ok(reads.request({ kind: 'read', tag: i, node: ME, hop: 0xff, offset: 0 }, i < 128 ? 0 : 50).ok);
  const full = reads.request({ kind: 'read', tag: 999, node: ME, hop: 0xff, offset: 0 }, 60);
  assert.deepEqual(full, { ok: false, error: 'all 256 transaction IDs are in flight' });
  reads.expire(100);
  assert.equal(reads.inFlight, 128);
  const again = reads.request({ kind: 'read', tag: 1000, node: ME, hop: 0xff, offset: 0 }, 100);
  assert.ok(again.ok);
  assert.equal(again.packet.srcTID, 0);
});

test('Part 3 §2.5: a read that cannot be expressed (hop_count beyond 8 bits) is refused, not thrown', () => {
  const reads = new MaintenanceReads({ nodeId: PEER, tt: TT.dev16, readTimeout: 100 });
  const r = reads.request({ kind: 'read', tag: 1, node: ME, hop: 0x100, offset: 0 }, 0);
  assert.equal(r.ok, false);
  assert.equal(reads.inFlight, 0);
});
