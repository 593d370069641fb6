import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { encodeFrames, frameArb } from '../../test/support/frames.ts';
import { WireError } from './errors.ts';
import { decodeFrame } from './frame.ts';
import { FrameReader, MAX_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE } from './frame-reader.ts';
import { toHex } from './hex.ts';

/** Each stream run feeds several frames through a reader, so a third of the full count keeps the file within its time budget. */
const RUNS = Math.ceil(FC_RUNS / 3);

interface Outcome {
  readonly frames: string[];
  readonly error: string | null;
  readonly maxBuffered: number;
}

/**
 * Feeds `stream` cut at `cuts`; at the frames `stops` names the sink returns false and the rest of
 * that chunk is pushed again, as a paused link does when it resumes.
 */
function read(stream: Uint8Array, cuts: readonly number[], stops: ReadonlySet<number>, maxFrameSize: number, check?: (b: Uint8Array, o: number, e: number) => void): Outcome {
  const r = new FrameReader({ maxFrameSize });
  const frames: string[] = [];
  let maxBuffered = 0;
  const sink = (b: Uint8Array, o: number, e: number): boolean => {
    check?.(b, o, e);
    frames.push(toHex(b.subarray(o, e)));
    return !stops.has(frames.length - 1);
  };
  const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...points, stream.length]) {
    let chunk = stream.subarray(from, to);
    from = to;
    for (;;) {
      const used = r.push(chunk, sink);
      maxBuffered = Math.max(maxBuffered, r.buffered);
      assert.ok(r.buffered <= maxFrameSize, `buffered ${r.buffered} > ${maxFrameSize}`);
      if (r.error !== null || used === chunk.length) break;
      chunk = chunk.subarray(used);
    }
    if (r.error !== null) break;
  }
  return { frames, error: r.error === null ? null : `${r.error.code}@${r.error.offset}`, maxBuffered };
}

const cuts = fc.array(fc.nat(), { maxLength: 12 });
const stops = fc.array(fc.nat({ max: 10 }), { maxLength: 4 }).map((s) => new Set(s));
const maxFrame = fc.oneof(fc.constant(MIN_MAX_FRAME_SIZE), fc.integer({ min: MIN_MAX_FRAME_SIZE, max: 2048 }), fc.constant(MAX_MAX_FRAME_SIZE));

test('riodp link §2: any chunking of a stream of valid frames, with any pauses, yields exactly the frames encoded, in order', () => {
  fc.assert(
    fc.property(fc.array(frameArb, { minLength: 1, maxLength: 6 }), cuts, stops, (frames, c, s) => {
      const expected = frames.map((f) => toHex(encodeFrames([f])));
      const out = read(encodeFrames(frames), c, s, MIN_MAX_FRAME_SIZE);
      assert.deepEqual(out.frames, expected);
      assert.equal(out.error, null);
    }),
    fcParams(RUNS),
  );
});

/** Valid frames with byte changes, or noise: lengths that are 0, oversize or cut short included. */
const stream = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  fc
    .tuple(fc.array(frameArb, { minLength: 1, maxLength: 5 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }), fc.option(fc.nat()))
    .map(([frames, flips, cut]) => {
      const b = encodeFrames(frames);
      for (const [at, x] of flips) b[at % b.length] = b[at % b.length]! ^ x;
      return cut === null ? b : b.subarray(0, cut % (b.length + 1));
    }),
);

test('riodp link §2, issue 8 §3: on any bytes the reader throws nothing, never holds more than maxFrameSize, and its frames and error do not depend on the chunking', () => {
  fc.assert(
    fc.property(stream, cuts, stops, maxFrame, (bytes, c, s, max) => {
      const check = (b: Uint8Array, o: number, e: number): void => {
        assert.equal(e - o, 2 + ((b[o]! << 8) | b[o + 1]!));
        assert.ok(e - o <= max && e - o >= 3);
        for (const strict of [false, true]) {
          try {
            decodeFrame(b, o, e, { strict });
          } catch (err) {
            if (!(err instanceof WireError)) throw err;
            assert.ok(err.offset >= o && err.offset <= e, err.message);
          }
        }
      };
      const chunked = read(bytes, c, s, max, check);
      const whole = read(bytes, [], new Set(), max);
      assert.deepEqual(chunked.frames, whole.frames);
      assert.equal(chunked.error, whole.error);
      assert.ok(chunked.maxBuffered <= max);
    }),
    fcParams(RUNS),
  );
});
