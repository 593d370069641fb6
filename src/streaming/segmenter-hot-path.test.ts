import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segmentPdu } from './segment-pdu.ts';
import { Segmenter } from './segmenter.ts';
import type { SegmenterOutput } from './segmenter-types.ts';

/**
 * The segmenter's per-segment shortcuts (docs/performance.md): segment views cut with the
 * Uint8Array constructor, outputs built as literals, the flow looked up once per PDU of a pull.
 * These tests pin down that none changes what the engine gives.
 */

function bytes(n: number, seed = 0): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 13 + seed) & 0xff;
  return b;
}

const ARGS = { mtu: 32, destinationID: 3, sourceID: 7, cos: 5, streamID: 9, flowID: '0B' } as const;

test('Part 10 §3.2.5 segmentation rules 4–8: segment payloads are views of the PDU at their offsets, also for a PDU that is itself a view', () => {
  const big = bytes(300);
  const payload = big.subarray(17, 17 + 100);
  const segs = segmentPdu({ ...ARGS, payload });
  assert.deepEqual(segs.map((s) => s.payload.byteOffset), [17, 49, 81, 113]);
  assert.deepEqual(segs.map((s) => s.payload.length), [32, 32, 32, 4]);
  for (const s of segs) {
    assert.equal(s.payload.buffer, big.buffer);
    assert.equal(Object.getPrototypeOf(s.payload), Uint8Array.prototype);
  }
});

test('Part 10 §3.2.5 segmentation rules 4–8: the segments of a Node Buffer PDU are Buffer views, as subarray gives them', () => {
  const payload = Buffer.from(bytes(80));
  const fromPdu = segmentPdu({ ...ARGS, payload });
  const s = new Segmenter({ mtu: 32, sourceID: 7 });
  s.handle({ kind: 'pdu', destinationID: 3, cos: 5, streamID: 9, flowID: '0B', payload }, 0);
  const pulled = s.handle({ kind: 'pull', destinationID: 3, flowID: '0B', max: 5 }, 0).flatMap((o) => (o.kind === 'send' ? [o.packet] : []));
  assert.equal(pulled.length, 3);
  for (const p of [...fromPdu, ...pulled]) {
    assert.ok(Buffer.isBuffer(p.payload));
    assert.equal(p.payload.buffer, payload.buffer);
  }
  assert.deepEqual(pulled, fromPdu);
});

test('Part 10 §3.2.5 segmentation rule 1: a pull with max runs on through the PDUs of its flow in order, then stops without idle', () => {
  const s = new Segmenter({ mtu: 32 });
  s.handle({ kind: 'pdu', destinationID: 3, cos: 5, streamID: 9, flowID: '0B', payload: bytes(40), id: 'a' }, 0);
  s.handle({ kind: 'pdu', destinationID: 3, cos: 5, streamID: 9, flowID: '0B', payload: bytes(20), id: 'b' }, 0);
  const out = s.handle({ kind: 'pull', destinationID: 3, flowID: '0B', max: 10 }, 0);
  const kinds = out.map((o) => (o.kind === 'send' ? o.packet.segment : o.kind === 'pdu-done' || o.kind === 'pdu-started' ? `${o.kind}:${String(o.id)}` : o.kind));
  assert.deepEqual(kinds, ['pdu-started:a', 'start', 'end', 'pdu-done:a', 'pdu-started:b', 'single', 'pdu-done:b']);
  assert.deepEqual(s.busyFlows(), []);
  assert.deepEqual(s.handle({ kind: 'pull', destinationID: 3, flowID: '0B' }, 0), [{ kind: 'idle', reason: 'empty', destinationID: 3, flowID: '0B' }]);
});

test('Part 10 §3.2.5 segmentation: queued, pdu-started and pdu-done list their fields in PduRef order, with and without id (JSON output)', () => {
  for (const id of [undefined, 'x']) {
    const s = new Segmenter({ mtu: 32 });
    const input = { kind: 'pdu', destinationID: 3, cos: 5, streamID: 9, flowID: '0B', payload: bytes(10) } as const;
    const queued = s.handle(id === undefined ? input : { ...input, id }, 0);
    const pulled = s.handle({ kind: 'pull', destinationID: 3, flowID: '0B' }, 0).filter((o) => o.kind !== 'send');
    const ref = id === undefined
      ? { seq: 1, destinationID: 3, flowID: '0B', cos: 5, streamID: 9, length: 10 }
      : { seq: 1, id, destinationID: 3, flowID: '0B', cos: 5, streamID: 9, length: 10 };
    const json = (o: readonly SegmenterOutput[]): string[] => o.map((x) => JSON.stringify(x));
    assert.deepEqual(json(queued), [JSON.stringify({ kind: 'queued', ...ref })]);
    assert.deepEqual(json(pulled), [
      JSON.stringify({ kind: 'pdu-started', segments: 1, mtu: 32, ...ref }),
      JSON.stringify({ kind: 'pdu-done', ...ref }),
    ]);
  }
});
