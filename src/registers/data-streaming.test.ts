import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DS_CONTROL_OFFSET,
  DS_INFO_OFFSET,
  countFromField,
  decodeDsControl,
  decodeDsInfo,
  dsControl,
  dsControlRegister,
  dsInfoRegister,
  encodeDsControl,
  encodeDsInfo,
  fieldFromCount,
  getMtuBytes,
  mtuBytesFromEncoding,
  mtuEncoding,
  setMtuBytes,
  tmTypesName,
} from './data-streaming.ts';
import { RegisterError } from './errors.ts';
import { RegisterSpace } from './space.ts';

const isReg = (code: string) => (e: unknown): boolean => e instanceof RegisterError && e.code === code;

/** TM types 0b1110 (Basic+Rate+Credit), mode disabled, MTU 0x40: 0xE0000040. */
function fresh(reset = 0xe0000040): RegisterSpace {
  return new RegisterSpace([dsInfoRegister(65536, 1), dsControlRegister(reset)]);
}

test('Part 10 §5.4.3 Table 5-5: MaxPDU is bits 0-15, SegSupport bits 16-31; 0x0000 means 64K', () => {
  // MaxPDU 0x0000 (64 Kbytes) in the upper half, SegSupport 0x0001 in the lower half.
  const s = fresh();
  assert.equal(s.readWord(DS_INFO_OFFSET), 0x00000001);
  const v = decodeDsInfo(0x00000001);
  assert.deepEqual([v.maxPdu, v.maxPduBytes, v.segSupport, v.segContexts], [0, 65536, 1, 1]);
  const w = decodeDsInfo(0xffff0000);
  assert.deepEqual([w.maxPduBytes, w.segContexts], [65535, 65536]);
  assert.equal(encodeDsInfo(w), 0xffff0000);
  assert.equal(countFromField(2), 2);
});

test('Part 10 §5.4.3 Table 5-5: only 1..65536 bytes / contexts are representable', () => {
  assert.equal(fieldFromCount(65536, 'maxPdu'), 0);
  assert.equal(fieldFromCount(256, 'maxPdu'), 0x100);
  assert.throws(() => fieldFromCount(0, 'maxPdu'), isReg('range'));
  assert.throws(() => fieldFromCount(65537, 'segSupport'), isReg('range'));
});

test('Part 10 §5.4.3: the Data Streaming Information CAR is read-only', () => {
  const s = fresh();
  s.writeWord(DS_INFO_OFFSET, 0x12345678);
  assert.equal(s.readWord(DS_INFO_OFFSET), 0x00000001);
});

test('Part 10 §5.5.1 Table 5-6: TM Types bits 0-3 (0xF0000000), TM Mode bits 4-7 (0x0F000000), MTU bits 24-31 (0x000000FF)', () => {
  const s = fresh(0);
  s.writeLocal(DS_CONTROL_OFFSET, 0);
  dsControl.set(s, 'tmTypesSupported', 0b1110);
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xe0000000);
  dsControl.set(s, 'tmMode', 0b0100);
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xe4000000);
  dsControl.set(s, 'mtu', 0x40);
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xe4000040);
});

test('Part 10 §5.5.1 Table 5-6: TM Types Supported is read only; bits 8-23 reserved read 0; TM Mode and MTU are writable', () => {
  const s = fresh();
  s.writeWord(DS_CONTROL_OFFSET, 0xffffffff);
  // TM types 0b1110 kept, TM mode 0xF and MTU 0xFF written, bits 8-23 (and bit 3) read 0.
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xef0000ff);
  s.writeWord(DS_CONTROL_OFFSET, 0x01000020);
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xe1000020);
});

test('Part 10 §5.5.1 Table 5-6: MTU encoding 0x07 is reserved', () => {
  assert.equal(mtuBytesFromEncoding(0x07), null);
  assert.throws(() => { dsControl.set(fresh(), 'mtu', 0x07); }, isReg('invalid'));
  assert.throws(() => decodeDsControl(0xe0000007, { strict: true }), isReg('reserved'));
  assert.equal(decodeDsControl(0xe0000007).mtuBytes, null);
});

test('Part 10 §5.5.1 Table 5-6: MTU encoding 0x08 is a 32 byte block size', () => {
  assert.equal(mtuBytesFromEncoding(0x08), 32);
  assert.equal(mtuEncoding(32), 0x08);
  const s = fresh();
  setMtuBytes(s, 32);
  assert.equal(s.readWord(DS_CONTROL_OFFSET) & 0xff, 0x08);
});

test('Part 10 §5.5.1 Table 5-6: MTU encoding 0x40 is a 256 byte block size', () => {
  assert.equal(mtuBytesFromEncoding(0x40), 256);
  assert.equal(decodeDsControl(0xe0000040, { strict: true }).mtuBytes, 256);
  assert.equal(getMtuBytes(fresh()), 256);
});

test('Part 10 §5.5.1 Table 5-6: MTU encoding 0x41 is reserved', () => {
  assert.equal(mtuBytesFromEncoding(0x41), null);
  assert.throws(() => { dsControl.set(fresh(), 'mtu', 0x41); }, isReg('invalid'));
  assert.throws(() => decodeDsControl(0xe0000041, { strict: true }), isReg('reserved'));
});

test('Part 10 §5.5.1 Table 5-6: the MTU is specified in increments of 4 bytes: 36 bytes is 0x09, 33 and 258 bytes are refused', () => {
  assert.equal(mtuEncoding(36), 0x09);
  assert.throws(() => mtuEncoding(33), isReg('invalid'));
  assert.throws(() => mtuEncoding(258), isReg('invalid'));
  assert.throws(() => mtuEncoding(28), isReg('invalid'));
  assert.throws(() => mtuEncoding(260), isReg('invalid'));
  assert.throws(() => { setMtuBytes(fresh(), 34); }, isReg('invalid'));
});

test('Part 10 rev 4.1 §5.3: a MAINTENANCE write of a reserved MTU is stored as written (implementation specific) and reported by the typed view', () => {
  const s = fresh();
  s.writeWord(DS_CONTROL_OFFSET, 0x00000041);
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xe0000041);
  assert.equal(getMtuBytes(s), null);
  assert.equal(decodeDsControl(s.readWord(DS_CONTROL_OFFSET)).mtuBytes, null);
});

test('Part 10 §5.5.1 Table 5-6: valid TM type combinations are 0b1000, 0b1100, 0b1010, 0b1110; all others invalid', () => {
  assert.equal(tmTypesName(0b1000), 'BASIC');
  assert.equal(tmTypesName(0b1100), 'BASIC_RATE');
  assert.equal(tmTypesName(0b1010), 'BASIC_CREDIT');
  assert.equal(tmTypesName(0b1110), 'BASIC_RATE_CREDIT');
  for (const v of [0b0100, 0b0010, 0b0110, 0b1001, 0b1111, 0b0001]) assert.equal(tmTypesName(v), 'INVALID', `0b${v.toString(2)}`);
  assert.throws(() => { dsControl.set(fresh(), 'tmTypesSupported', 0b0100); }, isReg('invalid'));
  assert.throws(() => decodeDsControl(0x40000040, { strict: true }), isReg('invalid'));
});

test('Part 10 §3.4.5: 0b0000 TM types means no traffic management (TM support is optional)', () => {
  const v = decodeDsControl(0x00000040, { strict: true });
  assert.equal(v.tmTypes, 'NONE');
  assert.equal(v.tmModeName, 'DISABLED');
});

test('Part 10 §5.5.1 Table 5-6: TM Mode 0b0101-0b0111 reserved, 0b1000-0b1111 user defined', () => {
  const s = fresh();
  assert.throws(() => { dsControl.set(s, 'tmMode', 0b0101); }, isReg('invalid'));
  assert.throws(() => { dsControl.set(s, 'tmMode', 0b0111); }, isReg('invalid'));
  dsControl.set(s, 'tmMode', 0b1000);
  assert.equal(decodeDsControl(s.readWord(DS_CONTROL_OFFSET)).tmModeName, 'USER_DEFINED');
  const r = decodeDsControl(0xe6000040);
  assert.equal(r.tmModeName, 'RESERVED');
  assert.throws(() => decodeDsControl(0xe6000040, { strict: true }), isReg('reserved'));
});

test('Part 10 §3.4.5: a TM mode needs its types supported (Rate needs Rate, Credit + Rate needs both)', () => {
  const s = fresh(0x80000040); // Basic only
  dsControl.set(s, 'tmMode', 1);
  assert.throws(() => { dsControl.set(s, 'tmMode', 2); }, isReg('invalid'));
  assert.throws(() => { dsControl.set(s, 'tmMode', 3); }, isReg('invalid'));
  const t = fresh(0xc0000040); // Basic + Rate
  dsControl.set(t, 'tmMode', 2);
  assert.throws(() => { dsControl.set(t, 'tmMode', 4); }, isReg('invalid'));
  assert.throws(() => decodeDsControl(0xc4000040, { strict: true }), isReg('invalid'));
  dsControl.set(fresh(), 'tmMode', 4);
});

test('Part 10 §5.5.1 Table 5-6: lenient decode keeps reserved bits 8-23 and bit 3 for the round trip', () => {
  const v = decodeDsControl(0xf1abcd40);
  assert.equal(v.tmTypesSupported, 0xf);
  assert.equal(v.tmTypes, 'INVALID');
  assert.equal(v.rsrv, 0x00abcd00);
  assert.equal(encodeDsControl(v), 0xf1abcd40);
  assert.throws(() => decodeDsControl(0xe0010040, { strict: true }), isReg('reserved'));
});

test('Part 10 §3.4.5: narrowing TM Types Supported may not leave the current TM mode unsupported (typed view)', () => {
  // 0xE4000040: types 0b1110, mode 0b0100 (Credit + Rate), MTU 0x40.
  const s = fresh(0xe4000040);
  assert.throws(() => { dsControl.set(s, 'tmTypesSupported', 0b1000); }, isReg('invalid'));
  assert.throws(() => { dsControl.set(s, 'tmTypesSupported', 0b1100); }, isReg('invalid'));
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0xe4000040);
  // Changing the mode in the same update makes the narrower types acceptable: 0b1000 | Basic (1).
  dsControl.update(s, { tmTypesSupported: 0b1000, tmMode: 1 });
  assert.equal(s.readWord(DS_CONTROL_OFFSET), 0x81000040);
  assert.equal(decodeDsControl(s.readWord(DS_CONTROL_OFFSET), { strict: true }).tmModeName, 'BASIC');
});
