import { test } from 'node:test';
import assert from 'node:assert/strict';
import { riodp } from '../support/spawn.ts';
import { errorLines, jsonLines, lines } from './output.ts';

/*
 * CS64 goldens of src/wire/symbol64.test.ts (Part 6 Figure 3-3 assembled by hand there):
 * packet-accepted + NOP, loop-response + loop-timing-request, link-response, status +
 * start-of-packet-unpadded, and a VoQ-backpressure symbol read with RX Port Group Size 4.
 */
const CS64 = ['00030050e38133c4', 'bfff0000ad9d3dfc', '60013180e02e3f48', '4001ffe2aa057d30'];
const VOQ_G4 = 'df000210e0e69790';

function roundTrip(flags: readonly string[], hex: readonly string[]): Record<string, unknown>[] {
  const decoded = riodp(['decode', '--json', ...flags], `${hex.join('\n')}\n`);
  assert.equal(decoded.stderr, '');
  assert.equal(decoded.status, 0);
  const encoded = riodp(['encode', ...flags], decoded.stdout);
  assert.equal(encoded.stderr, '');
  assert.equal(encoded.status, 0);
  assert.deepEqual(lines(encoded.stdout), hex);
  return jsonLines(decoded.stdout);
}

test('Part 6 §3.3 Figure 3-3: CS64 control symbols survive decode --json | encode with --link cs64', () => {
  const json = roundTrip(['--layer', 'symbol', '--link', 'cs64'], CS64);
  assert.deepEqual(json.map((o) => [o['link'], o['stype0Name'], o['stype1Name']]), [
    ['cs64', 'packet-accepted', 'NOP'],
    ['cs64', 'loop-response', 'loop-timing-request'],
    ['cs64', 'link-response', 'NOP'],
    ['cs64', 'status', 'start-of-packet-unpadded'],
  ]);
  assert.equal(json[3]?.['ackIDHigh'], 42);
});

test('Part 12 §3.2 Table 3-4: a CS64 VoQ-backpressure symbol survives decode --json | encode with --voq-group-size 4', () => {
  const [json] = roundTrip(['--layer', 'symbol', '--link', 'cs64', '--voq-group-size', '4'], [VOQ_G4]);
  assert.deepEqual(json?.['voq'], { format: 'part12-rev4.1', portGroupSize: 4, vcInd: 15, vcIndName: 'ALL_VCS', portGroup: 1, portStatus: 2, congestedPorts: [17] });
  // The same bits with the reset group size 0 are other ports: status 0x00021 is ports 0 and 5.
  const g0 = riodp(['decode', '--json', '--layer', 'symbol', '--link', 'cs64'], `${VOQ_G4}\n`);
  assert.deepEqual((jsonLines(g0.stdout)[0]?.['voq'] as Record<string, unknown>)['congestedPorts'], [0, 5]);
});

test('Part 12 §3.2, DECISIONS §5 (decision): --voq-format does not apply to a CS64, whose VoQ form is Part 12 only', () => {
  const flags = ['decode', '--json', '--layer', 'symbol', '--link', 'cs64', '--voq-group-size', '4'];
  const seed = riodp([...flags, '--voq-format', 'seed'], `${VOQ_G4}\n`);
  const part12 = riodp([...flags, '--voq-format', 'part12-rev4.1'], `${VOQ_G4}\n`);
  assert.equal(seed.status, 0);
  assert.equal(seed.stdout, part12.stdout);
  assert.equal((jsonLines(seed.stdout)[0]?.['voq'] as Record<string, unknown>)['format'], 'part12-rev4.1');
});

test('Part 6 §3.3: the CS64 field tree names every field, hex beside the CRC', () => {
  const r = riodp(['decode', '--layer', 'symbol', '--link', 'cs64', CS64[0] as string]);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, [
    'symbol (8 bytes)',
    '  link         cs64',
    '  stype0       0',
    '  stype0Name   packet-accepted',
    '  parameter0   3',
    '  parameter1   5',
    '  packetAckID  3',
    '  bufStatus    5',
    '  stype1       56',
    '  stype1Name   NOP',
    '  crc          14699761 (0xe04cf1)',
    '',
  ].join('\n'));
});

test('Part 6 §3.6.5, §3.1: a CS64 with a bad CRC-24 or of the wrong length is reported on one line (field, byte, clause), exit 1', () => {
  const r = riodp(['decode', '--json', '--layer', 'symbol', '--link', 'cs64'], ['00030050e38133c0', '00030050e38133', CS64[0]].join('\n'));
  assert.equal(r.status, 1);
  assert.equal(lines(r.stdout).length, 1, 'the good line is still decoded');
  assert.deepEqual(errorLines(r.stderr).map((e) => [e.index, e.field, e.offset, e.clause, e.detail]), [
    [1, 'crc', 4, 'Part 6 §3.6.5', 'CRC-24 0xe04cf0, computed 0xe04cf1'],
    [2, 'symbol', 7, 'Part 6 §3.1', 'a CS64 symbol is 8 bytes, got 7'],
  ]);
});

test('Part 6 §3.4 Table 3-3, Part 12 §3.2 Table 3-3: reserved CS64 stype0 and VC_IND need --lenient to encode; a reserved VC_IND decodes without error by default ("ignore the VoQ Backpressure control symbol without error"), a reserved stype0 needs --lenient', () => {
  // stype0 0b1000 | 0 | 0 | NOP; VoQ-backpressure with VC_IND 0b1001. Built by encode --lenient from raw fields.
  const raws = ['{"stype0":8,"parameter0":0,"parameter1":0,"stype1":56}', '{"stype0":13,"parameter0":2304,"parameter1":1,"stype1":56}'];
  const strictEncode = riodp(['encode', '--layer', 'symbol', '--link', 'cs64', ...raws]);
  assert.equal(strictEncode.status, 1);
  assert.deepEqual(errorLines(strictEncode.stderr).map((e) => [e.field, e.offset, e.clause]), [
    ['stype0', 0, 'Part 6 §3.4 Table 3-3'],
    ['voq.vcInd', 0, 'Part 12 §3.2 Table 3-3'],
  ]);
  const lenient = riodp(['encode', '--lenient', '--layer', 'symbol', '--link', 'cs64', ...raws]);
  assert.equal(lenient.status, 0);
  const hex = lines(lenient.stdout);
  const strictDecode = riodp(['decode', '--layer', 'symbol', '--link', 'cs64'], hex.join('\n'));
  assert.equal(strictDecode.status, 1);
  assert.deepEqual(errorLines(strictDecode.stderr).map((e) => e.field), ['stype0']);
  const vcInd = riodp(['decode', '--json', '--layer', 'symbol', '--link', 'cs64', hex[1] ?? '']);
  assert.equal(vcInd.status, 0, vcInd.stderr);
  assert.equal((jsonLines(vcInd.stdout)[0]?.['voq'] as Record<string, unknown> | undefined)?.['vcIndName'], 'RESERVED');
  const json = riodp(['decode', '--json', '--lenient', '--layer', 'symbol', '--link', 'cs64'], hex.join('\n'));
  assert.deepEqual(jsonLines(json.stdout).map((o) => [o['stype0Name'], (o['voq'] as Record<string, unknown> | undefined)?.['vcIndName']]), [['RESERVED', undefined], ['VoQ-backpressure', 'RESERVED']]);
  const back = riodp(['encode', '--lenient', '--layer', 'symbol', '--link', 'cs64'], json.stdout);
  assert.deepEqual(lines(back.stdout), hex);
});

test('docs/cli.md: --link accepts cs64 and still refuses other links', () => {
  const r = riodp(['decode', '--layer', 'symbol', '--link', 'cs96', CS64[0] as string]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /'--link <link>' argument 'cs96' is invalid.*cs24, cs48, cs64/);
});
