/**
 * Flooding peers for the fair-share tests of the switch process (issue 16 item 3): a peer that
 * writes the same frames to its link as fast as its socket takes them, and reads what comes back
 * without decoding it, so that the test's own work per frame stays small beside the switch's.
 */
import { connect } from '../../src/net/connect.ts';
import { encodeFrame, frameLength, packetFrame } from '../../src/wire/frame.ts';
import type { Packet } from '../../src/wire/packet.ts';

export interface Flood {
  /** Frames written to the socket. */
  sent(): number;
  /** Bytes received from the switch. */
  received(): number;
  /** Stops writing and drops the connection. */
  stop(): void;
}

/**
 * Connects to `tcpPort` (a riodp link: HELLO first), then writes `packet`'s frame, 1000 at a
 * time, for as long as the socket takes them (again on each drain); with `packet` null it only
 * reads, a sink.
 */
export async function flood(tcpPort: number, packet: Packet | null): Promise<Flood> {
  const link = await connect({ port: tcpPort });
  const socket = link.socket;
  let sent = 0;
  let received = 0;
  let going = packet !== null;
  socket.removeAllListeners('data');
  socket.on('data', (b: Buffer) => { received += b.length; });
  if (packet !== null) {
    const frame = packetFrame(packet);
    const len = frameLength(frame);
    const chunk = new Uint8Array(len * 1000);
    for (let i = 0; i < 1000; i++) encodeFrame(frame, chunk, i * len);
    const pump = (): void => {
      while (going && !socket.destroyed) {
        sent += 1000;
        if (!socket.write(chunk)) return;
      }
    };
    socket.on('drain', pump);
    pump();
  }
  return {
    sent: () => sent,
    received: () => received,
    stop: () => {
      going = false;
      link.destroy();
    },
  };
}
