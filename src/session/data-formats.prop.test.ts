import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decodeSmp, encodeSmp, smpLength } from '../wire/smp/index.ts';
import { smpData, smpData1, smpData2 } from '../wire/smp/data.ts';
import { DATA_HEADER_OCTETS, DataReassembler, maxPdu, pduToDataMessages } from './data-formats.ts';
import type { DataFormat, DataHeader, DataMessage, DataResult } from './data-formats.ts';

const FORMATS: readonly DataFormat[] = ['DATA', 'DATA1', 'DATA2'];

/** Round-trip sizes: up to ~70000 octets, each format within its own limit. */
const PDU_MAX: Readonly<Record<DataFormat, number>> = { DATA: maxPdu('DATA'), DATA1: 70000, DATA2: maxPdu('DATA2') };

const headerArb = (format: DataFormat): fc.Arbitrary<DataHeader> =>
  fc.record({
    sourceID: fc.integer({ min: 0, max: 0xffff }),
    streamID: fc.integer({ min: 0, max: 0xfffe }),
    cos: fc.integer({ min: 0, max: 0xff }),
    mailbox: fc.integer({ min: 0, max: 0xff }),
    data2Octet: fc.integer({ min: 0, max: 0xff }),
    offset: fc.integer({ min: 0, max: 24 }),
    // Small messages make long transfers; most runs use Part 2's range of sizes.
    maxMessage: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 512, max: 4096 }) }, { weight: 1, arbitrary: fc.integer({ min: 64, max: 511 }) }),
  }).map(({ offset, ...h }) => ({ format, ...h, offsetOctets: Uint8Array.from({ length: offset }, (_, i) => i + 1) }));

const caseArb = fc.constantFrom(...FORMATS).chain((format) =>
  fc.tuple(
    headerArb(format),
    fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: PDU_MAX[format] })),
    fc.integer({ min: 0, max: 255 }),
  ),
);

function pattern(n: number, seed: number): Uint8Array {
  const p = new Uint8Array(n);
  for (let i = 0; i < n; i++) p[i] = (i * 131 + seed) & 0xff;
  return p;
}

/** The messages as octets in one buffer, then decoded strictly one by one, as a receiver gets them. */
function overTheWire(msgs: readonly DataMessage[], maxMessage: number): DataMessage[] {
  const total = msgs.reduce((n, m) => n + smpLength(m), 0);
  const buf = new Uint8Array(total);
  const spans: [number, number][] = [];
  let at = 0;
  for (const m of msgs) {
    const end = encodeSmp(m, buf, at);
    assert.ok(end - at <= maxMessage, `message of ${end - at} octets over ${maxMessage}`);
    assert.equal((end - at) % 8, 0);
    spans.push([at, end]);
    at = end;
  }
  return spans.map(([s, e]) => {
    const d = decodeSmp(buf, s, e, { strict: true });
    assert.ok(d.command === 'DATA' || d.command === 'DATA1' || d.command === 'DATA2');
    return d;
  });
}

test('Annex 2 §4.3.1–§4.3.3: any PDU through DATA/DATA1/DATA2 messages, octets and reassembly is the same PDU on the right stream', () => {
  const r = new DataReassembler({ maxPdu: 0xffffffff });
  fc.assert(
    fc.property(caseArb, ([h, n, seed]) => {
      const pdu = pattern(n, seed);
      const maxMessage = h.maxMessage ?? 4096;
      const msgs = overTheWire(pduToDataMessages(pdu, h), maxMessage);
      assert.equal(msgs[0]?.s, 1);
      assert.equal(msgs[msgs.length - 1]?.e, 1);
      const offset = h.offsetOctets?.length ?? 0;
      const results = msgs.map((m) => r.accept(h.sourceID, 3, m, offset));
      const last = results.pop();
      assert.ok(results.every((x) => x.kind === 'partial'));
      assert.deepEqual(last, { kind: 'pdu', streamID: h.format === 'DATA2' ? undefined : h.streamID, pdu });
      assert.equal(r.size, 0);
    }),
    fcParams(3000),
  );
});

// Only middle segments carry PDU-Length, so a transfer whose one middle segment is lost (Start,
// End left) cannot be told from a shorter PDU: the property excludes that case.
test('Annex 2 §4.3.1: a DATA or DATA1 transfer that loses one message, other than its only middle segment, is never delivered as a PDU', () => {
  const arb = fc.constantFrom<DataFormat>('DATA', 'DATA1').chain((format) =>
    fc.tuple(fc.constant(format), fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 64, max: 1024 }), fc.nat()),
  );
  fc.assert(
    fc.property(arb, ([format, n, maxMessage, pick]) => {
      const msgs = pduToDataMessages(pattern(n, 7), { format, sourceID: 1, streamID: 5, cos: 0, mailbox: 0, maxMessage });
      fc.pre(msgs.length >= 2);
      const lost = pick % msgs.length;
      fc.pre(!(msgs.length === 3 && lost === 1));
      const r = new DataReassembler();
      const results = msgs.filter((_, i) => i !== lost).map((m) => r.accept(1, 0, m));
      assert.ok(results.every((x) => x.kind !== 'pdu'));
      // Losing the End leaves the transfer open; losing any other message is reported.
      if (lost !== msgs.length - 1) assert.ok(results.some((x) => x.kind === 'defect'));
    }),
    fcParams(2000),
  );
});

const segmentArb: fc.Arbitrary<DataMessage> = fc
  .record({
    format: fc.constantFrom(...FORMATS),
    s: fc.integer({ min: 0, max: 1 }),
    e: fc.integer({ min: 0, max: 1 }),
    mailbox: fc.integer({ min: 0, max: 2 }),
    streamID: fc.integer({ min: 0, max: 3 }),
    pduLength: fc.integer({ min: 0, max: 200 }),
    length: fc.integer({ min: 0, max: 80 }),
  })
  .map((f) => {
    const payload = new Uint8Array(f.length).fill(f.length & 0xff);
    const where = (f.s | f.e) === 1 ? { streamID: f.streamID } : { pduLength: f.pduLength };
    if (f.format === 'DATA2') return smpData2({ s: f.s, e: f.e, payload });
    const g = { sourceID: 1, mailbox: f.mailbox, s: f.s, e: f.e, payload, ...where };
    return f.format === 'DATA' ? smpData(g) : smpData1(g);
  });

test('Annex 2 §4.3.1: any sequence of segments from several sources is answered without throwing, each PDU within maxPdu', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined }), segmentArb, fc.integer({ min: 0, max: 4 })), { maxLength: 60 }),
      fc.integer({ min: 1, max: 300 }),
      (steps, limit) => {
        const r = new DataReassembler({ maxPdu: limit });
        for (const [from, mailbox, m, offset] of steps) {
          const got: DataResult = r.accept(from, mailbox, m, offset);
          if (got.kind === 'pdu') assert.ok(got.pdu.length <= Math.min(limit, maxPdu(m.command)));
          if (got.kind === 'defect') assert.ok(got.reason.length > 0);
          const s = r.snapshot();
          assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
          for (const t of s.transfers) assert.ok(t.received <= limit);
        }
        r.dropFrom(0);
        r.dropFrom(1);
        r.dropFrom(2);
        assert.equal(r.size, 0);
      },
    ),
    fcParams(5000),
  );
});

test('Annex 2 §4.3.1: well-formed transfers interleaved across sources, mailboxes and formats are all delivered intact', () => {
  const transfer = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(...FORMATS), fc.integer({ min: 0, max: 3000 }));
  fc.assert(
    fc.property(fc.uniqueArray(transfer, { maxLength: 6, selector: ([f, m, fmt]) => `${f}/${m}/${fmt}` }), fc.array(fc.nat(), { maxLength: 200 }), (ts, order) => {
      const queues = ts.map(([from, mailbox, format, n], i) => ({
        from,
        mailbox,
        pdu: pattern(n, i),
        msgs: pduToDataMessages(pattern(n, i), { format, sourceID: from, streamID: i, cos: 0, mailbox, maxMessage: 256 }),
      }));
      const r = new DataReassembler();
      const delivered = new Map<number, Uint8Array>();
      let pick = 0;
      while (queues.some((q) => q.msgs.length > 0)) {
        const live = queues.filter((q) => q.msgs.length > 0);
        const q = live[(order[pick++ % Math.max(1, order.length)] ?? 0) % live.length]!;
        const got = r.accept(q.from, q.mailbox, q.msgs.shift()!);
        assert.notEqual(got.kind, 'defect');
        if (got.kind === 'pdu') delivered.set(queues.indexOf(q), got.pdu);
      }
      queues.forEach((q, i) => {
        assert.deepEqual(delivered.get(i), q.pdu);
      });
    }),
    fcParams(2000),
  );
});

test('Annex 2 §4.3.1: header sizes are those of Tables 4-12 to 4-14', () => {
  assert.deepEqual(DATA_HEADER_OCTETS, { DATA: 12, DATA1: 16, DATA2: 4 });
});
