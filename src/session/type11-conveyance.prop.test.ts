import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { end, events, exchange, feed, messages, send } from '../../test/support/type11-link.ts';
import type { Sent } from '../../test/support/type11-link.ts';
import { padToDoubleWords } from './type11-mailbox.ts';
import type { SmpPriority } from './types.ts';

const A = 0x0101;
const B = 0x0202;

interface Msg {
  readonly bytes: Uint8Array;
  readonly mailbox: number;
  readonly priority: SmpPriority;
}

/** A message of 8..4096 octets (any length: the conveyance pads), to a mailbox that can take it. */
const message = (segmentSize: number): fc.Arbitrary<Msg> =>
  fc.record({
    bytes: fc.integer({ min: 8, max: 4096 }).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
    low: fc.integer({ min: 0, max: 3 }),
    high: fc.integer({ min: 4, max: 63 }),
    priority: fc.constantFrom<SmpPriority>('high', 'normal'),
  }).map(({ bytes, low, high, priority }) => ({ bytes, mailbox: bytes.length <= segmentSize ? high : low, priority }));

const scenario = fc.constantFrom(8, 32, 256).chain((segmentSize) =>
  fc.record({
    segmentSize: fc.constant(segmentSize),
    letters: fc.integer({ min: 1, max: 4 }),
    maxReassemblies: fc.integer({ min: 1, max: 3 }),
    // 8-octet segments cap a message at 128 octets: keep the lengths that fit.
    messages: fc.array(message(segmentSize), { minLength: 1, maxLength: 6 }).map((ms) => ms.filter((m) => m.bytes.length <= 16 * segmentSize)),
    order: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
  }));

/** A fixed permutation of each burst drawn from `order`: packets arrive in any order (Part 2 §2.4.2). */
function shuffler(order: readonly number[]): (ps: Sent[]) => Sent[] {
  let k = 0;
  return (ps) => {
    const out = [...ps];
    for (let i = out.length - 1; i > 0; i--) {
      const j = (order[k++ % order.length] ?? 0) % (i + 1);
      [out[i], out[j]] = [out[j] as Sent, out[i] as Sent];
    }
    return out;
  };
}

test('Part 2 §2.3.1, §2.4.2, §3.1: random messages of 8..4096 octets cross sender → receiver intact, in any arrival order, RETRY included', () => {
  fc.assert(
    fc.property(scenario, (s) => {
      const a = end(A, { segmentSize: s.segmentSize, letters: s.letters, maxRetries: 1000 });
      const b = end(B, { segmentSize: s.segmentSize, maxReassemblies: s.maxReassemblies });
      s.messages.forEach((m, i) => feed(a, send(B, m.mailbox, m.bytes, m.priority, i), 0));
      exchange(a, b, 0, { arrange: shuffler(s.order) });
      assert.deepEqual(a.log.filter((o) => o.kind === 'event' && o.name !== 'sent'), [], 'nothing refused or failed');
      assert.deepEqual(events(a, 'sent').map((e) => e.id).sort((x, y) => Number(x) - Number(y)), s.messages.map((_, i) => i));
      const got = messages(b).map((m) => `${m.from}/${m.mailbox}/${Buffer.from(m.bytes).toString('hex')}`).sort();
      const want = s.messages.map((m) => `${A}/${m.mailbox}/${Buffer.from(padToDoubleWords(m.bytes)).toString('hex')}`).sort();
      assert.deepEqual(got, want);
      assert.equal(a.engine.pending + b.engine.pending, 0);
      assert.deepEqual(a.engine.snapshot()['active'], []);
      assert.deepEqual(b.engine.snapshot()['reassemblies'], []);
    }),
    fcParams(1000),
  );
});

test('Annex 2 §3.7.2: with one letter, every waiting high message is sent before every waiting normal one', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom<SmpPriority>('high', 'normal'), { minLength: 2, maxLength: 12 }), (priorities) => {
      const a = end(A, { letters: 1 });
      const b = end(B);
      // The first message takes the letter at once; the rest wait for it.
      priorities.forEach((p, i) => feed(a, send(B, 0, new Uint8Array(8).fill(i), p, i), 0));
      for (let t = 0; t < priorities.length; t++) exchange(a, b, t);
      const order = events(a, 'sent').map((e) => Number(e.id));
      const waiting = priorities.map((p, i) => ({ p, i })).slice(1);
      const want = [0, ...waiting.filter((w) => w.p === 'high').map((w) => w.i), ...waiting.filter((w) => w.p === 'normal').map((w) => w.i)];
      assert.deepEqual(order, want);
    }),
    fcParams(2000),
  );
});
