/**
 * CRC-16 paths side by side (docs/performance.md): the JS slicing-by-16 loop against the
 * WebAssembly kernel, with the copy into the kernel's memory in each case, and the fused check and
 * join that serial framing uses for packets longer than 80 bytes. Run them in one process: the
 * machine's load moves absolute numbers far more than the differences measured here.
 *   node --import tsx bench/crc16.bench.ts     (BENCH_TIME_MS to shorten)
 */
import { loadavg } from 'node:os';
import { Bench } from 'tinybench';
import { CRC16_INIT, CRC16_WASM, crc16Packet, crc16Split, crc16SplitJs, crc16Update, crc16UpdateJs } from '../src/wire/crc16.ts';

const BATCH = 1024;
const SIZE = 276;
const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);

/** Maximum-size packets (Type 9, 270 logical bytes) with valid early and final CRCs. */
function packet(i: number): Uint8Array {
  const b = new Uint8Array(SIZE);
  for (let k = 0; k < SIZE; k++) b[k] = (k * 31 + i * 7 + (k >> 3)) & 0xff;
  const early = crc16Packet(b, 0, 80);
  b[80] = early >> 8;
  b[81] = early & 0xff;
  const final = crc16Packet(b, 0, 272);
  b[272] = final >> 8;
  b[273] = final & 0xff;
  b[274] = 0;
  b[275] = 0;
  return b;
}

const packets = Array.from({ length: BATCH }, (_, i) => packet(i));
// The same packets back to back in one receive buffer: spans there need a subarray to stage.
const rx = new Uint8Array(SIZE * BATCH);
packets.forEach((p, i) => {
  rx.set(p, i * SIZE);
});
const ccps = packets.map((p) => p.slice(0, 6));
const joined = new Uint8Array(BATCH * SIZE + 284);

let sink = 0;
const bench = new Bench({ time, warmup: true, warmupTime: 300 });
bench
  .add(`JS crc16UpdateJs, ${SIZE} bytes`, () => {
    for (const b of packets) sink ^= crc16UpdateJs(CRC16_INIT, b, 0, b.length);
  })
  .add(`crc16Update, whole ${SIZE}-byte array, ${SIZE} bytes`, () => {
    for (const b of packets) sink ^= crc16Update(CRC16_INIT, b, 0, b.length);
  })
  .add(`crc16Update, span of a receive buffer, ${SIZE} bytes`, () => {
    for (let i = 0; i < BATCH; i++) sink ^= crc16Update(CRC16_INIT, rx, i * SIZE, (i + 1) * SIZE);
  })
  .add(`crc16Split (check + join), ${SIZE} bytes`, () => {
    for (let i = 0; i < BATCH; i++) sink ^= crc16Split(packets[i]!, 0, 270, joined, i * SIZE);
  })
  .add(`JS crc16SplitJs (check + join), ${SIZE} bytes`, () => {
    for (let i = 0; i < BATCH; i++) sink ^= crc16SplitJs(packets[i]!, 0, 270, joined, i * SIZE);
  })
  .add('crc16Packet, CCP 6 bytes', () => {
    for (const b of ccps) sink ^= crc16Packet(b, 0, 6);
  });

await bench.run();

const rows = bench.tasks.map((t) => {
  const r = t.result;
  const perItemNs = (('latency' in r ? r.latency.mean : NaN) * 1e6) / BATCH;
  const bytes = /(\d+) bytes/.exec(t.name)?.[1];
  return { task: t.name, 'ns/item': perItemNs.toFixed(1), 'GB/s': bytes ? (Number(bytes) / perItemNs).toFixed(2) : '' };
});
console.table(rows);
console.log(`CRC-16 kernel: ${CRC16_WASM ? 'WebAssembly' : 'JS (no WebAssembly)'} · load ${loadavg()[0]!.toFixed(2)}`);
if (sink === 0.5) console.log(sink);
