import { attempt } from '../wire/errors.ts';
import { FRAME_HEADER_BYTES, FRAME_KIND } from '../wire/frame.ts';
import type { PcapngFile } from '../wire/pcapng/decode.ts';
import { CAPTURE_KIND, captureRecordBody } from '../wire/pcapng/record.ts';
import { FTYPE_DATA_STREAMING } from '../wire/type9.ts';
import { interfaceNames, readCaptureFile, riodpInterfaces } from './capture-file.ts';
import { classify } from './reassemble-input.ts';
import type { Item } from './reassemble-input.ts';
import { FileError } from './stream-io.ts';
import { UsageError } from './stream-options.ts';

/** The ackID width of a record kind that holds a packet (docs/pcapng.md §2). */
const PACKET_KINDS: ReadonlyMap<number, 5 | 6> = new Map([
  [FRAME_KIND.packet, 6],
  [CAPTURE_KIND.packetCs24, 5],
]);

/**
 * `riodp reassemble --pcap FILE`: the packets of one interface of a riodp capture, numbered by
 * record (the engine's time, as a line number is without `--pcap`). A capture of a switch holds
 * every port's traffic in both directions, and one PDU crosses two of them: reassembling them
 * together would see each segment twice. So when Type 9 packets are on more than one interface,
 * `--interface` must say which; with one, it is taken.
 */
export async function captureItems(path: string, file: string | undefined, iface: string | undefined, lenient: boolean): Promise<Iterable<Item>> {
  if (file !== undefined) throw new UsageError(`--pcap reads the packets from ${path}: the argument ${file} cannot be given with it`);
  const capture = await readCaptureFile(path);
  const chosen = chooseInterface(capture, iface, path);
  return (function* () {
    let record = 0;
    for (const p of capture.packets) {
      record++;
      if (p.interface !== chosen) continue;
      const d = p.data;
      const bits = d.length >= FRAME_HEADER_BYTES ? PACKET_KINDS.get(d[2] as number) : undefined;
      if (bits === undefined) {
        yield { at: record, kind: 'not-packet' };
        continue;
      }
      const body = attempt(() => captureRecordBody(d, 0, d.length));
      yield body.ok ? classify(record, d.subarray(body.value.bodyAt), bits, lenient) : { at: record, kind: 'bad', message: body.error.message };
    }
  })();
}

function chooseInterface(capture: PcapngFile, name: string | undefined, path: string): number {
  const ours = riodpInterfaces(capture);
  if (name !== undefined) {
    const k = ours.find((i) => capture.interfaces[i]?.name === name);
    if (k === undefined) throw new UsageError(`--interface ${name}: ${path} has no riodp interface of that name (it has ${interfaceNames(capture, ours)})`);
    return k;
  }
  const withType9 = ours.filter((k) => capture.packets.some((p) => p.interface === k && isType9Record(p.data)));
  if (withType9.length > 1) throw new UsageError(`${path} has Type 9 packets on ${interfaceNames(capture, withType9)}: choose one with --interface`);
  const only = withType9[0] ?? ours[0];
  if (only === undefined) throw new FileError(`${path}: no interface of link type USER0 (147), so no riodp records`);
  return only;
}

function isType9Record(d: Uint8Array): boolean {
  return d.length > FRAME_HEADER_BYTES + 1 && PACKET_KINDS.has(d[2] as number) && ((d[FRAME_HEADER_BYTES + 1] as number) & 0xf) === FTYPE_DATA_STREAMING;
}
