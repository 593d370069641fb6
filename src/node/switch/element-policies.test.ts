import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, baseConfig, message, tagOf } from '../../../test/support/switch-element.ts';
import { makeCcp } from '../../wire/type7.ts';
import { maintenanceReadRequest } from '../../wire/type8-build.ts';
import { voqSymbol } from '../../wire/voq-stype2.ts';
import { resolveSwitchConfig } from './config.ts';
import { voqMessageOf } from './voq-symbol-in.ts';

/**
 * The switch element's policies (issue 15): arbitration among inputs by class and by weight,
 * Type 7 order with VoQ staging, received VoQ symbols honoured by staging, device IDs, and the
 * settings that would not act.
 */

const tags = (ps: readonly Parameters<typeof tagOf>[0][]): number[] => ps.map(tagOf);

/** Fills output 3 (4 places), then has each input 0–2 hold packets for it: pulls then free one place at a time. */
function contention(extra: Parameters<typeof baseConfig>[0], queued: readonly (readonly { port: number; tag: number; prio?: number }[])[]): Rig {
  const r = new Rig(baseConfig({ ports: 4, inputBuffer: { packets: 8, reservePerPriority: 0 }, ...extra }));
  for (let tag = 0; tag < 4; tag++) r.send(0, message(0, 3, { tag: 100 + tag }));
  for (const round of queued) for (const q of round) r.send(q.port, message(q.port, 3, { tag: q.tag, prio: q.prio ?? 0 }));
  return r;
}

test('issue 15 arbitration by class (Part 6 §5 order): at a freed place the input offering the highest class wins, whatever the round-robin pointer; byClass false leaves it to the policy', () => {
  const queued = [[{ port: 0, tag: 1 }, { port: 1, tag: 2 }, { port: 2, tag: 3, prio: 2 }]];
  // The first pull frees a place: input 2's priority-2 packet takes it and leaves next; then the
  // round robin goes on from past input 2.
  assert.deepEqual(tags(contention({}, queued).drain(3)), [100, 3, 101, 102, 103, 1, 2]);
  // Round robin alone: the pointer is at input 1 (input 0 won the four places), then input 2.
  assert.deepEqual(tags(contention({ arbitration: { policy: 'round-robin', byClass: false } }, queued).drain(3)), [100, 101, 3, 102, 103, 2, 1]);
});

test('issue 15 arbitration weighted: an input of weight 3 takes three places in a row each time it is served, one of weight 1 one', () => {
  const queued = Array.from({ length: 4 }, (_, k) => [{ port: 1, tag: 10 + k }, { port: 2, tag: 20 + k }]);
  const r = contention({ arbitration: { policy: 'weighted', weights: [1, 3, 1, 1] } }, queued);
  const order = tags(r.drain(3)).filter((t) => t < 100);
  assert.deepEqual(order, [10, 11, 12, 20, 13, 21, 22, 23]);
});

test('issue 15 arbitration random: a switch element with no host stream draws from its seed; the same seed gives the same order', () => {
  const run = (seed: number): number[] => {
    const queued = Array.from({ length: 3 }, (_, k) => [{ port: 0, tag: k }, { port: 1, tag: 10 + k }, { port: 2, tag: 20 + k }]);
    return tags(contention({ arbitration: { policy: 'random', seed } }, queued).drain(3)).filter((t) => t < 100);
  };
  assert.deepEqual(run(7), run(7));
  assert.equal(run(7).length, 9);
  assert.throws(() => resolveSwitchConfig(baseConfig({ arbitration: { policy: 'round-robin', seed: 3 } })), /arbitration\.seed needs policy random/);
});

test('Part 9 §2.4.4 rule 3 with VoQ staging (decision SW4): flow control packets from one input to one output leave in the order received, whatever their priorities', () => {
  const r = new Rig(baseConfig({ queueing: 'cioq-voq-backpressure', voq: { high: 8, low: 1, generate: [] }, outputBuffer: { packets: 16 }, routes: { 0: 0, 1: 1, 2: 2, 3: { port: 3, next: 0 } } }));
  const ccp = (prio: number, command: 'XOFF' | 'XON') => makeCcp({ tt: 1, destinationID: 3, tgtdestinationID: 0, flowID: '0A', command, soc: 1, prio, crf: 0 });
  r.send(0, ccp(1, 'XOFF'));
  r.send(0, message(0, 3, { prio: 2, tag: 1 }));
  r.send(0, ccp(3, 'XON'));
  const got = r.drain(3).map((p) => (p.ftype === 7 ? p.command : tagOf(p)));
  assert.ok(got.indexOf('XOFF') < got.indexOf('XON'), `order ${got.join()}`);
  assert.equal(got.length, 3);
});

test('VoQ Backpressure §4.3 b, e (issue 15): a software fabric switch with staging honours a received VoQ symbol: traffic for the congested downstream port waits, other traffic passes, and goes when the port clears', () => {
  // Destination 3 leaves by port 3 towards downstream port 0 of the next switch, destination 2 by port 3 towards its port 1.
  const r = new Rig(baseConfig({ queueing: 'cioq-voq-backpressure', voq: { high: 8, low: 1, generate: [] }, routes: { 0: 0, 1: 1, 2: { port: 3, next: 1 }, 3: { port: 3, next: 0 } } }));
  r.run({ kind: 'symbol', port: 3, symbol: { link: 'cs48', stype2: voqSymbol({ group: 0, congestedOffsets: [0] }) } });
  assert.equal(r.sw.counters().voqBlocked > 0, true);
  r.send(0, message(0, 3, { tag: 1 }));
  r.send(0, message(0, 2, { tag: 2 }));
  assert.deepEqual(tags(r.drain(3)), [2]);
  r.run({ kind: 'symbol', port: 3, symbol: { link: 'cs48', stype2: voqSymbol({ group: 0, congestedOffsets: [] }) } });
  assert.deepEqual(tags(r.drain(3)), [1]);
  // Without staging a VoQ symbol is counted and ignored (VoQ §4.1 c).
  const plain = new Rig();
  plain.run({ kind: 'symbol', port: 3, symbol: { link: 'cs48', stype2: voqSymbol({ group: 0, congestedOffsets: [0] }) } });
  assert.deepEqual([plain.sw.counters().voqSymbolsReceived, plain.sw.counters().voqIgnored], [1, 1]);
});

test('VoQ Backpressure §3, Part 12 §3.2: a received control symbol carries a VoQ message when it is a CS48 with a non-zero stype2 or a CS64 VoQ-backpressure symbol', () => {
  assert.deepEqual(voqMessageOf({ link: 'cs48', stype2: 0x1234 }), { stype2: 0x1234 });
  assert.equal(voqMessageOf({ link: 'cs48', stype2: 0 }), null);
  const cs64 = { link: 'cs64', stype0: 0b1101 };
  assert.deepEqual(voqMessageOf(cs64), { cs64 });
  assert.equal(voqMessageOf({ link: 'cs64', stype0: 0 }), null);
  assert.equal(voqMessageOf(null), null);
});

test('Part 3 §2.5 (decision SW7): a switch given no device ID answers MAINTENANCE by hop_count 0 only; the all-ones ID it reads as is an end point\'s to forward to', () => {
  const read = (hopCount: number) => ({ ...maintenanceReadRequest({ tt: 1, destinationID: 0xffff, sourceID: 0, srcTID: 1, byteOffset: 0x60, byteCount: 4 }), hopCount });
  const noId = new Rig({ ports: 4, routes: { 0: 0, 0xffff: 3 } });
  noId.send(0, read(5));
  assert.deepEqual([noId.events('maintenance-answered').length, noId.drain(3).length], [0, 1]);
  noId.send(0, read(0));
  assert.equal(noId.events('maintenance-answered').length, 1);
  const withId = new Rig({ deviceId: 0xffff, ports: 4, routes: { 0: 0 } });
  withId.send(0, read(5));
  assert.equal(withId.events('maintenance-answered').length, 1);
});

test('issue 15 (decision SW5): VoQ generation needs output queues: an input-queued switch with voq is refused', () => {
  assert.throws(() => resolveSwitchConfig(baseConfig({ queueing: 'input-fifo', outputBuffer: { packets: 0 }, voq: { high: 2, low: 1 } })), /voq needs output queues/);
  assert.throws(() => resolveSwitchConfig(baseConfig({ queueing: 'input-voq', outputBuffer: { packets: 1 }, voq: { high: 2, low: 1 } })), /voq needs output queues/);
});
