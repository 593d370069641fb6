/**
 * The end point's side of the fast lane's transmit pull (issue 17, docs/fast-lane.md §10): what
 * `FabricEndpoint.pullInto` needs to know of the frames the segmenter wrote, read back from them
 * (riodp link PACKET frames, docs/net-framing.md §3.1: 2-byte length, kind, serial packet).
 */
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { idBytes, readId } from '../wire/header.ts';
import { requestFlow } from './fabric-endpoint-hold.ts';

/** Frame header bytes before the serial packet: length (2) and kind (1). */
const HEADER = 3;

/**
 * Calls `note` with the flow of each Type 9 packet framed in buf[from, to), in order: what the
 * object path's hold check records of each packet it sends (FlowBook, `flows()`). Part 6 §2.3
 * Figure 2-2: ackID(6) VC CRF | prio(2) tt(2) ftype(4), then the destinationID, 8, 16 or 32 bits
 * by tt (Part 3 §2.4).
 */
export function frameFlows(buf: Uint8Array, from: number, to: number, crfSupported: boolean, note: (destinationID: number, flowID: FlowIdLabel) => void): void {
  for (let at = from; at < to;) {
    const q = at + HEADER;
    const b0 = buf[q] as number;
    const b1 = buf[q + 1] as number;
    // The segmenter wrote tt 0–2 only (a reserved tt never encodes).
    const dest = readId(buf, q + 2, idBytes((b1 >> 4) & 3));
    const flowID = requestFlow(b1 >> 6, b0 & 1, (b0 >> 1) & 1, crfSupported);
    if (flowID !== undefined) note(dest, flowID);
    at += 2 + (((buf[at] as number) << 8) | (buf[at + 1] as number));
  }
}
