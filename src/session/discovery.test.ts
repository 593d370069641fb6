import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../registers/builder.ts';
import type { EndpointConfig } from '../registers/builder.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { attrDataHeaderFormat, attrPeriod, attrVendor } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { discoverWith } from './discovery-sync.ts';
import type { ReadWord } from './discovery-sync.ts';
import type { DiscoveryConfig } from './discovery.ts';

const DS = { maxPdu: 4096, segSupport: 8, mtu: 64 } as const;
/** The first session block of a one-port element: after the LP-Serial block at 0x100 (0x40 + 0x20 per port). */
const B = 0x160;

function bytes(a: AttributeLike): Uint8Array {
  const out = new Uint8Array(8);
  const idLen = a.id <= 0x7f ? 1 : a.id <= 0xefff ? 2 : 4;
  new DataView(out.buffer).setUint32(0, idLen === 4 ? a.id : idLen === 2 ? a.id << 16 : a.id << 24);
  out.set(a.value, idLen);
  return out;
}

const VENDOR = attrVendor({ oui: 0x00a01e });
const RETRY = attrPeriod('REQUEST_RETRY_PERIOD', 100_000);

/** Remote nodes by device ID, read the way a MAINTENANCE read would. */
function fabric(nodes: Record<number, RegisterSpace>): ReadWord {
  return (node, offset) => nodes[node]?.readWord(offset);
}

function node(cfg: EndpointConfig): RegisterSpace {
  return buildEndpointRegisters(cfg);
}

const T11_BLOCK = (): RegisterSpace => node({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3, attributes: [bytes(VENDOR), bytes(RETRY)] }] } });
const T9_BLOCK = (): RegisterSpace => node({ dataStreaming: DS, session: { blocks: [{ conveyance: 'DATA_STREAMING', cos: 0x20, streamId: 0x0040 }] } });

function run(nodes: Record<number, RegisterSpace>, config: DiscoveryConfig): ReturnType<typeof discoverWith> {
  return discoverWith(fabric(nodes), config);
}

test('Annex 2 §3.3, §5.2.3: a Type 11 block: the contact is the Advertisement CSR mailbox, with the block\'s attributes decoded', () => {
  const r = run({ 5: T11_BLOCK() }, { targets: [{ node: 5 }] });
  assert.equal(r.participants.length, 1);
  const p = r.participants[0]!;
  assert.deepEqual([p.node, p.contact, p.source, p.initStage, p.complete, p.suspect], [5, { conveyance: 'type11', mailbox: 3 }, 'block', 0, true, false]);
  assert.deepEqual(p.attributes.map((a) => a.name), ['VENDOR', 'REQUEST_RETRY_PERIOD']);
  assert.equal(p.attributes[1]?.name === 'REQUEST_RETRY_PERIOD' ? p.attributes[1].microseconds : -1, 100_000);
  assert.deepEqual(r.events.at(-1), { event: 'done', nodes: 1, participants: 1 });
});

test('Annex 2 §3.3, §5.2.3: a Type 9 block: the contact is the COS and StreamID of Conveyance_Info 0x0ccssss', () => {
  const r = run({ 7: T9_BLOCK() }, { targets: [{ node: 7 }] });
  assert.deepEqual(r.participants.map((p) => [p.contact, p.attributes.length, p.complete]), [[{ conveyance: 'type9', streamID: 0x40, cos: 0x20 }, 0, true]]);
});

test('Annex 2 §5.3: without a block, a Type 11 Component Tag advertisement gives the mailbox', () => {
  const r = run({ 2: node({ messaging: true, session: { componentTag: { conveyance: 'MESSAGING', mailbox: 9 } } }) }, { targets: [{ node: 2 }] });
  assert.deepEqual(r.participants.map((p) => [p.contact, p.source, p.complete]), [[{ conveyance: 'type11', mailbox: 9 }, 'component-tag', true]]);
});

test('Annex 2 §5.3 Table 5-6: a Type 9 Component Tag 0b1_0000_11110000 is StreamID 0xFFF0, with the configured COS', () => {
  const r = run({ 2: node({ dataStreaming: DS, session: { componentTag: { conveyance: 'DATA_STREAMING', streamId: 0xfff0 } } }) }, { targets: [{ node: 2 }], tagCos: 0xc0 });
  assert.deepEqual(r.participants.map((p) => p.contact), [{ conveyance: 'type9', streamID: 0xfff0, cos: 0xc0 }]);
  const x0 = run({ 2: node({ dataStreaming: DS, session: { componentTag: { conveyance: 'DATA_STREAMING', streamId: 0x0012 } } }) }, { targets: [{ node: 2 }] });
  assert.deepEqual(x0.participants.map((p) => p.contact), [{ conveyance: 'type9', streamID: 0x0012, cos: 0 }], 'x = 0: StreamID MSB 0x00; tagCos defaults to 0');
});

test('Annex 2 §3.3: mixed system: Type 9 in the block, Type 11 in the Component Tag CSR; the contact follows this end point\'s conveyances', () => {
  const mixed = (): RegisterSpace => node({
    messaging: true, dataStreaming: DS,
    session: { blocks: [{ conveyance: 'DATA_STREAMING', cos: 1, streamId: 0x10 }], componentTag: { conveyance: 'MESSAGING', mailbox: 2 } },
  });
  const both = run({ 3: mixed() }, { targets: [{ node: 3 }] });
  const p = both.participants[0]!;
  assert.deepEqual(p.contacts.map((c) => [c.source, c.contact.conveyance]), [['block', 'type9'], ['component-tag', 'type11']]);
  assert.deepEqual([p.contact, p.source], [{ conveyance: 'type11', mailbox: 2 }, 'component-tag'], 'default preference type11 first');
  assert.deepEqual(run({ 3: mixed() }, { targets: [{ node: 3 }], conveyances: ['type9', 'type11'] }).participants[0]?.source, 'block');
  assert.deepEqual(run({ 3: mixed() }, { targets: [{ node: 3 }], conveyances: ['type9'] }).participants[0]?.contact, { conveyance: 'type9', streamID: 0x10, cos: 1 });
  assert.deepEqual(run({ 3: T9_BLOCK() }, { targets: [{ node: 3 }], conveyances: ['type11'] }).unreachable.map((u) => u.reason), ['no-common-conveyance']);
});

test('Annex 2 §5.2: a node with a block per conveyance offers both contacts; the Component Tag CSR is not read beside a Type 11 block', () => {
  const s = node({ messaging: true, dataStreaming: DS, session: { blocks: [{ conveyance: 'DATA_STREAMING', cos: 1, streamId: 0x10 }, { conveyance: 'MESSAGING', mailbox: 6 }] } });
  const offsets: number[] = [];
  const r = discoverWith((_n, o) => { offsets.push(o); return s.readWord(o); }, { targets: [{ node: 1 }], conveyances: ['type9', 'type11'] });
  const p = r.participants[0]!;
  assert.deepEqual(p.contacts.map((c) => c.contact.conveyance), ['type9', 'type11']);
  assert.equal(p.contact.conveyance, 'type9');
  assert.equal(offsets.includes(0x6c), false);
});

test('Annex 2 §5.3: the Component Tag CSR is not used by a device whose Operations CARs lack Data Message and Data Streaming', () => {
  // Sess_Mgmt_Sup 1, Type 11, mailbox 1 written raw on an element without messaging support.
  const r = run({ 4: node({ componentTag: 0x80010000 }) }, { targets: [{ node: 4 }] });
  assert.deepEqual(r.notParticipating.map((n) => n.why), ['operations']);
  assert.deepEqual(r.illegal.map((i) => [i.offset, i.field]), [[0x6c, 'componentTag.sessMgmtSup']]);
});

test('Annex 2 §5.3, §3.3: a Type 9 Component Tag advertisement beside a block is not used', () => {
  // Type 9 block; tag 1 01 1 0000 00000001 = 0xB001 (StreamID 0xFF01) written raw.
  const s = node({ messaging: true, dataStreaming: DS, session: { blocks: [{ conveyance: 'NOT_SUPPORTED' }] }, componentTag: 0xb0010000 });
  const r = run({ 4: s }, { targets: [{ node: 4 }] });
  assert.deepEqual(r.notParticipating.map((n) => n.why), ['illegal']);
  assert.deepEqual(r.illegal.map((i) => i.field), ['componentTag.sessMgmtChan']);
});

test('Annex 2 §3.2, §5.3: non-participants: no block and Sess_Mgmt_Sup 0, or blocks with Conveyance 0xF and initialisation complete', () => {
  const r = run({ 1: node({ messaging: true }), 2: node({ session: { blocks: [{ conveyance: 'NOT_SUPPORTED' }] } }) }, { targets: [{ node: 1 }, { node: 2 }] });
  assert.deepEqual(r.notParticipating.map((n) => [n.node, n.why]), [[1, 'no-advertisement'], [2, 'not-supported']]);
  assert.equal(r.elapsed, 0, 'nothing to wait for');
});

test('Annex 2 §5.2.3 Table 5-3: a reserved Conveyance (0x2-0xE) is reported as an illegal register in both modes and not used', () => {
  for (const validation of [false, true]) {
    const s = T11_BLOCK();
    const r = discoverWith((_n, o) => (o === B + 8 ? 0x20000003 : s.readWord(o)), { targets: [{ node: 1 }], validation });
    assert.deepEqual(r.illegal.map((i) => [i.offset, i.field]), [[B + 8, 'advertisement.conveyance']], `validation ${validation}`);
    assert.deepEqual(r.notParticipating.map((n) => n.why), ['illegal']);
  }
});

test('Annex 2 §3.5.2.5 Table 3-1: an advertised StreamID 0xFFFF ("Invalid") is reported and not used', () => {
  const s = T9_BLOCK();
  const r = discoverWith((_n, o) => (o === B + 8 ? 0x1020ffff : s.readWord(o)), { targets: [{ node: 1 }] });
  assert.deepEqual(r.illegal.map((i) => [i.field, i.clause]), [['advertisement.conveyanceInfo', 'Annex 2 §3.5.2.5 Table 3-1']]);
  assert.equal(r.participants.length, 0);
});

test('Annex 2 §5.2.3 Table 5-3, §5.3 Table 5-6 (decision T2): an advertised mailbox ID above 63 names no Part 2 mailbox: reported as an illegal block in both modes and not used', () => {
  for (const validation of [false, true]) {
    const block = node({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 64 }] } });
    const r = run({ 1: block }, { targets: [{ node: 1 }], validation });
    assert.deepEqual(r.illegal.map((i) => [i.offset, i.field, i.clause, i.detail]), [
      [B + 8, 'advertisement.conveyanceInfo', 'Annex 2 §5.2.3 Table 5-3, Part 2 Table 4-4', 'mailbox ID 64 names no Part 2 mailbox (0–63)'],
    ]);
    assert.deepEqual([r.participants.length, r.notParticipating.map((n) => n.why)], [0, ['illegal']]);
    const tag = node({ messaging: true, session: { componentTag: { conveyance: 'MESSAGING', mailbox: 200 } } });
    const t = run({ 2: tag }, { targets: [{ node: 2 }], validation });
    assert.deepEqual(t.illegal.map((i) => [i.field, i.detail]), [['componentTag.sessMgmtChanInfo', 'mailbox ID 200 names no Part 2 mailbox (0–63)']]);
    assert.deepEqual([t.participants.length, t.notParticipating.map((n) => n.why)], [0, ['illegal']]);
  }
  const last = run({ 3: node({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 63 }] } }) }, { targets: [{ node: 3 }] });
  assert.deepEqual(last.participants.map((p) => p.contact), [{ conveyance: 'type11', mailbox: 63 }]);
});

test('Annex 2 §5.2: validation mode reports non-zero reserved fields as an illegal block, once each, and the node is suspect; non-validation mode ignores them', () => {
  const s = T11_BLOCK();
  // Write Enable bits 0-15, Attribute Range bits 0-7, Conveyance_Info bits 4-23 of a Type 11 block.
  const dirty: ReadWord = (_n, o) => (s.readWord(o) | (o === B + 4 ? 0x00010000 : o === B + 0xc ? 0x01000000 : o === B + 8 ? 0x00100000 : 0)) >>> 0;
  const strict = discoverWith(dirty, { targets: [{ node: 1 }], validation: true });
  assert.deepEqual(strict.illegal.map((i) => [i.offset, i.field]), [[B + 4, 'writeEnable.rsrv'], [B + 8, 'advertisement.conveyanceInfo'], [B + 0xc, 'attributeRange.rsrv']]);
  assert.deepEqual(strict.participants.map((p) => [p.contact, p.suspect]), [[{ conveyance: 'type11', mailbox: 3 }, true]]);
  const lenient = discoverWith(dirty, { targets: [{ node: 1 }] });
  assert.deepEqual([lenient.illegal.length, lenient.participants[0]?.suspect], [0, false]);
});

test('Annex 2 §5.2.5, §5.2: validation mode checks the attribute registers as §3.5.3 formats them', () => {
  const bad = attrDataHeaderFormat('DATA', 0, 0x1234);
  const s = node({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3, attributes: [bytes(VENDOR), bytes(bad)] }] } });
  const r = run({ 1: s }, { targets: [{ node: 1 }], validation: true });
  assert.deepEqual(r.illegal.map((i) => [i.offset, i.field, i.clause]), [[B + 0x18, 'attributes[1]', 'Annex 2 §3.5.3.9 Table 3-7']]);
  assert.deepEqual(r.participants[0]?.attributes.map((a) => a.name), ['VENDOR', 'DATA_HEADER_FORMAT']);
});

test('Annex 2 §5.2.4: Sess_Mgmt_Num_Attr above Sess_Mgmt_Max_Attr is illegal in validation mode; otherwise the Max_Attr attributes are read', () => {
  const s = node({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3, maxAttr: 2, attributes: [bytes(VENDOR), bytes(RETRY)] }] } });
  // Max_Attr 2 | Init_Stage 0 | Num_Attr 5.
  const read: ReadWord = (_n, o) => (o === B + 0xc ? 0x00020005 : s.readWord(o));
  const strict = discoverWith(read, { targets: [{ node: 1 }], validation: true });
  assert.deepEqual(strict.illegal.map((i) => i.field), ['attributeRange.sessMgmtNumAttr']);
  const lenient = discoverWith(read, { targets: [{ node: 1 }] });
  assert.deepEqual([lenient.illegal.length, lenient.participants[0]?.attributes.length], [0, 2]);
});

test('Annex 2 §3.3, §5.3: a Type 11 Component Tag beside blocks that advertise no Type 11 contact is used (here a block still "Not Supported")', () => {
  // Block initialised to Conveyance 0xF; tag Sup 1, Chan 00, mailbox 2 written raw: 0x8002.
  const s = node({ messaging: true, session: { blocks: [{ conveyance: 'NOT_SUPPORTED' }] }, componentTag: 0x80020000 });
  const r = run({ 1: s }, { targets: [{ node: 1 }], validation: true });
  assert.deepEqual(r.participants.map((p) => [p.contact, p.source]), [[{ conveyance: 'type11', mailbox: 2 }, 'component-tag']]);
  assert.equal(r.illegal.length, 0);
});

test('Annex 2 §5.3 Table 5-6: Sess_Mgmt_Chan 0b10 (reserved) or 0b11 (Expansion) is reported in both modes and not used', () => {
  for (const [word, validation] of [[0xc0010000, false], [0xe0010000, true]] as const) {
    const r = run({ 1: node({ messaging: true, componentTag: word }) }, { targets: [{ node: 1 }], validation });
    assert.deepEqual(r.illegal.map((i) => [i.offset, i.field]), [[0x6c, 'componentTag.sessMgmtChan']]);
    assert.deepEqual(r.notParticipating.map((n) => n.why), ['illegal']);
  }
});

test('Annex 2 §5.2.5, DECISIONS §7: the block\'s attributes are named under attributeProtoID (default 0x0000: 0x8003 is DATA_OFFSET; Ethernet: MAC_ADDRESS)', () => {
  const raw = Uint8Array.of(0x80, 0x03, 0x02, 0, 0, 0, 0, 0x01);
  const s = (): RegisterSpace => node({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3, attributes: [raw] }] } });
  assert.deepEqual(run({ 1: s() }, { targets: [{ node: 1 }] }).participants[0]?.attributes.map((a) => a.name), ['DATA_OFFSET']);
  assert.deepEqual(run({ 1: s() }, { targets: [{ node: 1 }], attributeProtoID: 0x0102 }).participants[0]?.attributes.map((a) => a.name), ['MAC_ADDRESS']);
});
