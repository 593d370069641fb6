import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cs48Frame } from '../../src/wire/frame.ts';
import { captureRecordLength, encodeCaptureRecord } from '../../src/wire/pcapng/record.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { writePcapng } from '../../src/wire/pcapng/encode.ts';
import type { PcapngPacket } from '../../src/wire/pcapng/format.ts';
import { buildSymbol } from '../../src/wire/symbol.ts';
import { bytes } from '../support/type9-segments.ts';
import { BASE, reassemble, segment, tempDir } from './streaming-cli.ts';

/** The records of `riodp segment --pcap` for a PDU. */
async function segmentRecords(pdu: Uint8Array, stream: string): Promise<Uint8Array[]> {
  const path = join(tempDir(), 'seg.pcapng');
  const ran = await segment({ ...BASE, stream, pcap: path }, pdu);
  assert.equal(ran.status, 0, ran.stderr);
  return decodePcapng(readFileSync(path)).packets.map((p) => p.data.slice());
}

const symbol = (): Uint8Array => {
  const f = cs48Frame(buildSymbol({ link: 'cs48', stype0: 0, parameter0: 1, parameter1: 2, stype1: 7, cmd: 0 }));
  const b = new Uint8Array(captureRecordLength(f));
  encodeCaptureRecord(f, b, 0);
  return b;
};

function capture(packets: readonly PcapngPacket[], names = ['ep1.p0.rx']): string {
  const path = join(tempDir(), 'c.pcapng');
  writeFileSync(path, writePcapng({ interfaces: names.map((name) => ({ name, linkType: 147 })), packets }));
  return path;
}

test('Part 10 §3.2.5 reassembly rules 1–7, riodp capture §2: riodp reassemble --pcap gives back the PDU riodp segment --pcap captured; symbols are passed over and counted', async () => {
  const pdu = bytes(300, 3);
  const recs = await segmentRecords(pdu, '0x12');
  const packets: PcapngPacket[] = [];
  recs.forEach((data, i) => packets.push({ interfaceId: 0, timestamp: BigInt(2 * i), data }, { interfaceId: 0, timestamp: BigInt(2 * i + 1), data: symbol() }));
  const ran = await reassemble({ mtu: '64', pcap: capture(packets) });
  assert.equal(ran.status, 0, ran.stderr);
  assert.deepEqual([...ran.stdout], [...pdu]);
  assert.equal(ran.stderr, `riodp: summary: ${recs.length} Type 9 packets reassembled, 0 packets not Type 9 passed over, ${recs.length} records without a packet passed over, 0 bad records skipped; 1 PDU delivered, 0 lost\n`);
});

test('riodp reassemble --pcap: with Type 9 on two interfaces, --interface chooses; without it, one usage line names them', async () => {
  const a = bytes(100, 1);
  const b = bytes(90, 2);
  const ra = await segmentRecords(a, '1');
  const rb = await segmentRecords(b, '2');
  const packets = [...ra.map((data) => ({ interfaceId: 0, timestamp: 0n, data })), ...rb.map((data) => ({ interfaceId: 1, timestamp: 1n, data }))];
  const path = capture(packets, ['sw0.p1.rx', 'sw0.p2.tx']);
  const both = await reassemble({ mtu: '64', pcap: path });
  assert.deepEqual([both.status, both.stderr], [2, `riodp: ${path} has Type 9 packets on sw0.p1.rx, sw0.p2.tx: choose one with --interface\n`]);
  const second = await reassemble({ mtu: '64', pcap: path, interface: 'sw0.p2.tx' });
  assert.equal(second.status, 0, second.stderr);
  assert.deepEqual([...second.stdout], [...b]);
  const none = await reassemble({ mtu: '64', pcap: path, interface: 'sw9.p0.rx' });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /--interface sw9\.p0\.rx: .* has no riodp interface of that name \(it has sw0\.p1\.rx, sw0\.p2\.tx\)/);
});

test('Part 6 §2.4.1, riodp capture §2: a record with a bad CRC stops the run at its record number; --lenient reports it and goes on', async () => {
  const recs = await segmentRecords(bytes(100, 4), '3');
  const bad = recs.map((r) => r.slice());
  const second = bad[1];
  assert.ok(second);
  second[10] = (second[10] as number) ^ 0xff;
  const path = capture(bad.map((data, i) => ({ interfaceId: 0, timestamp: BigInt(i), data })));
  const strict = await reassemble({ mtu: '64', pcap: path });
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /^riodp: record 2: crc at byte \d+: .* the run stops here \(--lenient skips bad records\)\n$/);
  const lenient = await reassemble({ mtu: '64', pcap: path, lenient: true });
  assert.equal(lenient.status, 1);
  assert.match(lenient.stderr, /^riodp: record 2: crc at byte/);
  assert.match(lenient.stderr, /1 bad record skipped; 0 PDUs delivered, 1 lost\n$/);
});

test('riodp reassemble: --interface needs --pcap, --pcap takes no FILE argument, a file that is not pcapng is one line', async () => {
  const a = await reassemble({ interface: 'x' });
  assert.deepEqual([a.status, a.stderr], [2, 'riodp: --interface chooses among the interfaces of a capture: it needs --pcap\n']);
  const notPcap = join(tempDir(), 'n.txt');
  writeFileSync(notPcap, '000905\n');
  const b = await reassemble({ pcap: notPcap }, '', 'other.txt');
  assert.deepEqual([b.status, b.stderr], [2, `riodp: --pcap reads the packets from ${notPcap}: the argument other.txt cannot be given with it\n`]);
  const c = await reassemble({ pcap: notPcap });
  assert.deepEqual([c.status, c.stderr], [1, `riodp: ${notPcap}: not a pcapng file (it does not start with a Section Header Block)\n`]);
});
