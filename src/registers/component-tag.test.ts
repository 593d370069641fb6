import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from './builder.ts';
import { COMPONENT_TAG_OFFSET, checkComponentTagAdvertisement, componentTagRegister, componentTagView, componentTagWord, decodeComponentTag, encodeComponentTag, setComponentTagAdvertisement } from './component-tag.ts';
import { RegisterError } from './errors.ts';
import { RegisterSpace } from './space.ts';

const isReg = (code: string) => (e: unknown): boolean => e instanceof RegisterError && e.code === code;
const CT = 'Annex 2 §5.3 Table 5-6';

test(`${CT} / DECISIONS §7: Type 9 Sess_Mgmt_Chan_Info 0b1_0000_11110000 is StreamID 0xFFF0`, () => {
  // Bit 0 Sess_Mgmt_Sup = 1, bits 1-2 Sess_Mgmt_Chan = 0b01, bits 3-15 = 0b1_0000_11110000:
  // bits 0-7 = 1 01 1 0000 = 0xB0, bits 8-15 = 0xF0 -> 0xB0F00000.
  assert.equal(componentTagWord({ conveyance: 'DATA_STREAMING', streamId: 0xfff0 }), 0xb0f00000);
  const v = decodeComponentTag(0xb0f00000, { strict: true });
  assert.equal(v.sessMgmtSup, true);
  assert.equal(v.sessMgmtChanName, 'DATA_STREAMING');
  assert.equal(v.sessMgmtChanInfo, 0b1_0000_11110000);
  assert.equal(v.streamId, 0xfff0);
});

test(`${CT}: Type 9 with x = 0 means StreamID MSB 0x00`, () => {
  // 1 01 0 0000 = 0xA0, LSB 0x12 -> 0xA0120000.
  assert.equal(componentTagWord({ conveyance: 'DATA_STREAMING', streamId: 0x0012 }), 0xa0120000);
  assert.equal(decodeComponentTag(0xa0120000).streamId, 0x0012);
  assert.throws(() => componentTagWord({ conveyance: 'DATA_STREAMING', streamId: 0x1234 }), isReg('invalid'));
});

test(`${CT}: Type 11 Sess_Mgmt_Chan_Info is 00000 + 8-bit mailbox`, () => {
  // 1 00 00000 = 0x80, mailbox 0x2A in bits 8-15, component tag 0x5555 in 16-31.
  assert.equal(componentTagWord({ conveyance: 'MESSAGING', mailbox: 0x2a }, 0x5555), 0x802a5555);
  const v = decodeComponentTag(0x802a5555, { strict: true });
  assert.deepEqual([v.sessMgmtChanName, v.mailbox, v.streamId, v.componentTagLow], ['MESSAGING', 0x2a, null, 0x5555]);
  assert.throws(() => componentTagWord({ conveyance: 'MESSAGING', mailbox: 256 }), isReg('invalid'));
});

test(`${CT}: with Sess_Mgmt_Sup 0 the other bits carry no session management meaning`, () => {
  const v = decodeComponentTag(0x7fffffff, { strict: true });
  assert.deepEqual([v.sessMgmtSup, v.sessMgmtChanName, v.mailbox, v.streamId], [false, null, null, null]);
});

test(`${CT}: Sess_Mgmt_Chan 0b10 is reserved and 0b11 (Expansion) is a reserved expanded field`, () => {
  assert.equal(decodeComponentTag(0xc0000000).sessMgmtChanName, 'RESERVED');
  assert.equal(decodeComponentTag(0xe0000000).sessMgmtChanName, 'EXPANSION');
  assert.throws(() => decodeComponentTag(0xc0000000, { strict: true }), isReg('reserved'));
  assert.throws(() => decodeComponentTag(0xe0000000, { strict: true }), isReg('reserved'));
});

test(`${CT}: the zero bits of Sess_Mgmt_Chan_Info are checked in strict mode and kept in lenient mode`, () => {
  assert.throws(() => decodeComponentTag(0x902a0000, { strict: true }), isReg('reserved'));
  assert.throws(() => decodeComponentTag(0xa8120000, { strict: true }), isReg('reserved'));
  for (const w of [0x902a0000, 0xa8120000, 0xffffffff, 0]) assert.equal(encodeComponentTag(decodeComponentTag(w)), w);
});

test('Part 3 §3.5.4 Table 3-8: the Component Tag CSR resets to all 0s and is written by software', () => {
  const s = new RegisterSpace([componentTagRegister()]);
  assert.equal(s.readWord(COMPONENT_TAG_OFFSET), 0);
  s.writeWord(COMPONENT_TAG_OFFSET, 0x12345678);
  assert.equal(s.readWord(COMPONENT_TAG_OFFSET), 0x12345678);
});

test('Annex 2 §5.3: only devices whose Operations CARs indicate Data Message or Data Streaming may advertise in the Component Tag', () => {
  const plain = buildEndpointRegisters();
  assert.throws(() => { checkComponentTagAdvertisement(plain, { conveyance: 'MESSAGING', mailbox: 1 }); }, isReg('unsupported'));
  const msg = buildEndpointRegisters({ messaging: true, componentTag: 0x0000abcd });
  setComponentTagAdvertisement(msg, { conveyance: 'MESSAGING', mailbox: 1 });
  assert.equal(msg.readWord(COMPONENT_TAG_OFFSET), 0x8001abcd);
});

test('Annex 2 §5.3: the Component Tag may not advertise when a Session Management block exists, except Type 11 beside a Type 9 block (§3.3)', () => {
  const t11block = buildEndpointRegisters({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } });
  assert.throws(() => { setComponentTagAdvertisement(t11block, { conveyance: 'MESSAGING', mailbox: 1 }); }, isReg('unsupported'));
  const t9block = buildEndpointRegisters({ messaging: true, dataStreaming: { maxPdu: 1024, segSupport: 4, mtu: 64 }, session: { blocks: [{ conveyance: 'DATA_STREAMING', cos: 0, streamId: 1 }] } });
  assert.throws(() => { setComponentTagAdvertisement(t9block, { conveyance: 'DATA_STREAMING', streamId: 0xff01 }); }, isReg('unsupported'));
  setComponentTagAdvertisement(t9block, { conveyance: 'MESSAGING', mailbox: 1 });
  assert.equal(decodeComponentTag(t9block.readWord(COMPONENT_TAG_OFFSET)).mailbox, 1);
});

test(`${CT}: with Sess_Mgmt_Sup 1 the typed view refuses a reserved channel or non-zero filler bits; with Sup 0 the bits are free`, () => {
  const s = new RegisterSpace([componentTagRegister()]);
  assert.throws(() => { componentTagView.update(s, COMPONENT_TAG_OFFSET, { sessMgmtSup: true, sessMgmtChan: 0b10 }); }, isReg('invalid'));
  assert.throws(() => { componentTagView.update(s, COMPONENT_TAG_OFFSET, { sessMgmtSup: true, sessMgmtChan: 0b11 }); }, isReg('invalid'));
  // Type 11: bits 3-7 must be 0, so Chan_Info 0x100 (bit 7) is refused.
  assert.throws(() => { componentTagView.update(s, COMPONENT_TAG_OFFSET, { sessMgmtSup: true, sessMgmtChanInfo: 0x100 }); }, isReg('invalid'));
  // Sup 0: "no requirements on the remaining bits" (1 10 1111111111111 = 0x7FFF in bits 0-15).
  componentTagView.update(s, COMPONENT_TAG_OFFSET, { sessMgmtChan: 0b11, sessMgmtChanInfo: 0x1fff });
  assert.equal(s.readWord(COMPONENT_TAG_OFFSET), 0x7fff0000);
  // Setting Sup over those bits would make a reserved advertisement.
  assert.throws(() => { componentTagView.set(s, COMPONENT_TAG_OFFSET, 'sessMgmtSup', true); }, isReg('invalid'));
  // Type 9, x = 1, StreamID LSB 0xF0: 1 01 1 0000 11110000 = 0xB0F0.
  componentTagView.update(s, COMPONENT_TAG_OFFSET, { sessMgmtSup: true, sessMgmtChan: 0b01, sessMgmtChanInfo: 0b1_0000_11110000 });
  assert.equal(decodeComponentTag(s.readWord(COMPONENT_TAG_OFFSET), { strict: true }).streamId, 0xfff0);
});
