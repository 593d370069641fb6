/**
 * The bytes a decoded packet arrived in, so that a packet forwarded unchanged (a switch's
 * forwarding path) leaves in those bytes instead of being encoded again, CRC(s) included. The
 * switch forwards the packet object it decoded, unchanged, or builds a new one (a Type 8 request
 * with its hop_count decremented, Part 3 §2.5), so object identity says "unchanged", and the
 * bytes the encoder would write for it are the bytes it came in (ackID included: the link
 * re-encoded the decoded ackID before this shortcut too).
 *
 * Exactness: the codec contract (CONTRIBUTING.md) is that encoding a decoded packet "reproduces
 * the input bit for bit", a non-zero pad included (lenient decoding keeps it as `rsrvPad`). The
 * one exception is a link decoding 5-bit ackIDs (`ackIdBits: 5`), whose packets a link
 * re-encodes with 6: the link records no bytes then (src/net/link.ts). src/net/packet-bytes.prop.test.ts checks
 * the equivalence against the full encoder.
 *
 * A driver keeps the record beside the packet (the switch element hands it back with the packet:
 * SwitchPacketInput.wire) and sends it with `Link.sendPacket(packet, wire)`.
 *
 * The recorded bytes are views, not copies: a link's frames are views of the socket's chunk or
 * of a buffer the frame reader allocated for that frame alone, neither written again
 * (frame-reader.ts), so the view stays valid while the packet is referenced. Decoded packets
 * are plain objects their receivers treat as immutable (their types are readonly); a caller that
 * changes one in place must not send it with its record.
 */
/** The serial packet at bytes[start, end) (prefix to pad, no frame header) a packet was decoded from. */
export class ReceivedBytes {
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
  ) {}
}

