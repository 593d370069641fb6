import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import { walkEfChain } from './ef-chain.ts';
import { RegisterError } from './errors.ts';

// Random memories of header words: any pointer (legal, misaligned, outside EF space, looping).
const memoryArb = fc.dictionary(
  fc.oneof(fc.integer({ min: 0x20, max: 0x40 }).map((x) => x * 8), fc.integer({ min: 0, max: 0xffff })).map(String),
  fc.oneof(
    fc.integer({ min: 0, max: 0xffffffff }),
    fc.tuple(fc.integer({ min: 0x20, max: 0x40 }), fc.integer({ min: 0, max: 0xffff })).map(([p, id]) => ((p * 8) << 16 | id) >>> 0),
  ),
  { maxKeys: 24 },
);
const headArb = fc.oneof(fc.integer({ min: 0x20, max: 0x40 }).map((x) => x * 8), fc.integer({ min: 0, max: 0xffff }));

test('Part 1 §5.3: walking any list terminates, throws only RegisterError (strict) and visits each block once', () => {
  fc.assert(
    fc.property(memoryArb, headArb, (memory, head) => {
      const read = (o: number): number => memory[String(o)] ?? 0;
      const lenient = walkEfChain(read, head);
      const bases = lenient.blocks.map((b) => b.base);
      assert.equal(new Set(bases).size, bases.length);
      for (const b of lenient.blocks) {
        assert.equal(b.base % 8, 0);
        assert.ok(b.base >= 0x100 && b.base <= 0xfff8);
      }
      if (lenient.error === null) assert.equal(lenient.blocks.at(-1)?.efPtr ?? 0, 0);
      try {
        const strict = walkEfChain(read, head, { strict: true });
        assert.equal(strict.error, null);
        assert.deepEqual(strict.blocks, lenient.blocks);
      } catch (e) {
        if (!(e instanceof RegisterError)) throw e;
        assert.equal(e.code, lenient.error?.code);
      }
    }),
    fcParams(FC_RUNS_MODEL),
  );
});
