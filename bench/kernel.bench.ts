/**
 * Discrete-event kernel benchmark (docs/performance.md, "Simulator kernel"). Goals (issue 7 §1):
 * ≥ 5 M events/s on one core, and ≥ 20× SimPy on the same M/M/1 model and the same single-switch
 * model, measured in the same run.
 *
 *  (a) hold model: n pending events; each event schedules one more at now + an exponential
 *      increment (mean 1 µs) from a precomputed table, so the figure is the scheduler's alone
 *      (one row draws the increment from an `Rng` instead);
 *  (b) M/M/1, λ = 0.9, μ = 1, FIFO: `customers` arrivals, run until empty, here and in SimPy
 *      (bench/simpy/mm1.py); both sides' L, W and Wq are checked against ρ/(1−ρ), 1/(μ−λ) and
 *      ρ/(μ−λ) with batch-means standard errors (20 batches of departures);
 *  (c) an 8 x 8 output-queued switch, Bernoulli arrivals at load 0.8 per input, uniform
 *      destinations, one slot of service per packet, for `slots` slots, here and in SimPy
 *      (bench/simpy/switch.py); the mean wait is checked against Karol, Hluchyj & Morgan (1987),
 *      ((N−1)/N)·p/(2(1−p)) slots.
 * SimPy runs two ways: `process` (processes and Resource/Store, as SimPy is normally written) and
 * `callback` (Timeout callbacks, no processes: the fastest SimPy allows). A ratio is SimPy's time
 * over the kernel's for the same model and length, in CPU seconds of each process (the goals are
 * judged on these: the machine is shared) and in wall seconds; the kernel's is the median of 5
 * runs after a warm-up run (the runs must agree exactly: determinism). The process exits 1 if a
 * model disagrees with theory or a rerun differs.
 *
 *   npm run bench -- kernel            BENCH_SIM_SCALE=0.2 for a quick run
 *   SIMPY_PYTHON=/usr/bin/python3      the interpreter that has SimPy (else python3, /usr/bin/python3)
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { Scheduler } from '../src/sim/kernel/scheduler.ts';
import type { Target } from '../src/sim/kernel/scheduler.ts';
import { RandomStreams } from '../src/sim/kernel/random.ts';
import type { Rng } from '../src/sim/kernel/random.ts';

const scale = Number(process.env['BENCH_SIM_SCALE'] ?? 1);
const CUSTOMERS = Math.round(200_000 * scale);
const SLOTS = Math.round(50_000 * scale);
const HOLD_EVENTS = Math.round(5_000_000 * scale);
const REPEAT = 5;
const SEED = 1;
const BATCHES = 20;

/** Wall-clock and CPU seconds of `fn` (CPU: user + system of this process, process.cpuUsage). */
function timed<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1e6 };
}

// ---- (a) hold model ----------------------------------------------------------------------

const increments = new Float64Array(1 << 16);
{
  const r = new RandomStreams(SEED).stream('hold/increments');
  for (let i = 0; i < increments.length; i++) increments[i] = Math.round(r.exponential(1_000_000));
}

/** Events per CPU second and per wall second of each run. */
function hold(pending: number, rng: Rng | undefined): { cpu: number[]; wall: number[] } {
  const s = new Scheduler();
  let k = 0;
  const t: Target = rng
    ? { onEvent: () => void s.after(Math.round(rng.exponential(1_000_000)), t, 0) }
    : { onEvent: () => void s.after(increments[k++ & 0xffff]!, t, 0) };
  for (let i = 0; i < pending; i++) s.after(increments[k++ & 0xffff]!, t, 0);
  s.run({ events: 1_000_000 });
  const rates = { cpu: [] as number[], wall: [] as number[] };
  for (let r = 0; r < REPEAT; r++) {
    const run = timed(() => s.run({ events: HOLD_EVENTS }));
    rates.cpu.push(HOLD_EVENTS / run.cpu);
    rates.wall.push(HOLD_EVENTS / run.wall);
  }
  return rates;
}

// ---- (b) M/M/1 ---------------------------------------------------------------------------

const LAMBDA = 0.9;
const MU = 1;
const UNIT = 1_000_000; // ps per mean service time
const ARRIVAL = 0;
const DEPARTURE = 1;

interface Mm1Result {
  readonly customers: number;
  readonly L: number;
  readonly W: number;
  readonly Wq: number;
  readonly batches: readonly { readonly L: number; readonly W: number; readonly Wq: number }[];
  readonly events: number;
  readonly wall: number;
  readonly cpu: number;
}

class Mm1 implements Target {
  private readonly queue: number[] = []; // arrival times of waiting customers, FIFO from `head`
  private head = 0;
  private arrived = 0;
  private done = 0;
  private inSystem = 0;
  private last = 0;
  private area = 0;
  private sojourn = 0;
  private wait = 0;
  private busy = false;
  private current = 0;
  private start = 0;
  private readonly batchSize: number;
  private mark = [0, 0, 0, 0];
  readonly batches: { L: number; W: number; Wq: number }[] = [];
  private readonly arrivals: Rng;
  private readonly services: Rng;

  constructor(
    private readonly s: Scheduler,
    private readonly customers: number,
    streams: RandomStreams,
  ) {
    this.arrivals = streams.stream('mm1/arrivals');
    this.services = streams.stream('mm1/services');
    this.batchSize = Math.max(1, Math.floor(customers / BATCHES));
    s.after(Math.round(this.arrivals.exponential(UNIT / LAMBDA)), this, ARRIVAL);
  }

  onEvent(kind: number, _data: unknown, now: number): void {
    this.area += this.inSystem * (now - this.last);
    this.last = now;
    if (kind === ARRIVAL) {
      this.inSystem++;
      if (this.busy) this.queue.push(now);
      else this.serve(now, now);
      if (++this.arrived < this.customers) this.s.after(Math.round(this.arrivals.exponential(UNIT / LAMBDA)), this, ARRIVAL);
      return;
    }
    this.inSystem--;
    this.done++;
    this.sojourn += now - this.current;
    this.wait += this.start - this.current;
    if (this.done % this.batchSize === 0) this.closeBatch(now);
    this.busy = false;
    if (this.head < this.queue.length) {
      this.serve(now, this.queue[this.head++]!);
      if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
    }
  }

  private serve(now: number, arrivedAt: number): void {
    this.busy = true;
    this.current = arrivedAt;
    this.start = now;
    this.s.after(Math.round(this.services.exponential(UNIT / MU)), this, DEPARTURE);
  }

  private closeBatch(now: number): void {
    const [t0, a0, s0, w0] = this.mark as [number, number, number, number];
    const n = this.batchSize * UNIT;
    this.batches.push({ L: (this.area - a0) / (now - t0), W: (this.sojourn - s0) / n, Wq: (this.wait - w0) / n });
    this.mark = [now, this.area, this.sojourn, this.wait];
  }

  result(events: number, wall: number, cpu: number): Mm1Result {
    const n = this.done * UNIT;
    return { customers: this.done, L: this.area / this.last, W: this.sojourn / n, Wq: this.wait / n, batches: this.batches, events, wall, cpu };
  }
}

function mm1(): Mm1Result {
  const s = new Scheduler();
  const model = new Mm1(s, CUSTOMERS, new RandomStreams(SEED));
  const t = timed(() => s.run());
  return model.result(t.value.events, t.wall, t.cpu);
}

// ---- (c) 8 x 8 output-queued switch --------------------------------------------------------

const PORTS = 8;
const LOAD = 0.8;
const SLOT = 1000; // ps; service is one slot per packet

interface SwitchResult {
  readonly packets: number;
  readonly wait: number;
  readonly batches: readonly number[];
  readonly events: number;
  readonly wall: number;
  readonly cpu: number;
}

/** Kinds 0..PORTS−1: an arrival at that input; PORTS..2·PORTS−1: a departure at that output. */
class Switch implements Target {
  private readonly rngs: Rng[] = [];
  private readonly queues: number[][] = [];
  private readonly heads = new Int32Array(PORTS);
  private readonly busy = new Uint8Array(PORTS);
  private packets = 0;
  private wait = 0;
  private mark = 0;
  private readonly batchSize: number;
  readonly batches: number[] = [];

  constructor(
    private readonly s: Scheduler,
    private readonly slots: number,
    streams: RandomStreams,
  ) {
    this.batchSize = Math.max(1, Math.floor((slots * PORTS * LOAD) / BATCHES));
    for (let i = 0; i < PORTS; i++) {
      const rng = streams.stream(`switch/input/${i}`);
      this.rngs.push(rng);
      this.queues.push([]);
      const first = rng.geometric(LOAD) - 1;
      if (first < slots) s.schedule(first * SLOT, this, i);
    }
  }

  onEvent(kind: number, _data: unknown, now: number): void {
    if (kind < PORTS) {
      const rng = this.rngs[kind]!;
      const out = rng.int(PORTS);
      if (this.busy[out] === 1) this.queues[out]!.push(now);
      else this.serve(out, now, now);
      const gap = rng.geometric(LOAD);
      if (now / SLOT + gap < this.slots) this.s.after(gap * SLOT, this, kind);
      return;
    }
    const out = kind - PORTS;
    const q = this.queues[out]!;
    const h = this.heads[out]!;
    if (h < q.length) {
      this.heads[out] = h + 1;
      this.serve(out, now, q[h]!);
      if (h > 4096 && h * 2 > q.length) {
        q.splice(0, h + 1);
        this.heads[out] = 0;
      }
    } else this.busy[out] = 0;
  }

  private serve(out: number, now: number, arrivedAt: number): void {
    this.busy[out] = 1;
    this.packets++;
    this.wait += now - arrivedAt;
    if (this.packets % this.batchSize === 0) {
      this.batches.push((this.wait - this.mark) / this.batchSize / SLOT);
      this.mark = this.wait;
    }
    this.s.after(SLOT, this, PORTS + out);
  }

  result(events: number, wall: number, cpu: number): SwitchResult {
    return { packets: this.packets, wait: this.wait / this.packets / SLOT, batches: this.batches, events, wall, cpu };
  }
}

function switchModel(): SwitchResult {
  const s = new Scheduler();
  const model = new Switch(s, SLOTS, new RandomStreams(SEED));
  const t = timed(() => s.run());
  return model.result(t.value.events, t.wall, t.cpu);
}

// ---- SimPy -------------------------------------------------------------------------------

function findPython(): string | undefined {
  const candidates = [process.env['SIMPY_PYTHON'], 'python3', '/usr/bin/python3'].filter((c): c is string => c !== undefined && c !== '');
  return candidates.find((py) => spawnSync(py, ['-c', 'import simpy'], { stdio: 'ignore' }).status === 0);
}

function simpy(python: string, script: string, args: string[]): unknown {
  const r = spawnSync(python, [script, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// ---- report ------------------------------------------------------------------------------

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const mega = (x: number): string => (x / 1e6).toFixed(2);
/** Mean and standard error of batch means. */
function batchStat(xs: readonly number[]): { mean: number; se: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(v / n) };
}
/** "x ± 2·SE (theory t, z = …)": agreement within 4 standard errors. */
function check(label: string, value: number, batches: readonly number[], theory: number): { text: string; ok: boolean } {
  const { se } = batchStat(batches);
  const z = (value - theory) / se;
  return { text: `${label} ${value.toFixed(3)} ± ${(2 * se).toFixed(3)} (theory ${theory.toFixed(3)}, z ${z.toFixed(1)})`, ok: Math.abs(z) < 4 };
}

const rho = LAMBDA / MU;
const mm1Theory = { L: rho / (1 - rho), W: 1 / (MU - LAMBDA), Wq: rho / (MU - LAMBDA) };
const karol = ((PORTS - 1) / PORTS) * (LOAD / (2 * (1 - LOAD)));

function mm1Checks(side: string, r: { L: number; W: number; Wq: number; batches: readonly { L: number; W: number; Wq: number }[] }): boolean {
  const cs = [
    check('L', r.L, r.batches.map((b) => b.L), mm1Theory.L),
    check('W', r.W, r.batches.map((b) => b.W), mm1Theory.W),
    check('Wq', r.Wq, r.batches.map((b) => b.Wq), mm1Theory.Wq),
  ];
  const ok = cs.every((c) => c.ok);
  console.log(`  ${side.padEnd(16)} ${cs.map((c) => c.text).join(' · ')} → ${ok ? 'agrees' : 'DISAGREES'}`);
  return ok;
}

console.log(`kernel benchmark · ${cpus()[0]?.model ?? '?'} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB) · Node ${process.version} · load ${loadavg()[0]!.toFixed(2)} · scale ${scale}`);

const range = (xs: readonly number[]): string => `${mega(Math.min(...xs))}–${mega(Math.max(...xs))}`;
const holdRows = [1, 16, 1000, 100_000].map((n) => ({ task: `hold, ${n} pending, table increments`, rates: hold(n, undefined) }));
holdRows.push({ task: 'hold, 1000 pending, Rng.exponential increments', rates: hold(1000, new RandomStreams(SEED).stream('hold')) });
console.log(`\n(a) hold model, ${HOLD_EVENTS} events per run, ${REPEAT} runs; M events per CPU second and per wall second`);
console.table(holdRows.map((r) => ({ task: r.task, 'CPU median': mega(median(r.rates.cpu)), 'CPU min–max': range(r.rates.cpu), 'wall median': mega(median(r.rates.wall)), 'wall min–max': range(r.rates.wall) })));

mm1(); // warm-up
const mm1Runs = Array.from({ length: REPEAT }, () => mm1());
const mm1Ref = mm1Runs[0]!;
const deterministic = mm1Runs.every((r) => r.L === mm1Ref.L && r.W === mm1Ref.W && r.events === mm1Ref.events);
const mm1Time = { cpu: median(mm1Runs.map((r) => r.cpu)), wall: median(mm1Runs.map((r) => r.wall)) };
switchModel();
const swRuns = Array.from({ length: REPEAT }, () => switchModel());
const swRef = swRuns[0]!;
const swDeterministic = swRuns.every((r) => r.wait === swRef.wait && r.events === swRef.events);
const swTime = { cpu: median(swRuns.map((r) => r.cpu)), wall: median(swRuns.map((r) => r.wall)) };

const python = findPython();
type SimpyMm1 = Mm1Result & { variant: string; simpy: string };
type SimpySwitch = SwitchResult & { variant: string; simpy: string };
const variants = ['process', 'callback'] as const;
const simpyMm1: SimpyMm1[] = [];
const simpySwitch: SimpySwitch[] = [];
if (python === undefined) {
  console.log('\nSimPy not found (tried $SIMPY_PYTHON, python3, /usr/bin/python3): skipping the comparison.');
  console.log('Install it with `apt-get install -y python3-simpy3` (Debian; then SIMPY_PYTHON=/usr/bin/python3 if python3 is another interpreter) or `pip install simpy`.');
} else {
  for (const v of variants) simpyMm1.push(simpy(python, 'bench/simpy/mm1.py', ['--customers', String(CUSTOMERS), '--seed', String(SEED), '--variant', v]) as SimpyMm1);
  for (const v of variants) simpySwitch.push(simpy(python, 'bench/simpy/switch.py', ['--slots', String(SLOTS), '--seed', String(SEED), '--variant', v]) as SimpySwitch);
}

/** One table row: times, events/s, model items/s, and the kernel's speed-up over this row. */
function row(side: string, r: { events: number; cpu: number; wall: number }, items: number, itemName: string, kernel: { cpu: number; wall: number } | undefined): Record<string, string | number> {
  return {
    side,
    events: r.events,
    'CPU s': r.cpu.toFixed(3),
    'wall s': r.wall.toFixed(3),
    'M events/CPU s': mega(r.events / r.cpu),
    [`k ${itemName}/CPU s`]: (items / r.cpu / 1e3).toFixed(0),
    'kernel × (CPU)': kernel ? (r.cpu / kernel.cpu).toFixed(1) : '',
    'kernel × (wall)': kernel ? (r.wall / kernel.wall).toFixed(1) : '',
  };
}

console.log(`\n(b) M/M/1, λ = ${LAMBDA}, μ = ${MU}, ${CUSTOMERS} customers${python ? ` · SimPy ${simpyMm1[0]!.simpy} (${python})` : ''}`);
console.table([row('riodp kernel', { ...mm1Ref, ...mm1Time }, mm1Ref.customers, 'customers', undefined), ...simpyMm1.map((r) => row(`SimPy ${r.variant}`, r, r.customers, 'customers', mm1Time))]);
let theoryOk = mm1Checks('riodp kernel', mm1Ref);
for (const r of simpyMm1) theoryOk = mm1Checks(`SimPy ${r.variant}`, r) && theoryOk;
console.log(`  kernel runs identical (determinism): ${deterministic ? 'yes' : 'NO'}`);

console.log(`\n(c) ${PORTS} x ${PORTS} output-queued switch, Bernoulli load ${LOAD}, ${SLOTS} slots`);
console.table([row('riodp kernel', { ...swRef, ...swTime }, swRef.packets, 'packets', undefined), ...simpySwitch.map((r) => row(`SimPy ${r.variant}`, r, r.packets, 'packets', swTime))]);
for (const [side, r] of [['riodp kernel', swRef], ...simpySwitch.map((x) => [`SimPy ${x.variant}`, x] as const)] as const) {
  const c = check('mean wait (slots)', r.wait, r.batches, karol);
  theoryOk = c.ok && theoryOk;
  console.log(`  ${side.padEnd(16)} ${c.text} → ${c.ok ? 'agrees' : 'DISAGREES'}`);
}
console.log(`  kernel runs identical (determinism): ${swDeterministic ? 'yes' : 'NO'}`);

const hold1000 = holdRows[2]!.rates;
console.log(`\ngoal ≥ 5 M events/s (hold, 1000 pending): ${mega(median(hold1000.cpu))} M per CPU second, ${mega(median(hold1000.wall))} M per wall second → ${median(hold1000.cpu) >= 5e6 ? 'met' : 'NOT met'} (CPU)`);
if (python !== undefined) {
  for (const [model, k, sims] of [['M/M/1', mm1Time, simpyMm1], ['switch', swTime, simpySwitch]] as const) {
    const ratios = sims.map((r) => `${(r.cpu / k.cpu).toFixed(1)}× SimPy ${r.variant}`).join(', ');
    const worst = Math.min(...sims.map((r) => r.cpu / k.cpu));
    console.log(`goal ≥ 20× SimPy (${model}, CPU time): ${ratios} → ${worst >= 20 ? 'met' : 'NOT met'} against the fastest SimPy variant`);
  }
}
if (!theoryOk || !deterministic || !swDeterministic) process.exitCode = 1;
