/**
 * Software fabric benchmark (issue 8 §4: "data-streaming throughput over loopback against raw TCP
 * throughput in the same run; goal >= 50%"; docs/performance.md, docs/fabric-demo.md).
 *
 *  (i)  raw TCP: one loopback socket between two processes; the sender writes 1 MiB buffers as
 *       fast as the socket takes them (waiting for 'drain'), the receiver counts bytes;
 *  (ii) data streaming: end point A → `riodp switch` → end point B, each its own process (as in
 *       the demo); A opens a Type 9 stream (Annex 2 OPEN/ACCEPT, DATA3) and sends 64 KiB PDUs
 *       through `Stream.send`; B's application reads them from `incoming()` and counts the PDU
 *       payload bytes.
 * Each rate is measured by the receiving process from its first byte (PDU) to its last, so start-up
 * and discovery are out of it. The two alternate, REPEAT runs each, fresh processes every run; the
 * table gives median and range, the ratio the medians'. Each process's CPU time is reported: on two
 * cores the three fabric processes compete, and the busiest is the bottleneck.
 *
 *   npm run bench -- fabric
 *   BENCH_FABRIC_MB=32 BENCH_FABRIC_REPEAT=1 npm run bench -- fabric     (a quick run)
 *   BENCH_FABRIC_PROF=/tmp/prof npm run bench -- fabric                  (node --cpu-prof of every process)
 *   BENCH_DIST=1 …   the switch and end points from dist/ (npm run build first) instead of src/ via tsx
 *   BENCH_FABRIC_FASTLANE=0 …   the end points without the fast lane's transmit pull (docs/fast-lane.md §7)
 *
 * This file is also the child processes: `--role tcp-recv|tcp-send|switch|ep-recv|ep-send`; the
 * switch and end points run the API `riodp switch` and `riodp endpoint` run (startSwitch,
 * startEndpoint) at log level warn.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type * as EndpointConfigModule from '../src/net/endpoint-config.ts';
import type * as EndpointProcessModule from '../src/net/endpoint-start.ts';
import type * as LogModule from '../src/net/log.ts';
import type * as SwitchConfigModule from '../src/net/switch-config.ts';
import type * as SwitchProcessModule from '../src/net/switch-process.ts';

const fromDist = process.env['BENCH_DIST'] === '1';
/** BENCH_FABRIC_FASTLANE=0: the end points pull every packet as an object (`link.fastLane: false`, docs/fast-lane.md §8, §10). */
const fastLane = process.env['BENCH_FABRIC_FASTLANE'] !== '0';
const modulePath = (p: string): string => (fromDist ? `../dist/${p}.js` : `../src/${p}.ts`);
const self = fileURLToPath(import.meta.url);
const PROTO = 0x1234;
/** Payload bytes per Type 9 segment at MTU 256 (the bench's "131,072 segments per 32 MiB"). */
const SEGMENT_PAYLOAD = 256;
const PDU = 0x10000;

/** One JSON line on stdout: what a child reports to the parent. */
function report(v: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(v)}\n`);
}

function cpuSeconds(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
}

/** User and system CPU seconds (BENCH_DEBUG=1 prints them). */
function split(): { user: number; system: number } {
  const c = process.cpuUsage();
  return { user: c.user / 1e6, system: c.system / 1e6 };
}

// ---- Children ----------------------------------------------------------------------------------

async function tcpRecv(bytes: number): Promise<void> {
  const server = createServer((s) => {
    let got = 0;
    let first = 0;
    s.on('data', (chunk: Buffer) => {
      if (got === 0) first = performance.now();
      got += chunk.length;
      if (got >= bytes) {
        const ms = performance.now() - first;
        report({ bytes: got, ms, cpu: cpuSeconds() });
        s.destroy();
        server.close();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  report({ listening: typeof a === 'object' && a !== null ? a.port : 0 });
}

async function tcpSend(port: number, bytes: number): Promise<void> {
  const s = connect(port, '127.0.0.1');
  await new Promise<void>((r) => s.once('connect', r));
  const chunk = Buffer.alloc(1 << 20, 0x5a);
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    if (!s.write(chunk)) await new Promise<void>((r) => s.once('drain', r));
  }
  s.end();
  await new Promise<void>((r) => s.once('close', r));
  report({ cpu: cpuSeconds() });
}

/** What `riodp switch` runs (src/cli/switch.ts), without the command line: the ports reported, CPU time at SIGTERM. */
async function switchRole(config: string): Promise<void> {
  const { loadSwitchConfig } = (await import(modulePath('net/switch-config'))) as typeof SwitchConfigModule;
  const { startSwitch } = (await import(modulePath('net/switch-process'))) as typeof SwitchProcessModule;
  const { makeLogger } = (await import(modulePath('net/log'))) as typeof LogModule;
  const sw = await startSwitch(loadSwitchConfig(config), { logger: makeLogger({ level: 'warn', name: 'switch' }) });
  report({ ports: sw.addresses.map((a) => a.tcpPort) });
  // The parent marks the start of the transfer: CPU time before it is start-up and discovery.
  process.on('SIGUSR2', () => { report({ mark: cpuSeconds() }); });
  await new Promise<void>((r) => process.once('SIGTERM', () => { r(); }));
  await sw.close();
  report({ cpu: cpuSeconds(), ...split() });
}

async function endpoint(id: number, switchPort: number): Promise<Awaited<ReturnType<typeof EndpointProcessModule.startEndpoint>>> {
  const { endpointConfig } = (await import(modulePath('net/endpoint-config'))) as typeof EndpointConfigModule;
  const { startEndpoint } = (await import(modulePath('net/endpoint-start'))) as typeof EndpointProcessModule;
  return startEndpoint(
    endpointConfig({
      nodeId: id,
      switch: { port: switchPort },
      log: 'warn',
      protocols: [{ protoID: PROTO, dataHeaderFormat: 'DATA3' }],
      fileTransfer: false,
      discovery: { targets: [{ node: 3 - id }], readTimeout: 2_000_000_000 },
      ...(fastLane ? {} : { link: { fastLane: false } }),
    }),
  );
}

async function epRecv(switchPort: number, bytes: number): Promise<void> {
  const ep = await endpoint(2, switchPort);
  report({ ready: true });
  for await (const s of ep.incoming()) {
    let got = 0;
    let first = 0;
    let cpu0 = 0;
    for await (const pdu of s) {
      if (got === 0) {
        first = performance.now();
        cpu0 = cpuSeconds();
      }
      got += pdu.length;
      if (got >= bytes) break;
    }
    report({ bytes: got, ms: performance.now() - first, cpu: cpuSeconds(), cpu0, ...split(), counters: ep.status().counters.api });
    break;
  }
  await ep.close();
}

async function epSend(switchPort: number, bytes: number): Promise<void> {
  const ep = await endpoint(1, switchPort);
  const s = await ep.openStream({ to: 2, protoID: PROTO });
  const pdu = new Uint8Array(PDU).fill(0xa5);
  const cpu0 = cpuSeconds();
  for (let sent = 0; sent < bytes; sent += PDU) await s.send(pdu);
  report({ cpu: cpuSeconds(), cpu0, ...split() });
  // B closes its end point once it has counted every byte; the stream goes with it.
  await new Promise((r) => setTimeout(r, 500));
  await ep.close();
}

// ---- Parent ------------------------------------------------------------------------------------

interface Child {
  readonly name: string;
  readonly reports: Record<string, unknown>[];
  next(test: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly done: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

const profDir = process.env['BENCH_FABRIC_PROF'];

function child(name: string, args: readonly string[]): Child {
  const prof = profDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-name', `${name}-${Date.now()}.cpuprofile`];
  const p = spawn(process.execPath, [...prof, '--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const reports: Record<string, unknown>[] = [];
  const waiters: { test: (r: Record<string, unknown>) => boolean; resolve: (r: Record<string, unknown>) => void }[] = [];
  let partial = '';
  let err = '';
  p.stdout.setEncoding('utf8').on('data', (d: string) => {
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) {
      if (!l.startsWith('{')) continue;
      const r = JSON.parse(l) as Record<string, unknown>;
      reports.push(r);
      for (const w of [...waiters]) {
        if (!w.test(r)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(r);
      }
    }
  });
  p.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const done = new Promise<number | null>((resolve) => p.on('close', (code) => { resolve(code); }));
  return {
    name,
    reports,
    next: (test) =>
      Promise.race([
        new Promise<Record<string, unknown>>((resolve) => {
          const hit = reports.find(test);
          if (hit !== undefined) resolve(hit);
          else waiters.push({ test, resolve });
        }),
        done.then((code): never => {
          throw new Error(`${name} exited ${String(code)} before reporting: ${err.slice(-2000)}`);
        }),
      ]),
    done,
    kill: (signal = 'SIGTERM') => p.kill(signal),
  };
}

const role = (args: readonly string[]): string[] => [self, ...args];

interface Sample {
  readonly mbps: number;
  readonly cpu: Record<string, number>;
  readonly seconds: number;
  /** CPU µs per 256-byte segment during the transfer, per process (fabric only). */
  readonly perSegment?: Record<string, number>;
}

async function tcpRun(bytes: number): Promise<Sample> {
  const recv = child('tcp-recv', role(['--role', 'tcp-recv', '--bytes', String(bytes)]));
  const port = (await recv.next((r) => 'listening' in r))['listening'] as number;
  const send = child('tcp-send', role(['--role', 'tcp-send', '--port', String(port), '--bytes', String(bytes)]));
  const r = await recv.next((x) => 'bytes' in x);
  const s = await send.next((x) => 'cpu' in x);
  await Promise.all([recv.done, send.done]);
  const ms = r['ms'] as number;
  return { mbps: (r['bytes'] as number) / 1e3 / ms, seconds: ms / 1000, cpu: { receiver: r['cpu'] as number, sender: s['cpu'] as number } };
}

async function fabricRun(dir: string, bytes: number): Promise<Sample> {
  const config = join(dir, 'switch.yaml');
  await writeFile(config, ['deviceId: 0x50', 'ports:', '  - { port: 0, listen: { port: 0 }, accept: [1] }', '  - { port: 1, listen: { port: 0 }, accept: [2] }', 'routes: { 1: 0, 2: 1 }', 'log: warn', ''].join('\n'));
  const sw = child('switch', role(['--role', 'switch', '--config', config]));
  const ports = (await sw.next((r) => 'ports' in r))['ports'] as number[];
  const b = child('B', role(['--role', 'ep-recv', '--switch-port', String(ports[1]), '--bytes', String(bytes)]));
  await b.next((r) => r['ready'] === true);
  sw.kill('SIGUSR2');
  const mark = (await sw.next((r) => 'mark' in r))['mark'] as number;
  const a = child('A', role(['--role', 'ep-send', '--switch-port', String(ports[0]), '--bytes', String(bytes)]));
  const r = await b.next((x) => 'bytes' in x);
  const s = await a.next((x) => 'cpu' in x);
  await Promise.all([a.done, b.done]);
  sw.kill();
  const w = await sw.next((x) => 'cpu' in x);
  if (process.env['BENCH_DEBUG'] === '1') {
    for (const [name, x] of [['A', s], ['switch', w], ['B', r]] as const) process.stderr.write(`${name}: user ${String(x['user'])} s, system ${String(x['system'])} s\n`);
  }
  await sw.done;
  const ms = r['ms'] as number;
  const counters = r['counters'] as Record<string, number>;
  if (counters['rxDropped'] !== 0) throw new Error(`B dropped ${String(counters['rxDropped'])} PDUs`);
  const segments = (r['bytes'] as number) / SEGMENT_PAYLOAD;
  const us = (from: number, to: number): number => (1e6 * (to - from)) / segments;
  return {
    mbps: (r['bytes'] as number) / 1e3 / ms, seconds: ms / 1000, cpu: { A: s['cpu'] as number, switch: w['cpu'] as number, B: r['cpu'] as number },
    perSegment: { A: us(s['cpu0'] as number, s['cpu'] as number), switch: us(mark, w['cpu'] as number), B: us(r['cpu0'] as number, r['cpu'] as number) },
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function parent(): Promise<void> {
  const mb = Number(process.env['BENCH_FABRIC_MB'] ?? 128);
  const repeat = Number(process.env['BENCH_FABRIC_REPEAT'] ?? 3);
  const fabricBytes = Math.round(mb * 2 ** 20 / PDU) * PDU;
  const tcpBytes = 16 * fabricBytes;
  const dir = await mkdtemp(join(tmpdir(), 'riodp-bench-'));
  const tcp: Sample[] = [];
  const fabric: Sample[] = [];
  try {
    for (let k = 0; k < repeat; k++) {
      tcp.push(await tcpRun(tcpBytes));
      fabric.push(await fabricRun(dir, fabricBytes));
      process.stderr.write(`run ${k + 1}/${repeat}: raw TCP ${tcp.at(-1)?.mbps.toFixed(0)} MB/s, fabric ${fabric.at(-1)?.mbps.toFixed(1)} MB/s\n`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const row = (name: string, what: string, xs: readonly Sample[]): string => {
    const rates = xs.map((x) => x.mbps);
    const cpu = Object.keys(xs[0]?.cpu ?? {}).map((k) => `${k} ${median(xs.map((x) => x.cpu[k] ?? Number.NaN)).toFixed(1)}`).join(', ');
    return `| ${name} | ${what} | ${median(rates).toFixed(1)} (${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)}) | ${median(xs.map((x) => x.seconds)).toFixed(2)} | ${cpu} |`;
  };
  console.log(`software fabric benchmark · ${new Date().toISOString().slice(0, 10)} · ${cpus()[0]?.model ?? '?'} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB) · Node ${process.version} · ${fromDist ? 'dist/ (tsc)' : 'src/ via tsx'} · load ${loadavg().map((l) => l.toFixed(2)).join(' ')} · ${repeat} runs each`);
  console.log('\n| path | bytes per run | MB/s, median (range) | s per run | CPU s per process (median) |\n|---|---|---|---|---|');
  console.log(row('raw TCP over loopback, 1 socket, 1 MiB writes', `${tcpBytes / 2 ** 20} MiB`, tcp));
  console.log(row('A → switch → B, Type 9 stream, 64 KiB PDUs (MTU 256), payload to B\'s application', `${fabricBytes / 2 ** 20} MiB`, fabric));
  const ratio = median(fabric.map((x) => x.mbps)) / median(tcp.map((x) => x.mbps));
  const per = Object.keys(fabric[0]?.perSegment ?? {}).map((k) => `${k} ${median(fabric.map((x) => x.perSegment?.[k] ?? Number.NaN)).toFixed(2)}`).join(', ');
  console.log(`\nCPU µs per 256-byte segment during the transfer (median; the switch's from A's start to its exit): ${per}`);
  console.log(`\ndata streaming / raw TCP: ${(100 * ratio).toFixed(2)} % (goal ≥ 50 %: ${ratio >= 0.5 ? 'met' : 'not met'})`);
}

const { values } = parseArgs({
  options: { role: { type: 'string' }, bytes: { type: 'string' }, port: { type: 'string' }, 'switch-port': { type: 'string' }, config: { type: 'string' } },
  strict: true,
});
const bytes = Number(values.bytes ?? 0);
switch (values.role) {
  case undefined:
    await parent();
    break;
  case 'switch':
    await switchRole(values.config ?? '');
    break;
  case 'tcp-recv':
    await tcpRecv(bytes);
    break;
  case 'tcp-send':
    await tcpSend(Number(values.port), bytes);
    break;
  case 'ep-recv':
    await epRecv(Number(values['switch-port']), bytes);
    break;
  case 'ep-send':
    await epSend(Number(values['switch-port']), bytes);
    break;
  default:
    throw new Error(`unknown role ${values.role}`);
}
