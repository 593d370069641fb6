import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dsControlRegister } from '../registers/data-streaming.ts';
import { RegisterSpace } from '../registers/space.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { decodeFrame } from '../wire/frame.ts';
import { Segmenter } from './segmenter.ts';
import type { SegmenterInput, SegmenterOutput } from './segmenter-types.ts';

/** The segmenter's `set-mtu` input (issue 18 item 5 b): an MTU written to a running end point. */

const pdu = (streamID: number, n: number, flowID: FlowIdLabel = '0A'): SegmenterInput => ({ kind: 'pdu', destinationID: 1, cos: 0, streamID, flowID, payload: new Uint8Array(n) });
const sizes = (out: readonly SegmenterOutput[]): number[] => out.flatMap((o) => (o.kind === 'send' ? [o.packet.segment === 'abort' ? 0 : o.packet.payload.length] : []));
const started = (out: readonly SegmenterOutput[]): number[] => out.flatMap((o) => (o.kind === 'pdu-started' ? [o.mtu] : []));

test('Part 10 §5.5.1 Table 5-6 MTU, §3.2.4: set-mtu cuts the PDUs that start after it with the new MTU; a PDU already started finishes with its own ("Start segments and continuation segments are always filled to the MTU size")', () => {
  const s = new Segmenter({ mtu: 64 });
  s.handle(pdu(1, 150), 0);
  s.handle(pdu(2, 150), 0);
  const first = s.handle({ kind: 'pull', destinationID: 1, flowID: '0A' }, 0);
  assert.deepEqual([started(first), sizes(first)], [[64], [64]]);
  assert.deepEqual(s.handle({ kind: 'set-mtu', mtu: 32 }, 1), [], 'no output');
  assert.equal(s.mtu(), 32);
  const rest = s.handle({ kind: 'pull', destinationID: 1, flowID: '0A', max: 20 }, 2);
  // PDU 1 goes on at 64 (64 + 22), PDU 2 starts at 32 (32 × 4 + 22).
  assert.deepEqual(started(rest), [32]);
  assert.deepEqual(sizes(rest), [64, 22, 32, 32, 32, 32, 22]);
  assert.equal(s.snapshot()['mtu'], 32);
});

test('Part 10 §5.5.1 Table 5-6 MTU: a set-mtu that is not an MTU, or given to a segmenter that reads its MTU from the register, is an invalid-input event and changes nothing', () => {
  const s = new Segmenter({ mtu: 64 });
  for (const mtu of [30, 260, 0, 33, '64' as unknown as number]) {
    assert.deepEqual(s.handle({ kind: 'set-mtu', mtu }, 0), [{ kind: 'event', name: 'invalid-input' }], String(mtu));
  }
  assert.deepEqual([s.mtu(), s.counters().invalidInputs], [64, 5]);
  // TM types 0b1000, MTU 0x10 (64 bytes).
  const r = new Segmenter({ registers: new RegisterSpace([dsControlRegister(0x80000010)]) });
  assert.deepEqual(r.handle({ kind: 'set-mtu', mtu: 32 }, 0), [{ kind: 'event', name: 'invalid-input' }]);
  assert.equal(r.mtu(), 64);
});

test('Part 10 §5.5.1 Table 5-6 MTU: the fast lane (pullInto) cuts with the MTU set-mtu gave, as pull does', () => {
  const fast = new Segmenter({ mtu: 256 });
  fast.handle({ kind: 'set-mtu', mtu: 32 }, 0);
  fast.handle(pdu(1, 40), 0);
  const buf = new Uint8Array(400);
  const wrote = fast.pullInto(buf, 0, buf.length, 0);
  const got: number[] = [];
  for (let at = 0; at < wrote;) {
    const end = at + 2 + (((buf[at] as number) << 8) | (buf[at + 1] as number));
    const f = decodeFrame(buf, at, end);
    got.push(f.kindName === 'packet' && f.packet.ftype === 9 && 'payload' in f.packet ? f.packet.payload.length : -1);
    at = end;
  }
  assert.deepEqual(got, [32, 8]);
});
