/**
 * Issue 17, transmit side: `Segmenter.pullInto` against the object path, same PDU, same run
 * (docs/performance.md, docs/fast-lane.md §6). Each task segments one 64 KiB PDU at MTU 256
 * (256 segments, Dev8 IDs) into riodp link PACKET frames in a 64 KiB send batch, reused:
 *   - pullInto: `pullInto(batch, 0, batch.length)` until it returns 0 (header, one payload copy,
 *     CRC-16 and early CRC over the batch in place, no object per segment);
 *   - object: `handle({ kind: 'pull-any', max: 32 })`, then per `send` what SendBatch.add does,
 *     `frameLength` + `encodeFrame(packetFrame(packet))` (encodeSerialPacket: CRCs, pad);
 *   - Buffer.copy: the 64 KiB PDU copied into a 64 KiB Buffer, once (the reference).
 * GB/s is PDU payload bytes / mean time per PDU; "vs copy" is the copy's mean time / the task's.
 * This is the segment half of the "segment + reassemble with CRCs" goal.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import { Segmenter } from '../src/streaming/segmenter.ts';
import { CRC16_WASM } from '../src/wire/crc16.ts';
import { encodeFrame, frameLength, packetFrame } from '../src/wire/frame.ts';

const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);
const PDU = 65536;
const payload = Buffer.alloc(PDU);
for (let i = 0; i < PDU; i++) payload[i] = (i * 31) & 0xff;
const copyTarget = Buffer.alloc(PDU);
const batch = new Uint8Array(65536);
let sink = 0;

const pdu = { kind: 'pdu', destinationID: 5, cos: 0, streamID: 1, flowID: '1A', payload } as const;
const pullAny = { kind: 'pull-any', max: 32 } as const;
const fast = new Segmenter({ mtu: 256, sourceID: 1 });
const gold = new Segmenter({ mtu: 256, sourceID: 1 });

function viaPullInto(): number {
  fast.handle(pdu, 0);
  let frames = 0;
  for (;;) {
    const n = fast.pullInto(batch, 0, batch.length);
    if (n === 0) break;
    frames += n;
    sink ^= batch[n - 1] as number;
  }
  return frames;
}

function viaObjects(): number {
  gold.handle(pdu, 0);
  let frames = 0;
  let at = 0;
  for (;;) {
    const outs = gold.handle(pullAny, 0);
    let sent = false;
    for (const o of outs) {
      if (o.kind !== 'send') continue;
      sent = true;
      const f = packetFrame(o.packet);
      if (at + frameLength(f) > batch.length) {
        sink ^= batch[at - 1] as number;
        frames += at;
        at = 0;
      }
      at = encodeFrame(f, batch, at);
    }
    if (!sent) break;
  }
  return frames + at;
}

// Same bytes, checked once before timing.
{
  const a = new Uint8Array(80000);
  const b = new Uint8Array(80000);
  fast.handle(pdu, 0);
  gold.handle(pdu, 0);
  const n = fast.pullInto(a, 0, a.length);
  let at = 0;
  for (const o of gold.handle({ kind: 'pull-any', max: 256 }, 0)) if (o.kind === 'send') at = encodeFrame(packetFrame(o.packet), b, at);
  if (n !== at || Buffer.compare(a.subarray(0, n), b.subarray(0, at)) !== 0) throw new Error('pullInto and the object path differ');
  if (fast.pullInto(a, 0, a.length) !== 0) throw new Error('PDU not done');
}
const frameBytes = viaPullInto();
if (viaObjects() !== frameBytes) throw new Error('frame bytes differ');

const bench = new Bench({ time, warmup: true, warmupTime: 300 });
bench
  .add('pullInto', () => {
    viaPullInto();
  })
  .add('object (pull-any + encodeFrame(packetFrame))', () => {
    viaObjects();
  })
  .add('Buffer.copy 64 KiB', () => {
    payload.copy(copyTarget, 0, 0, PDU);
    sink ^= copyTarget[PDU - 1] as number;
  });
await bench.run();

const mean = new Map<string, number>();
for (const t of bench.tasks) {
  const r = t.result;
  mean.set(t.name, 'latency' in r ? r.latency.mean : NaN);
}
const cpu = cpus()[0]?.model ?? 'unknown cpu';
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpu} · ${cpus().length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · CRC-16 ${CRC16_WASM ? 'WebAssembly' : 'JS'} · load ${loadavg()[0]!.toFixed(2)}`);
console.log(`64 KiB PDU, MTU 256: 256 segments, ${frameBytes} frame bytes\n`);
const copy = mean.get('Buffer.copy 64 KiB') ?? NaN;
const fastMs = mean.get('pullInto') ?? NaN;
console.log('| task | µs/PDU | ns/segment | GB/s (payload) | vs Buffer.copy | vs object |\n|---|---|---|---|---|---|');
for (const [name, ms] of mean) {
  const gbs = PDU / (ms * 1e6);
  const seg = name.startsWith('Buffer') ? '—' : ((ms * 1e6) / 256).toFixed(1);
  const vsObj = (mean.get('object (pull-any + encodeFrame(packetFrame))') ?? NaN) / ms;
  console.log(`| ${name} | ${(ms * 1000).toFixed(1)} | ${seg} | ${gbs.toFixed(2)} | ${((copy / ms) * 100).toFixed(1)} % | ${vsObj.toFixed(2)}× |`);
}
console.log(`\npullInto / object: ${((mean.get('object (pull-any + encodeFrame(packetFrame))') ?? NaN) / fastMs).toFixed(2)}×`);
if (sink === 0.5) console.log(sink);
