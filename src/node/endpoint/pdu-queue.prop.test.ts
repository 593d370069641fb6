import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../../test/support/fc.ts';
import { PduQueue } from './pdu-queue.ts';

type Op = { kind: 'push'; bytes: number } | { kind: 'send'; payload: number } | { kind: 'shift' };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), bytes: fc.integer({ min: 1, max: 65536 }) }),
  fc.record({ kind: fc.constant('send' as const), payload: fc.integer({ min: 1, max: 256 }) }),
  fc.record({ kind: fc.constant('shift' as const) }),
);

test('issue 20 PduQueue (allocated at the first PDU, one array of triples): FIFO order, the bound, head fields and queued bytes as a plain list has them', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.array(op, { maxLength: 200 }), (limit, ops) => {
    const q = new PduQueue(limit);
    const model: { id: number; bytes: number; created: number }[] = [];
    let sent = 0;
    let id = 0;
    for (const [t, o] of ops.entries()) {
      if (o.kind === 'push') {
        const ok = q.push(id, o.bytes, t * 1000);
        assert.equal(ok, model.length < limit);
        if (ok) model.push({ id, bytes: o.bytes, created: t * 1000 });
        id++;
      } else if (model.length > 0) {
        const head = model[0] as { bytes: number };
        if (o.kind === 'send' && sent + o.payload < head.bytes) {
          q.sent(o.payload);
          sent += o.payload;
        } else if (o.kind === 'shift') {
          q.shift();
          model.shift();
          sent = 0;
        }
      }
      assert.equal(q.length, model.length);
      assert.equal(q.queuedBytes, model.reduce((a, p) => a + p.bytes, 0) - sent);
      const head = model[0];
      if (head !== undefined) assert.deepEqual([q.headId, q.headBytes, q.headCreated, q.headSent], [head.id, head.bytes, head.created, sent]);
    }
  }), fcParams(Math.max(1, Math.floor(FC_RUNS_MODEL / 20))));
});
