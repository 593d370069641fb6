import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reassembler } from './reassembler.ts';
import type { ReassemblerOutput } from './reassembler-types.ts';
import { segmentPdu } from './segment-pdu.ts';

/**
 * Segmentation and reassembly together (Part 10 §3.2.5): "every MTU from 32 to 256 with PDU sizes
 * 1, MTU-1, MTU, MTU+1, 3*MTU-1, 65535, 65536" — what the segmenter cuts, the reassembler puts
 * back byte for byte, and the end segment's length field (0 for 65536) checks out (rule 7).
 */
const SIZES = (mtu: number): number[] => [1, mtu - 1, mtu, mtu + 1, 3 * mtu - 1, 65535, 65536];

function pattern(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + seed * 17 + (i >> 8)) & 0xff;
  return b;
}

test('Part 10 §3.2.5 segmentation rules 2–8 and reassembly rules 1–7: every MTU 32..256 round-trips PDUs of 1, MTU−1, MTU, MTU+1, 3·MTU−1, 65535 and 65536 bytes', () => {
  let cases = 0;
  for (let mtu = 32; mtu <= 256; mtu += 4) {
    const rx = new Reassembler({ mtu });
    for (const size of SIZES(mtu)) {
      const payload = pattern(size, mtu);
      const packets = segmentPdu({ payload, mtu, destinationID: 5, sourceID: 1, cos: 3, streamID: 0x12, flowID: '0C' });
      assert.equal(packets.length, Math.max(1, Math.ceil(size / mtu)), `MTU ${mtu} size ${size}: segment count`);
      const out: ReassemblerOutput[] = [];
      for (const packet of packets) out.push(...rx.handle({ kind: 'packet', packet }, 0));
      assert.equal(out.length, 1, `MTU ${mtu} size ${size}: one output`);
      const pdu = out[0];
      assert.ok(pdu?.kind === 'pdu', `MTU ${mtu} size ${size}: delivered, not ${JSON.stringify(pdu)}`);
      assert.equal(pdu.segments, packets.length);
      assert.deepEqual(pdu.vsid, { sourceID: 1, destinationID: 5, cos: 3, streamID: 0x12 });
      assert.equal(pdu.flowID, '0C');
      assert.ok(Buffer.from(pdu.payload).equals(Buffer.from(payload)), `MTU ${mtu} size ${size}: bytes`);
      cases++;
    }
    assert.deepEqual(rx.openContexts(), [], `MTU ${mtu}: no context left open`);
  }
  assert.equal(cases, 57 * 7);
});
