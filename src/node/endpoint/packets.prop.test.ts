import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { segmentPdu } from '../../streaming/segment-pdu.ts';
import { serialLength } from '../../wire/serial.ts';
import { type9Length } from '../../wire/type9.ts';
import { pduBytes, sarPackets } from './packets.ts';

test('Part 10 §3.2.5 rules 4–8, §4.2 Figures 4-1–4-4, Part 6 §2.4–§2.5: the priced segments of a PDU are the octets of the segments the engine cuts', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 0x10000 }),
      fc.integer({ min: 8, max: 64 }).map((m) => m * 4),
      fc.constantFrom(0, 1, 2),
      (bytes, mtu, tt) => {
        const segments = segmentPdu({ payload: new Uint8Array(bytes), mtu, tt, destinationID: 1, sourceID: 2, cos: 0, streamID: 0, flowID: '0A' });
        const octets = segments.map((s) => serialLength(type9Length(s)));
        const p = sarPackets(bytes, mtu, tt);
        assert.equal(p.count, segments.length);
        assert.equal(p.first, octets[0]);
        assert.equal(p.last, octets[octets.length - 1]);
        for (const o of octets.slice(1, -1)) assert.equal(o, p.middle);
        assert.equal(pduBytes(p), octets.reduce((a, b) => a + b, 0));
      },
    ),
    fcParams(3000),
  );
});
