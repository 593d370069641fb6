/**
 * `npm run demo:fabric` (issue 8 §4): one switch and three end points as real processes on
 * loopback, driven with riodp's own commands.
 *
 *  a. A and B discover each other; A moves a file to B over a file-transfer conduit (Annex 2 OPEN
 *     and ACCEPT both ways, §3.4) as 64 KiB PDUs; the SHA-256 A sent, B's and the file B wrote must
 *     match the generator's.
 *  b. Hotspot: C floods B with a large file; B stops reading for a moment (SIGSTOP), so the
 *     switch's output to B fills and its Part 9 congestion point sends C an XOFF CCP, which stops
 *     C's flow; when B reads again the switch sends XON and C's flow restarts.
 *  c. C, still flooding, is killed (SIGKILL) inside a PDU: the switch logs its link lost, B times
 *     out the partial PDU and closes C's streams once their STATUS queries go unanswered; a second
 *     file A → B arrives.
 *
 * Each check is one `PASS` line; the first that fails ends the demo with a DemoError.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ControlClient } from './control-client.ts';
import { DEMO_SWITCH_ID, demoEndpointConfig, demoSwitchConfig, parseLinkUp, parseListening, toYaml } from './demo-config.ts';
import { sha256File, writeSeededFile } from './demo-data.ts';
import { LineLimiter, formatLogLine, parseLogLine, prefixed } from './demo-log.ts';
import { DemoError, DemoTimeout, Supervisor, describeExit } from './demo-procs.ts';
import type { DemoProc, ProcLine } from './demo-procs.ts';

export interface DemoOptions {
  /** Folder for the configurations, sockets and files (the caller creates and removes it). */
  readonly dir: string;
  /** Bytes of each file A sends to B. */
  readonly size: number;
  /** Bytes of the file C floods B with (its transfer is cut when C is killed). */
  readonly floodSize: number;
  readonly seed: number;
  /** How to run riodp: e.g. node ['--import', 'tsx', 'test/support/riodp.ts']. */
  readonly riodp: { readonly command: string; readonly args: readonly string[] };
  readonly print: (line: string) => void;
  /** Log lines shown per process and message (the rest are counted). */
  readonly linesPerMessage: number;
  /** A folder for captures (docs/pcapng.md): `switch.pcapng` and one per end point (`A.pcapng`, …). */
  readonly pcapDir?: string;
}

/** What the end points are: name, device ID, switch port. */
export const DEMO_NODES = [
  { name: 'A', id: 1, port: 0 },
  { name: 'B', id: 2, port: 1 },
  { name: 'C', id: 3, port: 2 },
] as const;
type NodeName = (typeof DEMO_NODES)[number]['name'];

/** Deadlines: generous, for two shared cores where each tsx start takes seconds. */
const START_MS = 45_000;
const TRANSFER_MS = 60_000;
/** How long B may stay stopped waiting for the switch's XOFF: under B's 5 s reassembly idle timeout (demo-config.ts). */
const STALL_MS = 3_000;
/** How long B has to close a dead peer's streams: its 5 s reassembly idle timeout, the STATUS retries (1 s), and slack. */
const CLOSE_MS = 15_000;
const WIDTH = 8;

/** The fields of the status object (api-types.ts EndpointStatus) the demo reads. */
interface DemoStatus {
  readonly streams: readonly { readonly remote: number; readonly closed: boolean }[];
  readonly flows: readonly { readonly destinationID: number; readonly flowID: string; readonly state: string; readonly held: number }[];
  readonly counters: { readonly engine: { readonly engines: { readonly type9?: Readonly<Record<string, number>> } } };
}

/** Events of B's Type 9 reassembler so far (idle timeouts among them). */
function reassemblyEvents(s: DemoStatus): number {
  return s.counters.engine.engines.type9?.['reassemblyEvents'] ?? 0;
}

/** A pino line of `msg` whose fields pass `test`. */
export function logged(msg: string, test: (o: Record<string, unknown>) => boolean = () => true): (l: ProcLine) => boolean {
  return (l) => {
    const o = l.stream === 'stderr' ? parseLogLine(l.text) : null;
    return o !== null && o['msg'] === msg && test(o);
  };
}

const SENT = /^sent (\S+): (\d+) bytes, SHA-256 ([0-9a-f]{64}), to node (\d+) in \d+ ms \(.*\): (\w+) /;
const RECEIVED = /^(\w+) (\S+): (\d+) bytes, SHA-256 ([0-9a-f]{64}|-), from node (\d+)/;

export class Demo {
  readonly #o: DemoOptions;
  readonly #sup: Supervisor;
  readonly #limiter: LineLimiter;
  readonly #checks: string[] = [];
  readonly #nodes = new Map<NodeName, DemoProc>();
  #switch: DemoProc | null = null;
  #recv: DemoProc | null = null;
  /** C died between two PDUs and B kept its streams (see #kill). */
  #cOpen = false;
  readonly #t0 = performance.now();

  constructor(o: DemoOptions) {
    this.#o = o;
    this.#limiter = new LineLimiter(o.linesPerMessage);
    this.#sup = new Supervisor({
      command: o.riodp.command,
      baseArgs: o.riodp.args,
      onLine: (name, l) => {
        if (this.#limiter.admit(name, l.text)) o.print(prefixed(name, WIDTH, formatLogLine(l.text)));
      },
    });
  }

  /** Starts `riodp ARGS` and says so, with the work folder written as $WORK. */
  #riodp(name: string, args: readonly string[], service = false): DemoProc {
    const p = this.#sup.start(name, args, { service });
    this.#say(`$ riodp ${args.join(' ').replaceAll(this.#o.dir, '$WORK')}   (${name}, pid ${p.pid})`);
    return p;
  }

  #say(text: string): void {
    this.#o.print(prefixed('demo', WIDTH, text));
  }

  #pass(text: string): void {
    this.#checks.push(text);
    this.#say(`PASS ${text} (at ${((performance.now() - this.#t0) / 1000).toFixed(1)} s)`);
  }

  #sock(n: NodeName): string {
    return join(this.#o.dir, `${n}.sock`);
  }

  #node(n: NodeName): DemoProc {
    const p = this.#nodes.get(n);
    if (p === undefined) throw new DemoError(`end point ${n} is not running`);
    return p;
  }

  async run(): Promise<readonly string[]> {
    await this.#start();
    await this.#discover();
    await this.#transfer('file-1.bin', this.#o.seed, 'a');
    await this.#kill(await this.#hotspot());
    await this.#transfer('file-2.bin', this.#o.seed + 1, 'c');
    await this.#status();
    return this.#checks;
  }

  /** SIGTERM to every process, SIGKILL after 3 s. */
  stop(): Promise<void> {
    return this.#sup.stopAll(3000);
  }

  /** SIGKILL to every process, synchronously (process exit). */
  killNow(): void {
    this.#sup.killAllNow();
  }

  /** `--pcap` of the process `name`, with `pcapDir`: interfaces named after it (`A.p0.tx`, `switch.p1.rx`). */
  #pcap(name: string): string[] {
    return this.#o.pcapDir === undefined ? [] : ['--pcap', join(this.#o.pcapDir, `${name}.pcapng`), '--pcap-name', name];
  }

  async #start(): Promise<void> {
    this.#say(`== start: one switch and three end points on loopback; work folder $WORK = ${this.#o.dir} ==`);
    const swPath = join(this.#o.dir, 'switch.yaml');
    await writeFile(swPath, toYaml(demoSwitchConfig({ nodes: DEMO_NODES, highWatermark: 8, lowWatermark: 4 })));
    const sw = this.#riodp('switch', ['switch', '--config', swPath, ...this.#pcap('switch')], true);
    this.#switch = sw;
    const tcp = new Map<number, number>();
    for (const n of DEMO_NODES) {
      const l = await this.#sup.waitLine(sw, (x) => x.stream === 'stdout' && parseListening(x.text)?.port === n.port, START_MS, `switch port ${n.port} listening`);
      tcp.set(n.port, parseListening(l.text)?.tcpPort ?? 0);
    }
    await Promise.all(
      DEMO_NODES.map(async (n) => {
        const path = join(this.#o.dir, `${n.name}.yaml`);
        const peers = DEMO_NODES.filter((m) => m.id !== n.id).map((m) => m.id);
        await writeFile(path, toYaml(demoEndpointConfig({ id: n.id, switchPort: tcp.get(n.port) ?? 0, control: this.#sock(n.name), peers })));
        const p = this.#riodp(n.name, ['endpoint', '--config', path, ...this.#pcap(n.name)], true);
        this.#nodes.set(n.name, p);
        await this.#sup.waitLine(p, (x) => x.stream === 'stdout' && parseLinkUp(x.text) === n.id, START_MS, `end point ${n.name} link up`);
      }),
    );
    this.#pass('switch and end points A (1), B (2), C (3) are up, each on its own switch port');
  }

  async #discover(): Promise<void> {
    this.#say('== discovery: each end point reads the others\' session management registers (Annex 2 §3.3) ==');
    const found = new Map<NodeName, number[]>();
    for (const n of DEMO_NODES) {
      const c = await ControlClient.connect(this.#sock(n.name));
      try {
        const peers = (await c.request({ op: 'discover' })) as { node: number; contact: { conveyance: string; streamID?: number } }[];
        const ids = peers.map((p) => p.node).filter((id) => id !== n.id);
        found.set(n.name, ids);
        this.#say(`${n.name} discovered ${peers.filter((p) => p.node !== n.id).map((p) => `${p.node} (${p.contact.conveyance}${p.contact.streamID === undefined ? '' : ` stream 0x${p.contact.streamID.toString(16)}`})`).join(', ') || 'nobody'}`);
        if (n.name === 'A') {
          const sw = (await c.request({ op: 'read-reg', to: DEMO_SWITCH_ID, hop: 0, offset: 0x60 })) as { value: number };
          this.#say(`A read-reg hop 0 (the switch) Base Device ID CSR 0x60 = 0x${sw.value.toString(16).padStart(8, '0')}`);
        }
      } finally {
        c.close();
      }
    }
    if (!(found.get('A')?.includes(2) ?? false) || !(found.get('B')?.includes(1) ?? false)) throw new DemoError(`A and B did not discover each other: A found ${JSON.stringify(found.get('A'))}, B found ${JSON.stringify(found.get('B'))}`);
    this.#pass('A and B discovered each other');
  }

  /** Starts `riodp recv` on B once; it runs to the end of the demo. */
  #receiver(): DemoProc {
    this.#recv ??= this.#riodp('B recv', ['recv', '--out', join(this.#o.dir, 'received'), '--control', this.#sock('B')], true);
    return this.#recv;
  }

  async #send(from: NodeName, file: string, size: number, seed: number): Promise<{ proc: DemoProc; sha: string }> {
    const path = join(this.#o.dir, file);
    const sha = await writeSeededFile(path, size, seed);
    this.#say(`${from} → B: ${file}, ${size} bytes of generator seed ${seed}, SHA-256 ${sha}`);
    return { proc: this.#riodp(`${from} send`, ['send', '--to', '2', '--control', this.#sock(from), path]), sha };
  }

  /** Waits for `riodp send` to succeed and B's `riodp recv` to report the file; checks the SHA-256 A sent, B's and the written file's against `sha`. */
  async #arrived(send: DemoProc, name: string, sha: string, from: number): Promise<void> {
    const exit = await this.#sup.waitExit(send, TRANSFER_MS, `end of ${send.name} ${name}`);
    const sent = send.lines.map((l) => SENT.exec(l.text)).find((m) => m !== null);
    if (exit.code !== 0 || sent == null) throw new DemoError(`${send.name} ${name} ${describeExit(exit)}: ${send.lines.map((l) => l.text).join(' / ')}`);
    const recv = this.#receiver();
    const line = await this.#sup.waitLine(recv, (l) => RECEIVED.exec(l.text)?.[2] === name, TRANSFER_MS, `B recv line for ${name}`);
    const got = RECEIVED.exec(line.text);
    if (got?.[1] !== 'ok') throw new DemoError(`B received ${name} with status ${String(got?.[1])}: ${line.text}`);
    const onDisk = await sha256File(join(this.#o.dir, 'received', name));
    const shas = { generator: sha, [`${send.name.split(' ')[0] ?? '?'} sent`]: sent[3], 'B received': got[4], 'B wrote': onDisk };
    if (new Set(Object.values(shas)).size !== 1 || Number(got[5]) !== from) throw new DemoError(`checksums differ for ${name}: ${JSON.stringify(shas)}`);
    this.#pass(`checksums equal for ${name}: SHA-256 ${sha} (generator, sent, received, written)`);
  }

  async #transfer(name: string, seed: number, phase: 'a' | 'c'): Promise<void> {
    this.#say(phase === 'a' ? `== a. A opens a file-transfer conduit to B and moves ${name} as 64 KiB PDUs ==` : `== c. A and B recovered: a further transfer A → B ==`);
    this.#receiver();
    const { proc, sha } = await this.#send('A', name, this.#o.size, seed);
    await this.#arrived(proc, name, sha, 1);
    if (phase === 'c') this.#pass('transfer A → B after C was killed completed');
  }

  async #hotspot(): Promise<DemoProc> {
    this.#say('== b. hotspot: C floods B, and B stops reading for a moment ==');
    const sw = this.#switch as DemoProc;
    const b = this.#node('B');
    const c = this.#node('C');
    const marks = { sw: sw.lines.length, b: b.lines.length, c: c.lines.length };
    const flood = await this.#send('C', 'flood.bin', this.#o.floodSize, this.#o.seed + 2);
    await this.#sup.waitLine(b, logged('conduit', (o) => typeof o['tx'] === 'string' && o['tx'].startsWith('tx 3/')), TRANSFER_MS, 'B\'s conduit with C', marks.b);
    this.#floodGoing(flood.proc);
    this.#sup.kill(b, 'SIGSTOP');
    const stopped = performance.now();
    this.#say('B stopped (SIGSTOP) while C sends to it: the switch\'s output to B fills once the loopback socket buffers are full');
    const xoff = await this.#sup.waitLine(sw, logged('ccp-sent', (o) => o['command'] === 'XOFF' && o['destinationID'] === 3), STALL_MS, 'XOFF to C from the switch while B was stopped', marks.sw);
    const x = parseLogLine(xoff.text) ?? {};
    await this.#sup.waitLine(c, logged('flow xoff', (o) => o['destinationID'] === 2), STALL_MS, 'C\'s Part 9 flow xoff', marks.c);
    this.#pass(`XOFF seen: the switch's congestion point on port ${String(x['congestedPort'])} (B) sent XOFF to C (flow ${String(x['flowID'])}) ${Math.round(performance.now() - stopped)} ms after B stopped, and C stopped that flow`);
    await this.#stoppedInStatus(stopped);
    await this.#sup.sleep(300);
    const resumed = sw.lines.length;
    this.#sup.kill(b, 'SIGCONT');
    this.#say('B reads again (SIGCONT)');
    const xon = await this.#sup.waitLine(sw, logged('ccp-sent', (o) => o['command'] === 'XON' && o['destinationID'] === 3), TRANSFER_MS, 'XON to C from the switch after B resumed', resumed);
    const flowOn = await this.#sup.waitLine(c, logged('flow xon', (o) => o['destinationID'] === 2), TRANSFER_MS, 'C\'s Part 9 flow xon', marks.c);
    this.#pass(`XON seen: the switch sent XON to C flow ${String(parseLogLine(xon.text)?.['flowID'])} as its output to B drained; C restarted its flow (cause ${String(parseLogLine(flowOn.text)?.['cause'])})`);
    return flood.proc;
  }

  /**
   * C's status while B is stopped shows its flow to B in XOFF. The switch's output may drain a
   * little while B is stopped (the kernel grows the socket's buffer), XON the flow and XOFF it
   * again, so the status is read until it shows the XOFF, for as long as B may stay stopped.
   */
  async #stoppedInStatus(stopped: number): Promise<void> {
    this.#say(await this.#cInXoff(stopped));
    this.#pass('the status of C shows its flow to B in XOFF');
  }

  /** C's status line once it shows C's flow to B in XOFF; fails STALL_MS after `since`. */
  async #cInXoff(since: number): Promise<string> {
    for (;;) {
      const s = await this.#statusOf('C');
      const line = `C's status while B is stopped: Part 9 flows ${s.flows.map((f) => `${f.destinationID}/${f.flowID} ${f.state.toUpperCase()} (${f.held} held)`).join(', ') || 'none'}`;
      if (s.flows.some((f) => f.destinationID === 2 && f.state === 'xoff')) return line;
      if (performance.now() - since > STALL_MS) throw new DemoError(`the status of C shows no Part 9 flow to B in XOFF within ${(STALL_MS / 1000).toFixed(1)} s of B stopping (${line})`);
      await this.#sup.sleep(50);
    }
  }

  #floodGoing(flood: DemoProc): void {
    if (flood.exit !== null) throw new DemoError(`C's transfer ended (${describeExit(flood.exit)}) while the demo needed it: raise --flood`);
  }

  async #kill(flood: DemoProc): Promise<void> {
    this.#say('== c. C is killed inside a PDU; A and B go on ==');
    const sw = this.#switch as DemoProc;
    const b = this.#node('B');
    this.#floodGoing(flood);
    const eventsBefore = reassemblyEvents(await this.#statusOf('B'));
    const marks = { sw: sw.lines.length, b: b.lines.length };
    // An end point writes a whole PDU's segments in one turn while its link takes them, so a
    // process killed between turns leaves whole PDUs behind. To kill C inside a PDU, B stalls
    // once more: C's link backs up mid-PDU and the switch stops C's flow with an XOFF.
    this.#sup.kill(b, 'SIGSTOP');
    this.#say('B stopped again (SIGSTOP), so that C\'s packets back up inside a PDU');
    // C's flow may be in XOFF already (the switch's output to B can congest before B stops, and
    // a flow in XOFF gets no second one), so C's own state says when it is stopped.
    this.#say(await this.#cInXoff(performance.now()));
    this.#sup.kill(this.#node('C'), 'SIGKILL');
    this.#say('C killed (SIGKILL) while sending flood.bin to B, its flow stopped by an XOFF');
    this.#sup.kill(b, 'SIGCONT');
    this.#say('B reads again (SIGCONT)');
    const down = await this.#sup.waitLine(sw, logged('link-down', (o) => o['port'] === 2), START_MS, 'switch link-down of port 2', marks.sw);
    this.#pass(`peer killed: the switch logged port 2 down (reason ${String(parseLogLine(down.text)?.['reason'])})`);
    const cExit = await this.#sup.waitExit(flood, START_MS, 'end of C send');
    this.#say(`C send ${describeExit(cExit)}`);
    // What B does: its port check (decision FF4) finds C's switch port uninitialized and closes
    // C's streams with cause peer-lost; failing that (docs/fabric-endpoint.md "A peer that dies
    // mid-PDU"), the reassembly of C's last PDU times out (5 s), B verifies C's streams with
    // STATUS, none is answered, and the streams close with cause status-timeout. Either way C is
    // reported suspect (Annex 2 §3.7.1). The
    // first of a conduit's streams to close names the cause; its partner follows with 'conduit'.
    const closed = await this.#sup
      .waitLine(b, logged('closed', (o) => typeof o['stream'] === 'string' && o['stream'].includes(' 3/') && o['cause'] !== 'conduit'), CLOSE_MS, 'B closing C\'s streams', marks.b)
      .catch((e: unknown) => {
        if (e instanceof DemoTimeout) return null;
        throw e;
      });
    if (closed === null) {
      // The XOFF stopped C right after a PDU (about one run in 256): B holds no partial PDU that
      // could time out, and its liveness check (api.verifyIdleMs, 5 s in the demo: 5 to 10 s of silence, then the STATUS timeout)
      // normally closes C's streams within CLOSE_MS; on a loaded machine it may come later. Any
      // other reason is a failure.
      if (reassemblyEvents(await this.#statusOf('B')) > eventsBefore) throw new DemoError('B\'s reassembly of C\'s PDU timed out, but B did not close C\'s streams');
      this.#cOpen = true;
      this.#pass('C died between two PDUs: B had no partial PDU to time out, and its liveness check (api.verifyIdleMs) had not closed C\'s streams yet');
      return;
    }
    const suspect = await this.#sup.waitLine(b, logged('suspect', (o) => o['node'] === 3), TRANSFER_MS, 'B reporting C suspect', marks.b);
    const cut = await this.#sup.waitLine(this.#receiver(), (l) => RECEIVED.exec(l.text)?.[5] === '3', TRANSFER_MS, 'B recv line for C\'s cut transfer');
    const status = RECEIVED.exec(cut.text)?.[1];
    if (status === 'ok') throw new DemoError(`B reports C's cut transfer as complete: ${cut.text}`);
    this.#pass(`B closed C's streams (cause ${String(parseLogLine(closed.text)?.['cause'])}), reported C suspect (${String(parseLogLine(suspect.text)?.['reason'])}) and the cut file as '${String(status)}'`);
  }

  async #status(): Promise<void> {
    this.#say('== riodp status on B and A ==');
    for (const n of ['B', 'A'] as const) {
      const text = this.#riodp(`${n} status`, ['status', '--control', this.#sock(n)]);
      const exit = await this.#sup.waitExit(text, START_MS, `riodp status of ${n}`);
      if (exit.code !== 0) throw new DemoError(`riodp status of ${n} ${describeExit(exit)}`);
    }
    const open = (await this.#statusOf('B')).streams.filter((x) => x.remote === 3 && !x.closed);
    if (this.#cOpen) {
      if (open.length === 0) throw new DemoError('the status of B shows no open stream of C, but B never reported closing them');
      this.#pass(`riodp status of B shows C's ${open.length} stream(s) still open`);
      return;
    }
    if (open.length > 0) throw new DemoError(`the status of B still shows ${open.length} open stream(s) of C`);
    this.#pass('riodp status of B shows no open stream of C');
  }

  /** The status object `riodp status --json` prints, over the control socket. */
  async #statusOf(n: NodeName): Promise<DemoStatus> {
    const c = await ControlClient.connect(this.#sock(n));
    try {
      return (await c.request({ op: 'status' })) as DemoStatus;
    } finally {
      c.close();
    }
  }

  /** One line per process and message whose lines were not all shown, with the count. */
  summary(): void {
    for (const [name, msg, n] of this.#limiter.suppressed()) this.#say(`(${n} more '${msg}' lines of ${name} not shown)`);
  }
}

/** Creates the folders the demo writes into. */
export async function prepareDir(dir: string): Promise<void> {
  await mkdir(join(dir, 'received'), { recursive: true });
}
