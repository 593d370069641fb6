import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { canonicalPacket, encodeFrames, frameArb } from '../../test/support/frames.ts';
import { WireError } from './errors.ts';
import { decodeFrame, encodeFrame, frameLength } from './frame.ts';
import type { DecodedFrame, Frame, FrameDecodeOptions } from './frame.ts';
import { toHex } from './hex.ts';

/** The fields that alone determine a frame's bytes: labels, CRCs and meanings left out. */
function raw(f: Frame | DecodedFrame): unknown {
  switch (f.kindName) {
    case 'packet': {
      const p = Object.fromEntries(Object.entries(canonicalPacket(f.packet)).filter(([k]) => k !== 'crc' && k !== 'earlyCrc'));
      return { kind: f.kind, packet: p };
    }
    case 'cs48': {
      const { link, stype0, parameter0, parameter1, stype1, cmd, stype2 } = f.symbol;
      return { kind: f.kind, link, stype0, parameter0, parameter1, stype1, cmd, stype2: stype2 ?? 0 };
    }
    case 'cs64': {
      const { link, stype0, parameter0, parameter1, stype1, alignment0, alignment1 } = f.symbol;
      return { kind: f.kind, link, stype0, parameter0, parameter1, stype1, alignment0: alignment0 ?? 0, alignment1: alignment1 ?? 0 };
    }
    case 'hello':
      return { kind: f.kind, version: f.version, ext: toHex(f.ext ?? new Uint8Array(0)) };
    case 'close':
      return { kind: f.kind, reason: f.reason, text: f.text };
    case 'RESERVED':
      return { kind: f.kind, body: toHex(f.body) };
  }
}

function enc(f: Frame): Uint8Array {
  const out = new Uint8Array(frameLength(f));
  assert.equal(encodeFrame(f, out, 0), out.length);
  return out;
}

/** Runs `fn`; a throw must be a WireError whose offset lies in [lo, hi]. */
function onlyWireError<T>(fn: () => T, lo: number, hi: number): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    assert.ok(e.offset >= lo && e.offset <= hi, `${e.message}: offset outside [${lo}, ${hi}]`);
    return undefined;
  }
}

/**
 * The identity and the garbage properties run the full count (CONTRIBUTING.md); the two that
 * repeat them under other options run a fifth of it, which keeps the file within its time budget.
 */
const SECONDARY_RUNS = Math.ceil(FC_RUNS / 5);

const options = fc.record({ strict: fc.boolean(), voqFormat: fc.constantFrom('seed' as const, 'part12-rev4.1' as const), part12GroupSize: fc.integer({ min: 0, max: 6 }) });

test('riodp link §2–§3: encode → decode is the identity on every kind over its whole field ranges, and decoded frames re-encode bit for bit', () => {
  fc.assert(
    fc.property(frameArb, (f) => {
      const bytes = enc(f);
      const d = decodeFrame(bytes, 0, bytes.length);
      assert.deepEqual(raw(d), raw(f));
      assert.equal(d.kindName, f.kindName);
      assert.equal(toHex(enc(d)), toHex(bytes));
    }),
    fcParams(),
  );
});

test('riodp link §3: strict decoding equals lenient decoding or throws WireError (a reserved value or bit)', () => {
  fc.assert(
    fc.property(frameArb, options, (f, o) => {
      const bytes = enc(f);
      const lenient = decodeFrame(bytes, 0, bytes.length, { ...o, strict: false });
      const strict = onlyWireError(() => decodeFrame(bytes, 0, bytes.length, { ...o, strict: true }), 0, bytes.length);
      if (strict !== undefined) assert.deepEqual(strict, lenient);
    }),
    fcParams(SECONDARY_RUNS),
  );
});

/** Random bytes or a valid frame sequence with a few byte changes and cuts, somewhere inside a larger buffer. */
const garbage = fc
  .tuple(
    fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc
        .tuple(fc.array(frameArb, { minLength: 1, maxLength: 2 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), fc.option(fc.nat()))
        .map(([frames, flips, cut]) => {
          const b = encodeFrames(frames);
          for (const [at, x] of flips) b[at % b.length] = b[at % b.length]! ^ x;
          return cut === null ? b : b.subarray(0, cut % (b.length + 1));
        }),
    ),
    fc.uint8Array({ maxLength: 4 }),
    fc.uint8Array({ maxLength: 4 }),
  )
  .map(([g, before, after]) => {
    const buffer = new Uint8Array(before.length + g.length + after.length);
    buffer.set(before);
    buffer.set(g, before.length);
    buffer.set(after, before.length + g.length);
    return { buffer, offset: before.length, end: before.length + g.length };
  });

test('CONTRIBUTING.md, riodp link §2: random and mutated bytes throw nothing but WireError, offsets inside the input; what decodes leniently re-encodes bit for bit', () => {
  fc.assert(
    fc.property(garbage, options, (g, o: FrameDecodeOptions) => {
      onlyWireError(() => decodeFrame(g.buffer, g.offset, g.end, { ...o, strict: true }), g.offset, g.end);
      const d = onlyWireError(() => decodeFrame(g.buffer, g.offset, g.end, { ...o, strict: false }), g.offset, g.end);
      if (d === undefined) return;
      const out = enc(d);
      assert.equal(out.length, g.end - g.offset);
      // A packet's non-zero pad too: lenient decoding keeps it (rsrvPad, serial.ts).
      assert.equal(toHex(out), toHex(g.buffer.subarray(g.offset, g.end)));
    }),
    fcParams(),
  );
});

test('CONTRIBUTING.md: after garbage a valid frame still decodes to the same value', () => {
  fc.assert(
    fc.property(frameArb, garbage, (f, g) => {
      const bytes = enc(f);
      const before = raw(decodeFrame(bytes, 0, bytes.length));
      onlyWireError(() => decodeFrame(g.buffer, g.offset, g.end), g.offset, g.end);
      assert.deepEqual(raw(decodeFrame(bytes, 0, bytes.length)), before);
    }),
    fcParams(SECONDARY_RUNS),
  );
});
