import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytes, cont, end, single, start } from '../support/type9-segments.ts';
import { DOORBELL, serialHex } from './vectors.ts';
import { BASE, outLines, reassemble, riodpBytes, segment } from './streaming-cli.ts';

/**
 * `riodp reassemble` line by line (issue 18 item 5 a, c): what stops the run, what `--lenient`
 * skips, packets that are not Type 9, and segment sizes left to the reassembler's rules.
 */

async function segLines(pdu: Uint8Array, over: Parameters<typeof segment>[0] = {}): Promise<string[]> {
  const r = await segment({ ...BASE, ...over }, pdu);
  assert.equal(r.status, 0);
  return outLines(r.stdout);
}

const stderrLines = (s: string): string[] => s.split('\n').filter((l) => l !== '');
const H = { sourceID: 1, destinationID: 5, cos: 3 };
/** A 191-byte PDU at MTU 64: start 64, continuation 64, end 63. */
const PDU = bytes(191);
const STOP = '; the run stops here (--lenient skips bad lines)';

test('riodp reassemble decision, Part 6 §2.4.1: a CRC error stops the run with one line (exit 1), after the PDUs delivered before it', async () => {
  const first = await segLines(bytes(10));
  const [s, c, e] = await segLines(PDU);
  const bad = `${c!.slice(0, -1)}${c!.endsWith('0') ? '1' : '0'}`;
  const r = await reassemble({ mtu: '64' }, [...first, s, bad, e].join('\n'));
  assert.equal(r.status, 1);
  assert.ok(Buffer.from(bytes(10)).equals(r.stdout), 'only the PDU before the bad line');
  const lines = stderrLines(r.stderr);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^riodp: line 3: crc at byte 70: CRC 0x[0-9a-f]{4}, computed 0x[0-9a-f]{4} \(Part 6 §2\.4\.1\); the run stops here \(--lenient skips bad lines\)$/);
});

test('riodp reassemble --lenient, Part 6 §2.4.1, Part 10 §3.2.5 reassembly rule 7: a CRC error is reported, counted and skipped; the PDU that lost the segment is found by rule 7 with the bytes missing; a summary ends the run (exit 1)', async () => {
  const [s, c, e] = await segLines(PDU);
  const bad = `${c!.slice(0, -1)}${c!.endsWith('0') ? '1' : '0'}`;
  const r = await reassemble({ mtu: '64', lenient: true }, [s, bad, e, ...(await segLines(bytes(10)))].join('\n'));
  assert.equal(r.status, 1);
  assert.ok(Buffer.from(bytes(10)).equals(r.stdout), 'the run went on to the next PDU');
  const lines = stderrLines(r.stderr);
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^riodp: line 2: crc at byte 70: CRC 0x[0-9a-f]{4}, computed 0x[0-9a-f]{4} \(Part 6 §2\.4\.1\)$/);
  assert.equal(lines[1], 'riodp: line 3: Part 10 §3.2.5 reassembly rule 7: end segment gives PDU length 191, 127 bytes received, 64 bytes missing: a continuation segment was lost (PDU length error)');
  assert.equal(lines[2], 'riodp: summary: 3 Type 9 packets reassembled, 0 packets not Type 9 passed over, 1 bad line skipped; 1 PDU delivered, 1 lost');
});

test('riodp reassemble --lenient: bad hex, a strict decoding error and a truncated packet are each one line and skipped; --lenient decodes as decode --lenient, so reserved bits pass', async () => {
  const reserved = serialHex({ ...single(bytes(4), 0x12, H), rsrv: 1 });
  const input = ['zz', '0009', reserved, ...(await segLines(bytes(10)))].join('\n');
  const strict = await reassemble({ mtu: '64' }, input);
  assert.deepEqual([strict.status, stderrLines(strict.stderr), strict.stdout.length], [1, [`riodp: line 1: hex at byte 0: 'z' is not a hex digit (input)${STOP}`], 0]);
  const r = await reassemble({ mtu: '64', lenient: true }, input);
  assert.equal(r.status, 1);
  assert.ok(Buffer.concat([bytes(4), bytes(10)]).equals(r.stdout), 'the single segment with a reserved bit set is delivered');
  assert.deepEqual(stderrLines(r.stderr), [
    "riodp: line 1: hex at byte 0: 'z' is not a hex digit (input)",
    'riodp: line 2: packet at byte 0: needs 8 bytes, 2 left (Part 6 §2.3)',
    'riodp: summary: 2 Type 9 packets reassembled, 0 packets not Type 9 passed over, 2 bad lines skipped; 2 PDUs delivered, 0 lost',
  ]);
  const rsrv = await reassemble({ mtu: '64' }, reserved);
  assert.deepEqual(stderrLines(rsrv.stderr), [`riodp: line 1: rsrv at byte 5: reserved bits are assigned to logic 0s (Part 10 §4.2 Table 4-1)${STOP}`]);
});

test('riodp reassemble decision, Part 10 §4.2: packets that are not Type 9 are passed over and counted, in the summary, not errors (exit 0 in both modes)', async () => {
  const [s, c, e] = await segLines(PDU);
  // A doorbell (Type 10), and a Type 2 packet riodp has no decoder for: neither is decoded.
  const input = [DOORBELL, s, '0002deadbeef', c, DOORBELL, e].join('\n');
  for (const lenient of [false, true]) {
    const r = await reassemble({ mtu: '64', lenient }, input);
    assert.equal(r.status, 0);
    assert.ok(Buffer.from(PDU).equals(r.stdout));
    assert.deepEqual(stderrLines(r.stderr), ['riodp: summary: 3 Type 9 packets reassembled, 3 packets not Type 9 passed over (first at line 1), 0 bad lines skipped; 1 PDU delivered, 0 lost']);
  }
});

test('Part 10 §3.2.5 reassembly rule 4: a start segment shorter than the MTU, whatever its size, is a segment-size defect (short segment), not a CRC or decoding error; so is a continuation (rule 5)', async () => {
  const cases: [string, string][] = [
    // 62 bytes: 4k + 2, found at the other half-word parity by its CRC (docs/conformance.md).
    [serialHex(start(bytes(62), 18, H)), 'start segment of 62 bytes, MTU 64, not a multiple of 4 bytes (short segment)'],
    // 28 bytes: no MTU at all, which strict decoding alone would refuse.
    [serialHex(start(bytes(28), 18, H)), 'start segment of 28 bytes, MTU 64 (short segment)'],
    [serialHex(start(bytes(66), 18, H)), 'start segment of 66 bytes, MTU 64, not a multiple of 4 bytes (long segment)'],
    [serialHex(start(bytes(260), 18, H)), 'start segment of 260 bytes, MTU 64 (long segment)'],
  ];
  for (const [hex, said] of cases) {
    const r = await reassemble({ mtu: '64' }, [hex, serialHex(end(bytes(4), 100, H))].join('\n'));
    assert.equal(r.status, 1, said);
    assert.deepEqual(stderrLines(r.stderr), [`riodp: line 1: Part 10 §3.2.5 reassembly rule 4: ${said}`], said);
  }
  // Dev16 continuation of 62 bytes: found at the other parity as well.
  const h16 = { ...H, tt: 1 };
  const r = await reassemble({ mtu: '64' }, [serialHex(start(bytes(64), 18, h16)), serialHex(cont(bytes(62), h16)), serialHex(end(bytes(4), 130, h16))].join('\n'));
  assert.deepEqual(stderrLines(r.stderr), ['riodp: line 2: Part 10 §3.2.5 reassembly rule 5: continuation segment of 62 bytes, MTU 64, not a multiple of 4 bytes (short segment)']);
});

test('Part 10 §3.2.5 reassembly rule 7 (decision): a Dev8 continuation of 62 bytes cannot be told from a 64-byte one whose CRC is 0x0000; it arrives two bytes longer and the PDU is found defective with 2 bytes extra, never delivered', async () => {
  const r = await reassemble({ mtu: '64' }, [serialHex(start(bytes(64), 18, H)), serialHex(cont(bytes(62), H)), serialHex(end(bytes(4), 130, H))].join('\n'));
  assert.deepEqual([r.status, r.stdout.length], [1, 0]);
  assert.deepEqual(stderrLines(r.stderr), ['riodp: line 3: Part 10 §3.2.5 reassembly rule 7: end segment gives PDU length 130, 132 bytes received, 2 bytes extra: more data than the PDU length (PDU length error)']);
});

test('riodp reassemble --lenient as a process: the option is accepted and acts; --help names it', () => {
  const input = ['zz', DOORBELL].join('\n');
  const strict = riodpBytes(['reassemble', '-'], input);
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /the run stops here/);
  const lenient = riodpBytes(['reassemble', '--lenient', '-'], input);
  assert.equal(lenient.status, 1);
  assert.deepEqual(stderrLines(lenient.stderr), [
    "riodp: line 1: hex at byte 0: 'z' is not a hex digit (input)",
    'riodp: summary: 0 Type 9 packets reassembled, 1 packet not Type 9 passed over (first at line 2), 1 bad line skipped; 0 PDUs delivered, 0 lost',
  ]);
  assert.match(riodpBytes(['reassemble', '--help']).stdout.toString(), /--lenient/);
});
