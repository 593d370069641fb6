/**
 * Issue 17, the CRC-16 kernel and the batched encoder CRCs, before and after in ONE run
 * (docs/performance.md): each task runs on this tree's modules and on a baseline checkout's
 * (RIODP_BASELINE, a worktree of the commit to compare with), alternately in the same process, so
 * the machine's load moves both alike.
 *   RIODP_BASELINE=/path/to/old/checkout node --import tsx bench/crc-baseline.bench.ts
 * Without RIODP_BASELINE only this tree's figures are printed. BENCH_ROUNDS (3) alternations,
 * BENCH_TIME_MS (1000) per task and round.
 * Tasks, per packet: crc16Packets over 200 maximum-size Type 9 packets of one chunk (the CRC pass
 * of FrameBatch.parse); FrameBatch.parse of the same 200 frames (batch Type 9 CRC-verify + decode,
 * GB/s of the 276-byte serial packets); Segmenter.pullInto of a 64 KiB PDU at MTU 256 (per
 * segment); SendBatch.add of 200 maximum-size and of 200 small (16-byte payload) Type 9 packet
 * frames, then flush to a socket that drops the bytes.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import * as crcNow from '../src/wire/crc16.ts';
import * as batchNow from '../src/wire/frame-batch.ts';
import * as segNow from '../src/streaming/segmenter.ts';
import * as sendNow from '../src/net/send-batch.ts';
import { encodeFrame, packetFrame } from '../src/wire/frame.ts';
import type { Type9Packet } from '../src/wire/type9.ts';

interface Side {
  readonly crc: typeof crcNow;
  readonly batch: typeof batchNow;
  readonly seg: typeof segNow;
  readonly send: typeof sendNow;
}
const now: Side = { crc: crcNow, batch: batchNow, seg: segNow, send: sendNow };
const baseDir = process.env['RIODP_BASELINE'];
const base: Side | null = baseDir === undefined
  ? null
  : {
      crc: (await import(`${baseDir}/src/wire/crc16.ts`)) as typeof crcNow,
      batch: (await import(`${baseDir}/src/wire/frame-batch.ts`)) as typeof batchNow,
      seg: (await import(`${baseDir}/src/streaming/segmenter.ts`)) as typeof segNow,
      send: (await import(`${baseDir}/src/net/send-batch.ts`)) as typeof sendNow,
    };

const time = Number(process.env['BENCH_TIME_MS'] ?? 1000);
const N = 200;
const FRAME = 279;

function type9(i: number, size: number): Type9Packet {
  const payload = new Uint8Array(size).map((_, k) => (k * 31 + i) & 0xff);
  return {
    ackID: i & 63, vc: 0, crf: 0, prio: 1, tt: 2, ftype: 9, destinationID: 0x01020304 + i, sourceID: 0x0a0b0c0d,
    cos: i & 0xff, start: 1, end: 1, xh: 0, segment: 'single', rsrv: 0, streamID: i & 0xffff, payload,
  };
}
const big = Array.from({ length: N }, (_, i) => type9(i, 256));
const small = Array.from({ length: N }, (_, i) => type9(i, 16));
const chunk = new Uint8Array(FRAME * N);
big.reduce((at, p) => encodeFrame(packetFrame(p), chunk, at), 0);
const crcAt = new Uint32Array(N).map((_, i) => FRAME * i + 3);
const crcN = new Uint16Array(N).fill(270);
const pdu = { kind: 'pdu', destinationID: 5, cos: 0, streamID: 1, flowID: '1A', payload: Buffer.alloc(65536, 7) } as const;
const nullSocket = { destroyed: false, write: (): boolean => true };

let sink = 0;
function tasks(side: Side): Record<string, [perTask: number, run: () => void]> {
  const out = new Uint32Array(N);
  const fb = new side.batch.FrameBatch();
  const segmenter = new side.seg.Segmenter({ mtu: 256, sourceID: 1 });
  const buf = new Uint8Array(65536);
  const sb = new side.send.SendBatch(nullSocket, 65536);
  const bigFrames = big.map((p) => packetFrame(p));
  const smallFrames = small.map((p) => packetFrame(p));
  return {
    'crc16Packets, 200 × 270-byte packets': [N, () => { side.crc.crc16Packets(chunk, crcAt, crcN, N, out); sink ^= out[7] as number; }],
    'FrameBatch.parse, 200 × 279-byte frames': [N, () => { fb.parse(chunk, 0, chunk.length); sink ^= fb.destinationID[5] as number; }],
    'Segmenter.pullInto, 64 KiB PDU (per segment)': [256, () => {
      segmenter.handle(pdu, 0);
      while (segmenter.pullInto(buf, 0, buf.length) !== 0) sink ^= buf[100] as number;
    }],
    'SendBatch.add + flush, 200 max-size Type 9': [N, () => { for (const f of bigFrames) sb.add(f); sb.flush(); }],
    'SendBatch.add + flush, 200 Type 9 of 16 payload bytes': [N, () => { for (const f of smallFrames) sb.add(f); sb.flush(); }],
  };
}

// Before and after alternate, ROUNDS times over: each figure is the best round's mean, the one
// least disturbed by the other processes of a shared machine.
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const bench = new Bench({ time, warmup: true, warmupTime: 200 });
const mine = tasks(now);
const theirs = base === null ? null : tasks(base);
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, [, run]] of Object.entries(mine)) {
    if (theirs !== null) bench.add(`before: ${name} #${r}`, (theirs[name] as [number, () => void])[1]);
    bench.add(`after: ${name} #${r}`, run);
  }
}
await bench.run();
const ns = (name: string, per: number): number => {
  let best = NaN;
  for (const t of bench.tasks) {
    if (!t.name.startsWith(`${name} #`) || !('latency' in t.result)) continue;
    const v = (t.result.latency.mean * 1e6) / per;
    if (!(v >= best)) best = v;
  }
  return best;
};
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpus()[0]?.model ?? 'cpu'} · ${cpus().length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · CRC-16 ${crcNow.CRC16_WASM ? 'WebAssembly' : 'JS'} · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| task | before ns/packet | after ns/packet | after / before speed | after GB/s (276-byte packets) |\n|---|---|---|---|---|');
for (const [name, [per]] of Object.entries(mine)) {
  const a = ns(`after: ${name}`, per);
  const b = ns(`before: ${name}`, per);
  const gbs = name.includes('16 payload') || name.includes('pullInto') ? '—' : (276 / a).toFixed(2);
  console.log(`| ${name} | ${b.toFixed(1)} | ${a.toFixed(1)} | ${(b / a).toFixed(2)}× | ${gbs} |`);
}
if (sink === 0.5) console.log(sink);
