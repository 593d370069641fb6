import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams, FC_RUNS_MODEL } from '../../test/support/fc.ts';
import { decoded, framed, rxTrafficArb } from '../../test/support/rx-traffic.ts';
import { bytes, cont, end, start } from '../../test/support/type9-segments.ts';
import { Reassembler } from './reassembler.ts';
import type { ReassemblerConfig, ReassemblerOutput } from './reassembler-types.ts';

const STEP = 10;

function both(config: ReassemblerConfig, packets: Parameters<typeof framed>[0]): { object: unknown; batch: unknown } {
  const { chunk, batch } = framed(packets);
  const a = new Reassembler(config);
  const b = new Reassembler(config);
  const outA: ReassemblerOutput[] = [];
  const outB: ReassemblerOutput[] = [];
  for (let i = 0; i < batch.count; i++) {
    outA.push(...a.handle({ kind: 'packet', packet: decoded(batch, chunk, i) }, i * STEP));
    b.frame(batch, i, chunk, i * STEP, outB);
  }
  // Every idle timer left falls due: the open PDUs end the same way too.
  const late = batch.count * STEP + 1_000_000;
  for (const c of a.openContexts()) outA.push(...a.handle({ kind: 'timer', name: `idle:${c.context}` }, late));
  for (const c of b.openContexts()) outB.push(...b.handle({ kind: 'timer', name: `idle:${c.context}` }, late));
  return { object: { out: outA, counters: a.counters(), snap: a.snapshot() }, batch: { out: outB, counters: b.counters(), snap: b.snapshot() } };
}

test('issue 17, Part 10 §3.2.5 reassembly rules 1–9: reassembly from the frame batch delivers every PDU byte and reports every defect, abort, not-data and idle time-out as the packet path does', () => {
  const arb = fc.record({
    mtu: fc.constantFrom(32, 64, 100, 256),
    tt: fc.constantFrom(0, 1, 2),
    contexts: fc.constantFrom(1, 2, 0),
    withDst: fc.boolean(),
    idle: fc.constantFrom(null, 25, 1000),
  }).chain((c) => fc.tuple(fc.constant(c), rxTrafficArb({ mtu: c.mtu, tt: c.tt, sources: [1, 2, 0x55], destinations: [7, 8], streamIDs: [0, 3, 0xffff], maxPdu: 4 * c.mtu + 7 })));
  fc.assert(fc.property(arb, ([c, packets]) => {
    const config: ReassemblerConfig = { mtu: c.mtu, segSupport: c.contexts, destinationInContext: c.withDst, idleTimeout: c.idle };
    const r = both(config, packets);
    assert.deepStrictEqual(r.batch, r.object);
  }), fcParams(Math.max(1, Math.floor(FC_RUNS_MODEL / 10))));
});

test('issue 17 buffer lifetime: a PDU reassembled from the batch holds no byte of the chunk (overwriting the chunk afterwards changes no delivered PDU), single segments included', () => {
  fc.assert(fc.property(rxTrafficArb({ mtu: 64, tt: 1, sources: [1, 2], destinations: [7], streamIDs: [3], maxPdu: 300 }), (packets) => {
    const { chunk, batch } = framed(packets);
    const r = new Reassembler({ mtu: 64 });
    const out: ReassemblerOutput[] = [];
    for (let i = 0; i < batch.count; i++) r.frame(batch, i, chunk, i, out);
    const pdus = out.flatMap((o) => (o.kind === 'pdu' ? [o.payload] : []));
    const copies = pdus.map((p) => p.slice());
    for (const p of pdus) assert.notEqual(p.buffer, chunk.buffer, 'a PDU is never a view of the chunk');
    chunk.fill(0xa5);
    assert.deepStrictEqual(pdus, copies);
  }), fcParams(Math.max(1, Math.floor(FC_RUNS_MODEL / 10))));
});

test('Part 10 §3.2.5 reassembly rules 4, 5 (issue 18 item 5 c): a start or continuation of 4k + 2 bytes is a short segment of its true size on both paths, not a CRC defect of the frame', () => {
  // The layouts the CRC tells apart (docs/conformance.md): a Dev8 start, a Dev16 continuation.
  const h8 = { tt: 0, sourceID: 2, destinationID: 7, cos: 1 };
  const h16 = { ...h8, tt: 1 };
  const packets = [start(bytes(62), 3, h8), end(bytes(4), 66, h8), start(bytes(64), 3, h16), cont(bytes(30), h16), end(bytes(4), 98, h16)];
  const r = both({ mtu: 64 }, packets);
  assert.deepStrictEqual(r.batch, r.object);
  const defects = (r.object as { out: ReassemblerOutput[] }).out.flatMap((o) => (o.kind === 'event' && o.name === 'defective-pdu' ? [[o.rule, o.segment, o.payloadLength, o.error]] : []));
  assert.deepStrictEqual(defects, [[4, 'start', 62, 'SHORT_DATA_STREAMING_SEGMENT'], [5, 'continuation', 30, 'SHORT_DATA_STREAMING_SEGMENT']]);
});
