import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../../wire/errors.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { SYMBOL64_LENGTH, decodeSymbol64, encodeSymbol64 } from '../../wire/symbol64.ts';
import type { ControlSymbol64 } from '../../wire/symbol64.ts';
import { toJsonValue } from './common.ts';
import { symbol64FromJson } from './symbol64.ts';
import type { Symbol64JsonOptions } from './symbol64.ts';

function hexOf(s: ControlSymbol64): string {
  const out = new Uint8Array(SYMBOL64_LENGTH);
  encodeSymbol64(s, out, 0);
  return toHex(out);
}
const fromJson = (json: unknown, opts?: Symbol64JsonOptions): string => hexOf(symbol64FromJson(json, opts));

function isWire(code: string, field: string) {
  return (e: unknown): boolean => e instanceof WireError && e.code === code && e.field === field;
}

test('docs/cli.md: what decode --json --link cs64 prints reads back to the same CS64 and bytes', () => {
  // Goldens of src/wire/symbol64.test.ts.
  for (const [hex, g] of [['00030050e38133c4', 0], ['bfff0000ad9d3dfc', 0], ['60013180e02e3f48', 0], ['4001ffe2aa057d30', 0], ['df000210e0e69790', 4]] as const) {
    const s = decodeSymbol64(parseHex(hex), 0, 8, { part12GroupSize: g });
    const json = JSON.parse(JSON.stringify(toJsonValue(s))) as unknown;
    assert.deepEqual(symbol64FromJson(json, { part12GroupSize: g }), s);
    assert.equal(fromJson(json, { part12GroupSize: g }), hex);
  }
});

test('Part 6 §3.4.1 Table 3-5, §3.5 Table 3-18: labels alone (stype0Name, packetAckID, bufStatus, stype1Name) give the raw fields', () => {
  assert.equal(fromJson({ link: 'cs64', stype0Name: 'packet-accepted', packetAckID: 3, bufStatus: 5, stype1Name: 'NOP' }), '00030050e38133c4');
  assert.equal(fromJson({ stype0: 0, parameter0: 3, parameter1: 5, stype1: 0x38 }), '00030050e38133c4');
  // Start-of-packet: stype1Name and ackIDHigh give stype1 0b10 ‖ ackID[0:5].
  assert.equal(fromJson({ stype0Name: 'status', ackIDStatus: 1, bufStatus: 4094, stype1Name: 'start-of-packet-unpadded', ackIDHigh: 42 }), '4001ffe2aa057d30');
});

test('Part 12 §3.2: a VoQ-backpressure CS64 is written from its voq object (vcIndName and congestedPorts) with --voq-group-size', () => {
  const json = { stype0Name: 'VoQ-backpressure', voq: { vcIndName: 'ALL_VCS', congestedPorts: [17] }, stype1Name: 'NOP' };
  assert.equal(fromJson(json, { part12GroupSize: 4 }), 'df000210e0e69790');
  assert.equal(fromJson({ ...json, voq: { ...json.voq, portGroupSize: 4 } }), 'df000210e0e69790');
  assert.throws(() => symbol64FromJson({ ...json, voq: { ...json.voq, portGroupSize: 3 } }, { part12GroupSize: 4 }), isWire('invalid', 'voq.portGroupSize'));
  assert.throws(() => symbol64FromJson({ ...json, voq: { vcIndName: 'VC0', congestedPorts: [1, 17] } }, { part12GroupSize: 4 }), isWire('invalid', 'voq.congestedPorts'));
  assert.throws(() => symbol64FromJson({ ...json, voq: { vcIndName: 'RESERVED' } }), isWire('invalid', 'voq.vcInd'));
  // A raw reserved VC_IND reads, strictly too: Part 12 §3.2 "ignore ... without error" (riodp encode refuses to send it, encode-item.ts).
  const reserved = { ...json, voq: { vcInd: 0b1001 } };
  assert.equal(symbol64FromJson(reserved, { strict: true }).voq?.vcIndName, 'RESERVED');
  assert.equal(symbol64FromJson(reserved).voq?.vcIndName, 'RESERVED');
});

test('docs/cli.md: a CS64 label that disagrees with its raw field, or does not apply, is rejected naming it; crc is ignored', () => {
  const raw = { link: 'cs64', stype0: 0, parameter0: 3, parameter1: 5, stype1: 0x38 };
  assert.throws(() => symbol64FromJson({ ...raw, stype0Name: 'status' }), isWire('invalid', 'stype0Name'));
  assert.throws(() => symbol64FromJson({ ...raw, bufStatus: 6 }), isWire('invalid', 'bufStatus'));
  assert.throws(() => symbol64FromJson({ ...raw, ackIDHigh: 1 }), isWire('invalid', 'ackIDHigh'));
  assert.throws(() => symbol64FromJson({ ...raw, delay: 3 }), isWire('invalid', 'delay'));
  assert.throws(() => symbol64FromJson({ ...raw, link: 'cs48' }), isWire('invalid', 'link'));
  assert.throws(() => symbol64FromJson({ ...raw, cmd: 0 }), isWire('invalid', 'json'));
  assert.equal(fromJson({ ...raw, crc: 1 }), '00030050e38133c4');
});

test('Part 6 §3.2 Table 3-1: alignment bits given in the JSON are written (lenient) and refused by strict reading', () => {
  const raw = { stype0: 0, parameter0: 3, parameter1: 5, stype1: 0x38, alignment1: 2 };
  assert.equal(fromJson(raw), '00030050e38133c6');
  assert.throws(() => symbol64FromJson(raw, { strict: true }), isWire('invalid', 'alignment1'));
});
