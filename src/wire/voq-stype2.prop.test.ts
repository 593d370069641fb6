import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { WireError } from './errors.ts';
import { decodeStype2, encodeStype2, groupOfPort, voqLayout, voqSymbol } from './voq-stype2.ts';
import type { VoqFormat } from './voq-stype2.ts';

/** The seed format, or Part 12 with a group size of 0–6 bits. */
interface Layout {
  readonly format: VoqFormat;
  readonly groupSize: number;
}
const layouts = fc.oneof(
  fc.constant<Layout>({ format: 'seed', groupSize: 0 }),
  fc.integer({ min: 0, max: 6 }).map((g): Layout => ({ format: 'part12-rev4.1', groupSize: g })),
);

/** A layout, then a group and a set of offsets valid for it. */
const message = layouts.chain(({ format, groupSize }) => {
  const l = voqLayout(format, groupSize);
  return fc.record({
    format: fc.constant(format),
    groupSize: fc.constant(groupSize),
    group: fc.integer({ min: 0, max: l.groups - 1 }),
    offsets: fc.uniqueArray(fc.integer({ min: 0, max: l.portsPerGroup - 1 }), { maxLength: l.portsPerGroup }),
  });
});

test('VoQ Backpressure §3.1 / Part 12 §3.1: voqSymbol → decodeStype2 → encodeStype2 round-trips and names the congested ports', () => {
  fc.assert(
    fc.property(message, ({ format, groupSize, group, offsets }) => {
      const stype2 = voqSymbol({ group, congestedOffsets: offsets, format, groupSize });
      assert.ok(stype2 >= 0 && stype2 < 1 << 14);
      const v = decodeStype2(stype2, { voqFormat: format, part12GroupSize: groupSize, strict: true });
      assert.equal(v.cmdName, 'VOQ_BACKPRESSURE');
      assert.equal(v.portGroup, group);
      const per = voqLayout(format, groupSize).portsPerGroup;
      assert.deepEqual(v.congestedPorts, offsets.map((o) => group * per + o).sort((a, b) => a - b));
      for (const p of v.congestedPorts) assert.deepEqual(groupOfPort(p, format, groupSize).group, group);
      assert.equal(encodeStype2(v), stype2);
    }),
    fcParams(),
  );
});

test('VoQ Backpressure §3.1 / Part 12 §3.1: every 14-bit stype2 decodes leniently and re-encodes bit for bit; strict throws only WireError', () => {
  fc.assert(
    fc.property(layouts, fc.integer({ min: 0, max: (1 << 14) - 1 }), ({ format, groupSize }, stype2) => {
      const opts = { voqFormat: format, part12GroupSize: groupSize };
      const v = decodeStype2(stype2, opts);
      assert.equal(encodeStype2(v), stype2);
      try {
        assert.deepEqual(decodeStype2(stype2, { ...opts, strict: true }), v);
      } catch (e) {
        assert.ok(e instanceof WireError, String(e));
        assert.notEqual(v.cmdName, 'VOQ_BACKPRESSURE');
      }
    }),
    fcParams(),
  );
});
