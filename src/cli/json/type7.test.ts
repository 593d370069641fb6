import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type7FromJson } from './type7.ts';
import { toJsonValue } from './common.ts';
import { decodeType7, encodeType7, type7Codec } from '../../wire/type7.ts';
import { decodeSerial } from '../../wire/serial.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { WireError } from '../../wire/errors.ts';

const viaJson = (v: unknown): unknown => JSON.parse(JSON.stringify(toJsonValue(v)));

function rejects(json: unknown, field: string): void {
  assert.throws(() => type7FromJson(json), (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.field === field);
}

// Dev8 CCP: 0x01 = ackID 0, CRF 1; 0xc7 = prio 3, Dev8, ftype 7; dest 0x12, tgt 0x34;
// 0xd0 = XON 1 | FAM 101 (REQUEST single-PDU, Y=1) | rsrv 0; 0x83 = flowID 1000001 (1A) | SOC 1.
const CCP = parseHex('01c7 1234 d083');
const header = { ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 0x12, tgtdestinationID: 0x34, soc: 1 };

test('docs/cli.md: what decode --json prints encodes back to the same bytes', () => {
  const p = decodeType7(CCP, 0, CCP.length, { strict: true });
  const json = viaJson(p);
  assert.deepEqual(json, { ...header, xonXoff: 1, fam: 5, command: 'REQUEST_SINGLE_PDU', seq: 1, flowIDCode: 0x41, flowID: '1A', rsrv: 0 });
  const back = type7FromJson(json);
  assert.deepEqual(back, p);
  const out = new Uint8Array(6);
  encodeType7(back, out, 0);
  assert.deepEqual(out, CCP);
});

test('docs/cli.md: serial decode output (with crc) is accepted; the CRC is recomputed', () => {
  const bytes = parseHex('01c7 1234 0004 b0f2');
  const p = decodeSerial(type7Codec, bytes, 0, bytes.length);
  const back = type7FromJson(viaJson(p));
  assert.equal(back.command, 'XOFF');
  assert.equal('crc' in back, false);
});

test('docs/cli.md: labels alone (command, seq, flowID) are enough', () => {
  const p = type7FromJson({ ...header, command: 'REQUEST_SINGLE_PDU', seq: 1, flowID: '1A' });
  const out = new Uint8Array(6);
  encodeType7(p, out, 0);
  assert.equal(toHex(out), '01c71234d083');
});

test('docs/cli.md: raw fields alone (xonXoff, fam, flowIDCode) are enough; rsrv defaults to 0', () => {
  const p = type7FromJson({ ...header, xonXoff: 1, fam: 5, flowIDCode: 0x41 });
  assert.equal(p.command, 'REQUEST_SINGLE_PDU');
  assert.equal(p.seq, 1);
  assert.equal(p.flowID, '1A');
  assert.equal(p.rsrv, 0);
});

test('docs/cli.md: a label without its sequence bit takes Y from a raw FAM', () => {
  assert.equal(type7FromJson({ ...header, command: 'RELEASE', fam: 0b101, flowID: '0A' }).seq, 1);
});

test('docs/cli.md: labels that disagree with raw fields are errors', () => {
  rejects({ ...header, xonXoff: 0, fam: 0, command: 'XON', flowIDCode: 0 }, 'xonXoff');
  rejects({ ...header, xonXoff: 1, fam: 5, command: 'REQUEST_SINGLE_PDU', seq: 0, flowIDCode: 0 }, 'fam');
  rejects({ ...header, xonXoff: 1, fam: 5, seq: 0, flowIDCode: 0 }, 'seq');
  rejects({ ...header, xonXoff: 0, fam: 0, seq: 1, flowIDCode: 0 }, 'seq');
  rejects({ ...header, command: 'XOFF', flowIDCode: 2, flowID: '0A' }, 'flowID');
  rejects({ ...header, xonXoff: 0, fam: 0, command: 'UNDEFINED', flowIDCode: 0 }, 'command');
});

test('Part 9 §3.3 Table 3-2, §3.2 Table 3-1: UNDEFINED and RESERVED labels need their raw fields', () => {
  rejects({ ...header, command: 'UNDEFINED', flowID: '0A' }, 'xonXoff');
  rejects({ ...header, command: 'XOFF', flowID: 'RESERVED' }, 'flowIDCode');
  const p = type7FromJson({ ...header, xonXoff: 0, fam: 1, command: 'UNDEFINED', flowIDCode: 6, flowID: 'RESERVED' });
  assert.deepEqual([p.command, p.flowID], ['UNDEFINED', 'RESERVED']);
});

test('docs/cli.md: unknown fields, missing fields and out-of-range values are errors', () => {
  rejects({ ...header, command: 'XOFF', flowID: '0A', sourceID: 1 }, 'json');
  rejects({ ...header, flowID: '0A' }, 'xonXoff');
  rejects({ ...header, command: 'XOFF', flowID: '0A', fam: 8 }, 'fam');
  rejects({ ...header, command: 'XOFF' }, 'flowIDCode');
  assert.throws(() => type7FromJson({ ...header, command: 'RELEASE', flowID: '0A' }), WireError);
});
