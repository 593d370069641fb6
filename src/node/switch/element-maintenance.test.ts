import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, SWITCH_ID, baseConfig, message, tagOf } from '../../../test/support/switch-element.ts';
import { COMPONENT_TAG_OFFSET } from '../../registers/component-tag.ts';
import type { Packet } from '../../wire/packet.ts';
import { maintenanceReadRequest, maintenanceResponse, maintenanceWriteRequest } from '../../wire/type8-build.ts';
import { type8FromFields } from '../../wire/type8.ts';
import type { Type8Packet, Type8Response } from '../../wire/type8.ts';
import { SWITCH_OFFSETS } from './registers.ts';

/** The end point the requests pass the switch towards (hop_count addressing names it). */
const BEYOND = 3;

const word = (v: number): Uint8Array => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
const read = (src: number, byteOffset: number, hopCount: number, dst = BEYOND) => maintenanceReadRequest({ tt: 1, destinationID: dst, sourceID: src, hopCount, srcTID: 5, byteOffset, byteCount: 4 });
const write = (src: number, byteOffset: number, v: number, hopCount = 0) => maintenanceWriteRequest({ tt: 1, destinationID: BEYOND, sourceID: src, hopCount, srcTID: 6, byteOffset, data: word(v) });

function only(ps: readonly Packet[]): Type8Packet {
  assert.equal(ps.length, 1);
  const p = ps[0] as Packet;
  assert.equal(p.ftype, 8);
  return p;
}

/** Table 4-3: a word read's response carries it in the lane wdptr names. */
function wordOf(r: Type8Packet, byteOffset: number): number {
  const lane = ((byteOffset >>> 2) & 1) * 4;
  return new DataView(r.payload.buffer, r.payload.byteOffset + lane, 4).getUint32(0);
}

test('Part 3 §2.5 "If the received hop_count is zero, the access is for that switch": a read is answered from the switch\'s registers, the response routed by its destinationID', () => {
  const r = new Rig(baseConfig({ identity: { deviceIdentity: 0x1234, deviceVendorIdentity: 0x0abc } }));
  r.send(1, read(1, 0x0, 0));
  const resp = only(r.drain(1)) as Type8Response;
  assert.deepEqual([resp.transactionName, resp.statusName, resp.targetTID, resp.destinationID, resp.sourceID], ['MAINTENANCE_READ_RESPONSE', 'DONE', 5, 1, BEYOND]);
  assert.equal(wordOf(resp, 0x0), 0x12340abc);
  // Part 3 §2.5: responses "shall always be assigned a value of 0xFF"; Part 6 §6.12: one priority above the request.
  assert.deepEqual([resp.hopCount, resp.prio], [0xff, 1]);
  assert.deepEqual(r.events('maintenance-answered'), [{ name: 'maintenance-answered', port: 1, sourceID: 1, transaction: 'MAINTENANCE_READ_REQUEST', offset: 0, status: 'DONE' }]);
  assert.equal(r.sw.counters().maintenanceReads, 1);
  assert.deepEqual(r.drain(BEYOND), []);
});

test('Part 1 §5.4.6 Table 5-8: PortNumber is "the external port number from which the maintenance read operation accessed this register"', () => {
  const r = new Rig();
  r.send(2, read(2, SWITCH_OFFSETS.switchPortInformation, 0));
  r.send(1, read(1, SWITCH_OFFSETS.switchPortInformation, 0));
  // PortTotal (bits 16–23) 4, PortNumber (24–31) the ingress port.
  assert.equal(wordOf(only(r.drain(2)), SWITCH_OFFSETS.switchPortInformation), 0x0402);
  assert.equal(wordOf(only(r.drain(1)), SWITCH_OFFSETS.switchPortInformation), 0x0401);
});

test('Part 3 §2.5 "If the hop_count is not zero, it is decremented and the packet is sent out of the switch according to the destinationID field"', () => {
  const r = new Rig();
  const req = read(0, 0x0, 3);
  r.send(0, req);
  const fwd = only(r.drain(BEYOND));
  assert.deepEqual(fwd, { ...req, hopCount: 2 });
  assert.equal(r.sw.counters().maintenanceForwarded, 1);
  assert.equal(r.events('maintenance-answered').length, 0);
});

test('Part 3 §2.3 (decision): a read or write request to the switch\'s own device ID is for the switch whatever its hop_count', () => {
  const r = new Rig();
  r.send(0, read(0, SWITCH_OFFSETS.switchPortInformation, 0xff, SWITCH_ID));
  const resp = only(r.drain(0)) as Type8Response;
  assert.deepEqual([resp.statusName, resp.sourceID], ['DONE', SWITCH_ID]);
});

test('Part 3 §2.5 "A switch processing element shall decrement the hop count when it forwards a maintenance packet": responses are forwarded by destinationID; one at hop_count 0 keeps it (decision)', () => {
  const r = new Rig();
  const resp = (hopCount: number, targetTID: number) => maintenanceResponse({ tt: 1, destinationID: 2, sourceID: 0, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID, hopCount });
  r.send(0, resp(0xff, 1));
  r.send(0, resp(0, 2));
  assert.deepEqual(r.drain(2).map((p) => (p.ftype === 8 ? [p.hopCount, (p as Type8Response).targetTID] : [])), [[0xfe, 1], [0, 2]]);
  assert.equal(r.events('maintenance-answered').length, 0);
});

test('Part 1 §4.1.10, Part 3 §2.5 (decision): a port-write or reserved transaction with hop_count 0 is for a switch that has no function for it: dropped and counted; with hop_count > 0 it is forwarded', () => {
  const r = new Rig();
  const t8 = (transaction: number, hopCount: number) => type8FromFields({
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 8, destinationID: BEYOND, sourceID: 0, transaction, sizeOrStatus: 0b1011, tid: 0, hopCount, word: 0, payload: new Uint8Array(8),
  });
  r.send(0, t8(4, 0));
  r.send(0, t8(9, 0));
  r.send(0, t8(4, 1));
  assert.deepEqual(r.events('maintenance-unsupported').map((e) => (e.name === 'maintenance-unsupported' ? e.transaction : '')), ['MAINTENANCE_PORT_WRITE_REQUEST', 'RESERVED']);
  assert.equal(r.sw.counters().maintenanceUnsupported, 2);
  assert.deepEqual(r.drain(BEYOND).map((p) => (p.ftype === 8 ? [p.transactionName, p.hopCount] : [])), [['MAINTENANCE_PORT_WRITE_REQUEST', 0]]);
});

test('Part 1 §4.1.10, Part 3 §3.5.4: a MAINTENANCE write with hop_count 0 changes the switch\'s register and is answered DONE', () => {
  const r = new Rig();
  r.send(0, write(0, COMPONENT_TAG_OFFSET, 0xcafe0001));
  assert.equal(r.sw.registers.readWord(COMPONENT_TAG_OFFSET), 0xcafe0001);
  const resp = only(r.drain(0)) as Type8Response;
  assert.deepEqual([resp.transactionName, resp.statusName, resp.targetTID], ['MAINTENANCE_WRITE_RESPONSE', 'DONE', 6]);
  assert.equal(r.sw.counters().maintenanceWrites, 1);
});

test('Part 1 §4.1.10 Table 4-7: an access the space cannot serve is answered ERROR, reported and counted', () => {
  const r = new Rig();
  // rdsize 0b1101 with wdptr 0: 96 bytes, beyond "multiple double-word quantities up to a limit of 64 bytes".
  r.send(0, type8FromFields({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 8, destinationID: BEYOND, sourceID: 0, transaction: 0, sizeOrStatus: 0b1101, tid: 9, hopCount: 0, word: 0, payload: new Uint8Array(0) }));
  const resp = only(r.drain(0)) as Type8Response;
  assert.deepEqual([resp.statusName, resp.targetTID], ['ERROR', 9]);
  const e = r.events('maintenance-answered')[0];
  assert.ok(e?.name === 'maintenance-answered' && e.status === 'ERROR' && typeof e.reason === 'string');
  assert.equal(r.sw.counters().maintenanceErrors, 1);
});

test('Part 3 §2.5, issue 8 §1 (decision): a request whose response has no route is still performed; the response is dropped and counted', () => {
  const r = new Rig();
  r.send(0, write(9, COMPONENT_TAG_OFFSET, 0x11));
  assert.equal(r.sw.registers.readWord(COMPONENT_TAG_OFFSET), 0x11);
  assert.deepEqual(r.events('no-route'), [{ name: 'no-route', port: 0, ftype: 8, destinationID: 9 }]);
  assert.equal(r.sw.counters().noRoute, 1);
});

test('issue 8 §1 backpressure (decision): a request for the switch waits at its input until its response fits, and is performed only then', () => {
  const r = new Rig();
  for (let tag = 0; tag < 4; tag++) r.send(0, message(0, 1, { tag }));
  r.send(1, write(1, COMPONENT_TAG_OFFSET, 0x22));
  assert.deepEqual([r.sw.holding(1), r.sw.registers.readWord(COMPONENT_TAG_OFFSET)], [1, 0]);
  r.pull(1);
  assert.deepEqual([r.sw.holding(1), r.sw.registers.readWord(COMPONENT_TAG_OFFSET)], [0, 0x22]);
  const got = r.drain(1);
  // The response (priority 1) leaves before the priority 0 messages queued ahead of it.
  assert.deepEqual(got.map((p) => (p.ftype === 8 ? 'response' : tagOf(p))), ['response', 1, 2, 3]);
});

test('Part 3 §3.5.5–§3.5.7: host software programs routes through the standard route configuration CSRs', () => {
  const r = new Rig();
  r.send(0, write(0, SWITCH_OFFSETS.routeDestIdSelect, 7));
  r.send(0, write(0, SWITCH_OFFSETS.routePortSelect, 2));
  r.send(0, write(0, SWITCH_OFFSETS.routeDefaultPort, 1));
  r.send(0, read(0, SWITCH_OFFSETS.routePortSelect, 0));
  const responses = r.drain(0);
  assert.equal(wordOf(responses.at(-1) as Type8Packet, SWITCH_OFFSETS.routePortSelect), 2);
  r.send(0, message(0, 7, { tag: 1 }));
  r.send(0, message(0, 8, { tag: 2 }));
  assert.deepEqual([r.drain(2).map(tagOf), r.drain(1).map(tagOf)], [[1], [2]]);
});

test('Part 6 §6.11 packet delivery rule 3 (decision): the route is chosen on arrival; a packet held while the table changes keeps its output', () => {
  const r = new Rig();
  for (let tag = 0; tag < 5; tag++) r.send(0, message(0, 3, { tag }));
  assert.equal(r.sw.holding(0), 1);
  r.send(1, write(1, SWITCH_OFFSETS.routeDestIdSelect, 3));
  r.send(1, write(1, SWITCH_OFFSETS.routePortSelect, 2));
  r.send(1, message(1, 3, { tag: 9 }));
  assert.deepEqual([r.drain(3).map(tagOf), r.drain(2).map(tagOf)], [[0, 1, 2, 3, 4], [9]]);
});
