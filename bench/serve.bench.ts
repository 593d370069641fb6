/**
 * `riodp serve` throughput benchmark (issue 18 item 3, docs/performance.md): requests per second
 * that one client gets from a real `riodp serve` process, one request at a time (each sent after
 * the previous response came back: the round-trip rate of a testbench that waits for each answer)
 * and pipelined (batches of BATCH requests in one write, then their responses), for
 *  - decode: `{"op":"decode","hex":…}` of a 12-byte Type 10 doorbell (the serial layer, CRC
 *    checked), answered with its decode --json object;
 *  - engine input: `{"op":"input",…}` to a `ccp-endpoint` instance, XOFF and XON of flow 0C in
 *    turn (Type 7 packets as hex, CRC checked), each answered with three `flow` outputs and, for
 *    XOFF, a `timer` output;
 * over stdin/stdout pipes and over a loopback TCP connection (--listen 127.0.0.1:0). The client
 * is this process (it writes, reads and parses every response) on the same machine: client and
 * server share the cores. "server CPU" is the server process's user+system time per request
 * (/proc, Linux only).
 *
 *   node --import tsx bench/serve.bench.ts        (BENCH_TIME_MS per row, default 1500)
 * The server runs from dist/ when it is fresh (npm run build), else from src/ through tsx, as the
 * CLI tests pick (test/support/riodp-entry.ts); the first line says which.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { FROM_DIST } from '../test/support/riodp-entry.ts';
import { connect, listening, startServe } from '../test/support/serve-client.ts';
import type { Json, LineClient } from '../test/support/serve-client.ts';

const time = Number(process.env['BENCH_TIME_MS'] ?? 1500);
const BATCH = 256;
const DOORBELL = '001a0001ffff0000deaf9903';
const XOFF_0C = '01c712340004b0f2';

/** user+system CPU seconds of a process (Linux /proc; NaN elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

type MakeRequest = (i: number) => unknown;

function check(r: Json | null): void {
  if (r?.['ok'] !== true) throw new Error(`bad response: ${JSON.stringify(r)}`);
}

async function oneAtATime(c: LineClient, make: MakeRequest, start: number): Promise<number> {
  const until = performance.now() + time;
  let i = start;
  while (performance.now() < until) {
    for (let k = 0; k < 64; k++) check(await c.ask(make(i++)));
  }
  return i - start;
}

async function pipelined(c: LineClient, make: MakeRequest, start: number): Promise<number> {
  const until = performance.now() + time;
  let i = start;
  while (performance.now() < until) {
    const reqs: unknown[] = [];
    for (let k = 0; k < BATCH; k++) reqs.push(make(i++));
    c.send(...reqs);
    for (let k = 0; k < BATCH; k++) check(await c.next());
  }
  return i - start;
}

interface Row {
  transport: string;
  request: string;
  mode: string;
  'requests/s': number;
  'µs/request': number;
  'server CPU µs/request': number;
}

async function runAll(transport: string, c: LineClient, pid: number, rows: Row[]): Promise<void> {
  const xon = await c.ask({ id: 'xon', op: 'encode', value: { ...(await c.ask({ id: 'x', op: 'decode', hex: XOFF_0C }))['value'] as Json, command: 'XON', xonXoff: 1, crc: undefined } });
  check(xon);
  const XON_0C = xon['hex'] as string;
  check(await c.ask({ id: 'c', op: 'create', instance: 'ep', engine: 'ccp-endpoint' }));
  let t = 0;
  const decode: MakeRequest = (i) => ({ id: i, op: 'decode', hex: DOORBELL });
  const input: MakeRequest = (i) => ({ id: i, op: 'input', instance: 'ep', t: t++, input: { kind: 'ccp', packet: i % 2 === 0 ? XOFF_0C : XON_0C } });
  let id = 0;
  for (const [request, make] of [['decode', decode], ['engine input', input]] as const) {
    for (const [mode, run] of [['one at a time', oneAtATime], [`pipelined, ${BATCH} per write`, pipelined]] as const) {
      id += await run(c, make, id); // warm-up
      const cpu0 = cpuSeconds(pid);
      const t0 = performance.now();
      const n = await run(c, make, id);
      const elapsed = (performance.now() - t0) / 1000;
      const cpu = cpuSeconds(pid) - cpu0;
      id += n;
      rows.push({
        transport, request, mode,
        'requests/s': Math.round(n / elapsed),
        'µs/request': Number(((elapsed / n) * 1e6).toFixed(1)),
        'server CPU µs/request': Number(((cpu / n) * 1e6).toFixed(1)),
      });
    }
  }
}

console.log(`${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, server from ${FROM_DIST ? 'dist/' : 'src/ via tsx'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const rows: Row[] = [];
const server = startServe(['--listen', '127.0.0.1:0']);
try {
  await runAll('stdin/stdout', server.stdio, server.child.pid ?? 0, rows);
  const tcp = await connect(await listening(server));
  await runAll('TCP loopback', tcp.client, server.child.pid ?? 0, rows);
  tcp.close();
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
}
console.table(rows);
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
