/**
 * The fabric demo's captures (`npm run demo:fabric -- --pcap DIR`, issue 19): a file transfer
 * found again in an end point's capture, by riodp (`riodp reassemble --pcap`, the file-transfer
 * header) and by tshark with the dissector (the stream's segments).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeFileHeader } from '../../src/net/api-file-format.ts';
import type { FileHeader } from '../../src/net/api-file-format.ts';
import { riodpBytes } from '../cli/streaming-cli.ts';
import { DISSECTOR, findTshark } from '../wireshark/tshark.ts';

const run = promisify(execFile);

export function demoCaptureDir(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-demo-pcap-'));
  return { dir, done: () => { rmSync(dir, { recursive: true, force: true }); } };
}

export interface CapturedTransfer {
  readonly header: FileHeader;
  /** SHA-256 of the data PDUs that followed the header on its stream, cut at the announced size. */
  readonly sha256: string;
  /** Data PDUs of the file. */
  readonly pdus: number;
  readonly streamID: number;
  /** PDUs riodp reassembled on that stream from `<node>.p0.tx` (this file's and any other's). */
  readonly streamPdus: number;
  /** Records tshark shows on `<node>.p0.tx` with `riodp.type9.streamid` equal to the stream's. */
  readonly tsharkStarts: number;
  /** Type 9 data packets riodp reassembled from `<node>.p0.tx`, and the Type 9 segments tshark shows there. */
  readonly riodpSegments: number;
  readonly tsharkSegments: number;
}

async function tsharkCount(file: string, filter: string): Promise<number> {
  const tshark = findTshark();
  if (tshark.path === undefined) throw new Error(tshark.missing);
  const { stdout } = await run(tshark.path, ['-X', `lua_script:${DISSECTOR}`, '-r', file, '-Y', filter, '-T', 'fields', '-e', 'frame.number'], { maxBuffer: 1 << 28, encoding: 'utf8' });
  return stdout.split('\n').filter((l) => l !== '').length;
}

/** The transfer of `name` that end point `node` sent, from its capture in `dir`. */
export async function captureTransfer(dir: string, node: string, name: string): Promise<CapturedTransfer> {
  const file = join(dir, `${node}.pcapng`);
  const iface = `${node}.p0.tx`;
  const out = mkdtempSync(join(tmpdir(), 'riodp-demo-pdus-'));
  try {
    const r = riodpBytes(['reassemble', '--pcap', file, '--interface', iface, '--out-dir', out]);
    if (r.status !== 0) throw new Error(`riodp reassemble --pcap: ${r.stderr}`);
    const segments = /(\d+) Type 9 packets reassembled/.exec(r.stderr);
    const files = readdirSync(out).sort();
    const streamOf = (f: string): number => Number(/-stream(\d+)\.bin$/.exec(f)?.[1]);
    const at = files.findIndex((f) => {
      const h = decodeFileHeader(readFileSync(join(out, f)));
      return h.ok && h.value.name === name;
    });
    if (at < 0) throw new Error(`no file-transfer header of ${name} among the ${files.length} PDUs ${node} sent`);
    const h = decodeFileHeader(readFileSync(join(out, files[at] as string)));
    if (!h.ok) throw new Error(h.error);
    const streamID = streamOf(files[at] as string);
    const hash = createHash('sha256');
    let got = 0;
    let pdus = 0;
    for (const f of files.slice(at + 1)) {
      if (got >= h.value.size) break;
      if (streamOf(f) !== streamID) continue;
      const pdu = readFileSync(join(out, f));
      const take = pdu.subarray(0, Math.min(pdu.length, h.value.size - got));
      hash.update(take);
      got += take.length;
      pdus++;
    }
    const inIface = `frame.interface_name == "${iface}"`;
    return {
      header: h.value,
      sha256: hash.digest('hex'),
      pdus,
      streamID,
      streamPdus: files.filter((f) => streamOf(f) === streamID).length,
      tsharkStarts: await tsharkCount(file, `${inIface} && riodp.type9.streamid == ${streamID}`),
      riodpSegments: Number(segments?.[1]),
      tsharkSegments: await tsharkCount(file, `${inIface} && riodp.type9.segment`),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
