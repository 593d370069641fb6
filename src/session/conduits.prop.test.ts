import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import { ConduitTable, isComplete } from './conduits.ts';
import type { ConduitRole } from './types.ts';

const PROTO = 0x0102;

interface Wire {
  readonly kind: 'open' | 'accept';
  readonly from: number;
  readonly to: number;
  readonly transmit: number;
  readonly receive: number;
}

interface Side {
  readonly node: number;
  readonly table: ConduitTable;
  readonly wantsConduit: boolean;
  created: boolean;
  next: number;
  allocated: number;
  opensSent: number;
  acceptsSent: number;
}

/**
 * Two conduit tables exchanging OPEN and ACCEPT messages that may be delivered in any order (an
 * ACCEPT is sent ahead of an OPEN, §3.7.2, and a lost message is resent later, §3.7.1, so neither
 * direction keeps its order). `choices` picks, step by step, which enabled action happens next:
 * an application asking its side for the conduit (create_conduit) or the delivery of one message
 * in flight.
 */
function run(roles: readonly [ConduitRole, ConduitRole], wants: readonly [boolean, boolean], choices: readonly number[]): Side[] {
  const sides: Side[] = roles.map((role, i) => ({
    node: i + 1,
    table: new ConduitTable(role),
    wantsConduit: wants[i] ?? false,
    created: false,
    next: (i + 1) * 0x1000,
    allocated: 0,
    opensSent: 0,
    acceptsSent: 0,
  }));
  const wire: Wire[] = [];
  const peerOf = (s: Side): Side => sides[s.node === 1 ? 1 : 0] as Side;
  const send = (s: Side, kind: Wire['kind'], v: { transmit: number; receive: number }): void => {
    if (kind === 'open') s.opensSent++;
    else s.acceptsSent++;
    wire.push({ kind, from: s.node, to: peerOf(s).node, transmit: v.transmit, receive: v.receive });
  };
  let step = 0;
  for (;;) {
    const creators = sides.filter((s) => s.wantsConduit && !s.created);
    const enabled = creators.length + wire.length;
    if (enabled === 0) break;
    assert.ok(step < 64, 'the exchange ends');
    const pick = (choices[step] ?? 0) % enabled;
    step++;
    const creator = creators[pick];
    if (creator !== undefined) {
      creator.created = true;
      // The application asks for a conduit unless it has one already.
      if (creator.table.snapshot().some(isComplete)) continue;
      const r = creator.table.create(peerOf(creator).node, PROTO);
      if (r.ok) send(creator, 'open', r.open);
      else assert.equal(r.reason, creator.table.role === 'slave' ? 'slave-may-not-initiate' : 'conduit-pending');
      continue;
    }
    const [m] = wire.splice(pick - creators.length, 1);
    if (m === undefined) continue;
    const at = sides[m.to - 1] as Side;
    if (m.kind === 'open') {
      const r = at.table.incomingOpen(m.from, PROTO, m.transmit, m.receive, () => {
        at.allocated++;
        return at.next++;
      });
      assert.ok(r.ok, `OPEN ${m.transmit.toString(16)}/${m.receive.toString(16)} refused: ${r.ok ? '' : r.reason}`);
      send(at, 'accept', r.accept);
      if (r.open) send(at, 'open', r.open);
    } else {
      const r = at.table.incomingAccept(m.from, PROTO, m.transmit, m.receive);
      if (r.open) send(at, 'open', r.open);
    }
  }
  return sides;
}

function assertOneMirroredConduit(sides: readonly Side[]): void {
  const [a, b] = sides;
  assert.ok(a && b);
  const ca = a.table.snapshot();
  const cb = b.table.snapshot();
  assert.equal(ca.length, 1, 'one conduit on the first side');
  assert.equal(cb.length, 1, 'one conduit on the second side');
  const [x, y] = [ca[0], cb[0]];
  assert.ok(x && y);
  assert.ok(isComplete(x) && isComplete(y), 'both complete');
  assert.equal(x.transmit, y.receive);
  assert.equal(x.receive, y.transmit);
  for (const s of sides) {
    assert.equal(s.opensSent, 1, 'each side sends one OPEN');
    assert.equal(s.acceptsSent, 1, 'each OPEN gets one ACCEPT');
    assert.equal(s.allocated, 1, 'each side allocates one receive stream');
  }
}

const choices = fc.array(fc.nat(), { maxLength: 16 });

test('Annex 2 §3.4.2, §3.4.3: peers OPENing in any interleaving (crossing or not) end with one complete conduit whose streamIDs mirror each other', () => {
  const wants = fc.constantFrom<[boolean, boolean]>([true, true], [true, false], [false, true]);
  fc.assert(
    fc.property(wants, choices, (w, c) => {
      assertOneMirroredConduit(run(['peers', 'peers'], w, c));
    }),
    fcParams(FC_RUNS_MODEL),
  );
});

test('Annex 2 §3.4.1, §3.4.3: master/slave in any delivery order end with one complete conduit whose streamIDs mirror each other', () => {
  fc.assert(
    fc.property(choices, (c) => {
      assertOneMirroredConduit(run(['master', 'slave'], [true, false], c));
    }),
    fcParams(FC_RUNS_MODEL),
  );
});

test('Annex 2 §3.4.1: a slave asked for a conduit alone never opens one', () => {
  const sides = run(['master', 'slave'], [false, true], []);
  assert.deepEqual(sides.map((s) => s.table.snapshot().length), [0, 0]);
  assert.equal(sides[1]?.opensSent, 0);
});
