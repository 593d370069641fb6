/**
 * Random capture records for the dissector comparison (docs/pcapng.md §2, "Wireshark dissector"):
 * every packet format and control symbol over its whole field ranges, reserved values included,
 * drawn with the fixed seed of test/support/fc.ts. Packets are built the way the frame and
 * format property tests build theirs (test/support/frames.ts): random bytes with the ftype, tt and
 * segment bits steered, kept when lenient decoding accepts them and serial framing gives them
 * back bit for bit. Symbols come from test/support/symbol.ts and frames.ts; session management
 * messages from the Chapter 4 vectors (test/cli/vectors.ts), mutated as src/cli/json/smp.prop.test.ts
 * mutates them, inside single-segment Type 11 and Type 9 packets.
 */
import fc from 'fast-check';
import { attempt } from '../../src/wire/errors.ts';
import { parseHex } from '../../src/wire/hex.ts';
import { decodePacket, decodeSerialPacket, encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from '../../src/wire/packet.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { encodeSymbol } from '../../src/wire/symbol.ts';
import type { SymbolFields } from '../../src/wire/symbol.ts';
import { cs64Frame, encodeFrame, frameLength } from '../../src/wire/frame.ts';
import { FC_SEED } from '../support/fc.ts';
import { closeArb, cs64Arb, helloArb, reservedArb, seededBytes } from '../support/frames.ts';
import { symbolFields } from '../support/symbol.ts';
import { PACKETS, SMP } from '../cli/vectors.ts';
import { smpOctetsArb } from './smp-records.ts';

/** One capture record: the bytes an Enhanced Packet Block carries (length, kind, body). */
export type Record = Uint8Array;

const int = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const ID_BYTES = [1, 2, 4] as const;

/** A record of `kind` around `body`: length(16) | kind | body (docs/pcapng.md §2). */
export function record(kind: number, body: Uint8Array): Record {
  const out = new Uint8Array(3 + body.length);
  out[0] = (body.length + 1) >> 8;
  out[1] = (body.length + 1) & 0xff;
  out[2] = kind;
  out.set(body, 3);
  return out;
}

/** Bytes after the transport IDs, in the shapes each format's layout allows (as test/support/frames.ts). */
function bodyBytes(ftype: number, k: number): number {
  if (ftype === 7) return 2;
  if (ftype === 10) return 4;
  if (ftype === 8) return 6 + 2 * k;
  if (ftype === 9) return 2 + 2 * k;
  return 2 + 4 * k;
}

/** The serial bytes of `p` when serial framing gives back the transport bytes `b`; undefined otherwise. */
function framed(p: Packet, b: Uint8Array, ackIdBits: 5 | 6): Uint8Array | undefined {
  const r = attempt(() => {
    const out = new Uint8Array(serialPacketLength(p));
    encodeSerialPacket(p, out, 0, ackIdBits);
    const back = decodeSerialPacket(out, 0, out.length, { ackIdBits });
    const again = new Uint8Array(packetLength(back));
    encodePacket(back, again, 0, ackIdBits);
    return again.length === b.length && again.every((x, i) => x === b[i]) ? out : undefined;
  });
  return r.ok ? r.value : undefined;
}

/**
 * TM OP, parameter 1 and parameter 2 of every message of Part 10 Tables 4-3 to 4-6: XOFF, XON,
 * user defined, Q_STATUS (basic, rate, credit), MAINTAIN, REDUCE, DOUBLE, INCREASE (average and
 * peak rates), ALLOCATE, CREDIT_STATUS, APPLICATION_DEFINED, and reserved values of each field.
 */
const TM_PARAMETERS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0], [0, 0, 0xff], [0, 0, 0x42], [0, 3, 0x80], [1, 3, 0], [2, 0x30, 0xff], [1, 1, 0], [1, 5, 0x20], [1, 2, 0xff],
  [1, 6, 0x10], [1, 2, 0], [1, 9, 1], [2, 0x13, 16], [2, 0x25, 0], [3, 0x77, 0x88], [7, 0, 0], [0, 9, 1], [2, 0x40, 1],
];

/**
 * LP-Serial packets of one ftype (serial bytes, CRCs included) that lenient decoding accepts, over
 * every tt, short and long (up to 284 bytes, so with and without the early CRC). Type 9's flags
 * byte is steered to each segment kind: single, start, continuation, end (and abort), TM (three
 * times as often, to reach every message), extended.
 */
export function serialPacketArb(ftype: number, ackIdBits: 5 | 6): fc.Arbitrary<Uint8Array> {
  return fc
    .record({ tt: int(2), prio: int(3), byte0: int(255), k: int(136), seg: int(7), flags: int(255), fill: seededBytes(280, 280) })
    .map(({ tt, prio, byte0, k, seg, flags, fill }): Uint8Array | undefined => {
      const ids = ID_BYTES[tt] as number;
      const n = Math.min(2 + 2 * ids + bodyBytes(ftype, ftype === 9 && seg >= 4 && seg !== 5 ? 3 : k), 280);
      const b = fill.slice(0, n);
      b[0] = byte0;
      b[1] = (prio << 6) | (tt << 4) | ftype;
      const flagsAt = 2 + 2 * ids + 1;
      // Type 9 (Part 10 Table 4-1): S, E, xh; seg 0–3 the data segments, 4 TM (xtype 0), 5 extended.
      if (ftype === 9 && flagsAt < n) b[flagsAt] = seg < 4 ? (flags & 0x3b) | ((seg & 3) << 6) : seg !== 5 ? (flags & 0xc3) | 0x04 : (flags & 0xc7) | 0x04 | (1 + (flags % 7)) << 3;
      // Type 9 TM (Part 10 Tables 4-3 to 4-6): TM OP, wildcard, mask and parameter 1 near the defined values.
      if (ftype === 9 && seg >= 4 && seg !== 5 && n === flagsAt + 7) {
        // Independent choices from the fill bytes past the packet: a message of each table, or any.
        const [c0, c1, c2] = [fill[277] as number, fill[278] as number, fill[279] as number];
        const pick = TM_PARAMETERS[c2 % (TM_PARAMETERS.length + 4)];
        b[flagsAt + 3] = ((pick?.[0] ?? c0 % 5) << 4) | (flags & 0x08) | ([0, 1, 3, 7][c0 >> 6] as number);
        b[flagsAt + 4] = c1 % 3 === 0 ? 0 : c1 % 3 === 1 ? (1 << (c1 % 9)) - 1 : (b[flagsAt + 4] as number);
        if (pick !== undefined) b.set(pick.slice(1), flagsAt + 5);
      }
      // Type 11: a third of the packets single-packet messages (msglen 0).
      if (ftype === 11 && flags % 3 === 0 && flagsAt - 1 < n) b[flagsAt - 1] = (b[flagsAt - 1] as number) & 0x0f;
      const p = attempt(() => decodePacket(b, 0, n, { ackIdBits }));
      return p.ok ? framed(p.value, b, ackIdBits) : undefined;
    })
    .filter((x): x is Uint8Array => x !== undefined);
}

/** Every riodp codec vector (test/cli/vectors.ts), serial bytes. */
export function vectorPackets(ackIdBits: 5 | 6): Uint8Array[] {
  return PACKETS.map(({ packet }) => {
    const out = new Uint8Array(serialPacketLength(packet));
    encodeSerialPacket({ ...packet, ackID: ackIdBits === 5 ? packet.ackID & 31 : packet.ackID }, out, 0, ackIdBits);
    return out;
  });
}

/** Session management octets: the Chapter 4 vectors, some octets replaced, and random commands. */
const smpOctets: fc.Arbitrary<Uint8Array> = fc.oneof(
  { arbitrary: smpOctetsArb(256), weight: 3 },
  fc.tuple(fc.constantFrom(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x10, 0xf0, 0x42), fc.uint8Array({ maxLength: 64 })).map(([c, rest]) => Uint8Array.of(c, ...rest)),
  fc
    .tuple(fc.constantFrom(...SMP.map(parseHex)), fc.array(fc.tuple(fc.nat(), int(255)), { maxLength: 3 }))
    .map(([seed, flips]) => {
      const b = Uint8Array.from(seed);
      for (const [at, v] of flips) b[at % b.length] = v;
      return b;
    }),
  fc.constantFrom(...SMP.map(parseHex)),
);

/**
 * Single-segment Type 11 messages (msglen 0) and single Type 9 segments carrying session
 * management octets (Annex 2 §3.3), serial bytes.
 */
export function smpPacketArb(ackIdBits: 5 | 6): fc.Arbitrary<Uint8Array> {
  return fc
    .record({ type9: fc.boolean(), tt: int(2), byte0: int(255), prio: int(3), ids: fc.tuple(int(0xffff), int(0xffff)), x: int(255), msg: smpOctets })
    .map(({ type9, tt, byte0, prio, ids, x, msg }): Uint8Array | undefined => {
      const idSize = ID_BYTES[tt] as number;
      const head = 2 + 2 * idSize;
      const payload = type9 ? msg : msg.subarray(0, msg.length & ~3);
      const body = type9 ? 4 + payload.length + (payload.length & 1) : 2 + payload.length;
      const b = new Uint8Array(head + body);
      b[0] = byte0 & (ackIdBits === 5 ? 0xfb : 0xff);
      b[1] = (prio << 6) | (tt << 4) | (type9 ? 9 : 11);
      for (let i = 0; i < idSize; i++) {
        b[2 + i] = (ids[0] >> (8 * (i % 2))) & 0xff;
        b[2 + idSize + i] = (ids[1] >> (8 * (i % 2))) & 0xff;
      }
      if (type9) {
        b[head] = x;
        // S = E = 1; O and P from the payload (Part 10 Table 4-2).
        b[head + 1] = 0xc0 | ((((payload.length + 1) >> 1) & 1) << 1) | (payload.length & 1);
        b[head + 2] = ids[0] >> 8;
        b[head + 3] = ids[0] & 0xff;
        b.set(payload, head + 4);
      } else {
        b[head] = x & 0x0f;
        b[head + 1] = (x * 7) & 0xff;
        b.set(payload, head + 2);
      }
      const p = attempt(() => decodePacket(b, 0, b.length, { ackIdBits }));
      return p.ok ? framed(p.value, b, ackIdBits) : undefined;
    })
    .filter((x): x is Uint8Array => x !== undefined && x.length <= 284);
}

/** The encoded CS24 or CS48 symbol of raw fields. */
function symbolOf(f: SymbolFields): Uint8Array {
  const out = new Uint8Array(f.link === 'cs24' ? 3 : 6);
  encodeSymbol(f, out, 0);
  return out;
}

export const cs24Arb: fc.Arbitrary<Uint8Array> = symbolFields.filter((f) => f.link === 'cs24').map(symbolOf);
export const cs48Arb: fc.Arbitrary<Uint8Array> = symbolFields.filter((f) => f.link === 'cs48').map(symbolOf);
/** CS64 symbols (8 bytes), stype0 VoQ-backpressure in a quarter of them (Part 12 §3.2). */
export const cs64SymbolArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  cs64Arb,
  fc.record({ p0: int(0xfff), p1: int(0xfff), stype1: int(255) }).map(({ p0, p1, stype1 }) => cs64Frame({ link: 'cs64', stype0: 0b1101, parameter0: p0, parameter1: p1, stype1 })),
).map((frame) => {
  const out = new Uint8Array(frameLength(frame));
  encodeFrame(frame, out, 0);
  return out.subarray(3);
});

/** HELLO, CLOSE and reserved-kind frames as records (their bytes are the record). */
export const linkFrameArb: fc.Arbitrary<Record> = fc.oneof(helloArb, closeArb, reservedArb).map((frame) => {
  const out = new Uint8Array(frameLength(frame));
  encodeFrame(frame, out, 0);
  return out;
});

/** `n` values of `arb`, drawn with the fixed seed (plus `salt`, so that captures differ). */
export function draw<T>(arb: fc.Arbitrary<T>, n: number, salt: number): T[] {
  return fc.sample(arb, { seed: FC_SEED + salt, numRuns: n });
}

/** Record kinds (docs/pcapng.md §2). */
export const KIND = { packet: 0x01, cs48: 0x02, cs64: 0x03, cs24: 0x04, packetCs24: 0x05, hello: 0x10, close: 0x11 } as const;

/**
 * `records` with one or two body bytes (after the length and kind) XORed with a non-zero value:
 * what a bad link delivers. Most fail their CRC; a flip of the prefix can make one malformed.
 */
export function corrupted(records: readonly Record[], salt: number): Record[] {
  const edits = draw(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 2 }), records.length, salt);
  return records.map((r, i) => {
    const out = r.slice();
    for (const [at, xor] of edits[i] ?? []) {
      const k = 3 + (at % (out.length - 3));
      out[k] = (out[k] as number) ^ xor;
    }
    return out;
  });
}
