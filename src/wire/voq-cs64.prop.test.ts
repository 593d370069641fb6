import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decodeVoqCs64, encodeVoqCs64, groupOfPortCs64, vcIndOfVc, vcOfVcInd, voqCs64Layout, voqCs64Parameters } from './voq-cs64.ts';

const vc = fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant('all' as const));
/** A group size, then a group and a set of offsets valid for it. */
const message = fc.integer({ min: 0, max: 6 }).chain((groupSize) => {
  const l = voqCs64Layout(groupSize);
  return fc.record({
    groupSize: fc.constant(groupSize),
    group: fc.integer({ min: 0, max: l.groups - 1 }),
    offsets: fc.uniqueArray(fc.integer({ min: 0, max: l.portsPerGroup - 1 }), { maxLength: l.portsPerGroup }),
    vc,
  });
});

test('Part 12 §3.2: voqCs64Parameters → decodeVoqCs64 → encodeVoqCs64 round-trips, names the VC and the congested ports', () => {
  fc.assert(
    fc.property(message, ({ groupSize, group, offsets, vc: v }) => {
      const p = voqCs64Parameters({ group, congestedOffsets: offsets, vc: v, groupSize });
      assert.ok(p.parameter0 >= 0 && p.parameter0 < 4096 && p.parameter1 >= 0 && p.parameter1 < 4096);
      const m = decodeVoqCs64(p.parameter0, p.parameter1, { part12GroupSize: groupSize });
      assert.equal(vcOfVcInd(m.vcInd), v);
      assert.equal(m.portGroup, group);
      const per = 20 - groupSize;
      assert.deepEqual(m.congestedPorts, offsets.map((o) => group * per + o).sort((a, b) => a - b));
      for (const port of m.congestedPorts) assert.equal(groupOfPortCs64(port, groupSize).group, group);
      assert.deepEqual(encodeVoqCs64(m), p);
      assert.equal(vcIndOfVc(v), m.vcInd);
    }),
    fcParams(),
  );
});

test('Part 12 §3.2: every parameter0/parameter1 pair decodes, never throws ("ignore … without error"), and re-encodes bit for bit', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 0xfff }), fc.integer({ min: 0, max: 0xfff }), (g, p0, p1) => {
      const m = decodeVoqCs64(p0, p1, { part12GroupSize: g });
      assert.deepEqual(encodeVoqCs64(m), { parameter0: p0, parameter1: p1 });
      assert.equal(m.vcIndName === 'RESERVED', vcOfVcInd(m.vcInd) === undefined);
    }),
    fcParams(),
  );
});
