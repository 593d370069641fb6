import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegisterError } from './errors.ts';
import { AccessSource, RegisterKind, RegisterSpace, SpaceRegion, mergeMasked, regionOf } from './space.ts';
import type { RegisterChange, RegisterSpec } from './space.ts';

// A small hand-made space: a CAR with reserved and implementation-defined bits, a CSR with
// writable, read-only, reserved and implementation-defined bits, the same in extended features
// space and in implementation-defined space.
const CAR: RegisterSpec = { offset: 0x10, name: 'Test CAR', kind: RegisterKind.car, clause: 't', reset: 0x12340080, reserved: 0x0000ff00, implDefined: 0x00000040 };
const CSR: RegisterSpec = { offset: 0x48, name: 'Test CSR', kind: RegisterKind.csr, clause: 't', reset: 0xa0000001, writable: 0x0f0000ff, reserved: 0x00ffff00, implDefined: 0x30000000 };
const EF: RegisterSpec = { offset: 0x104, name: 'Test EF CSR', kind: RegisterKind.csr, clause: 't', reset: 0x80000000, writable: 0x0000ffff, reserved: 0x7fff0000 };
const IMPL: RegisterSpec = { offset: 0x10000, name: 'Test impl CSR', kind: RegisterKind.csr, clause: 't', writable: 0xffffffff };

function space(): RegisterSpace {
  return new RegisterSpace([CAR, CSR, EF, IMPL]);
}

function throwsRegister(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof RegisterError && e.code === code);
}

test('Part 10 §5.3 Table 5-2: regions are CAR 0x0–0x3C, CSR 0x40–0xFC, EF 0x100–0xFFFC, implementation-defined 0x10000–', () => {
  assert.equal(regionOf(0x3c), SpaceRegion.car);
  assert.equal(regionOf(0x40), SpaceRegion.csr);
  assert.equal(regionOf(0xfc), SpaceRegion.csr);
  assert.equal(regionOf(0x100), SpaceRegion.extendedFeatures);
  assert.equal(regionOf(0xfffc), SpaceRegion.extendedFeatures);
  assert.equal(regionOf(0x10000), SpaceRegion.implementationDefined);
});

test('Part 10 §5.3 Table 5-2: CAR space reserved register reads logic 0s', () => {
  assert.equal(space().readWord(0x20), 0);
  assert.deepEqual(space().read(0x20, 8), new Uint8Array(8));
});

test('Part 10 §5.3 Table 5-2: CAR space reserved register write is ignored and terminates normally', () => {
  const s = space();
  s.writeWord(0x20, 0xffffffff);
  assert.equal(s.readWord(0x20), 0);
});

test('Part 10 §5.2: writes to CAR (read-only) space are ignored and terminate normally', () => {
  const s = space();
  s.writeWord(0x10, 0xffffffff);
  s.write(0x10, new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0]));
  assert.equal(s.readWord(0x10), 0x12340080);
});

test('Part 10 §5.3 Table 5-2: CAR space reserved bit reads logic 0 whatever the element stores', () => {
  const s = space();
  s.writeLocal(0x10, 0xffffffff);
  // 0xFFFFFFFF without reserved bits 0x0000FF00.
  assert.equal(s.readWord(0x10), 0xffff00ff);
});

test('Part 10 §5.3 Table 5-2: CAR space implementation-defined bit reads its implementation-defined value, writes ignored', () => {
  const s = space();
  s.writeLocal(0x10, 0x12340040);
  assert.equal(s.readWord(0x10) & 0x40, 0x40);
  s.writeWord(0x10, 0);
  assert.equal(s.readWord(0x10) & 0x40, 0x40);
});

test('Part 10 §5.3 Table 5-2: CSR space reserved register reads logic 0s and ignores writes', () => {
  const s = space();
  s.writeWord(0x50, 0xdeadbeef);
  assert.equal(s.readWord(0x50), 0);
});

test('Part 10 §5.3 Table 5-2: CSR space reserved bit reads logic 0, write ignored', () => {
  const s = space();
  s.writeWord(0x48, 0xffffffff);
  // writable 0x0F0000FF taken from the write, read-only 0xA0000000 kept, reserved 0x00FFFF00 zero.
  assert.equal(s.readWord(0x48), 0xaf0000ff);
  assert.equal(s.readWord(0x48) & 0x00ffff00, 0);
});

test('Part 10 §5.3 Table 5-2: CSR space implementation-defined bit: riodp keeps it read-only to MAINTENANCE writes', () => {
  const s = space();
  s.writeLocal(0x48, 0x30000000);
  s.writeWord(0x48, 0);
  assert.equal(s.readWord(0x48) & 0x30000000, 0x30000000);
});

test('Part 10 §5.3 Table 5-2: extended features space reserved register reads logic 0s and ignores writes', () => {
  const s = space();
  s.writeWord(0x108, 0xffffffff);
  assert.equal(s.readWord(0x108), 0);
});

test('Part 10 §5.3 Table 5-2: extended features space reserved bit reads logic 0, write ignored; read-only bit kept', () => {
  const s = space();
  s.writeWord(0x104, 0x7fffffff);
  // bit 0 read-only (reset 1) stays, bits 1-15 reserved read 0, bits 16-31 written.
  assert.equal(s.readWord(0x104), 0x8000ffff);
});

test('Part 10 §5.3 Table 5-2: implementation-defined space: riodp treats unallocated registers as reserved, defined ones as written', () => {
  const s = space();
  s.writeWord(0x20000, 0x55);
  assert.equal(s.readWord(0x20000), 0);
  s.writeWord(0x10000, 0xcafef00d);
  assert.equal(s.readWord(0x10000), 0xcafef00d);
  assert.equal(s.readWord(0xfffffc), 0);
});

test('Part 10 §5.1: registers are aligned to a 32 bit boundary, misaligned offsets throw RegisterError naming the register', () => {
  const s = space();
  assert.throws(() => s.readWord(0x4a), (e: unknown) => e instanceof RegisterError && e.code === 'misaligned' && e.register === 'Test CSR' && e.offset === 0x4a);
  throwsRegister(() => { s.writeWord(0x11, 0); }, 'misaligned');
  throwsRegister(() => s.read(0x2, 4), 'misaligned');
});

test('Part 1 §5.3: offsets outside the 16 Mbyte space throw RegisterError', () => {
  const s = space();
  throwsRegister(() => s.readWord(0x1000000), 'out-of-range');
  throwsRegister(() => s.readWord(-4), 'out-of-range');
  throwsRegister(() => s.readWord(Number.NaN), 'out-of-range');
  throwsRegister(() => s.readWord(1.5), 'out-of-range');
  throwsRegister(() => s.readWord('16' as unknown as number), 'out-of-range');
  throwsRegister(() => s.read(0xfffff8, 16), 'out-of-range');
});

test('Part 1 §4.1.10: accesses are a word or 1–8 double-words; double-words need double-word alignment', () => {
  const s = space();
  throwsRegister(() => s.read(0x10, 2), 'size');
  throwsRegister(() => s.read(0x10, 12), 'size');
  throwsRegister(() => s.read(0x10, 72), 'size');
  throwsRegister(() => { s.write(0x10, new Uint8Array(1)); }, 'size');
  throwsRegister(() => { s.write(0x10, [1, 2, 3, 4] as unknown as Uint8Array); }, 'size');
  throwsRegister(() => s.read(0x44, 8), 'misaligned');
  assert.equal(s.read(0x40, 64).length, 64);
});

test('Part 1 §4.1.10: a double-word read returns both words big-endian in ascending order', () => {
  const s = space();
  // 0x48 holds 0xA0000001 (reset), 0x4C is a reserved register.
  assert.deepEqual(s.read(0x48, 8), new Uint8Array([0xa0, 0x00, 0x00, 0x01, 0, 0, 0, 0]));
  assert.deepEqual(s.read(0x10, 8), new Uint8Array([0x12, 0x34, 0x00, 0x80, 0, 0, 0, 0]));
  assert.deepEqual(s.read(0x40, 16).subarray(8, 12), new Uint8Array([0xa0, 0x00, 0x00, 0x01]));
});

test('Part 1 §4.1.10: a double-word write stores each word with that register\'s rules', () => {
  const s = space();
  s.write(0x100, new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x12, 0x34]));
  assert.equal(s.readWord(0x100), 0); // reserved register
  assert.equal(s.readWord(0x104), 0x80001234);
});

test('Part 10 §5.1: values written are 32-bit register values; anything else throws RegisterError', () => {
  const s = space();
  throwsRegister(() => { s.writeWord(0x48, 0x100000000); }, 'range');
  throwsRegister(() => { s.writeWord(0x48, -1); }, 'range');
  throwsRegister(() => { s.writeLocal(0x48, 0.5); }, 'range');
});

test('Part 10 §5.3 Table 5-2: the element\'s own write path sets read-only bits but never reserved ones; unmapped offsets throw', () => {
  const s = space();
  s.writeLocal(0x48, 0xffffffff);
  assert.equal(s.readWord(0x48), 0xff0000ff);
  throwsRegister(() => { s.writeLocal(0x4c, 1); }, 'unmapped');
});

test('Part 10 §5.3 Table 5-2: definitions must obey the table for their region', () => {
  throwsRegister(() => new RegisterSpace([{ offset: 0x10, name: 'x', kind: RegisterKind.csr, clause: 't' }]), 'definition');
  throwsRegister(() => new RegisterSpace([{ offset: 0x40, name: 'x', kind: RegisterKind.car, clause: 't' }]), 'definition');
  throwsRegister(() => new RegisterSpace([{ offset: 0x100, name: 'x', kind: RegisterKind.car, clause: 't', writable: 1 }]), 'definition');
  throwsRegister(() => new RegisterSpace([{ offset: 0x100, name: 'x', kind: RegisterKind.csr, clause: 't', reset: 1, reserved: 1 }]), 'definition');
  throwsRegister(() => new RegisterSpace([{ offset: 0x100, name: 'x', kind: RegisterKind.csr, clause: 't', writable: 3, reserved: 1 }]), 'definition');
  throwsRegister(() => new RegisterSpace([CSR, CSR]), 'definition');
  throwsRegister(() => new RegisterSpace([{ offset: 0x102, name: 'x', kind: RegisterKind.csr, clause: 't' }]), 'misaligned');
});

test('Part 10 §5.3 Table 5-2: a definition exposes its read-only mask as the bits neither writable nor reserved', () => {
  const def = space().definition(0x48);
  assert.ok(def);
  assert.equal(def.readOnly, 0xf0000000);
});

test('Part 10 §5.3 Table 5-2: write side effects see the source; listeners hear only real changes; reset restores', () => {
  const sources: string[] = [];
  const s = new RegisterSpace([{ ...IMPL, onWrite: (ctx) => { sources.push(ctx.source); return ctx.merged ^ 1; } }]);
  const changes: RegisterChange[] = [];
  const off = s.subscribe((c) => changes.push(c));
  s.writeWord(0x10000, 0x10);
  s.writeLocal(0x10000, 0x10); // the hook turns 0x10 into 0x11 again: no change
  assert.deepEqual(sources, [AccessSource.maintenance, AccessSource.local]);
  assert.equal(changes.length, 1);
  assert.deepEqual(changes[0], { offset: 0x10000, name: 'Test impl CSR', old: 0, value: 0x11, source: 'maintenance' });
  off();
  s.reset();
  assert.equal(s.readWord(0x10000), 0);
  assert.equal(mergeMasked(0xffff0000, 0x1234, 0xff), 0xffff0034);
});
