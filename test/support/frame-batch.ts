/**
 * The two receive paths of issue 17, side by side, for the frame batch's equivalence tests: the
 * object path (FrameReader + decodeFrame, lenient) and the batch path (FrameBatch.parse, the
 * caller keeping the unconsumed tail of each chunk), both reduced to one comparable record per
 * frame.
 */
import fc from 'fast-check';
import { crc16Packet, crc16Update } from '../../src/wire/crc16.ts';
import { WireError } from '../../src/wire/errors.ts';
import { FrameBatch, frameDefectOf, FRAME_DEFECT, T9_FLAG } from '../../src/wire/frame-batch.ts';
import { FRAME_KIND, decodeFrame } from '../../src/wire/frame.ts';
import { FrameReader, MIN_MAX_FRAME_SIZE } from '../../src/wire/frame-reader.ts';
import { toHex } from '../../src/wire/hex.ts';
import { EARLY_CRC_AT, serialLength } from '../../src/wire/serial.ts';

export interface FrameRecord {
  readonly hex: string;
  readonly status: number;
  /** Packet fields of a good packet frame, as one string (absent otherwise). */
  readonly fields?: string;
}

export interface PathResult {
  readonly frames: FrameRecord[];
  /** code@stream offset of a fatal length, or null. */
  readonly error: string | null;
}

function packetFields(f: Record<string, unknown>): string {
  const second = f['sourceID'] ?? f['tgtdestinationID'];
  const head = [f['ackID'], f['vc'], f['crf'], f['prio'], f['tt'], f['ftype'], f['destinationID'], second];
  if (f['ftype'] !== 9) return head.join(',');
  const flags = [f['start'], f['end'], f['xtype'] ?? f['rsrv'], f['xh'], f['odd'], f['pad']];
  const seg = f['segment'];
  const streamID = seg === 'start' || seg === 'single' || seg === 'tm' || seg === 'extended' ? f['streamID'] : 0;
  const length = seg === 'end' || seg === 'abort' ? f['length'] : 0;
  const payload = f['payload'] instanceof Uint8Array ? toHex(f['payload']) : '';
  return [...head, f['cos'], ...flags, streamID, length, payload].join(',');
}

/** The object path over `stream` cut at `points` (sorted, distinct). */
export function objectPath(stream: Uint8Array, points: readonly number[], maxFrameSize: number): PathResult {
  const reader = new FrameReader({ maxFrameSize });
  const frames: FrameRecord[] = [];
  const sink = (b: Uint8Array, o: number, e: number): void => {
    const hex = toHex(b.subarray(o, e));
    try {
      const f = decodeFrame(b, o, e);
      frames.push(f.kindName === 'packet' ? { hex, status: 0, fields: packetFields(f.packet as unknown as Record<string, unknown>) } : { hex, status: 0 });
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      frames.push({ hex, status: frameDefectOf(err) });
    }
  };
  let from = 0;
  for (const to of [...points, stream.length]) {
    reader.push(stream.subarray(from, to), sink);
    from = to;
    if (reader.error !== null) break;
  }
  return { frames, error: reader.error === null ? null : `${reader.error.code}@${reader.error.offset}` };
}

function batchFields(batch: FrameBatch, i: number, b: Uint8Array): string {
  const head = [batch.ackID[i], batch.vc[i], batch.crf[i], batch.prio[i], batch.tt[i], batch.ftype[i], batch.destinationID[i], batch.sourceID[i]];
  if (batch.ftype[i] !== 9) return head.join(',');
  const fl = batch.t9Flags[i] as number;
  const flags = [fl >> 7, (fl >> 6) & 1, (fl & T9_FLAG.xtypeMask) >> 3, (fl >> 2) & 1, (fl >> 1) & 1, fl & 1];
  const o = (batch.offset[i] as number) + 3;
  const n = batch.logical[i] as number;
  const at = batch.payloadOffset[i] as number;
  const payload = new Uint8Array(batch.payloadLength[i] as number);
  for (let k = 0; k < payload.length; k++) {
    const li = at - o + k;
    payload[k] = b[n > EARLY_CRC_AT && li >= EARLY_CRC_AT ? o + li + 2 : o + li] as number;
  }
  const tm = (fl & T9_FLAG.xh) !== 0 && (fl & T9_FLAG.xtypeMask) === 0;
  return [...head, batch.cos[i], ...flags, batch.streamID[i], batch.t9Length[i], tm ? '' : toHex(payload)].join(',');
}

/** The batch path: a caller that parses each chunk, keeping the unconsumed tail for the next. */
export function batchPath(stream: Uint8Array, points: readonly number[], maxFrameSize: number, capacity: number): PathResult {
  const batch = new FrameBatch({ maxFrameSize, capacity });
  const frames: FrameRecord[] = [];
  let carry = new Uint8Array(0);
  let from = 0;
  for (const to of [...points, stream.length]) {
    const buf = new Uint8Array(carry.length + to - from);
    buf.set(carry, 0);
    buf.set(stream.subarray(from, to), carry.length);
    const bufStart = from - carry.length;
    from = to;
    let pos = 0;
    for (;;) {
      const used = batch.parse(buf, pos, buf.length);
      let bad = 0;
      for (let i = 0; i < batch.count; i++) {
        const o = batch.offset[i] as number;
        const hex = toHex(buf.subarray(o, o + (batch.length[i] as number)));
        const status = batch.status[i] as number;
        if (status !== FRAME_DEFECT.ok) bad++;
        frames.push(status === 0 && batch.kind[i] === FRAME_KIND.packet ? { hex, status, fields: batchFields(batch, i, buf) } : { hex, status });
      }
      if (bad !== batch.bad) throw new Error(`defects counted ${batch.bad}, marked ${bad}`);
      pos += used;
      if (used === 0 || batch.error !== null) break;
    }
    if (batch.error !== null) return { frames, error: `${batch.error.code}@${bufStart + batch.error.offset}` };
    carry = buf.slice(pos);
  }
  return { frames, error: null };
}

/**
 * A packet frame around arbitrary logical bytes with correct CRC(s) and a zero pad (Part 6
 * §2.4.1), as encodeSerial frames them: the logical checks then decide alone.
 */
export function rawPacketFrame(logical: Uint8Array): Uint8Array {
  const n = logical.length;
  const total = serialLength(n);
  const out = new Uint8Array(3 + total);
  out[0] = (total + 1) >> 8;
  out[1] = (total + 1) & 0xff;
  out[2] = FRAME_KIND.packet;
  const o = 3;
  let crcAt = o + n;
  let c: number;
  if (n > EARLY_CRC_AT) {
    out.set(logical.subarray(0, EARLY_CRC_AT), o);
    out.set(logical.subarray(EARLY_CRC_AT), o + EARLY_CRC_AT + 2);
    c = crc16Packet(out, o, o + EARLY_CRC_AT);
    out[o + EARLY_CRC_AT] = c >> 8;
    out[o + EARLY_CRC_AT + 1] = c & 0xff;
    crcAt += 2;
    c = crc16Update(c, out, o + EARLY_CRC_AT, crcAt);
  } else {
    out.set(logical, o);
    c = crc16Packet(out, o, crcAt);
  }
  out[crcAt] = c >> 8;
  out[crcAt + 1] = c & 0xff;
  return out;
}

/** What happens to one frame before it is sent. */
export type Damage =
  | { readonly op: 'none' }
  | { readonly op: 'flip'; readonly at: number; readonly xor: number }
  | { readonly op: 'cut'; readonly keep: number }
  | { readonly op: 'grow'; readonly extra: Uint8Array }
  | { readonly op: 'fatal'; readonly zero: boolean };

export const damage: fc.Arbitrary<Damage> = fc.oneof(
  { arbitrary: fc.constant<Damage>({ op: 'none' }), weight: 30 },
  { arbitrary: fc.record({ op: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }), weight: 15 },
  { arbitrary: fc.record({ op: fc.constant('cut' as const), keep: fc.nat() }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('grow' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 6 }) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('fatal' as const), zero: fc.boolean() }), weight: 1 },
);

/** `frame` (one whole frame) with its damage; cuts and growths rewrite the length field to match. */
export function damaged(frame: Uint8Array, d: Damage): Uint8Array {
  switch (d.op) {
    case 'none':
      return frame;
    case 'flip': {
      const out = frame.slice();
      // Any byte but the length field: the kind and every body bit.
      const at = 2 + (d.at % (out.length - 2));
      out[at] = (out[at] as number) ^ d.xor;
      return out;
    }
    case 'cut': {
      const body = frame.length - 3;
      return withLength(frame.subarray(0, 3 + (body === 0 ? 0 : d.keep % body)));
    }
    case 'grow': {
      const out = new Uint8Array(frame.length + d.extra.length);
      out.set(frame, 0);
      out.set(d.extra, frame.length);
      return withLength(out);
    }
    case 'fatal': {
      const out = frame.slice();
      const len = d.zero ? 0 : MIN_MAX_FRAME_SIZE - 1;
      out[0] = len >> 8;
      out[1] = len & 0xff;
      return out;
    }
  }
}

export function withLength(frame: Uint8Array): Uint8Array {
  const out = frame.slice();
  out[0] = (out.length - 2) >> 8;
  out[1] = (out.length - 2) & 0xff;
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** The distinct cut points `c` make in a stream of `length` bytes, sorted. */
export function points(c: readonly number[], length: number): number[] {
  return [...new Set(c.map((x) => x % (length + 1)))].sort((a, b) => a - b);
}
