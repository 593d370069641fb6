/**
 * The end point process's fast lane on receive (issue 17, docs/fast-lane.md §8): a run of good
 * Type 9 frames from the switch's link (`onFrames`, link-batch.ts) into the engine's
 * `handleFrames`, with one clock read per run, instead of one decoded packet, one `packet` input
 * and one clock read per frame.
 *
 * What the process does per packet before the engine is kept per frame: the liveness checks hear
 * the source (`api.heard`), and a frame from a node the contact gate holds packets of
 * (api-contacts.ts: not yet discovered) takes the object path, decoded, so it is held and
 * discovered as before. While an input is running (a delivery's listener resumed the link) frames
 * take the object path too, which queues them behind it.
 *
 * Between engine calls the outputs are dispatched; if that paused the link (a stream at
 * `api.rxLimit`, api-streams.ts) the run stops there, as the object path stops after the packet
 * whose delivery held the link; the frames not taken come again on resume (link-types.ts).
 */
import type { Time } from '../engine/contract.ts';
import type { FrameBatch } from '../wire/frame-batch.ts';
import { FRAME_HEADER_BYTES } from '../wire/frame.ts';
import { decodeSerialPacket } from '../wire/packet.ts';
import type { SerialPacket } from '../wire/packet.ts';

export interface FrameRunHost {
  /** An engine input is running: frames wait behind it (the object path queues them). */
  busy(): boolean;
  now(): Time;
  /** A packet came from `node` (api.heard). */
  heard(node: number): void;
  /** Whether the contact gate lets `node`'s packets pass at once. */
  passes(node: number): boolean;
  /** The object path for one packet (the process's `#received`: heard, gate, engine input). */
  packet(p: SerialPacket): void;
  /** The engine's `handleFrames`, its outputs dispatched; returns the frames taken. */
  engine(frames: FrameBatch, chunk: Uint8Array, first: number, count: number, now: Time): number;
  /** Whether the link is paused (the receive is held). */
  paused(): boolean;
  /** After the run: the engine may have packets to send. */
  pump(): void;
}

/** Frames [first, first + count) of `frames`: returns how many were taken (fewer only when the link was paused). */
export function receiveFrames(host: FrameRunHost, frames: FrameBatch, chunk: Uint8Array, first: number, count: number): number {
  let k = 0;
  if (host.busy()) {
    while (k < count && !host.paused()) host.packet(decode(frames, chunk, first + k++));
    return k;
  }
  const now = host.now();
  let heard = 0;
  let last = -1;
  while (k < count) {
    // The frames from here whose sources the gate passes, each heard once.
    let j = k;
    while (j < count) {
      const src = frames.sourceID[first + j] as number;
      if (!host.passes(src)) break;
      if (j >= heard && src !== last) {
        host.heard(src);
        last = src;
      }
      j++;
    }
    if (j > heard) heard = j;
    if (j === k) {
      last = -1;
      host.packet(decode(frames, chunk, first + k++));
      if (heard < k) heard = k;
    } else {
      k += host.engine(frames, chunk, first + k, j - k, now);
    }
    if (host.paused()) break;
  }
  host.pump();
  return k;
}

function decode(frames: FrameBatch, chunk: Uint8Array, i: number): SerialPacket {
  const at = frames.offset[i] as number;
  return decodeSerialPacket(chunk, at + FRAME_HEADER_BYTES, at + (frames.length[i] as number));
}
