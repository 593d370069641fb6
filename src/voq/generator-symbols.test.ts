import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSymbol, encodeSymbol } from '../wire/symbol.ts';
import { Stype0, Stype1 } from '../wire/symbol-types.ts';
import { decodeStype2, voqSymbol } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import type { CarrierFields, VoqGeneratorConfig, VoqGeneratorOutput, VoqMessage } from './generator-types.ts';

const OQ = { kind: 'output-queue', high: 4, low: 1 } as const;
const NORMAL = { generation: true, participation: true } as const;
const LINKED = { ...NORMAL, vcLinking: true } as const;

function gen(extra: Partial<VoqGeneratorConfig> = {}): VoqGenerator {
  return new VoqGenerator({ ports: 12, detector: OQ, portSettings: NORMAL, ...extra });
}
type Stype2Out = Extract<VoqGeneratorOutput, { kind: 'stype2' }>;
function fill(g: VoqGenerator, port: number, symbol: CarrierFields): { out: Stype2Out; all: VoqGeneratorOutput[] } {
  const all = g.handle({ kind: 'fill', port, symbol }, 0);
  const out = all.find((o): o is Stype2Out => o.kind === 'stype2');
  assert.ok(out !== undefined);
  return { out, all };
}
const packetAccepted = (ackID = 5): CarrierFields => ({ stype0: Stype0.packetAccepted, parameter0: ackID, parameter1: 7, stype1: Stype1.startOfPacket, cmd: 0 });
const status = (): CarrierFields => ({ stype0: Stype0.status, parameter0: 3, parameter1: 62, stype1: Stype1.nop, cmd: 0 });
const vcStatus = (vcid: number): CarrierFields => ({ stype0: Stype0.vcStatus, parameter0: vcid, parameter1: 10, stype1: Stype1.nop, cmd: 0 });
const vcDepth = (port: number, vc: number, depth: number) => ({ kind: 'queue-depth', port, vc, depth }) as const;

test('VoQ Backpressure §4.2 rule b: without VC linking the symbol rides with any stype0/stype1', () => {
  const g = gen({ ports: 8 });
  g.handle({ kind: 'queue-depth', port: 7, depth: 4 }, 0);
  const { out } = fill(g, 0, packetAccepted());
  assert.equal(out.stype2, voqSymbol({ group: 1, congestedOffsets: [1] }));
  assert.deepEqual(out.message, { group: 1, vc: null, portStatus: 2, congestedPorts: [7], reason: 'change' } satisfies VoqMessage);
  const sym = out.symbol;
  assert.ok(sym !== undefined);
  assert.equal(sym.stype0Name, 'packet-accepted');
  assert.equal(sym.stype1Name, 'start-of-packet');
  assert.deepEqual(sym.voq?.congestedPorts, [7]);
});

test('VoQ Backpressure §3.1: the filled CS48 symbol is buildSymbol output and decodes to itself', () => {
  const g = gen({ ports: 2 });
  g.handle({ kind: 'queue-depth', port: 0, depth: 4 }, 0);
  const { out } = fill(g, 1, status());
  const sym = out.symbol;
  assert.ok(sym !== undefined);
  // Hand check of the stype2 bits: 0b001 || 0b000001 || 0b00000 = 0x820 in symbol bits 21–34.
  assert.equal(out.stype2, 0x820);
  const bytes = new Uint8Array(6);
  encodeSymbol(sym, bytes, 0);
  assert.deepEqual([...bytes], toBytes(Stype0.status, 3, 62, Stype1.nop, 0, 0x820, sym.crc));
  assert.deepEqual(decodeSymbol(bytes, 0, 6, { link: 'cs48' }), sym);
});

/** Part 6 Figure 3-2 bit layout assembled by hand (the CRC-13 taken from the built symbol). */
function toBytes(s0: number, p0: number, p1: number, s1: number, cmd: number, stype2: number, crc: number): number[] {
  const hi = (s0 << 21) | (p0 << 15) | (p1 << 9) | (s1 << 6) | (cmd << 3) | (stype2 >>> 11);
  const lo = ((stype2 & 0x7ff) << 13) | crc;
  return [hi >>> 16, (hi >>> 8) & 0xff, hi & 0xff, lo >>> 16, (lo >>> 8) & 0xff, lo & 0xff];
}

test('VoQ Backpressure §4.2 rule c: with VC linking the symbol rides only with a Status or VC_Status symbol', () => {
  const g = gen({ ports: 2, portSettings: [LINKED, NORMAL] });
  g.handle({ kind: 'queue-depth', port: 1, depth: 4 }, 0);
  const refused = fill(g, 0, packetAccepted());
  assert.equal(refused.out.stype2, 0);
  assert.deepEqual(refused.all.flatMap((o) => (o.kind === 'event' ? [o.name] : [])), ['carrier-refused']);
  assert.equal(g.pending(0).length, 1, 'the message waits for a Status symbol');
  const ok = fill(g, 0, status());
  assert.deepEqual(ok.out.message, { group: 0, vc: 0, portStatus: 2, congestedPorts: [1], reason: 'change' });
  assert.equal(ok.out.symbol?.stype0Name, 'status');
  assert.equal(g.counters().carrierRefused, 1);
});

test('VoQ Backpressure §3.2: "For VC0, the Status Symbol is used"; a VC_Status symbol carries its VC\'s status', () => {
  const g = gen({ ports: 2, portSettings: LINKED, activeVcs: 8 });
  const out = g.handle(vcDepth(1, 3, 4), 0);
  assert.deepEqual(out.flatMap((o) => (o.kind === 'symbol-wanted' ? [`${o.port}/vc${String(o.vc)}`] : [])), ['0/vc3', '1/vc3']);
  assert.equal(fill(g, 0, status()).out.stype2, 0, 'VC0 has nothing to say');
  // Part 6 Table 3-12 with 8 VCs: VCID 0b010 is VC3.
  assert.equal(fill(g, 0, vcStatus(0b001)).out.stype2, 0, 'VCID 0b001 is VC2');
  const m = fill(g, 0, vcStatus(0b010)).out.message;
  assert.deepEqual(m, { group: 0, vc: 3, portStatus: 2, congestedPorts: [1], reason: 'change' });
  assert.equal(g.lastSent(0, 0, 3), 2);
  assert.equal(g.lastSent(0, 0, 0), 0);
});

test('VoQ Backpressure §3.2 / Part 6 Table 3-12: with 4 VCs the VCID LSB is ignored (0b011 is VC3)', () => {
  const g = gen({ ports: 1, portSettings: LINKED, activeVcs: 4 });
  g.handle(vcDepth(0, 3, 9), 0);
  assert.equal(fill(g, 0, vcStatus(0b011)).out.message?.vc, 3);
});

test('VoQ Backpressure §3.2 (decision): a VC_Status carrier on a linked link of a VC0-only device is refused', () => {
  const g = gen({ ports: 1, portSettings: LINKED });
  g.handle(vcDepth(0, 0, 9), 0);
  const r = fill(g, 0, vcStatus(0));
  assert.equal(r.out.stype2, 0);
  assert.deepEqual(r.all.flatMap((o) => (o.kind === 'event' ? [o.name] : [])), ['unknown-vc']);
  assert.equal(fill(g, 0, status()).out.message?.vc, 0);
});

test('VoQ Backpressure §3.2: without linking the VC_Status symbol carries a message for no VC in particular', () => {
  const g = gen({ ports: 1, activeVcs: 2 });
  g.handle(vcDepth(0, 1, 9), 0);
  assert.equal(fill(g, 0, vcStatus(0)).out.message?.vc, null);
});

test('VoQ Backpressure Table 5-3 bit 11 (decision): switching VC linking resends every group of the link in every VC it now reports on', () => {
  const g = gen({ ports: 1, activeVcs: 1 });
  g.handle(vcDepth(0, 1, 9), 0);
  fill(g, 0, packetAccepted());
  const out = g.handle({ kind: 'port-control', port: 0, settings: { vcLinking: true } }, 0);
  assert.deepEqual(out.flatMap((o) => (o.kind === 'symbol-wanted' ? [String(o.vc)] : [])), ['0', '1']);
  assert.equal(g.lastSent(0, 0, 0), 0, 'nothing sent yet in the linked scopes');
  // VC0's all-clear goes in a Status symbol and VC1's congestion in a VC_Status (Part 6 Table 3-12, 1 VC: every VCID is VC1).
  assert.deepEqual(fill(g, 0, status()).out.message, { group: 0, vc: 0, portStatus: 0, congestedPorts: [], reason: 'restart' });
  assert.deepEqual(fill(g, 0, vcStatus(0)).out.message, { group: 0, vc: 1, portStatus: 1, congestedPorts: [0], reason: 'restart' });
});

test('Part 12 §3.1 Table 3-1/3-2: CMD 0b1 || status || group with TX Port Group Size 1 (12 ports per group)', () => {
  const g = gen({ format: 'part12-rev4.1', ports: 24, portSettings: { ...NORMAL, txPortGroupSize: 1 } });
  g.handle({ kind: 'queue-depth', port: 0, depth: 4 }, 0);
  g.handle({ kind: 'queue-depth', port: 12, depth: 4 }, 0);
  g.handle({ kind: 'queue-depth', port: 23, depth: 4 }, 0);
  // Hand-derived: bit 0 CMD = 1 (2^13); status occupies bits 1–12 with "the lowest numbered port
  // in the ... least significant bit"; the group is bit 13.
  const a = fill(g, 0, packetAccepted()).out;
  assert.equal(a.stype2, 0b1_000000000001_0);
  const b = fill(g, 0, packetAccepted()).out;
  assert.equal(b.stype2, 0b1_100000000001_1);
  assert.deepEqual(b.message?.congestedPorts, [12, 23]);
  assert.deepEqual(b.symbol?.voq, decodeStype2(b.stype2, { voqFormat: 'part12-rev4.1', part12GroupSize: 1 }));
});

test('Part 12 §4.2 d: ports 0..N-1 occupy group 0, N = 13 - TX Port Group Size', () => {
  const g = gen({ format: 'part12-rev4.1', ports: 26, portSettings: NORMAL });
  g.handle({ kind: 'queue-depth', port: 12, depth: 4 }, 0);
  assert.equal(fill(g, 0, packetAccepted()).out.stype2, 0b1_1000000000000);
});

test('Part 12 §3.1 (decision): ports a TX Port Group Size cannot name are never reported', () => {
  const g = gen({ format: 'part12-rev4.1', ports: 16, portSettings: NORMAL });
  const out = g.handle({ kind: 'queue-depth', port: 14, depth: 4 }, 0);
  assert.deepEqual(out, []);
  assert.equal(g.snapshot().links[0]?.reach, 13);
});

test('Part 12 Table 5-3 bits 26–28: TX Port Group Size "shall be changed only when Enable VoQ Symbol Generation is cleared"', () => {
  const g = gen({ format: 'part12-rev4.1', ports: 2 });
  const out = g.handle({ kind: 'port-control', port: 0, settings: { txPortGroupSize: 2 } }, 0);
  assert.deepEqual(out.flatMap((o) => (o.kind === 'event' ? [o.name] : [])), ['group-size-change-refused']);
  assert.equal(g.settings(0)?.txPortGroupSize, 0);
  g.handle({ kind: 'port-control', port: 0, settings: { generation: false, txPortGroupSize: 2 } }, 0);
  g.handle({ kind: 'port-control', port: 0, settings: { generation: true } }, 0);
  assert.equal(g.settings(0)?.txPortGroupSize, 2);
  g.handle({ kind: 'queue-depth', port: 1, depth: 4 }, 0);
  // 11 ports per group, 2 group bits: CMD 1 || status 0b00000000010 || group 0b00.
  assert.equal(fill(g, 0, packetAccepted()).out.stype2, 0b1_00000000010_00);
  assert.equal(g.counters().groupSizeChangeRefused, 1);
});

test('VoQ Backpressure §3.1 (decision): the seed format ignores TX Port Group Size', () => {
  const g = gen({ ports: 7, portSettings: { ...NORMAL, txPortGroupSize: 3 } });
  g.handle({ kind: 'queue-depth', port: 6, depth: 4 }, 0);
  assert.equal(fill(g, 0, packetAccepted()).out.stype2, voqSymbol({ group: 1, congestedOffsets: [0] }));
});
