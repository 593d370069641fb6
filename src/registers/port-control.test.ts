import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EF_ID, layoutEfChain } from './ef-chain.ts';
import { RegisterError } from './errors.ts';
import { LpSerialMap, decodePortControl, encodePortControl, lpSerialBlock, portControlOffset, portControlView, portParticipation } from './port-control.ts';
import { RegisterSpace } from './space.ts';

const isReg = (code: string) => (e: unknown): boolean => e instanceof RegisterError && e.code === code;

function endpoint(flowControl = true, flowArb = true, ports = 2, map: LpSerialMap = LpSerialMap.I): { s: RegisterSpace; base: number } {
  const s = new RegisterSpace();
  const [p] = layoutEfChain(s, [lpSerialBlock({ ports, map, flowControl, flowArb })]);
  return { s, base: p?.base ?? 0 };
}

test('Part 9 §4.3 Table 4-2: Port n Control CSR block offsets 0x5C, 0x7C, ..., 0x23C (Register Map I, 0x20 per port)', () => {
  assert.equal(portControlOffset(0x100, 0), 0x15c);
  assert.equal(portControlOffset(0x100, 1), 0x17c);
  assert.equal(portControlOffset(0, 15), 0x23c);
  assert.throws(() => portControlOffset(0, 256), isReg('out-of-range'));
  assert.throws(() => portControlOffset(0, -1), isReg('out-of-range'));
});

test('Part 6 §7.6.11: Register Map II places Port n Control CSRs at 0x5C, 0x9C, ..., 0x41C', () => {
  assert.equal(portControlOffset(0, 1, LpSerialMap.II), 0x9c);
  assert.equal(portControlOffset(0, 15, LpSerialMap.II), 0x41c);
  const { s, base } = endpoint(true, true, 2, LpSerialMap.II);
  assert.equal(s.readWord(base) & 0xffff, EF_ID.lpSerialEndpointII);
  assert.equal(s.definition(base + 0x9c)?.name, 'Port 1 Control CSR');
});

test('Part 6 §7.5.5: the LP-Serial block header carries EF_ID 0x0001 (Register Map I) and the block spans 0x40 + 0x20 per port', () => {
  const { s, base } = endpoint(true, true, 4);
  assert.equal(s.readWord(base), 0x00000001);
  assert.equal(lpSerialBlock({ ports: 4, flowControl: true, flowArb: true }).size, 0xc0);
  assert.equal(s.definition(base + 0xbc)?.name, 'Port 3 Control CSR');
});

test('Part 9 §4.3 Table 4-2: serial bit 13 Flow Control Participant is 0x00040000, reset 0b0', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  // Reset value: only Port Type (bit 31, serial) set.
  assert.equal(s.readWord(off), 0x00000001);
  portControlView.set(s, off, 'flowControlParticipant', true);
  assert.equal(s.readWord(off), 0x00040001);
});

test('Part 9 §4.3 Table 4-2: serial bit 15 Flow Arbitration Participant is 0x00010000, reset 0b0', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 1);
  assert.equal(portControlView.get(s, off, 'flowArbitrationParticipant'), false);
  portControlView.set(s, off, 'flowArbitrationParticipant', true);
  assert.equal(s.readWord(off), 0x00010001);
});

test('Part 9 §4.3 Table 4-2: both participant bits are writable by MAINTENANCE writes', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  s.writeWord(off, 0x00050000);
  assert.deepEqual(portParticipation(s.readWord(off)), { flowControl: true, flowArbitration: true });
  s.writeWord(off, 0x00000000);
  assert.deepEqual(portParticipation(s.readWord(off)), { flowControl: false, flowArbitration: false });
});

test('Part 9 §4.2 Table 4-1: without flow control / flow arbitration support bits 13 and 15 stay reserved (read 0, writes ignored)', () => {
  const { s, base } = endpoint(false, false);
  const off = portControlOffset(base, 0);
  s.writeWord(off, 0x00050000);
  assert.equal(s.readWord(off) & 0x00050000, 0);
  assert.throws(() => { portControlView.set(s, off, 'flowControlParticipant', true); }, isReg('unsupported'));
  portControlView.set(s, off, 'flowArbitrationParticipant', false);
});

test('Part 6 §7.6.11 Table 7-17: port width support, initialized width, extended width support and port type are read-only; 28-30 reserved', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  // The element reports 2x/4x support (bits 0-1 = 0b11) and initialized 4x (bits 2-4 = 0b010):
  // top byte 0b1101_0000 = 0xD0, port type bit 31 = 1.
  s.writeLocal(off, 0xd0000001);
  s.writeWord(off, 0x3ffffffe);
  // Read-only 0xD0000001 kept (impl-defined 20-27 and 18-19 stay 0); writable bits 5-15
  // (0x07FF0000) taken from the write; bits 16-17 (8x, 16x enables) cleared because bits 18-19
  // list neither mode; reserved 28-30 read 0.
  assert.equal(s.readWord(off), 0xd7ff0001);
  const v = decodePortControl(s.readWord(off));
  assert.equal(v.initializedPortWidthName, '4X');
  assert.equal(v.portTypeName, 'SERIAL');
});

test('Part 6 §7.6.11 Table 7-17: "When bit [5] = 0b0, bits 16-17 are Reserved"', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  s.writeLocal(off, 0x00003001); // the port supports 8x and 16x (Extended Port Width Support, bits 18-19)
  s.writeWord(off, 0x0000c000);
  assert.equal(s.readWord(off) & 0x0000c000, 0);
  s.writeWord(off, 0x0400c000);
  assert.equal(s.readWord(off) & 0x0400c000, 0x0400c000);
});

test('Part 6 §7.6.11 Table 7-17: "The port shall not allow the enabling of a link width mode that is not supported by the port": unsupported enables read back 0', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  const enables = (): number => (s.readWord(off) >>> 0) & 0x0300c000; // bits 6, 7 (4x, 2x), 16, 17 (8x, 16x)
  s.writeLocal(off, 0x00000001); // 1x only
  s.writeWord(off, 0x0700c001); // force every width on
  assert.equal(enables(), 0);
  assert.equal((s.readWord(off) >>> 26) & 1, 1, 'bit 5 stays: 0b10000, the implementation-specific setting');
  s.writeLocal(off, 0x80001001); // 2x (bit 0) and 16x (bit 19) supported
  s.writeWord(off, 0x0700c001);
  assert.equal(enables(), 0x01004000); // 2x (bit 7) and 16x (bit 17)
  s.writeLocal(off, 0xc0003001); // everything supported
  s.writeWord(off, 0x0700c001);
  assert.equal(enables(), 0x0300c000);
  s.writeWord(off, 0x0200c001); // bit 5 clear: 0b010xx, force 1x; bits 16-17 reserved
  assert.equal(enables(), 0x02000000);
});

test('Part 6 §7.6.11 Table 7-17: port width override 0b001xx is reserved (typed view refuses, strict decode throws)', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  assert.throws(() => { portControlView.set(s, off, 'portWidthOverride', 0b001); }, isReg('invalid'));
  portControlView.set(s, off, 'portWidthOverride', 0b010);
  assert.equal(s.readWord(off) & 0x07000000, 0x02000000);
  assert.throws(() => decodePortControl(0x01000001, { strict: true }), isReg('reserved'));
});

test('Part 6 §7.6.11 Table 7-17: strict decode rejects reserved bits, widths and port type 0; lenient keeps them', () => {
  assert.throws(() => decodePortControl(0x00000008, { strict: true }), isReg('reserved'));
  assert.throws(() => decodePortControl(0x38000001, { strict: true }), isReg('reserved'));
  assert.throws(() => decodePortControl(0x00000000, { strict: true }), isReg('reserved'));
  assert.throws(() => decodePortControl(0x0000c001, { strict: true }), isReg('reserved'));
  const v = decodePortControl(0x3800000e);
  assert.equal(v.initializedPortWidthName, 'RESERVED');
  assert.equal(v.rsrv, 0x0000000e);
  assert.equal(encodePortControl(v), 0x3800000e);
  assert.equal(decodePortControl(0x00650001, { strict: true }).flowControlParticipant, true);
});

test(`Part 10 §5.3 Table 5-2: implementation-defined bits 20-27 hold the element's value against MAINTENANCE writes`, () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  s.writeLocal(off, 0x00000ab1);
  s.writeWord(off, 0);
  assert.equal(s.readWord(off) & 0x00000ff0, 0x00000ab0);
});

test('Part 6 §7.6.11 Table 7-17: the typed view refuses bits 16-17 while bit 5 is 0, initialized width 0b11x and port type 0', () => {
  const { s, base } = endpoint();
  const off = portControlOffset(base, 0);
  assert.throws(() => { portControlView.set(s, off, 'extendedPortWidthOverride', 0b11); }, isReg('invalid'));
  s.writeLocal(off, 0x00003001); // the port supports 8x and 16x (bits 18-19)
  // With bit 5 set in the same update: 0b1xx in bits 5-7 (0x04000000) and 0b11 in 16-17 (0x0000C000).
  portControlView.update(s, off, { portWidthOverride: 0b100, extendedPortWidthOverride: 0b11 });
  assert.equal(s.readWord(off), 0x0400f001);
  assert.throws(() => { portControlView.set(s, off, 'initializedPortWidth', 0b110); }, isReg('invalid'));
  assert.throws(() => { portControlView.set(s, off, 'initializedPortWidth', 0b111); }, isReg('invalid'));
  portControlView.set(s, off, 'initializedPortWidth', 0b101);
  assert.throws(() => { portControlView.set(s, off, 'portType', false); }, isReg('invalid'));
  assert.equal(decodePortControl(s.readWord(off), { strict: true }).initializedPortWidthName, '16X');
});
