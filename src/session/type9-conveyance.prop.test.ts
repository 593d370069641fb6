import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { carry, feed9, named, node9, pdus } from '../../test/support/type9-link.ts';
import type { Type9ConveyanceInput } from './type9-conveyance-types.ts';
import type { SmpPriority } from './types.ts';

const A = 0x0a0a;
const B = 0x0b0b;
const MGMT = { conveyance: 'type9' as const, streamID: 0xfff0, cos: 0xff };

type Action =
  | { readonly what: 'message'; readonly priority: SmpPriority; readonly bytes: Uint8Array }
  | { readonly what: 'pdu'; readonly streamID: 1 | 2; readonly bytes: Uint8Array }
  | { readonly what: 'pull'; readonly count: number };

const payload = fc.integer({ min: 1, max: 4096 }).chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ what: fc.constant('message' as const), priority: fc.constantFrom<SmpPriority>('high', 'normal'), bytes: payload }),
  fc.record({ what: fc.constant('pdu' as const), streamID: fc.constantFrom<1 | 2>(1, 2), bytes: payload }),
  fc.record({ what: fc.constant('pull' as const), count: fc.integer({ min: 1, max: 8 }) }),
);

const mtu = fc.integer({ min: 8, max: 64 }).map((n) => n * 4);

function input(a: Exclude<Action, { what: 'pull' }>): Type9ConveyanceInput {
  return a.what === 'message'
    ? { kind: 'send', to: B, contact: MGMT, priority: a.priority, bytes: a.bytes }
    : { kind: 'send-pdu', to: B, streamID: a.streamID, cos: 1, pdu: a.bytes };
}

test('Annex 2 §3.3, §4.3.5, Part 10 §3.2.3: management messages and data PDUs of two streams, interleaved, arrive intact and in order per stream', () => {
  fc.assert(
    fc.property(mtu, fc.array(action, { minLength: 1, maxLength: 12 }), (m, actions) => {
      const a = node9(A, { mtu: m });
      const b = node9(B, { mtu: m });
      const want = new Map<number, string[]>();
      let t = 0;
      for (const x of actions) {
        t++;
        if (x.what === 'pull') {
          carry(a, b, t, x.count);
          continue;
        }
        feed9(a, input(x), t);
        const streamID = x.what === 'message' ? MGMT.streamID : x.streamID;
        want.set(streamID, [...(want.get(streamID) ?? []), Buffer.from(x.bytes).toString('hex')]);
      }
      carry(a, b, t + 1);
      const got = new Map<number, string[]>();
      for (const p of pdus(b)) {
        assert.equal(p.from, A);
        assert.equal(p.cos, p.streamID === MGMT.streamID ? MGMT.cos : 1);
        got.set(p.streamID, [...(got.get(p.streamID) ?? []), Buffer.from(p.pdu).toString('hex')]);
      }
      assert.deepEqual(got, want);
      assert.deepEqual(b.log.filter((o) => o.kind === 'event'), [], 'no defect, abort or time-out');
      assert.equal(named(a, 'sent').length, actions.filter((x) => x.what !== 'pull').length);
    }),
    fcParams(1000),
  );
});
