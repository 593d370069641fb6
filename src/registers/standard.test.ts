import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lockWrite } from './lock.ts';
import { RegisterSpace } from './space.ts';
import { HOST_LOCK_UNLOCKED, STANDARD_OFFSETS, assemblyInformationView, hostBaseDeviceIdLockRegister, standardRegisters } from './standard.ts';

const HOST = 'Part 3 §3.5.3 Table 3-7';

function fresh(dev32 = false): RegisterSpace {
  return new RegisterSpace(standardRegisters({ extendedFeaturesPtr: 0x100, dev32, deviceIdentity: 0x1234, deviceVendorIdentity: 0x0038, assyRev: 7 }));
}

test(`${HOST}: the Host Base Device ID Lock CSR resets to 0x0000FFFF`, () => {
  assert.equal(fresh().readWord(STANDARD_OFFSETS.hostBaseDeviceIdLock), HOST_LOCK_UNLOCKED);
});

test(`${HOST}: once written, writes of other values are ignored; writing the held value re-initializes it to 0x0000FFFF`, () => {
  const s = fresh();
  s.writeWord(0x68, 0x00000005);
  assert.equal(s.readWord(0x68), 0x00000005);
  s.writeWord(0x68, 0x00000006);
  assert.equal(s.readWord(0x68), 0x00000005);
  s.writeWord(0x68, 0x00000005);
  assert.equal(s.readWord(0x68), 0x0000ffff);
});

test(`${HOST}: without Dev32 support Host_base_Dev32ID (bits 0-15) is reserved and constant 0`, () => {
  const s = fresh(false);
  s.writeWord(0x68, 0xabcd0005);
  assert.equal(s.readWord(0x68), 0x00000005);
  const d = fresh(true);
  d.writeWord(0x68, 0xabcd0005);
  assert.equal(d.readWord(0x68), 0xabcd0005);
  assert.equal(hostBaseDeviceIdLockRegister(true).reserved, 0);
});

test('Annex 2 §5.2.2 / Part 3 §3.5.3: the shared lock rule', () => {
  assert.equal(lockWrite(0xffff, 0x12, 0xffff), 0x12);
  assert.equal(lockWrite(0xffff, 0xffff, 0xffff), 0xffff);
  assert.equal(lockWrite(0x12, 0x13, 0xffff), 0x12);
  assert.equal(lockWrite(0x12, 0x12, 0xffff), 0xffff);
});

test('Part 1 §5.4.1 Table 5-3 / §5.4.4 Table 5-6: identity CARs and ExtendedFeaturesPtr in bits 16-31 of 0xC', () => {
  const s = fresh();
  // DeviceIdentity 0x1234 in bits 0-15, DeviceVendorIdentity 0x0038 in 16-31.
  assert.equal(s.readWord(0x0), 0x12340038);
  // AssyRev 7 in bits 0-15, ExtendedFeaturesPtr 0x0100 in 16-31.
  assert.equal(s.readWord(0xc), 0x00070100);
  assert.equal(assemblyInformationView.unpack(s.readWord(0xc)).extendedFeaturesPtr, 0x100);
  s.writeWord(0xc, 0);
  assert.equal(s.readWord(0xc), 0x00070100);
});

test('Part 3 §3.5.1 Table 3-5: Base Device ID CSR bits 0-7 reserved, Dev8 8-15, Dev16 16-31; Dev32 CSR only with Dev32', () => {
  const s = fresh();
  s.writeWord(0x60, 0xff12abcd);
  assert.equal(s.readWord(0x60), 0x0012abcd);
  assert.equal(s.definition(0x64), undefined);
  assert.equal(fresh(true).readWord(0x64), 0xffffffff);
});
