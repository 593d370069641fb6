import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maintenanceReadRequest, maintenanceResponse, maintenanceResponseTo, maintenanceWriteRequest } from './type8-build.ts';
import { encodeType8, type8Length } from './type8.ts';
import type { Type8Packet } from './type8.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';

function isWire(code: string, field?: string) {
  return (e: unknown): boolean => e instanceof WireError && e.code === code && (field === undefined || e.field === field);
}

function encode(p: Type8Packet): string {
  const out = new Uint8Array(type8Length(p));
  assert.equal(encodeType8(p, out, 0), out.length);
  return toHex(out);
}

test('Part 3 §2.5: "the hop_count field shall always be assigned a value of 0xFF by the source" of a response', () => {
  assert.equal(maintenanceResponse({ tt: 0, destinationID: 1, sourceID: 2, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID: 3 }).hopCount, 0xff);
});

test('Part 1 §4.1.10: constructors build word and double-word accesses, aligned, with responses that match', () => {
  assert.throws(() => maintenanceReadRequest({ tt: 0, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 0x6c, byteCount: 8 }), isWire('invalid', 'byteOffset'));
  assert.throws(() => maintenanceReadRequest({ tt: 0, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 0x6e, byteCount: 4 }), isWire('invalid', 'byteOffset'));
  assert.throws(() => maintenanceWriteRequest({ tt: 0, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 0, data: new Uint8Array(72) }), isWire('invalid', 'data'));
  // A word write at 0x6c: wrsize 1000, wdptr 1, the data in the lower word of the double-word.
  const w = maintenanceWriteRequest({ tt: 0, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 0x6c, data: parseHex('cafef00d') });
  assert.equal(encode(w), '0008010218' + '03ff00006c' + '00000000cafef00d');
  const r = maintenanceReadRequest({ prio: 2, tt: 1, destinationID: 0x100, sourceID: 0x200, srcTID: 9, byteOffset: 0x68, byteCount: 4 });
  const resp = maintenanceResponseTo(r, { data: parseHex('00000001') });
  // Part 6 §6.12: response prio one above the request; IDs swapped; targetTID = srcTID; word in its lanes.
  assert.deepEqual([resp.prio, resp.destinationID, resp.sourceID, resp.targetTID, toHex(resp.payload)], [3, 0x200, 0x100, 9, '0000000100000000']);
  const werr = maintenanceResponseTo(w, { status: 7 });
  assert.deepEqual([werr.transactionName, werr.statusName, werr.payload.length], ['MAINTENANCE_WRITE_RESPONSE', 'ERROR', 0]);
  assert.throws(() => maintenanceResponseTo(r, { data: new Uint8Array(16) }), isWire('invalid', 'data'));
});
