/**
 * Ethernet/IPv4/TCP frames carrying a riodp link (docs/net-framing.md), for the dissector's TCP
 * tests: a handshake, then the link's byte stream cut into segments of the sizes given, as a
 * loopback capture of `riodp switch` shows it.
 */

/** LINKTYPE_ETHERNET. */
export const LINKTYPE_ETHERNET = 1;

const SYN = 0x02;
const ACK = 0x10;
const PSH = 0x08;

function ipChecksum(b: Uint8Array, at: number, n: number): number {
  let sum = 0;
  for (let i = at; i < at + n; i += 2) sum += ((b[i] as number) << 8) | (b[i + 1] as number);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

/** One Ethernet frame: IPv4 from 127.0.0.1 to 127.0.0.1, TCP with `flags` (checksum left 0). */
function segment(src: number, dst: number, seq: number, ack: number, flags: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(14 + 20 + 20 + data.length);
  out.set([0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0x08, 0x00]);
  const ip = 14;
  const total = 40 + data.length;
  out.set([0x45, 0, total >> 8, total & 0xff, 0, 0, 0x40, 0, 64, 6, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1], ip);
  const c = ipChecksum(out, ip, 20);
  out[ip + 10] = c >> 8;
  out[ip + 11] = c & 0xff;
  const tcp = ip + 20;
  const v = new DataView(out.buffer);
  v.setUint16(tcp, src);
  v.setUint16(tcp + 2, dst);
  v.setUint32(tcp + 4, seq >>> 0);
  v.setUint32(tcp + 8, ack >>> 0);
  out[tcp + 12] = 5 << 4;
  out[tcp + 13] = flags;
  v.setUint16(tcp + 14, 65535);
  out.set(data, tcp + 20);
  return out;
}

/**
 * A TCP connection from `client` to `server`: SYN, SYN-ACK, ACK, then `stream` from the client
 * cut at `cuts` (ascending offsets into the stream).
 */
export function tcpConnection(client: number, server: number, stream: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const c0 = 1000;
  const s0 = 5000;
  const out = [
    segment(client, server, c0, 0, SYN, new Uint8Array(0)),
    segment(server, client, s0, c0 + 1, SYN | ACK, new Uint8Array(0)),
    segment(client, server, c0 + 1, s0 + 1, ACK, new Uint8Array(0)),
  ];
  const ends = [...cuts.filter((c) => c > 0 && c < stream.length), stream.length];
  let at = 0;
  for (const end of ends) {
    if (end <= at) continue;
    out.push(segment(client, server, c0 + 1 + at, s0 + 1, PSH | ACK, stream.subarray(at, end)));
    at = end;
  }
  return out;
}
