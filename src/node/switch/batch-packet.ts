import type { FrameColumns } from '../../wire/frame-batch-types.ts';
import { FRAME_HEADER_BYTES } from '../../wire/frame.ts';
import { decodeSerialPacket } from '../../wire/packet.ts';
import type { Packet } from '../../wire/packet.ts';
import type { Priority, SwitchPacket } from './packet.ts';

/**
 * A packet the switch element took from a frame batch (the fast lane, docs/fast-lane.md §7): its
 * header fields read from the batch's columns, its bytes the serial packet it arrived in (so it
 * leaves in them: the element's `forward` output, decision DP1). Nothing is
 * decoded per packet (a congestion point classifies by `tt`, a column too): `wire`, the decoded
 * packet, is built on first use only, from the same bytes, the way the link decodes
 * (lenient, 6-bit ackIDs); the batch marked the frame good, so that decode cannot fail.
 *
 * Only Type 9 packets come this way: Type 8 ones are answered or forwarded with a new hop_count
 * (receive.ts) and need their decoded form at once.
 */
export class BatchPacket implements SwitchPacket {
  /** The serial packet is chunk[start, end) (prefix to pad, no frame header); never written again (docs/fast-lane.md §5). */
  readonly chunk: Uint8Array;
  readonly start: number;
  readonly end: number;
  readonly ftype: number;
  readonly src: number;
  readonly dst: number;
  readonly prio: Priority;
  readonly crf: 0 | 1;
  readonly vc: number;
  readonly bytes: number;
  /** The transport type a congestion point classifies by, from the column: no decode for it. */
  readonly tt: number;
  #wire: Packet | undefined = undefined;

  /** Frame `i` of `frames`, parsed from `chunk`. */
  constructor(frames: FrameColumns, i: number, chunk: Uint8Array) {
    const start = (frames.offset[i] as number) + FRAME_HEADER_BYTES;
    const end = (frames.offset[i] as number) + (frames.length[i] as number);
    this.chunk = chunk;
    this.start = start;
    this.end = end;
    this.ftype = frames.ftype[i] as number;
    this.src = frames.sourceID[i] as number;
    this.dst = frames.destinationID[i] as number;
    this.prio = ((frames.prio[i] as number) & 3) as Priority;
    this.crf = frames.crf[i] === 1 ? 1 : 0;
    this.vc = frames.vc[i] as number;
    this.tt = frames.tt[i] as number;
    this.bytes = end - start;
  }

  get wire(): Packet {
    this.#wire ??= decodeSerialPacket(this.chunk, this.start, this.end);
    return this.#wire;
  }

  /** `FramePacket.raw`: none, the element answers a pull with `forward` and the packet itself. */
  get raw(): undefined {
    return undefined;
  }
}
