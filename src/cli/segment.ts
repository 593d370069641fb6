import { toHex } from '../wire/hex.ts';
import { decodeSerialPacket, encodeSerialPacket, serialPacketLength } from '../wire/packet.ts';
import { pduProblem, segmentPdu } from '../streaming/segment-pdu.ts';
import { toJsonValue } from './json/output.ts';
import { FileError, fileError, isStdin, processIo, readBytes, writeChunk } from './stream-io.ts';
import { CaptureWriter } from '../capture/writer.ts';
import { packetFrame } from '../wire/frame.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import type { CliIo } from './stream-io.ts';
import { UsageError, segmentOptions } from './stream-options.ts';
import type { SegmentFlags, SegmentOptions } from './stream-options.ts';

/**
 * `riodp segment`: one PDU (a binary FILE, or stdin) cut into Type 9 segments by Part 10 §3.2.5
 * segmentation rules 2–8 (`segmentPdu`), printed as LP-Serial packets in hex, CRC included, one a
 * line, so that `riodp decode` and `riodp reassemble` read them back. ackID is 0 in every
 * segment: the link that carries the packets numbers them as it sends them; the PDU does not.
 *
 * Exit 0; 1 when FILE cannot be read; 2 for a usage error, the PDU's size included (one line).
 */
export async function runSegment(file: string | undefined, flags: SegmentFlags, io: CliIo = processIo()): Promise<number> {
  try {
    const opts = segmentOptions(flags);
    const pdu = await readBytes(file, io.stdin);
    const problem = pduProblem({ ...opts, payload: pdu }, opts.tt, opts.maxPdu);
    if (problem !== undefined) {
      // The option checks leave only the PDU's length to fault: "must be at least 1 byte", …
      throw new UsageError(`the PDU (${isStdin(file) ? 'stdin' : file}, ${pdu.length} bytes) ${problem.detail} (${problem.clause})`);
    }
    const packets = segmentsOf(pdu, opts);
    if (flags.pcap !== undefined) writeCapture(flags.pcap, packets);
    await writeChunk(io.stdout, packets.map((p) => lineOf(p, opts)).join(''));
    return 0;
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof FileError)) throw e;
    io.stderr.write(`riodp: ${e.message}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

/**
 * The output lines, newline included. `--json` prints each packet decoded back from its own
 * bytes, strictly, exactly as `riodp decode --json` prints the hex line (with `crc`/`earlyCrc`).
 */
export function segmentLines(pdu: Uint8Array, opts: SegmentOptions): string[] {
  return segmentsOf(pdu, opts).map((p) => lineOf(p, opts));
}

function segmentsOf(pdu: Uint8Array, opts: SegmentOptions): Type9Packet[] {
  return segmentPdu({
    payload: pdu, mtu: opts.mtu, destinationID: opts.destinationID, sourceID: opts.sourceID, tt: opts.tt, cos: opts.cos,
    streamID: opts.streamID, flowID: opts.flowID, maxPdu: opts.maxPdu,
  });
}

function lineOf(p: Type9Packet, opts: SegmentOptions): string {
  const bytes = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, bytes, 0);
  const text = opts.json ? JSON.stringify(toJsonValue(decodeSerialPacket(bytes, 0, bytes.length, { strict: true }))) : toHex(bytes);
  return `${text}\n`;
}

/**
 * `--pcap`: the segments as PACKET records (docs/pcapng.md §2) of one interface, `segment.tx`,
 * timestamps 0, 1, 2 … ns: the command has no link and no clock, only an order.
 */
function writeCapture(path: string, packets: readonly Type9Packet[]): void {
  let w: CaptureWriter;
  try {
    w = new CaptureWriter(path, { application: 'riodp segment' });
  } catch (e) {
    throw fileError(path, 'write', e);
  }
  const tx = w.interface('segment.tx', 'the segments of one PDU, in the order they are sent');
  packets.forEach((p, i) => w.write(tx, BigInt(i), packetFrame(p), { direction: 'outbound' }));
  w.close();
}
