/**
 * Wire-layer benchmarks (docs/performance.md). Each task works on a batch of distinct packets so
 * that the timer's own cost, which is larger than one decode, is spread over the batch.
 * Goals (issue 2): ≥ 2.0 GB/s CRC-verify + decode of max-size Type 9 packets, ≥ 10 M CCP
 * decodes/s, on one core.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import { CRC16_WASM, crc16Packet } from '../src/wire/crc16.ts';
import { decodeSerialPacket, decodePacket, encodeSerialPacket, serialPacketLength } from '../src/wire/packet.ts';
import { decodeType7, encodeType7, makeCcp } from '../src/wire/type7.ts';
import { decodeType9 } from '../src/wire/type9.ts';
import type { Type9Packet } from '../src/wire/type9.ts';
import type { Type7Packet } from '../src/wire/type7.ts';
import { decodeSerial } from '../src/wire/serial.ts';
import { type7Codec } from '../src/wire/type7.ts';
import { decodeSymbol, encodeSymbol } from '../src/wire/symbol.ts';

const BATCH = 1024;
const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);

// Dev32 single segment with 256 payload bytes: 2 + 8 + 2 + 2 + 256 = 270 logical bytes, plus early
// and final CRC = 274, padded to 276: the largest Type 9 packet (Part 6 §2.5, DECISIONS §1).
function type9(i: number): Type9Packet {
  const payload = new Uint8Array(256);
  for (let k = 0; k < payload.length; k++) payload[k] = (k * 31 + i) & 0xff;
  return {
    ackID: i & 63, vc: 0, crf: 0, prio: 1, tt: 2, ftype: 9,
    destinationID: 0x01020304 + i, sourceID: 0x0a0b0c0d, cos: i & 0xff, start: 1, end: 1, xh: 0,
    segment: 'single', rsrv: 0, streamID: i & 0xffff, payload,
  };
}

function ccp(i: number): Type7Packet {
  return makeCcp({ tt: 0, destinationID: i & 0xff, tgtdestinationID: (i * 7) & 0xff, command: i & 1 ? 'XON' : 'XOFF', flowID: '0C', soc: 0 });
}

const t9 = Array.from({ length: BATCH }, (_, i) => type9(i));
const t9Wire = t9.map((p) => {
  const b = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, b, 0);
  return b;
});
const t9Len = t9Wire[0]!.length;
const ccps = Array.from({ length: BATCH }, (_, i) => ccp(i));
const ccpWire = ccps.map((p) => {
  const b = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, b, 0);
  return b;
});
const out = new Uint8Array(512);
const symBytes = Array.from({ length: BATCH }, (_, i) => {
  const b = new Uint8Array(6);
  encodeSymbol({ link: 'cs48', stype0: 4, parameter0: i & 63, parameter1: (i >> 6) & 31, stype1: 7, cmd: 0, stype2: 0x1000 | (i & 0x3ff) }, b, 0, { link: 'cs48' });
  return b;
});

let sink = 0;
const bench = new Bench({ time, warmup: true, warmupTime: 300 });
bench
  .add(`crc16 only, ${t9Len} bytes`, () => {
    for (const b of t9Wire) sink ^= crc16Packet(b, 0, b.length);
  })
  .add(`Type 9 serial decode (CRC verify + decode), ${t9Len} bytes`, () => {
    for (const b of t9Wire) sink ^= (decodeSerialPacket(b, 0, b.length) as Type9Packet).cos;
  })
  .add(`Type 9 transport decode only (no CRC), 270 bytes`, () => {
    for (const b of t9Wire) sink ^= decodeType9(b, 0, 270).cos;
  })
  .add(`Type 9 serial encode, ${t9Len} bytes`, () => {
    for (const p of t9) sink ^= encodeSerialPacket(p, out, 0);
  })
  .add('CCP Dev8 serial decode (CRC verify + decode), 8 bytes', () => {
    for (const b of ccpWire) sink ^= decodeSerial(type7Codec, b, 0, b.length).flowIDCode;
  })
  .add('CCP Dev8 transport decode only, 6 bytes', () => {
    for (const b of ccpWire) sink ^= decodeType7(b, 0, 6).flowIDCode;
  })
  .add('CCP Dev8 serial decode via ftype dispatch, 8 bytes', () => {
    for (const b of ccpWire) sink ^= (decodeSerialPacket(b, 0, b.length) as Type7Packet).flowIDCode;
  })
  .add('CCP Dev8 transport encode', () => {
    for (const p of ccps) sink ^= encodeType7(p, out, 0);
  })
  .add('CS48 control symbol decode (CRC-13 verify + VoQ stype2)', () => {
    for (const b of symBytes) sink ^= decodeSymbol(b, 0, 6, { link: 'cs48' }).stype0;
  })
  .add('decodePacket dispatch, Type 9 270 bytes', () => {
    for (const b of t9Wire) sink ^= (decodePacket(b, 0, 270) as Type9Packet).cos;
  });

await bench.run();

const rows = bench.tasks.map((t) => {
  const r = t.result;
  const meanMs = 'latency' in r ? r.latency.mean : NaN;
  const perItemNs = (meanMs * 1e6) / BATCH;
  const bytes = /(\d+) bytes/.exec(t.name)?.[1];
  const gbps = bytes ? (Number(bytes) / perItemNs).toFixed(2) : '';
  return { task: t.name, 'ns/item': perItemNs.toFixed(1), 'M items/s': (1e3 / perItemNs).toFixed(2), 'GB/s': gbps };
});
console.table(rows);
const cpu = cpus()[0]?.model ?? 'unknown cpu';
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${cpu} · ${cpus().length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · CRC-16 ${CRC16_WASM ? 'WebAssembly' : 'JS'} · load ${loadavg()[0]!.toFixed(2)}`);
console.log('| task | ns/item | M items/s | GB/s |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.task} | ${r['ns/item']} | ${r['M items/s']} | ${r['GB/s']} |`);
if (sink === 0.5) console.log(sink);
