import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { VoqReceiver } from './receiver.ts';
import { voqSymbol } from '../wire/voq-stype2.ts';

/** destID d: local port d % 2, downstream port (d >> 1) % 12 (groups 0 and 1 of the seed format). */
const DESTS = 24;
const route = (d: number): { localPort: number; downstreamPort: number } => ({ localPort: d % 2, downstreamPort: (d >> 1) % 12 });

type Op =
  | { readonly t: 'msg'; readonly port: number; readonly group: number; readonly status: number }
  | { readonly t: 'pkt'; readonly dest: number }
  | { readonly t: 'go'; readonly port: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('msg' as const), port: fc.integer({ min: 0, max: 1 }), group: fc.integer({ min: 0, max: 1 }), status: fc.integer({ min: 0, max: 63 }) }),
  fc.record({ t: fc.constant('pkt' as const), dest: fc.integer({ min: 0, max: DESTS - 1 }) }),
  fc.record({ t: fc.constant('go' as const), port: fc.integer({ min: 0, max: 1 }) }),
);

const offsetsOf = (status: number): number[] => [0, 1, 2, 3, 4, 5].filter((o) => ((status >> o) & 1) === 1);

test('VoQ Backpressure §4.3 b, d, e (property): never transmits from a blocked queue, never reorders within a queue, every packet goes once congestion clears', () => {
  fc.assert(
    fc.property(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })), fc.array(opArb, { maxLength: 120 }), (queues, ops) => {
      const r = new VoqReceiver({
        ports: queues.map((q) => ({ queues: q })),
        routes: Array.from({ length: DESTS }, (_, d) => ({ destID: d, ...route(d) })),
      });
      // Reference model: congested downstream ports and the FIFO of each (port, queue).
      const congested = [new Set<number>(), new Set<number>()];
      const fifos = queues.map((q) => Array.from({ length: q }, () => [] as number[]));
      const blocked = (port: number, queue: number): boolean => [...(congested[port] ?? [])].some((d) => d % (queues[port] ?? 1) === queue);
      const sent = new Map<number, number>();
      let nextId = 0;
      let now = 0;
      const opportunity = (port: number): boolean => {
        const out = r.handle({ kind: 'transmit-opportunity', port }, now++);
        assert.equal(out.length, 1);
        const o = out[0]!;
        const heads = (fifos[port] ?? []).flatMap((f, queue) => (f.length > 0 && !blocked(port, queue) ? [{ queue, id: f[0]! }] : []));
        if (o.kind !== 'transmit') {
          assert.deepEqual([o.kind, o.kind === 'event' ? o.name : ''], ['event', 'idle']);
          assert.deepEqual(heads, [], 'idle only when no unblocked queue holds a packet');
          return false;
        }
        assert.equal(blocked(port, o.queue), false, 'a blocked queue never transmits');
        const fifo = fifos[port]![o.queue]!;
        assert.equal(o.packetId, fifo[0], 'the head of its queue: no reordering');
        assert.equal(o.packetId, Math.min(...heads.map((h) => h.id)), 'the oldest eligible head');
        fifo.shift();
        sent.set(o.packetId, (sent.get(o.packetId) ?? 0) + 1);
        return true;
      };
      for (const op of ops) {
        if (op.t === 'msg') {
          r.handle({ kind: 'stype2', port: op.port, stype2: voqSymbol({ group: op.group, congestedOffsets: offsetsOf(op.status) }) }, now++);
          for (let o = 0; o < 6; o++) {
            if (((op.status >> o) & 1) === 1) congested[op.port]!.add(op.group * 6 + o);
            else congested[op.port]!.delete(op.group * 6 + o);
          }
          for (let q = 0; q < queues[op.port]!; q++) assert.equal(r.isBlocked(op.port, q), blocked(op.port, q));
        } else if (op.t === 'pkt') {
          const { localPort, downstreamPort } = route(op.dest);
          r.handle({ kind: 'packet', destID: op.dest, packetId: nextId }, now++);
          fifos[localPort]![downstreamPort % queues[localPort]!]!.push(nextId++);
        } else {
          opportunity(op.port);
        }
      }
      // Congestion clears: every group of both links reports all ports clear.
      for (const port of [0, 1]) {
        for (const group of [0, 1]) r.handle({ kind: 'stype2', port, stype2: voqSymbol({ group, congestedOffsets: [] }) }, now++);
        congested[port]!.clear();
        while (opportunity(port));
      }
      assert.equal(sent.size, nextId, 'every packet went');
      assert.ok([...sent.values()].every((n) => n === 1), 'each exactly once');
      assert.equal(r.stagedCount(0) + r.stagedCount(1), 0);
    }),
    fcParams(5000),
  );
});
