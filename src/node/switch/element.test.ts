import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, baseConfig, message, tagOf } from '../../../test/support/switch-element.ts';
import { makeCcp } from '../../wire/type7.ts';
import { maintenanceResponse } from '../../wire/type8-build.ts';
import type { Packet } from '../../wire/packet.ts';

const tags = (ps: readonly Packet[]): number[] => ps.map(tagOf);

test('Part 3 §2.3, Part 6 §6.11 packet delivery rule 3: a packet leaves by the port its destinationID routes to, unchanged', () => {
  const r = new Rig();
  const p = message(0, 2, { tag: 7 });
  const out = r.send(0, p);
  assert.deepEqual(out.filter((o) => o.kind === 'ready'), [{ kind: 'ready', port: 2 }]);
  assert.deepEqual(r.drain(1), []);
  assert.deepEqual(r.drain(2), [p]);
  const c = r.sw.counters();
  assert.deepEqual([c.packetsIn, c.forwarded, c.packetsOut], [1, 1, 1]);
});

test('Part 6 §6.11, sim priorities: an output sends priority 3 … 0, CRF 1 before CRF 0 within a priority, and FIFO within a class', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 16, reservePerPriority: 0 } }));
  const order: [number, number][] = [[0, 0], [2, 0], [2, 1], [1, 0], [0, 0], [2, 1], [3, 0], [1, 0]];
  order.forEach(([prio, crf], tag) => r.send(0, message(0, 3, { prio, crf, tag })));
  // Tags by class: (3,0) 6; (2,1) 2, 5; (2,0) 1; (1,0) 3, 7; (0,0) 0, 4.
  assert.deepEqual(tags(r.drain(3)), [6, 2, 5, 1, 3, 7, 0, 4]);
});

test('issue 8 §1 "bounded buffers with backpressure (no loss)": a full output pauses the input, nothing is dropped, order is kept, the input resumes once its hold drains', () => {
  const r = new Rig();
  for (let tag = 0; tag < 4; tag++) r.send(0, message(0, 3, { tag }));
  assert.equal(r.kinds('input-paused').length, 0);
  // The fifth packet finds the 4-packet buffer full: it waits at input 0 and the driver is told to stop reading.
  const fifth = r.send(0, message(0, 3, { tag: 4 }));
  assert.deepEqual(fifth.filter((o) => o.kind === 'input-paused'), [{ kind: 'input-paused', port: 0 }]);
  // A frame the driver had already read still arrives: it is held too, not dropped.
  r.send(0, message(0, 3, { tag: 5 }));
  assert.deepEqual([r.sw.occupancy(3), r.sw.holding(0)], [4, 2]);
  assert.equal(tagOf((r.pull(3) as { packet: Packet }).packet), 0);
  assert.deepEqual([r.sw.occupancy(3), r.sw.holding(0), r.kinds('input-resumed').length], [4, 1, 0]);
  const second = r.run({ kind: 'pull', port: 3 });
  assert.deepEqual(second.filter((o) => o.kind === 'input-resumed'), [{ kind: 'input-resumed', port: 0 }]);
  assert.deepEqual(tags(r.drain(3)), [2, 3, 4, 5]);
  const c = r.sw.counters();
  assert.deepEqual([c.packetsIn, c.forwarded, c.pauses, c.resumes, c.holdOverruns, c.noRoute, c.portDownDrops], [6, 6, 1, 1, 0, 0, 0]);
});

test('Part 6 §6.12 rule 4 (decision: reservation at the output): a held packet of higher priority passes held lower ones; lower and equal priorities keep their order', () => {
  // 4 places, 1 reserved per priority: priority p is admitted while more than 3 − p places are free.
  const r = new Rig(baseConfig({ outputBuffer: { packets: 4, reservePerPriority: 1 } }));
  r.send(0, message(0, 3, { prio: 0, tag: 1 }));
  r.send(0, message(0, 3, { prio: 0, tag: 2 }));
  assert.equal(r.sw.holding(0), 1);
  // "shall accept an error-free packet of priority N if there is no packet of priority greater than or equal to N ... still waiting".
  r.send(0, message(0, 3, { prio: 2, tag: 3 }));
  r.send(0, message(0, 3, { prio: 0, tag: 4 }));
  assert.deepEqual([r.sw.occupancy(3), r.sw.holding(0)], [2, 2]);
  assert.deepEqual(tags(r.drain(3)), [3, 1, 2, 4]);
});

test('Part 6 §6.11 rules 4–6, §6.12 rule 4 (decision SW1): an input keeps a FIFO per priority; a held packet holds back later packets of its priority, and higher priorities pass it', () => {
  const r = new Rig();
  for (let tag = 0; tag < 5; tag++) r.send(0, message(0, 3, { tag }));
  assert.equal(r.sw.holding(0), 1);
  // Same input and priority, another output with room: it waits behind the held packet.
  r.send(0, message(0, 2, { tag: 9 }));
  assert.deepEqual([r.sw.holding(0), r.sw.occupancy(2)], [2, 0]);
  // A higher priority passes them both.
  r.send(0, message(0, 2, { tag: 8, prio: 1 }));
  assert.deepEqual([r.sw.holding(0), r.sw.occupancy(2)], [2, 1]);
  assert.deepEqual(tags(r.drain(3)), [0, 1, 2, 3, 4]);
  assert.deepEqual(tags(r.drain(2)), [8, 9]);
});

test('issue 8 §1 backpressure, issue 15 arbitration round-robin: inputs take turns at the room a pull frees', () => {
  const r = new Rig();
  for (let tag = 0; tag < 4; tag++) r.send(0, message(0, 3, { tag }));
  r.send(0, message(0, 3, { tag: 10 }));
  r.send(1, message(1, 3, { tag: 20 }));
  r.send(2, message(2, 3, { tag: 30 }));
  assert.deepEqual([0, 1, 2].map((p) => r.sw.holding(p)), [1, 1, 1]);
  // Input 0 won the four places first; its next turn comes after inputs 1 and 2.
  assert.deepEqual(tags(r.drain(3)), [0, 1, 2, 3, 20, 30, 10]);
  assert.equal(r.kinds('input-resumed').length, 3);
});

test('Part 9 §2.4.4 rule 3: flow control packets from one input to one output leave in the order received, whatever their priorities', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 16, reservePerPriority: 0 } }));
  const ccp = (prio: number, command: 'XOFF' | 'XON') => makeCcp({ tt: 1, destinationID: 3, tgtdestinationID: 0, flowID: '0A', command, soc: 1, prio, crf: 0 });
  const a = ccp(1, 'XOFF');
  const b = ccp(3, 'XON');
  r.send(0, a);
  r.send(0, message(0, 3, { prio: 2, tag: 1 }));
  r.send(0, b);
  // The data packet of priority 2 passes the priority-1 CCP; the priority-3 XON does not pass the XOFF.
  assert.deepEqual(r.drain(3).map((p) => (p.ftype === 7 ? p.command : tagOf(p))), [1, 'XOFF', 'XON']);
});

test('Part 9 §2.4.4 rule 3: a held flow control packet is not passed by a later, higher-priority one for the same output that would fit', () => {
  // 4 places, 1 reserved per priority: with 2 taken, priority 1 must wait and priority 3 would fit.
  const r = new Rig(baseConfig({ outputBuffer: { packets: 4, reservePerPriority: 1 } }));
  r.send(0, message(0, 3, { prio: 1, tag: 0 }));
  r.send(0, message(0, 3, { prio: 1, tag: 1 }));
  const ccp = (prio: number, command: 'XOFF' | 'XON') => makeCcp({ tt: 1, destinationID: 3, tgtdestinationID: 0, flowID: '0A', command, soc: 1, prio, crf: 0 });
  r.send(0, ccp(1, 'XOFF'));
  r.send(0, ccp(3, 'XON'));
  assert.deepEqual([r.sw.occupancy(3), r.sw.holding(0)], [2, 2]);
  assert.deepEqual(r.drain(3).map((p) => (p.ftype === 7 ? p.command : tagOf(p))), [0, 1, 'XOFF', 'XON']);
});

test('Part 6 §6.11 packet delivery rule 6 (decision): maintenance packets of one priority stay in order whatever their CRF; other packets serve CRF 1 first', () => {
  const r = new Rig(baseConfig({ outputBuffer: { packets: 16, reservePerPriority: 0 } }));
  const resp = (crf: number, targetTID: number) => maintenanceResponse({ tt: 1, destinationID: 3, sourceID: 0, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID, prio: 2, crf });
  r.send(0, resp(0, 1));
  r.send(0, resp(1, 2));
  r.send(0, message(0, 3, { prio: 1, crf: 0, tag: 1 }));
  r.send(0, message(0, 3, { prio: 1, crf: 1, tag: 2 }));
  assert.deepEqual(r.drain(3).map((p) => (p.ftype === 8 && 'targetTID' in p ? `tid${p.targetTID}` : tagOf(p))), ['tid1', 'tid2', 2, 1]);
});

test('issue 8 §3: a port accepts only its configured source IDs; others are dropped and counted; a port to another switch accepts any', () => {
  const r = new Rig(baseConfig({ portConfig: [{ accept: [0x10] }, { accept: 'any' }] }));
  r.send(0, message(0x10, 2, { tag: 1 }));
  r.send(0, message(0x11, 2, { tag: 2 }));
  r.send(1, message(0x11, 2, { tag: 3 }));
  assert.deepEqual(r.events('source-rejected'), [{ name: 'source-rejected', port: 0, ftype: 11, id: 0x11 }]);
  assert.deepEqual(tags(r.drain(2)), [1, 3]);
  assert.equal(r.sw.counters().sourceRejected, 1);
});

test('issue 8 §3 (decision): a Type 7 packet, which has no sourceID, is checked by its tgtdestinationID, the sender of every Type 7 an end point sends', () => {
  const r = new Rig(baseConfig({ portConfig: [{ accept: [0x10] }] }));
  const ccp = (tgt: number) => makeCcp({ tt: 1, destinationID: 2, tgtdestinationID: tgt, flowID: '0A', command: 'XOFF', soc: 1 });
  r.send(0, ccp(0x10));
  r.send(0, ccp(0x11));
  assert.deepEqual(r.events('source-rejected'), [{ name: 'source-rejected', port: 0, ftype: 7, id: 0x11 }]);
  assert.deepEqual(r.drain(2).map((p) => (p.ftype === 7 ? p.tgtdestinationID : -1)), [0x10]);
});

test('issue 8 §1 (Part 3 §3.5.7): an unroutable packet is dropped and counted with an event; the default port takes IDs without an entry and above Max_destID', () => {
  const r = new Rig();
  r.send(0, message(0, 9));
  assert.deepEqual(r.events('no-route'), [{ name: 'no-route', port: 0, ftype: 11, destinationID: 9 }]);
  assert.equal(r.sw.counters().noRoute, 1);
  const d = new Rig(baseConfig({ tt: 0, deviceId: 0x50, defaultPort: 1, routeLimit: 0x0f }));
  d.send(0, message(0, 9, { tt: 0, tag: 1 }));
  d.send(0, message(0, 2, { tt: 0, tag: 2 }));
  d.send(0, message(0, 0x1234, { tt: 1, tag: 3 }));
  assert.deepEqual([tags(d.drain(1)), tags(d.drain(2))], [[1, 3], [2]]);
});

test('issue 8 §1 (decision): a pull hands out one frame; `ready` is said once per port until a pull answers idle', () => {
  const r = new Rig();
  assert.deepEqual(r.send(0, message(0, 2)).filter((o) => o.kind === 'ready'), [{ kind: 'ready', port: 2 }]);
  assert.deepEqual(r.send(0, message(0, 2)).filter((o) => o.kind === 'ready'), []);
  assert.equal(r.pull(2)?.kind, 'packet');
  assert.equal(r.pull(2)?.kind, 'packet');
  assert.deepEqual(r.pull(2), { kind: 'idle', port: 2 });
  assert.deepEqual(r.send(0, message(0, 2)).filter((o) => o.kind === 'ready'), [{ kind: 'ready', port: 2 }]);
  const c = r.sw.counters();
  assert.deepEqual([c.pulls, c.idlePulls], [3, 1]);
});

test('issue 8 §3 (decision): a link that goes down drops what waits for it, counted; held inputs resume; packets for a down port are dropped', () => {
  const r = new Rig();
  for (let tag = 0; tag < 6; tag++) r.send(0, message(0, 3, { tag }));
  r.send(1, message(1, 3, { tag: 10 }));
  r.send(1, message(1, 2, { tag: 11 }));
  const down = r.run({ kind: 'link-down', port: 3 });
  assert.deepEqual(down.flatMap((o) => (o.kind === 'event' ? [o.event] : [])), [{ name: 'port-down', port: 3, packets: 7 }]);
  assert.deepEqual(down.flatMap((o) => (o.kind === 'input-resumed' ? [o.port] : [])).sort(), [0, 1]);
  r.send(0, message(0, 3));
  assert.deepEqual(r.events('port-down').at(-1), { name: 'port-down', port: 3, packets: 1 });
  assert.deepEqual(r.pull(3), { kind: 'idle', port: 3 });
  assert.deepEqual(tags(r.drain(2)), [11]);
  assert.equal(r.sw.counters().portDownDrops, 8);
  assert.deepEqual([r.sw.occupancy(3), r.sw.holding(0), r.sw.holding(1)], [0, 0, 0]);
});

test('issue 8 §1 (decision): a link that comes back while its input holds packets is paused at once; ports start down', () => {
  const r = new Rig();
  for (let tag = 0; tag < 5; tag++) r.send(0, message(0, 3, { tag }));
  r.run({ kind: 'link-down', port: 0 });
  assert.equal(r.sw.holding(0), 1);
  assert.deepEqual(r.run({ kind: 'link-up', port: 0 }).filter((o) => o.kind === 'input-paused'), [{ kind: 'input-paused', port: 0 }]);
  const fresh = new Rig(baseConfig(), false);
  fresh.send(0, message(0, 3));
  assert.deepEqual([fresh.events('port-down').length, fresh.sw.counters().portDownDrops], [1, 1]);
});

test('issue 8 §3 (decision): a driver that keeps reading after input-paused overruns the hold: the packet is dropped and counted', () => {
  const r = new Rig(baseConfig({ inputBuffer: { packets: 1 } }));
  for (let tag = 0; tag < 5; tag++) r.send(0, message(0, 3, { tag }));
  r.send(0, message(0, 3, { tag: 5 }));
  assert.deepEqual(r.events('hold-overrun'), [{ name: 'hold-overrun', port: 0, ftype: 11, destinationID: 3 }]);
  assert.equal(r.sw.counters().holdOverruns, 1);
  assert.deepEqual(tags(r.drain(3)), [0, 1, 2, 3, 4]);
});

test('Part 6 §6.12 rule 4 at the input buffer: with 1 of 4 places kept per priority, a priority-0 packet finds no place once one is held, a priority-3 packet still does', () => {
  const r = new Rig(baseConfig({ inputBuffer: { packets: 4, reservePerPriority: 1 } }));
  for (let tag = 0; tag < 5; tag++) r.send(0, message(0, 3, { tag }));
  assert.equal(r.sw.holding(0), 1);
  // 3 places free: priority 0 needs more than 3 × 1.
  r.send(0, message(0, 3, { tag: 5 }));
  assert.equal(r.sw.counters().holdOverruns, 1);
  r.send(0, message(0, 3, { tag: 6, prio: 3 }));
  assert.deepEqual([r.sw.counters().holdOverruns, r.sw.holding(0)], [1, 2]);
  // The first pull frees a place: the priority-3 packet takes it first, and leaves first.
  assert.deepEqual(tags(r.drain(3)), [0, 6, 1, 2, 3, 4]);
});

test('engine contract: bad input is normal input: malformed inputs are reported as invalid-input events and counted, never thrown', () => {
  const r = new Rig();
  const bad: unknown[] = [
    null,
    { kind: 'bogus' },
    { kind: 'pull', port: 9 },
    { kind: 'packet', port: 0, packet: { ftype: 11 }, octets: 24 },
    { kind: 'packet', port: 0, packet: message(0, 2), octets: 0 },
    { kind: 'packet', port: 0, packet: { ...message(0, 2), prio: 4 }, octets: 24 },
    { kind: 'timer', name: 'nope' },
  ];
  for (const input of bad) r.run(input as Parameters<typeof r.run>[0]);
  assert.equal(r.events('invalid-input').length, bad.length);
  assert.equal(r.sw.counters().invalidInputs, bad.length);
  assert.equal(r.sw.counters().packetsIn, 0);
  // A symbol from downstream is counted (VoQ §4.1 c: generation without honouring is allowed).
  r.run({ kind: 'symbol', port: 1, symbol: {} });
  assert.equal(r.sw.counters().symbolsReceived, 1);
});

test('engine contract: snapshot() is a JSON-serialisable picture of the ports, routes and counters', () => {
  const r = new Rig(baseConfig({ portConfig: [{ accept: [7, 5] }] }));
  for (let tag = 0; tag < 5; tag++) r.send(1, message(1, 3, { tag }));
  const s = JSON.parse(JSON.stringify(r.sw.snapshot())) as { ports: { accept: unknown; input: { waiting: number }; paused: boolean; output: { queued: number } }[]; routes: { entries: Record<string, number> } };
  assert.deepEqual(s.ports[0]?.accept, [5, 7]);
  assert.deepEqual([s.ports[1]?.input.waiting, s.ports[1]?.paused, s.ports[3]?.output.queued], [1, true, 4]);
  assert.deepEqual(s.routes.entries, { 0: 0, 1: 1, 2: 2, 3: 3 });
});
