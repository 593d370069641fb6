import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../support/fc.ts';
import { WireError, attempt } from '../../src/wire/errors.ts';
import { toHex } from '../../src/wire/hex.ts';
import { decodePacket, decodeSerialPacket, encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from '../../src/wire/packet.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { decodeSymbol, encodeSymbol, symbolLength } from '../../src/wire/symbol.ts';
import type { SymbolFields, SymbolOptions } from '../../src/wire/symbol.ts';
import { PACKETS } from '../cli/vectors.ts';

/**
 * Robustness of the top-level dispatchers (CONTRIBUTING.md, Tests): whatever bytes arrive —
 * random, or a valid packet or symbol of any format and tt with a few mutations — decoding
 * throws nothing but WireError, with its byte offset inside the bytes it was given; the decoders
 * keep no state that garbage can spoil; and lenient decoding is bit-exact at the transport level.
 */

const FTYPES = [7, 8, 9, 10, 11, 13] as const;
const ID_BYTES = [1, 2, 4] as const;
type AckIdBits = 5 | 6;

interface Valid {
  readonly ackIdBits: AckIdBits;
  /** Prefix to last logical field (`decodePacket`). */
  readonly transport: Uint8Array;
  /** The same packet with CRC(s) and pad (`decodeSerialPacket`). */
  readonly serial: Uint8Array;
}

function encodeBoth(p: Packet, ackIdBits: AckIdBits): Valid {
  const transport = new Uint8Array(packetLength(p));
  encodePacket(p, transport, 0, ackIdBits);
  const serial = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, serial, 0, ackIdBits);
  return { ackIdBits, transport, serial };
}

/** Codec-built packets strict decoding accepts (test/cli/vectors.ts), on both link widths. */
const STRICT_POOL: readonly Valid[] = PACKETS.flatMap(({ packet }) =>
  ([5, 6] as const).flatMap((bits) => {
    const r = attempt(() => encodeBoth(packet, bits));
    return r.ok ? [r.value] : [];
  }),
);

/**
 * Bytes after the transport IDs for length index k (0–32), in shapes each format's layout allows:
 * fixed for Types 7 and 10, double-word payloads for 8, 11 and 13, any length for 9.
 */
function bodyBytes(ftype: number, k: number): number {
  switch (ftype) {
    case 7:
      return 2;
    case 10:
      return 4;
    case 8:
      return 6 + 8 * (k % 9);
    case 11:
    case 13:
      return 2 + 8 * k;
    default:
      return 2 + 7 * k;
  }
}

/**
 * Random packets of every ftype and tt that lenient decoding accepts (reserved values and bits
 * included), with their serial framing; those that serial framing cannot carry are dropped.
 */
const randomValid: fc.Arbitrary<Valid> = fc
  .record({
    ftype: fc.constantFrom(...FTYPES),
    tt: fc.integer({ min: 0, max: 2 }),
    prio: fc.integer({ min: 0, max: 3 }),
    byte0: fc.integer({ min: 0, max: 255 }),
    k: fc.integer({ min: 0, max: 32 }),
    ackIdBits: fc.constantFrom<AckIdBits>(5, 6),
    fill: fc.uint8Array({ minLength: 272, maxLength: 272 }),
  })
  .map(({ ftype, tt, prio, byte0, k, ackIdBits, fill }): Valid | undefined => {
    const n = 2 + 2 * (ID_BYTES[tt] as number) + bodyBytes(ftype, k);
    const b = fill.slice(0, n);
    // ackID[5] is reserved (0) on CS24 links, Part 6 §2.2 Table 2-1.
    b[0] = ackIdBits === 5 ? byte0 & ~0x04 : byte0;
    b[1] = (prio << 6) | (tt << 4) | ftype;
    const p = attempt(() => decodePacket(b, 0, n, { ackIdBits }));
    if (!p.ok) return undefined;
    const both = attempt(() => encodeBoth(p.value, ackIdBits));
    if (!both.ok || !attempt(() => decodeSerialPacket(both.value.serial, 0, both.value.serial.length, { ackIdBits })).ok) return undefined;
    return both.value;
  })
  .filter((v): v is Valid => v !== undefined);

const validPacket: fc.Arbitrary<Valid> = fc.oneof(fc.constantFrom(...STRICT_POOL), randomValid);

type Mutation =
  | { readonly op: 'flip'; readonly at: number; readonly bit: number }
  | { readonly op: 'set'; readonly at: number; readonly value: number }
  | { readonly op: 'truncate'; readonly at: number }
  | { readonly op: 'insert'; readonly at: number; readonly bytes: Uint8Array }
  | { readonly op: 'prefix'; readonly ftype: number; readonly tt: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  // Another ftype (supported or not) or tt (0b11 reserved) under the same body.
  fc.record({ op: fc.constant('prefix' as const), ftype: fc.integer({ min: 0, max: 15 }), tt: fc.integer({ min: 0, max: 3 }) }),
);

function mutate(bytes: Uint8Array, ms: readonly Mutation[]): Uint8Array {
  let b = bytes.slice();
  for (const m of ms) {
    const at = b.length === 0 ? 0 : ('at' in m ? m.at : 0) % b.length;
    switch (m.op) {
      case 'flip':
        if (b.length > 0) b[at] = (b[at] as number) ^ (1 << m.bit);
        break;
      case 'set':
        if (b.length > 0) b[at] = m.value;
        break;
      case 'truncate':
        b = b.slice(0, at);
        break;
      case 'insert': {
        const out = new Uint8Array(b.length + m.bytes.length);
        out.set(b.subarray(0, at), 0);
        out.set(m.bytes, at);
        out.set(b.subarray(at), at + m.bytes.length);
        b = out;
        break;
      }
      case 'prefix':
        if (b.length > 1) b[1] = ((b[1] as number) & 0xc0) | (m.tt << 4) | m.ftype;
        break;
    }
  }
  return b;
}

/** Garbage placed at an offset inside a larger buffer, so that error offsets are checked as absolute. */
interface Placed {
  readonly buffer: Uint8Array;
  readonly offset: number;
  readonly end: number;
}

function place(bytes: Uint8Array, before: Uint8Array, after: Uint8Array): Placed {
  const buffer = new Uint8Array(before.length + bytes.length + after.length);
  buffer.set(before, 0);
  buffer.set(bytes, before.length);
  buffer.set(after, before.length + bytes.length);
  return { buffer, offset: before.length, end: before.length + bytes.length };
}

const margin = fc.uint8Array({ maxLength: 6 });
const packetGarbage: fc.Arbitrary<Placed> = fc
  .tuple(
    fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.tuple(validPacket, fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([v, serial, ms]) => mutate(serial ? v.serial : v.transport, ms)),
    ),
    margin,
    margin,
  )
  .map(([b, before, after]) => place(b, before, after));

/**
 * Runs `fn`; anything thrown must be a WireError whose offset lies in [offset, end] of the
 * caller's bytes (CONTRIBUTING.md: the offset is absolute, into `bytes`). Returns the value or
 * undefined.
 */
function decodeOrWireError<T>(fn: () => T, at: Placed): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    assert.ok(Number.isInteger(e.offset) && e.offset >= at.offset && e.offset <= at.end, `${e.message}: offset outside [${at.offset}, ${at.end}]`);
    assert.ok(e.field !== '' && e.clause !== '', e.message);
    return undefined;
  }
}

const MODES = [
  { strict: false, ackIdBits: 6 },
  { strict: true, ackIdBits: 6 },
  { strict: false, ackIdBits: 5 },
  { strict: true, ackIdBits: 5 },
] as const;

function decodeAllWays(g: Placed): void {
  for (const opts of MODES) {
    decodeOrWireError(() => decodeSerialPacket(g.buffer, g.offset, g.end, opts), g);
    decodeOrWireError(() => decodePacket(g.buffer, g.offset, g.end, opts), g);
  }
}

/** A decoded value with its byte views as hex: equal snapshots mean equal values, now and later. */
function snapshot(v: unknown): unknown {
  if (v instanceof Uint8Array) return toHex(v);
  if (Array.isArray(v)) return v.map(snapshot);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, snapshot(x)]));
  return v;
}

test('Part 6 §2.3, Part 3 §2.4: random and mutated packets of every ftype and tt throw only WireError from decodeSerialPacket and decodePacket, strict or lenient, with the offset inside the bytes', () => {
  fc.assert(
    fc.property(packetGarbage, (g) => {
      decodeAllWays(g);
    }),
    fcParams(),
  );
});

test('CONTRIBUTING.md: after garbage a valid packet still decodes to the same value, and values decoded before are unchanged', () => {
  fc.assert(
    fc.property(validPacket, fc.array(packetGarbage, { minLength: 1, maxLength: 2 }), (v, garbage) => {
      const opts = { ackIdBits: v.ackIdBits };
      const strictOk = attempt(() => decodeSerialPacket(v.serial, 0, v.serial.length, { ...opts, strict: true })).ok;
      const before = {
        serial: decodeSerialPacket(v.serial, 0, v.serial.length, opts),
        transport: decodePacket(v.transport, 0, v.transport.length, opts),
      };
      const seen = snapshot(before);
      for (const g of garbage) decodeAllWays(g);
      const after = {
        serial: decodeSerialPacket(v.serial, 0, v.serial.length, opts),
        transport: decodePacket(v.transport, 0, v.transport.length, opts),
      };
      assert.deepEqual(snapshot(after), seen);
      assert.deepEqual(snapshot(before), seen, 'a value decoded before the garbage changed');
      assert.equal(attempt(() => decodeSerialPacket(v.serial, 0, v.serial.length, { ...opts, strict: true })).ok, strictOk);
    }),
    fcParams(),
  );
});

/**
 * Lenient decodePacket → encodePacket gives the input bytes back; true when it decoded at all.
 * On CS24 links ackID[5] "shall be set to 0b0" (Part 6 Table 2-1) and lies outside the CRC:
 * lenient decoding keeps a 1 there as `rsrvAckID`, so that bit comes back too.
 */
function transportBitExact(g: Placed, ackIdBits: AckIdBits): boolean {
  const p = decodeOrWireError(() => decodePacket(g.buffer, g.offset, g.end, { ackIdBits }), g);
  if (p === undefined) return false;
  const out = new Uint8Array(packetLength(p));
  assert.equal(encodePacket(p, out, 0, ackIdBits), out.length);
  assert.equal(toHex(out), toHex(g.buffer.subarray(g.offset, g.end)));
  return true;
}

test('CONTRIBUTING.md lenient decoding: whatever decodePacket accepts leniently re-encodes to the same bytes (6-bit ackIDs)', () => {
  let decoded = 0;
  fc.assert(
    fc.property(packetGarbage, (g) => {
      if (transportBitExact(g, 6)) decoded++;
    }),
    fcParams(),
  );
  // Most mutations leave something lenient decoding accepts; the property is not vacuous.
  assert.ok(decoded > fcParams().numRuns / 10, `only ${decoded} inputs decoded`);
});

test(
  'CONTRIBUTING.md lenient decoding, Part 6 §2.2 Table 2-1: on a CS24 link (5-bit ackIDs) lenient decoding re-encodes to the same bytes, ackID[5] kept as rsrvAckID',
  () => {
    fc.assert(
      fc.property(packetGarbage, (g) => {
        transportBitExact(g, 5);
      }),
      fcParams(),
    );
  },
);

test('Part 6 §2.4.1, §2.3, §2.2 Table 2-1: whatever decodeSerialPacket accepts leniently re-encodes to the same bytes, CRCs and pad included (a non-zero pad kept as rsrvPad, ackID[5] on CS24 links as rsrvAckID)', () => {
  fc.assert(
    fc.property(packetGarbage, fc.constantFrom<AckIdBits>(5, 6), (g, ackIdBits) => {
      const p = decodeOrWireError(() => decodeSerialPacket(g.buffer, g.offset, g.end, { ackIdBits }), g);
      if (p === undefined) return;
      const out = new Uint8Array(serialPacketLength(p));
      encodeSerialPacket(p, out, 0, ackIdBits);
      assert.equal(toHex(out), toHex(g.buffer.subarray(g.offset, g.end)));
    }),
    fcParams(),
  );
});

// ---- control symbols ----

const int = (max: number) => fc.integer({ min: 0, max });
const symbolFields: fc.Arbitrary<SymbolFields> = fc.oneof(
  fc.record({ link: fc.constant('cs24' as const), stype0: int(7), parameter0: int(31), parameter1: int(31), stype1: int(7), cmd: int(7) }),
  fc.record({ link: fc.constant('cs48' as const), stype0: int(7), parameter0: int(63), parameter1: int(63), stype1: int(7), cmd: int(7), stype2: int(0x3fff) }),
);

const symbolOptions: fc.Arbitrary<SymbolOptions> = fc.record({
  link: fc.constantFrom('cs24' as const, 'cs48' as const),
  voqFormat: fc.constantFrom('seed' as const, 'part12-rev4.1' as const),
  part12GroupSize: int(6),
  strict: fc.boolean(),
});

function symbolBytes(f: SymbolFields): Uint8Array {
  const out = new Uint8Array(symbolLength(f.link));
  encodeSymbol(f, out, 0);
  return out;
}

const symbolGarbage: fc.Arbitrary<Placed> = fc
  .tuple(
    fc.oneof(
      fc.uint8Array({ maxLength: 8 }),
      fc.tuple(symbolFields, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([f, ms]) => mutate(symbolBytes(f), ms)),
    ),
    margin,
    margin,
  )
  .map(([b, before, after]) => place(b, before, after));

test('Part 6 §3.3, §3.6: random and mutated CS24/CS48 symbols throw only WireError from decodeSymbol in both VoQ formats; a valid symbol decodes the same afterwards; lenient results re-encode bit for bit', () => {
  fc.assert(
    fc.property(symbolFields, symbolOptions, fc.array(fc.tuple(symbolGarbage, symbolOptions), { minLength: 1, maxLength: 3 }), (f, o, garbage) => {
      const valid = symbolBytes(f);
      const opts: SymbolOptions = { ...o, link: f.link };
      const first = attempt(() => decodeSymbol(valid, 0, valid.length, opts));
      const seen = snapshot(first);
      for (const [g, go] of garbage) {
        const s = decodeOrWireError(() => decodeSymbol(g.buffer, g.offset, g.end, go), g);
        if (s !== undefined && go.strict !== true) {
          assert.equal(toHex(symbolBytes(s)), toHex(g.buffer.subarray(g.offset, g.end)));
        }
      }
      assert.deepEqual(snapshot(attempt(() => decodeSymbol(valid, 0, valid.length, opts))), seen);
      if (!opts.strict) assert.ok(first.ok, 'lenient decoding accepts every CRC-valid symbol');
    }),
    fcParams(),
  );
});
