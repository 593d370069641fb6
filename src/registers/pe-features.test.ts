import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegisterError } from './errors.ts';
import { PE_FEATURES_OFFSET, decodePeFeatures, encodePeFeatures, peFeatures, peFeaturesRegister, peFeaturesView } from './pe-features.ts';
import type { PE_FEATURES_FIELDS } from './pe-features.ts';
import { RegisterSpace } from './space.ts';

function fresh(): RegisterSpace {
  return new RegisterSpace([peFeaturesRegister(0)]);
}

/**
 * The word with only `field` set to all ones, written through the typed view (bit 22 alone is a
 * combination the view refuses, Part 3 Table 3-3, so it goes through the element's raw path).
 */
function maskOf(field: keyof typeof PE_FEATURES_FIELDS): number {
  const s = fresh();
  const f = peFeaturesView.fields[field];
  if (f.width === 1 && field !== 'extendedRouteTableConfigSupport') peFeatures.set(s, field, true as never);
  else s.writeLocal(PE_FEATURES_OFFSET, peFeaturesView.pack({ ...peFeaturesView.unpack(0), [field]: 2 ** f.width - 1 }));
  return s.readWord(PE_FEATURES_OFFSET);
}

test('Part 9 §4.2 Table 4-1: bit 20 Flow Arbitration Support is 0x00000800', () => {
  assert.equal(maskOf('flowArbitrationSupport'), 0x00000800);
});

test('Part 9 §4.2 Table 4-1: bit 24 Flow Control Support is 0x00000080', () => {
  assert.equal(maskOf('flowControlSupport'), 0x00000080);
});

test('Part 1 §5.4.5 Table 5-7: bits 0-3 Bridge/Memory/Processor/Switch, 28 Extended features, 29-31 Extended addressing', () => {
  assert.equal(maskOf('bridge'), 0x80000000);
  assert.equal(maskOf('memory'), 0x40000000);
  assert.equal(maskOf('processor'), 0x20000000);
  assert.equal(maskOf('switch'), 0x10000000);
  assert.equal(maskOf('extendedFeatures'), 0x00000008);
  assert.equal(maskOf('extendedAddressingSupport'), 0x00000007);
});

test('Part 6 §7.4.1 Table 7-3: bit 4 Multiport, 10 Error Free Mode, 25 implementation-defined, 26 CRF Support', () => {
  assert.equal(maskOf('multiport'), 0x08000000);
  assert.equal(maskOf('errorFreeModeSupport'), 0x00200000);
  assert.equal(maskOf('implementationDefined'), 0x00000040);
  assert.equal(maskOf('crfSupport'), 0x00000020);
});

test('Part 3 §3.4.1 Table 3-3: bit 19 Dev32, 22 extended route table, 23 standard route table, 27 Dev16', () => {
  assert.equal(maskOf('dev32Support'), 0x00001000);
  assert.equal(maskOf('extendedRouteTableConfigSupport'), 0x00000200);
  assert.equal(maskOf('standardRouteTableConfigSupport'), 0x00000100);
  assert.equal(maskOf('dev16Support'), 0x00000010);
});

test('Part 9 §4.2 Table 4-1: the support bits are read-only capabilities: MAINTENANCE writes are ignored', () => {
  const s = fresh();
  peFeatures.update(s, { flowControlSupport: true, flowArbitrationSupport: true });
  s.writeWord(PE_FEATURES_OFFSET, 0);
  assert.equal(peFeatures.get(s, 'flowControlSupport'), true);
  assert.equal(peFeatures.get(s, 'flowArbitrationSupport'), true);
  assert.equal(s.readWord(PE_FEATURES_OFFSET), 0x00000880);
});

test('Part 10 §5.3 Table 5-2: PE Features bits no part defines are reserved and read 0', () => {
  const s = fresh();
  s.writeLocal(PE_FEATURES_OFFSET, 0xffffffff);
  // Reserved: 5-9 (0x07C00000), 11-18 (0x001FE000), 21 (0x00000400).
  assert.equal(s.readWord(PE_FEATURES_OFFSET), (0xffffffff & ~0x07c00000 & ~0x001fe000 & ~0x00000400) >>> 0);
  assert.equal(s.readWord(PE_FEATURES_OFFSET), 0xf8201bff);
});

test('Part 1 §5.4.5 Table 5-7: extended addressing names its encodings; lenient decode labels reserved ones and keeps reserved bits', () => {
  // 0x80000807: bridge, flow arbitration (bit 20), extended addressing 0b111.
  const v = decodePeFeatures(0x80000807);
  assert.equal(v.bridge, true);
  assert.equal(v.flowArbitrationSupport, true);
  assert.equal(v.extendedAddressing, 'ADDR_66_50_34');
  // 0x04000002: reserved bit 5 set, extended addressing 0b010 (reserved).
  const r = decodePeFeatures(0x04000002);
  assert.equal(r.extendedAddressing, 'RESERVED');
  assert.equal(r.rsrv, 0x04000000);
  assert.equal(encodePeFeatures(r), 0x04000002);
});

test('Part 1 §5.4.5 Table 5-7: strict decode throws on reserved bits and reserved extended addressing encodings', () => {
  assert.throws(() => decodePeFeatures(0x04000001, { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'reserved');
  assert.throws(() => decodePeFeatures(0x00000000, { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'reserved');
  assert.equal(decodePeFeatures(0x00000881, { strict: true }).flowControlSupport, true);
});

test('Part 3 §3.4.1 Table 3-3: extended route table support "can only be set if bit 23 is set and bit 19 is clear" (strict)', () => {
  assert.throws(() => decodePeFeatures(0x00000201, { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'invalid');
  assert.throws(() => decodePeFeatures(0x00001301, { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'invalid');
  assert.equal(decodePeFeatures(0x00000301, { strict: true }).extendedRouteTableConfigSupport, true);
});

test('Part 1 §5.4.5 Table 5-7: the typed view refuses a reserved extended addressing encoding', () => {
  const s = fresh();
  assert.throws(() => { peFeatures.set(s, 'extendedAddressingSupport', 0b100); }, (e: unknown) => e instanceof RegisterError && e.code === 'invalid');
  assert.throws(() => { peFeatures.set(s, 'extendedAddressingSupport', 8); }, (e: unknown) => e instanceof RegisterError && e.code === 'range');
  peFeatures.set(s, 'extendedAddressingSupport', 0b101);
  assert.equal(s.readWord(PE_FEATURES_OFFSET), 0x00000005);
});

test('Part 3 §3.4.1 Table 3-3: the typed view refuses bit 22 unless bit 23 is set and bit 19 is clear', () => {
  const s = fresh();
  assert.throws(() => { peFeatures.set(s, 'extendedRouteTableConfigSupport', true); }, (e: unknown) => e instanceof RegisterError && e.code === 'invalid');
  // Bits 22 and 23 together: 0x00000200 | 0x00000100.
  peFeatures.update(s, { standardRouteTableConfigSupport: true, extendedRouteTableConfigSupport: true });
  assert.equal(s.readWord(PE_FEATURES_OFFSET), 0x00000300);
  // Neither clearing bit 23 nor setting bit 19 (Dev32) may leave bit 22 set.
  assert.throws(() => { peFeatures.set(s, 'standardRouteTableConfigSupport', false); }, (e: unknown) => e instanceof RegisterError && e.code === 'invalid');
  assert.throws(() => { peFeatures.set(s, 'dev32Support', true); }, (e: unknown) => e instanceof RegisterError && e.code === 'invalid');
  assert.equal(s.readWord(PE_FEATURES_OFFSET), 0x00000300);
});
