import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { closeFrame, packetFrame } from '../wire/frame.ts';
import type { Packet } from '../wire/packet.ts';
import { decodePcapng } from '../wire/pcapng/decode.ts';
import { decodeCaptureRecord } from '../wire/pcapng/record.ts';
import { CaptureWriter } from './writer.ts';

const doorbell = (info: number): Packet => ({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 0, info });

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-capture-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('riodp capture §1, §3, §5: interfaces named per link direction, records in call order with time, direction and comments', () => {
  withDir((dir) => {
    const path = join(dir, 'a.pcapng');
    const w = new CaptureWriter(path, { application: 'riodp test', comment: 'two links' });
    const tx = w.interface('sw0.p1.tx', 'to ep1');
    const rx = w.interface('sw0.p1.rx');
    assert.equal(w.interface('sw0.p1.tx'), tx);
    // More than one buffer's worth, so that flushing in the middle keeps the order.
    for (let i = 0; i < 5000; i++) assert.ok(w.write(i % 2 === 0 ? tx : rx, BigInt(i) * 1000n, packetFrame(doorbell(i & 0xffff)), { direction: i % 2 === 0 ? 'outbound' : 'inbound' }));
    assert.ok(w.write(rx, 5_000_000n, closeFrame(0, 'bye'), { comments: ['drop: no route to 9'] }));
    const sum = w.close();
    const bytes = readFileSync(path);
    assert.equal(sum.bytes, bytes.length);
    assert.equal(sum.records, 5001);
    const file = decodePcapng(bytes);
    assert.deepEqual(file.interfaces.map((i) => [i.name, i.description, i.tsresol]), [['sw0.p1.tx', 'to ep1', 9], ['sw0.p1.rx', undefined, 9]]);
    assert.equal(file.packets.length, 5001);
    file.packets.slice(0, 5000).forEach((p, i) => {
      const r = decodeCaptureRecord(p.data, 0, p.data.length);
      assert.ok(r.kindName === 'packet' && r.packet.ftype === 10);
      assert.equal(r.packet.info, i & 0xffff);
      assert.equal(p.timestampNs, BigInt(i) * 1000n);
      assert.equal(p.direction, i % 2 === 0 ? 'outbound' : 'inbound');
    });
    assert.deepEqual(file.packets[5000]?.comments, ['drop: no route to 9']);
  });
});

test('riodp capture: past maxRecords or maxBytes nothing more is recorded, and what was left out is counted', () => {
  withDir((dir) => {
    const byCount = new CaptureWriter(join(dir, 'n.pcapng'), { application: 't', maxRecords: 3 });
    const i = byCount.interface('ep.p0.tx');
    const kept = [0, 1, 2, 3, 4].map((k) => byCount.write(i, BigInt(k), packetFrame(doorbell(k))));
    assert.deepEqual(kept, [true, true, true, false, false]);
    assert.deepEqual({ ...byCount.close(), path: '' }, { path: '', records: 3, bytes: readFileSync(join(dir, 'n.pcapng')).length, notRecorded: 2 });
    const bySize = new CaptureWriter(join(dir, 's.pcapng'), { application: 't', maxBytes: 400 });
    const j = bySize.interface('ep.p0.tx');
    let n = 0;
    while (bySize.write(j, 0n, packetFrame(doorbell(n)))) n++;
    const s = bySize.close();
    assert.ok(s.bytes <= 400 && s.records === n && s.notRecorded === 1);
    assert.equal(decodePcapng(readFileSync(join(dir, 's.pcapng'))).packets.length, n);
  });
});

test('riodp capture: a file that cannot be created is the file system error, at once', () => {
  assert.throws(() => new CaptureWriter('/nonexistent-dir/x.pcapng', { application: 't' }), /ENOENT/);
});
