/**
 * Issue 17, first step: the receive-side frame batch against the object path, same bytes, same
 * run (docs/performance.md, docs/fast-lane.md). A chunk of N PACKET frames, each a max-size
 * (276-byte) Type 9 single segment, is
 *   - batch: FrameBatch.parse (frame boundaries, header columns, CRC-16 and early CRC of every
 *     packet in one pass, Type 9 checks), then a read of the routing columns;
 *   - crc16Packets only: pass 2 of parse alone, the bound of the batch;
 *   - object: FrameReader.push with decodeFrame per frame (decodeSerialPacket, CRC verify, one
 *     packet object and payload view each), then a read of the same fields.
 * GB/s counts the 276 bytes of each LP-Serial packet (the issue 2/17 goal: ≥ 2.0 GB/s batch Type 9
 * CRC-verify + decode); the 3-byte frame header is not counted.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import { CRC16_WASM, crc16Packets } from '../src/wire/crc16.ts';
import { FrameBatch } from '../src/wire/frame-batch.ts';
import { FrameReader } from '../src/wire/frame-reader.ts';
import { decodeFrame, encodeFrame, packetFrame } from '../src/wire/frame.ts';
import type { Type9Packet } from '../src/wire/type9.ts';

const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);
const FRAME = 279;
const PACKET = 276;

function type9(i: number): Type9Packet {
  const payload = new Uint8Array(256).map((_, k) => (k * 31 + i) & 0xff);
  return {
    ackID: i & 63, vc: 0, crf: 0, prio: 1, tt: 2, ftype: 9, destinationID: 0x01020304 + i, sourceID: 0x0a0b0c0d,
    cos: i & 0xff, start: 1, end: 1, xh: 0, segment: 'single', rsrv: 0, streamID: i & 0xffff, payload,
  };
}

function chunkOf(n: number): Uint8Array {
  const out = new Uint8Array(FRAME * n);
  let at = 0;
  for (let i = 0; i < n; i++) at = encodeFrame(packetFrame(type9(i)), out, at);
  return out;
}

let sink = 0;
const batch = new FrameBatch();
const reader = new FrameReader();
const objectSink = (b: Uint8Array, o: number, e: number): void => {
  const f = decodeFrame(b, o, e);
  if (f.kindName === 'packet') {
    const p = f.packet as Type9Packet;
    sink ^= p.destinationID ^ p.cos ^ (p.segment === 'single' ? p.streamID : 0);
  }
};

const sizes = [64, 200, 1024];
const bench = new Bench({ time, warmup: true, warmupTime: 300 });
for (const n of sizes) {
  const chunk = chunkOf(n);
  bench
    .add(`batch N=${n}`, () => {
      batch.parse(chunk, 0, chunk.length);
      if (batch.bad !== 0) throw new Error('bad frames');
      const dest = batch.destinationID;
      const cos = batch.cos;
      const sid = batch.streamID;
      for (let i = 0; i < batch.count; i++) sink ^= (dest[i] as number) ^ (cos[i] as number) ^ (sid[i] as number);
    })
    .add(`object N=${n}`, () => {
      reader.push(chunk, objectSink);
    });
}

// The CRC pass alone (pass 2 of parse), to show what bounds the batch.
{
  const n = 200;
  const chunk = chunkOf(n);
  const at = new Uint32Array(n).map((_, i) => FRAME * i + 3);
  const len = new Uint16Array(n).fill(270);
  const crcs = new Uint32Array(n);
  bench.add(`crc16Packets only N=${n}`, () => {
    crc16Packets(chunk, at, len, n, crcs);
    sink ^= crcs[0] as number;
  });
}

await bench.run();

const perPacketNs = new Map<string, number>();
for (const t of bench.tasks) {
  const r = t.result;
  const meanMs = 'latency' in r ? r.latency.mean : NaN;
  const n = Number(/N=(\d+)/.exec(t.name)?.[1]);
  perPacketNs.set(t.name, (meanMs * 1e6) / n);
}
const cpu = cpus()[0]?.model ?? 'unknown cpu';
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpu} · ${cpus().length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · CRC-16 ${CRC16_WASM ? 'WebAssembly' : 'JS'} · load ${loadavg()[0]!.toFixed(2)}`);
console.log('| chunk | batch ns/packet | batch GB/s | object ns/packet | object GB/s | batch / object |\n|---|---|---|---|---|---|');
for (const n of sizes) {
  const b = perPacketNs.get(`batch N=${n}`) ?? NaN;
  const o = perPacketNs.get(`object N=${n}`) ?? NaN;
  console.log(`| ${n} × 279-byte frames (${((n * FRAME) / 1024).toFixed(1)} KiB) | ${b.toFixed(1)} | ${(PACKET / b).toFixed(2)} | ${o.toFixed(1)} | ${(PACKET / o).toFixed(2)} | ${(o / b).toFixed(2)}× |`);
}
const crcOnly = perPacketNs.get('crc16Packets only N=200') ?? NaN;
console.log(`\nCRC pass alone (crc16Packets, N=200): ${crcOnly.toFixed(1)} ns/packet, ${(PACKET / crcOnly).toFixed(2)} GB/s`);
if (sink === 0.5) console.log(sink);
