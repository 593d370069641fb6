import { test } from 'node:test';
import assert from 'node:assert/strict';
import { riodp } from '../support/spawn.ts';
import { errorLines, jsonLines, lines } from './output.ts';
import { DOORBELL, DOORBELL_JSON, doorbell, serialHex, transportHex, type9Long } from './vectors.ts';

test('DECISIONS §1: decode prints the golden doorbell 001a0001 ffff0000 deaf9903 as a field tree', () => {
  const r = riodp(['decode', '001a0001 ffff0000 deaf9903']);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  assert.equal(
    r.stdout,
    [
      'serial packet: Type 10 DOORBELL, Dev16 (12 bytes)',
      '  ackID          0',
      '  vc             0',
      '  crf            0',
      '  prio           0',
      '  tt             1',
      '  ftype          10',
      '  destinationID  1',
      '  sourceID       65535 (0xffff)',
      '  rsrv           0',
      '  srcTID         0',
      '  info           57007 (0xdeaf)',
      '  crc            39171 (0x9903)',
      '',
    ].join('\n'),
  );
});

test('DECISIONS §1: decode --json prints the golden doorbell as the README shows it', () => {
  const r = riodp(['decode', '--json', '001a0001 ffff0000 deaf9903']);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  assert.equal(r.stdout, `${DOORBELL_JSON}\n`);
});

test('decode reads stdin one item per line, skips blank and # lines, reports a bad line and goes on (exit 1)', () => {
  const dev8 = serialHex(doorbell({ tt: 0, destinationID: 0x12, sourceID: 0x34, info: 0x0102 }));
  const input = [
    '# port 3 trace', //                          1
    DOORBELL, //                                  2
    '', //                                        3
    '001a0001ffff0000deaf9904', //                4: bad CRC
    '   ', //                                     5
    '   # an indented comment', //                6
    dev8, //                                      7
    '001a0001', //                                8: truncated
    DOORBELL, //                                  9
  ].join('\n');
  const r = riodp(['decode', '--json'], `${input}\n`);
  assert.equal(r.status, 1);
  const out = jsonLines(r.stdout);
  assert.deepEqual(
    out.map((o) => [o['destinationID'], o['info']]),
    [[1, 0xdeaf], [0x12, 0x0102], [1, 0xdeaf]],
  );
  const errs = errorLines(r.stderr);
  assert.deepEqual(
    errs.map((e) => [e.where, e.index, e.field, e.offset, e.clause]),
    [
      ['line', 4, 'crc', 10, 'Part 6 §2.4.1'],
      ['line', 8, 'packet', 0, 'Part 6 §2.3'],
    ],
  );
});

test('decode without --json prints one tree per item, in order, each headed by layer, format, tt and length', () => {
  const long = serialHex(type9Long);
  const r = riodp(['decode'], `${DOORBELL}\n${long}\n`);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const heads = lines(r.stdout).filter((l) => !l.startsWith(' '));
  assert.deepEqual(heads, ['serial packet: Type 10 DOORBELL, Dev16 (12 bytes)', `serial packet: Type 9 DATA STREAMING, Dev16 (${long.length / 2} bytes)`]);
  // Byte strings are printed whole, 32 bytes a line, so nothing compared against is hidden.
  assert.match(r.stdout, /^ {2}payload +\(100 bytes\)\n {4}000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n/m);
  assert.match(r.stdout, /^ {4}60616263$/m);
  assert.match(r.stdout, /^ {2}earlyCrc +\d+ \(0x[0-9a-f]+\)$/m);
});

test('Part 6 §2.2 Table 2-1: --link cs24 reads the ackID as 5 bits left-justified, ackID[5] reserved', () => {
  // Byte 0 = ackID(6) | VC | CRF. 0xa8 = 101010 0 0: ackID 42 on a CS48 link; on a CS24 link the
  // 5-bit ackID 10101 = 21 with ackID[5] = 0. The CRC covers the ackID bits as zeros, so the
  // golden CRC 0x9903 stays valid. 0x04 = 000001 0 0 sets ackID[5] only.
  const a8 = `a8${DOORBELL.slice(2)}`;
  const r24 = riodp(['decode', '--json', '--link', 'cs24'], `${a8}\n04${DOORBELL.slice(2)}\n`);
  const r48 = riodp(['decode', '--json'], `${a8}\n`);
  assert.equal(r48.status, 0);
  assert.equal(jsonLines(r48.stdout)[0]?.['ackID'], 42);
  assert.equal(r24.status, 1);
  assert.deepEqual(jsonLines(r24.stdout).map((o) => o['ackID']), [21]);
  const [e] = errorLines(r24.stderr);
  assert.deepEqual([e?.index, e?.field, e?.offset, e?.clause], [2, 'ackID', 0, 'Part 6 §2.2 Table 2-1']);

  // Encoding on a CS24 link shifts the 5-bit ackID left and refuses 6-bit values.
  const json = (ackID: number) => JSON.stringify({ ...doorbell(), ackID });
  const enc = riodp(['encode', '--link', 'cs24'], `${json(21)}\n${json(32)}\n${json(31)}\n`);
  assert.equal(enc.status, 1);
  assert.deepEqual(lines(enc.stdout), [a8, `f8${DOORBELL.slice(2)}`]);
  const [range] = errorLines(enc.stderr);
  assert.deepEqual([range?.index, range?.field], [2, 'ackID']);
  assert.match(range?.detail ?? '', /5 bits/);
});

test('hex input tolerates 0x prefixes, whitespace, underscores, colons and upper case', () => {
  const byArgs = riodp(['decode', '--json', '0x001A_0001 FF:FF:00:00 de af 99 03']);
  assert.equal(byArgs.status, 0);
  assert.equal(byArgs.stdout, `${DOORBELL_JSON}\n`);
  const variants = [
    '0x001a0001 0xffff0000 0xdeaf9903',
    '00:1a:00:01:ff:ff:00:00:de:af:99:03',
    '001A_0001_FFFF_0000_DEAF_9903',
    '\t001a0001  ffff0000\tdeaf9903  ',
    '0X001A0001FFFF0000DEAF9903\r',
  ];
  const byLines = riodp(['decode', '--json'], `${variants.join('\n')}\n`);
  assert.equal(byLines.stderr, '');
  assert.equal(byLines.status, 0);
  assert.deepEqual(lines(byLines.stdout), variants.map(() => DOORBELL_JSON));
});

test('invalid hex is reported as field hex with the byte it starts at; the batch goes on', () => {
  const r = riodp(['decode', '--json', '--layer', 'transport'], ['zz', '001a0001ffff0000dea', transportHex(doorbell()), '001a0001 ffff0000 de-f'].join('\n'));
  assert.equal(r.status, 1);
  assert.equal(jsonLines(r.stdout).length, 1);
  const errs = errorLines(r.stderr);
  assert.deepEqual(
    errs.map((e) => [e.index, e.field, e.offset, e.clause]),
    [
      [1, 'hex', 0, 'input'],
      [2, 'hex', 9, 'input'], // 19 digits: the odd one starts byte 9
      [4, 'hex', 9, 'input'], // separators dropped, '-' is the 19th character: byte 9
    ],
  );
  assert.match(errs[0]?.detail ?? '', /'z' is not a hex digit/);
  assert.match(errs[1]?.detail ?? '', /odd number of hex digits/);
});

test('docs/cli.md Items: riodp decode A B decodes each argument as its own item ("[hex...] items to decode"); whitespace inside one argument is tolerated', () => {
  const golden = '001a0001ffff0000deaf9903';
  const r = riodp(['decode', '--json', golden, '001a0001 ffff0000 deaf9903']);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const [a, b, more] = jsonLines(r.stdout);
  assert.equal(more, undefined);
  assert.deepEqual([a?.['ftype'], a?.['crc']], [10, 0x9903]);
  assert.deepEqual(b, a);
  // The golden packet's words as three arguments are three items, each too short for a packet.
  const split = riodp(['decode', '001a0001', 'ffff0000', 'deaf9903']);
  assert.equal(split.status, 1);
  assert.deepEqual(errorLines(split.stderr).map((e) => e.index), [1, 2, 3]);
});
