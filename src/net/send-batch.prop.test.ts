import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { frameArb, packetArb } from '../../test/support/frames.ts';
import { WireError } from '../wire/errors.ts';
import { encodeFrame, frameLength, packetFrame } from '../wire/frame.ts';
import type { Frame } from '../wire/frame.ts';
import { encodeSerialPacket, packetLength, serialPacketLength } from '../wire/packet.ts';
import { EARLY_CRC_AT } from '../wire/serial.ts';
import type { Packet } from '../wire/packet.ts';
import { SendBatch } from './send-batch.ts';

/**
 * Issue 17 "WebAssembly CRC in every encoder": packet frames added to a SendBatch are encoded
 * without CRCs and get them in one batched call before the batch is written. What leaves must be
 * byte for byte what encodeFrame writes (Part 6 §2.4.1 early and final CRC, §2.3 pad, riodp link
 * §3.1 frame), whatever else is in the batch, wherever it is flushed, and a frame that does not
 * encode must throw encodeFrame's WireError and leave the batch as it was.
 */

function capture(): { writes: Uint8Array[]; destroyed: boolean; write(c: Uint8Array): boolean } {
  return { writes: [], destroyed: false, write(c) { this.writes.push(c); return true; } };
}

const concat = (parts: readonly Uint8Array[]): Uint8Array => Buffer.concat(parts);

/** Part 6 §2.3: a pad follows the CRC when the packet would not end on a 32-bit boundary. */
function hasPad(p: Packet): boolean {
  const n = packetLength(p);
  return (n + 2 + (n > EARLY_CRC_AT ? 2 : 0)) % 4 !== 0;
}

/** A packet, sometimes with a non-zero pad (SerialFields.rsrvPad: kept by lenient decoding, refused by packets without a pad). */
const paddedArb: fc.Arbitrary<Packet> = fc
  .tuple(packetArb, fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 0xffff }), weight: 1 }))
  .map(([p, pad]) => (pad === 0 || !hasPad(p) ? p : ({ ...p, rsrvPad: pad } as unknown as Packet)));

/** Packets that do not encode: a field out of range, an unsupported ftype, a payload too long, a pad value without a pad. */
const badArb: fc.Arbitrary<Packet> = fc.tuple(packetArb, fc.integer({ min: 0, max: 4 })).map(([p, k]): Packet => {
  const q = p as unknown as Record<string, unknown>;
  if (k === 4 && !hasPad(p)) return { ...q, rsrvPad: 1 } as unknown as Packet;
  if (k === 0) return { ...q, prio: 4 } as unknown as Packet;
  if (k === 1) return { ...q, ftype: 3 } as unknown as Packet;
  if (k === 2) return { ...q, destinationID: -1 } as unknown as Packet;
  return { ...q, ftype: 9, payload: new Uint8Array(300), segment: 'single', cos: 0, streamID: 0, start: 1, end: 1, xh: 0, rsrv: 0 } as unknown as Packet;
});

type Op =
  | { readonly op: 'add'; readonly frame: Frame }
  | { readonly op: 'bytes'; readonly packet: Packet }
  | { readonly op: 'fill'; readonly frames: readonly Frame[] }
  | { readonly op: 'flush' }
  | { readonly op: 'bad'; readonly packet: Packet };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: paddedArb.map((p): Op => ({ op: 'add', frame: packetFrame(p) })), weight: 8 },
  { arbitrary: frameArb.map((frame): Op => ({ op: 'add', frame })), weight: 3 },
  { arbitrary: packetArb.map((packet): Op => ({ op: 'bytes', packet })), weight: 1 },
  { arbitrary: fc.array(paddedArb, { maxLength: 4 }).map((ps): Op => ({ op: 'fill', frames: ps.map((p) => packetFrame(p)) })), weight: 1 },
  { arbitrary: fc.constant<Op>({ op: 'flush' }), weight: 1 },
  { arbitrary: badArb.map((packet): Op => ({ op: 'bad', packet })), weight: 1 },
);

/** Runs `ops` through a SendBatch of `size` bytes; returns what it wrote and what encodeFrame writes for the same frames. */
function run(ops: readonly Op[], size: number): { got: Uint8Array; want: Uint8Array } {
  const s = capture();
  const b = new SendBatch(s, size);
  const want: Uint8Array[] = [];
  const frameBytes = (f: Frame): Uint8Array => {
    const out = new Uint8Array(frameLength(f));
    encodeFrame(f, out, 0);
    return out;
  };
  let frames = 0;
  for (const o of ops) {
    if (o.op === 'add') {
      b.add(o.frame);
      want.push(frameBytes(o.frame));
      frames++;
    } else if (o.op === 'bytes') {
      const serial = new Uint8Array(serialPacketLength(o.packet) + 5);
      const end = encodeSerialPacket(o.packet, serial, 5);
      b.addPacketBytes(serial, 5, end);
      want.push(frameBytes(packetFrame(o.packet)));
      frames++;
    } else if (o.op === 'fill') {
      const parts = o.frames.map(frameBytes);
      const total = parts.reduce((n, p) => n + p.length, 0);
      if (total > size) continue;
      const wrote = b.fill(total, (buf, at, free) => {
        assert.ok(free >= total);
        buf.set(concat(parts), at);
        return total;
      });
      assert.equal(wrote, total);
      want.push(...parts);
      frames += parts.length;
    } else if (o.op === 'flush') {
      b.flush();
    } else {
      // encodeFrame's error for the same frame at the same place of a buffer of the batch's size.
      const f = packetFrame(o.packet);
      let expected: unknown;
      try {
        frameLength(f);
        encodeFrame(f, new Uint8Array(size), 0);
      } catch (e) {
        expected = e;
      }
      assert.ok(expected instanceof WireError, 'a bad packet that encodes');
      const before = b.frames;
      assert.throws(() => { b.add(f); }, (e: unknown) => e instanceof WireError && e.code === expected.code && e.field === expected.field && e.clause === expected.clause);
      assert.equal(b.frames, before);
    }
  }
  b.flush();
  assert.equal(b.frames, frames);
  return { got: concat(s.writes), want: concat(want) };
}

test('issue 17, Part 6 §2.4.1, riodp link §3.1: packet frames whose CRCs a SendBatch computes in one batched call leave byte for byte as encodeFrame writes them, among other frames, kept packet bytes and filled frames, whatever the batch size', () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 40 }), fc.constantFrom(300, 700, 4096, 65536), (ops, size) => {
      const { got, want } = run(ops, size);
      assert.equal(Buffer.compare(got, want), 0);
    }),
    // Up to 40 frames a case: 2000 cases (~1 s), more under `npm run fuzz`.
    fcParams(Math.max(1, Math.floor(FC_RUNS / 50))),
  );
});

test('issue 17: more packets than the pending CRC columns hold (256) in one 64 KiB batch, and batches flushed when full, are still exactly encodeFrame\'s bytes', () => {
  fc.assert(
    fc.property(fc.array(paddedArb, { minLength: 200, maxLength: 700 }), fc.constantFrom(65536, 16384), (ps, size) => {
      const { got, want } = run(ps.map((p): Op => ({ op: 'add', frame: packetFrame(p) })), size);
      assert.equal(Buffer.compare(got, want), 0);
    }),
    fcParams(100),
  );
});

test('issue 17: a packet frame that does not encode throws encodeFrame\'s WireError (offset into the batch too) and leaves the batch as it was', () => {
  fc.assert(
    fc.property(fc.array(paddedArb, { maxLength: 6 }), badArb, (ps, bad) => {
      const s = capture();
      const b = new SendBatch(s, 4096);
      let at = 0;
      for (const p of ps) {
        b.add(packetFrame(p));
        at += frameLength(packetFrame(p));
      }
      let expected: WireError | undefined;
      try {
        frameLength(packetFrame(bad));
        encodeFrame(packetFrame(bad), new Uint8Array(4096), at);
      } catch (e) {
        if (e instanceof WireError) expected = e;
      }
      assert.ok(expected !== undefined);
      assert.throws(() => { b.add(packetFrame(bad)); }, (e: unknown) => e instanceof WireError && e.code === expected.code && e.field === expected.field && e.offset === expected.offset && e.clause === expected.clause);
      b.flush();
      const want = new Uint8Array(at);
      ps.reduce((o, p) => encodeFrame(packetFrame(p), want, o), 0);
      assert.equal(Buffer.compare(concat(s.writes), want), 0);
    }),
    fcParams(Math.max(1, Math.floor(FC_RUNS / 20))),
  );
});
