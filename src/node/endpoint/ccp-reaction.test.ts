import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import type { FlowChangeCause } from '../../flow/ccp-endpoint-types.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { CcpReaction } from './ccp-reaction.ts';

function ccp(over: Partial<Type7Packet> = {}): Type7Packet {
  return {
    ftype: 7, tt: 0, prio: 3, crf: 1, vc: 0, ackID: 0, destinationID: 1, tgtdestinationID: 5, xonXoff: 0, fam: 0, flowIDCode: 0, ...over,
  } as unknown as Type7Packet;
}

function reaction(): { r: CcpReaction; changes: string[]; timers: (number | null)[]; events: string[] } {
  const changes: string[] = [];
  const timers: (number | null)[] = [];
  const events: string[] = [];
  const r = new CcpReaction(new CcpEndpoint({ orphanPeriod: 1000 }), 1, {
    flowChanged: (d, f, enabled, cause: FlowChangeCause) => { changes.push(`${d}/${f}:${enabled ? 'on' : 'off'}:${cause}`); },
    orphanTimer: (at) => { timers.push(at); },
    event: (e) => { events.push(e.name); },
  });
  return { r, changes, timers, events };
}

test('Part 9 §2.4.5 rule 1: an XOFF stops the flow and lower ones to its tgtdestinationID; the orphan timer is armed (A.2)', () => {
  const { r, changes, timers } = reaction();
  assert.equal(r.flowOpen(5, '0A'), true);
  assert.equal(r.receive(ccp(), 10), undefined);
  assert.equal(r.flowOpen(5, '0A'), false);
  assert.equal(r.flowOpen(6, '0A'), true);
  assert.ok(changes.includes('5/0A:off:xoff'));
  assert.deepEqual(timers, [1010]);
  r.orphanTimer(1010);
  assert.equal(r.flowOpen(5, '0A'), true);
  assert.ok(changes.includes('5/0A:on:orphan'));
});

test('Part 9 §3.2: a Type 7 for another end point or without its fields is refused with the reason, the engine untouched', () => {
  const { r, changes } = reaction();
  assert.match(r.receive(ccp({ destinationID: 2 }), 0) ?? '', /destinationID 2, not this end point/);
  assert.match(r.receive(ccp({ flowIDCode: 200 }), 0) ?? '', /flowIDCode is not an integer/);
  assert.match(r.receive(undefined as unknown as Type7Packet, 0) ?? '', /not a Type 7/);
  assert.match(r.receive({ ftype: 9 } as unknown as Type7Packet, 0) ?? '', /not a Type 7/);
  assert.deepEqual(changes, []);
  assert.equal(r.engine.counters().xoff, 0);
});

test('Part 9 §2.4.2.3: a link change resets the counters of every destination a CCP named, in destination order', () => {
  const { r, changes } = reaction();
  r.receive(ccp({ tgtdestinationID: 9 }), 0);
  r.receive(ccp({ tgtdestinationID: 4 }), 0);
  changes.length = 0;
  r.linkChange(5);
  assert.equal(r.flowOpen(9, '0A'), true);
  assert.equal(r.flowOpen(4, '0A'), true);
  assert.deepEqual(changes.map((c) => c.split('/')[0]), [...new Set(changes.map((c) => c.split('/')[0]))].sort((a, b) => Number(a) - Number(b)));
  assert.ok(changes.every((c) => c.endsWith(':on:reset')));
  assert.ok(changes.length >= 2);
});
