import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpointRegisters } from './builder.ts';
import type { EndpointConfig } from './builder.ts';
import { EF_ID, findEfBlocks, walkExtendedFeatures } from './ef-chain.ts';
import { RegisterError } from './errors.ts';
import { readSessionBlock } from './session-block.ts';
import { readVoqPortControl } from './voq-block.ts';

const isReg = (code: string) => (e: unknown): boolean => e instanceof RegisterError && e.code === code;

const FULL: EndpointConfig = {
  flowControl: true,
  flowArb: true,
  ports: 2,
  messaging: true,
  dataStreaming: { maxPdu: 65536, segSupport: 16, mtu: 256, tm: { types: 'BASIC_RATE', mode: 'RATE' } },
  voq: { format: 'seed' },
  session: {
    blocks: [{ conveyance: 'DATA_STREAMING', cos: 0xff, streamId: 0xfff0, maxAttr: 2, attributes: [new Uint8Array([0x80, 0x03, 0, 0, 0, 0, 0, 1])] }],
    componentTag: { conveyance: 'MESSAGING', mailbox: 2 },
  },
};

test('Part 1 §5.3 / DECISIONS §6: a full endpoint lays out every register bit for bit', () => {
  const s = buildEndpointRegisters(FULL);
  const words = new Map(s.definitions().map((d) => [d.offset, s.readWord(d.offset)]));
  const expected: [number, number][] = [
    // Assembly Information CAR: AssyRev 0 | ExtendedFeaturesPtr 0x0100.
    [0x0c, 0x00000100],
    // PE Features: bit 20 flow arbitration 0x800 + bit 24 flow control 0x80 + bit 26 CRF 0x20 +
    // bit 27 Dev16 0x10 + bit 28 extended features 0x08 + bits 29-31 = 0b001 (34-bit) = 0x8B9.
    [0x10, 0x000008b9],
    // Operations CARs: bit 12 DS TM 0x80000 + bit 13 DS 0x40000 + bit 20 data message 0x800 +
    // bit 21 doorbell 0x400.
    [0x18, 0x000c0c00],
    [0x1c, 0x000c0c00],
    // DS Information: MaxPDU 65536 -> 0x0000 | SegSupport 0x0010.
    [0x3c, 0x00000010],
    // DS LL Control: TM types 0b1100 (Basic + Rate) | mode 0b0010 (Rate) | MTU 256/4 = 0x40.
    [0x48, 0xc2000040],
    // Component Tag: Sup 1, Chan 0b00 (Type 11), 00000, mailbox 0x02 -> 0x8002 in bits 0-15.
    [0x6c, 0x80020000],
    // LP-Serial header: next block at 0x100 + 0x40 + 2 * 0x20 = 0x180 | EF_ID 0x0001.
    [0x100, 0x01800001],
    // Port 0/1 Control: output enable bit 9 0x00400000 + input enable bit 10 0x00200000 + flow
    // control participant bit 13 0x00040000 + flow arbitration participant bit 15 0x00010000 +
    // port type bit 31 0x1.
    [0x15c, 0x00650001],
    [0x17c, 0x00650001],
    // VoQ header: block of 0x0C + 2 * 4 = 0x14 bytes, next on the double-word boundary 0x198.
    [0x180, 0x0198000b],
    // Port 0/1 VoQ Control: generation and reception supported (bits 0, 1).
    [0x18c, 0xc0000000],
    [0x190, 0xc0000000],
    [0x198, 0x0000000c],
    [0x19c, 0x0000ffff],
    // Advertisement: conveyance 0x1 | 0x0 | COS 0xFF | StreamID 0xFFF0.
    [0x1a0, 0x10fffff0],
    // Attribute range: Max_Attr 2 (bits 8-15) | Init_Stage 0 | Num_Attr 1.
    [0x1a4, 0x00020001],
    [0x1a8, 0x80030000],
    [0x1ac, 0x00000001],
  ];
  for (const [off, w] of expected) assert.equal(words.get(off), w, `0x${off.toString(16)}`);
  assert.deepEqual(walkExtendedFeatures(s, { strict: true }).blocks.map((b) => b.efId), [EF_ID.lpSerialEndpoint, EF_ID.voqBackpressure, EF_ID.sessionManagement]);
  assert.equal(readSessionBlock(s, 0x198, { strict: true }).advertisement.streamId, 0xfff0);
  assert.equal(readVoqPortControl(s, 0x180, 1).format, 'seed');
});

test('Annex 2 §3.2 / Part 9 §4.3: reset() returns to the hardware reset state (no participation, ports stopped)', () => {
  const s = buildEndpointRegisters(FULL);
  s.reset();
  assert.equal(s.readWord(0x15c), 0x00000001);
  assert.equal(s.readWord(0x1a0), 0xf0000000);
  assert.equal(s.readWord(0x1a4), 0x000201ff);
  assert.equal(s.readWord(0x6c), 0);
  assert.equal(s.readWord(0x48), 0xc2000040);
});

test('Part 9 §4.2 Table 4-1: an endpoint without flow control support has bits 20/24 clear and reserved participant bits', () => {
  const s = buildEndpointRegisters();
  // CRF 0x20 + Dev16 0x10 + extended features 0x08 + 34-bit addressing 0x1.
  assert.equal(s.readWord(0x10), 0x00000039);
  s.writeWord(0x15c, 0x00050000);
  assert.equal(s.readWord(0x15c) & 0x00050000, 0);
  assert.equal(s.readWord(0x3c), 0);
  assert.equal(s.readWord(0x48), 0);
  assert.equal(walkExtendedFeatures(s).blocks.length, 1);
});

test('Part 9 §4.2 Table 4-1: flow arbitration alone sets bit 20 (0x00000800) only', () => {
  const s = buildEndpointRegisters({ flowArb: true });
  assert.equal(s.readWord(0x10) & 0x00000880, 0x00000800);
  assert.equal(s.readWord(0x15c) & 0x00050000, 0x00010000);
});

test('VoQ Backpressure §5.1.2: the VoQ block has one register per port of the endpoint', () => {
  assert.throws(() => buildEndpointRegisters({ ports: 2, voq: { ports: 1 } }), isReg('definition'));
  const s = buildEndpointRegisters({ voq: { format: 'part12-rev4.1' }, lpSerialMap: 'II' });
  const [voq] = findEfBlocks(s, EF_ID.voqBackpressure);
  assert.ok(voq !== undefined);
  assert.equal(s.definition(voq + 0x20)?.name, 'Port 0 VoQ Control CSR');
  assert.equal(s.definition(voq + 0x24), undefined);
  assert.equal(s.readWord(0x100) & 0xffff, EF_ID.lpSerialEndpointII);
});

test('Part 10 §5.5.1 Table 5-6 / §3.4.5: the builder refuses an MTU or TM mode the register cannot hold', () => {
  assert.throws(() => buildEndpointRegisters({ dataStreaming: { maxPdu: 64, segSupport: 1, mtu: 30 } }), isReg('invalid'));
  assert.throws(() => buildEndpointRegisters({ dataStreaming: { maxPdu: 64, segSupport: 1, mtu: 64, tm: { types: 'BASIC_RATE', mode: 'CREDIT' } } }), isReg('invalid'));
  assert.throws(() => buildEndpointRegisters({ dataStreaming: { maxPdu: 0, segSupport: 1, mtu: 64 } }), isReg('range'));
  const s = buildEndpointRegisters({ dataStreaming: { maxPdu: 64, segSupport: 1, mtu: 64, tm: { types: 'BASIC_RATE_CREDIT', mode: 9 } } });
  assert.equal(s.readWord(0x48), 0xe9000010);
});

test('Annex 2 §5.3: the builder refuses a Component Tag advertisement without Data Message / Data Streaming support', () => {
  assert.throws(() => buildEndpointRegisters({ session: { componentTag: { conveyance: 'MESSAGING', mailbox: 0 } } }), isReg('unsupported'));
  const s = buildEndpointRegisters({ dataStreaming: { maxPdu: 64, segSupport: 1, mtu: 64 }, session: { componentTag: { conveyance: 'DATA_STREAMING', streamId: 0xfff0 } }, componentTag: 0x1234 });
  assert.equal(s.readWord(0x6c), 0xb0f01234);
});

test('Annex 2 §5.2: one Session Management block per conveyance, chained in the order given', () => {
  const s = buildEndpointRegisters({
    messaging: true,
    dataStreaming: { maxPdu: 1024, segSupport: 4, mtu: 64 },
    session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3, maxAttr: 1 }, { conveyance: 'DATA_STREAMING', cos: 0x20, streamId: 0x0102, maxAttr: 1 }] },
  });
  const bases = findEfBlocks(s, EF_ID.sessionManagement);
  assert.equal(bases.length, 2);
  const [t11, t9] = bases.map((b) => readSessionBlock(s, b, { strict: true }).advertisement);
  // Type 11: 0x0 | 0x00000 | mailbox 0x03; Type 9: 0x1 | 0x0 | COS 0x20 | StreamID 0x0102.
  assert.deepEqual([t11?.conveyanceName, t11?.mailbox, t9?.conveyanceName, t9?.cos, t9?.streamId], ['MESSAGING', 3, 'DATA_STREAMING', 0x20, 0x0102]);
  assert.equal(s.readWord(bases[0] ?? 0) >>> 16, bases[1]);
  assert.equal(s.readWord(bases[1] ?? 0) >>> 16, 0);
});

test('Annex 2 §5.2.5: by default a block implements 8 attributes (16 registers), above the recommended 8 registers', () => {
  const s = buildEndpointRegisters({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 0 }] } });
  const [base] = findEfBlocks(s, EF_ID.sessionManagement);
  assert.ok(base !== undefined);
  // Attribute Range CSR: Max_Attr 8 in bits 8-15, Init_Stage 0, Num_Attr 0 (no attribute given).
  assert.equal(s.readWord(base + 0xc), 0x00080000);
  assert.equal(readSessionBlock(s, base).attributeRange.maxAttrRegisters, 16);
  assert.ok(s.definition(base + 0x10 + 4 * 15) !== undefined);
  assert.equal(s.definition(base + 0x10 + 4 * 16), undefined);
});

test('Part 1 Table 5-5: a PE Features configuration riodp could not read back strictly is refused (reserved Extended Addressing Support, bit 22 without bit 23)', () => {
  const refused = (peFeatures: NonNullable<EndpointConfig['peFeatures']>, clause: RegExp): void => {
    assert.throws(
      () => buildEndpointRegisters({ peFeatures }),
      (e: unknown) => e instanceof RegisterError && e.code === 'definition' && e.register === 'buildEndpointRegisters' && clause.test(e.clause) && /^peFeatures: /.test(e.detail),
    );
  };
  refused({ extendedAddressingSupport: 0b010 }, /./);
  refused({ extendedRouteTableConfigSupport: true, standardRouteTableConfigSupport: false }, /./);
  assert.doesNotThrow(() => buildEndpointRegisters({ peFeatures: { extendedAddressingSupport: 0b101 } }));
});
