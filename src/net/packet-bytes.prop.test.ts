import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, FC_RUNS_MODEL, fcParams } from '../../test/support/fc.ts';
import { packetArb } from '../../test/support/frames.ts';
import { FRAME_HEADER_BYTES, packetFrame } from '../wire/frame.ts';
import { decodeSerialPacket, encodeSerialPacket, packetLength, serialPacketLength } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { EARLY_CRC_AT } from '../wire/serial.ts';
import { ReceivedBytes } from '../wire/received-bytes.ts';
import { SendBatch } from './send-batch.ts';

function capture(): { writes: Uint8Array[]; destroyed: boolean; write(c: Uint8Array): boolean } {
  return { writes: [], destroyed: false, write(c) { this.writes.push(c); return true; } };
}

/** A received serial packet: `p` encoded at `at` in a larger chunk, its pad (Part 6 §2.3), if it has one, set to `pad`. */
function received(p: Packet, at: number, pad: number): { chunk: Uint8Array; end: number; hasPad: boolean } {
  const chunk = new Uint8Array(at + serialPacketLength(p) + 3).fill(0xa5);
  const end = encodeSerialPacket(p, chunk, at);
  const n = packetLength(p);
  const hasPad = (n + 2 + (n > EARLY_CRC_AT ? 2 : 0)) % 4 !== 0;
  if (hasPad) {
    chunk[end - 2] = pad >> 8;
    chunk[end - 1] = pad & 0xff;
  }
  return { chunk, end, hasPad };
}

test('Part 6 §2.3, §2.4 (decision DP1): the bytes a packet arrived in, which a switch link keeps for forwarding, are exactly what the encoder writes for the decoded packet, a non-zero pad included (kept as rsrvPad)', () => {
  const seen = { padded: 0, zero: 0 };
  fc.assert(
    fc.property(packetArb, fc.integer({ min: 0, max: 40 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), (p, at, pad) => {
      const { chunk, end, hasPad } = received(p, at, pad);
      const decoded = decodeSerialPacket(chunk, at, end);
      const encoded = new Uint8Array(serialPacketLength(decoded));
      encodeSerialPacket(decoded, encoded, 0);
      assert.equal(Buffer.compare(encoded, chunk.subarray(at, end)), 0);
      assert.equal(decoded.rsrvPad, hasPad && pad !== 0 ? pad : undefined);
      seen[hasPad && pad !== 0 ? 'padded' : 'zero']++;
    }),
    fcParams(FC_RUNS_MODEL),
  );
  assert.ok(seen.padded > 0 && seen.zero > 0, JSON.stringify(seen));
});

test('riodp link §3.1 (decision DP1): a packet frame around kept bytes is byte for byte the frame the encoder writes for the packet, whatever its pad', () => {
  fc.assert(
    fc.property(packetArb, fc.integer({ min: 0, max: 40 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), (p, at, pad) => {
      const { chunk, end } = received(p, at, pad);
      const decoded = decodeSerialPacket(chunk, at, end);
      const kept = new ReceivedBytes(chunk, at, end);
      const viaBytes = capture();
      const viaEncoder = capture();
      const a = new SendBatch(viaBytes, 1024);
      const b = new SendBatch(viaEncoder, 1024);
      a.addPacketBytes(kept.bytes, kept.start, kept.end);
      b.add(packetFrame(decoded));
      a.flush();
      b.flush();
      assert.deepEqual(viaBytes.writes, viaEncoder.writes);
      assert.equal(viaBytes.writes[0]?.length, FRAME_HEADER_BYTES + end - at);
    }),
    // Two batches and a decode a case: 5000 cases (~1.5 s), more under `npm run fuzz`.
    fcParams(Math.max(1, Math.floor(FC_RUNS / 20))),
  );
});
