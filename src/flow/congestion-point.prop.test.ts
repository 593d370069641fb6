import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { CongestionPoint } from './congestion-point.ts';
import type { BufferedPacket, CongestionPointConfig, CongestionPointOutput } from './congestion-point-types.ts';

type Out = CongestionPointOutput;

const packetArb: fc.Arbitrary<BufferedPacket> = fc.record({
  sourceID: fc.integer({ min: 1, max: 4 }),
  destinationID: fc.integer({ min: 8, max: 9 }),
  tt: fc.constantFrom(0, 1),
  prio: fc.integer({ min: 0, max: 3 }),
  crf: fc.integer({ min: 0, max: 1 }),
  vc: fc.constantFrom(0, 0, 1),
  ftype: fc.constantFrom(5, 5, 6, 13, 13, 8, 7),
  size: fc.integer({ min: 1, max: 64 }),
});

type Op =
  | { readonly op: 'enq'; readonly packet: BufferedPacket }
  | { readonly op: 'deq'; readonly pick: number }
  | { readonly op: 'bogus'; readonly packet: BufferedPacket }
  /** level undefined: the current occupancy, so the XON goes out at once. */
  | { readonly op: 'level'; readonly sourceID: number; readonly level: number | undefined }
  | { readonly op: 'participant'; readonly port: number; readonly enabled: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: packetArb.map((packet) => ({ op: 'enq' as const, packet })) },
  { weight: 5, arbitrary: fc.nat().map((pick) => ({ op: 'deq' as const, pick })) },
  // Source 200 never enqueues, so these packets are never in the buffer.
  { weight: 1, arbitrary: packetArb.map((p) => ({ op: 'bogus' as const, packet: { ...p, sourceID: 200 } })) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('level' as const), sourceID: fc.integer({ min: 1, max: 4 }), level: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('participant' as const), port: fc.integer({ min: 0, max: 2 }), enabled: fc.boolean() }) },
);

const configArb: fc.Arbitrary<CongestionPointConfig> = fc
  .record({
    role: fc.constantFrom('switch' as const, 'endpoint' as const),
    unit: fc.constantFrom('packets' as const, 'bytes' as const),
    high: fc.integer({ min: 1, max: 8 }),
    lowFrac: fc.double({ min: 0, max: 0.99, noNaN: true }),
    capacity: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    policy: fc.oneof(fc.integer({ min: 1, max: 5 }).map((flows) => ({ kind: 'histogram' as const, flows })), fc.constant({ kind: 'threshold' as const })),
    responses: fc.constantFrom('fallback' as const, 'ignore' as const, 'equal' as const),
    listCapacity: fc.integer({ min: 1, max: 4 }),
    restartOrder: fc.constantFrom('fifo' as const, 'lifo' as const),
    restartStagger: fc.integer({ min: 0, max: 3 }),
    crfSupported: fc.boolean(),
    vcCount: fc.constantFrom(0 as const, 8 as const),
    table: fc.dictionary(fc.constantFrom('1', '2', '3', '4'), fc.integer({ min: 0, max: 2 })),
    dflt: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    participants: fc.option(fc.subarray([0, 1, 2]), { nil: undefined }),
  })
  .map((r) => {
    const scale = r.unit === 'bytes' ? 32 : 1;
    const high = r.high * scale;
    const routes = r.dflt === undefined ? { table: r.table } : { table: r.table, default: r.dflt };
    return {
      role: r.role, unit: r.unit, highWatermark: high, lowWatermark: Math.floor(high * r.lowFrac),
      ...(r.capacity === undefined ? {} : { capacity: r.capacity * scale }),
      policy: r.policy, responses: r.responses, listCapacity: r.listCapacity, restartOrder: r.restartOrder,
      restartStagger: r.restartStagger * scale, crfSupported: r.crfSupported, vcCount: r.vcCount, routes,
      ...(r.participants === undefined ? {} : { participants: r.participants }),
    };
  });

const flowKey = (f: { destinationID?: number; tgtdestinationID?: number; flowID?: string; tt?: number }): string =>
  `${f.destinationID}>${f.tgtdestinationID}/${f.flowID}`;

/** Follows the engine's CCPs and checks the list invariants after every input. */
class Checker {
  readonly balance = new Map<string, number>();
  constructor(readonly e: CongestionPoint, readonly listCapacity: number, readonly seen: Set<string>) {}

  /** `before`: the tts of each listed flow before the input (XON drop events do not carry tt). */
  step(out: readonly Out[], before: ReadonlyMap<string, readonly number[]>): void {
    const listed = this.e.controlledFlows();
    const inList = new Set(listed.map((f) => `${f.tt}:${flowKey(f)}`));
    for (const o of out) {
      if (o.kind === 'send') this.#count(`${o.packet.tt}:${flowKey(o.packet)}`, o.packet.command === 'XOFF' ? 1 : -1);
      // A dropped or suppressed XON ends the entry as a sent one does; a dropped XOFF controls nothing.
      else if ((o.name === 'ccp-dropped' || o.name === 'ccp-suppressed') && o.command === 'XON') {
        const tt = (before.get(flowKey(o)) ?? []).find((t) => this.balance.get(`${t}:${flowKey(o)}`) === 1 && !inList.has(`${t}:${flowKey(o)}`));
        assert.notEqual(tt, undefined, 'an XON for a flow that was not in the list');
        this.#count(`${tt}:${flowKey(o)}`, -1);
      }
      if (o.kind === 'event') this.seen.add(`${o.name} ${o.command ?? ''}`);
    }
    assert.ok(listed.length <= this.listCapacity, 'list over capacity');
    for (const [key, b] of this.balance) assert.equal(b, inList.has(key) ? 1 : 0, `flow ${key}: XOFF − XON = ${b}`);
    for (const key of inList) assert.equal(this.balance.get(key), 1, `flow ${key} listed without an XOFF`);
    assert.ok(this.e.occupancy() >= 0);
  }

  #count(key: string, d: number): void {
    const b = (this.balance.get(key) ?? 0) + d;
    assert.ok(b === 0 || b === 1, `flow ${key}: XOFF − XON = ${b}`);
    this.balance.set(key, b);
  }
}

test('Part 9 §2.4.2.2, §2.4.3, Annex A.1: random buffer traffic — list within capacity, XOFF − XON per flow is 0 or 1 and equals "listed", ftype 7/8 never trigger, draining empties the list', () => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(configArb, fc.array(opArb, { maxLength: 80, size: 'max' }), (config, ops) => {
      const e = new CongestionPoint(config);
      const check = new Checker(e, config.listCapacity ?? 16, seen);
      const held: BufferedPacket[] = [];
      let occupancy = 0;
      const weight = (p: BufferedPacket): number => (config.unit === 'bytes' ? p.size ?? 0 : 1);
      const run = (op: Op): void => {
        const ttOf = new Map<string, number[]>();
        for (const f of e.controlledFlows()) ttOf.set(flowKey(f), [...(ttOf.get(flowKey(f)) ?? []), f.tt]);
        if (op.op === 'enq') {
          held.push(op.packet);
          occupancy += weight(op.packet);
          const out = e.handle({ kind: 'enqueue', packet: op.packet }, 0);
          if (op.packet.ftype === 7 || op.packet.ftype === 8) assert.ok(out.every((o) => o.kind === 'event' && o.name === 'congested'), 'ftype 7/8 triggered a CCP');
          check.step(out, ttOf);
        } else if (op.op === 'deq') {
          if (held.length === 0) return;
          const [p] = held.splice(op.pick % held.length, 1) as [BufferedPacket];
          occupancy -= weight(p);
          const out = e.handle({ kind: 'dequeue', packet: p }, 0);
          assert.ok(out.every((o) => o.kind === 'send' || o.name !== 'unknown-dequeue'), 'a buffered packet was unknown');
          check.step(out, ttOf);
        } else if (op.op === 'bogus') {
          const out = e.handle({ kind: 'dequeue', packet: op.packet }, 0);
          assert.deepEqual(out.map((o) => (o.kind === 'event' ? o.name : 'send')), ['unknown-dequeue']);
          check.step(out, ttOf);
        } else if (op.op === 'level') {
          for (const f of e.controlledFlows().filter((x) => x.destinationID === op.sourceID)) {
            check.step(e.handle({ kind: 'set-restart-level', destinationID: f.destinationID, tgtdestinationID: f.tgtdestinationID, flowID: f.flowID, level: op.level ?? e.occupancy() }, 0), ttOf);
          }
        } else {
          check.step(e.handle({ kind: 'set-participant', port: op.port, enabled: op.enabled }, 0), ttOf);
        }
        assert.equal(e.occupancy(), occupancy);
      };
      for (const op of ops) run(op);
      while (held.length > 0) run({ op: 'deq', pick: 0 });
      assert.equal(e.occupancy(), 0);
      assert.deepEqual(e.controlledFlows(), []);
      for (const [key, b] of check.balance) assert.equal(b, 0, `flow ${key} left XOFF'd`);
    }),
    fcParams(10_000),
  );
  // The runs reached every path that ends or refuses an entry.
  for (const ev of ['early-xon ', 'list-full ', 'ccp-dropped XOFF', 'ccp-dropped XON', 'ccp-suppressed XOFF', 'ccp-suppressed XON', 'no-route ', 'unmappable ']) {
    assert.ok(seen.has(ev), `no run produced ${ev}`);
  }
});
