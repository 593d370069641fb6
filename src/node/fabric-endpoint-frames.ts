import type { FrameColumns } from '../wire/frame-batch-types.ts';
import { FRAME_DEFECT } from '../wire/frame-batch-types.ts';
import { FRAME_HEADER_BYTES, FRAME_KIND } from '../wire/frame.ts';
import { decodeSerialPacket } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { FTYPE_DATA_STREAMING } from '../wire/type9.ts';

/**
 * The receive side of the fast lane at the end point (issue 17, docs/fast-lane.md §8): a run of
 * a frame batch's good Type 9 frames, taken by `FabricEndpoint.handleFrames`.
 *
 * Each frame is routed as its `packet` input is. With neither traffic management nor flow
 * arbitration configured, a Type 9 packet's way is fixed (fabric-endpoint.ts `#received`: session
 * stack, Type 9 conveyance: not-for-us check, reassembler; a TM packet is the reassembler's
 * `not-data`), so the frame goes that way by columns (`segment`), no packet decoded. Otherwise
 * (TM takes TM packets and watches PDU starts; arbitration follows every data packet's position)
 * each frame is decoded, as the link decodes it, and handled as its `packet` input: the fallback
 * the rules of those features get for free (decision FL3).
 *
 * The run stops after the first frame that produced an output, so that its driver dispatches the
 * outputs (a delivery may fill a stream to `api.rxLimit`, which holds the link) before the next
 * frame is taken, as it would between two `packet` inputs.
 */
export interface FrameIntakeHost {
  /** Whether data frames may take the columns path now. */
  fast(): boolean;
  /** Frame `i` by columns (the session stack's `frame`). */
  segment(frames: FrameColumns, i: number, chunk: Uint8Array): void;
  /** The object path: the frame's decoded packet, as a `packet` input. */
  packet(p: Packet): void;
  /** A frame that is not a good Type 9 packet: an invalid input. */
  invalid(detail: string): void;
}

/** Frames [first, first + count): returns how many were taken (≥ 1 when count ≥ 1). */
export function takeFrames(host: FrameIntakeHost, frames: FrameColumns, chunk: Uint8Array, first: number, count: number, out: { readonly length: number }): number {
  const before = out.length;
  const fast = host.fast();
  let k = 0;
  while (k < count) {
    const i = first + k++;
    if (frames.status[i] !== FRAME_DEFECT.ok || frames.kind[i] !== FRAME_KIND.packet || frames.ftype[i] !== FTYPE_DATA_STREAMING) {
      host.invalid(`frame ${i} is not a good Type 9 packet`);
    } else if (fast) {
      host.segment(frames, i, chunk);
    } else {
      const at = frames.offset[i] as number;
      // The batch marked the frame good: it decodes (lenient, 6-bit ackIDs, as the link decodes).
      host.packet(decodeSerialPacket(chunk, at + FRAME_HEADER_BYTES, at + (frames.length[i] as number)));
    }
    if (out.length > before) break;
  }
  return k;
}
