import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import { buildEndpointRegisters } from './builder.ts';
import { RegisterError } from './errors.ts';
import { walkExtendedFeatures } from './ef-chain.ts';

// One endpoint with every block, so the random accesses meet CARs, CSRs, hooks and locks.
const space = buildEndpointRegisters({
  flowControl: true,
  flowArb: true,
  ports: 3,
  messaging: true,
  dataStreaming: { maxPdu: 4096, segSupport: 8, mtu: 128, tm: { types: 'BASIC_RATE_CREDIT', mode: 'BASIC' } },
  voq: { format: 'part12-rev4.1', capabilities: { generation: true, reception: true, vc: true, groupSizes: [1, 2] } },
  session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 1, maxAttr: 3 }, { conveyance: 'DATA_STREAMING', cos: 7, streamId: 9, maxAttr: 1 }] },
});
const defs = space.definitions();
const offsets = defs.map((d) => d.offset);

const offsetArb = fc.oneof(
  fc.constantFrom(...offsets),
  fc.constantFrom(...offsets).map((o) => o + 4),
  fc.integer({ min: 0, max: 0x3ff }).map((x) => x * 4),
  fc.integer({ min: -16, max: 0x1000010 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0.5, 0xfffffc, 0xfffff8, 0x1000000),
);
const valueArb = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 0xffffffff, 0x0000ffff, -1, 2 ** 32, 1.5));
const sizeArb = fc.oneof(fc.constantFrom(4, 8, 16, 64), fc.integer({ min: -1, max: 72 }));

type Op =
  | { readonly kind: 'readWord'; readonly offset: number }
  | { readonly kind: 'writeWord'; readonly offset: number; readonly value: number }
  | { readonly kind: 'read'; readonly offset: number; readonly size: number }
  | { readonly kind: 'write'; readonly offset: number; readonly data: Uint8Array };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('readWord' as const), offset: offsetArb }),
  fc.record({ kind: fc.constant('writeWord' as const), offset: offsetArb, value: valueArb }),
  fc.record({ kind: fc.constant('read' as const), offset: offsetArb, size: sizeArb }),
  fc.record({ kind: fc.constant('write' as const), offset: offsetArb, data: fc.uint8Array({ maxLength: 72 }) }),
);

function run(op: Op): void {
  switch (op.kind) {
    case 'readWord': space.readWord(op.offset); return;
    case 'writeWord': space.writeWord(op.offset, op.value); return;
    case 'read': space.read(op.offset, op.size); return;
    case 'write': space.write(op.offset, op.data); return;
  }
}

test('Part 10 §5.3 Table 5-2: random MAINTENANCE reads and writes throw only RegisterError and never change read-only or reserved bits', () => {
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 1, maxLength: 12 }), (ops) => {
      space.reset();
      const before = defs.map((d) => space.readWord(d.offset));
      for (const op of ops) {
        try {
          run(op);
        } catch (e) {
          if (!(e instanceof RegisterError)) throw e;
        }
      }
      defs.forEach((d, i) => {
        const now = space.readWord(d.offset);
        assert.equal((now & d.readOnly) >>> 0, ((before[i] ?? 0) & d.readOnly) >>> 0, `${d.name} read-only bits`);
        assert.equal((now & d.reserved) >>> 0, 0, `${d.name} reserved bits`);
      });
      // Reserved registers still read 0 and a valid access still works afterwards.
      assert.equal(space.readWord(0x50), 0);
      space.writeWord(0x6c, 0x12345678);
      assert.equal(space.readWord(0x6c), 0x12345678);
      assert.equal(walkExtendedFeatures(space, { strict: true }).blocks.length, 4);
    }),
    fcParams(FC_RUNS_MODEL),
  );
});
