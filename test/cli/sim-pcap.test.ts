import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { decodeCaptureRecord } from '../../src/wire/pcapng/record.ts';
import { riodp } from '../support/spawn.ts';

const dir = mkdtempSync(join(tmpdir(), 'riodp-sim-pcap-'));
after(() => { rmSync(dir, { recursive: true, force: true }); });
const scenario = join(dir, 'tiny.yaml');
// One variant: its captures go straight into DIR (several variants get a folder each).
writeFileSync(scenario, `name: one
seed: 3
duration: 20us
warmup: 5us
topology: { kind: switch, hosts: 3 }
switch: { speedup: 4, congestion: { highWatermark: 4, lowWatermark: 2 } }
traffic:
  - { group: hot, pattern: incast, sink: 0, load: 0.6 }
`);

interface PcapJson {
  dir: string;
  records: number;
  bytes: number;
  notRecorded: number;
  afterUntil: number;
  files: { path: string; variant: string; link: string; records: number; bytes: number; notRecorded: number; afterUntil: number }[];
}

test('docs/cli.md riodp sim --pcap DIR: one capture per link (in DIR itself for a one-variant scenario), limits counted in the JSON summary', () => {
  const caps = join(dir, 'caps');
  const r = riodp(['sim', scenario, '--out', join(dir, 'report'), '--pcap', caps, '--pcap-max-bytes', '4KiB', '--pcap-until', '15us', '--json']);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const pcap = (JSON.parse(r.stdout) as { pcap: PcapJson }).pcap;
  assert.equal(pcap.dir, caps);
  const names = [0, 1, 2].map((h) => `h${h}.p0-s0.p${h}.pcapng`);
  assert.deepEqual(readdirSync(caps).sort(), names);
  assert.deepEqual(pcap.files.map((f) => [f.variant, f.link, f.path]), names.map((n, h) => ['one', `h${h}`, join(caps, n)]));
  assert.equal(pcap.records, pcap.files.reduce((n, f) => n + f.records, 0));
  assert.ok(pcap.notRecorded > 0, 'the 4 KiB files filled up');
  for (const f of pcap.files) {
    const bytes = readFileSync(f.path);
    assert.ok(bytes.length <= 4096);
    assert.equal(statSync(f.path).size, f.bytes);
    const file = decodePcapng(bytes);
    assert.equal(file.packets.length, f.records);
    for (const p of file.packets) {
      assert.ok(p.timestampNs <= 15_000n);
      decodeCaptureRecord(p.data, 0, p.data.length, { strict: true });
    }
  }
});

test('docs/cli.md riodp sim --pcap: a folder that cannot be made is one line and exit 1, before the simulation', () => {
  const r = riodp(['sim', scenario, '--out', join(dir, 'r2'), '--pcap', join(scenario, 'caps')]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^riodp sim: cannot write the captures to .*tiny\.yaml\/caps: ENOTDIR[^\n]*\n$/);
  assert.equal(existsSync(join(dir, 'r2', 'index.html')), false);
});

test('docs/cli.md riodp sweep: --pcap is refused with one line and exit 2 (a sweep does not capture)', () => {
  const r = riodp(['sweep', scenario, '--pcap', join(dir, 'sweep-caps')]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'riodp sweep: --pcap: a sweep does not capture its links (its points run in worker threads); run one point with riodp sim SCENARIO --pcap DIR\n');
  assert.equal(existsSync(join(dir, 'sweep-caps')), false);
});
