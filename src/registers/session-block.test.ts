import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutEfChain } from './ef-chain.ts';
import { RegisterError } from './errors.ts';
import {
  SESSION_BLOCK,
  acquireSessionLock,
  advertisementView,
  advertisementWord,
  attributeRangeView,
  decodeAdvertisement,
  decodeAttributeRange,
  encodeAdvertisement,
  encodeAttributeRange,
  initializeSessionBlock,
  readSessionAttribute,
  readSessionBlock,
  releaseSessionLock,
  sessionBlock,
  sessionLockVal,
  sessionLocked,
  writeSessionAttribute,
} from './session-block.ts';
import { RegisterSpace } from './space.ts';

const isReg = (code: string) => (e: unknown): boolean => e instanceof RegisterError && e.code === code;
const LOCK = 'Annex 2 §5.2.2 Table 5-2';

function build(maxAttr = 4): { s: RegisterSpace; base: number; we: number; adv: number; range: number; attr: number } {
  const s = new RegisterSpace();
  const [p] = layoutEfChain(s, [sessionBlock({ maxAttr })]);
  const base = p?.base ?? 0;
  return { s, base, we: base + 4, adv: base + 8, range: base + 0xc, attr: base + 0x10 };
}

test('Annex 2 §5.2.1 Table 5-1: the block header carries EF_ID 0x000C and stays hard wired even while the lock is held', () => {
  const { s, base, we } = build();
  assert.equal(s.readWord(base), 0x0000000c);
  s.writeWord(we, 0x1234);
  s.writeWord(base, 0xffffffff);
  assert.equal(s.readWord(base), 0x0000000c);
});

test(`${LOCK}: Lock_Val resets to 0xFFFF; bits 0-15 are reserved`, () => {
  const { s, we } = build();
  assert.equal(s.readWord(we), 0x0000ffff);
  s.writeWord(we, 0xabcd1234);
  assert.equal(s.readWord(we), 0x00001234);
});

test(`${LOCK}: when the Lock_Val is 0xFFFF all other registers in this block are read only`, () => {
  const { s, adv, range, attr } = build();
  const before = [s.readWord(adv), s.readWord(range), s.readWord(attr)];
  s.writeWord(adv, 0x00000042);
  s.writeWord(range, 0x00000001);
  s.writeWord(attr, 0xdeadbeef);
  assert.deepEqual([s.readWord(adv), s.readWord(range), s.readWord(attr)], before);
});

test(`${LOCK}: writing to this register when Lock_Val is 0xFFFF sets the Lock_Val field to the value written`, () => {
  const { s, we, base } = build();
  s.writeWord(we, 0x0000002a);
  assert.equal(sessionLockVal(s, base), 0x2a);
  assert.equal(sessionLocked(s, base), true);
});

test(`${LOCK}: when the Lock_Val field is not 0xFFFF all registers in this block are writable`, () => {
  const { s, we, adv, range, attr } = build();
  s.writeWord(we, 0x0007);
  s.writeWord(adv, 0x00000042);
  s.writeWord(attr, 0xdeadbeef);
  s.writeWord(range, 0x00000302); // Init_Stage 3, Num_Attr 2
  assert.equal(s.readWord(adv), 0x00000042);
  assert.equal(s.readWord(attr), 0xdeadbeef);
  assert.equal(s.readWord(range) & 0xfff, 0x302);
});

test(`${LOCK}: when the Lock_Val field is not 0xFFFF, writing the value of the Lock_Val field resets it to 0xFFFF`, () => {
  const { s, we, base } = build();
  s.writeWord(we, 0x0007);
  s.writeWord(we, 0x0007);
  assert.equal(sessionLockVal(s, base), 0xffff);
  assert.equal(sessionLocked(s, base), false);
});

test(`${LOCK}: when the Lock_Val field is not 0xFFFF, writing a different value does not affect it`, () => {
  const { s, we, base } = build();
  s.writeWord(we, 0x0007);
  s.writeWord(we, 0x0008);
  s.writeWord(we, 0xffff);
  assert.equal(sessionLockVal(s, base), 0x0007);
});

test(`${LOCK}: writing 0xFFFF to the Lock_Val field when it is 0xFFFF has no effect`, () => {
  const { s, we, base } = build();
  s.writeWord(we, 0xffff);
  assert.equal(sessionLockVal(s, base), 0xffff);
  s.writeWord(we, 0x0001);
  assert.equal(sessionLockVal(s, base), 0x0001);
});

test('Part 3 §3.5.3: an initiator reads back to verify that it owns the lock', () => {
  const { s, base } = build();
  assert.equal(acquireSessionLock(s, base, 0x11), true);
  assert.equal(acquireSessionLock(s, base, 0x22), false);
  assert.equal(releaseSessionLock(s, base, 0x22), false);
  assert.equal(releaseSessionLock(s, base, 0x11), true);
  assert.equal(acquireSessionLock(s, base, 0x22), true);
  assert.throws(() => acquireSessionLock(s, base, 0xffff), isReg('range'));
});

test('Annex 2 §5.2.3: the advertisement "may be written by the local processing element" whatever the lock', () => {
  const { s, base, adv } = build();
  s.writeLocal(adv, 0x00000005);
  assert.equal(s.readWord(adv), 0x00000005);
  acquireSessionLock(s, base, 1);
  s.writeLocal(adv, 0x00000006);
  assert.equal(s.readWord(adv), 0x00000006);
});

test('Annex 2 §5.2.4 Table 5-4: Sess_Mgmt_Max_Attr is read only from the RapidIO interface even with the lock held, writable by the local element', () => {
  const { s, base, range } = build(4);
  acquireSessionLock(s, base, 1);
  s.writeWord(range, 0xffffffff);
  // Max_Attr (bits 8-15) stays 4; Init_Stage 0xF and Num_Attr 0xFF written; bits 0-7, 16-19 reserved.
  assert.equal(s.readWord(range), 0x00040fff);
  attributeRangeView.update(s, range, { sessMgmtMaxAttr: 3 });
  assert.equal(s.readWord(range) & 0x00ff0000, 0x00030000);
});

test('Annex 2 §3.2: on reset the advertisement indicates non-participation (Conveyance 0xF) and attributes are not initialized', () => {
  const { s, adv, range } = build(4);
  assert.equal(s.readWord(adv), 0xf0000000);
  assert.equal(decodeAdvertisement(s.readWord(adv)).conveyanceName, 'NOT_SUPPORTED');
  const r = decodeAttributeRange(s.readWord(range));
  assert.deepEqual([r.sessMgmtMaxAttr, r.maxAttrRegisters, r.numAttrRegisters, r.initComplete], [4, 8, null, false]);
});

test('Annex 2 §5.2.3 Table 5-3: Type 11 Conveyance_Info is 0x00000nn (mailbox), Type 9 is 0x0ccssss (COS, StreamID)', () => {
  // Conveyance 0x0 in bits 0-3, mailbox 0x2A in bits 24-31.
  assert.equal(advertisementWord({ conveyance: 'MESSAGING', mailbox: 0x2a }), 0x0000002a);
  // Conveyance 0x1 in bits 0-3, bits 4-7 zero, COS 0xC5 in bits 8-15, StreamID 0xBEEF in 16-31.
  assert.equal(advertisementWord({ conveyance: 'DATA_STREAMING', cos: 0xc5, streamId: 0xbeef }), 0x10c5beef);
  const t9 = decodeAdvertisement(0x10c5beef, { strict: true });
  assert.deepEqual([t9.conveyanceName, t9.cos, t9.streamId, t9.mailbox], ['DATA_STREAMING', 0xc5, 0xbeef, null]);
  const t11 = decodeAdvertisement(0x0000002a, { strict: true });
  assert.deepEqual([t11.conveyanceName, t11.mailbox, t11.cos], ['MESSAGING', 0x2a, null]);
  assert.throws(() => advertisementWord({ conveyance: 'MESSAGING', mailbox: 0x100 }), isReg('range'));
});

test('Annex 2 §5.2.3 Table 5-3: conveyance 0x2-0xE is reserved; non-zero filler bits are reserved (strict)', () => {
  const r = decodeAdvertisement(0x20000000);
  assert.equal(r.conveyanceName, 'RESERVED');
  assert.throws(() => decodeAdvertisement(0x20000000, { strict: true }), isReg('reserved'));
  assert.throws(() => decodeAdvertisement(0x00100001, { strict: true }), isReg('reserved'));
  assert.throws(() => decodeAdvertisement(0x18000001, { strict: true }), isReg('reserved'));
  assert.equal(encodeAdvertisement(decodeAdvertisement(0x00100001)), 0x00100001);
});

test('Annex 2 §5.2.4 Table 5-4: Max_Attr bits 8-15, Init_Stage 20-23, Num_Attr 24-31; n means 2n registers', () => {
  // Max 0x10 (0x00100000), Init_Stage 0 , Num_Attr 3 (0x03).
  const v = decodeAttributeRange(0x00100003, { strict: true });
  assert.deepEqual([v.sessMgmtMaxAttr, v.maxAttrRegisters, v.sessMgmtNumAttr, v.numAttrRegisters, v.initComplete], [16, 32, 3, 6, true]);
  assert.equal(decodeAttributeRange(0x00fe0000).maxAttrRegisters, 508);
  assert.equal(encodeAttributeRange(decodeAttributeRange(0xff0f0fff)), 0xff0f0fff);
});

test('Annex 2 §5.2.4 Table 5-4: Max_Attr 0xFF is reserved; Num_Attr may not exceed Max_Attr; 0xFF means not initialized', () => {
  assert.equal(decodeAttributeRange(0x00ff0000).maxAttrRegisters, null);
  assert.throws(() => decodeAttributeRange(0x00ff0000, { strict: true }), isReg('reserved'));
  assert.throws(() => decodeAttributeRange(0x00020003, { strict: true }), isReg('invalid'));
  assert.throws(() => decodeAttributeRange(0x01020000, { strict: true }), isReg('reserved'));
  assert.equal(decodeAttributeRange(0x000201ff, { strict: true }).numAttrRegisters, null);
  const { s, range } = build(2);
  assert.throws(() => { attributeRangeView.update(s, range, { sessMgmtNumAttr: 3 }); }, isReg('invalid'));
  assert.throws(() => { attributeRangeView.update(s, range, { sessMgmtMaxAttr: 0xff }); }, isReg('invalid'));
});

test('Annex 2 §5.2.5 Table 5-5: up to 508 attribute registers at 0x10-0x7FC (254 attributes of 8 octets)', () => {
  const { s, base } = build(0xfe);
  assert.equal(sessionBlock({ maxAttr: 0xfe }).size, 0x800);
  assert.equal(s.definition(base + 0x7fc)?.name, 'Session Management Protocol Attribute 253 CSR word 1');
  assert.equal(s.definition(base + 0x800), undefined);
  assert.throws(() => sessionBlock({ maxAttr: 0xff }), isReg('definition'));
});

test('Annex 2 §5.2.5 Table 5-5: attributes are 64-bit values read as a double-word', () => {
  const { s, base } = build(2);
  const attr = new Uint8Array([0x80, 0x03, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78]);
  writeSessionAttribute(s, base, 1, attr);
  assert.deepEqual(readSessionAttribute(s, base, 1), attr);
  assert.equal(s.readWord(base + 0x18), 0x80030000);
  assert.equal(s.readWord(base + 0x1c), 0x12345678);
  assert.throws(() => readSessionAttribute(s, base, 2), isReg('out-of-range'));
  assert.throws(() => { writeSessionAttribute(s, base, 0, new Uint8Array(4)); }, isReg('size'));
});

test('Annex 2 §5.2: validation mode (strict) reads the block and checks reserved fields', () => {
  const { s, base } = build(2);
  initializeSessionBlock(s, base, { conveyance: 'MESSAGING', mailbox: 3 }, [new Uint8Array([0x01, 0, 0, 0, 0, 0, 0, 9])]);
  const state = readSessionBlock(s, base, { strict: true });
  assert.equal(state.locked, false);
  assert.equal(state.advertisement.mailbox, 3);
  assert.equal(state.attributeRange.sessMgmtNumAttr, 1);
  assert.deepEqual(state.attributes, [new Uint8Array([0x01, 0, 0, 0, 0, 0, 0, 9])]);
  s.writeLocal(base + SESSION_BLOCK.advertisement, 0x00010003);
  assert.throws(() => readSessionBlock(s, base, { strict: true }), isReg('reserved'));
  assert.equal(readSessionBlock(s, base).advertisement.mailbox, 3);
});

test('Annex 2 §5.2.4 Table 5-4: lowering Sess_Mgmt_Max_Attr below Sess_Mgmt_Num_Attr is refused by the typed view', () => {
  const { s, range } = build(4);
  attributeRangeView.update(s, range, { sessMgmtInitStage: 0, sessMgmtNumAttr: 3 });
  assert.throws(() => { attributeRangeView.update(s, range, { sessMgmtMaxAttr: 2 }); }, isReg('invalid'));
  // Max_Attr 4 (0x00040000), Init_Stage 0, Num_Attr 3.
  assert.equal(s.readWord(range), 0x00040003);
  attributeRangeView.update(s, range, { sessMgmtMaxAttr: 3 });
  assert.equal(decodeAttributeRange(s.readWord(range), { strict: true }).maxAttrRegisters, 6);
});

test('Annex 2 §5.2.3 Table 5-3: the typed view refuses a reserved conveyance and non-zero Conveyance_Info filler bits', () => {
  const { s, adv } = build();
  assert.throws(() => { advertisementView.set(s, adv, 'conveyance', 0x2); }, isReg('invalid'));
  assert.throws(() => { advertisementView.set(s, adv, 'conveyance', 0xe); }, isReg('invalid'));
  // Type 11 is 0x00000nn: bits 4-23 zero, so Conveyance_Info 0x0000100 is refused, 0x000002A accepted.
  assert.throws(() => { advertisementView.update(s, adv, { conveyance: 0x0, conveyanceInfo: 0x0000100 }); }, isReg('invalid'));
  advertisementView.update(s, adv, { conveyance: 0x0, conveyanceInfo: 0x000002a });
  assert.equal(s.readWord(adv), 0x0000002a);
  // Type 9 is 0x0ccssss: switching to it keeps COS 0x00 / StreamID 0x002A; bits 4-7 must stay 0.
  advertisementView.set(s, adv, 'conveyance', 0x1);
  assert.equal(s.readWord(adv), 0x1000002a);
  assert.throws(() => { advertisementView.set(s, adv, 'conveyanceInfo', 0x1c5beef); }, isReg('invalid'));
  assert.equal(decodeAdvertisement(s.readWord(adv), { strict: true }).streamId, 0x2a);
});

test('Annex 2 §5.2.5: the Sess_Mgmt_Num_Attr valid attributes are read, none while not initialized', () => {
  const { s, base } = build(4);
  for (let i = 0; i < 4; i++) writeSessionAttribute(s, base, i, new Uint8Array([0x80, 0x01, 0, 0, 0, 0, 0, i]));
  // Num_Attr is 0xFF (not initialized) after reset: no attribute is valid yet.
  assert.deepEqual(readSessionBlock(s, base).attributes, []);
  attributeRangeView.update(s, base + 0xc, { sessMgmtInitStage: 0, sessMgmtNumAttr: 2 });
  assert.deepEqual(readSessionBlock(s, base, { strict: true }).attributes.map((a) => a[7]), [0, 1]);
});
