import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packetChannel } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { decodeType9, encodeType9, type9Length } from '../wire/type9.ts';
import type { Type9DataPacket, Type9EndPacket, Type9Packet } from '../wire/type9.ts';
import { abortSegment, flowBits, segmentCount, segmentPdu } from './segment-pdu.ts';
import type { SegmentPduArgs } from './segment-pdu.ts';

function pdu(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7 + 3) & 0xff;
  return b;
}

const base = { mtu: 32, destinationID: 0x12, sourceID: 0x34, cos: 0x56, streamID: 0x789a, flowID: '0A' } as const;

function seg(n: number, extra: Partial<SegmentPduArgs> = {}): Type9DataPacket[] {
  return segmentPdu({ ...base, payload: pdu(n), ...extra });
}

/** What goes on the wire: encode, then decode strictly. */
function wire(p: Type9Packet): { bytes: Uint8Array; back: Type9Packet } {
  const bytes = new Uint8Array(type9Length(p));
  assert.equal(encodeType9(p, bytes, 0), bytes.length);
  return { bytes, back: decodeType9(bytes, 0, bytes.length, { strict: true }) };
}

function concat(parts: readonly Type9DataPacket[]): Uint8Array {
  return Buffer.concat(parts.map((p) => p.payload));
}

test('Part 10 §3.2.5 rules 3, 6, 7, 8, Figure 3-3: a 96-byte PDU at MTU 32 is start, continuation, end of 32 bytes each, length 96', () => {
  const s = seg(96);
  assert.deepEqual(s.map((p) => p.segment), ['start', 'continuation', 'end']);
  assert.deepEqual(s.map((p) => p.payload.length), [32, 32, 32]);
  // ackID is the link's to assign (Part 6): segments leave the logical layer with 0.
  assert.ok(s.every((p) => p.ackID === 0));
  const end = s[2]!;
  assert.equal(end.segment, 'end');
  assert.equal(end.length, 96);
  assert.deepEqual([end.odd, end.pad], [0, 0]);
  for (const p of s) {
    const { back } = wire(p);
    assert.deepEqual(back, p);
  }
  assert.deepEqual(concat(s), Buffer.from(pdu(96)));
});

test('Part 10 §3.2.5 rule 8, Figure 3-4: an 84-byte PDU at MTU 32 ends with a 20-byte end segment, length 84', () => {
  const s = seg(84);
  assert.deepEqual(s.map((p) => p.segment), ['start', 'continuation', 'end']);
  assert.deepEqual(s.map((p) => p.payload.length), [32, 32, 20]);
  const { bytes, back } = wire(s[2]!);
  // Dev8 end segment: prefix(2) dest(1) src(1) cos(1) flags(1) length(2) = 8 header bytes, then 20.
  // flags: S=0 E=1 rsrv=000 xh=0 O=0 (10 half-words, even) P=0 → 0b0100_0000.
  assert.equal(bytes[5], 0x40);
  assert.deepEqual([bytes[6], bytes[7]], [0x00, 84]);
  assert.equal(bytes.length, 8 + 20);
  assert.equal(back.segment, 'end');
  assert.equal(back.pduLength, 84);
});

test('Part 10 §4.2 Table 4-2, Figure 3-4: end segments of 1, 2, 3 and 4 bytes carry O and P on the wire', () => {
  // remainder → (O, P): 1 byte = 1 half-word padded (1, 1); 2 = 1 half-word (1, 0);
  // 3 = 2 half-words padded (0, 1); 4 = 2 half-words (0, 0).
  const expected: Record<number, [number, number]> = { 1: [1, 1], 2: [1, 0], 3: [0, 1], 4: [0, 0] };
  for (const rest of [1, 2, 3, 4]) {
    const s = seg(64 + rest);
    const end = s[s.length - 1]!;
    assert.equal(end.payload.length, rest, 'the pad byte is not part of the payload');
    const { bytes, back } = wire(end);
    const [o, p] = expected[rest]!;
    assert.equal(bytes[5]! & 0b11, (o << 1) | p, `flags for ${rest} bytes`);
    assert.deepEqual([back.odd, back.pad], [o, p]);
    assert.equal(bytes.length, 8 + rest + p, 'one 0x00 pad byte exactly when P = 1');
    if (p === 1) assert.equal(bytes[bytes.length - 1], 0);
    assert.deepEqual(back.segment === 'end' ? [...back.payload] : [], [...end.payload]);
  }
});

test('Part 10 §3.2.5 rule 5, §4.2 Table 4-2: a PDU of at most the MTU is one single segment with O and P per its size', () => {
  for (const n of [1, 2, 3, 4, 21, 31, 32]) {
    const s = seg(n);
    assert.equal(s.length, 1);
    const p = s[0]!;
    assert.equal(p.segment, 'single');
    assert.equal(p.streamID, base.streamID);
    assert.deepEqual([p.odd, p.pad], [((n + 1) >> 1) & 1, n & 1]);
    const { back } = wire(p);
    assert.deepEqual(back, p);
  }
});

test('Part 10 §3.2.5 rules 2–8, §5.5.1: every MTU 32..256 with PDUs of 1, MTU−1, MTU, MTU+1, 3·MTU−1, 65535 and 65536 bytes', () => {
  const big = pdu(65536);
  for (let mtu = 32; mtu <= 256; mtu += 4) {
    for (const n of [1, mtu - 1, mtu, mtu + 1, 3 * mtu - 1, 65535, 65536]) {
      const payload = big.subarray(0, n);
      const s = segmentPdu({ ...base, mtu, payload });
      const count = Math.max(1, Math.ceil(n / mtu));
      assert.equal(s.length, count, `mtu ${mtu} n ${n}`);
      assert.equal(segmentCount(n, mtu), count);
      let offset = 0;
      s.forEach((p, i) => {
        const last = i === count - 1;
        const kind = count === 1 ? 'single' : i === 0 ? 'start' : last ? 'end' : 'continuation';
        assert.equal(p.segment, kind);
        assert.equal(p.payload.length, last ? n - offset : mtu);
        // A view of the PDU at the right place: nothing copied, so the concatenation is the PDU.
        assert.equal(p.payload.buffer, big.buffer);
        assert.equal(p.payload.byteOffset, offset);
        offset += p.payload.length;
      });
      assert.equal(offset, n);
      const end = s[count - 1]!;
      if (count > 1) assert.equal(end.segment === 'end' ? end.length : -1, n & 0xffff, `length field for ${n}`);
    }
  }
});

test('Part 10 §4.2 Table 4-1 length: a 65536-byte PDU ends with length 0x0000 ("64kbytes") and decodes as 65536', () => {
  const s = seg(65536, { mtu: 256 });
  assert.equal(s.length, 256);
  const end = s[255] as Type9EndPacket;
  assert.equal(end.segment, 'end');
  assert.deepEqual([end.length, end.pduLength, end.payload.length], [0, 65536, 256]);
  const { bytes, back } = wire(end);
  assert.deepEqual([bytes[6], bytes[7]], [0, 0]);
  assert.equal(back.segment === 'end' ? back.pduLength : 0, 65536);
  assert.deepEqual(concat(s), Buffer.from(pdu(65536)));
});

test('Part 10 §3.2.5 rule 9: the abort segment is an end segment with no payload and length 0, O = P = 0', () => {
  const h = { tt: 1, destinationID: 0x1234, sourceID: 0x5678, cos: 9, streamID: 1, vc: 0, prio: 1, crf: 1 };
  const a = abortSegment(h);
  const { bytes, back } = wire(a);
  // Dev16: prefix(2) dest(2) src(2) cos(1) flags(1) length(2): flags S=0 E=1 → 0x40, length 0x0000.
  assert.equal(bytes.length, 10);
  assert.deepEqual([bytes[7], bytes[8], bytes[9]], [0x40, 0, 0]);
  assert.equal(back.segment, 'abort');
  assert.deepEqual(back, a);
});

test('Part 10 §3.2.4 "all segments of a PDU must also have that same flowID and cos", Part 6 Table 6-7: VC0 flows carry their request prio and CRF', () => {
  const expected: Record<string, [number, number]> = { '0A': [0, 0], '0B': [0, 1], '0C': [1, 0], '0D': [1, 1], '0E': [2, 0], '0F': [2, 1] };
  for (const [flowID, [prio, crf]] of Object.entries(expected)) {
    const s = seg(100, { flowID: flowID as FlowIdLabel });
    for (const p of s) assert.deepEqual([p.vc, p.prio, p.crf, p.cos, p.destinationID, p.sourceID], [0, prio, crf, base.cos, base.destinationID, base.sourceID]);
  }
});

test('Part 6 Table 6-6: without CRF the VC0 flows C–F all travel at prio 2 with CRF 0', () => {
  assert.deepEqual(flowBits('0B', false), { vc: 0, prio: 1, crf: 0 });
  for (const f of ['0C', '0D', '0E', '0F'] as const) assert.deepEqual(flowBits(f, false), { vc: 0, prio: 2, crf: 0 });
  for (const p of seg(40, { flowID: '0E', crfSupported: false })) assert.deepEqual([p.prio, p.crf], [2, 0]);
});

test('Part 10 §2.4, Part 6 Table 2-2: segments of flow nA go on VCn (VC = 1, PRIO||CRF = n − 1) for VC1–VC8', () => {
  for (let n = 1; n <= 8; n++) {
    const flowID = `${n}A` as FlowIdLabel;
    for (const p of seg(70, { flowID })) {
      const { back } = wire(p);
      assert.equal(back.vc, 1);
      assert.equal(((back.prio << 1) | back.crf) + 1, n);
      assert.equal(packetChannel(back.vc, back.prio, back.crf, 8), n);
    }
  }
});

test('Part 10 §4.2 Figures 4-1/4-2: Dev32 start segments carry the streamID and 32-bit device IDs', () => {
  const s = seg(40, { tt: 2, destinationID: 0xfedcba98, sourceID: 0x01234567 });
  const { bytes, back } = wire(s[0]!);
  // prefix(2) dest(4) src(4) cos(1) flags(1) streamID(2): flags S=1 E=0 → 0x80.
  assert.deepEqual([...bytes.subarray(2, 14)], [0xfe, 0xdc, 0xba, 0x98, 0x01, 0x23, 0x45, 0x67, 0x56, 0x80, 0x78, 0x9a]);
  assert.deepEqual(back, s[0]);
});

test('Part 10 §5.5.1, §4.2 Table 4-1, §3.2.4 MaxPDU: segmentPdu refuses bad arguments with a RangeError naming the field', () => {
  const cases: [Partial<SegmentPduArgs>, RegExp][] = [
    [{ mtu: 30 }, /^mtu /],
    [{ mtu: 34 }, /^mtu /],
    [{ mtu: 260 }, /^mtu /],
    [{ payload: new Uint8Array(0) }, /^payload must be at least 1 byte/],
    [{ payload: new Uint8Array(65537) }, /^payload must be at most 65536/],
    [{ payload: new Uint8Array(1025), maxPdu: 1024 }, /MaxPDU of 1024/],
    [{ flowID: '9A' as FlowIdLabel }, /^flowID /],
    [{ destinationID: 256 }, /^destinationID /],
    [{ sourceID: 256 }, /^sourceID /],
    [{ cos: 256 }, /^cos /],
    [{ streamID: 0x10000 }, /^streamID /],
    [{ tt: 3 }, /^tt /],
    [{ maxPdu: 0 }, /^maxPdu /],
  ];
  for (const [extra, re] of cases) {
    assert.throws(() => segmentPdu({ ...base, payload: pdu(10), ...extra }), (e: unknown) => e instanceof RangeError && re.test(e.message), JSON.stringify(Object.keys(extra)));
  }
  assert.equal(segmentPdu({ ...base, payload: new Uint8Array(1024), maxPdu: 1024 }).length, 32);
});
