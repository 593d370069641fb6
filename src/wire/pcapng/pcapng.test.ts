import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WireError } from '../errors.ts';
import { closeFrame, cs48Frame, packetFrame } from '../frame.ts';
import type { Packet } from '../packet.ts';
import { buildSymbol } from '../symbol.ts';
import { decodePcapng, isPcapng, readPcapng, timestampToNs } from './decode.ts';
import { encodeEnhancedPacket, encodeInterfaceDescription, encodeSectionHeader, enhancedPacketLength, interfaceDescriptionLength, sectionHeaderLength } from './encode.ts';
import { LINKTYPE_USER0, PCAPNG_BLOCK } from './format.ts';
import type { PcapngInterface, PcapngPacket, PcapngSection } from './format.ts';
import { CAPTURE_KIND, captureRecordLength, decodeCaptureRecord, encodeCaptureRecord } from './record.ts';
import type { CaptureRecord } from './record.ts';

const doorbell: Packet = { ackID: 3, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef };

function record(r: CaptureRecord): Uint8Array {
  const b = new Uint8Array(captureRecordLength(r));
  assert.equal(encodeCaptureRecord(r, b, 0), b.length);
  return b;
}

function file(section: PcapngSection, ifaces: readonly PcapngInterface[], packets: readonly PcapngPacket[]): Uint8Array {
  const n = sectionHeaderLength(section) + ifaces.reduce((s, i) => s + interfaceDescriptionLength(i), 0) + packets.reduce((s, p) => s + enhancedPacketLength(p), 0);
  const out = new Uint8Array(n);
  let at = encodeSectionHeader(section, out, 0);
  for (const i of ifaces) at = encodeInterfaceDescription(i, out, at);
  for (const p of packets) at = encodeEnhancedPacket(p, out, at);
  assert.equal(at, n);
  return out;
}

/** The same blocks in the other byte order: every 32-bit word of the block frame and fixed fields swapped. */
function bigEndianFile(): Uint8Array {
  const words = (...w: number[]): number[] => w.flatMap((x) => [(x >>> 24) & 0xff, (x >>> 16) & 0xff, (x >>> 8) & 0xff, x & 0xff]);
  const shb = [...words(0x0a0d0d0a, 28, 0x1a2b3c4d), 0, 1, 0, 0, ...words(0xffffffff, 0xffffffff, 28)];
  // IDB: linktype 147, snaplen 0, if_tsresol 3 (milliseconds), end of options.
  const idb = [...words(1, 32), 0, 147, 0, 0, ...words(0), 0, 9, 0, 1, 3, 0, 0, 0, ...words(0, 32)];
  const data = record(packetFrame(doorbell));
  const padded = [...data, ...new Array<number>((4 - (data.length % 4)) % 4).fill(0)];
  const epbLen = 32 + padded.length;
  const epb = [...words(6, epbLen, 0, 0, 5000, data.length, data.length), ...padded, ...words(epbLen)];
  return Uint8Array.from([...shb, ...idb, ...epb]);
}

test('pcapng §4.1–§4.3: a section, two link directions and their packets read back as written', () => {
  const ifaces: PcapngInterface[] = [
    { name: 'sw0.p2.tx', linkType: LINKTYPE_USER0, description: 'riodp link sw0 port 2, transmit' },
    { name: 'sw0.p2.rx', linkType: LINKTYPE_USER0 },
  ];
  const a = record(packetFrame(doorbell));
  const b = record(cs48Frame(buildSymbol({ link: 'cs48', stype0: 0, parameter0: 1, parameter1: 2, stype1: 7, cmd: 0 })));
  const packets: PcapngPacket[] = [
    { interfaceId: 0, timestamp: 1_700_000_000_123_456_789n, data: a, direction: 'outbound', comments: ['defect: crc', 'second'] },
    { interfaceId: 1, timestamp: 5n, data: b },
  ];
  const bytes = file({ application: 'riodp test', comment: 'a capture' }, ifaces, packets);
  assert.ok(isPcapng(bytes));
  const got = decodePcapng(bytes);
  assert.deepEqual(
    got.interfaces.map((i) => [i.name, i.linkType, i.tsresol, i.description, i.section]),
    [
      ['sw0.p2.tx', 147, 9, 'riodp link sw0 port 2, transmit', 0],
      ['sw0.p2.rx', 147, 9, undefined, 0],
    ],
  );
  assert.equal(got.packets.length, 2);
  const [p0, p1] = got.packets;
  assert.ok(p0 && p1);
  assert.deepEqual([...p0.data], [...a]);
  assert.equal(p0.timestampNs, 1_700_000_000_123_456_789n);
  assert.equal(p0.direction, 'outbound');
  assert.deepEqual(p0.comments, ['defect: crc', 'second']);
  assert.equal(p0.originalLength, a.length);
  assert.equal(p1.interface, 1);
  assert.equal(p1.direction, undefined);
  assert.deepEqual([...p1.data], [...b]);
  assert.equal(got.skippedBlocks, 0);
});

test('pcapng §4.1: a big-endian section reads the same; if_tsresol 3 gives nanoseconds ×10^6', () => {
  const got = decodePcapng(bigEndianFile());
  assert.equal(got.interfaces[0]?.tsresol, 3);
  assert.equal(got.packets[0]?.timestampNs, 5_000_000_000n);
  const p = got.packets[0];
  assert.ok(p);
  const r = decodeCaptureRecord(p.data, 0, p.data.length);
  assert.equal(r.kindName, 'packet');
});

test('pcapng §4.2 if_tsresol: powers of ten and of two convert to nanoseconds', () => {
  assert.equal(timestampToNs(7n, 9), 7n);
  assert.equal(timestampToNs(7n, 6), 7000n);
  assert.equal(timestampToNs(7_000n, 12), 7n);
  assert.equal(timestampToNs(3n, 0x80 | 1), 1_500_000_000n);
});

test('pcapng §3.1: blocks of other types are passed over and counted; interface numbers restart per section', () => {
  const one = file({}, [{ name: 'a', linkType: 147 }], [{ interfaceId: 0, timestamp: 1n, data: Uint8Array.of(0, 1, 0x11) }]);
  const isb = Uint8Array.from([5, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0]);
  const bytes = Uint8Array.from([...one, ...isb, ...one]);
  const got = decodePcapng(bytes);
  assert.equal(got.skippedBlocks, 1);
  assert.deepEqual(got.interfaces.map((i) => i.section), [0, 1]);
  assert.deepEqual(got.packets.map((p) => [p.interfaceId, p.interface]), [[0, 0], [0, 1]]);
  assert.deepEqual([...readPcapng(bytes)].map((i) => i.kind), ['interface', 'packet', 'skipped', 'interface', 'packet']);
  assert.equal(PCAPNG_BLOCK.interfaceStatistics, 5);
});

test('pcapng §3.1, §4.1, §4.3: malformed files are WireErrors that say where', () => {
  const good = file({}, [{ name: 'a', linkType: 147 }], [{ interfaceId: 0, timestamp: 1n, data: Uint8Array.of(0, 1, 0x11) }]);
  const expect = (bytes: Uint8Array, field: string, clause: RegExp): void => {
    assert.throws(() => decodePcapng(bytes), (e: unknown) => e instanceof WireError && e.field === field && clause.test(e.clause));
  };
  expect(good.subarray(28), 'block type', /§4\.1/);
  const badMagic = good.slice();
  badMagic[8] = 0;
  expect(badMagic, 'byte-order magic', /§4\.1/);
  const badTrailer = good.slice();
  badTrailer[24] = 0xff;
  expect(badTrailer, 'block total length', /§3\.1/);
  expect(good.subarray(0, good.length - 2), 'block', /§3\.1/);
  const noIface = file({}, [], []);
  const epb = new Uint8Array(enhancedPacketLength({ interfaceId: 0, timestamp: 0n, data: new Uint8Array(4) }));
  encodeEnhancedPacket({ interfaceId: 0, timestamp: 0n, data: new Uint8Array(4) }, epb, 0);
  expect(Uint8Array.from([...noIface, ...epb]), 'interface id', /§4\.3/);
});

test('pcapng §4.3: the writer refuses what the format cannot hold', () => {
  const buf = new Uint8Array(64);
  assert.throws(() => encodeEnhancedPacket({ interfaceId: 0, timestamp: -1n, data: new Uint8Array(4) }, buf, 0), WireError);
  assert.throws(() => encodeEnhancedPacket({ interfaceId: 0, timestamp: 0n, data: new Uint8Array(8), originalLength: 4 }, buf, 0), WireError);
  assert.throws(() => encodeEnhancedPacket({ interfaceId: 0, timestamp: 0n, data: new Uint8Array(60) }, buf, 0), WireError);
  assert.throws(() => encodeInterfaceDescription({ name: 'x', linkType: 0x10000 }, buf, 0), WireError);
});

test('riodp capture §2: a record is a link frame; CS24 and CS24-link packets have kinds of their own', () => {
  const frame = record(closeFrame(0, 'bye'));
  assert.deepEqual([...frame.subarray(0, 3)], [0, 5, 0x11]);
  const cs24 = buildSymbol({ link: 'cs24', stype0: 0, parameter0: 3, parameter1: 1, stype1: 7, cmd: 0 });
  const r24 = record({ kind: CAPTURE_KIND.cs24, kindName: 'cs24', symbol: cs24 });
  assert.deepEqual([...r24.subarray(0, 3)], [0, 4, 0x04]);
  const d24 = decodeCaptureRecord(r24, 0, r24.length);
  assert.ok(d24.kindName === 'cs24');
  assert.equal(d24.symbol.parameter0, 3);
  const p5 = record({ kind: CAPTURE_KIND.packetCs24, kindName: 'packetCs24', packet: { ...doorbell, ackID: 31 } });
  const d5 = decodeCaptureRecord(p5, 0, p5.length);
  assert.equal(d5.kindName === 'packetCs24' ? d5.packet.ackID : -1, 31);
  // The same packet bytes as a 6-bit-ackID record read another ackID: the kind is what tells them apart.
  const p6 = record(packetFrame({ ...doorbell, ackID: 62 }));
  assert.deepEqual([...p6.subarray(3)], [...p5.subarray(3)]);
  assert.throws(() => decodeCaptureRecord(r24, 0, r24.length - 1), WireError);
  assert.throws(() => encodeCaptureRecord({ kind: CAPTURE_KIND.cs24, kindName: 'cs24', symbol: { ...cs24, link: 'cs48' } }, new Uint8Array(16), 0), WireError);
});
