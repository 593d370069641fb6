import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureWriter } from '../../src/capture/writer.ts';
import type { EngineName } from '../../src/cli/model/names.ts';
import { runModel } from '../../src/cli/model/run.ts';
import { inProcess } from './streaming-cli.ts';
import type { ModelFlags } from '../../src/cli/model/run.ts';
import { FRAME_KIND, closeFrame, cs48Frame, helloFrame, packetFrame } from '../../src/wire/frame.ts';
import type { Frame } from '../../src/wire/frame.ts';
import { CAPTURE_KIND } from '../../src/wire/pcapng/record.ts';
import type { CaptureRecord } from '../../src/wire/pcapng/record.ts';
import { parseHex, toHex } from '../../src/wire/hex.ts';
import type { Packet } from '../../src/wire/packet.ts';
import type { PcapngDirection } from '../../src/wire/pcapng/format.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { decodeSymbol, encodeSymbol } from '../../src/wire/symbol.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import type { CcpFields } from '../../src/wire/type7.ts';
import { riodp } from '../support/spawn.ts';
import { bytes, cont, end, single, start, tmXoff } from '../support/type9-segments.ts';
import { lines } from './output.ts';
import { RX } from './model-voq-support.ts';

/**
 * `riodp model <engine> --pcap FILE` (docs/model.md "Captures"): captures written with the hosts'
 * CaptureWriter, run in process through runModel, and compared with the JSON Lines the test
 * converts the same records to by docs/model.md's table (hex packets and symbols).
 */

const dir = mkdtempSync(join(tmpdir(), 'riodp-model-pcap-'));
let files = 0;
const temp = (name: string): string => join(dir, `${++files}-${name}`);

/** Wall-clock nanoseconds since 1970, as the software fabric stamps them: no safe integer. */
const EPOCH = 1_700_000_000_123_456_789n;

interface Rec {
  readonly on: string;
  readonly at: number;
  /** A frame, or a record's bytes (kind and body) when the test needs them as they are. */
  readonly frame: CaptureRecord | Uint8Array;
  readonly direction?: PcapngDirection;
}

function capture(recs: readonly Rec[]): string {
  const path = temp('c.pcapng');
  const w = new CaptureWriter(path, { application: 'riodp test' });
  for (const r of recs) {
    const id = w.interface(r.on);
    const notes = r.direction === undefined ? {} : { direction: r.direction };
    if (r.frame instanceof Uint8Array) w.writeBytes(id, EPOCH + BigInt(r.at), r.frame, notes);
    else w.write(id, EPOCH + BigInt(r.at), r.frame, notes);
  }
  w.close();
  return path;
}

/** A record of `kind` holding `body`, its length field computed. */
function raw(kind: number, body: Uint8Array, length = body.length + 1): Uint8Array {
  return Uint8Array.of(length >> 8, length & 0xff, kind, ...body);
}

const cs48 = (hex: string): Frame => cs48Frame(decodeSymbol(parseHex(hex), 0, 6, { link: 'cs48' }));
const ccp = (f: Partial<CcpFields> & Pick<CcpFields, 'command' | 'flowID'>): Packet => makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, soc: 0, ...f });
const pkt = (p: Packet): Frame => packetFrame(p);

/** `riodp model ENGINE` in this process, stdout as text. */
async function model(engine: EngineName, flags: ModelFlags): Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }> {
  const r = await inProcess((io) => runModel(engine, flags, io), '');
  return { ...r, stdout: r.stdout.toString('utf8') };
}

function config(v: unknown): string {
  const path = temp('config.json');
  writeFileSync(path, JSON.stringify(v));
  return path;
}

/** The docs/model.md "Captures" table for one engine: a record's input line without `t`, or undefined (passed over). */
type Convert = (kind: number, hex: string, iface: string) => Record<string, unknown> | undefined;

const ftypeOf = (hex: string): number => parseInt(hex.slice(3, 4), 16);
const PACKETS: readonly number[] = [FRAME_KIND.packet, CAPTURE_KIND.packetCs24];
const packetOf = (ftype: number | undefined, input: (iface: string) => string): Convert => (kind, hex, iface) =>
  (PACKETS.includes(kind) && (ftype === undefined || ftypeOf(hex) === ftype) ? { kind: input(iface), packet: hex } : undefined);

/** The JSON Lines a testbench would write for the records of `interfaces`: time from the first of them. */
function toJsonLines(path: string, interfaces: readonly string[], convert: Convert): string {
  const c = decodePcapng(readFileSync(path));
  const chosen = c.packets.filter((p) => interfaces.includes(c.interfaces[p.interface]?.name ?? ''));
  const t0 = chosen[0]?.timestampNs ?? 0n;
  const out = chosen.flatMap((p) => {
    const line = convert(p.data[2] as number, toHex(p.data.subarray(3)), c.interfaces[p.interface]?.name ?? '');
    return line === undefined ? [] : [JSON.stringify({ t: Number(p.timestampNs - t0), ...line })];
  });
  const path2 = temp('input.jsonl');
  writeFileSync(path2, `${out.join('\n')}\n`);
  return path2;
}

/**
 * Runs `engine` on the capture and on its JSON Lines: the same exit code, the same stdout after
 * the header byte for byte, the same header but for its `pcap` field, and stderr the summary only.
 * Returns the capture run's output lines.
 */
async function sameAsJsonLines(engine: EngineName, cfg: unknown, path: string, interfaces: readonly string[], convert: Convert, flags: Partial<ModelFlags> = {}, pickInterfaces = true): Promise<{ out: Record<string, unknown>[]; stderr: string }> {
  const c = config(cfg);
  const fromPcap = await model(engine, { config: c, pcap: path, ...(pickInterfaces ? { interface: interfaces } : {}), ...flags });
  const fromJson = await model(engine, { config: c, input: toJsonLines(path, interfaces, convert), ...flags });
  assert.equal(fromJson.stderr, '');
  assert.equal(fromPcap.status, fromJson.status, fromPcap.stderr);
  const [pcapHead = '', ...pcapRest] = fromPcap.stdout.split('\n');
  const [jsonHead = '', ...jsonRest] = fromJson.stdout.split('\n');
  assert.equal(pcapRest.join('\n'), jsonRest.join('\n'));
  const { pcap, ...head } = JSON.parse(pcapHead) as Record<string, unknown>;
  assert.deepEqual(head, JSON.parse(jsonHead));
  const c2 = decodePcapng(readFileSync(path));
  const first = c2.packets.find((p) => interfaces.includes(c2.interfaces[p.interface]?.name ?? ''));
  assert.deepEqual(pcap, { file: path, interfaces, epochNs: String(first?.timestampNs) });
  return { out: pcapRest.filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>), stderr: fromPcap.stderr };
}

const kinds = (out: readonly Record<string, unknown>[]): unknown[] => out.map((o) => o['kind']);

test('docs/model.md §Captures: riodp model reassembler --pcap is the run of the same records as JSON Lines (Type 9 segments; the idle timer and --until in capture time; other records passed over and counted)', async () => {
  const h = { destinationID: 1, sourceID: 2, cos: 3 };
  const path = capture([
    { on: 'ep1.p0.rx', at: 0, frame: helloFrame() },
    { on: 'ep1.p0.tx', at: 1, frame: helloFrame() },
    { on: 'ep1.p0.rx', at: 100, frame: pkt(start(bytes(32, 1), 5, h)) },
    { on: 'ep1.p0.rx', at: 150, frame: cs48('8229c1140779') },
    { on: 'ep1.p0.rx', at: 200, frame: pkt(cont(bytes(32, 2), h)) },
    { on: 'ep1.p0.rx', at: 250, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
    { on: 'ep1.p0.rx', at: 300, frame: pkt(end(bytes(10, 3), 74, h)) },
    { on: 'ep1.p0.rx', at: 400, frame: pkt(single(bytes(7, 4), 6, h)) },
    { on: 'ep1.p0.rx', at: 500, frame: pkt(start(bytes(32, 5), 7, h)) },
    { on: 'ep1.p0.rx', at: 9_000, frame: cs48('8229c1101268') },
    { on: 'ep1.p0.rx', at: 20_000, frame: closeFrame(0, 'bye') },
  ]);
  const { out, stderr } = await sameAsJsonLines('reassembler', { mtu: 32, idleTimeout: 5000 }, path, ['ep1.p0.rx'], packetOf(9, () => 'packet'), { until: 20_000 }, false);
  assert.deepEqual(kinds(out), ['timer', 'pdu', 'timer', 'pdu', 'timer', 'expired', 'event', 'end']);
  assert.deepEqual(out.filter((o) => o['kind'] === 'pdu').map((o) => [o['t'], o['length']]), [[300, 74], [400, 7]]);
  // Records passed over do not advance time: the timer due at 5500 fires by --until.
  assert.deepEqual(out.filter((o) => o['kind'] === 'expired' || o['kind'] === 'end').map((o) => o['t']), [5500, 20_000]);
  assert.equal(stderr, 'riodp: summary: 5 records read as inputs, 5 passed over (HELLO: 1, CS48: 2, Type 7 packet: 1, CLOSE: 1)\n');
});

test('docs/model.md §Captures: riodp model congestion-point --pcap: packets received (rx) enqueue, packets transmitted (tx) dequeue; XOFF then XON as for the same JSON Lines (Type 7 and Type 9 traffic)', async () => {
  const h = { destinationID: 0x20, sourceID: 0x10 };
  const a = start(bytes(32, 1), 1, h);
  const b = end(bytes(8, 2), 40, h);
  const c = ccp({ command: 'XOFF', flowID: '0C', destinationID: 0x20, tgtdestinationID: 0x30 });
  const path = capture([
    { on: 'sw0.p1.rx', at: 0, frame: pkt(c) },
    { on: 'sw0.p1.rx', at: 10, frame: pkt(a) },
    { on: 'sw0.p1.rx', at: 20, frame: pkt(b) },
    { on: 'sw0.p2.tx', at: 100, frame: pkt({ ...c, ackID: 7 }) },
    { on: 'sw0.p1.rx', at: 150, frame: cs48('8229c1140779') },
    { on: 'sw0.p2.tx', at: 200, frame: pkt({ ...a, ackID: 8 }) },
    { on: 'sw0.p2.tx', at: 300, frame: pkt({ ...b, ackID: 9 }) },
  ]);
  const cfg = { role: 'switch', highWatermark: 2, lowWatermark: 1, routes: { default: 1 } };
  const both = await model('congestion-point', { config: config(cfg), pcap: path });
  assert.deepEqual([both.status, both.stdout, both.stderr], [2, '', `riodp: ${path} has inputs for congestion-point on sw0.p1.rx, sw0.p2.tx: choose with --interface (one name, or several: --interface A,B)\n`]);
  const { out, stderr } = await sameAsJsonLines('congestion-point', cfg, path, ['sw0.p1.rx', 'sw0.p2.tx'], packetOf(undefined, (i) => (i.endsWith('.tx') ? 'dequeue' : 'enqueue')));
  assert.deepEqual(out.filter((o) => o['kind'] === 'send').map((o) => [o['t'], (o['packet'] as { command: string }).command]), [[20, 'XOFF'], [200, 'XON']]);
  assert.deepEqual((out.at(-1)?.['counters'] as Record<string, number>)['dequeued'], 3);
  assert.equal(stderr, 'riodp: summary: 6 records read as inputs, 1 passed over (CS48: 1)\n');
});

test('docs/model.md §Captures: riodp model ccp-endpoint --pcap: the Type 7 CCPs a capture received (PACKET and PACKET-CS24 records), the orphan timer and --until in capture time, as for the same JSON Lines', async () => {
  const path = capture([
    { on: 'ep0.p0.rx', at: 0, frame: pkt(single(bytes(9, 1), 1, { destinationID: 0x12, sourceID: 0x34 })), direction: 'inbound' },
    { on: 'ep0.p0.rx', at: 1000, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })), direction: 'inbound' },
    { on: 'ep0.p0.rx', at: 2000, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })), direction: 'inbound' },
    // A link running CS24 symbols: a 5-bit ackID (riodp capture §2.2).
    { on: 'ep0.p0.rx', at: 3000, frame: { kind: CAPTURE_KIND.packetCs24, kindName: 'packetCs24', packet: ccp({ command: 'XON', flowID: '0C', ackID: 3 }) }, direction: 'inbound' },
  ]);
  const { out, stderr } = await sameAsJsonLines('ccp-endpoint', { orphanPeriod: 5000 }, path, ['ep0.p0.rx'], packetOf(7, () => 'ccp'), { until: 9000 });
  assert.deepEqual(out.filter((o) => o['kind'] === 'expired').map((o) => o['t']), [6000]);
  assert.deepEqual(out.at(-1)?.['t'], 9000);
  assert.equal(stderr, 'riodp: summary: 3 records read as inputs, 1 passed over (Type 9 packet: 1)\n');
});

test('docs/model.md §Captures: riodp model voq-rx --pcap: CS48 records are symbol inputs on the port the interface names, as for the same JSON Lines', async () => {
  const cleared = new Uint8Array(6);
  encodeSymbol({ link: 'cs48', stype0: 4, parameter0: 4, parameter1: 20, stype1: 7, cmd: 0, stype2: 2048 }, cleared, 0);
  const path = capture([
    { on: 'sw0.p1.rx', at: 0, frame: helloFrame() },
    { on: 'sw0.p1.rx', at: 100, frame: cs48('8229c1140779') },
    { on: 'sw0.p1.rx', at: 150, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
    { on: 'sw0.p1.rx', at: 300, frame: cs48('8229c1101268') },
    { on: 'sw0.p1.rx', at: 600, frame: raw(FRAME_KIND.cs48, cleared) },
  ]);
  const cfg = { ...RX, ports: [{ queues: 2 }, { queues: 2 }] };
  const { out } = await sameAsJsonLines('voq-rx', cfg, path, ['sw0.p1.rx'], (kind, hex, iface) => (kind === FRAME_KIND.cs48 ? { kind: 'symbol', port: Number(/\.p(\d+)\./.exec(iface)?.[1]), symbol: hex } : undefined));
  assert.ok(out.some((o) => o['kind'] === 'blocked' && o['port'] === 1), JSON.stringify(out));
});

test('docs/model.md §Captures: riodp model tm-ingress --pcap: Type 9 records are tm inputs (a data segment is counted not-tm by the engine), as for the same JSON Lines', async () => {
  const h = { destinationID: 0x21, sourceID: 0x06, cos: 0x40 };
  const path = capture([
    { on: 'ep2.p0.rx', at: 0, frame: pkt(single(bytes(5, 1), 7, h)) },
    { on: 'ep2.p0.rx', at: 40, frame: pkt(tmXoff(7, h)) },
    { on: 'ep2.p0.rx', at: 90, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
  ]);
  const { out, stderr } = await sameAsJsonLines('tm-ingress', {}, path, ['ep2.p0.rx'], packetOf(9, () => 'tm'));
  assert.deepEqual((out.at(-1)?.['counters'] as Record<string, number>)['notTm'], 1);
  assert.equal(stderr, 'riodp: summary: 2 records read as inputs, 1 passed over (Type 7 packet: 1)\n');
});

test('docs/model.md §Captures: a record that does not decode is reported as a bad line is, `record N` for `line N` (record, recordT); the run goes on and exits 1', async () => {
  const bad = new Uint8Array(raw(FRAME_KIND.packet, parseHex('01c712340004b0f2')));
  bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 1;
  const path = capture([
    { on: 'ep0.p0.rx', at: 0, frame: helloFrame() },
    { on: 'ep0.p0.rx', at: 10, frame: bad },
    { on: 'ep0.p0.rx', at: 20, frame: raw(FRAME_KIND.packet, parseHex('01c712340004b0f2'), 30) },
    { on: 'ep0.p0.rx', at: 30, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
  ]);
  const r = await model('ccp-endpoint', { pcap: path });
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stderr), [
    'riodp: record 2: CRC 0xb0f3, computed 0xb0f2, Part 6 §2.4.1, byte 6 (packet.crc)',
    'riodp: record 3: length at byte 0: the length field says 30 bytes follow it, 9 given (riodp capture §2)',
    'riodp: summary: 3 records read as inputs, 1 passed over (HELLO: 1)',
  ]);
  const out = lines(r.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(out.filter((o) => o['kind'] === 'error').map(({ t, record, recordT }) => ({ t, record, recordT })), [
    { t: 0, record: 2, recordT: 10 },
    { t: 0, record: 3, recordT: undefined },
  ]);
  assert.ok(out.some((o) => o['kind'] === 'flow' && o['t'] === 30));
});

test('docs/model.md §Captures: usage errors exit 2 with nothing on stdout (--input, --describe, --interface without --pcap, engines a capture cannot feed, interfaces, the file)', async () => {
  const path = capture([{ on: 'ep0.p0.rx', at: 0, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) }, { on: 'voq', at: 1, frame: cs48('8229c1140779') }]);
  const notPcap = temp('x.pcapng');
  writeFileSync(notPcap, 'hello');
  const cases: [EngineName, ModelFlags, string][] = [
    ['ccp-endpoint', { pcap: path, input: 'x.jsonl' }, `--pcap reads the inputs from ${path}: --input cannot be given with it`],
    ['ccp-endpoint', { pcap: path, describe: true }, '--describe reads no input: --pcap cannot be given with it'],
    ['ccp-endpoint', { interface: ['ep0.p0.rx'] }, '--interface chooses the interfaces of a capture: it needs --pcap FILE'],
    ['segmenter', { pcap: path }, '--pcap: segmenter takes PDUs to send and pulls, not received packets or symbols'],
    ['voq-gen', { pcap: path }, '--pcap: voq-gen takes queue depths, port settings and transmit opportunities, not received packets or symbols (the stype2 it fills is its output)'],
    ['smp', { pcap: path }, '--pcap: smp takes session management messages and reassembled PDUs, not link records (riodp decode --pcap --smp shows the messages a capture holds)'],
    ['ccp-endpoint', { pcap: path, interface: ['ep9.p0.rx'] }, `--interface ep9.p0.rx: ${path} has no riodp interface of that name (it has ep0.p0.rx, voq)`],
    ['voq-rx', { pcap: path, config: config(RX) }, '--pcap: voq-rx inputs name a port, read from the interface name <element>.p<port>.<tx|rx> (docs/pcapng.md §3): voq names none'],
    ['ccp-endpoint', { pcap: join(dir, 'nope.pcapng') }, `--pcap ${join(dir, 'nope.pcapng')}: cannot read it (ENOENT)`],
    ['ccp-endpoint', { pcap: notPcap }, `--pcap ${notPcap}: not a pcapng file (it does not start with a Section Header Block)`],
  ];
  for (const [engine, flags, message] of cases) {
    const r = await model(engine, flags);
    assert.deepEqual([r.status, r.stdout, r.stderr], [2, '', `riodp: ${message}\n`], JSON.stringify(flags));
  }
});

test('docs/cli.md §Captures: riodp model --interface is repeatable and takes comma lists; the header names the epoch as a string', () => {
  const path = capture([
    { on: 'sw0.p1.rx', at: 5, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
    { on: 'sw0.p2.tx', at: 7, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
    { on: 'sw0.p3.tx', at: 9, frame: pkt(ccp({ command: 'XOFF', flowID: '0C' })) },
  ]);
  const r = riodp(['model', 'congestion-point', '--config', config({ role: 'switch', highWatermark: 2, lowWatermark: 1 }), '--pcap', path, '--interface', 'sw0.p2.tx,sw0.p1.rx', '--interface', 'sw0.p1.rx']);
  assert.equal(r.status, 0, r.stderr);
  const head = JSON.parse(lines(r.stdout)[0] ?? '{}') as { pcap?: unknown };
  assert.deepEqual(head.pcap, { file: path, interfaces: ['sw0.p2.tx', 'sw0.p1.rx'], epochNs: '1700000000123456794' });
  assert.equal(r.stderr, 'riodp: summary: 2 records read as inputs, 0 passed over\n');
});
