import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rig, SWITCH_ID, baseConfig, message, tagOf } from '../../../test/support/switch-element.ts';
import { COMPONENT_TAG_OFFSET } from '../../registers/component-tag.ts';
import type { Packet } from '../../wire/packet.ts';
import { maintenanceReadRequest, maintenanceResponse, maintenanceWriteRequest } from '../../wire/type8-build.ts';
import { resolveSwitchConfig } from './config.ts';
import { SwitchElement } from './element.ts';
import { MaintenanceBudget } from './maintenance-budget.ts';

/**
 * The per-port maintenance budget (issue 16 item 3, decision SW9, maintenance-budget.ts): the
 * read and write requests Part 3 §2.5 makes "for that switch" that a port may have performed, a
 * burst and then one per interval; beyond it a request is dropped, counted and reported, and gets
 * no response.
 */

const read = (src: number, tid: number, hopCount = 0, dst = 3) => maintenanceReadRequest({ tt: 1, destinationID: dst, sourceID: src, hopCount, srcTID: tid, byteOffset: 0, byteCount: 4 });
const write = (src: number, v: number) => maintenanceWriteRequest({ tt: 1, destinationID: 3, sourceID: src, hopCount: 0, srcTID: 0x40, byteOffset: COMPONENT_TAG_OFFSET, data: Uint8Array.of(0, 0, 0, v) });
/** The targetTIDs of the maintenance responses among `ps` (the requests answered). */
const answered = (ps: readonly Packet[]): number[] => ps.flatMap((p) => (p.ftype === 8 && p.transactionName === 'MAINTENANCE_READ_RESPONSE' ? [p.targetTID] : []));

test('issue 16 item 3, Part 3 §2.5 (decision SW9): a port\'s requests for the switch beyond its maintenance budget (a burst, then one per interval) are dropped, counted and reported, and get no response', () => {
  const r = new Rig(baseConfig({ maintenanceBudget: { burst: 3, interval: 100 } }));
  r.now = 1_000;
  for (let tid = 0; tid < 5; tid++) r.send(1, read(1, tid));
  assert.deepEqual(answered(r.drain(1)), [0, 1, 2]);
  assert.equal(r.sw.counters().maintenanceDropped, 2);
  assert.equal(r.sw.counters().maintenanceReads, 3);
  assert.deepEqual(r.events('maintenance-dropped'), [3, 4].map(() => ({ name: 'maintenance-dropped', port: 1, sourceID: 1, transaction: 'MAINTENANCE_READ_REQUEST' })));
  // One interval later one more request conforms; the next, at the same time, does not.
  r.now = 1_100;
  r.send(1, read(1, 5));
  r.send(1, read(1, 6));
  assert.deepEqual(answered(r.drain(1)), [5]);
  // After burst × interval of silence the whole burst is back, and no more.
  r.now = 1_500;
  for (let tid = 7; tid < 11; tid++) r.send(1, read(1, tid));
  assert.deepEqual(answered(r.drain(1)), [7, 8, 9]);
  assert.equal(r.sw.counters().maintenanceDropped, 4);
  assert.deepEqual(r.sw.snapshot()['maintenanceBudget'], { burst: 3, interval: 100, dropped: [0, 4, 0, 0] });
});

test('issue 16 item 3 (decision SW9): a write beyond the budget is not performed: the register keeps its value', () => {
  const r = new Rig(baseConfig({ maintenanceBudget: { burst: 1, interval: 1_000 } }));
  r.send(0, write(0, 0x11));
  r.send(0, write(0, 0x22));
  assert.equal(r.sw.registers.readWord(COMPONENT_TAG_OFFSET), 0x11);
  assert.equal(r.drain(0).length, 1);
  assert.deepEqual([r.sw.counters().maintenanceWrites, r.sw.counters().maintenanceDropped], [1, 1]);
});

test('issue 16 item 3 (decision SW9): each port has a budget of its own: a port over its budget takes nothing from another\'s', () => {
  const r = new Rig(baseConfig({ maintenanceBudget: { burst: 2, interval: 1_000 } }));
  for (let tid = 0; tid < 4; tid++) r.send(1, read(1, tid));
  r.send(2, read(2, 10));
  r.send(2, read(2, 11));
  assert.deepEqual([answered(r.drain(1)), answered(r.drain(2))], [[0, 1], [10, 11]]);
  assert.deepEqual(r.sw.snapshot()['maintenanceBudget'], { burst: 2, interval: 1_000, dropped: [0, 2, 0, 0] });
});

test('issue 16 item 3 (decision SW9): only requests the switch performs count: forwarded requests, responses, other packets and refused sources do not', () => {
  const r = new Rig(baseConfig({ maintenanceBudget: { burst: 1, interval: 1_000_000 }, portConfig: [{}, { accept: [1] }] }));
  // Part 3 §2.5: hop_count > 0 and not the switch's ID: forwarded with hop_count decremented.
  for (let tid = 0; tid < 3; tid++) r.send(1, read(1, tid, 2));
  r.send(1, maintenanceResponse({ tt: 1, destinationID: 3, sourceID: 1, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID: 1, hopCount: 0xff }));
  r.send(1, message(1, 3, { tag: 7 }));
  // issue 8 §3: refused before anything else, so a spoofed flood cannot use up the port's budget either.
  r.send(1, read(2, 20));
  assert.equal(r.sw.counters().sourceRejected, 1);
  const beyond = r.drain(3);
  assert.deepEqual([beyond.length, beyond.filter((p) => p.ftype === 11).map(tagOf)], [5, [7]]);
  // The budget is whole: the first request for the switch is performed, addressed by its device ID too.
  r.send(1, read(1, 30, 0xff, SWITCH_ID));
  r.send(1, read(1, 31));
  assert.deepEqual(answered(r.drain(1)), [30]);
  assert.equal(r.sw.counters().maintenanceDropped, 1);
});

test('issue 16 item 3 (decision SW9): without maintenanceBudget (the element\'s default, the simulator\'s) there is no limit', () => {
  const r = new Rig();
  for (let tid = 0; tid < 40; tid++) {
    r.send(1, read(1, tid));
    r.drain(1);
  }
  assert.deepEqual([r.sw.counters().maintenanceReads, r.sw.counters().maintenanceDropped], [40, 0]);
  assert.equal(r.sw.snapshot()['maintenanceBudget'], null);
  assert.equal(resolveSwitchConfig(baseConfig()).maintenanceBudget, null);
});

test('engine contract (decision SW9): maintenanceBudget is checked; a bad field is refused with a RangeError naming it', () => {
  const refuses = (b: unknown, message: RegExp): void => {
    assert.throws(() => new SwitchElement({ ...baseConfig(), maintenanceBudget: b as never }), (e: unknown) => e instanceof RangeError && message.test(e.message));
  };
  refuses({ burst: 0, interval: 1 }, /^maintenanceBudget\.burst must be a positive integer$/);
  refuses({ burst: 1, interval: 0.5 }, /^maintenanceBudget\.interval must be a positive integer$/);
  refuses(5, /^maintenanceBudget must be an object \{burst, interval\} or null$/);
});

test('issue 16 item 3 (decision SW9): the budget is the generic cell rate algorithm on integer time: the same requests at the same times give the same decisions', () => {
  const times = [0, 0, 0, 5, 9, 10, 10, 31, 32, 33, 33, 33, 80];
  const run = (): boolean[] => {
    const b = new MaintenanceBudget(2, { burst: 2, interval: 10 });
    return times.map((t) => b.admit(1, t));
  };
  // Two at once, then one per 10: the third at 0 and the ones at 5 and 9 come too early.
  assert.deepEqual(run(), [true, true, false, false, false, true, false, true, true, false, false, false, true]);
  assert.deepEqual(run(), run());
});
