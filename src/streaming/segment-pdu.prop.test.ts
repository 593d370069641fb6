import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import { decodeSerialPacket, encodeSerialPacket, serialPacketLength } from '../wire/packet.ts';
import type { Type9DataPacket } from '../wire/type9.ts';
import { flowBits, segmentPdu } from './segment-pdu.ts';

/** A multiple of 4 from 32 to 256 (§5.5.1 Table 5-6). */
const mtuArb = fc.integer({ min: 8, max: 64 }).map((u) => u * 4);

/** PDU sizes 1..65536, biased to the boundaries: around multiples of the MTU, tiny, and the top. */
function sizeArb(mtu: number): fc.Arbitrary<number> {
  const nearMultiple = fc.tuple(fc.integer({ min: 1, max: Math.floor(65536 / mtu) }), fc.integer({ min: -2, max: 2 }))
    .map(([k, d]) => Math.min(65536, Math.max(1, k * mtu + d)));
  return fc.oneof(
    nearMultiple,
    fc.integer({ min: 1, max: 8 }),
    fc.integer({ min: 65530, max: 65536 }),
    fc.integer({ min: 1, max: 4 * mtu }),
    fc.integer({ min: 1, max: 65536 }),
  );
}

const caseArb = mtuArb.chain((mtu) => fc.record({
  mtu: fc.constant(mtu),
  n: sizeArb(mtu),
  tt: fc.integer({ min: 0, max: 2 }),
  id: fc.integer({ min: 0, max: 0xffffffff }),
  cos: fc.integer({ min: 0, max: 255 }),
  streamID: fc.integer({ min: 0, max: 0xffff }),
  flowID: fc.constantFrom(...FLOW_ID_LABELS),
  crfSupported: fc.boolean(),
  fill: fc.integer({ min: 0, max: 255 }),
}));

type Case = { mtu: number; n: number; tt: number; id: number; cos: number; streamID: number; flowID: (typeof FLOW_ID_LABELS)[number]; crfSupported: boolean; fill: number };

const BIG = new Uint8Array(65536);

function run(c: Case): { payload: Uint8Array; segs: Type9DataPacket[]; dest: number; src: number } {
  const mask = c.tt === 0 ? 0xff : c.tt === 1 ? 0xffff : 0xffffffff;
  const dest = (c.id & mask) >>> 0;
  const src = ((c.id >>> 3) & mask) >>> 0;
  const payload = BIG.subarray(0, c.n);
  for (let i = 0; i < c.n; i += 97) payload[i] = (c.fill + i) & 0xff;
  const segs = segmentPdu({ payload, mtu: c.mtu, tt: c.tt, destinationID: dest, sourceID: src, cos: c.cos, streamID: c.streamID, flowID: c.flowID, crfSupported: c.crfSupported });
  return { payload, segs, dest, src };
}

/** The first rule segment i of a PDU breaks, or null (checked without deepEqual: it runs per segment). */
function broken(c: Case, p: Type9DataPacket, i: number, count: number, offset: number, h: readonly number[], payload: Uint8Array): string | null {
  const first = i === 0;
  const last = i === count - 1;
  // §3.2.4: "all segments of a PDU must also have that same flowID and cos assignments".
  const fields = [p.tt, p.destinationID, p.sourceID, p.cos, p.vc, p.prio, p.crf, p.xh, p.rsrv];
  if (fields.some((v, j) => v !== h[j])) return `header ${fields.join()} is not ${h.join()}`;
  // Rules 3/5: the first is start, or single when the PDU fits; rules 6/7: continuations; rule 8: the end.
  const kind = first && last ? 'single' : first ? 'start' : last ? 'end' : 'continuation';
  if (p.segment !== kind || p.start !== (first ? 1 : 0) || p.end !== (last ? 1 : 0)) return `segment ${i} is ${p.segment}, not ${kind}`;
  // Rules 4/7: start and continuation segments are exactly the MTU; rule 8: the end ≤ MTU.
  const k = p.payload.length;
  if (last ? k < 1 || k > c.mtu : k !== c.mtu) return `segment ${i} has ${k} bytes`;
  // Table 4-2 for single/end; O and P "rsv" (0) in start/continuation (Figures 4-2/4-3).
  const o = last ? ((k + 1) >> 1) & 1 : 0;
  const pad = last ? k & 1 : 0;
  if (p.odd !== o || p.pad !== pad) return `O/P ${p.odd}/${p.pad} for ${k} bytes`;
  if ((p.segment === 'start' || p.segment === 'single') && p.streamID !== c.streamID) return 'streamID';
  if (p.segment === 'end' && (p.length !== (c.n & 0xffff) || p.pduLength !== c.n)) return `length ${p.length}`;
  // Rule 2: "filled with bytes from the PDU in order": each payload is the next view of the PDU.
  if (p.payload.buffer !== payload.buffer || p.payload.byteOffset !== payload.byteOffset + offset) return `segment ${i} is not the PDU at ${offset}`;
  return null;
}

test('Part 10 §3.2.5 segmentation rules 2–8, §3.2.4, §4.2 Table 4-2: segmentPdu obeys every rule for any MTU and PDU size', () => {
  fc.assert(fc.property(caseArb, (c) => {
    const { payload, segs, dest, src } = run(c);
    const bits = flowBits(c.flowID, c.crfSupported);
    assert.ok(bits);
    const h = [c.tt, dest, src, c.cos, bits.vc, bits.prio, bits.crf, 0, 0];
    assert.equal(segs.length, Math.ceil(c.n / c.mtu));
    let offset = 0;
    for (let i = 0; i < segs.length; i++) {
      const p = segs[i]!;
      const why = broken(c, p, i, segs.length, offset, h, payload);
      if (why !== null) assert.fail(`mtu ${c.mtu}, ${c.n} bytes: ${why}`);
      offset += p.payload.length;
    }
    assert.equal(offset, c.n);
  }), fcParams(5000));
});

test('Part 10 §4.2, Part 6 §2.3–2.4: every segment encodes and decodes (encodeSerialPacket/decodeSerialPacket) to the same fields; the payloads concatenate to the PDU', () => {
  const wire = new Uint8Array(512);
  fc.assert(fc.property(caseArb, (c) => {
    const { payload, segs } = run(c);
    const joined = new Uint8Array(c.n);
    let at = 0;
    for (const p of segs) {
      const len = serialPacketLength(p);
      assert.equal(encodeSerialPacket(p, wire, 0), len);
      const back = decodeSerialPacket(wire, 0, len, { strict: true });
      const { crc, earlyCrc, ...fields } = back;
      assert.equal(typeof crc, 'number');
      assert.equal(earlyCrc === undefined, len <= 84);
      assert.deepEqual(fields, p);
      joined.set(back.ftype === 9 && back.segment !== 'tm' ? back.payload : new Uint8Array(0), at);
      at += p.payload.length;
    }
    assert.equal(at, c.n);
    assert.deepEqual(joined, payload.slice());
  }), fcParams(1500));
});
