import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CaptureWriter } from '../../src/capture/writer.ts';
import { decodeItem } from '../../src/cli/layers.ts';
import { toJsonValue } from '../../src/cli/json/output.ts';
import { closeFrame, cs48Frame, cs64Frame, packetFrame } from '../../src/wire/frame.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { captureRecordLength, CAPTURE_KIND, encodeCaptureRecord } from '../../src/wire/pcapng/record.ts';
import type { CaptureRecord } from '../../src/wire/pcapng/record.ts';
import { writePcapng } from '../../src/wire/pcapng/encode.ts';
import { buildSymbol } from '../../src/wire/symbol.ts';
import { buildSymbol64 } from '../../src/wire/symbol64.ts';
import { riodp } from '../support/spawn.ts';

const dir = mkdtempSync(join(tmpdir(), 'riodp-decode-pcap-'));
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

const doorbell: Packet = { ackID: 9, vc: 0, crf: 0, prio: 2, tt: 1, ftype: 10, destinationID: 0x1234, sourceID: 7, rsrv: 0, srcTID: 3, info: 0xcafe };
const records: CaptureRecord[] = [
  packetFrame(doorbell),
  { kind: CAPTURE_KIND.packetCs24, kindName: 'packetCs24', packet: { ...doorbell, ackID: 30 } },
  cs48Frame(buildSymbol({ link: 'cs48', stype0: 0, parameter0: 5, parameter1: 1, stype1: 7, cmd: 0 })),
  cs64Frame(buildSymbol64({ link: 'cs64', stype0: 0, parameter0: 5, parameter1: 1, stype1: 0x24 })),
  { kind: CAPTURE_KIND.cs24, kindName: 'cs24', symbol: buildSymbol({ link: 'cs24', stype0: 4, parameter0: 5, parameter1: 8, stype1: 7, cmd: 0 }) },
  closeFrame(0, 'bye'),
];
const bytesOf = (r: CaptureRecord): Uint8Array => {
  const b = new Uint8Array(captureRecordLength(r));
  encodeCaptureRecord(r, b, 0);
  return b;
};

test('riodp capture §2: riodp decode --pcap --json prints each record as riodp decode prints its packet or symbol, with interface, time, direction and comments', () => {
  const path = join(dir, 'all.pcapng');
  const w = new CaptureWriter(path, { application: 'test' });
  const tx = w.interface('sw0.p1.tx');
  records.forEach((r, i) => w.write(tx, BigInt(i) * 1_000_000_001n, r, { direction: 'outbound', ...(i === 0 ? { comments: ['drop: no route'] } : {}) }));
  w.close();
  const run = riodp(['decode', '--pcap', path, '--json']);
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines.length, records.length);
  const body = (i: number): Uint8Array => bytesOf(records[i] as CaptureRecord).subarray(3);
  const same = (i: number, layer: 'serial' | 'symbol', link: 'cs24' | 'cs48' | 'cs64'): unknown =>
    toJsonValue(decodeItem(body(i), { layer, link, voqFormat: 'seed', lenient: false }));
  assert.deepEqual(lines[0], { record: 1, interface: 'sw0.p1.tx', timeNs: '0', direction: 'outbound', comments: ['drop: no route'], kind: 'packet', packet: same(0, 'serial', 'cs48') });
  assert.equal((lines[1]?.['packet'] as { ackID: number }).ackID, 30);
  assert.deepEqual(lines[1]?.['packet'], same(1, 'serial', 'cs24'));
  assert.deepEqual(lines[2]?.['symbol'], same(2, 'symbol', 'cs48'));
  assert.deepEqual(lines[3]?.['symbol'], same(3, 'symbol', 'cs64'));
  assert.deepEqual(lines[4]?.['symbol'], same(4, 'symbol', 'cs24'));
  assert.deepEqual(lines.map((l) => l['kind']), ['packet', 'packetCs24', 'cs48', 'cs64', 'cs24', 'close']);
  assert.deepEqual(lines[5]?.['frame'], { kind: 0x11, kindName: 'close', reason: 0, reasonName: 'normal', text: 'bye' });
  assert.equal(lines[3]?.['timeNs'], '3000000003');
  const tree = riodp(['decode', '--pcap', path]);
  assert.equal(tree.status, 0);
  assert.match(tree.stdout, /^record 1 {2}sw0\.p1\.tx {2}0\.000000000 s {2}outbound {2}packet\n# drop: no route\nserial packet: Type 10 DOORBELL, Dev16/);
});

test('riodp capture §2: a record that does not decode is one stderr line and the run goes on (exit 1); other link types are passed over', () => {
  const good = bytesOf(packetFrame(doorbell));
  const badCrc = good.slice();
  badCrc[good.length - 3] = (badCrc[good.length - 3] as number) ^ 1;
  const path = join(dir, 'bad.pcapng');
  writeFileSync(
    path,
    writePcapng({
      interfaces: [{ name: 'ep.p0.rx', linkType: 147 }, { name: 'eth0', linkType: 1 }],
      packets: [
        { interfaceId: 0, timestamp: 1n, data: badCrc },
        { interfaceId: 1, timestamp: 2n, data: new Uint8Array(60) },
        { interfaceId: 0, timestamp: 3n, data: good },
      ],
    }),
  );
  const run = riodp(['decode', '--pcap', path, '--json']);
  assert.equal(run.status, 1);
  assert.equal(run.stdout.trim().split('\n').length, 1);
  assert.match(run.stderr, /^riodp: record 1 \(ep\.p0\.rx\): crc at byte \d+: .*\(Part 6 §2\.4\.1\)\n/);
  assert.match(run.stderr, /1 record\(s\) on interfaces whose link type is not USER0 \(147\) were passed over/);
});

test('riodp decode --pcap: a file that is not pcapng, is missing, or comes with hex items or --layer is one line', () => {
  const notPcap = join(dir, 'x.txt');
  writeFileSync(notPcap, 'hello world, not a capture');
  const a = riodp(['decode', '--pcap', notPcap]);
  assert.deepEqual([a.status, a.stderr], [1, `riodp: ${notPcap} is not a pcapng file (it does not start with a Section Header Block)\n`]);
  const b = riodp(['decode', '--pcap', join(dir, 'missing.pcapng')]);
  assert.equal(b.status, 1);
  assert.match(b.stderr, /^riodp: cannot read .*missing\.pcapng \(ENOENT\)\n$/);
  const c = riodp(['decode', '--pcap', notPcap, '--layer', 'symbol']);
  assert.deepEqual([c.status, c.stderr], [2, 'riodp: --pcap reads its records from the file: --layer cannot be given with it\n']);
  const d = riodp(['decode', '--pcap', notPcap, '00']);
  assert.equal(d.status, 2);
});
