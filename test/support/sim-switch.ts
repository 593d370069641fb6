import { RandomStreams } from '../../src/sim/kernel/random.ts';
import { Scheduler } from '../../src/sim/kernel/scheduler.ts';
import type { Target } from '../../src/sim/kernel/scheduler.ts';
import { makeLink } from '../../src/sim/fabric/channel.ts';
import type { Channel } from '../../src/sim/fabric/channel.ts';
import { Switch } from '../../src/sim/fabric/switch.ts';
import type { SwitchConfig } from '../../src/sim/fabric/switch.ts';
import type { LinkSpec, PortRx, PortTx, Priority, Probe, RxBufferSpec, SimPacket, SimSymbol } from '../../src/sim/fabric/types.ts';

/**
 * Test fabrics around one or two switches: every switch port not linked to another switch has a
 * `TestEnd`, an end point that sends the packets it is given (strictly in order, or from a
 * generator when it runs dry) and records what it receives.
 *
 * Link: 1x 1.25 Gbaud 8b/10b, no propagation delay: 8000 ps per octet, so a 24-octet packet
 * plus its delimiter (a CS48 and its two special characters, 8 characters; decision L3) takes
 * 256 000 ps and a delimited CS48 symbol 64 000 ps.
 */
export const X1: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };
export const PT = 256_000;
export const SYMBOL = 64_000;

export class Ids {
  #next = 0;
  nextPacketId(): number {
    return this.#next++;
  }
}

export function packet(ids: Ids, src: number, dst: number, opts: { prio?: Priority; crf?: 0 | 1; bytes?: number; at?: number; flow?: number } = {}): SimPacket {
  return { id: ids.nextPacketId(), kind: 'data', ftype: 9, src, dst, prio: opts.prio ?? 0, crf: opts.crf ?? 0, vc: 0, bytes: opts.bytes ?? 24, flow: opts.flow ?? 0, createdAt: opts.at ?? 0 };
}

export interface Received {
  readonly p: SimPacket;
  readonly at: number;
}

const SERVED = 0;
const SEND = 1;

export class TestEnd implements PortTx, PortRx, Target {
  readonly id: number;
  readonly received: Received[] = [];
  readonly symbols: SimSymbol[] = [];
  /** Packets to send, oldest first; only the head may go (it waits for its priority's credit). */
  readonly queue: SimPacket[] = [];
  #head = 0;
  /** Called when the queue is empty: a saturating source. */
  generator: ((now: number) => SimPacket | null) | null = null;
  /** ps to consume a received packet before its buffer is freed; 0 = at once, Infinity = never. */
  serviceTime = 0;
  out: Channel | undefined;
  inn: Channel | undefined;
  /** Received packets whose buffer is not yet freed, and the most ever held. */
  held = 0;
  maxHeld = 0;
  readonly #sched: Scheduler;
  #busyUntil = 0;

  constructor(sched: Scheduler, id: number) {
    this.#sched = sched;
    this.id = id;
  }

  get pending(): number {
    return this.queue.length - this.#head;
  }

  /** Queues packets to send at `at` (default: now). */
  send(ps: readonly SimPacket[], at = this.#sched.now): void {
    this.#sched.schedule(at, this, SEND, ps);
  }

  pull(now: number, free: number, reserve: number): SimPacket | null {
    let p = this.queue[this.#head];
    if (p === undefined && this.generator !== null) {
      const g = this.generator(now);
      if (g !== null) {
        this.queue.push(g);
        p = g;
      }
    }
    if (p === undefined || free <= (3 - p.prio) * reserve) return null;
    this.#head++;
    return p;
  }

  onSymbol(s: SimSymbol): void {
    if (s.kind !== 'credit') this.symbols.push(s);
  }

  receive(p: SimPacket, now: number): void {
    this.received.push({ p, at: now });
    this.held++;
    this.maxHeld = Math.max(this.maxHeld, this.held);
    if (this.serviceTime === 0) {
      this.held--;
      this.inn?.freed(1, now);
      return;
    }
    if (this.serviceTime === Infinity) return;
    this.#busyUntil = Math.max(this.#busyUntil, now) + this.serviceTime;
    this.#sched.schedule(this.#busyUntil, this, SERVED);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    if (kind === SERVED) {
      this.held--;
      this.inn?.freed(1, now);
      return;
    }
    this.queue.push(...(data as SimPacket[]));
    this.out?.kick(now);
  }

  /** Packets received of one kind. */
  got(kind: SimPacket['kind'] = 'data'): Received[] {
    return this.received.filter((r) => r.p.kind === kind);
  }
}

export interface Fabric {
  readonly sched: Scheduler;
  readonly ids: Ids;
  readonly sw: Switch;
  /** ends[i] is on switch port i. */
  readonly ends: TestEnd[];
  readonly probe: RecordingProbe;
}

export class RecordingProbe implements Probe {
  readonly counts = new Map<string, number>();
  readonly peaks = new Map<string, number>();
  readonly last = new Map<string, number>();
  occupancy(component: string, _now: number, packets: number): void {
    this.last.set(component, packets);
    if (packets > (this.peaks.get(component) ?? 0)) this.peaks.set(component, packets);
  }
  count(name: string, by = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + by);
  }
  xoff(): void {}
}

export interface FabricOptions {
  readonly link?: LinkSpec;
  /** Buffers of the end points' receiving ports. */
  readonly endBuffers?: RxBufferSpec;
  readonly seed?: number;
}

/** One switch with a TestEnd on every port; destination ID d is routed to port d unless the config says otherwise. */
export function singleSwitch(config: Omit<SwitchConfig, 'routes' | 'name'> & { readonly name?: string; readonly routes?: SwitchConfig['routes'] | undefined }, opts: FabricOptions = {}): Fabric {
  const sched = new Scheduler();
  const ids = new Ids();
  const probe = new RecordingProbe();
  const routes = config.routes ?? Object.fromEntries(Array.from({ length: config.ports }, (_, d) => [d, d]));
  const sw = new Switch(sched, { ...config, name: config.name ?? 's', routes }, { ids, probe, streams: new RandomStreams(opts.seed ?? 1) });
  const ends: TestEnd[] = [];
  for (let i = 0; i < config.ports; i++) ends.push(endOn(sched, sw, i, i, opts));
  return { sched, ids, sw, ends, probe };
}

/** A TestEnd with device ID `id` on switch port `port`. */
export function endOn(sched: Scheduler, sw: Switch, port: number, id: number, opts: FabricOptions = {}): TestEnd {
  const end = new TestEnd(sched, id);
  const link = makeLink(sched, `${sw.name}:${port}`, opts.link ?? X1, { tx: end, rx: end, buffers: opts.endBuffers ?? { packets: 8 } }, sw.port(port));
  end.out = link.ab;
  end.inn = link.ba;
  sw.attach(port, link, 'b');
  return end;
}

/** Links port `pa` of switch `a` to port `pb` of switch `b`. */
export function linkSwitches(sched: Scheduler, a: Switch, pa: number, b: Switch, pb: number, spec: LinkSpec = X1): void {
  const link = makeLink(sched, `${a.name}:${pa}-${b.name}:${pb}`, spec, a.port(pa), b.port(pb));
  a.attach(pa, link, 'a');
  b.attach(pb, link, 'b');
}

/** Arrival order of data packets of each (source, destination, prio, crf) is kept: returns the first violation, or null. */
export function orderViolation(ends: readonly TestEnd[]): string | null {
  for (const e of ends) {
    const last = new Map<string, number>();
    for (const r of e.got()) {
      const key = `${r.p.src}>${r.p.dst}/${r.p.prio}/${r.p.crf}`;
      const prev = last.get(key);
      if (prev !== undefined && prev > r.p.id) return `${key}: packet ${r.p.id} after ${prev}`;
      last.set(key, r.p.id);
    }
  }
  return null;
}
