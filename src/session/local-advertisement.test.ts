import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from '../registers/builder.ts';
import type { EndpointConfig } from '../registers/builder.ts';
import { COMPONENT_TAG_OFFSET } from '../registers/component-tag.ts';
import { EF_ID, findEfBlocks } from '../registers/ef-chain.ts';
import { readSessionBlock } from '../registers/session-block.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { attrDataHeaderFormat, attrPeriod, attrVendor } from '../wire/smp/attribute-build.ts';
import { initialiseAdvertisement, localPort, maintenancePort, readParticipation, writeStage } from './local-advertisement.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const VENDOR = attrVendor({ oui: 0x00a01e });
const FORMAT = attrDataHeaderFormat('DATA1');
const RETRY = attrPeriod('REQUEST_RETRY_PERIOD', 100_000);
const TIMEOUT = attrPeriod('REQUEST_TIMEOUT_PERIOD', 400_000);
const DS = { maxPdu: 4096, segSupport: 8, mtu: 64 } as const;

/** An element with `blocks` Session Management blocks, in its hardware reset state. */
function atReset(blocks: number, extra: EndpointConfig = {}, maxAttr = 8): RegisterSpace {
  const s = buildEndpointRegisters({
    messaging: true,
    dataStreaming: DS,
    ...extra,
    session: { blocks: Array.from({ length: blocks }, () => ({ conveyance: 'NOT_SUPPORTED' as const, maxAttr })) },
  });
  s.reset();
  return s;
}

function base(s: RegisterSpace, i = 0): number {
  return findEfBlocks(s, EF_ID.sessionManagement)[i] ?? -1;
}

test('Annex 2 §3.2: on power-up and hardware reset the Advertisement CSR and the Component Tag CSR indicate non-participation', () => {
  const s = atReset(2);
  const p = readParticipation(s);
  assert.equal(p.participating, false);
  assert.deepEqual(p.blocks.map((b) => [b.contact, b.lockVal, b.initStage, b.numAttr]), [[null, 0xffff, 1, null], [null, 0xffff, 1, null]]);
  assert.equal(p.componentTag, null);
  // Conveyance 0xF in bits 0-3; Component Tag bit 0 = 0.
  assert.equal(s.readWord(base(s) + 8), 0xf0000000);
  assert.equal(s.readWord(COMPONENT_TAG_OFFSET) >>> 31, 0);
});

test('Annex 2 §3.2, §5.2: software initialisation indicates participation in the Advertisement CSR of one block per conveyance; a reset undoes it', () => {
  const s = atReset(2);
  const r = initialiseAdvertisement(s, {
    blocks: [
      { contact: { conveyance: 'type11', mailbox: 2 }, attributes: [VENDOR] },
      { contact: { conveyance: 'type9', streamID: 0x0040, cos: 0x10 }, attributes: [VENDOR, FORMAT] },
    ],
  });
  assert.deepEqual(r.blocks.map((b) => (b.ok ? [b.initStage, b.numAttr] : b.reason)), [[0, 1], [0, 2]]);
  // Type 11: 0x0 | 0x00000nn; Type 9: 0x1 | 0 | cc | ssss (Table 5-3).
  assert.equal(s.readWord(base(s, 0) + 8), 0x00000002);
  assert.equal(s.readWord(base(s, 1) + 8), 0x10100040);
  const b1 = readSessionBlock(s, base(s, 1), { strict: true });
  // VENDOR: ID 0x00, OUI 0x00A01E, four zero octets; DATA_HEADER_FORMAT: 0xF0000005, 0x0000, 0x00, DATA1 0x09.
  assert.deepEqual(b1.attributes.map(hex), ['0000a01e00000000', 'f000000500000009']);
  assert.equal(b1.locked, false, 'the local processor released the lock');
  const p = readParticipation(s);
  assert.equal(p.participating, true);
  assert.deepEqual(p.blocks.map((b) => b.contact), [{ conveyance: 'type11', mailbox: 2 }, { conveyance: 'type9', streamID: 0x40, cos: 0x10 }]);
  s.reset();
  assert.equal(readParticipation(s).participating, false);
});

test('Annex 2 §3.2, §5.3: without a block an element may indicate participation in the Component Tag CSR, keeping bits 16-31', () => {
  const t11 = buildEndpointRegisters({ messaging: true, componentTag: 0x1234 });
  t11.reset();
  assert.equal(initialiseAdvertisement(t11, { componentTag: { conveyance: 'type11', mailbox: 5 } }).componentTag, 'written');
  // Sup 1, Chan 00, 00000, mailbox 0x05 -> 0x8005 in bits 0-15.
  assert.equal(t11.readWord(COMPONENT_TAG_OFFSET) >>> 16, 0x8005);
  const t9 = buildEndpointRegisters({ dataStreaming: DS });
  initialiseAdvertisement(t9, { componentTag: { conveyance: 'type9', streamID: 0xfff0, cos: 0 } });
  // Table 5-6 example: 1 01 1 0000 11110000 = 0xB0F0 is StreamID 0xFFF0.
  assert.equal(t9.readWord(COMPONENT_TAG_OFFSET) >>> 16, 0xb0f0);
  assert.deepEqual(readParticipation(t9).componentTag, { conveyance: 'type9', streamID: 0xfff0 });
  t9.reset();
  assert.equal(readParticipation(t9).participating, false);
});

test('Annex 2 §3.3: a mixed system advertises Type 9 in the block and Type 11 in the Component Tag CSR', () => {
  const s = atReset(1);
  const r = initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type9', streamID: 0x10, cos: 1 } }], componentTag: { conveyance: 'type11', mailbox: 1 } });
  assert.equal(r.componentTag, 'written');
  const p = readParticipation(s);
  assert.deepEqual([p.blocks[0]?.contact, p.componentTag], [{ conveyance: 'type9', streamID: 0x10, cos: 1 }, { conveyance: 'type11', mailbox: 1 }]);
});

test('Annex 2 §5.3: only devices whose Operations CARs indicate Data Message or Data Streaming may use the Component Tag CSR', () => {
  const s = buildEndpointRegisters();
  assert.throws(() => initialiseAdvertisement(s, { componentTag: { conveyance: 'type11', mailbox: 1 } }), /componentTag must be left out/);
  assert.equal(s.readWord(COMPONENT_TAG_OFFSET), 0, 'nothing written');
});

test('Annex 2 §5.3, §3.3: the Component Tag CSR is refused beside a block, except Type 11 beside Type 9 blocks', () => {
  const s = atReset(1);
  const t11 = { contact: { conveyance: 'type11', mailbox: 2 } } as const;
  assert.throws(() => initialiseAdvertisement(s, { blocks: [t11], componentTag: { conveyance: 'type11', mailbox: 1 } }), /componentTag must be Type 11/);
  assert.throws(() => initialiseAdvertisement(s, { componentTag: { conveyance: 'type11', mailbox: 1 } }), /componentTag must be Type 11/, 'the block left out still exists');
  assert.throws(() => initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type9', streamID: 1, cos: 0 } }], componentTag: { conveyance: 'type9', streamID: 0xff01, cos: 0 } }), /componentTag must be Type 11/);
  assert.equal(readParticipation(s).participating, false, 'plan errors throw before anything is written');
});

test('Annex 2 §5.2, §2.4: one block per conveyance; a plan with more blocks than the element has is refused', () => {
  const s = atReset(2);
  const t11 = { contact: { conveyance: 'type11', mailbox: 2 } } as const;
  assert.throws(() => initialiseAdvertisement(s, { blocks: [t11, { contact: { conveyance: 'type11', mailbox: 3 } }] }), /blocks\[1\]\.contact must use a conveyance no other block uses/);
  assert.throws(() => initialiseAdvertisement(s, { blocks: [t11, t11, t11] }), /blocks must have at most 2 entries/);
  assert.throws(() => initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type9', streamID: 0xffff, cos: 0 } }] }), /blocks\[0\]\.contact\.streamID must be an integer from 0 to 65534/);
  assert.throws(() => initialiseAdvertisement(s, { blocks: [t11], lockValue: 0xffff }), /lockValue must be an integer from 0 to 65534/);
});

test('Annex 2 §3.2: staged initialisation: the local processor writes protocol attributes, a remote processor system attributes by MAINTENANCE writes', () => {
  const s = atReset(1);
  const b = base(s);
  const local = initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 4 }, attributes: [VENDOR], laterStages: true }], lockValue: 0x0001 });
  assert.deepEqual(local.blocks[0], { base: b, ok: true, contact: { conveyance: 'type11', mailbox: 4 }, initStage: 2, numAttr: 1 });
  // "0x1-0xF - Initialization of registers incomplete, initialization stage X in progress".
  assert.equal(readSessionBlock(s, b).attributeRange.sessMgmtInitStage, 2);
  const remote = writeStage(maintenancePort(s), b, { lockValue: 0x0042, stage: 2, attributes: [RETRY, TIMEOUT], last: true });
  assert.deepEqual(remote, { ok: true, initStage: 0, numAttr: 3 });
  const block = readSessionBlock(s, b, { strict: true });
  // REQUEST_RETRY_PERIOD 100000 µs = 0x186A0, REQUEST_TIMEOUT_PERIOD 400000 µs = 0x61A80.
  assert.deepEqual(block.attributes.map(hex), ['0000a01e00000000', 'f0000000000186a0', 'f000000100061a80']);
  assert.deepEqual([block.attributeRange.initComplete, block.locked, block.attributeRange.sessMgmtMaxAttr], [true, false, 8]);
});

test('Annex 2 §5.2.2: with Lock_Val 0xFFFF a MAINTENANCE write to the block is ignored; holding the lock makes it writable', () => {
  const s = atReset(1);
  const b = base(s);
  initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 4 }, attributes: [VENDOR] }] });
  const m = maintenancePort(s);
  m.write(b + 0x10, 0xdeadbeef);
  m.write(b + 0xc, 0x00000305);
  m.write(b + 8, 0x00000009);
  assert.deepEqual([m.read(b + 0x10), m.read(b + 0xc), m.read(b + 8)], [0x0000a01e, 0x00080001, 0x00000004], '"all other registers in this block are read only"');
  m.write(b + 4, 0x0007);
  m.write(b + 0x10, 0xdeadbeef);
  m.write(b + 0xc, 0x00000305);
  // Max_Attr stays 8: "Read Only from the RapidIO interface" even with the lock held.
  assert.deepEqual([m.read(b + 0x10), m.read(b + 0xc)], [0xdeadbeef, 0x00080305], '"all registers in this block are writable"');
});

test('Annex 2 §5.2.2: Lock_Val by MAINTENANCE writes: set when 0xFFFF, released by the held value, unchanged by another value, 0xFFFF has no effect', () => {
  const s = atReset(1);
  const m = maintenancePort(s);
  const we = base(s) + 4;
  m.write(we, 0xffff);
  assert.equal(m.read(we), 0xffff, '"Writing 0xFFFF ... when the Lock_Val field is 0xFFFF has no effect"');
  m.write(we, 0x0010);
  assert.equal(m.read(we), 0x0010, '"sets the Lock_Val field to the value written"');
  m.write(we, 0x0011);
  m.write(we, 0xffff);
  assert.equal(m.read(we), 0x0010, '"writing a value different from the Lock_Val field ... does not affect"');
  m.write(we, 0x0010);
  assert.equal(m.read(we), 0xffff, '"writing the value of the Lock_Val field ... resets the Lock_Val field to 0xFFFF"');
});

test('Annex 2 §3.2: "other processors must respect the lock": while a remote processor holds Lock_Val, local and remote writers write nothing', () => {
  const s = atReset(1);
  const b = base(s);
  maintenancePort(s).write(b + 4, 0x0042);
  const local = initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 4 }, attributes: [VENDOR] }], lockValue: 1 });
  assert.deepEqual(local.blocks[0], { base: b, ok: false, reason: 'locked', lockVal: 0x42 });
  assert.deepEqual(writeStage(maintenancePort(s), b, { lockValue: 0x0043, attributes: [RETRY], last: true }), { ok: false, reason: 'locked', initStage: 1, lockVal: 0x42 });
  assert.equal(readParticipation(s).participating, false);
  assert.equal(readSessionBlock(s, b).attributeRange.numAttrRegisters, null, 'no attribute written');
  maintenancePort(s).write(b + 4, 0x0042);
  assert.equal(initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 4 }, attributes: [VENDOR] }], lockValue: 1 }).blocks[0]?.ok, true);
});

test('Annex 2 §3.3 mixed system: a Component Tag beside a block the lock kept from being written is not advertised', () => {
  const s = atReset(1);
  maintenancePort(s).write(base(s) + 4, 0x0042);
  const r = initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type9', streamID: 1, cos: 0 } }], componentTag: { conveyance: 'type11', mailbox: 1 } });
  assert.equal(r.componentTag, 'blocked');
  assert.equal(readParticipation(s).componentTag, null);
});

test('Annex 2 §5.2.4: Init_Stage 0 is complete; stages run in turn, and stage 15 must complete the initialisation', () => {
  const s = atReset(1, {}, 20);
  const b = base(s);
  const port = localPort(s);
  assert.deepEqual(writeStage(port, b, { lockValue: 1, stage: 2, last: false }), { ok: false, reason: 'out-of-turn', initStage: 1, lockVal: 1 });
  for (let stage = 1; stage < 15; stage++) assert.equal(writeStage(port, b, { lockValue: 1, stage, attributes: [RETRY], last: false }).ok, true);
  assert.deepEqual(writeStage(port, b, { lockValue: 1, last: false }), { ok: false, reason: 'stages', initStage: 15, lockVal: 1 });
  assert.deepEqual(writeStage(port, b, { lockValue: 1, stage: 15, last: true }), { ok: true, initStage: 0, numAttr: 14 });
  assert.deepEqual(writeStage(maintenancePort(s), b, { lockValue: 2, attributes: [TIMEOUT], last: true }), { ok: false, reason: 'complete', initStage: 0, lockVal: 2 });
  assert.equal(readSessionBlock(s, b).locked, false, 'a refused writer releases the lock it took');
});

test('Annex 2 §5.2.4: Sess_Mgmt_Num_Attr reads "not initialized" until a stage writes it; a stage without attributes makes it 0', () => {
  const s = atReset(1);
  const b = base(s);
  // Reset: Max_Attr 8, Init_Stage 1, Num_Attr 0xFF (the 8-bit field's "not initialized").
  assert.equal(s.readWord(b + 0xc), 0x000801ff);
  assert.equal(readParticipation(s).blocks[0]?.numAttr, null);
  assert.deepEqual(writeStage(localPort(s), b, { lockValue: 3, last: false }), { ok: true, initStage: 2, numAttr: 0 });
  assert.equal(s.readWord(b + 0xc), 0x00080200);
});

test('Annex 2 §5.2.5: 254 attributes fill the 508 attribute registers 0x10-0x7FC; one more is refused and nothing is written', () => {
  const s = atReset(1, {}, 254);
  const b = base(s);
  const many = Array.from({ length: 254 }, (_, i) => attrPeriod('REQUEST_RETRY_PERIOD', i));
  assert.deepEqual(writeStage(localPort(s), b, { lockValue: 1, attributes: many, last: false }), { ok: true, initStage: 2, numAttr: 254 });
  // Attribute 253 = ID 0xF0000000, value 253, in the registers at 0x7F8 and 0x7FC.
  assert.deepEqual([s.readWord(b + 0x7f8), s.readWord(b + 0x7fc)], [0xf0000000, 253]);
  assert.deepEqual(writeStage(maintenancePort(s), b, { lockValue: 2, attributes: [TIMEOUT], last: true }), { ok: false, reason: 'full', initStage: 2, lockVal: 2 });
  assert.equal(readSessionBlock(s, b).attributeRange.sessMgmtInitStage, 2);
});

test('Annex 2 §5.2.2: "Implementation specific checking": a stage with an impossible lock value, stage or attribute is refused with a RangeError', () => {
  const s = atReset(1);
  const b = base(s);
  assert.throws(() => writeStage(localPort(s), b, { lockValue: 0xffff, last: true }), /lockValue must be an integer from 0 to 65534/);
  assert.throws(() => writeStage(localPort(s), b, { lockValue: 1, stage: 16, last: true }), /stage must be an integer from 1 to 15/);
  assert.throws(() => writeStage(localPort(s), b, { lockValue: 1, attributes: [{ id: 0x7000, value: new Uint8Array(6) }], last: true }), /attributes\[0\] must be an attribute/);
  assert.equal(readSessionBlock(s, b).locked, false);
});

test('Annex 2 §3.2: the local processor locks, writes attributes and Attribute Range, then the advertisement, then unlocks', () => {
  const s = atReset(1);
  const b = base(s);
  const order: string[] = [];
  s.subscribe((c) => { order.push(`${(c.offset - b).toString(16)}=${c.value.toString(16)}`); });
  initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 4 }, attributes: [RETRY] }], lockValue: 5 });
  // Lock 5; attribute 0 (0xF0000000, 100000 = 0x186A0); range Max 8 | stage 0 | Num 1; Type 11 mailbox 4; unlock.
  assert.deepEqual(order, ['4=5', '10=f0000000', '14=186a0', 'c=80001', '8=4', '4=ffff']);
});

test('Annex 2 §5.2.2: a writer that already holds the lock with its own value writes its stage without releasing it first', () => {
  const s = atReset(1);
  const b = base(s);
  maintenancePort(s).write(b + 4, 0x0042);
  assert.deepEqual(writeStage(maintenancePort(s), b, { lockValue: 0x42, attributes: [RETRY], last: true }), { ok: true, initStage: 0, numAttr: 1 });
  assert.equal(readSessionBlock(s, b).locked, false, 'released after the stage');
});

test('Annex 2 §5.3 Table 5-6: a Type 9 Component Tag advertisement needs a StreamID with MSB 0x00 or 0xFF', () => {
  const s = buildEndpointRegisters({ dataStreaming: DS });
  assert.throws(() => initialiseAdvertisement(s, { componentTag: { conveyance: 'type9', streamID: 0x1234, cos: 0 } }), /componentTag\.streamID must have an MSB of 0x00 or 0xFF/);
  assert.equal(readParticipation(s).componentTag, null);
});

test('Annex 2 §5.2.3 Table 5-3, §5.3 Table 5-6 (decision T2): a mailbox ID that names no Part 2 mailbox (64–255) is not advertised, in a block or in the Component Tag CSR', () => {
  const s = atReset(1);
  assert.throws(() => initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 64 } }] }), /^RangeError: blocks\[0\]\.contact\.mailbox must be an integer from 0 to 63$/);
  assert.equal(readParticipation(s).participating, false, 'nothing written');
  const t11 = buildEndpointRegisters({ messaging: true });
  t11.reset();
  assert.throws(() => initialiseAdvertisement(t11, { componentTag: { conveyance: 'type11', mailbox: 255 } }), /^RangeError: componentTag\.mailbox must be an integer from 0 to 63$/);
  assert.equal(t11.readWord(COMPONENT_TAG_OFFSET) >>> 31, 0, 'nothing written');
  assert.equal(initialiseAdvertisement(s, { blocks: [{ contact: { conveyance: 'type11', mailbox: 63 } }] }).blocks[0]?.ok, true, 'mailbox 63 is the last one');
  assert.equal(s.readWord(base(s) + 8), 0x0000003f);
});
