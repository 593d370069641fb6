import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytes, cont, end, single, start, tmXoff, abort } from '../support/type9-segments.ts';
import { serialHex } from './vectors.ts';
import { BASE, outLines, reassemble, riodpBytes, segment, tempDir, tempFile } from './streaming-cli.ts';

/** The hex lines of a PDU cut by `riodp segment` with BASE (MTU 64, 5 ← 1, cos 3, stream 0x12) and `over`. */
async function segLines(pdu: Uint8Array, over: Parameters<typeof segment>[0] = {}): Promise<string[]> {
  const r = await segment({ ...BASE, ...over }, pdu);
  assert.equal(r.status, 0);
  return outLines(r.stdout);
}

const CTX = 'Dev8/src1/vc0/prio0/crf0';
const VSID = 'sourceID 1, destinationID 5, cos 3, streamID 18';
const stderrLines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

/** A 191-byte PDU (3·MTU−1 at MTU 64): start 64, continuation 64, end 63. */
const PDU = bytes(191);

test('Part 10 §3.2.5 reassembly rule 7: a dropped continuation line is reported at the end segment\'s line as a PDU length error (exit 1)', async () => {
  const [s, , e] = await segLines(PDU);
  const r = await reassemble({ mtu: '64' }, [s, e].join('\n'));
  assert.equal(r.status, 1);
  assert.equal(r.stdout.length, 0);
  assert.equal(r.stderr, 'riodp: line 2: Part 10 §3.2.5 reassembly rule 7: end segment gives PDU length 191, 127 bytes received, 64 bytes missing: a continuation segment was lost (PDU length error)\n');
});

test('Part 10 §3.2.5 reassembly rule 8: a dropped start line makes every later segment of the PDU a missing-context defect', async () => {
  const [, c, e] = await segLines(PDU);
  const r = await reassemble({ mtu: '64' }, [c, e].join('\n'));
  assert.equal(r.status, 1);
  assert.deepEqual(stderrLines(r.stderr), [
    `riodp: line 1: Part 10 §3.2.5 reassembly rule 8: continuation segment on the closed context ${CTX}: its start segment was lost (missing context)`,
    `riodp: line 2: Part 10 §3.2.5 reassembly rule 8: end segment on the closed context ${CTX}: its start segment was lost (missing context)`,
  ]);
});

test('Part 10 §3.2.5 lost packet detection: a dropped end line leaves the PDU open at the end of the input, reported at its start line', async () => {
  const [s, c] = await segLines(PDU);
  const r = await reassemble({ mtu: '64' }, ['# trace', s, c].join('\n'));
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `riodp: line 2: Part 10 §3.2.5 lost packet detection: the PDU of ${VSID} opened on the context ${CTX} has no end segment at the end of the input, 128 bytes in 2 segments discarded (lost end segment)\n`);
  const one = await reassemble({ mtu: '64' }, [s].join('\n'));
  assert.match(one.stderr, /^riodp: line 1: .*, 64 bytes in 1 segment discarded \(lost end segment\)\n$/);
});

test('Part 10 §3.2.5 reassembly rules 7 and 8: a swapped pair of lines is reported with the rule each segment breaks', async () => {
  const [s, c, e] = await segLines(PDU);
  const late = await reassemble({ mtu: '64' }, [s, e, c].join('\n'));
  assert.equal(late.status, 1);
  assert.deepEqual(stderrLines(late.stderr), [
    'riodp: line 2: Part 10 §3.2.5 reassembly rule 7: end segment gives PDU length 191, 127 bytes received, 64 bytes missing: a continuation segment was lost (PDU length error)',
    `riodp: line 3: Part 10 §3.2.5 reassembly rule 8: continuation segment on the closed context ${CTX}: its start segment was lost (missing context)`,
  ]);
  const early = await reassemble({ mtu: '64' }, [c, s, e].join('\n'));
  assert.deepEqual(stderrLines(early.stderr).map((l) => /^riodp: line (\d): Part 10 §3\.2\.5 reassembly rule (\d)/.exec(l)?.slice(1)), [['1', '8'], ['3', '7']]);
});

test('Part 10 §3.2.5 reassembly rules 3–6, 9: each defect line names the segment, its size, the MTU and the Part 8 error', async () => {
  const h = { sourceID: 1, destinationID: 5, cos: 3 };
  const input = [
    serialHex(start(bytes(64), 18, h)), //                 1
    serialHex(cont(bytes(60), h)), //                      2: rule 5
    serialHex(end(bytes(4), 128, h)), //                   3: quietly discarded
    serialHex(start(bytes(32), 18, h)), //                 4: rule 4
    serialHex(end(bytes(4), 36, h)), //                    5: quietly discarded
    serialHex(single(bytes(68), 18, h)), //                6: rule 3
    serialHex(start(bytes(64), 18, h)), //                 7
    serialHex(end(bytes(68), 132, h)), //                  8: rule 6
    serialHex(start(bytes(64), 18, h)), //                 9
    serialHex(single(bytes(8), 19, h)), //                10: rule 9, then delivered
  ].join('\n');
  const r = await reassemble({ mtu: '64' }, input);
  assert.equal(r.status, 1);
  assert.ok(Buffer.from(bytes(8)).equals(r.stdout), 'the single segment after the rule 9 report is delivered');
  assert.deepEqual(stderrLines(r.stderr), [
    'riodp: line 2: Part 10 §3.2.5 reassembly rule 5: continuation segment of 60 bytes, MTU 64 (short segment)',
    'riodp: line 4: Part 10 §3.2.5 reassembly rule 4: start segment of 32 bytes, MTU 64 (short segment)',
    'riodp: line 6: Part 10 §3.2.5 reassembly rule 3: single segment of 68 bytes, MTU 64 (long segment)',
    'riodp: line 8: Part 10 §3.2.5 reassembly rule 6: end segment of 68 bytes, MTU 64 (long segment)',
    `riodp: line 10: Part 10 §3.2.5 reassembly rule 9: single segment on the open context ${CTX}: the end segment of the PDU of ${VSID} was lost, 64 bytes discarded (open existing context)`,
  ]);
});

test('riodp reassemble decision, Part 10 §4.3: traffic management packets (xh = 1) carry no PDU data and are skipped without a report', async () => {
  const [s, c, e] = await segLines(PDU);
  const r = await reassemble({ mtu: '64' }, [s, serialHex(tmXoff(18, { sourceID: 1, destinationID: 5, cos: 3 })), c, e].join('\n'));
  assert.deepEqual([r.status, r.stderr], [0, '']);
  assert.ok(Buffer.from(PDU).equals(r.stdout));
});

test('riodp reassemble decision, Part 10 §3.2.5 segmentation rule 9: an aborted PDU is reported but is no error (exit 0)', async () => {
  const [s] = await segLines(PDU);
  const next = await segLines(bytes(5));
  const r = await reassemble({ mtu: '64' }, [s, serialHex(abort({ sourceID: 1, destinationID: 5, cos: 3 })), ...next].join('\n'));
  assert.equal(r.status, 0);
  assert.ok(Buffer.from(bytes(5)).equals(r.stdout), 'only the PDU after the abort is written');
  assert.equal(r.stderr, `riodp: line 2: Part 10 §3.2.5 segmentation rule 9: the source aborted the PDU of ${VSID} on the context ${CTX}, 64 bytes discarded (abort)\n`);
});

test('riodp reassemble decision: a PDU already reported defective (rule 4) is not reported again when the input ends before its end segment', async () => {
  const r = await reassemble({ mtu: '64' }, serialHex(start(bytes(32), 18, { sourceID: 1 })));
  assert.equal(r.status, 1);
  assert.deepEqual(stderrLines(r.stderr), ['riodp: line 1: Part 10 §3.2.5 reassembly rule 4: start segment of 32 bytes, MTU 64 (short segment)']);
});

test('Part 10 §3.2.4, §5.4.3 Table 5-5 SegSupport: with --seg-support 1 a second open PDU finds no context; it is reported and lost (exit 1)', async () => {
  const a = await segLines(bytes(100), { src: '1' });
  const b = await segLines(bytes(100, 9), { src: '2' });
  const r = await reassemble({ mtu: '64', segSupport: '1' }, [a[0], b[0], a[1], b[1]].join('\n'));
  assert.equal(r.status, 1);
  assert.ok(Buffer.from(bytes(100)).equals(r.stdout));
  assert.deepEqual(stderrLines(r.stderr), [
    'riodp: line 2: Part 10 §3.2.4: start segment on the context Dev8/src2/vc0/prio0/crf0 with all 1 segmentation contexts (SegSupport) open: the PDU of sourceID 2, destinationID 5, cos 3, streamID 18 is discarded (no context)',
    'riodp: line 4: Part 10 §3.2.5 reassembly rule 8: end segment on the closed context Dev8/src2/vc0/prio0/crf0: its start segment was lost (missing context)',
  ]);
});

test('Part 10 §3.2.5 reassembly rule 1: interleaved PDUs of three sources go to stdout concatenated in delivery order; blank and # lines count as lines', async () => {
  const a = await segLines(bytes(150, 1), { src: '1' });
  const b = await segLines(bytes(20, 2), { src: '2' });
  const c = await segLines(bytes(70, 3), { src: '3', flow: '8A' });
  const input = ['# three sources', a[0], '', b[0], c[0], a[1], c[1], '  ', a[2], 'zz'].join('\n');
  const r = await reassemble({ mtu: '64' }, input);
  assert.equal(r.status, 1);
  assert.ok(Buffer.concat([bytes(20, 2), bytes(70, 3), bytes(150, 1)]).equals(r.stdout));
  assert.deepEqual(stderrLines(r.stderr), ["riodp: line 10: hex at byte 0: 'z' is not a hex digit (input); the run stops here (--lenient skips bad lines)"]);
});

test('riodp reassemble --out-dir: one file per PDU named pdu-<order>-src-dst-cos-stream.bin (order zero-padded), the folder created, a file of the same name replaced; --out concatenates', async () => {
  const a = await segLines(bytes(150, 1), { src: '1', stream: '7' });
  const b = await segLines(bytes(20, 2), { src: '0x102', dest: '0x304', cos: '255', stream: '0xffff' });
  const input = [a[0], b[0], a[1], a[2], ...(await segLines(bytes(3), { src: '1', stream: '7' }))].join('\n');
  const dir = join(tempDir(), 'new', 'pdus');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'pdu-000002-src1-dst5-cos3-stream7.bin'), 'left from an earlier run, longer than the PDU of 150 bytes'.repeat(4));
  const r = await reassemble({ mtu: '64', outDir: dir }, input);
  assert.deepEqual([r.status, r.stderr, r.stdout.length], [0, '', 0]);
  assert.deepEqual(readdirSync(dir).sort(), [
    'pdu-000001-src258-dst772-cos255-stream65535.bin',
    'pdu-000002-src1-dst5-cos3-stream7.bin',
    'pdu-000003-src1-dst5-cos3-stream7.bin',
  ]);
  assert.ok(Buffer.from(bytes(20, 2)).equals(readFileSync(join(dir, 'pdu-000001-src258-dst772-cos255-stream65535.bin'))));
  assert.ok(Buffer.from(bytes(150, 1)).equals(readFileSync(join(dir, 'pdu-000002-src1-dst5-cos3-stream7.bin'))));
  const out = join(tempDir(), 'all.bin');
  const f = await reassemble({ mtu: '64', out }, input);
  assert.deepEqual([f.status, f.stdout.length], [0, 0]);
  assert.ok(Buffer.concat([bytes(20, 2), bytes(150, 1), bytes(3)]).equals(readFileSync(out)));
});

test('riodp reassemble usage errors (exit 2, one line): --mtu not an MTU, --seg-support out of range, --out with --out-dir', async () => {
  const cases: [Parameters<typeof reassemble>[0], string][] = [
    [{ mtu: '102' }, "riodp: --mtu '102' must be a multiple of 4 from 32 to 256 (Part 10 §5.5.1 Table 5-6 MTU)\n"],
    [{ segSupport: '65537' }, "riodp: --seg-support '65537' must be an integer from 0 (64k contexts) to 65536 (Part 10 §5.4.3 Table 5-5 SegSupport)\n"],
    [{ out: 'a.bin', outDir: 'b' }, 'riodp: --out and --out-dir exclude each other: give one place for the PDUs (docs/cli.md)\n'],
  ];
  for (const [flags, message] of cases) {
    const r = await reassemble(flags, '');
    assert.deepEqual([r.status, r.stderr, r.stdout.length], [2, message, 0]);
  }
  const all = await reassemble({ segSupport: '65536' }, (await segLines(bytes(9))).join('\n'));
  assert.deepEqual([all.status, all.stderr, all.stdout.length], [0, '', 9], '65536 is the field value 0, "64k segmentation contexts"');
});

test('riodp reassemble decision: --mtu defaults to 256, the largest MTU (Table 5-6) and the reassembler default', async () => {
  const at256 = await segLines(PDU, { mtu: '256' });
  const ok = await reassemble({}, at256.join('\n'));
  assert.deepEqual([ok.status, ok.stderr], [0, '']);
  const at64 = await segLines(PDU);
  const bad = await reassemble({}, at64.join('\n'));
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^riodp: line 1: Part 10 §3\.2\.5 reassembly rule 4: start segment of 64 bytes, MTU 256 \(short segment\)\n$/);
});

test('riodp reassemble as a process: reads FILE, writes the PDU to stdout, reports a damaged stream on stderr (exit 1); a FILE that cannot be read or an --out that cannot be written exits 1', async () => {
  const [s, c, e] = await segLines(PDU);
  const good = riodpBytes(['reassemble', '--mtu', '0x40', tempFile([s, c, e].join('\n'), 'trace.hex')]);
  assert.deepEqual([good.status, good.stderr], [0, '']);
  assert.ok(Buffer.from(PDU).equals(good.stdout));
  const damaged = riodpBytes(['reassemble', '--mtu', '64', '-'], [s, e].join('\n'));
  assert.equal(damaged.status, 1);
  assert.equal(damaged.stderr, 'riodp: line 2: Part 10 §3.2.5 reassembly rule 7: end segment gives PDU length 191, 127 bytes received, 64 bytes missing: a continuation segment was lost (PDU length error)\n');
  const gone = await reassemble({}, '', '/nonexistent/trace.hex');
  assert.deepEqual([gone.status, gone.stderr], [1, 'riodp: /nonexistent/trace.hex: cannot read it (ENOENT)\n']);
  const dir = tempDir();
  const folder = await reassemble({}, '', dir);
  assert.deepEqual([folder.status, folder.stderr], [1, `riodp: ${dir}: cannot read it (EISDIR)\n`]);
  const unwritable = await reassemble({ out: '/nonexistent/pdus.bin' }, [s, c, e].join('\n'));
  assert.deepEqual([unwritable.status, unwritable.stderr], [1, 'riodp: --out /nonexistent/pdus.bin: cannot write it (ENOENT)\n']);
  const usage = riodpBytes(['reassemble', '--mtu', '31']);
  assert.deepEqual([usage.status, usage.stderr], [2, "riodp: --mtu '31' must be a multiple of 4 from 32 to 256 (Part 10 §5.5.1 Table 5-6 MTU)\n"]);
});
