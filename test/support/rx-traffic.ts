/**
 * Received Type 9 traffic for the fast lane's receive equivalence tests (issue 17): random PDUs
 * cut into segments at an MTU (Part 10 §3.2.5 segmentation rules), several streams interleaved,
 * then damaged (segments lost, repeated, reordered, shortened, cut to 4k + 2 bytes, a wrong PDU length, aborts) with TM
 * and other extended packets and segments for other destinations mixed in. The packets are
 * framed as the riodp link sends them and parsed into one frame batch, so that both receive paths
 * (decoded packets, frame columns) start from the same bytes.
 */
import fc from 'fast-check';
import { FrameBatch, FRAME_DEFECT } from '../../src/wire/frame-batch.ts';
import { decodeFrame, packetFrame } from '../../src/wire/frame.ts';
import type { Type9Packet } from '../../src/wire/type9-types.ts';
import { encodeFrames } from './frames.ts';
import { abort, bytes, end, extended, segmentsOf, tmXoff } from './type9-segments.ts';
import type { SegHeader } from './type9-segments.ts';

export interface RxTrafficShape {
  readonly mtu: number;
  readonly tt: number;
  readonly sources: readonly number[];
  readonly destinations: readonly number[];
  readonly streamIDs: readonly number[];
  /** Classes of service to pick from; default any 0–255. */
  readonly coses?: readonly number[];
  /** Largest PDU, bytes. */
  readonly maxPdu: number;
}

type Damage = { readonly op: 'drop' | 'dup' | 'swap' | 'shorten' | 'ragged' | 'length' | 'abort' | 'tm' | 'extended'; readonly at: number };

export function rxTrafficArb(s: RxTrafficShape): fc.Arbitrary<Type9Packet[]> {
  const pdu = fc.record({
    src: fc.constantFrom(...s.sources),
    dst: fc.constantFrom(...s.destinations),
    streamID: fc.constantFrom(...s.streamIDs),
    cos: s.coses === undefined ? fc.integer({ min: 0, max: 255 }) : fc.constantFrom(...s.coses),
    prio: fc.integer({ min: 0, max: 2 }),
    crf: fc.integer({ min: 0, max: 1 }),
    size: fc.integer({ min: 1, max: s.maxPdu }),
    seed: fc.integer({ min: 0, max: 255 }),
  });
  const damage: fc.Arbitrary<Damage> = fc.record({ op: fc.constantFrom('drop', 'dup', 'swap', 'shorten', 'ragged', 'length', 'abort', 'tm', 'extended'), at: fc.nat() });
  return fc.tuple(fc.array(pdu, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 400 }), fc.array(damage, { maxLength: 4 })).map(([pdus, picks, damages]) => {
    const lists = pdus.map((p) => {
      const h: SegHeader = { tt: s.tt, sourceID: p.src, destinationID: p.dst, cos: p.cos, prio: p.prio, crf: p.crf };
      return segmentsOf(bytes(p.size, p.seed), s.mtu, p.streamID, h);
    });
    // Interleaved: each pick takes the next segment of one PDU (segments of a PDU keep their order).
    const out: Type9Packet[] = [];
    let k = 0;
    while (lists.some((l) => l.length > 0)) {
      const live = lists.filter((l) => l.length > 0);
      out.push((live[(picks[k++] ?? 0) % live.length] as Type9Packet[]).shift() as Type9Packet);
    }
    for (const d of damages) apply(out, d, s);
    return out;
  });
}

function apply(out: Type9Packet[], d: Damage, s: RxTrafficShape): void {
  if (out.length === 0) return;
  const i = d.at % out.length;
  const p = out[i] as Type9Packet;
  const h: SegHeader = { tt: p.tt, sourceID: p.sourceID, destinationID: p.destinationID, cos: p.cos, prio: p.prio, crf: p.crf };
  switch (d.op) {
    case 'drop': out.splice(i, 1); return;
    case 'dup': out.splice(i, 0, p); return;
    case 'swap': if (i + 1 < out.length) out.splice(i, 2, out[i + 1] as Type9Packet, p); return;
    case 'shorten':
      // A start or continuation shorter than the MTU (rules 4, 5): a multiple of 4 bytes, as O = P = 0 needs (Table 4-2).
      if ((p.segment === 'start' || p.segment === 'continuation') && p.payload.length > 4) out[i] = { ...p, payload: p.payload.subarray(0, ((p.payload.length >> 1) & ~3) || 4) };
      return;
    case 'ragged':
      // A start or continuation of 4k + 2 bytes (issue 18 item 5 c): framing finds it at the other
      // half-word parity, or, when it ends in a pad, reads it two bytes longer (docs/conformance.md).
      if ((p.segment === 'start' || p.segment === 'continuation') && p.payload.length > 6) out[i] = { ...p, payload: p.payload.subarray(0, (((p.payload.length >> 1) & ~3) || 4) + 2) };
      return;
    case 'length':
      if (p.segment === 'end') out[i] = end(p.payload, p.pduLength === 0x10000 ? 1 : p.pduLength + 2, h);
      return;
    case 'abort': out.splice(i, 0, abort(h)); return;
    case 'tm': out.splice(i, 0, tmXoff(s.streamIDs[0] ?? 0, h)); return;
    case 'extended': out.splice(i, 0, extended(s.streamIDs[0] ?? 0, h)); return;
  }
}

/** The packets framed as the link sends them and parsed into one batch (every frame good). */
export function framed(packets: readonly Type9Packet[]): { chunk: Uint8Array; batch: FrameBatch } {
  const chunk = encodeFrames(packets.map((p) => packetFrame(p)));
  const batch = new FrameBatch({ capacity: packets.length + 1, maxFrameSize: 1024 });
  batch.parse(chunk);
  if (batch.count !== packets.length || batch.bad !== 0 || batch.status.subarray(0, batch.count).some((v) => v !== FRAME_DEFECT.ok)) throw new Error('traffic did not frame cleanly');
  return { chunk, batch };
}

/** Frame `i` decoded as the link's object path decodes it. */
export function decoded(batch: FrameBatch, chunk: Uint8Array, i: number): Type9Packet {
  const at = batch.offset[i] as number;
  const f = decodeFrame(chunk, at, at + (batch.length[i] as number));
  if (f.kindName !== 'packet') throw new Error('not a packet frame');
  return f.packet as Type9Packet;
}
