import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../../wire/errors.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { decodeSymbol, encodeSymbol, symbolLength } from '../../wire/symbol.ts';
import type { ControlSymbol, SymbolOptions } from '../../wire/symbol.ts';
import { toJsonValue } from './common.ts';
import { symbolFromJson } from './symbol.ts';
import type { SymbolJsonOptions } from './symbol.ts';

function hexOf(s: ControlSymbol): string {
  const out = new Uint8Array(symbolLength(s.link));
  encodeSymbol(s, out, 0);
  return toHex(out);
}

function fromJson(json: unknown, opts?: SymbolJsonOptions): string {
  return hexOf(symbolFromJson(json, opts));
}

function isWire(code: string, field: string) {
  return (e: unknown): boolean => e instanceof WireError && e.code === code && e.field === field;
}

test('docs/cli.md: what decode --json prints reads back to the same symbol and bytes', () => {
  const cases: [string, SymbolOptions][] = [
    ['032f14', { link: 'cs24' }], // packet-accepted, golden
    ['a10fc183ec00', { link: 'cs48' }], // VC_status + VoQ backpressure, golden
    ['800fc1843af0', { link: 'cs48' }],
  ];
  for (const [hex, opts] of cases) {
    const bytes = parseHex(hex);
    const s = decodeSymbol(bytes, 0, bytes.length, opts);
    const json = JSON.parse(JSON.stringify(toJsonValue(s))) as unknown;
    assert.deepEqual(symbolFromJson(json, opts), s);
    assert.equal(fromJson(json), hex);
  }
});

test('Part 6 §3.4.1 Table 3-5: labels alone (stype0Name, packetAckID, bufStatus, stype1Name, cmdName) give the raw fields', () => {
  // Golden 032f14: 000 | 00011 | 00101 | 111 | 000 | CRC-5 10100.
  const json = { link: 'cs24', stype0Name: 'packet-accepted', packetAckID: 3, bufStatus: 5, stype1Name: 'NOP', cmdName: 'NOP' };
  assert.equal(fromJson(json), '032f14');
  assert.equal(fromJson({ link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 }), '032f14');
});

test('docs/cli.md: a label that disagrees with its raw field is rejected, naming the label', () => {
  const raw = { link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 };
  assert.throws(() => symbolFromJson({ ...raw, stype0Name: 'status' }), isWire('invalid', 'stype0Name'));
  assert.throws(() => symbolFromJson({ ...raw, packetAckID: 4 }), isWire('invalid', 'packetAckID'));
  assert.throws(() => symbolFromJson({ ...raw, cmdName: 'stomp' }), isWire('invalid', 'cmdName'));
});

test('docs/cli.md, Part 6 §3.6.1: crc is accepted and ignored; encode computes the CRC as for packets', () => {
  // Golden 032f14 carries CRC-5 0b10100 = 0x14; a stale or edited crc does not change the bytes.
  const raw = { link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 };
  assert.equal(fromJson({ ...raw, crc: 0x14 }), '032f14');
  assert.equal(fromJson({ ...raw, crc: 0x15 }), '032f14');
  assert.equal(symbolFromJson({ ...raw, crc: 0 }).crc, 0x14);
  // Editing a raw field and leaving the old crc in gives the edited symbol with its own CRC
  // (CS48 golden a10fc183ec00 carries CRC-13 0x0c00).
  const vc = { link: 'cs48', stype0: 5, parameter0: 2, parameter1: 7, stype1: 7, cmd: 0, stype2: 3103 } as const;
  assert.equal(fromJson({ ...vc, crc: 0x0c00 }), 'a10fc183ec00');
  const edited = new Uint8Array(6);
  encodeSymbol({ ...vc, parameter1: 8 }, edited, 0);
  assert.equal(fromJson({ ...vc, parameter1: 8, crc: 0x0c00 }), toHex(edited));
  assert.notEqual(toHex(edited).slice(-4), '0c00');
  // Still a number in range: the field is typed like the one decode prints.
  assert.throws(() => symbolFromJson({ ...raw, crc: 'x' }), isWire('invalid', 'crc'));
  assert.throws(() => symbolFromJson({ ...raw, crc: 0x2000 }), isWire('invalid', 'crc'));
});

test('docs/cli.md: a meaning field the stype0 does not have, an unknown field or a missing field is rejected', () => {
  const raw = { link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 };
  assert.throws(() => symbolFromJson({ ...raw, vcid: 1 }), isWire('invalid', 'vcid'));
  assert.throws(() => symbolFromJson({ ...raw, stype2: 0 }), isWire('invalid', 'stype2'));
  assert.throws(() => symbolFromJson({ ...raw, bogus: 1 }), (e: unknown) => e instanceof WireError && e.code === 'invalid');
  assert.throws(() => symbolFromJson({ ...raw, link: undefined }), isWire('invalid', 'link'));
  assert.throws(() => symbolFromJson({ ...raw, cmd: undefined }), isWire('invalid', 'cmd'));
  assert.throws(() => symbolFromJson({ ...raw, cmd: undefined, cmdName: 'RESERVED' }), isWire('invalid', 'cmd'));
  assert.throws(() => symbolFromJson({ ...raw, parameter0: undefined }), isWire('invalid', 'parameter0'));
  assert.throws(() => symbolFromJson({ ...raw, parameter0: 64 }), isWire('invalid', 'parameter0'));
  assert.throws(() => symbolFromJson({ ...raw, parameter0: 32 }), isWire('range', 'parameter0'));
});

test('docs/cli.md: the link and VoQ format in the JSON must agree with the options', () => {
  const raw = { link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 };
  assert.equal(fromJson({ ...raw, link: undefined }, { link: 'cs24' }), '032f14');
  assert.throws(() => symbolFromJson(raw, { link: 'cs48' }), isWire('invalid', 'link'));
  const voq = { link: 'cs48', stype0: 4, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0, voq: { format: 'part12-rev4.1', cmdName: 'NOP' } };
  assert.throws(() => symbolFromJson(voq, { voqFormat: 'seed' }), isWire('invalid', 'voq.format'));
  assert.equal(symbolFromJson(voq, { voqFormat: 'part12-rev4.1' }).voq?.format, 'part12-rev4.1');
});

test('VoQ Backpressure §3.1 Table 3-1/3-2: voq.congestedPorts alone gives the stype2 group and status bits', () => {
  // Golden 800fc1843af0: status symbol, stype2 = 001 | 100001 | 00001 (ports 6 and 11).
  const json = {
    link: 'cs48',
    stype0Name: 'status',
    ackIDStatus: 0,
    bufStatus: 7,
    stype1Name: 'NOP',
    cmdName: 'NOP',
    voq: { cmdName: 'VOQ_BACKPRESSURE', congestedPorts: [11, 6] },
  };
  assert.equal(fromJson(json), '800fc1843af0');
  assert.throws(() => symbolFromJson({ ...json, voq: { cmdName: 'VOQ_BACKPRESSURE', congestedPorts: [5, 6] } }), isWire('invalid', 'voq.congestedPorts'));
  assert.throws(() => symbolFromJson({ ...json, voq: { cmdName: 'NOP', congestedPorts: [6] } }), isWire('invalid', 'voq.congestedPorts'));
  assert.throws(() => symbolFromJson({ ...json, stype2: 0 }), isWire('invalid', 'voq.cmdName'));
  // Without stype2 or voq a CS48 carries stype2 = 0 (Part 6 Table 3-1 "Set to logic 0s on transmission").
  assert.equal(symbolFromJson({ ...json, voq: undefined }).stype2, 0);
});

test('Part 12 §3.1: voq.portGroupSize selects the split of the 13 bits', () => {
  // G = 1: CMD 1 | status 100000000001 | group 1 = 0x3003, ports 12 and 23.
  const json = { link: 'cs48', stype0: 4, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0, voq: { format: 'part12-rev4.1', portGroupSize: 1, cmdName: 'VOQ_BACKPRESSURE', congestedPorts: [12, 23] } };
  const s = symbolFromJson(json, { voqFormat: 'part12-rev4.1' });
  assert.equal(s.stype2, 0x3003);
  assert.throws(() => symbolFromJson(json, { voqFormat: 'part12-rev4.1', part12GroupSize: 2 }), isWire('invalid', 'voq.portGroupSize'));
});

test('Part 6 §3.4.4 Table 3-9: a timestamp symbol from its Delay or from its flags and timestamp bits', () => {
  // CS24 loop-response Delay 0x2a5 = 10101 00101: parameter0 10101, parameter1 00101.
  const byDelay = symbolFromJson({ link: 'cs24', stype0Name: 'timestamp', delay: 0x2a5, stype1Name: 'NOP', cmdName: 'NOP' });
  assert.deepEqual([byDelay.parameter0, byDelay.parameter1], [0b10101, 0b00101]);
  // Start flag 1, end flag 0, timestamp 0xa5 = 101 00101: the same bits.
  const byFlags = symbolFromJson({ link: 'cs24', stype0Name: 'timestamp', startFlag: 1, endFlag: 0, timestamp: 0xa5, stype1Name: 'NOP', cmdName: 'NOP' });
  assert.deepEqual(byFlags, byDelay);
});

test('Part 6 §3.4.3/§3.4.7: cause and port_status from their names, rsrv1 kept', () => {
  const pna = symbolFromJson({ link: 'cs48', stype0Name: 'packet-not-accepted', ackIDStatus: 1, causeName: 'general-error', rsrv1: 1, stype1Name: 'NOP', cmdName: 'NOP' });
  assert.equal(pna.parameter1, 0b1_11111);
  const lr = symbolFromJson({ link: 'cs24', stype0Name: 'link-response', ackIDStatus: 2, portStatusName: 'Error-stopped', stype1Name: 'link-request', cmdName: 'port-status' });
  assert.deepEqual([lr.parameter1, lr.stype1, lr.cmd], [0b00101, 4, 4]);
  const vc = symbolFromJson({ link: 'cs48', stype0Name: 'VC_status', vcid: 3, rsrv0: 5, bufStatus: 9, stype1: 7, cmd: 0 });
  assert.equal(vc.parameter0, 0b101_011);
});

test('Part 6 §3.5 Table 3-17: with the strict option reserved encodings are rejected as decoding strictly would', () => {
  const json = { link: 'cs24', stype0Name: 'status', ackIDStatus: 0, bufStatus: 0, stype1Name: 'RESERVED', cmd: 0 };
  assert.equal(symbolFromJson(json).stype1, 6);
  assert.throws(() => symbolFromJson(json, { strict: true }), isWire('reserved', 'stype1'));
});
