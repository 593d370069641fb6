import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import { Fifo } from './fifo.ts';

test('engine FIFO: any push/shift sequence behaves as an array queue (order kept, nothing lost)', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(-1)), { maxLength: 200 }), (ops) => {
      const q = new Fifo<number>();
      const model: number[] = [];
      for (const op of ops) {
        if (op < 0) assert.equal(q.shift(), model.shift());
        else {
          q.push(op);
          model.push(op);
        }
        assert.equal(q.length, model.length);
        assert.equal(q.peek(), model[0]);
      }
      assert.deepEqual(q.values(), model);
      assert.deepEqual(q.clear(), model);
      assert.equal(q.length, 0);
      assert.equal(q.shift(), undefined);
    }),
    fcParams(Math.min(FC_RUNS_MODEL, 5000)),
  );
});
