import { test } from 'node:test';
import assert from 'node:assert/strict';
import { riodp } from '../support/spawn.ts';
import { errorLines, jsonLines, lines } from './output.ts';
import { CS24, CS48_SEED, PACKETS, SMP, cs48Part12, serialHex, symbolHex, transportHex } from './vectors.ts';

/**
 * README: "`riodp decode --json ... | riodp encode` reproduces the input". Each layer's items go
 * through one decode and one encode process; the JSON is checked on the way for what makes the
 * layer's round trip non-trivial.
 */
function roundTrip(flags: readonly string[], hex: readonly string[]): Record<string, unknown>[] {
  const decoded = riodp(['decode', '--json', ...flags], `${hex.join('\n')}\n`);
  assert.equal(decoded.stderr, '');
  assert.equal(decoded.status, 0);
  assert.equal(lines(decoded.stdout).length, hex.length);
  const encoded = riodp(['encode', ...flags], decoded.stdout);
  assert.equal(encoded.stderr, '');
  assert.equal(encoded.status, 0);
  assert.deepEqual(lines(encoded.stdout), hex);
  return jsonLines(decoded.stdout);
}

test('Part 6 §2.3–§2.5: serial packets of Types 7, 8, 9 (TM and >80 bytes), 10, 11 and 13 survive decode --json | encode', () => {
  const hex = PACKETS.map((p) => serialHex(p.packet));
  const json = roundTrip([], hex);
  assert.deepEqual(json.map((o) => o['ftype']), PACKETS.map((p) => p.packet.ftype));
  // Packets over 80 logical bytes carry an early CRC (Part 6 §2.4.1), and only they do.
  const long = PACKETS.map((p) => [p.name, transportHex(p.packet).length / 2 > 80] as const);
  assert.deepEqual(json.map((o, i) => [PACKETS[i]?.name, typeof o['earlyCrc'] === 'number']), long);
  assert.equal(long.filter(([, l]) => l).length, 3);
  assert.ok(PACKETS.some((p) => transportHex(p.packet).length === 160), 'an 80-byte packet: the boundary without an early CRC');
  const tm = json.find((o) => o['segment'] === 'tm');
  assert.ok(tm);
  assert.deepEqual(tm['tm'], { message: 'ALLOCATE', allocationUnit: 3, credits: 16 });
  assert.deepEqual(tm['operand'], { scope: 'class' });
});

test('transport packets (prefix to last logical field, no CRC) of every format survive decode --json | encode', () => {
  const json = roundTrip(['--layer', 'transport'], PACKETS.map((p) => transportHex(p.packet)));
  assert.ok(json.every((o) => !('crc' in o) && !('earlyCrc' in o)));
  assert.deepEqual([...new Set(json.map((o) => o['tt']))].sort(), [0, 1, 2]);
});

test('Part 6 §3.3 Figure 3-1: CS24 control symbols survive decode --json | encode', () => {
  const json = roundTrip(['--layer', 'symbol', '--link', 'cs24'], CS24.map(symbolHex));
  assert.deepEqual(json.map((o) => o['stype0Name']), ['packet-accepted', 'packet-retry', 'packet-not-accepted', 'timestamp', 'status', 'VC_status', 'link-response']);
  assert.ok(json.every((o) => o['link'] === 'cs24' && !('stype2' in o) && !('voq' in o)));
});

test('Part 6 §3.3 Figure 3-2, VoQ Backpressure §3.1: CS48 symbols with seed-format stype2 survive decode --json | encode', () => {
  const json = roundTrip(['--layer', 'symbol', '--voq-format', 'seed'], CS48_SEED.map(symbolHex));
  assert.deepEqual(json[0]?.['voq'], { format: 'seed', cmd: 1, cmdName: 'VOQ_BACKPRESSURE', portGroup: 31, portStatus: 32, congestedPorts: [191] });
  assert.deepEqual((json[1]?.['voq'] as Record<string, unknown> | undefined)?.['congestedPorts'], [6, 11]);
});

test('Part 12 §3.1: CS48 symbols with part12-rev4.1 stype2 and a 1-bit port group survive decode --json | encode', () => {
  const json = roundTrip(['--layer', 'symbol', '--link', 'cs48', '--voq-format', 'part12-rev4.1', '--voq-group-size', '1'], cs48Part12(1).map(symbolHex));
  assert.equal(symbolHex(cs48Part12(1)[0]!), 'c2a125003b7d');
  assert.deepEqual(json.map((o) => (o['voq'] as Record<string, unknown>)['portGroupSize']), [1, 1, 1]);
  assert.deepEqual(json.map((o) => (o['voq'] as Record<string, unknown>)['cmdName']), ['VOQ_BACKPRESSURE', 'VOQ_BACKPRESSURE', 'NOP']);
  // The same bits read with another group size are other ports: the flag matters on both sides.
  const g4 = riodp(['decode', '--json', '--layer', 'symbol', '--voq-format', 'part12-rev4.1', '--voq-group-size', '4'], `${symbolHex(cs48Part12(1)[0]!)}\n`);
  assert.equal(g4.status, 0);
  assert.notDeepEqual((jsonLines(g4.stdout)[0]?.['voq'] as Record<string, unknown>)['congestedPorts'], (json[0]?.['voq'] as Record<string, unknown>)['congestedPorts']);
});

test('Annex 2 Chapter 4: session management messages survive decode --json | encode', () => {
  const json = roundTrip(['--layer', 'smp'], SMP);
  assert.deepEqual(json.map((o) => o['command']), ['REQUEST', 'ADVERTISE', 'OPEN', 'ACCEPT', 'REFUSE', 'FLOW_CONTROL', 'CLOSE', 'STATUS', 'USERDEFINED', 'DATA', 'DATA1', 'DATA2']);
});

/*
 * Hand-assembled (Part 6 Figure 2-2, Part 2 Figure 4-1):
 * - 000a01020000deafb17e beef: a Dev8 doorbell, byte 0 0x00 (ackID 0, VC 0, CRF 0), byte 1 0x0a
 *   (prio 0, tt 0b00, ftype 10), destinationID 01, sourceID 02, rsrv 00, srcTID 00, info deaf,
 *   CRC b17e over those 8 bytes; 10 bytes end on a half-word, so a pad follows: 0xbeef, not 0x0000.
 * - 041a0001ffff0000deaf9903: DECISIONS §1's doorbell with byte 0 0x04: on a CS24 link ackID
 *   0 in ackID[0-4] and ackID[5] = 1. The CRC is unchanged: it takes the ackID bits as 0 (§2.4).
 * - 2c0a…beef: the Dev8 doorbell with both: byte 0 0b101100 (5-bit ackID 5, ackID[5] 1) << 2.
 */
const PADDED = '000a01020000deafb17ebeef';
const ACK5 = '041a0001ffff0000deaf9903';
const BOTH = '2c0a01020000deafb17ebeef';

test('issue 16 item 6, CONTRIBUTING.md lenient decoding: decode --json --lenient | encode --lenient reproduces a non-zero pad (Part 6 §2.3, as rsrvPad) and, with --link cs24, ackID[5] = 1 (Part 6 §2.2 Table 2-1, as rsrvAckID), serial and transport', () => {
  const padded = roundTrip(['--lenient'], [PADDED]);
  assert.deepEqual([padded[0]?.['rsrvPad'], padded[0]?.['rsrvAckID']], [0xbeef, undefined]);
  const cs24 = roundTrip(['--lenient', '--link', 'cs24'], [ACK5, BOTH]);
  assert.deepEqual(cs24.map((o) => [o['ackID'], o['rsrvAckID'], o['rsrvPad']]), [[0, 1, undefined], [5, 1, 0xbeef]]);
  const transport = roundTrip(['--lenient', '--link', 'cs24', '--layer', 'transport'], [ACK5.slice(0, -4), BOTH.slice(0, -8)]);
  assert.deepEqual(transport.map((o) => [o['ackID'], o['rsrvAckID']]), [[0, 1], [5, 1]]);
});

test('issue 16 item 6, Part 6 §2.2 Table 2-1, §2.3: without --lenient, decode refuses a non-zero pad and ackID[5] = 1 naming the field, the byte and the clause, and encode refuses the lenient JSON the same way', () => {
  const pad = riodp(['decode', '--json'], `${PADDED}\n`);
  assert.equal(pad.status, 1);
  assert.deepEqual(errorLines(pad.stderr).map((e) => [e.field, e.offset, e.clause]), [['pad', 10, 'Part 6 §2.3']]);
  const ack = riodp(['decode', '--json', '--link', 'cs24'], `${ACK5}\n`);
  assert.equal(ack.status, 1);
  assert.deepEqual(errorLines(ack.stderr).map((e) => [e.field, e.offset, e.clause]), [['ackID', 0, 'Part 6 §2.2 Table 2-1']]);
  const lenient = riodp(['decode', '--json', '--lenient', '--link', 'cs24'], `${ACK5}\n${BOTH}\n`);
  const strictEncode = riodp(['encode', '--link', 'cs24'], lenient.stdout);
  assert.equal(strictEncode.status, 1);
  assert.deepEqual(errorLines(strictEncode.stderr).map((e) => [e.index, e.field]), [[1, 'ackID'], [2, 'pad']]);
});
