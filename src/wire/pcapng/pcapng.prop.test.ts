import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fcParams, FC_RUNS } from '../../../test/support/fc.ts';
import { frameArb } from '../../../test/support/frames.ts';
import { decodePcapng } from './decode.ts';
import { encodeEnhancedPacket, encodeInterfaceDescription, encodeSectionHeader, enhancedPacketLength, interfaceDescriptionLength, sectionHeaderLength } from './encode.ts';
import { LINKTYPE_USER0 } from './format.ts';
import type { PcapngDirection, PcapngPacket } from './format.ts';
import { captureRecordLength, encodeCaptureRecord } from './record.ts';

const direction = fc.constantFrom<PcapngDirection | undefined>(undefined, 'inbound', 'outbound');
const captured = fc.record({
  frame: frameArb,
  iface: fc.integer({ min: 0, max: 3 }),
  timestamp: fc.bigInt({ min: 0n, max: 0xffff_ffff_ffff_ffffn }),
  comments: fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 2 }),
  direction,
});

test('pcapng §4.3 and riodp capture §2: any sequence of link frames written as records reads back byte for byte, with times, comments and directions', () => {
  fc.assert(
    fc.property(fc.array(captured, { maxLength: 12 }), (items) => {
      const ifaces = [0, 1, 2, 3].map((i) => ({ name: `sw0.p${i >> 1}.${i % 2 === 0 ? 'tx' : 'rx'}`, linkType: LINKTYPE_USER0 }));
      const packets: PcapngPacket[] = items.map((it) => {
        const data = new Uint8Array(captureRecordLength(it.frame));
        encodeCaptureRecord(it.frame, data, 0);
        return { interfaceId: it.iface, timestamp: it.timestamp, data, comments: it.comments, ...(it.direction === undefined ? {} : { direction: it.direction }) };
      });
      const size = sectionHeaderLength() + ifaces.reduce((n, i) => n + interfaceDescriptionLength(i), 0) + packets.reduce((n, p) => n + enhancedPacketLength(p), 0);
      const bytes = new Uint8Array(size);
      let at = encodeSectionHeader({}, bytes, 0);
      for (const i of ifaces) at = encodeInterfaceDescription(i, bytes, at);
      for (const p of packets) at = encodeEnhancedPacket(p, bytes, at);
      assert.equal(at, size);
      const got = decodePcapng(bytes);
      assert.deepEqual(got.interfaces.map((i) => i.name), ifaces.map((i) => i.name));
      assert.equal(got.packets.length, packets.length);
      got.packets.forEach((p, k) => {
        const want = packets[k];
        assert.ok(want);
        assert.deepEqual([...p.data], [...want.data]);
        assert.equal(p.timestampNs, want.timestamp);
        assert.equal(p.interfaceId, want.interfaceId);
        assert.deepEqual(p.comments, want.comments);
        assert.equal(p.direction, want.direction);
      });
    }),
    fcParams(Math.max(1, Math.floor(FC_RUNS / 50))),
  );
});
