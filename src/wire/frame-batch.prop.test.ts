import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { batchPath, concat, damage, damaged, objectPath, points, rawPacketFrame } from '../../test/support/frame-batch.ts';
import { encodeFrames, frameArb, seededBytes } from '../../test/support/frames.ts';
import { MIN_MAX_FRAME_SIZE } from './frame-reader.ts';

/**
 * Equivalence of the receive batch with the object path (issue 17 "property tests that run the
 * same traffic through the object path and the batch path and compare … every defect report").
 * Each run compares a whole stream of frames, so the counts stay modest: 400 at the default
 * FC_RUNS (the file runs in ~2 s), more under `npm run fuzz`.
 */
const RUNS = Math.max(1, Math.ceil(FC_RUNS / 250));

const cuts = fc.array(fc.nat(), { maxLength: 8 });
const capacity = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(4096));


function assertSame(stream: Uint8Array, c: readonly number[], cap: number): void {
  const p = points(c, stream.length);
  const want = objectPath(stream, p, MIN_MAX_FRAME_SIZE);
  const got = batchPath(stream, p, MIN_MAX_FRAME_SIZE, cap);
  assert.deepEqual(got, want);
}

test('issue 17, Part 6 §2.4.1, riodp link §2–§4.2: the batch marks the same frames bad, with the same defect, and reads the same fields as FrameReader + decodeFrame, over random frames of every kind and ftype, damaged and cut at random', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(frameArb, damage), { minLength: 1, maxLength: 8 }), cuts, capacity, (frames, c, cap) => {
      const stream = concat(frames.map(([f, d]) => damaged(encodeFrames([f]), d)));
      assertSame(stream, c, cap);
    }),
    fcParams(RUNS),
  );
});

/** Logical bytes of a Type 9 packet (or any ftype) with a plausible prefix, framed with good CRCs. */
const rawPacket = fc
  .record({
    ftype: fc.oneof({ arbitrary: fc.constant(9), weight: 4 }, { arbitrary: fc.constantFrom(7, 8, 10, 11, 13, 0, 15), weight: 1 }),
    tt: fc.integer({ min: 0, max: 3 }),
    b0: fc.integer({ min: 0, max: 255 }),
    flags: fc.integer({ min: 0, max: 255 }),
    body: seededBytes(2, 272),
    fit: fc.boolean(),
  })
  .map(({ ftype, tt, b0, flags, body, fit }) => {
    // Half the packets have an even length and, for single and end segments, the O bit that
    // matches it (Part 10 §4.2 Table 4-2), so that they frame and reach the logical checks.
    const l = fit ? body.slice(0, body.length & ~1) : body.slice();
    l[0] = b0;
    l[1] = (b0 & 0xc0) | (tt << 4) | ftype;
    const size = tt === 0 ? 1 : tt === 1 ? 2 : 4;
    const h = 2 + 2 * size;
    const odd = ((l.length >> 1) ^ (1 + size + 2)) & 1;
    if (l.length > h + 1) l[h + 1] = fit ? (flags & ~0x02) | (odd << 1) : flags;
    return rawPacketFrame(l);
  });

test('issue 17, Part 10 §4.2 Table 4-1: with good CRCs the Type 9 header checks alone decide, identically (segment kinds, half-word payloads, TM size, pad byte, truncated headers)', () => {
  fc.assert(
    fc.property(fc.array(rawPacket, { minLength: 1, maxLength: 6 }), cuts, capacity, (frames, c, cap) => {
      assertSame(concat(frames), c, cap);
    }),
    fcParams(RUNS),
  );
});

test('issue 17 / Part 6 §2.4.2: packets over 80 bytes with a damaged early or final CRC are marked earlyCrc or crc as decodeSerial reports them', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(rawPacket, fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), (frames) => {
      const stream = concat(
        frames.map(([f, at, xor]) => {
          const out = f.slice();
          // The last six bytes hold the early CRC's neighbours, the final CRC and the pad.
          const i = out.length > 90 ? [3 + 80, 3 + 81, out.length - 4, out.length - 3][at % 4]! : 3 + (at % (out.length - 3));
          out[i] = (out[i] as number) ^ xor;
          return out;
        }),
      );
      assertSame(stream, [], 4096);
    }),
    fcParams(Math.ceil(RUNS / 2)),
  );
});
