/**
 * The property harness shared by the logical packet formats built from raw fields (Types 8, 11
 * and 13): the prefix and transport fields over their whole ranges, and the robustness
 * properties CONTRIBUTING.md asks of every codec — random and mutated bytes throw nothing but
 * WireError, and a valid packet still decodes afterwards — at the transport level and through
 * serial framing (Part 6 §2.4). Each test file keeps its own test names and format fields.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogicalCodec } from '../../src/wire/codec.ts';
import { WireError } from '../../src/wire/errors.ts';
import type { PacketHeader } from '../../src/wire/header.ts';
import { decodeSerial, encodeSerial, serialLength } from '../../src/wire/serial.ts';

export const bit = fc.integer({ min: 0, max: 1 });
export const nibble = fc.integer({ min: 0, max: 0xf });
export const byte = fc.integer({ min: 0, max: 0xff });
/** A device ID of the width tt selects: 8, 16 or 32 bits. */
export const idFor = (tt: number): fc.Arbitrary<number> => fc.integer({ min: 0, max: tt === 0 ? 0xff : tt === 1 ? 0xffff : 0xffffffff });
/** A payload of 0 to `maxDw` whole double-words. */
export const dwPayload = (maxDw: number): fc.Arbitrary<Uint8Array> =>
  fc.integer({ min: 0, max: maxDw }).chain((n) => fc.uint8Array({ minLength: n * 8, maxLength: n * 8 }));

/** The prefix and transport fields every format's raw fields start with. */
export interface TransportFields extends PacketHeader {
  readonly destinationID: number;
  readonly sourceID: number;
}

/** A packet whose payload runs to its end. */
type WithPayload = PacketHeader & { readonly payload: Uint8Array };

/**
 * Every field over its whole range, reserved values included: the prefix (ackID for either link
 * width), the transport fields for every tt, then the format's own fields from `body`.
 */
export function fieldsArb<F extends TransportFields>(
  ftype: number,
  body: { readonly [K in Exclude<keyof F, keyof TransportFields>]: fc.Arbitrary<F[K]> },
): fc.Arbitrary<{ f: F; ackIdBits: 5 | 6 }> {
  return fc.record({ ackIdBits: fc.constantFrom<5 | 6>(5, 6), tt: fc.integer({ min: 0, max: 2 }) }).chain(({ ackIdBits, tt }) =>
    fc.record({
      ackIdBits: fc.constant(ackIdBits),
      f: fc.record({
        ackID: fc.integer({ min: 0, max: ackIdBits === 5 ? 31 : 63 }),
        vc: bit,
        crf: bit,
        prio: fc.integer({ min: 0, max: 3 }),
        tt: fc.constant(tt),
        ftype: fc.constant(ftype),
        destinationID: idFor(tt),
        sourceID: idFor(tt),
        ...body,
      }) as fc.Arbitrary<F>,
    }),
  );
}

/** `encode` for a codec: the transport-level bytes of a packet, 6-bit ackID unless told. */
export function encoder<P extends PacketHeader>(codec: LogicalCodec<P>): (p: P, ackIdBits?: 5 | 6) => Uint8Array {
  return (p, ackIdBits = 6) => {
    const out = new Uint8Array(codec.encodedLength(p));
    codec.encode(p, out, 0, ackIdBits);
    return out;
  };
}

/** Runs `fn`; anything thrown other than a WireError fails the property. */
export function onlyWireError<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

/** One to four byte flips and, sometimes, a cut. */
export interface Mutation {
  flips: { at: number; xor: number }[];
  cut: number | null;
}
export const mutation: fc.Arbitrary<Mutation> = fc.record({
  flips: fc.array(fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 0xff }) }), { minLength: 1, maxLength: 4 }),
  cut: fc.option(fc.nat()),
});

export function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const out = bytes.slice(0, m.cut === null ? bytes.length : m.cut % (bytes.length + 1));
  for (const { at, xor } of m.flips) if (out.length > 0) out[at % out.length]! ^= xor;
  return out;
}

/**
 * Random bytes, half of them with the codec's ftype forced, throw nothing but WireError when
 * decoded strictly or leniently; a lenient decode re-encodes bit for bit.
 */
export function randomBytesProperty<P extends PacketHeader>(codec: LogicalCodec<P>): fc.IPropertyWithHooks<[Uint8Array, boolean]> {
  const encode = encoder(codec);
  return fc.property(fc.uint8Array({ maxLength: 90 }), fc.boolean(), (raw, force) => {
    const bytes = raw.slice();
    if (force && bytes.length > 1) bytes[1] = (bytes[1]! & 0xf0) | codec.ftype;
    onlyWireError(() => codec.decode(bytes, 0, bytes.length, { strict: true }));
    const p = onlyWireError(() => codec.decode(bytes, 0, bytes.length, {}));
    if (p !== undefined) assert.deepEqual(encode(p), bytes);
  });
}

/** Mutations of a conforming packet throw nothing but WireError, and the packet still decodes strictly to itself. */
export function mutatedPacketProperty<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  conforming: fc.Arbitrary<P>,
): fc.IPropertyWithHooks<[P, Mutation]> {
  const encode = encoder(codec);
  return fc.property(conforming, mutation, (p, m) => {
    const bytes = encode(p);
    const bad = mutate(bytes, m);
    onlyWireError(() => codec.decode(bad, 0, bad.length, { strict: true }));
    onlyWireError(() => codec.decode(bad, 0, bad.length, {}));
    assert.deepEqual(codec.decode(bytes, 0, bytes.length, { strict: true }), p);
  });
}

/**
 * Part 6 §2.4: packets from `fields` (whole double-words of payload) survive serial framing, with
 * the early CRC exactly when the packet is over 80 bytes; mutated serial bytes and noise throw
 * nothing but WireError, and the original still decodes.
 */
export function serialFramingProperty<F, P extends WithPayload>(
  codec: LogicalCodec<P>,
  fields: fc.Arbitrary<{ f: F }>,
  fromFields: (f: F) => P,
): fc.IPropertyWithHooks<[{ f: F }, Mutation, Uint8Array]> {
  return fc.property(fields, mutation, fc.uint8Array({ maxLength: 96 }), ({ f }, m, noise) => {
    const p = fromFields(f);
    const serial = new Uint8Array(serialLength(codec.encodedLength(p)));
    encodeSerial(codec, p, serial, 0);
    const { crc, earlyCrc, ...back } = decodeSerial(codec, serial, 0, serial.length);
    assert.equal(typeof crc, 'number');
    assert.equal(earlyCrc === undefined, codec.encodedLength(p) <= 80);
    assert.deepEqual(back, p);
    const bad = mutate(serial, m);
    onlyWireError(() => decodeSerial(codec, bad, 0, bad.length, { strict: true }));
    onlyWireError(() => decodeSerial(codec, noise, 0, noise.length));
    assert.deepEqual(decodeSerial(codec, serial, 0, serial.length).payload, p.payload);
  });
}

/**
 * Packets a constructor builds satisfy every strict rule: they decode strictly to themselves at
 * the transport level and through serial framing (Part 6 §2.4), with the early CRC exactly when
 * the packet is over 80 bytes.
 */
export function strictRoundTripProperty<P extends PacketHeader>(codec: LogicalCodec<P>, conforming: fc.Arbitrary<P>): fc.IPropertyWithHooks<[P]> {
  const encode = encoder(codec);
  return fc.property(conforming, (p) => {
    const bytes = encode(p);
    assert.deepEqual(codec.decode(bytes, 0, bytes.length, { strict: true }), p);
    const serial = new Uint8Array(serialLength(bytes.length));
    encodeSerial(codec, p, serial, 0);
    const { crc, earlyCrc, ...back } = decodeSerial(codec, serial, 0, serial.length, { strict: true });
    assert.equal(typeof crc, 'number');
    assert.equal(earlyCrc === undefined, bytes.length <= 80);
    assert.deepEqual(back, p);
  });
}
