import { test } from 'node:test';
import assert from 'node:assert/strict';
import { riodp } from '../support/spawn.ts';
import { jsonLines, lines } from './output.ts';
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
