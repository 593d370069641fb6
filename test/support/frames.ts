/**
 * riodp link frame arbitraries (docs/net-framing.md), shared by the frame codec's and the frame
 * reader's property tests: every kind over its whole field ranges, reserved values included, and
 * packets of every ftype and tt that lenient decoding accepts and serial framing can carry.
 */
import fc from 'fast-check';
import { attempt } from '../../src/wire/errors.ts';
import { CLOSE_TEXT_MAX, FRAME_KIND, clipUtf8, closeFrame, cs48Frame, cs64Frame, encodeFrame, frameLength, helloFrame, packetFrame } from '../../src/wire/frame.ts';
import type { CloseReason, Frame } from '../../src/wire/frame.ts';
import { decodePacket, decodeSerialPacket, encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from '../../src/wire/packet.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { PACKETS } from '../cli/vectors.ts';

const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });

/**
 * Bytes of a random length filled from a seed (xorshift32): drawing each of hundreds of bytes
 * from fast-check would cost most of a 100k-run property's time, and their values matter less
 * than their lengths here.
 */
export function seededBytes(minLength: number, maxLength: number): fc.Arbitrary<Uint8Array> {
  return fc.record({ n: fc.integer({ min: minLength, max: maxLength }), seed: fc.integer({ min: 1, max: 0x7fffffff }) }).map(({ n, seed }) => {
    const out = new Uint8Array(n);
    let x = seed;
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  });
}
const ID_BYTES = [1, 2, 4] as const;

/** Bytes after the transport IDs, in the shapes each format's layout allows (as test/wire/dispatch.prop.test.ts). */
function bodyBytes(ftype: number, k: number): number {
  if (ftype === 7) return 2;
  if (ftype === 10) return 4;
  if (ftype === 8) return 6 + 8 * (k % 9);
  if (ftype === 11 || ftype === 13) return 2 + 8 * k;
  return 2 + 7 * k;
}

/** Packets of every ftype and tt lenient decoding accepts (6-bit ackIDs), short and long. */
const randomPacket: fc.Arbitrary<Packet> = fc
  .record({
    ftype: fc.constantFrom(7, 8, 9, 10, 11, 13),
    tt: int(2),
    prio: int(3),
    byte0: int(255),
    k: int(32),
    fill: seededBytes(272, 272),
  })
  .map(({ ftype, tt, prio, byte0, k, fill }): Packet | undefined => {
    const n = 2 + 2 * (ID_BYTES[tt] as number) + bodyBytes(ftype, k);
    const b = fill.slice(0, n);
    b[0] = byte0;
    b[1] = (prio << 6) | (tt << 4) | ftype;
    const p = attempt(() => decodePacket(b, 0, n, { ackIdBits: 6 }));
    if (!p.ok) return undefined;
    // Serial framing finds the CRC from the format's half-word parity: a packet whose parity
    // field (Type 9's O bit) disagrees with its length frames but does not decode.
    const serial = attempt(() => {
      const out = new Uint8Array(serialPacketLength(p.value));
      encodeSerialPacket(p.value, out, 0);
      const back = decodeSerialPacket(out, 0, out.length);
      const again = new Uint8Array(packetLength(back));
      encodePacket(back, again, 0);
      return again.length === n && again.every((x, i) => x === b[i]);
    });
    return serial.ok && serial.value ? p.value : undefined;
  })
  .filter((p): p is Packet => p !== undefined);

/**
 * The codec vectors and 600 random packets drawn once with the fixed seed: the packet codecs have
 * their own 100k-run properties, and what the frame layer adds depends on a packet's length and
 * kind, not on its fields, so a pool keeps each frame property's run cheap.
 */
const POOL: readonly Packet[] = [...PACKETS.map((p) => p.packet), ...fc.sample(randomPacket, { seed: 0x5eed, numRuns: 600 })];
export const packetArb: fc.Arbitrary<Packet> = fc.constantFrom(...POOL);

/** A packet as decoding returns it (constructors may leave out fields a decoder fills in, such as Type 9's O bit). */
export function canonicalPacket(p: Packet): Packet {
  let c = canonical.get(p);
  if (c === undefined) {
    const out = new Uint8Array(packetLength(p));
    encodePacket(p, out, 0);
    c = decodePacket(out, 0, out.length);
    canonical.set(p, c);
  }
  return c;
}
const canonical = new WeakMap<Packet, Packet>();

export const cs48Arb = fc
  .record({ stype0: int(7), parameter0: int(63), parameter1: int(63), stype1: int(7), cmd: int(7), stype2: int(0x3fff) })
  .map((f) => cs48Frame({ link: 'cs48' as const, ...f }));

export const cs64Arb = fc
  .record({ stype0: int(15), parameter0: int(0xfff), parameter1: int(0xfff), stype1: int(255), a0: int(3), a1: int(3) })
  .map(({ a0, a1, ...f }) => cs64Frame({ link: 'cs64' as const, ...f, ...(a0 === 0 ? {} : { alignment0: a0 }), ...(a1 === 0 ? {} : { alignment1: a1 }) }));

export const helloArb = fc
  .record({ version: int(255), ext: fc.uint8Array({ maxLength: 16 }) })
  .map(({ version, ext }) => (ext.length === 0 ? helloFrame(version) : { ...helloFrame(version), ext }));

export const closeArb = fc
  .record({ reason: int(255), text: fc.string({ unit: 'grapheme', maxLength: 80 }) })
  .map(({ reason, text }) => closeFrame(reason as CloseReason, clipUtf8(text, CLOSE_TEXT_MAX)));

const DEFINED = new Set<number>(Object.values(FRAME_KIND));
export const reservedArb = fc
  .record({ kind: int(255).filter((k) => !DEFINED.has(k)), body: seededBytes(0, 280) })
  .map(({ kind, body }): Frame => ({ kind, kindName: 'RESERVED', body }));

export const frameArb: fc.Arbitrary<Frame> = fc.oneof(
  { arbitrary: packetArb.map((p): Frame => packetFrame(p)), weight: 4 },
  { arbitrary: cs48Arb, weight: 2 },
  { arbitrary: cs64Arb, weight: 2 },
  { arbitrary: helloArb, weight: 1 },
  { arbitrary: closeArb, weight: 1 },
  { arbitrary: reservedArb, weight: 1 },
);

export function encodeFrames(frames: readonly Frame[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + frameLength(f), 0));
  frames.reduce((at, f) => encodeFrame(f, out, at), 0);
  return out;
}
