import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { serialPacketLength } from '../../wire/packet.ts';
import { makeCcp } from '../../wire/type7.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { type11FromFields } from '../../wire/type11.ts';
import type { Type11Packet } from '../../wire/type11.ts';
import { SwitchElement } from './element.ts';
import type { SwitchElementConfig, SwitchOutput } from './element.ts';

/**
 * Random traffic through a 4-port element, random pulls, a driver that honours `input-paused`
 * (after a pause it may still deliver the frames it had already read: up to inputBuffer − 1 more),
 * then pulls until everything is out. Source IDs are the input port numbers.
 */
const PORTS = 4;

type Action =
  | { readonly kind: 'send'; readonly port: number; readonly dst: number; readonly prio: number; readonly crf: number; readonly ccp: boolean }
  | { readonly kind: 'pull'; readonly port: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), port: fc.nat(PORTS - 1), dst: fc.nat(7), prio: fc.nat(3), crf: fc.nat(1), ccp: fc.nat(4).map((n) => n === 0) }),
  fc.record({ kind: fc.constant('pull' as const), port: fc.nat(PORTS - 1) }),
);

const setup = fc.record({
  packets: fc.integer({ min: 1, max: 6 }),
  reserveShare: fc.nat(3),
  inputBuffer: fc.integer({ min: 1, max: 4 }),
  far: fc.array(fc.nat(PORTS - 1), { minLength: 4, maxLength: 4 }),
  congestion: fc.boolean(),
});

interface Sent {
  readonly id: number;
  readonly input: number;
  readonly dst: number;
  readonly out: number;
  readonly prio: number;
  readonly crf: number;
  readonly ccp: boolean;
}

/** A Type 7 packet from an end point (SOC 1) carries its id in tgtdestinationID; the switch's own CCPs have SOC 0. */
function flowControl(id: number, dst: number, prio: number, crf: number): Type7Packet {
  return makeCcp({ tt: 1, destinationID: dst, tgtdestinationID: id, flowID: '0A', command: 'XOFF', soc: 1, prio, crf });
}

function packet(id: number, src: number, dst: number, prio: number, crf: number): Type11Packet {
  return type11FromFields({
    ackID: 0, vc: 0, crf, prio, tt: 1, ftype: 11, destinationID: dst, sourceID: src, msglen: 0, ssize: 9, letter: 0, mbox: 0, msgsegXmbox: 0,
    payload: Uint8Array.of(id >> 8, id & 0xff, 0, 0, 0, 0, 0, 0),
  });
}

test('issue 8 §1 "bounded buffers with backpressure (no loss)", Part 6 §6.11 rules 4–5, Part 9 §2.4.4 rule 3: random traffic and pulls never lose, duplicate or reorder packets per (input, output, priority, CRF), never let a lower priority pass a higher one of the same source and destination nor a flow control packet pass another of the same port pair, and never exceed the buffers', () => {
  fc.assert(fc.property(setup, fc.array(action, { maxLength: 80 }), (s, actions) => {
    const reserve = Math.floor((s.packets - 1) / 3) === 0 ? 0 : s.reserveShare % (Math.floor((s.packets - 1) / 3) + 1);
    const routes: Record<number, number> = { 0: 0, 1: 1, 2: 2, 3: 3 };
    s.far.forEach((port, i) => (routes[4 + i] = port));
    const config: SwitchElementConfig = {
      deviceId: 0x50, ports: PORTS, routes, inputBuffer: { packets: s.inputBuffer, reservePerPriority: 0 }, outputBuffer: { packets: s.packets, reservePerPriority: reserve },
      ...(s.congestion ? { congestion: { highWatermark: 1, lowWatermark: 0 } } : {}),
    };
    const sw = new SwitchElement(config);
    const paused = new Array<boolean>(PORTS).fill(false);
    const slack = new Array<number>(PORTS).fill(0);
    const sent: Sent[] = [];
    const delivered: { id: number; port: number }[] = [];
    let now = 0;
    const run = (input: Parameters<SwitchElement['handle']>[0]): SwitchOutput[] => {
      const out = sw.handle(input, now++);
      for (const o of out) {
        if (o.kind === 'input-paused') {
          paused[o.port] = true;
          slack[o.port] = s.inputBuffer - 1;
        } else if (o.kind === 'input-resumed') paused[o.port] = false;
        else if (o.kind === 'packet' && o.packet.ftype === 11) delivered.push({ id: ((o.packet.payload[0] ?? 0) << 8) | (o.packet.payload[1] ?? 0), port: o.port });
        else if (o.kind === 'packet' && o.packet.ftype === 7 && o.packet.soc === 1) delivered.push({ id: o.packet.tgtdestinationID, port: o.port });
      }
      for (let p = 0; p < PORTS; p++) {
        assert.ok(sw.occupancy(p) <= s.packets, 'an output buffer holds no more than its capacity');
        assert.ok(sw.holding(p) <= s.inputBuffer, 'an input holds no more than its buffer');
      }
      return out;
    };
    for (let p = 0; p < PORTS; p++) run({ kind: 'link-up', port: p });
    for (const a of actions) {
      if (a.kind === 'pull') {
        run(a);
        continue;
      }
      if (paused[a.port] === true) {
        if ((slack[a.port] ?? 0) === 0) continue;
        slack[a.port] = (slack[a.port] ?? 0) - 1;
      }
      const id = sent.length;
      const p = a.ccp ? flowControl(id, a.dst, a.prio, a.crf) : packet(id, a.port, a.dst, a.prio, a.crf);
      sent.push({ id, input: a.port, dst: a.dst, out: routes[a.dst] ?? -1, prio: a.prio, crf: a.crf, ccp: a.ccp });
      run({ kind: 'packet', port: a.port, packet: p, octets: serialPacketLength(p) });
    }
    for (let round = 0; round < 10_000; round++) {
      let busy = false;
      for (let p = 0; p < PORTS; p++) if (run({ kind: 'pull', port: p }).some((o) => o.kind !== 'idle')) busy = true;
      if (!busy) break;
    }
    const c = sw.counters();
    assert.deepEqual([c.holdOverruns, c.noRoute, c.portDownDrops, c.invalidInputs], [0, 0, 0, 0]);
    // Every packet exactly once, on the port its destinationID routes to.
    assert.deepEqual(delivered.map((d) => d.id).sort((a, b) => a - b), sent.map((x) => x.id));
    for (const d of delivered) assert.equal(d.port, sent[d.id]?.out);
    const position = new Map(delivered.map((d, i) => [d.id, i]));
    for (const a of sent) {
      for (const b of sent) {
        if (b.id <= a.id || a.input !== b.input) continue;
        // Rule 4 (same output, priority and CRF: CRF 1 may pass CRF 0 of its priority), rule 5 (same
        // destination: a lower priority never passes a higher one), Part 9 §2.4.4 rule 3 (flow
        // control packets between an input and output port pair in the order received).
        const ordered = (a.out === b.out && a.prio === b.prio && a.crf === b.crf) || (a.dst === b.dst && a.prio > b.prio) || (a.ccp && b.ccp && a.out === b.out);
        if (ordered) assert.ok((position.get(a.id) ?? -1) < (position.get(b.id) ?? -1), `packet ${b.id} passed packet ${a.id}`);
      }
    }
  }), fcParams(2000));
});
