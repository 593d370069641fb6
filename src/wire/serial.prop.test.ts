/**
 * The reserved bits of LP-Serial framing that no CRC covers (issue 16 item 6): the pad (Part 6
 * §2.3 "a two byte pad of all logic 0s") and, on CS24 links, ackID[5] (Part 6 §2.2 Table 2-1
 * "with the right-most bit of the field (ackID[5]) set to 0b0"). Lenient decoding keeps them
 * (`rsrvPad`, `rsrvAckID`) so that encoding the decoded packet reproduces the input bit for bit
 * (CONTRIBUTING.md "Lenient decoding"); strict decoding refuses them with a WireError naming the
 * field, its byte and the clause. Packets of every format and tt (test/support/frames.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { packetArb } from '../../test/support/frames.ts';
import { WireError } from './errors.ts';
import { toHex } from './hex.ts';
import { decodePacket, decodeSerialPacket, encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from './packet.ts';
import type { Packet } from './packet.ts';
import { EARLY_CRC_AT } from './serial.ts';

type AckIdBits = 5 | 6;

/** Whether the serial packet of `p` ends in a pad: its CRC(s) end on a half-word boundary. */
function hasPad(p: Packet): boolean {
  const n = packetLength(p);
  return serialPacketLength(p) !== n + 2 + (n > EARLY_CRC_AT ? 2 : 0);
}

/** `p` with an ackID the link's width holds. */
function fitted(p: Packet, ackIdBits: AckIdBits): Packet {
  return ackIdBits === 5 ? { ...p, ackID: p.ackID & 0x1f } : p;
}

/** The serial bytes of `p` with `pad` in its pad and, with 5-bit ackIDs, ackID[5] set to `bit`. */
function serialWith(p: Packet, ackIdBits: AckIdBits, pad: number, bit: number): Uint8Array {
  const out = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, out, 0, ackIdBits);
  if (hasPad(p)) {
    out[out.length - 2] = pad >> 8;
    out[out.length - 1] = pad & 0xff;
  }
  // ackID[5] is bit 5 of the 6-bit ackID field, bit 2 of byte 0 (Part 6 Figure 2-2).
  if (ackIdBits === 5 && bit === 1) out[0] = (out[0] as number) | 0x04;
  return out;
}

const reserved = (field: string, offset: number, clause: string) => (e: unknown): boolean =>
  e instanceof WireError && e.code === 'reserved' && e.field === field && e.offset === offset && e.clause === clause;

test('CONTRIBUTING.md lenient decoding, Part 6 §2.3 "a two byte pad of all logic 0s": a serial packet with any pad value decodes leniently with rsrvPad and re-encodes bit for bit; strict decoding refuses a non-zero pad naming pad, its byte and the clause', () => {
  fc.assert(
    fc.property(packetArb.filter(hasPad), fc.integer({ min: 1, max: 0xffff }), fc.constantFrom<AckIdBits>(5, 6), (packet, pad, ackIdBits) => {
      const p = fitted(packet, ackIdBits);
      const bytes = serialWith(p, ackIdBits, pad, 0);
      const d = decodeSerialPacket(bytes, 0, bytes.length, { ackIdBits });
      assert.equal(d.rsrvPad, pad);
      const out = new Uint8Array(serialPacketLength(d));
      encodeSerialPacket(d, out, 0, ackIdBits);
      assert.equal(toHex(out), toHex(bytes));
      assert.throws(() => decodeSerialPacket(bytes, 0, bytes.length, { ackIdBits, strict: true }), reserved('pad', bytes.length - 2, 'Part 6 §2.3'));
    }),
    fcParams(),
  );
});

test('CONTRIBUTING.md lenient decoding, Part 6 §2.2 Table 2-1 "ackID[5] set to 0b0": on a CS24 link a packet with ackID[5] = 1 decodes leniently with rsrvAckID, serial or transport, and re-encodes bit for bit; strict decoding refuses it naming ackID, byte 0 and the table', () => {
  fc.assert(
    fc.property(packetArb, (packet) => {
      const p = fitted(packet, 5);
      const serial = serialWith(p, 5, 0, 1);
      const d = decodeSerialPacket(serial, 0, serial.length, { ackIdBits: 5 });
      assert.deepEqual([d.ackID, d.rsrvAckID], [p.ackID, 1]);
      const out = new Uint8Array(serialPacketLength(d));
      encodeSerialPacket(d, out, 0, 5);
      assert.equal(toHex(out), toHex(serial));
      assert.throws(() => decodeSerialPacket(serial, 0, serial.length, { ackIdBits: 5, strict: true }), reserved('ackID', 0, 'Part 6 §2.2 Table 2-1'));
      const transport = serial.slice(0, packetLength(p));
      const t = decodePacket(transport, 0, transport.length, { ackIdBits: 5 });
      assert.equal(t.rsrvAckID, 1);
      const back = new Uint8Array(packetLength(t));
      encodePacket(t, back, 0, 5);
      assert.equal(toHex(back), toHex(transport));
      assert.throws(() => decodePacket(transport, 0, transport.length, { ackIdBits: 5, strict: true }), reserved('ackID', 0, 'Part 6 §2.2 Table 2-1'));
    }),
    fcParams(),
  );
});

test('CONTRIBUTING.md lenient decoding, Part 6 §2.2–§2.3: any pad and any ackID[5] together come back bit for bit; zeros add no field, and strict decoding finds nothing to refuse in the framing then', () => {
  fc.assert(
    fc.property(packetArb, fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), fc.integer({ min: 0, max: 1 }), fc.constantFrom<AckIdBits>(5, 6), (packet, pad, bit, ackIdBits) => {
      const p = fitted(packet, ackIdBits);
      const bytes = serialWith(p, ackIdBits, pad, bit);
      const d = decodeSerialPacket(bytes, 0, bytes.length, { ackIdBits });
      const out = new Uint8Array(serialPacketLength(d));
      encodeSerialPacket(d, out, 0, ackIdBits);
      assert.equal(toHex(out), toHex(bytes));
      const clean = d.rsrvPad === undefined && d.rsrvAckID === undefined;
      assert.equal(clean, (pad === 0 || !hasPad(p)) && (bit === 0 || ackIdBits === 6));
      if (!clean) return;
      // The pool also holds packets with reserved logical values, which strict decoding refuses on their own fields.
      try {
        decodeSerialPacket(bytes, 0, bytes.length, { ackIdBits, strict: true });
      } catch (e) {
        assert.ok(e instanceof WireError && e.field !== 'pad' && e.field !== 'ackID', String(e));
      }
    }),
    fcParams(),
  );
});
