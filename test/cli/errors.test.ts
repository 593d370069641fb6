import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc16Packet } from '../../src/wire/crc16.ts';
import { parseHex, toHex } from '../../src/wire/hex.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import { type13FromFields } from '../../src/wire/type13.ts';
import { riodp } from '../support/spawn.ts';
import { errorLines, jsonLines, lines } from './output.ts';
import { DOORBELL, doorbell, serialHex, symbolHex, transportHex, type9Long } from './vectors.ts';

/** `hex` with byte `at` XORed with `mask`. */
function flip(hex: string, at: number, mask = 0x01): string {
  const b = parseHex(hex);
  b[at] = (b[at] as number) ^ mask;
  return toHex(b);
}

test('Part 6 §2.4.1: a bad CRC or early CRC is one stderr line naming the CRC field, its byte and both values', () => {
  // type9Long: 110 logical bytes → early CRC at bytes 80–81, fields 82–111, final CRC at 112–113, pad.
  const long = serialHex(type9Long);
  assert.equal(long.length / 2, 116);
  const items = [
    '001a0001ffff0000deaf9904', // README: the golden doorbell with its CRC's last bit flipped
    flip(long, 80), // the early CRC itself
    flip(long, 20), // a field before the early CRC: the early CRC catches it
    flip(long, 100), // a field after it: only the final CRC covers it
    flip(long, 113, 0x80), // the final CRC itself
  ];
  const r = riodp(['decode'], `${items.join('\n')}\n`);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(lines(r.stderr)[0], 'riodp: line 1: crc at byte 10: CRC 0x9904, computed 0x9903 (Part 6 §2.4.1)');
  assert.deepEqual(
    errorLines(r.stderr).map((e) => [e.index, e.field, e.offset, e.clause]),
    [
      [1, 'crc', 10, 'Part 6 §2.4.1'],
      [2, 'earlyCrc', 80, 'Part 6 §2.4.1'],
      [3, 'earlyCrc', 80, 'Part 6 §2.4.1'],
      [4, 'crc', 112, 'Part 6 §2.4.1'],
      [5, 'crc', 112, 'Part 6 §2.4.1'],
    ],
  );
  for (const e of errorLines(r.stderr)) assert.match(e.detail, /^(early )?CRC 0x[0-9a-f]{4}, computed 0x[0-9a-f]{4}$/);
});

test('Part 6 §2.3, Part 2 §4.2.4, Part 6 §3.1: truncated items are reported at every layer with where the bytes ran out', () => {
  const serial = riodp(['decode'], ['001a0001', DOORBELL.slice(0, 22)].join('\n'));
  const transport = riodp(['decode', '--layer', 'transport'], ['00', transportHex(doorbell()).slice(0, -2)].join('\n'));
  const symbol = riodp(['decode', '--layer', 'symbol'], `${symbolHex({ link: 'cs24', stype0: 0, parameter0: 3, parameter1: 5, stype1: 7, cmd: 0 })}\n`);
  for (const r of [serial, transport, symbol]) {
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
  }
  assert.deepEqual(
    [...errorLines(serial.stderr), ...errorLines(transport.stderr), ...errorLines(symbol.stderr)].map((e) => [e.index, e.field, e.offset, e.clause, e.detail]),
    [
      [1, 'packet', 0, 'Part 6 §2.3', 'needs 8 bytes, 4 left'],
      [2, 'length', 11, 'Part 6 §2.3', '11 bytes is not a multiple of 32 bits'],
      [1, 'prefix', 0, 'Part 6 §2.3 Figure 2-2', 'needs 2 bytes, 1 left'],
      [2, 'doorbell', 2, 'Part 2 §4.2.4 Figure 4-1', 'needs 8 bytes, 7 left'],
      // A CS24 symbol given where the default CS48 link expects 6 bytes.
      [1, 'symbol', 3, 'Part 6 §3.1', 'a CS48 symbol is 6 bytes, got 3'],
    ],
  );
});

test('Part 2 §4.2.4, Part 6 §3.1: trailing bytes after a complete item are an error at the first extra byte', () => {
  // Serial: CRC 0x9903 then 0x0000 leaves a zero residue, so the 16 bytes pass the CRC check as
  // a 14-byte packet; the doorbell then has two bytes too many.
  const serial = riodp(['decode'], `${DOORBELL}00000000\n`);
  const transport = riodp(['decode', '--layer', 'transport'], `${transportHex(doorbell())}00\n`);
  const symbol = riodp(['decode', '--layer', 'symbol', '--link', 'cs24'], '032f1400\n');
  assert.deepEqual(
    [serial, transport, symbol].map((r) => [r.status, r.stdout]),
    [[1, ''], [1, ''], [1, '']],
  );
  assert.deepEqual(
    [...errorLines(serial.stderr), ...errorLines(transport.stderr), ...errorLines(symbol.stderr)].map((e) => [e.field, e.offset, e.clause]),
    [
      ['packet', 10, 'Part 2 §4.2.4 Figure 4-1'],
      ['packet', 10, 'Part 2 §4.2.4 Figure 4-1'],
      ['symbol', 3, 'Part 6 §3.1'],
    ],
  );
  assert.match(symbol.stderr, /a CS24 symbol is 3 bytes, got 4/);
});

/** The CRC-valid Dev16 doorbell with tt = 0b11 (byte 1 0x1a → 0x3a), which no mode can size. */
function ttReserved(): string {
  const b = parseHex(DOORBELL);
  b[1] = 0x3a;
  const c = crc16Packet(b, 0, 10);
  b[10] = c >> 8;
  b[11] = c & 0xff;
  return toHex(b);
}

test('Part 2 Figure 4-1, Part 9 Table 3-2, Part 10 Table 4-3, Part 1 Table 4-9: reserved and undefined packet values are rejected by default naming field, byte and clause; --lenient decodes them labelled', () => {
  const ccp = makeCcp({ tt: 0, destinationID: 0x12, tgtdestinationID: 0x34, command: 'XOFF', flowID: '0C', soc: 0 });
  const items = [
    serialHex(doorbell({ rsrv: 5 })), // Part 2 Figure 4-1: rsrv byte 0x05
    serialHex({ ...ccp, fam: 0b001, command: 'UNDEFINED' }), // Part 9 Table 3-2: XOFF with FAM 001
    serialHex({
      ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 6, sourceID: 21, cos: 3, start: 0, end: 0, xh: 1, xtype: 0b010,
      segment: 'extended', streamID: 7, payload: Uint8Array.of(0xde, 0xad, 0xbe, 0xef),
    }), // Part 10 Table 4-3: reserved xtype
    serialHex(type13FromFields({ ackID: 0, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 13, destinationID: 1, sourceID: 2, transaction: 0, status: 0b0010, target: 9, payload: new Uint8Array(0) })),
    ttReserved(),
  ];
  const input = `${items.join('\n')}\n`;
  const strict = riodp(['decode', '--json'], input);
  assert.equal(strict.status, 1);
  assert.equal(strict.stdout, '');
  assert.deepEqual(
    errorLines(strict.stderr).map((e) => [e.index, e.field, e.offset, e.clause]),
    [
      [1, 'rsrv', 6, 'Part 2 §4.2.4 Figure 4-1'],
      [2, 'fam', 4, 'Part 9 §3.3 Table 3-2'],
      [3, 'xtype', 5, 'Part 10 §4.3 Table 4-3'],
      [4, 'status', 4, 'Part 1 §4.2.1 Table 4-9, Part 2 §4.3.1 Table 4-6'],
      [5, 'tt', 1, 'Part 3 §2.4 tt'],
    ],
  );

  const lenient = riodp(['decode', '--json', '--lenient'], input);
  assert.equal(lenient.status, 1);
  const out = jsonLines(lenient.stdout);
  assert.deepEqual(
    out.map((o) => [o['ftype'], o['rsrv'] ?? null, o['command'] ?? null, o['segment'] ?? null, o['statusName'] ?? null]),
    [
      [10, 5, null, null, null],
      [7, 0, 'UNDEFINED', null, null],
      [9, null, null, 'extended', null],
      [13, null, null, null, 'RESERVED'],
    ],
  );
  // tt 0b11 leaves the ID size unknown: no mode can decode it.
  assert.deepEqual(errorLines(lenient.stderr).map((e) => [e.index, e.field]), [[5, 'tt']]);

  // encode is strict the same way: the labelled JSON is refused unless --lenient, which then
  // reproduces the input bit for bit.
  const json = `${lines(lenient.stdout).join('\n')}\n`;
  const refused = riodp(['encode'], json);
  assert.equal(refused.status, 1);
  assert.equal(refused.stdout, '');
  assert.deepEqual(errorLines(refused.stderr).map((e) => [e.field, e.offset]), [['rsrv', 6], ['fam', 4], ['xtype', 5], ['status', 4]]);
  const again = riodp(['encode', '--lenient'], json);
  assert.equal(again.stderr, '');
  assert.equal(again.status, 0);
  assert.deepEqual(lines(again.stdout), items.slice(0, 4));
});

test('Part 6 §3.5 Table 3-17, Table 3-8, Annex 2 §3.5.2.1: reserved symbol and session management values need --lenient both ways', () => {
  const symbols = [
    symbolHex({ link: 'cs24', stype0: 4, parameter0: 0, parameter1: 0, stype1: 0b110, cmd: 0 }), // stype1 0b110
    symbolHex({ link: 'cs24', stype0: 4, parameter0: 0, parameter1: 0, stype1: 0b100, cmd: 0 }), // link-request cmd 0b000
    symbolHex({ link: 'cs24', stype0: 2, parameter0: 0, parameter1: 8, stype1: 7, cmd: 0 }), // cause 0b01000
  ];
  const smp = ['2000000000000000', '07020501001200420102000000000000']; // CMD 0x20; FLOW_CONTROL with VER 0x02
  const symbolArgs = ['--layer', 'symbol', '--link', 'cs24'];
  const strictSymbols = riodp(['decode', ...symbolArgs], symbols.join('\n'));
  const strictSmp = riodp(['decode', '--layer', 'smp'], smp.join('\n'));
  assert.deepEqual([strictSymbols.status, strictSymbols.stdout, strictSmp.status, strictSmp.stdout], [1, '', 1, '']);
  assert.deepEqual(
    [...errorLines(strictSymbols.stderr), ...errorLines(strictSmp.stderr)].map((e) => [e.index, e.field, e.offset, e.clause]),
    [
      [1, 'stype1', 1, 'Part 6 §3.5 Table 3-17'],
      [2, 'cmd', 2, 'Part 6 §3.5 Table 3-17'],
      [3, 'cause', 1, 'Part 6 §3.4.3 Table 3-8'],
      [1, 'cmd', 0, 'Annex 2 §3.5.2.1'],
      [2, 'ver', 1, 'Annex 2 §3.5.2.1'],
    ],
  );

  const lenientSymbols = riodp(['decode', '--json', '--lenient', ...symbolArgs], symbols.join('\n'));
  const lenientSmp = riodp(['decode', '--json', '--lenient', '--layer', 'smp'], smp.join('\n'));
  assert.deepEqual([lenientSymbols.status, lenientSmp.status], [0, 0]);
  assert.deepEqual(
    jsonLines(lenientSymbols.stdout).map((o) => [o['stype1Name'], o['cmdName'], o['causeName'] ?? null]),
    [['RESERVED', 'RESERVED', null], ['link-request', 'RESERVED', null], ['NOP', 'NOP', 'RESERVED']],
  );
  assert.deepEqual(jsonLines(lenientSmp.stdout).map((o) => [o['command'], o['version'] ?? null]), [['UNKNOWN', null], ['FLOW_CONTROL', 'UNKNOWN']]);

  const symbolsBack = riodp(['encode', '--lenient', ...symbolArgs], lenientSymbols.stdout);
  const smpBack = riodp(['encode', '--lenient', '--layer', 'smp'], lenientSmp.stdout);
  assert.deepEqual([symbolsBack.stderr, smpBack.stderr], ['', '']);
  assert.deepEqual(lines(symbolsBack.stdout), symbols);
  assert.deepEqual(lines(smpBack.stdout), smp);
});
