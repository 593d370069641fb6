import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maintenanceReadRequest, maintenanceResponseTo } from '../wire/type8-build.ts';
import { MAINTENANCE_STATUS } from '../wire/type8.ts';
import type { Type8ReadRequest } from '../wire/type8.ts';
import { AppReads } from './api-reads.ts';

const reads = (): AppReads => new AppReads({ nodeId: 1, tt: 1, engineReadTimeout: 100 });

function engineRead(tid: number, to = 2): Type8ReadRequest {
  return maintenanceReadRequest({ tt: 1, destinationID: to, sourceID: 1, srcTID: tid, byteOffset: 0x60, byteCount: 4 });
}

test('Part 1 §4.1.10: a read request is a word read with the hop_count asked (Part 3 §2.5); its response, matched by targetTID, gives the word in its lane', () => {
  const r = reads();
  const s = r.request(2, 0, 0x64, 0, 1000);
  assert.ok(s.ok);
  assert.deepEqual([s.packet.destinationID, s.packet.sourceID, s.packet.hopCount, s.packet.byteOffset, s.packet.byteCount], [2, 1, 0, 0x64, 4]);
  // Table 4-3: offset 0x64 is the second word of its double-word, so the value sits in bytes 4..7.
  const resp = maintenanceResponseTo(s.packet, { data: Uint8Array.of(0xde, 0xad, 0xbe, 0xef) });
  assert.deepEqual(r.response(resp, 10), { mine: true, tid: s.tid, value: 0xdeadbeef });
  assert.equal(r.inFlight, 0);
  assert.deepEqual(r.response(resp, 11), { mine: false });
});

test('Part 1 §4.1.10 (decision): the read takes the transaction ID half way round from the engine\'s next one and never one the engine has in flight', () => {
  const r = reads();
  assert.equal(r.engineRequest(engineRead(10), 0), false);
  const s = r.request(2, 0xff, 0x60, 0, 1000);
  assert.ok(s.ok);
  assert.equal(s.tid, (11 + 128) % 256);
  for (let t = 0; t < 256; t++) if (t !== s.tid) r.engineRequest(engineRead(t), 1);
  const full = r.request(2, 0xff, 0x60, 2, 1000);
  assert.deepEqual(full, { ok: false, error: 'all 256 transaction IDs are in flight' });
  // The engine's reads are given up after its read timeout: their IDs are free again.
  assert.ok(r.request(2, 0xff, 0x60, 200, 1000).ok);
});

test('Part 1 §4.1.10 (decision): when the engine takes an ID a read of ours holds, the response goes to the engine and our read fails', () => {
  const r = reads();
  const s = r.request(2, 0xff, 0x60, 0, 1000);
  assert.ok(s.ok);
  assert.equal(r.engineRequest(engineRead(s.tid), 1), true);
  const a = r.response(maintenanceResponseTo(s.packet, { data: new Uint8Array(4) }), 2);
  assert.ok(a.mine && 'toEngine' in a && a.toEngine);
  assert.match(a.error, /was taken by the end point's own read meanwhile/);
});

test('Part 1 Table 4-7: a response with status ERROR fails the read; a write response or a response to an engine read is not ours', () => {
  const r = reads();
  const s = r.request(2, 0xff, 0x60, 0, 1000);
  assert.ok(s.ok);
  const err = r.response(maintenanceResponseTo(s.packet, { status: MAINTENANCE_STATUS.error }), 1);
  assert.ok(err.mine && 'error' in err);
  assert.equal(err.error, 'MAINTENANCE read response status ERROR (7)');
  r.engineRequest(engineRead(3), 0);
  assert.deepEqual(r.response(maintenanceResponseTo(engineRead(3), { data: new Uint8Array(4) }), 1), { mine: false });
  assert.equal(r.cancel(99), false);
});

test('Part 1 §4.1.10: a read whose time is up is not matched any more (the response goes to the engine, which counts it stale)', () => {
  const r = reads();
  const s = r.request(2, 0xff, 0x60, 0, 100);
  assert.ok(s.ok);
  assert.deepEqual(r.response(maintenanceResponseTo(s.packet, { data: new Uint8Array(4) }), 101), { mine: false });
  assert.equal(r.cancel(s.tid), true);
});

test('Part 1 §4.1.10: an offset that is not word-aligned cannot be read (the request is not built)', () => {
  const r = reads();
  const s = r.request(2, 0xff, 0x62, 0, 100);
  assert.equal(s.ok, false);
});
