/**
 * The fault-injection fabric (issue 16): a `riodp switch` and two `riodp endpoint` processes on
 * loopback, as a user runs them (the CLI, its defaults, YAML files), and `riodp send` / `riodp
 * recv` between them. Faults are real signals: SIGSTOP/SIGCONT for a stall, SIGKILL and a new
 * process for a crash and restart. The switch's ports are fixed TCP ports picked free at the start,
 * so that a restarted switch listens where the end points reconnect.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomFillSync } from 'node:crypto';
import { demoSwitchConfig, toYaml } from '../../src/net/demo-config.ts';
import { Supervisor } from '../../src/net/demo-procs.ts';
import type { DemoProc, ProcExit, ProcLine } from '../../src/net/demo-procs.ts';
import { RIODP_ARGS } from '../support/riodp-entry.ts';

export const SENDER = 1;
export const RECEIVER = 2;
/** The node ID of the flooding peer on the third switch port (`start({ flooderPort: true })`). */
export const FLOODER = 3;

async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface SendResult {
  readonly exit: ProcExit;
  readonly ms: number;
  readonly output: string;
}

export type Role = 'switch' | 'sender' | 'receiver';

export class FaultFabric {
  readonly dir: string;
  readonly out: string;
  readonly sup: Supervisor;
  readonly #ports: number[];
  readonly #procs = new Map<Role, DemoProc>();
  readonly log: string[] = [];

  private constructor(dir: string, ports: number[]) {
    this.dir = dir;
    this.out = join(dir, 'out');
    mkdirSync(this.out);
    this.#ports = ports;
    this.sup = new Supervisor({
      command: process.execPath,
      baseArgs: RIODP_ARGS,
      onLine: (name, l) => {
        this.log.push(`${name}: ${l.text}`);
      },
    });
  }

  /** With `flooderPort`, the switch has a third port (2) for node FLOODER, with no end point on it. */
  static async start(opts: { readonly flooderPort?: boolean } = {}): Promise<FaultFabric> {
    const dir = mkdtempSync(join(tmpdir(), 'riodp-faults-'));
    const ids = opts.flooderPort === true ? [SENDER, RECEIVER, FLOODER] : [SENDER, RECEIVER];
    const ports: number[] = [];
    for (let i = 0; i < ids.length; i++) ports.push(await freePort());
    const f = new FaultFabric(dir, ports);
    const sw = demoSwitchConfig({ nodes: ids.map((id, port) => ({ id, port })), highWatermark: 16, lowWatermark: 8 });
    sw['ports'] = ids.map((id, port) => ({ port, listen: { host: '127.0.0.1', port: f.#ports[port] }, accept: [id] }));
    writeFileSync(join(dir, 'switch.yaml'), toYaml(sw));
    for (const [id, port] of [[SENDER, 0], [RECEIVER, 1]] as const) {
      // What a user writes: the node, its switch port, a control socket; every other setting is riodp's default.
      const ep = { nodeId: id, switch: { port: f.#ports[port] }, control: f.control(id), log: 'info', discovery: { targets: [{ node: id === SENDER ? RECEIVER : SENDER }] } };
      writeFileSync(join(dir, `endpoint-${id}.yaml`), toYaml(ep));
    }
    await f.startSwitch();
    await Promise.all([f.startEndpoint('sender'), f.startEndpoint('receiver')]);
    return f;
  }

  /** The TCP port switch port `port` listens on. */
  tcpPort(port: number): number {
    const p = this.#ports[port];
    if (p === undefined) throw new Error(`the switch has no port ${port}`);
    return p;
  }

  control(id: number): string {
    return join(this.dir, `ep${id}.sock`);
  }

  proc(role: Role): DemoProc {
    const p = this.#procs.get(role);
    if (p === undefined) throw new Error(`no ${role} process`);
    return p;
  }

  async startSwitch(): Promise<void> {
    const p = this.sup.start('switch', ['switch', '--config', join(this.dir, 'switch.yaml')]);
    this.#procs.set('switch', p);
    const last = `port ${this.#ports.length - 1} listening`;
    await this.sup.waitLine(p, (l) => l.text.startsWith(last), 15_000, 'the switch listening');
  }

  async startEndpoint(role: 'sender' | 'receiver'): Promise<void> {
    const id = role === 'sender' ? SENDER : RECEIVER;
    const p = this.sup.start(role, ['endpoint', '--config', join(this.dir, `endpoint-${id}.yaml`)]);
    this.#procs.set(role, p);
    await this.sup.waitLine(p, (l) => l.text.startsWith(`riodp endpoint ${id}: link up`), 15_000, `end point ${id} up`);
  }

  /** Waits until `role` has a link up again after `from` lines (a reconnect). */
  async linkUpAgain(role: 'sender' | 'receiver', from: number, timeoutMs: number): Promise<void> {
    await this.sup.waitLine(this.proc(role), (l) => /"msg":"link up"/.test(l.text) || / link up to /.test(l.text), timeoutMs, `${role} link up again`, from);
  }

  /** A file of `bytes` random bytes and its SHA-256. */
  file(name: string, bytes: number): { path: string; sha256: string } {
    const data = new Uint8Array(bytes);
    randomFillSync(data);
    const path = join(this.dir, name);
    writeFileSync(path, data);
    return { path, sha256: createHash('sha256').update(data).digest('hex') };
  }

  recv(count = 1): DemoProc {
    return this.sup.start('recv', ['recv', '--control', this.control(RECEIVER), '--out', this.out, '--count', String(count)]);
  }

  send(path: string): DemoProc {
    return this.sup.start('send', ['send', '--control', this.control(SENDER), '--to', String(RECEIVER), path]);
  }

  /** The transfer has begun: the receiver opened the file-transfer conduit. */
  async transferring(from = 0): Promise<void> {
    await this.sup.waitLine(this.proc('receiver'), (l) => /"msg":"conduit"/.test(l.text), 20_000, 'the file conduit open at the receiver', from);
  }

  async finished(p: DemoProc, timeoutMs: number, startedAt: number): Promise<SendResult> {
    const exit = await this.sup.waitExit(p, timeoutMs, `${p.name} to end`);
    return { exit, ms: Date.now() - startedAt, output: p.lines.map((l: ProcLine) => l.text).join('\n') };
  }

  /** Stops `role` for `ms` (SIGSTOP, then SIGCONT). */
  async stall(role: Role, ms: number): Promise<void> {
    const p = this.proc(role);
    this.sup.kill(p, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, ms));
    this.sup.kill(p, 'SIGCONT');
  }

  /** Kills `role` (SIGKILL) and waits for its end. */
  async crash(role: Role): Promise<void> {
    const p = this.proc(role);
    this.sup.kill(p, 'SIGKILL');
    await this.sup.waitExit(p, 5_000, `${role} killed`);
  }

  /** Starts `role` again, as after a crash. */
  async restart(role: Role): Promise<void> {
    if (role === 'switch') await this.startSwitch();
    else await this.startEndpoint(role);
  }

  lines(role: Role): number {
    return this.proc(role).lines.length;
  }

  sha256Of(path: string): string {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  }

  /** Files in the receive folder (what recv wrote, temporary files included). */
  received(): string[] {
    return readdirSync(this.out);
  }

  async stop(): Promise<void> {
    await this.sup.stopAll(3_000);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
