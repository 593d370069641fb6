import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { FakeSocket } from '../../test/support/fake-socket.ts';
import { concat, damage, damaged, points } from '../../test/support/frame-batch.ts';
import { encodeFrames, frameArb } from '../../test/support/frames.ts';
import { abort, bytes, cont, end, single, start, tmXoff } from '../../test/support/type9-segments.ts';
import { FRAME_HEADER_BYTES, LINK_VERSION, helloFrame, packetFrame } from '../../src/wire/frame.ts';
import type { Frame } from '../../src/wire/frame.ts';
import { MIN_MAX_FRAME_SIZE } from '../../src/wire/frame-reader.ts';
import { toHex } from '../../src/wire/hex.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { Link } from './link.ts';
import type { LinkHandlers } from './link.ts';

/**
 * Equivalence of a link's fast lane (link-batch.ts) with its object path (issue 17: "property
 * tests that run the same traffic through the object path and the batch path and compare every
 * output byte and every defect report"): the same stream, cut into the same chunks, through a
 * link without `onFrames` and one with it, gives the same packets (by their bytes), symbols,
 * defects (code, field, stream offset), HELLO/CLOSE handling and counters. The fast link's
 * handler takes a random number of each run's frames, so pausing and resuming inside a chunk
 * (riodp link §4.4: delivery stops at a frame boundary, the rest is held) is exercised too.
 */
const RUNS = Math.max(1, Math.ceil(FC_RUNS / 500));

const h = { tt: 1, destinationID: 2, sourceID: 1 };
const T9: readonly Packet[] = [
  single(bytes(7), 5, h), start(bytes(256, 3), 6, h), cont(bytes(256, 9), h), cont(bytes(40), h), end(bytes(100), 652, h),
  abort(h), tmXoff(5, h), single(bytes(1), 1, { tt: 0, destinationID: 3 }), start(bytes(64), 2, { tt: 2, destinationID: 0x10203040, sourceID: 7, prio: 2, crf: 1 }),
];
const type9Arb = fc.constantFrom(...T9).map((p): Frame => packetFrame(p));
const frameMix = fc.oneof({ arbitrary: type9Arb, weight: 3 }, { arbitrary: frameArb, weight: 2 });

interface Result {
  readonly events: string[];
  readonly counters: Record<string, number>;
}

function drive(stream: Uint8Array, cuts: readonly number[], fast: boolean, takes: readonly number[]): Result {
  const socket = new FakeSocket();
  const events: string[] = [];
  let t = 0;
  const handlers: LinkHandlers = {
    onOpen: (v) => events.push(`open ${v}`),
    onPacket: (_p, octets, wire) => events.push(`packet ${octets} ${wire === undefined ? '?' : toHex(wire.bytes.subarray(wire.start, wire.end))}`),
    onSymbol: (s) => events.push(`symbol ${JSON.stringify(s)}`),
    onStatus: () => events.push('status'),
    // A bad frame's offset is into the buffer it was decoded from (a chunk, or what a pause held),
    // which the two paths cut differently; the stream offset of a fatal length is in the CLOSE text.
    onMalformed: (e) => events.push(`malformed ${e.code} ${e.field} ${e.detail}`),
    onClose: (c) => events.push(`close ${c.by} ${c.reasonName} ${c.text}`),
  };
  if (fast) {
    handlers.onFrames = (batch, chunk, first, count) => {
      // Takes of 0 only would hold the first run forever: every third run is taken whole.
      const k = t++;
      const take = k % 3 === 2 ? count : (takes[k % takes.length] ?? 0) % (count + 1);
      for (let i = first; i < first + take; i++) {
        const o = batch.offset[i] as number;
        const e = o + (batch.length[i] as number);
        events.push(`packet ${e - o - FRAME_HEADER_BYTES} ${toHex(chunk.subarray(o + FRAME_HEADER_BYTES, e))}`);
      }
      if (take < count) {
        link.pause();
        // Resumed before returning (the switch: an output drained while the run was applied): the rest comes at once.
        if (take > 0 && k % 2 === 1) link.resume();
      }
      return take;
    };
  }
  const link: Link = new Link(socket.socket, handlers, { forward: true, maxFrameSize: MIN_MAX_FRAME_SIZE });
  assert.equal(link.batched, fast);
  let from = 0;
  for (const to of [...cuts, stream.length]) {
    socket.emit('data', Buffer.from(stream.subarray(from, to)));
    from = to;
    // Whatever a run left is delivered again on resume, as often as it takes.
    for (let k = 0; k < 1000 && link.paused; k++) link.resume();
  }
  const c = link.counters();
  return { events, counters: { framesIn: c.framesIn, malformed: c.malformed, unknownKind: c.unknownKind, oversize: c.oversize, statusIn: c.statusIn } };
}

test('issue 17, riodp link §2–§4.4 (decision FL1): a link on the fast lane reports the same packets, symbols, defects, closes and counters as on the object path, over random frames damaged and cut at random, its handler taking part of each run', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(frameMix, damage), { minLength: 1, maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 6 }),
      (frames, c, takes) => {
        const stream = concat([encodeFrames([helloFrame(LINK_VERSION)]), ...frames.map(([f, d]) => damaged(encodeFrames([f]), d))]);
        const p = points(c, stream.length);
        assert.deepEqual(drive(stream, p, true, takes), drive(stream, p, false, []));
      },
    ),
    fcParams(RUNS),
  );
});

test('issue 17 (decision FL1): without onFrames, with batch false, or decoding strictly, a link keeps the object path', () => {
  const socket = (): FakeSocket => new FakeSocket();
  const onFrames = (): number => 0;
  assert.equal(new Link(socket().socket, {}).batched, false);
  assert.equal(new Link(socket().socket, { onFrames }).batched, true);
  assert.equal(new Link(socket().socket, { onFrames }, { batch: false }).batched, false);
  assert.equal(new Link(socket().socket, { onFrames }, { decode: { strict: true } }).batched, false);
  assert.equal(new Link(socket().socket, { onFrames }, { decode: { ackIdBits: 5 } as never }).batched, false);
});
