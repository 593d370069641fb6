import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toHex } from '../../wire/hex.ts';
import { encodeSerialPacket, serialPacketLength } from '../../wire/packet.ts';
import type { Packet } from '../../wire/packet.ts';
import { makeCcp } from '../../wire/type7.ts';
import { maintenanceResponse } from '../../wire/type8-build.ts';
import { InputError } from './adapter.ts';
import { bufferedPacket, ccpPacket, renderPacket } from './packets.ts';

function hex(p: Packet): string {
  const b = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, b, 0);
  return toHex(b);
}

// Part 9 Figure 3-1, Dev8: 0x01 ackID 0 VC 0 CRF 1 | 0xc7 prio 11 tt 00 ftype 0111 | 0x12 destinationID |
// 0x34 tgtdestinationID | 0x00 XON/XOFF 0 FAM 000 rsrv 0000 | 0x04 flowID 0000010 (0C) SOC 0 | CRC 0xb0f2.
const XOFF_0C = '01c712340004b0f2';
const XOFF_0C_JSON = { ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 0x12, tgtdestinationID: 0x34, command: 'XOFF', flowID: '0C', soc: 0 };

function inputError(path: string, message: RegExp): (e: unknown) => boolean {
  return (e) => e instanceof InputError && e.path === path && message.test(e.message);
}

test('docs/model.md Packets: the hex and the decode --json forms of a CCP reach the engine as the same Type7Packet', () => {
  const fromHex = ccpPacket(XOFF_0C, false);
  const fromJson = ccpPacket(XOFF_0C_JSON, false);
  assert.deepEqual(fromHex, fromJson);
  assert.deepEqual(fromHex, makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XOFF', flowID: '0C', soc: 0 }));
  assert.equal('crc' in fromHex, false, 'the engine gets the logical fields, not the CRC');
});

test('Part 6 §2.4.1: a CCP with a bad CRC is a bad line naming packet.crc and the byte', () => {
  assert.throws(() => ccpPacket('01c712340004b0f3', false), inputError('packet.crc', /^CRC 0xb0f3, computed 0xb0f2, Part 6 §2\.4\.1, byte 6$/));
});

test('Part 9 §3.2 Table 3-1: a reserved flowID is refused in both forms unless --lenient, which passes it labelled', () => {
  const reserved = makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XOFF', flowID: '0C', soc: 0 });
  const bad = { ...reserved, flowIDCode: 0b0010000, flowID: 'RESERVED' as const };
  assert.throws(() => ccpPacket(hex(bad), false), inputError('packet.flowID', /reserved/));
  assert.throws(() => ccpPacket({ ...XOFF_0C_JSON, flowID: undefined, flowIDCode: 16 }, false), inputError('packet.flowID', /reserved/));
  assert.equal(ccpPacket(hex(bad), true).flowID, 'RESERVED');
  assert.deepEqual(ccpPacket(hex(bad), true), ccpPacket({ ...XOFF_0C_JSON, flowID: undefined, flowIDCode: 16 }, true));
});

test('Part 9 §3.3 Table 3-2: an undefined XON/XOFF+FAM is refused unless --lenient', () => {
  assert.throws(() => ccpPacket({ ...XOFF_0C_JSON, command: undefined, xonXoff: 0, fam: 1 }, false), inputError('packet.fam', /undefined/));
  assert.equal(ccpPacket({ ...XOFF_0C_JSON, command: undefined, xonXoff: 0, fam: 1 }, true).command, 'UNDEFINED');
});

test('docs/model.md Packets: a ccp packet must be Type 7; other shapes name the field', () => {
  assert.throws(() => ccpPacket('001a0001ffff0000deaf9903', false), inputError('packet.ftype', /expected a Type 7 packet, not ftype 10/));
  assert.throws(() => ccpPacket({ ftype: 10 }, false), inputError('packet.ftype', /Type 7/));
  assert.throws(() => ccpPacket(42, false), inputError('packet', /hex string or a packet object/));
  assert.throws(() => ccpPacket('zz', false), inputError('packet', /not a hex digit/));
  assert.throws(() => ccpPacket({ ...XOFF_0C_JSON, soc: undefined }, false), inputError('packet.soc', /missing/));
});

test('docs/model.md Packets: a buffered packet given as hex takes its header fields and its serial length', () => {
  // The Dev8 doorbell 0x11 → 0x20 at prio 1 (flow 0C with CRF, Part 6 Table 6-7), 12 bytes with pad.
  assert.deepEqual(bufferedPacket('004a20110000010297ec0000', false, false), { sourceID: 0x11, destinationID: 0x20, tt: 0, prio: 1, crf: 0, vc: 0, ftype: 10, size: 12 });
});

test('docs/model.md Packets: a buffered packet given as a decode --json object (it has ackID) equals its hex form', () => {
  const doorbell = { ackID: 0, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 10, destinationID: 0x20, sourceID: 0x11, srcTID: 0, info: 0x0102 };
  assert.deepEqual(bufferedPacket(doorbell, false, true), bufferedPacket('004a20110000010297ec0000', false, true));
});

test('docs/model.md Packets: a Type 7 buffered packet has no sourceID (Figure 3-1): sourceID 0', () => {
  assert.deepEqual(bufferedPacket(XOFF_0C, false, false), { sourceID: 0, destinationID: 0x12, tt: 0, prio: 3, crf: 1, vc: 0, ftype: 7, size: 8 });
});

test('Part 1 §4.1.10 Table 4-7: a Type 8 maintenance response is marked as a response', () => {
  const r = maintenanceResponse({ tt: 0, destinationID: 1, sourceID: 2, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID: 0 });
  assert.equal(bufferedPacket(hex(r), false, false).response, true);
});

test('docs/model.md Packets: the BufferedPacket object form is strict, and needs size when unit is bytes', () => {
  const p = { sourceID: 1, destinationID: 2, tt: 0, prio: 0, crf: 0, ftype: 6 };
  assert.deepEqual(bufferedPacket(p, false, false), p);
  assert.throws(() => bufferedPacket(p, false, true), inputError('packet.size', /missing/));
  assert.throws(() => bufferedPacket({ ...p, prio: 4 }, false, false), inputError('packet.prio', /expected an integer 0\.\.3/));
  assert.throws(() => bufferedPacket({ ...p, typo: 1 }, false, false), inputError('packet.typo', /unknown field/));
});

test('docs/model.md send lines: the packet prints as riodp decode --json prints its hex', () => {
  const r = renderPacket(makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XOFF', flowID: '0C', soc: 0 }));
  assert.equal(r.hex, XOFF_0C);
  assert.deepEqual(r.packet, { ...XOFF_0C_JSON, xonXoff: 0, fam: 0, flowIDCode: 2, rsrv: 0, crc: 0xb0f2 });
});
