import { readFile } from 'node:fs/promises';
import { WireError } from '../wire/errors.ts';
import { decodeFrame, FRAME_HEADER_BYTES, FRAME_KIND } from '../wire/frame.ts';
import type { Packet } from '../wire/packet.ts';
import { isPcapng, readPcapng } from '../wire/pcapng/decode.ts';
import type { PcapngInterfaceRead, PcapngPacketRead } from '../wire/pcapng/decode.ts';
import { LINKTYPE_USER0 } from '../wire/pcapng/format.ts';
import { CAPTURE_KIND, captureRecordBody } from '../wire/pcapng/record.ts';
import type { CodecFlags, CliLink, Layer } from './codec-flags.ts';
import { toJsonValue } from './json/output.ts';
import { decodeItem, describe } from './layers.ts';
import { smpInside } from './smp-inside.ts';
import { processIo } from './stream-io.ts';
import type { CliIo } from './stream-io.ts';
import { formatTree } from './tree.ts';

/** What a record's kind says its body is, as `riodp decode` flags (docs/pcapng.md §2). */
const BODY: ReadonlyMap<number, { readonly layer: Layer; readonly link: CliLink; readonly name: 'packet' | 'symbol' }> = new Map([
  [FRAME_KIND.packet, { layer: 'serial', link: 'cs48', name: 'packet' }],
  [CAPTURE_KIND.packetCs24, { layer: 'serial', link: 'cs24', name: 'packet' }],
  [FRAME_KIND.cs48, { layer: 'symbol', link: 'cs48', name: 'symbol' }],
  [FRAME_KIND.cs64, { layer: 'symbol', link: 'cs64', name: 'symbol' }],
  [CAPTURE_KIND.cs24, { layer: 'symbol', link: 'cs24', name: 'symbol' }],
] as const);

const KIND_NAMES: ReadonlyMap<number, string> = new Map([
  [FRAME_KIND.packet, 'packet'], [CAPTURE_KIND.packetCs24, 'packetCs24'], [FRAME_KIND.cs48, 'cs48'], [FRAME_KIND.cs64, 'cs64'], [CAPTURE_KIND.cs24, 'cs24'],
]);

export type DecodePcapFlags = Omit<CodecFlags, 'layer' | 'link'> & { readonly json: boolean; readonly smp: boolean };

/**
 * `riodp decode --pcap FILE`: every record of a riodp capture (docs/pcapng.md), decoded as
 * `riodp decode` decodes the packet or symbol it holds, with the record's interface, time,
 * direction and comments. The record's kind says what its body is (`--layer` and `--link` do not
 * apply); `--voq-format`, `--voq-group-size`, `--lenient`, `--smp` and `--json` act as for hex
 * items. A record that does not decode is one stderr line and the run goes on; interfaces of
 * another link type are passed over and counted. Exit 0; 1 if the file cannot be read or is not
 * pcapng, or any record was bad.
 */
export async function runDecodePcap(file: string, flags: DecodePcapFlags, io: CliIo = processIo()): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (e) {
    io.stderr.write(`riodp: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`);
    return 1;
  }
  if (!isPcapng(bytes)) {
    io.stderr.write(`riodp: ${file} is not a pcapng file (it does not start with a Section Header Block)\n`);
    return 1;
  }
  const interfaces: PcapngInterfaceRead[] = [];
  let record = 0;
  let bad = 0;
  let foreign = 0;
  try {
    for (const item of readPcapng(bytes)) {
      if (item.kind === 'interface') interfaces.push(item.interface);
      if (item.kind !== 'packet') continue;
      record++;
      const iface = interfaces[item.packet.interface];
      if (iface?.linkType !== LINKTYPE_USER0) {
        foreign++;
        continue;
      }
      try {
        io.stdout.write(`${show(record, iface, item.packet, flags)}\n`);
      } catch (e) {
        if (!(e instanceof WireError)) throw e;
        bad++;
        io.stderr.write(`riodp: record ${record} (${iface.name}): ${e.message}\n`);
      }
    }
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    io.stderr.write(`riodp: ${file}: ${e.message}; the file ends here for riodp\n`);
    return 1;
  }
  if (foreign > 0) io.stderr.write(`riodp: ${foreign} record(s) on interfaces whose link type is not USER0 (147) were passed over\n`);
  return bad > 0 ? 1 : 0;
}

function show(record: number, iface: PcapngInterfaceRead, p: PcapngPacketRead, flags: DecodePcapFlags): string {
  const data = p.data;
  const kind = data.length >= FRAME_HEADER_BYTES ? (data[2] as number) : -1;
  const body = BODY.get(kind);
  let decoded: object;
  let tree: string;
  if (body === undefined) {
    // HELLO, CLOSE, reserved kinds, a record too short for its header: the link frame codec says.
    decoded = decodeFrame(data, 0, data.length, { strict: !flags.lenient });
    tree = JSON.stringify(toJsonValue(decoded));
  } else {
    const f: CodecFlags = { ...flags, layer: body.layer, link: body.link };
    const bodyBytes = data.subarray(captureRecordBody(data, 0, data.length).bodyAt);
    const value = decodeItem(bodyBytes, f);
    decoded = { [body.name]: flags.smp && body.name === 'packet' ? { ...value, smp: smpInside(value as Packet, !flags.lenient, true) } : value };
    tree = formatTree(describe(value, f), bodyBytes.length, value);
  }
  const head = {
    record,
    interface: iface.name,
    timeNs: p.timestampNs.toString(),
    ...(p.direction === undefined ? {} : { direction: p.direction }),
    ...(p.comments === undefined || p.comments.length === 0 ? {} : { comments: p.comments }),
    kind: KIND_NAMES.get(kind) ?? (decoded as { kindName?: string }).kindName ?? 'RESERVED',
  };
  if (flags.json) return JSON.stringify(toJsonValue(body === undefined ? { ...head, frame: decoded } : { ...head, ...decoded }));
  const notes = (p.comments ?? []).map((c) => `# ${c}\n`).join('');
  return `record ${record}  ${iface.name}  ${formatNs(p.timestampNs)}${p.direction === undefined ? '' : `  ${p.direction}`}  ${head.kind}\n${notes}${tree}`;
}

/** Seconds with nine decimals: the capture's nanoseconds, exactly. */
function formatNs(ns: bigint): string {
  return `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, '0')} s`;
}
