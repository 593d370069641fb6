import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EF_ID, layoutEfChain } from './ef-chain.ts';
import { RegisterError } from './errors.ts';
import { RegisterSpace } from './space.ts';
import {
  decodeVoqPortControl,
  encodeVoqPortControl,
  portStatusControl,
  readVoqPortControl,
  reflectedPortStatus,
  updateVoqPortControl,
  voqBlock,
  voqPortOffset,
} from './voq-block.ts';
import type { VoqBlockOptions } from './voq-block.ts';

const isReg = (code: string) => (e: unknown): boolean => e instanceof RegisterError && e.code === code;

function build(opts: VoqBlockOptions): { s: RegisterSpace; base: number } {
  const s = new RegisterSpace();
  const [p] = layoutEfChain(s, [voqBlock(opts)]);
  return { s, base: p?.base ?? 0 };
}

test('VoQ Backpressure §5.1: the block header carries EF_ID 0x000B', () => {
  const { s, base } = build({ ports: 1 });
  assert.equal(s.readWord(base), 0x0000000b);
  assert.equal(build({ ports: 1, format: 'part12-rev4.1' }).s.readWord(0x100), 0x0000000b);
});

test('VoQ Backpressure §5.1.1 Table 5-1: Port n VoQ Control CSR at 0x0C + 4n, port 191 at 0x308', () => {
  assert.equal(voqPortOffset(0, 0), 0x0c);
  assert.equal(voqPortOffset(0, 1), 0x10);
  assert.equal(voqPortOffset(0, 3), 0x18);
  assert.equal(voqPortOffset(0, 191), 0x308);
  assert.throws(() => voqPortOffset(0, 192), isReg('out-of-range'));
  const { s, base } = build({ ports: 192 });
  assert.equal(s.definition(base + 0x308)?.name, 'Port 191 VoQ Control CSR');
  assert.equal(s.readWord(base + 0x4), 0); // 0x4-0x8 are not in Table 5-1: reserved registers
});

test('Part 12 §5.1.1 Table 5-1: Port n VoQ Control CSR at 0x20 + 4n, port 255 at 0x41C', () => {
  assert.equal(voqPortOffset(0, 0, 'part12-rev4.1'), 0x20);
  assert.equal(voqPortOffset(0, 3, 'part12-rev4.1'), 0x2c);
  assert.equal(voqPortOffset(0, 255, 'part12-rev4.1'), 0x41c);
  assert.throws(() => voqPortOffset(0, 256, 'part12-rev4.1'), isReg('out-of-range'));
});

test('VoQ Backpressure §5.1.2: single port end points implement the port 0 register only', () => {
  const { s, base } = build({ ports: 1 });
  assert.equal(s.definition(base + 0x10), undefined);
  assert.equal(s.readWord(base + 0x10), 0);
  assert.throws(() => readVoqPortControl(s, base, 1), isReg('out-of-range'));
  assert.equal(readVoqPortControl(s, base, 0).format, 'seed');
  assert.throws(() => readVoqPortControl(s, base + 8, 0), isReg('ef-id'));
});

test('VoQ Backpressure §5.1.2.2 Table 5-3: bits 0/1/2 support (read-only), 8 generation, 9 participation, 10 Port XOFF, 11 VC linking', () => {
  const { s, base } = build({ ports: 1, capabilities: { generation: true, reception: true, vc: true } });
  const off = voqPortOffset(base, 0);
  // Reset: bits 0, 1, 2 set = 0xE0000000.
  assert.equal(s.readWord(off), 0xe0000000);
  updateVoqPortControl(s, base, 0, 'seed', { enableVoqSymbolGeneration: true });
  assert.equal(s.readWord(off), 0xe0800000);
  updateVoqPortControl(s, base, 0, 'seed', { enableVoqSymbolGeneration: false, enableVoqParticipation: true });
  assert.equal(s.readWord(off), 0xe0400000);
  updateVoqPortControl(s, base, 0, 'seed', { enableVoqParticipation: false, portXoff: true });
  assert.equal(s.readWord(off), 0xe0200000);
  updateVoqPortControl(s, base, 0, 'seed', { portXoff: false, enableVcLinking: true });
  assert.equal(s.readWord(off), 0xe0100000);
});

test('VoQ Backpressure §5.1.2.2 Table 5-3: support bits are read-only, 3-7 and 12-31 reserved, 8-11 writable, reset 0b0', () => {
  const { s, base } = build({ ports: 2, capabilities: (n) => ({ generation: n === 0, reception: true, vc: false }) });
  s.writeWord(base + 0x0c, 0x1fffffff);
  // Bits 0-2 stay 0b110 (reset), 8-11 written (0x00F00000), everything else reads 0.
  assert.equal(s.readWord(base + 0x0c), 0xc0f00000);
  assert.equal(s.readWord(base + 0x10), 0x40000000);
});

test('VoQ Backpressure §5.1.2.2: generation and VC linking are refused by the typed view on ports that do not support them', () => {
  const { s, base } = build({ ports: 1, capabilities: { generation: false, reception: true, vc: false } });
  assert.throws(() => { updateVoqPortControl(s, base, 0, 'seed', { enableVoqSymbolGeneration: true }); }, isReg('invalid'));
  assert.throws(() => { updateVoqPortControl(s, base, 0, 'seed', { enableVcLinking: true }); }, isReg('invalid'));
});

test('VoQ Backpressure §5.1.2.2 Table 5-4: bits 9 and 10 combine into the reflected port status', () => {
  assert.equal(portStatusControl(false, false), 'ALWAYS_0_NO_SYMBOLS');
  assert.equal(portStatusControl(false, true), 'ALWAYS_1_NO_SYMBOLS');
  assert.equal(portStatusControl(true, false), 'NORMAL');
  assert.equal(portStatusControl(true, true), 'ALWAYS_1');
  assert.deepEqual(reflectedPortStatus(false, false, true), { status: 0, triggersSymbols: false });
  assert.deepEqual(reflectedPortStatus(false, true, false), { status: 1, triggersSymbols: false });
  assert.deepEqual(reflectedPortStatus(true, false, true), { status: 1, triggersSymbols: true });
  assert.deepEqual(reflectedPortStatus(true, false, false), { status: 0, triggersSymbols: true });
  assert.deepEqual(reflectedPortStatus(true, true, false), { status: 1, triggersSymbols: true });
  assert.equal(decodeVoqPortControl(0x00600000).portStatusControl, 'ALWAYS_1');
});

test('Part 12 §5.1.2.2 Table 5-3: port group size 0 and 4 support reset to 0b1; bits 12-18 read-only; TX size 26-28, RX size 29-31', () => {
  const { s, base } = build({ ports: 1, format: 'part12-rev4.1', capabilities: { generation: true, reception: true, vc: false, groupSizes: [2] } });
  const off = voqPortOffset(base, 0, 'part12-rev4.1');
  // Bits 0,1 (0xC0000000) | size 0 bit 12 (0x00080000) | size 2 bit 14 (0x00020000) | size 4 bit 16 (0x00008000).
  assert.equal(s.readWord(off), 0xc00a8000);
  updateVoqPortControl(s, base, 0, 'part12-rev4.1', { txPortGroupSize: 4, rxPortGroupSize: 2 });
  // TX 4 = 0b100 in bits 26-28 (0x00000020), RX 2 = 0b010 in bits 29-31 (0x00000002).
  assert.equal(s.readWord(off), 0xc00a8022);
  s.writeWord(off, 0x00000000);
  assert.equal(s.readWord(off), 0xc00a8000);
});

test('Part 12 §5.1.2.2 Table 5-3: group size 0x7 is reserved and unsupported sizes are refused by the typed view', () => {
  const { s, base } = build({ ports: 1, format: 'part12-rev4.1' });
  assert.throws(() => { updateVoqPortControl(s, base, 0, 'part12-rev4.1', { rxPortGroupSize: 7 }); }, isReg('invalid'));
  assert.throws(() => { updateVoqPortControl(s, base, 0, 'part12-rev4.1', { rxPortGroupSize: 3 }); }, isReg('invalid'));
  updateVoqPortControl(s, base, 0, 'part12-rev4.1', { rxPortGroupSize: 0 });
  assert.throws(() => decodeVoqPortControl(0x00000007, 'part12-rev4.1', { strict: true }), isReg('reserved'));
  assert.throws(() => decodeVoqPortControl(0x00000038, 'part12-rev4.1', { strict: true }), isReg('reserved'));
});

test('Part 12 §5.1.2.2 Table 5-3: TX Port Group Size "shall be changed only when Enable VoQ Symbol Generation is cleared"', () => {
  const { s, base } = build({ ports: 1, format: 'part12-rev4.1' });
  updateVoqPortControl(s, base, 0, 'part12-rev4.1', { enableVoqSymbolGeneration: true });
  assert.throws(() => { updateVoqPortControl(s, base, 0, 'part12-rev4.1', { txPortGroupSize: 4 }); }, isReg('invalid'));
  updateVoqPortControl(s, base, 0, 'part12-rev4.1', { enableVoqSymbolGeneration: false, txPortGroupSize: 4 });
  assert.equal(readVoqPortControl(s, base, 0, 'part12-rev4.1').format, 'part12-rev4.1');
});

test('Part 12 §5.1.2.2 Table 5-3: bit 11 is reserved when VoQ Backpressure Per VC Supported is 0', () => {
  const without = build({ ports: 1, format: 'part12-rev4.1', capabilities: { generation: true, reception: true, vc: false } });
  without.s.writeWord(without.base + 0x20, 0x00100000);
  assert.equal(without.s.readWord(without.base + 0x20) & 0x00100000, 0);
  const withVc = build({ ports: 1, format: 'part12-rev4.1', capabilities: { generation: true, reception: true, vc: true } });
  withVc.s.writeWord(withVc.base + 0x20, 0x00100000);
  assert.equal(withVc.s.readWord(withVc.base + 0x20) & 0x00100000, 0x00100000);
  assert.throws(() => decodeVoqPortControl(0x00100000, 'part12-rev4.1', { strict: true }), isReg('reserved'));
});

test('VoQ Backpressure §5.1.2.2 Table 5-3: lenient decode keeps reserved bits for the round trip in both formats; strict rejects them', () => {
  for (const w of [0x1f0fffff, 0xe0f00000]) assert.equal(encodeVoqPortControl(decodeVoqPortControl(w)), w);
  for (const w of [0x1f07fe00, 0xfffffe3f]) assert.equal(encodeVoqPortControl(decodeVoqPortControl(w, 'part12-rev4.1')), w);
  assert.throws(() => decodeVoqPortControl(0x10000000, 'seed', { strict: true }), isReg('reserved'));
  assert.throws(() => decodeVoqPortControl(0x00000100, 'part12-rev4.1', { strict: true }), isReg('reserved'));
  assert.equal(EF_ID.voqBackpressure, 0x000b);
});
