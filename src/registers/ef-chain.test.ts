import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASSEMBLY_INFO_OFFSET, EF_ID, efHeaderRegister, efIdName, expectEfBlock, findEfBlocks, isLegalEfPointer, layoutEfChain, walkEfChain, walkExtendedFeatures } from './ef-chain.ts';
import type { EfBlockSpec } from './ef-chain.ts';
import { RegisterError } from './errors.ts';
import { RegisterKind, RegisterSpace } from './space.ts';

const CLAUSE = 'Part 1 §5.3';

function block(id: number, size: number): EfBlockSpec {
  return { id, name: `block ${id}`, clause: 't', size, registers: (base) => [{ offset: base + 4, name: `reg ${id}`, kind: RegisterKind.csr, clause: 't', reset: id }] };
}

/** A space whose PE Features bit 28 is set and whose ExtendedFeaturesPtr is `head`. */
function withHead(head: number, extendedFeatures = true): RegisterSpace {
  return new RegisterSpace([
    { offset: ASSEMBLY_INFO_OFFSET, name: 'Assembly Information CAR', kind: RegisterKind.car, clause: 't', reset: head },
    { offset: 0x10, name: 'Processing Element Features CAR', kind: RegisterKind.car, clause: 't', reset: extendedFeatures ? 0x00000008 : 0 },
  ]);
}

test(`${CLAUSE}: the chain is built as a singly linked list of headers EF_PTR(0-15) | EF_ID(16-31), last EF_PTR 0`, () => {
  const s = withHead(0x100);
  // Sizes 0x14 and 0x0C are not double-word multiples: the next block starts on the next
  // double-word boundary (0x100 + 0x18 = 0x118, 0x118 + 0x10 = 0x128).
  const placed = layoutEfChain(s, [block(EF_ID.lpSerialEndpoint, 0x14), block(EF_ID.voqBackpressure, 0x0c), block(EF_ID.sessionManagement, 0x10)]);
  assert.deepEqual(placed.map((p) => p.base), [0x100, 0x118, 0x128]);
  // Header at 0x100: EF_PTR 0x0118 in bits 0-15, EF_ID 0x0001 in bits 16-31.
  assert.equal(s.readWord(0x100), 0x01180001);
  assert.equal(s.readWord(0x118), 0x0128000b);
  assert.equal(s.readWord(0x128), 0x0000000c);
  const walk = walkExtendedFeatures(s);
  assert.equal(walk.error, null);
  assert.deepEqual(walk.blocks.map((b) => [b.base, b.efId, b.name]), [
    [0x100, 0x0001, 'LP_SERIAL_ENDPOINT'],
    [0x118, 0x000b, 'VOQ_BACKPRESSURE'],
    [0x128, 0x000c, 'SESSION_MANAGEMENT'],
  ]);
  assert.deepEqual(findEfBlocks(s, EF_ID.voqBackpressure), [0x118]);
  assert.equal(s.readWord(0x11c), EF_ID.voqBackpressure);
});

test(`${CLAUSE}: the block headers are hard wired (MAINTENANCE writes do not change them)`, () => {
  const s = withHead(0x100);
  layoutEfChain(s, [block(1, 8)]);
  s.writeWord(0x100, 0xffffffff);
  assert.equal(s.readWord(0x100), 0x00000001);
});

test(`${CLAUSE}: a loop in the list is reported as a typed error and ends the walk`, () => {
  const s = withHead(0x100);
  s.define(efHeaderRegister(0x100, 0x0001, 0x200, 'A', 't'));
  s.define(efHeaderRegister(0x200, 0x000b, 0x100, 'B', 't'));
  const walk = walkExtendedFeatures(s);
  assert.deepEqual(walk.blocks.map((b) => b.base), [0x100, 0x200]);
  assert.ok(walk.error instanceof RegisterError);
  assert.equal(walk.error.code, 'ef-loop');
  assert.equal(walk.error.offset, 0x200);
  assert.throws(() => walkExtendedFeatures(s, { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'ef-loop' && e.clause === CLAUSE);
});

test(`${CLAUSE}: a block pointing at itself is a loop`, () => {
  const s = withHead(0x108);
  s.define(efHeaderRegister(0x108, 0x000c, 0x108, 'A', 't'));
  const walk = walkExtendedFeatures(s);
  assert.equal(walk.blocks.length, 1);
  assert.equal(walk.error?.code, 'ef-loop');
});

test(`${CLAUSE}: an improperly aligned pointer is illegal and treated as the end of the data structure`, () => {
  const s = withHead(0x100);
  s.define(efHeaderRegister(0x100, 0x0001, 0x104, 'A', 't'));
  const walk = walkExtendedFeatures(s);
  assert.deepEqual(walk.blocks.map((b) => b.efId), [0x0001]);
  assert.equal(walk.error?.code, 'ef-pointer');
  assert.throws(() => walkExtendedFeatures(s, { strict: true }), (e: unknown) => e instanceof RegisterError && e.code === 'ef-pointer');
});

test(`${CLAUSE}: a pointer outside extended features space (below 0x100) is illegal and ends the list`, () => {
  const s = withHead(0x100);
  s.define(efHeaderRegister(0x100, 0x0001, 0x0048, 'A', 't'));
  const walk = walkExtendedFeatures(s);
  assert.equal(walk.blocks.length, 1);
  assert.equal(walk.error?.code, 'ef-pointer');
  assert.equal(isLegalEfPointer(0xfff8), true);
  assert.equal(isLegalEfPointer(0xfffc), false);
  assert.equal(isLegalEfPointer(0xf8), false);
});

test(`${CLAUSE}: an illegal ExtendedFeaturesPtr yields an empty list with the error at 0xC`, () => {
  const walk = walkExtendedFeatures(withHead(0x0044));
  assert.deepEqual(walk.blocks, []);
  assert.equal(walk.error?.code, 'ef-pointer');
  assert.equal(walk.error.offset, ASSEMBLY_INFO_OFFSET);
});

test('Part 1 §5.4.5 Table 5-7: without the extended features bit (28) the pointer is not valid and there is no list', () => {
  const s = withHead(0x100, false);
  s.define(efHeaderRegister(0x100, 0x0001, 0, 'A', 't'));
  const walk = walkExtendedFeatures(s);
  assert.equal(walk.present, false);
  assert.deepEqual(walk.blocks, []);
});

test(`${CLAUSE}: the walk follows a remote element through any word reader (MAINTENANCE reads)`, () => {
  const s = withHead(0x100);
  layoutEfChain(s, [block(0x000c, 8), block(0x000c, 8)]);
  const reads: number[] = [];
  const walk = walkEfChain((o) => { reads.push(o); return s.readWord(o); }, 0x100);
  assert.deepEqual(reads, [0x100, 0x108]);
  assert.deepEqual(walk.blocks.map((b) => b.efPtr), [0x108, 0]);
});

test(`${CLAUSE}: blocks must fit double-word aligned in extended features space`, () => {
  const s = new RegisterSpace();
  assert.throws(() => layoutEfChain(s, [block(1, 0x10)], 0xfff8), (e: unknown) => e instanceof RegisterError && e.code === 'definition');
  assert.throws(() => layoutEfChain(s, [block(1, 0x10)], 0x104), (e: unknown) => e instanceof RegisterError && e.code === 'definition');
});

test(`${CLAUSE}: typed views refuse a base that does not hold the expected EF_ID`, () => {
  const s = withHead(0x100);
  layoutEfChain(s, [block(EF_ID.voqBackpressure, 8)]);
  expectEfBlock(s, 0x100, EF_ID.voqBackpressure, 't');
  assert.throws(() => { expectEfBlock(s, 0x100, EF_ID.sessionManagement, 't'); }, (e: unknown) => e instanceof RegisterError && e.code === 'ef-id');
  assert.throws(() => { expectEfBlock(s, 0x44, EF_ID.sessionManagement, 't'); }, (e: unknown) => e instanceof RegisterError && e.code === 'ef-id');
  assert.equal(efIdName(0x7777), 'UNKNOWN');
});
