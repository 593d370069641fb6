import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { prng } from '../../test/support/arb-trace.ts';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { sessionPair } from '../../test/support/session-pair.ts';
import type { SessionNet } from '../../test/support/session-pair.ts';
import { attempt } from '../wire/errors.ts';
import { decodeSmp, smpBytes, STATUS_BIT } from '../wire/smp/index.ts';
import type { ProtocolSupport, StreamRef } from './types.ts';

/**
 * Two end points over a link that loses, delays (so reorders) and duplicates management messages
 * (Annex 2 §3.7.1 recovers their loss by retries). Data messages keep their order and arrive: DATA
 * carries no sequence number ("Session Management Protocol must not be used over unreliable
 * channels", §3.7). Once the losses stop and each side re-verifies its streams (§3.8.3), both must
 * hold the same streams and conduits.
 */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const MS = 1_000_000;

type Cmd =
  | { readonly op: 'open'; readonly node: 1 | 2; readonly conduit: boolean }
  | { readonly op: 'close' | 'query' | 'xoff' | 'xon'; readonly node: 1 | 2; readonly pick: number }
  | { readonly op: 'send'; readonly node: 1 | 2; readonly pick: number; readonly size: number }
  | { readonly op: 'request'; readonly node: 1 | 2 };

const node = fc.constantFrom<1 | 2>(1, 2);
const pick = fc.nat({ max: 16 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('open' as const), node, conduit: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('close' as const, 'query' as const, 'xoff' as const, 'xon' as const), node, pick }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('send' as const), node, pick, size: fc.integer({ min: 1, max: 6000 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('request' as const), node }) },
);

function streams(net: SessionNet, n: number): StreamRef[] {
  return net.engine(n).snapshot().streams.map((s) => ({ remote: s.remote, direction: s.direction, streamID: s.streamID }));
}

function apply(net: SessionNet, c: Cmd, refs: string[], sent: Map<string, Uint8Array[]>): void {
  const other = c.node === 1 ? 2 : 1;
  if (c.op === 'open') {
    const ref = `r${refs.length}`;
    refs.push(ref);
    net.input(c.node, { kind: 'open', to: other, protoID: PROTO, ref, conduit: c.conduit });
    return;
  }
  if (c.op === 'request') {
    net.input(c.node, { kind: 'request', to: other, protoID: PROTO });
    return;
  }
  const mine = streams(net, c.node).filter((s) => (c.op === 'send' ? s.direction === 'tx' : c.op === 'xoff' || c.op === 'xon' ? s.direction === 'rx' : true));
  const s = mine[c.pick % Math.max(1, mine.length)];
  if (s === undefined) return;
  if (c.op === 'send') {
    const key = `${c.node}>${s.remote}/${s.streamID}`;
    const list = sent.get(key) ?? [];
    const pdu = Uint8Array.from({ length: c.size }, (_, i) => (i < 4 ? (list.length >> (8 * i)) & 0xff : (i * 31 + list.length) & 0xff));
    list.push(pdu);
    sent.set(key, list);
    net.input(c.node, { kind: 'send', stream: s, pdu });
  } else if (c.op === 'close') {
    net.input(c.node, { kind: 'close', stream: s });
  } else if (c.op === 'query') {
    net.input(c.node, { kind: 'status-query', stream: s });
  } else {
    net.input(c.node, { kind: c.op, stream: s });
  }
}

function isSubsequence(got: readonly Uint8Array[], sent: readonly Uint8Array[]): boolean {
  let i = 0;
  for (const g of got) {
    while (i < sent.length && !same(sent[i], g)) i++;
    if (i === sent.length) return false;
    i++;
  }
  return true;
}
const same = (a: Uint8Array | undefined, b: Uint8Array): boolean => a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

test('Annex 2 §3.7.1, §3.8.3, §3.4: over a lossy, duplicating link every OPEN ends once, data arrives intact and in order, and both ends agree once losses stop', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ cmd, wait: fc.integer({ min: 0, max: 600 * MS }) }), { maxLength: 40 }),
      fc.integer(),
      fc.double({ min: 0, max: 0.5, noNaN: true }),
      fc.double({ min: 0, max: 0.3, noNaN: true }),
      (steps, seed, loss, dup) => {
        const net = sessionPair({ protocols: [P] }, { protocols: [P] });
        // The link's own reproducible randomness (mulberry32), seeded by fast-check.
        const rand = prng(seed);
        net.link = (m) => {
          // DATA has no sequence numbers: a lost or reordered segment would splice two PDUs. Data keeps its order and arrives.
          if (m.command.startsWith('DATA') || m.command === 'PDU') return [1];
          if (rand() < loss) return [];
          const delay = 1 + Math.floor(rand() * 50 * MS);
          return rand() < dup ? [delay, 1 + Math.floor(rand() * 50 * MS)] : [delay];
        };
        const refs: string[] = [];
        const sent = new Map<string, Uint8Array[]>();
        for (const { cmd: c, wait } of steps) {
          apply(net, c, refs, sent);
          net.run(net.now + wait);
        }
        net.link = () => [1];
        net.settle();
        for (let round = 0; round < 3; round++) {
          net.input(1, { kind: 'verify', node: 2 });
          net.input(2, { kind: 'verify', node: 1 });
          net.settle();
        }

        // Every application OPEN ended exactly once.
        for (const ref of refs) {
          const ends = net.events.filter((e) =>
            (e.detail.event === 'opened' || e.detail.event === 'refused' || e.detail.event === 'timeout') && 'ref' in e.detail && e.detail.ref === ref);
          const droppedConduit = ends.length === 0 && net.events.some((e) => e.detail.event === 'dropped' && e.detail.reason === 'conduit-pending');
          assert.ok(ends.length === 1 || droppedConduit, `${ref}: ${ends.map((e) => e.detail.event).join(',') || 'no outcome'}`);
        }
        // Both ends hold the same streams: node 1's tx are node 2's rx, and the other way round.
        const view = (n: number, dir: 'tx' | 'rx'): number[] => streams(net, n).filter((s) => s.direction === dir).map((s) => s.streamID).sort((a, b) => a - b);
        assert.deepEqual(view(1, 'tx'), view(2, 'rx'));
        assert.deepEqual(view(1, 'rx'), view(2, 'tx'));
        // And the same conduits, each complete.
        const conduits = (n: number): string[] => net.engine(n).snapshot().conduits
          .map((c) => (n === 1 ? `${c.transmit}/${c.receive}` : `${c.receive}/${c.transmit}`)).sort();
        assert.deepEqual(conduits(1), conduits(2));
        assert.ok(!conduits(1).some((c) => c.includes('65535')));
        // Data: what each receive stream delivered is what its sender sent, intact, in order, maybe with gaps.
        for (const [key, list] of sent) {
          const [pair, sid] = key.split('/');
          const [from, to] = (pair ?? '').split('>').map(Number);
          const got = net.deliveries.filter((d) => d.node === to && d.stream.remote === from && d.stream.streamID === Number(sid)).map((d) => d.pdu);
          assert.ok(isSubsequence(got, list), `stream ${key}`);
        }
      },
    ),
    // Each case runs up to 40 commands over two engines and a lossy link: 500 cases (~1.5 s), more
    // under `npm run fuzz`.
    fcParams(Math.max(1, Math.floor(FC_RUNS / 200))),
  );
});

test('Annex 2 §3.7, §4.2.8: random and mutated management messages, in both modes, never make the engine throw, and what it sends encodes as it says', () => {
  const nodes = [false, true].map((validation) => {
    const net = sessionPair({ protocols: [P] }, { protocols: [P], validation, userDefined: [0xf0] });
    net.input(1, { kind: 'request', to: 2, protoID: PROTO });
    net.settle();
    net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'a' });
    net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'b', conduit: true });
    net.settle();
    return net;
  });
  const seeds = nodes[0]?.trace.map((m) => m.bytes) ?? [];
  const mutated = fc.tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 4 }), fc.nat({ max: 8 })).map(([b, flips, cut]) => {
    const c = b.slice(0, Math.max(0, b.length - cut));
    for (const [at, v] of flips) if (c.length > 0) c[at % c.length] = v;
    return c;
  });
  fc.assert(
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 96 }), mutated), fc.constantFrom(0, 1), fc.integer({ min: 0, max: 2 ** 16 }), (bytes, which, mailbox) => {
      const net = nodes[which];
      if (net === undefined) return;
      const e = net.engine(2);
      const out = e.handle({ kind: 'message', from: 1, bytes, mailbox: mailbox & 0xff }, net.now);
      const decoded = attempt(() => decodeSmp(bytes, 0, bytes.length));
      const query = decoded.ok && decoded.value.command === 'STATUS' && (decoded.value.status & STATUS_BIT.REQUEST_STATUS_OF_REMOTE) !== 0;
      for (const o of out) {
        if (o.kind !== 'send') continue;
        assert.deepEqual(o.bytes, smpBytes(o.message));
        // §4.2.8: only a status query is answered by a STATUS; any other STATUS never is.
        if (bytes[0] === 0x10 && !query) assert.notEqual(o.message.command, 'STATUS');
      }
    }),
    fcParams(5000),
  );
});
