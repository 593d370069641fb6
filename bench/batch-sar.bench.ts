/**
 * Issue 17 "batch segment + reassemble with CRCs ≥ 1.0 GB/s and ≥ 25 % of Buffer.copy": one 64 KiB
 * PDU at MTU 256 (256 segments, Dev8) segmented into riodp link PACKET frames and reassembled, in
 * one process, no sockets (docs/performance.md, docs/fast-lane.md):
 *   - batch: `Segmenter.pullInto` into an 80 KiB buffer (header, payload copy, CRC-16 and early
 *     CRC in one WebAssembly call), `FrameBatch.parse` of those frames (CRC check in one call,
 *     columns), `Reassembler.frame` per frame (payload copied once into the PDU's buffer); with
 *     `recycle`, the delivered buffer goes back to the reassembler's pool (bufferPool 2);
 *   - object: `pull-any` + `encodeFrame(packetFrame)` per segment, `decodeFrame` per frame
 *     (CRC check per packet), `handle({ kind: 'packet' })` per segment;
 *   - Buffer.copy: the 64 KiB PDU copied once (the reference).
 * GB/s is PDU payload bytes / mean time per PDU.
 *   node --import tsx bench/batch-sar.bench.ts     (BENCH_TIME_MS to shorten)
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import { Reassembler } from '../src/streaming/reassembler.ts';
import type { ReassemblerOutput } from '../src/streaming/reassembler-types.ts';
import { Segmenter } from '../src/streaming/segmenter.ts';
import { CRC16_WASM } from '../src/wire/crc16.ts';
import { FrameBatch } from '../src/wire/frame-batch.ts';
import { decodeFrame, encodeFrame, frameLength, packetFrame } from '../src/wire/frame.ts';
import type { Type9Packet } from '../src/wire/type9-types.ts';

const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);
const PDU = 65536;
const payload = Buffer.alloc(PDU);
for (let i = 0; i < PDU; i++) payload[i] = (i * 31) & 0xff;
const copyTarget = Buffer.alloc(PDU);
const wire = new Uint8Array(80 * 1024);
const pdu = { kind: 'pdu', destinationID: 5, cos: 0, streamID: 1, flowID: '1A', payload } as const;
const batch = new FrameBatch({ capacity: 512 });
let sink = 0;

function batchPath(seg: Segmenter, rx: Reassembler, recycle: boolean): void {
  seg.handle(pdu, 0);
  const n = seg.pullInto(wire, 0, wire.length);
  batch.parse(wire, 0, n);
  const out: ReassemblerOutput[] = [];
  for (let i = 0; i < batch.count; i++) rx.frame(batch, i, wire, 0, out);
  const got = out.find((o) => o.kind === 'pdu');
  if (got === undefined || got.payload.length !== PDU) throw new Error('no PDU');
  sink ^= got.payload[PDU - 1] as number;
  if (recycle) rx.handle({ kind: 'recycle', payload: got.payload }, 0);
}

function objectPath(seg: Segmenter, rx: Reassembler): void {
  seg.handle(pdu, 0);
  let at = 0;
  for (const o of seg.handle({ kind: 'pull-any', max: 256 }, 0)) {
    if (o.kind !== 'send') continue;
    const f = packetFrame(o.packet);
    at = encodeFrame(f, wire, at) + 0 * frameLength(f);
  }
  let got: Uint8Array | null = null;
  for (let i = 0; i < at; ) {
    const end = i + 2 + (((wire[i] as number) << 8) | (wire[i + 1] as number));
    const f = decodeFrame(wire, i, end);
    i = end;
    if (f.kindName !== 'packet') throw new Error('not a packet');
    for (const r of rx.handle({ kind: 'packet', packet: f.packet as Type9Packet }, 0)) if (r.kind === 'pdu') got = r.payload;
  }
  if (got?.length !== PDU) throw new Error('no PDU');
  sink ^= got[PDU - 1] as number;
}

const segB = new Segmenter({ mtu: 256, sourceID: 1 });
const rxB = new Reassembler({ mtu: 256 });
const segR = new Segmenter({ mtu: 256, sourceID: 1 });
const rxR = new Reassembler({ mtu: 256, bufferPool: 2 });
const segO = new Segmenter({ mtu: 256, sourceID: 1 });
const rxO = new Reassembler({ mtu: 256 });

const bench = new Bench({ time, warmup: true, warmupTime: 300 });
bench
  .add('batch: pullInto + FrameBatch.parse + Reassembler.frame', () => { batchPath(segB, rxB, false); })
  .add('batch, PDU buffers recycled (bufferPool 2)', () => { batchPath(segR, rxR, true); })
  .add('object: pull-any + encodeFrame, decodeFrame + packet input', () => { objectPath(segO, rxO); })
  .add('Buffer.copy 64 KiB', () => { payload.copy(copyTarget); sink ^= copyTarget[PDU - 1] as number; });
await bench.run();

const mean = (name: string): number => {
  const t = bench.tasks.find((x) => x.name === name);
  const r = t?.result;
  if (r === undefined || !('latency' in r)) throw new Error(`no result for ${name}`);
  return r.latency.mean;
};
const copyMs = mean('Buffer.copy 64 KiB');
const objectMs = mean('object: pull-any + encodeFrame, decodeFrame + packet input');
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpus()[0]?.model ?? '?'} · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · CRC-16 ${CRC16_WASM ? 'WebAssembly' : 'JS'} · load ${loadavg()[0]?.toFixed(2) ?? '?'}`);
console.log('64 KiB PDU, MTU 256: 256 segments, segmented and reassembled with CRCs\n');
console.log('| task | µs/PDU | GB/s (payload) | vs Buffer.copy | vs object |\n|---|---|---|---|---|');
for (const t of bench.tasks) {
  const ms = mean(t.name);
  console.log(`| ${t.name} | ${(ms * 1000).toFixed(1)} | ${(PDU / 1e6 / ms).toFixed(2)} | ${((100 * copyMs) / ms).toFixed(1)} % | ${(objectMs / ms).toFixed(2)}× |`);
}
if (sink === 0.5) console.log(sink);
