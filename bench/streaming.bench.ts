/**
 * Data streaming benchmark (docs/performance.md). Goals (issue "Benchmark: segment + reassemble"):
 * segment + reassemble 64 KiB PDUs at MTU 256 at ≥ 2.0 GB/s and at ≥ 50 % of the bandwidth of
 * `Buffer.copy` of the same bytes, measured in the same run.
 *
 * Tasks, each on one 64 KiB PDU (256 segments of 256 bytes; the last is an end segment with
 * length 0, "0x0000 - 64kbytes"):
 *  - segmentPdu alone (the segment objects, payloads are views);
 *  - Segmenter + Reassembler through their `handle` APIs on transport-level packet objects (no
 *    serial framing, no CRC): one `pdu` input, `pull`s with `max` 32 until the PDU is out, each
 *    `send` packet fed to the reassembler as a `packet` input, the last one giving the `pdu`
 *    delivery; and the same with one `pull` for the whole PDU (last row);
 *  - the same, pulls of 32, with a Reassembler with `bufferPool: 4` whose receiver hands each
 *    delivered PDU back with a `recycle` input once it has read it, so that PDUs are reassembled into
 *    recycled buffers instead of new allocations;
 *  - the same with LP-Serial framing on both sides: encodeSerialPacket (CRC-16, early CRC, pad)
 *    after the segmenter and decodeSerialPacket (CRC verify, join) before the reassembler;
 *  - `Buffer.copy` of the same 64 KiB; for reference a fresh 64 KiB Uint8Array filled by `set`
 *    (the reassembler must hand each PDU over in a buffer of its own, so this is its floor) and a
 *    copy at the one placement where this machine's memcpy is slow.
 * GB/s is PDU payload bytes / mean time per PDU; "vs copy" is the copy's mean time / the task's.
 *
 *   node --import tsx bench/streaming.bench.ts         (BENCH_TIME_MS per task, default 1500)
 *   npm run build && BENCH_DIST=1 node --import tsx bench/streaming.bench.ts
 * BENCH_DIST=1 imports the engines from dist/ (tsc output, what the package ships) instead of
 * src/ through tsx, whose transform makes every imported binding a getter call.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { Bench } from 'tinybench';
import type * as PacketModule from '../src/wire/packet.ts';
import type * as SegmentPduModule from '../src/streaming/segment-pdu.ts';
import type * as SegmenterModule from '../src/streaming/segmenter.ts';
import type * as ReassemblerModule from '../src/streaming/reassembler.ts';
import type * as Crc16Module from '../src/wire/crc16.ts';
import type { SegmenterInput } from '../src/streaming/segmenter-types.ts';
import type { Type9Packet } from '../src/wire/type9-types.ts';

const fromDist = process.env['BENCH_DIST'] === '1';
const modulePath = (p: string): string => (fromDist ? `../dist/${p}.js` : `../src/${p}.ts`);
const { encodeSerialPacket, decodeSerialPacket } = (await import(modulePath('wire/packet'))) as typeof PacketModule;
const { segmentPdu } = (await import(modulePath('streaming/segment-pdu'))) as typeof SegmentPduModule;
const { Segmenter } = (await import(modulePath('streaming/segmenter'))) as typeof SegmenterModule;
const { Reassembler } = (await import(modulePath('streaming/reassembler'))) as typeof ReassemblerModule;
const { CRC16_WASM } = (await import(modulePath('wire/crc16'))) as typeof Crc16Module;

const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);
const PDU_BYTES = 0x10000;
const MTU = 256;
const SEGMENTS = PDU_BYTES / MTU;

const payload = new Uint8Array(PDU_BYTES);
for (let i = 0; i < PDU_BYTES; i++) payload[i] = (i * 31 + (i >> 8)) & 0xff;
// Source and destination of the copy in one allocation, half a page apart modulo 4 KiB. Two 64 KiB
// Buffers allocated one after the other sit 16 bytes apart modulo 4 KiB (the malloc chunk header),
// and at that distance this machine's memcpy (rep movsb) runs some 20 times slower: the last row.
const arena = Buffer.alloc(3 * PDU_BYTES + 4096);
const copySrc = arena.subarray(0, PDU_BYTES);
const copyDst = arena.subarray(PDU_BYTES + 2048, 2 * PDU_BYTES + 2048);
const aliasDst = arena.subarray(2 * PDU_BYTES + 16, 3 * PDU_BYTES + 16);
copySrc.set(payload);

const pduInput: SegmenterInput = { kind: 'pdu', destinationID: 2, cos: 7, streamID: 0x1234, flowID: '0A', payload };
// Pulls of up to 32 segments, as a link driver with room for 32 packets would make. One pull for
// the whole PDU (`max` 257) is the last row: its 256 outputs, packets and views stay alive together
// and survive young-generation collections, which took 1.4–1.9 times as long in a standalone loop.
const PULL_MAX = 32;
const pullInput: SegmenterInput = { kind: 'pull', destinationID: 2, flowID: '0A', max: PULL_MAX };
const pullWhole: SegmenterInput = { kind: 'pull', destinationID: 2, flowID: '0A', max: SEGMENTS + 1 };

interface Pair {
  readonly segmenter: InstanceType<typeof Segmenter>;
  readonly reassembler: InstanceType<typeof Reassembler>;
}
const pair = (): Pair => ({ segmenter: new Segmenter({ mtu: MTU, sourceID: 1 }), reassembler: new Reassembler({ mtu: MTU }) });
const batched = pair();
const whole = pair();
const serialPair = pair();
const recycling: Pair = { segmenter: new Segmenter({ mtu: MTU, sourceID: 1 }), reassembler: new Reassembler({ mtu: MTU, bufferPool: 4 }) };
// Up to PULL_MAX serial packets of 276 bytes (270 logical + 2 CRCs + pad), back to back as a receive buffer holds them.
const frames = new Uint8Array(PULL_MAX * 284);
const spans: number[] = [];
let now = 0;

/** One PDU through a segmenter and a reassembler, pulled `pull` by `pull`: the delivered payload. */
function transport({ segmenter, reassembler }: Pair, pull: SegmenterInput): Uint8Array {
  now++;
  segmenter.handle(pduInput, now);
  for (;;) {
    let sent = false;
    for (const o of segmenter.handle(pull, now)) {
      if (o.kind !== 'send') continue;
      sent = true;
      for (const r of reassembler.handle({ kind: 'packet', packet: o.packet }, now)) if (r.kind === 'pdu') return r.payload;
    }
    if (!sent) throw new Error('the segmenter ran dry before the PDU was delivered');
  }
}

/** The same with serial framing: every segment of a pull encoded with its CRCs, then CRC-checked, decoded and fed. */
function serial({ segmenter, reassembler }: Pair): Uint8Array {
  now++;
  segmenter.handle(pduInput, now);
  for (;;) {
    let end = 0;
    spans.length = 0;
    for (const o of segmenter.handle(pullInput, now)) {
      if (o.kind !== 'send') continue;
      spans.push(end);
      end = encodeSerialPacket(o.packet, frames, end);
    }
    if (spans.length === 0) throw new Error('the segmenter ran dry before the PDU was delivered');
    spans.push(end);
    for (let i = 0; i + 1 < spans.length; i++) {
      const packet = decodeSerialPacket(frames, spans[i]!, spans[i + 1]!) as Type9Packet;
      for (const r of reassembler.handle({ kind: 'packet', packet }, now)) if (r.kind === 'pdu') return r.payload;
    }
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** `transport` with the delivered PDU read (one byte, as a receiver that is done with it) and recycled. */
function recycled(p: Pair): number {
  const got = transport(p, pullInput);
  const b = got[got.length - 1]!;
  p.reassembler.handle({ kind: 'recycle', payload: got }, now);
  return b;
}

for (const got of [transport(batched, pullInput), transport(whole, pullWhole), serial(serialPair)]) {
  if (!same(got, payload)) throw new Error('the round trip did not deliver the PDU');
}
{
  const first = transport(recycling, pullInput);
  recycling.reassembler.handle({ kind: 'recycle', payload: first }, now);
  const second = transport(recycling, pullInput);
  if (!same(second, payload) || second.buffer !== first.buffer) throw new Error('the recycled buffer did not carry the next PDU');
  recycling.reassembler.handle({ kind: 'recycle', payload: second }, now);
}

const segmentArgs = { payload, mtu: MTU, destinationID: 2, sourceID: 1, cos: 7, streamID: 0x1234, flowID: '0A' } as const;
let sink = 0;
const TASKS = {
  segmentPdu: 'segmentPdu alone (segment objects, payload views)',
  transport: `Segmenter + Reassembler, transport-level objects (no serial encode, no CRC), pulls of ${PULL_MAX}`,
  serial: `Segmenter + Reassembler with serial encode + CRC and CRC verify + decode, pulls of ${PULL_MAX}`,
  copy: 'Buffer.copy of the same 64 KiB',
  fresh: 'reference: new 64 KiB Uint8Array + set',
  alias: 'reference: Buffer.copy with dst − src ≡ 16 (mod 4096)',
  whole: 'Segmenter + Reassembler, transport-level objects, one pull of the whole PDU',
  recycle: `Segmenter + Reassembler, transport-level objects, pulls of ${PULL_MAX}, each PDU recycled (bufferPool 4)`,
} as const;
const bench = new Bench({ time, warmup: true, warmupTime: 300 });
bench
  .add(TASKS.segmentPdu, () => {
    sink ^= segmentPdu(segmentArgs).length;
  })
  .add(TASKS.transport, () => {
    sink ^= transport(batched, pullInput).length;
  })
  .add(TASKS.serial, () => {
    sink ^= serial(serialPair).length;
  })
  .add(TASKS.copy, () => {
    sink ^= copySrc.copy(copyDst);
  })
  .add(TASKS.fresh, () => {
    const b = new Uint8Array(PDU_BYTES);
    b.set(payload);
    sink ^= b[sink & 0xffff]!;
  })
  .add(TASKS.alias, () => {
    sink ^= copySrc.copy(aliasDst);
  })
  .add(TASKS.whole, () => {
    sink ^= transport(whole, pullWhole).length;
  })
  .add(TASKS.recycle, () => {
    sink ^= recycled(recycling);
  });

await bench.run();

const stats = new Map(bench.tasks.map((t) => [t.name, 'latency' in t.result ? t.result.latency : undefined]));
const meanNs = (name: string): number => (stats.get(name)?.mean ?? NaN) * 1e6;
const copyNs = meanNs(TASKS.copy);
const rows = bench.tasks.map((t) => {
  const ns = meanNs(t.name);
  return {
    task: t.name,
    'µs/PDU': (ns / 1e3).toFixed(2),
    'median µs': ((stats.get(t.name)?.p50 ?? NaN) * 1e3).toFixed(2),
    'ns/segment': (ns / SEGMENTS).toFixed(1),
    'GB/s': (PDU_BYTES / ns).toFixed(2),
    'vs copy': `${((100 * copyNs) / ns).toFixed(1)} %`,
  };
});
console.table(rows);
const cpu = cpus()[0]?.model ?? 'unknown cpu';
const tunables = process.env['GLIBC_TUNABLES'] === undefined ? '' : ` · GLIBC_TUNABLES=${process.env['GLIBC_TUNABLES']}`;
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${cpu} · ${cpus().length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.version} · engines from ${fromDist ? 'dist/ (tsc)' : 'src/ (tsx)'} · CRC-16 ${CRC16_WASM ? 'WebAssembly' : 'JS'}${tunables} · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`64 KiB PDU, MTU ${MTU}: ${SEGMENTS} segments`);
console.log('| task | µs/PDU (mean) | median µs | GB/s | vs copy |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.task} | ${r['µs/PDU']} | ${r['median µs']} | ${r['GB/s']} | ${r['vs copy']} |`);
if (sink === 0.5) console.log(sink);
