import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bytes } from '../support/type9-segments.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { toHex } from '../../src/wire/hex.ts';
import { BASE, BASE_ARGS, RIODP_SH, outLines, reassemble, riodpBytes, segment, shell, tempFile } from './streaming-cli.ts';

const MTUS = [32, 64, 256] as const;
const sizes = (mtu: number): number[] => [1, mtu - 1, mtu, mtu + 1, 3 * mtu - 1, 65536];

test('Part 10 §3.2.5 segmentation rules 2–8, reassembly rules 1–7: riodp segment FILE | riodp reassemble --mtu gives the PDU back byte for byte (real pipes)', () => {
  // One pipeline per size, the MTUs taking turns: each pipeline costs two Node start-ups.
  const cases: [number, number][] = [[32, 1], [64, 63], [256, 256], [32, 33], [64, 191], [32, 65536]];
  for (const [mtu, n] of cases) {
    const pdu = bytes(n, n);
    const file = tempFile(pdu);
    const r = shell(`${RIODP_SH} segment --mtu ${mtu} --cos 3 --stream 0x12 --dest 5 --src 1 '${file}' | ${RIODP_SH} reassemble --mtu ${mtu}`);
    assert.equal(r.stderr, '', `MTU ${mtu}, ${n} bytes`);
    assert.equal(r.status, 0, `MTU ${mtu}, ${n} bytes`);
    assert.ok(Buffer.from(pdu).equals(r.stdout), `MTU ${mtu}, ${n} bytes: the PDU comes back byte for byte`);
  }
});

test('Part 10 §3.2.5 segmentation rules 2–8, reassembly rules 1–7: segment → reassemble round trip for 1, MTU−1, MTU, MTU+1, 3·MTU−1 and 65536 bytes at MTU 32, 64 and 256', async () => {
  for (const mtu of MTUS) {
    for (const n of sizes(mtu)) {
      const pdu = bytes(n, mtu + n);
      const s = await segment({ ...BASE, mtu: String(mtu) }, pdu);
      assert.deepEqual([s.status, s.stderr], [0, ''], `segment MTU ${mtu}, ${n} bytes`);
      assert.equal(outLines(s.stdout).length, Math.ceil(n / mtu), `one line per segment: MTU ${mtu}, ${n} bytes`);
      const r = await reassemble({ mtu: String(mtu) }, s.stdout.toString());
      assert.deepEqual([r.status, r.stderr], [0, ''], `reassemble MTU ${mtu}, ${n} bytes`);
      assert.ok(Buffer.from(pdu).equals(r.stdout), `MTU ${mtu}, ${n} bytes: byte-identical`);
    }
  }
});

test('Part 10 §4.2, Part 6 §2.3–2.4: riodp segment --json prints each segment as riodp decode --json prints its hex line', () => {
  const file = tempFile(bytes(150));
  const hex = riodpBytes(['segment', ...BASE_ARGS, file]);
  const json = riodpBytes(['segment', ...BASE_ARGS, '--json', file]);
  const decoded = riodpBytes(['decode', '--json'], hex.stdout);
  assert.deepEqual([hex.status, json.status, decoded.status], [0, 0, 0]);
  assert.equal(json.stderr + decoded.stderr, '');
  assert.equal(json.stdout.toString(), decoded.stdout.toString());
  const segs = outLines(json.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(segs.map((s) => s['segment']), ['start', 'continuation', 'end']);
  assert.deepEqual(segs.map((s) => (s['payload'] as string).length / 2), [64, 64, 22]);
  assert.deepEqual([segs[0]!['destinationID'], segs[0]!['sourceID'], segs[0]!['cos'], segs[0]!['streamID'], segs[2]!['pduLength']], [5, 1, 3, 0x12, 150]);
});

test('riodp segment decision: every segment has ackID 0 and is Dev8 when --dest and --src fit 8 bits (Part 3 §2.4)', async () => {
  const r = await segment({ ...BASE, json: true }, bytes(200));
  const segs = outLines(r.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(segs.length, 4);
  for (const s of segs) assert.deepEqual([s['ackID'], s['tt']], [0, 0]);
});

test('riodp segment decision, Part 3 §2.4 tt: without --tt the smallest transport type that holds --dest and --src', async () => {
  const tts: number[] = [];
  for (const [dest, src] of [['0xff', '0'], ['0x100', '0'], ['5', '0xffff'], ['0x10000', '1'], ['1', '0xffffffff']] as const) {
    const r = await segment({ ...BASE, dest, src, json: true }, bytes(4));
    assert.equal(r.status, 0);
    tts.push((JSON.parse(r.stdout.toString()) as { tt: number }).tt);
  }
  assert.deepEqual(tts, [0, 1, 1, 2, 2]);
  const wide = await segment({ ...BASE, tt: '2', json: true }, bytes(4));
  assert.equal((JSON.parse(wide.stdout.toString()) as { tt: number; destinationID: number }).tt, 2);
});

test('Part 10 §3.2.4, §2.4, Part 6 Tables 2-2/6-7: --flow sets the VC, prio and CRF of every segment (default 0A)', async () => {
  const fields = async (flow?: string): Promise<number[][]> => {
    const r = await segment({ ...BASE, json: true, ...(flow === undefined ? {} : { flow }) }, bytes(100));
    return outLines(r.stdout).map((l) => {
      const s = JSON.parse(l) as { vc: number; prio: number; crf: number };
      return [s.vc, s.prio, s.crf];
    });
  };
  assert.deepEqual(await fields(), [[0, 0, 0], [0, 0, 0]]);
  assert.deepEqual(await fields('0F'), [[0, 2, 1], [0, 2, 1]]);
  assert.deepEqual(await fields('8A'), [[1, 3, 1], [1, 3, 1]]);
});

test('Part 10 §4.2 Table 4-1 length: a 65536-byte PDU ends with length 0x0000 and a 1-byte PDU is one single segment with a pad byte', async () => {
  const big = await segment({ ...BASE, mtu: '256', json: true }, bytes(65536));
  const last = JSON.parse(outLines(big.stdout).at(-1)!) as { segment: string; length: number; pduLength: number };
  assert.deepEqual([last.segment, last.length, last.pduLength], ['end', 0, 65536]);
  const one = await segment({ ...BASE, json: true }, bytes(1));
  const s = JSON.parse(one.stdout.toString()) as { segment: string; odd: number; pad: number; payload: string };
  assert.deepEqual([s.segment, s.odd, s.pad, s.payload.length], ['single', 1, 1, 2]);
});

/** In-process usage errors: exit 2, exactly one stderr line, nothing on stdout. */
async function usage(flags: Parameters<typeof segment>[0], pdu: Uint8Array, message: RegExp): Promise<void> {
  const r = await segment(flags, pdu);
  assert.equal(r.status, 2, JSON.stringify(flags));
  assert.equal(r.stdout.length, 0);
  assert.equal(outLines(r.stderr).length, 1, r.stderr);
  assert.match(r.stderr, message);
  assert.match(r.stderr, /^riodp: .*\)\n$/);
}

test('Part 10 §5.5.1 Table 5-6 MTU, DECISIONS §6: --mtu must be a multiple of 4 from 32 to 256 (usage error, exit 2)', async () => {
  for (const mtu of ['30', '28', '260', '33', '0x104', '', 'abc', '-32', '64.0']) {
    await usage({ ...BASE, mtu }, bytes(10), new RegExp(`^riodp: --mtu '${mtu.replace('.', '\\.')}' must be a multiple of 4 from 32 to 256 \\(Part 10 §5\\.5\\.1 Table 5-6 MTU\\)$`, 'm'));
  }
  const r = await segment({ ...BASE, mtu: '0x20', json: true }, bytes(40));
  assert.equal(outLines(r.stdout).length, 2, '0x20 is MTU 32');
});

test('riodp segment: --mtu, --dest, --src, --cos and --stream are required (usage error, exit 2)', async () => {
  for (const option of ['mtu', 'dest', 'src', 'cos', 'stream'] as const) {
    const flags = Object.fromEntries(Object.entries(BASE).filter(([k]) => k !== option));
    await usage(flags, bytes(10), new RegExp(`^riodp: --${option} is required: `));
  }
});

test('Part 10 §4.2 Table 4-1: --cos 0..255 and --stream 0..0xFFFF (usage error, exit 2)', async () => {
  await usage({ ...BASE, cos: '256' }, bytes(10), /^riodp: --cos '256' must be an integer from 0 to 255 \(Part 10 §4\.2 Table 4-1\)$/m);
  await usage({ ...BASE, stream: '0x10000' }, bytes(10), /^riodp: --stream '0x10000' must be an integer from 0 to 65535 \(Part 10 §4\.2 Table 4-1\)$/m);
  await usage({ ...BASE, stream: '1e3' }, bytes(10), /--stream '1e3' must be/);
});

test('Part 3 §2.4 tt: IDs must fit --tt, --tt is 0, 1 or 2, IDs at most 32 bits (usage error, exit 2)', async () => {
  await usage({ ...BASE, dest: '256', tt: '0' }, bytes(10), /^riodp: --dest '256' must be a device ID for tt 0 \(Part 3 §2\.4 tt\)$/m);
  await usage({ ...BASE, src: '0x10000', tt: '1' }, bytes(10), /^riodp: --src '0x10000' must be a device ID for tt 1 \(Part 3 §2\.4 tt\)$/m);
  await usage({ ...BASE, tt: '3' }, bytes(10), /^riodp: --tt '3' must be 0 \(Dev8\), 1 \(Dev16\) or 2 \(Dev32\) \(Part 3 §2\.4 tt\)$/m);
  await usage({ ...BASE, dest: '0x100000000' }, bytes(10), /^riodp: --dest '0x100000000' must be a device ID of at most 32 bits/m);
});

test('Part 9 §3.2 Table 3-1: --flow must be one of 0A–0F, 1A–8A (usage error, exit 2)', async () => {
  await usage({ ...BASE, flow: '9A' }, bytes(10), /^riodp: --flow '9A' must be one of 0A–0F, 1A–8A \(Part 9 §3\.2 Table 3-1\)$/m);
});

test('Part 10 §4.2 Table 4-1 length, §5.4.3 Table 5-5 MaxPDU: the PDU must be 1..65536 bytes and at most --max-pdu (usage error, exit 2)', async () => {
  await usage(BASE, new Uint8Array(0), /^riodp: the PDU \(stdin, 0 bytes\) must be at least 1 byte \(Part 10 §4\.2 Table 4-1 length\)$/m);
  await usage(BASE, bytes(65537), /^riodp: the PDU \(stdin, 65537 bytes\) must be at most 65536 bytes, not 65537 \(Part 10 §4\.2 Table 4-1 length\)$/m);
  await usage({ ...BASE, maxPdu: '100' }, bytes(101), /^riodp: the PDU \(stdin, 101 bytes\) must be at most the destination's MaxPDU of 100 bytes, not 101 \(Part 10 §3\.2\.4, §5\.4\.3 Table 5-5 MaxPDU\)$/m);
  await usage({ ...BASE, maxPdu: '0' }, bytes(1), /^riodp: --max-pdu '0' must be an integer from 1 to 65536 \(Part 10 §5\.4\.3 Table 5-5 MaxPDU\)$/m);
  await usage({ ...BASE, maxPdu: '65537' }, bytes(1), /--max-pdu '65537' must be/);
  const ok = await segment({ ...BASE, maxPdu: '0x64' }, bytes(100));
  assert.equal(ok.status, 0, 'a PDU of exactly MaxPDU is accepted');
});

test('riodp segment as a process: a usage error is one stderr line and exit 2; an unknown option exits 2; a FILE that cannot be read exits 1', () => {
  const file = tempFile(bytes(10));
  const missing = riodpBytes(['segment', '--dest', '5', '--src', '1', '--cos', '3', '--stream', '0x12', file]);
  assert.deepEqual([missing.status, missing.stdout.length], [2, 0]);
  assert.match(missing.stderr, /^riodp: --mtu is required: the MTU in bytes, a multiple of 4 from 32 to 256 \(Part 10 §5\.5\.1 Table 5-6 MTU\)\n$/);
  const bogus = riodpBytes(['segment', ...BASE_ARGS, '--bogus', file]);
  assert.equal(bogus.status, 2);
  assert.match(bogus.stderr, /unknown option '--bogus'/);
  const gone = riodpBytes(['segment', ...BASE_ARGS, `${file}.missing`]);
  assert.deepEqual([gone.status, gone.stdout.length], [1, 0]);
  assert.equal(gone.stderr, `riodp: ${file}.missing: cannot read it (ENOENT)\n`);
});

test("riodp segment: FILE '-' and no FILE both read the PDU from stdin", () => {
  const pdu = bytes(70);
  const dash = riodpBytes(['segment', ...BASE_ARGS, '-'], pdu);
  const none = riodpBytes(['segment', ...BASE_ARGS], pdu);
  const file = riodpBytes(['segment', ...BASE_ARGS, tempFile(pdu)]);
  assert.deepEqual([dash.status, none.status, file.status], [0, 0, 0]);
  assert.equal(outLines(dash.stdout).length, 2);
  assert.equal(dash.stdout.toString(), file.stdout.toString());
  assert.equal(none.stdout.toString(), file.stdout.toString());
});

test('riodp --help lists segment and reassemble; their --help lists their options', () => {
  const top = riodpBytes(['--help']);
  assert.match(top.stdout.toString(), /^ {2}segment \[options\] \[file\]/m);
  assert.match(top.stdout.toString(), /^ {2}reassemble \[options\] \[file\]/m);
  const seg = riodpBytes(['segment', '--help']).stdout.toString();
  for (const o of ['--mtu <bytes>', '--dest <id>', '--src <id>', '--cos <n>', '--stream <id>', '--flow <flow>', '--tt <tt>', '--max-pdu <bytes>', '--json']) {
    assert.ok(seg.includes(o), `segment --help lists ${o}`);
  }
  const re = riodpBytes(['reassemble', '--help']).stdout.toString();
  for (const o of ['--mtu <bytes>', '--seg-support <n>', '--out <file>', '--out-dir <dir>']) assert.ok(re.includes(o), `reassemble --help lists ${o}`);
});

test('docs/cli.md: the riodp segment example (a 70-byte PDU at MTU 64: start 64, end 6) is what the command prints', async () => {
  const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const block = /^\$ riodp segment --mtu 64 --cos 3 --stream 0x12 --dest 5 --src 1 pdu70\.bin.*\n((?:[0-9a-f]+\n)+)```/m.exec(doc);
  assert.ok(block, 'the example is in docs/cli.md');
  const r = await segment(BASE, Uint8Array.from({ length: 70 }, (_, i) => i));
  assert.equal(r.stdout.toString(), block[1]);
});

test('riodp capture §2, §3: riodp segment --pcap writes the segments it prints as PACKET records of segment.tx, in order', async () => {
  const pdu = bytes(200, 7);
  const path = `${tempFile('', 'unused')}.pcapng`;
  const ran = await segment({ ...BASE, pcap: path }, pdu);
  assert.equal(ran.status, 0, ran.stderr);
  const lines = outLines(ran.stdout);
  const file = decodePcapng(readFileSync(path));
  assert.deepEqual(file.interfaces.map((i) => i.name), ['segment.tx']);
  assert.deepEqual(file.packets.map((p) => toHex(p.data.subarray(3))), lines);
  assert.deepEqual(file.packets.map((p) => p.timestampNs), lines.map((_, i) => BigInt(i)));
  const bad = await segment({ ...BASE, pcap: '/nonexistent-dir/x.pcapng' }, pdu);
  assert.deepEqual([bad.status, bad.stderr], [1, 'riodp: /nonexistent-dir/x.pcapng: cannot write it (ENOENT)\n']);
});
