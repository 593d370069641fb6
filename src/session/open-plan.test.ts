import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attrConduitStream, attrConveyanceMailbox, attrMacAddress, attrMtu, attrOpenMessageNumber, attrPeriod, smpAttribute,
} from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { smpOpen } from '../wire/smp/open-accept-refuse.ts';
import { judgeOpen } from './negotiate.ts';
import { planOpenAttempts } from './open-plan.ts';

const ETH = 0x0102;
const MAC = Uint8Array.of(0x00, 0xa0, 0x1e, 1, 2, 3);
const D = { retryPeriod: 250, timeoutPeriod: 1000, xonTimeout: 1000, unitsPerMicrosecond: 0.001 };

/** Each attempt as "ID=value" strings, value as a big-endian hex number. */
const show = (attempts: readonly (readonly AttributeLike[])[]): string[][] =>
  attempts.map((l) => l.map((a) => `${a.id.toString(16)}=${Buffer.from(a.value).toString('hex').replace(/^0+(?=.)/, '')}`));

test('Annex 2 §3.8.2: without ranges there is one attempt, one copy per attribute, in the ADVERTISE\'s order', () => {
  const plan = planOpenAttempts([attrMtu(1500), attrConveyanceMailbox(2), attrMacAddress(MAC)], ETH);
  assert.deepEqual(show(plan), [['8002=5dc', '8001=100000002', '8003=a01e010203']]);
});

test('Annex 2 §4.2.3, §3.4.3: OPEN_MESSAGE_NUMBER and CONDUIT_STREAM are left to the engine', () => {
  const plan = planOpenAttempts([attrOpenMessageNumber(4), attrMtu(1500), attrConduitStream(1, 2)], ETH);
  assert.deepEqual(plan.map((l) => l.map((a) => a.id)), [[0x8002]]);
});

test('Annex 2 §3.8.2: "may attempt to OPEN a Virtual Stream with an intermediate value", then "restrict itself to the values specified"', () => {
  const plan = planOpenAttempts([attrMtu(1500), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)], ETH);
  const [first, second, third] = plan;
  assert.ok(first && second && third === undefined, 'two attempts');
  assert.deepEqual(first.map((a) => a.id), [0x8002, 0x8001, 0x8003]);
  assert.equal(Buffer.from(first[0]?.value ?? []).readUIntBE(0, 6), 5250, 'the midpoint, rounded down');
  assert.equal(Buffer.from(second[0]?.value ?? []).readUIntBE(0, 6), 1500, 'an advertised value: the nearest, the first on a tie');
});

test('Annex 2 §3.8.2: "A single attempt at intermediate values may be attempted" — every ranged attribute takes its intermediate value in attempt 0 only', () => {
  const plan = planOpenAttempts(
    [attrMtu(1500), attrMtu(9000), attrPeriod('REQUEST_RETRY_PERIOD', 1000), attrPeriod('REQUEST_RETRY_PERIOD', 3001)],
    ETH,
  );
  assert.deepEqual(show(plan), [
    ['8002=1482', 'f0000000=7d0'], // 5250 and 2000 (midpoints, rounded down)
    ['8002=5dc', 'f0000000=3e8'], // 1500 (tie: the first) and 1000 (1000 away against 1001)
  ]);
});

test('Annex 2 §3.8.2: `prefer` chooses the intermediate value, clamped into the range; the nearest advertised value follows it', () => {
  const adv = [attrMtu(1500), attrMtu(9000)];
  const plan = planOpenAttempts(adv, ETH, (_id, _min, max) => max - 1n);
  assert.equal(Buffer.from(plan[0]?.[0]?.value ?? []).readUIntBE(0, 6), 8999);
  assert.equal(Buffer.from(plan[1]?.[0]?.value ?? []).readUIntBE(0, 6), 9000);
  const clamped = planOpenAttempts(adv, ETH, () => 100_000n);
  assert.equal(clamped.length, 1, 'an end of the range is no intermediate value');
  assert.equal(Buffer.from(clamped[0]?.[0]?.value ?? []).readUIntBE(0, 6), 9000);
});

test('Annex 2 §3.8.2: a range with no value between its ends gives a single attempt', () => {
  const plan = planOpenAttempts([attrMtu(1500), attrMtu(1501)], ETH);
  assert.deepEqual(show(plan), [['8002=5dc']]);
});

test('Annex 2 §3.8.2 (decision): alternatives (three copies, or two copies of a channel) are not ranges — the first copy is used', () => {
  assert.deepEqual(show(planOpenAttempts([attrMtu(1500), attrMtu(4000), attrMtu(9000)], ETH)), [['8002=5dc']]);
  assert.deepEqual(show(planOpenAttempts([attrConveyanceMailbox(6), attrConveyanceMailbox(2)], ETH)), [['8001=100000006']]);
});

test('Annex 2 §3.5.3 Table 3-2: malformed advertised attributes are left out rather than thrown', () => {
  const plan = planOpenAttempts([{ id: 0x8002, value: new Uint8Array(3) }, { id: 0x100, value: new Uint8Array(6) }, attrMacAddress(MAC)], ETH);
  assert.deepEqual(plan.map((l) => l.map((a) => a.id)), [[0x8003]]);
});

test('Annex 2 §3.8.2: each planned attempt is accepted by the receiver that advertised the list', () => {
  const adv = [attrMtu(1500), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC), smpAttribute(0x78, new Uint8Array(7))];
  const support = { protoID: ETH, attributes: adv.slice(0, 4) };
  for (const attempt of planOpenAttempts(adv.slice(0, 4), ETH)) {
    const v = judgeOpen(smpOpen({ sourceID: 1, protoID: ETH, openMessageNumber: 1, attributes: attempt }), support, D);
    assert.equal(v.ok, true, v.ok ? '' : v.detail);
  }
});
