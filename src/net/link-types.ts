/** The types of a riodp link (link.ts): its counters, states, handlers and how it closed. */
import type { Counters } from '../engine/contract.ts';
import type { WireError } from '../wire/errors.ts';
import type { FrameBatch } from '../wire/frame-batch.ts';
import type { CloseReasonName, Cs48Frame, Cs64Frame, PacketFrame } from '../wire/frame.ts';
import type { SerialPacket } from '../wire/packet.ts';
import type { ControlSymbol } from '../wire/symbol.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import type { ReceivedBytes } from '../wire/received-bytes.ts';

/**
 * The names of a link's counters.
 *
 * @example
 * ```ts
 * import { LINK_COUNTERS, endpointConfig, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], routes: { 1: 0 }, log: 'silent' }));
 * const ep = await startEndpoint(endpointConfig({ nodeId: 1, switch: { port: sw.addresses[0]!.tcpPort }, log: 'silent' }));
 * await ep.readRegister(0x50, 0, 0x00); // one MAINTENANCE read of the switch, and its response
 * // The link's counters at both ends: the switch's port 0, and the end point's.
 * for (const c of [sw.ports()[0]?.counters, ep.status().counters.link]) {
 *   if (c) console.log(LINK_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' '));
 * }
 * // framesIn=2 framesOut=2 bytesIn=27 bytesOut=35: a HELLO frame each way (8 bytes), then the request (19) in and the response (27) out
 * // framesIn=2 framesOut=2 bytesIn=35 bytesOut=27
 * await ep.close();
 * await sw.close();
 * ```
 */
export const LINK_COUNTERS = ['framesIn', 'framesOut', 'malformed', 'unknownKind', 'oversize', 'bytesIn', 'bytesOut', 'sendRefused', 'statusIn'] as const;
/** A counter of a link. */
export type LinkCounterName = (typeof LINK_COUNTERS)[number];
/** A link's counters. */
export type LinkCounters = Counters<LinkCounterName>;

/**
 * What sees a link's frames (a capture, src/net/link-capture.ts). Frames are whole riodp link
 * frames (docs/net-framing.md §2: length, kind, body), views valid during the call only.
 */
export interface LinkTap {
  /** A received frame is about to go to the handlers. */
  receiving(): void;
  /** The received frame bytes[start, end) after the handlers had it; `defect` when it did not decode. */
  received(bytes: Uint8Array, start: number, end: number, defect: WireError | null): void;
  /** Whole frames bytes[start, end) handed to the socket, in order. */
  sent(bytes: Uint8Array, start: number, end: number): void;
}

/** hello: waiting for the peer's HELLO; open: frames flow; closing: a CLOSE went one way; closed: the socket is gone. */
export type LinkState = 'hello' | 'open' | 'closing' | 'closed';

/** How a peer failed §4.1's opening: no HELLO in time, another first frame, another version. */
export type HelloFailure = 'timeout' | 'protocol' | 'version';

export interface LinkClosed {
  /** Who ended the link: this side (close(), a rule of §4.2, destroy()) or the peer. */
  readonly by: 'local' | 'peer';
  /** The CLOSE reason code; null when the connection ended without one. */
  readonly reason: number | null;
  readonly reasonName: CloseReasonName | 'lost';
  readonly text: string;
  /** Set when this side refused the peer at the opening (§4.1), before the link opened. */
  readonly hello?: HelloFailure;
}

export interface LinkHandlers {
  /** The peer's HELLO arrived with a version this link speaks. */
  onOpen?(version: number): void;
  /**
   * A whole frame arrived on the open link, before the handler of its kind (if any: a frame of a
   * kind this version does not define has none) is called: what a reader that shares its time
   * between links counts. `pause()` here stops delivery after this frame.
   */
  onFrame?(): void;
  /**
   * `octets`: the serial packet's bytes on the wire (the frame body), CRC(s) and pad included.
   * `wire`: with LinkOptions.forward, the bytes it arrived in when the encoder would write the
   * same (src/wire/received-bytes.ts), for `sendPacket(packet, wire)` of any link.
   */
  onPacket?(packet: SerialPacket, octets: number, wire: ReceivedBytes | undefined): void;
  /**
   * The fast lane (docs/fast-lane.md §7): with this handler (and LinkOptions.batch not false, a
   * lenient 6-bit decoding) each socket chunk is parsed into one frame batch, and every run of
   * good Type 9 packet frames on the open link comes here, frames [first, first + count) of
   * `batch`, their bytes in `chunk` (never written again: views may be kept), instead of one
   * `onFrame` + `onPacket` each. Returns how many were taken, in order. A handler that takes
   * fewer pauses the link (`pause()`, as the switch does when an input must wait): the rest is
   * delivered again on `resume`, or at once if the link was resumed before the handler returned.
   * Taking none without pausing pauses the link. Every other frame comes one by one as without
   * the fast lane.
   */
  onFrames?(batch: FrameBatch, chunk: Uint8Array, first: number, count: number): number;
  onSymbol?(symbol: ControlSymbol | ControlSymbol64): void;
  /** A status-only symbol arrived (keepalive.ts): absorbed by the link, counted `statusIn`. */
  onStatus?(): void;
  /** `writable` turned true again after the socket drained. */
  onDrain?(): void;
  /** A frame was counted as malformed or oversize (for logs; the counters say how many). */
  onMalformed?(error: WireError): void;
  /** Once, when the socket has closed. */
  onClose?(closed: LinkClosed): void;
}

export type SendableFrame = PacketFrame | Cs48Frame | Cs64Frame;
