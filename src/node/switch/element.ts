import { zeroCounters } from '../../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../../engine/contract.ts';
import { describeInput } from '../../engine/input-checks.ts';
import { Timers } from '../../engine/timers.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import type { Packet } from '../../wire/packet.ts';
import { SwitchCore } from './core.ts';
import { ELEMENT_COUNTERS } from './element-types.ts';
import type {
  ElementCounter, SwitchElementConfig, SwitchElementCounter, SwitchElementSnapshot, SwitchInput, SwitchOutput, SwitchTimerName,
} from './element-types.ts';
import type { Priority, SwitchPacket } from './packet.ts';
import { packetProblem, senderOf } from './receive.ts';
import type { SwitchEvent, SwitchHost } from './types.ts';
import { voqMessageOf } from './voq-symbol-in.ts';
import { BatchPacket } from './batch-packet.ts';
import type { FrameColumns } from '../../wire/frame-batch-types.ts';
import { FRAME_DEFECT } from '../../wire/frame-batch-types.ts';
import { FRAME_KIND } from '../../wire/frame.ts';
import { FTYPE_DATA_STREAMING } from '../../wire/type9.ts';

export type * from './element-types.ts';
export type { SwitchConfig, SwitchCongestionSettings, SwitchIdentity, SwitchPortConfig, SwitchVoqSettings } from './config-types.ts';
export type { CcpDropReason, SwitchCounter, SwitchEvent, SwitchSymbol } from './types.ts';

/** A packet as the software fabric hands it over: its decoded form and, opaque, the bytes it came in. */
export interface FramePacket extends SwitchPacket {
  readonly wire: Packet;
  /** `SwitchPacketInput.wire`: given back when the packet leaves unchanged. */
  readonly raw: unknown;
}

function framePacket(packet: Packet, octets: number, raw: unknown): FramePacket {
  return {
    ftype: packet.ftype, src: senderOf(packet), dst: packet.destinationID, prio: (packet.prio & 3) as Priority, crf: packet.crf === 1 ? 1 : 0,
    vc: packet.vc, bytes: octets, wire: packet, raw,
  };
}


/**
 * The switch element (`SwitchCore`, core.ts) as a sans-IO engine: the switch of the software
 * fabric (issue 8), with its crossbar taking no time. Every input runs the element to rest: the
 * crossbar's decisions and transfers are repeated until no input can move a packet to an output,
 * so a packet that can be queued is queued before `handle` returns.
 *
 * Transmission is pulled: `ready` says a port has something to send; the driver then pulls it
 * (one frame per pull) until `idle`. Backpressure: an input whose packets wait for room at their
 * outputs is paused (`input-paused`, stop reading the link) until none waits (`input-resumed`);
 * nothing is dropped for lack of space, and a driver that reads on anyway finds the input buffer's
 * limit (`inputBuffer.packets`, `hold-overrun`). Outputs of one input come in the order they are
 * caused, with `ready` and the pause changes last.
 *
 * @example
 * ```ts
 * import { SwitchElement } from 'riodp/node';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const sw = new SwitchElement({ deviceId: 0x50, ports: 2, routes: { 1: 0, 2: 1 } });
 * sw.handle({ kind: 'link-up', port: 0 }, 0);
 * sw.handle({ kind: 'link-up', port: 1 }, 0);
 * const doorbell: Type10Packet = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 0, info: 1 };
 * sw.handle({ kind: 'packet', port: 0, packet: doorbell, octets: 12 }, 10); // → { kind: 'ready', port: 1 }
 * sw.handle({ kind: 'pull', port: 1 }, 20);                                // → { kind: 'packet', port: 1, packet: doorbell }
 * ```
 */
export class SwitchElement implements ObservableEngine<SwitchInput, SwitchOutput, SwitchElementSnapshot, SwitchElementCounter>, SwitchHost<FramePacket> {
  readonly #core: SwitchCore<FramePacket>;
  readonly #ports: number;
  readonly #timers = new Timers<SwitchTimerName>();
  readonly #counters: Counters<ElementCounter> = zeroCounters(ELEMENT_COUNTERS);
  /** Whether `ready` was said for the port and no pull has answered `idle` since. */
  readonly #announced: Uint8Array;
  readonly #paused: Uint8Array;
  readonly #touched = new Set<number>();
  readonly #transfers: number[] = [];
  #decide = false;
  #now: Time = 0;
  #out: SwitchOutput[] = [];

  constructor(config: SwitchElementConfig) {
    this.#core = new SwitchCore<FramePacket>(config, this);
    this.#ports = this.#core.config.ports;
    this.#announced = new Uint8Array(this.#ports);
    this.#paused = new Uint8Array(this.#ports);
  }

  handle(input: SwitchInput, now: Time): SwitchOutput[] {
    const out: SwitchOutput[] = [];
    this.handleInto(input, now, out);
    return out;
  }

  /** `handle`, its outputs appended to the caller's array (reused by a driver that pulls per frame). */
  handleInto(input: SwitchInput, now: Time, out: SwitchOutput[]): void {
    this.#now = now;
    this.#out = out;
    const raw = input as unknown;
    const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
    if (kind === 'timer') this.#timer((input as { name?: unknown }).name);
    else if (kind === 'packet' || kind === 'pull' || kind === 'symbol' || kind === 'link-up' || kind === 'link-down') {
      const port = (input as { port?: unknown }).port;
      if (!this.#isPort(port)) this.#invalid(`port ${describeInput(port)} is not 0–${this.#ports - 1}`);
      else if (kind === 'packet') this.#receive(port, input as { packet?: unknown; octets?: unknown; wire?: unknown });
      else if (kind === 'pull') this.#pull(port);
      else if (kind === 'symbol') this.#core.symbol(port, voqMessageOf((input as { symbol?: unknown }).symbol), now);
      else if (kind === 'link-up') this.#linkUp(port);
      else this.#linkDown(port);
    } else this.#invalid(`unknown input kind ${describeInput(kind)}`);
    this.#settle();
  }

  /**
   * The fast lane (docs/fast-lane.md §7): frames [first, first + count) of a frame batch parsed
   * from `chunk`, received on `port`, each as a `packet` input would be, without a decoded packet
   * per frame (BatchPacket). Outputs are appended to `out` (the caller's array, reused). Returns
   * the frames taken: all of them, unless one had to wait for room at its output — it is taken,
   * `input-paused` is said, and the driver stops reading after it, as after that `packet` input.
   * Each frame must be a good Type 9 packet (status ok); another is refused as an invalid input
   * (counted and reported, taken). The frames' bytes stay referenced while their packets are
   * queued: `chunk` must not be written again (§5).
   */
  handleFrames(port: number, frames: FrameColumns, chunk: Uint8Array, first: number, count: number, now: Time, out: SwitchOutput[]): number {
    this.#now = now;
    this.#out = out;
    if (!this.#isPort(port)) {
      this.#invalid(`port ${describeInput(port)} is not 0–${this.#ports - 1}`);
      this.#settle();
      return count;
    }
    let k = 0;
    while (k < count) {
      const i = first + k++;
      if (frames.status[i] !== FRAME_DEFECT.ok || frames.kind[i] !== FRAME_KIND.packet || frames.ftype[i] !== FTYPE_DATA_STREAMING) {
        this.#invalid(`frame ${i} is not a good Type 9 packet`);
        continue;
      }
      this.#core.receive(port, new BatchPacket(frames, i, chunk), now);
      this.#cross();
      if (this.#core.inputWaiting(port) > 0) break;
    }
    this.#settle();
    return k;
  }

  counters(): Counters<SwitchElementCounter> {
    return { ...this.#core.counters(), ...this.#counters };
  }

  /** The switch's configuration space, as its own logic sees it. */
  get registers(): RegisterSpace {
    return this.#core.registers;
  }

  /**
   * The switch element itself (its configuration, stages, routes), for riodp's own drivers and tests.
   *
   * @internal
   */
  get core(): SwitchCore<FramePacket> {
    return this.#core;
  }

  /** Packets in output `port`'s buffer (forwarded and responses; not the switch's own CCPs). */
  occupancy(port: number): number {
    return this.#core.outputs[port]?.dataCount ?? 0;
  }

  /** Packets input `port` holds (waiting for room at their outputs). */
  holding(port: number): number {
    return this.#core.inputWaiting(port);
  }

  snapshot(): SwitchElementSnapshot {
    const core = this.#core.snapshot();
    return {
      ...core,
      ports: core.ports.map((p, port) => ({ ...p, paused: this.#paused[port] === 1, announced: this.#announced[port] === 1 })),
      timers: this.#timers.pending(),
      counters: this.counters(),
    };
  }

  // ---- SwitchHost ------------------------------------------------------------------------------
  // The core's callbacks (types.ts SwitchHost), not for drivers: @internal keeps them out of the API reference.

  /** @internal */
  kick(o: number): void {
    this.#touched.add(o);
  }

  /** @internal */
  requestDecide(): void {
    this.#decide = true;
  }

  /** @internal */
  transfer(i: number): void {
    this.#transfers.push(i);
  }

  /** @internal */
  released(): void {}

  /**
   * Output buffer 0: the driver pulls the register's packet when its link can take it.
   *
   * @internal
   */
  linkAccepts(): boolean {
    return true;
  }

  /** @internal */
  voqWanted(port: number): void {
    this.#touched.add(port);
  }

  /** @internal */
  voqTimer(at: number | null): void {
    if (at === null) this.#timers.cancel('voq:refresh', this.#out);
    else this.#timers.arm('voq:refresh', at, this.#out);
  }

  /** @internal */
  make(wire: Packet, bytes: number): FramePacket {
    return framePacket(wire, bytes, undefined);
  }

  /** @internal */
  event(event: SwitchEvent, at: number): void {
    this.#out.push({ kind: 'event', at, event });
  }

  // ---- Inputs ----------------------------------------------------------------------------------

  #receive(port: number, input: { packet?: unknown; octets?: unknown; wire?: unknown }): void {
    const { packet, octets } = input;
    const problem = packetProblem(packet) ?? (typeof octets === 'number' && Number.isSafeInteger(octets) && octets > 0 ? undefined : `octets ${describeInput(octets)} must be a positive integer`);
    if (problem !== undefined) {
      this.#invalid(problem);
      return;
    }
    this.#core.receive(port, framePacket(packet as Packet, octets as number, input.wire), this.#now);
  }

  #pull(port: number): void {
    this.#counters.pulls++;
    if (this.#core.isUp(port)) {
      const symbol = this.#core.voqNext(port, this.#now);
      if (symbol !== null) {
        this.#out.push({ kind: 'symbol', port, symbol });
        return;
      }
      const p = this.#core.takeRegister(port) ?? this.#core.pull(port, this.#now, Infinity, 0);
      if (p instanceof BatchPacket) {
        this.#out.push({ kind: 'forward', port, packet: p });
        return;
      }
      if (p !== null) {
        // `wire` only when there is one: outputs stay the plain objects they were for other drivers.
        this.#out.push(p.raw === undefined ? { kind: 'packet', port, packet: p.wire } : { kind: 'packet', port, packet: p.wire, wire: p.raw });
        return;
      }
    }
    this.#counters.idlePulls++;
    this.#announced[port] = 0;
    this.#out.push({ kind: 'idle', port });
  }

  #linkUp(port: number): void {
    if (this.#core.isUp(port)) return;
    this.#core.linkUp(port, this.#now);
    this.#touched.add(port);
    // A new connection reads until told otherwise; held packets pause it again at once.
    this.#paused[port] = 0;
  }

  #linkDown(port: number): void {
    if (!this.#core.isUp(port)) return;
    this.#announced[port] = 0;
    this.#paused[port] = 0;
    this.#core.linkDown(port, this.#now);
  }

  #timer(name: unknown): void {
    if (name !== 'voq:refresh') this.#invalid(`unknown timer ${describeInput(name)}`);
    else if (this.#timers.expire(name, this.#now)) this.#core.timer(this.#now);
  }

  // ---- To rest ---------------------------------------------------------------------------------

  /** Runs the crossbar until nothing moves, then says which links to stop or restart reading and which ports have frames. */
  #settle(): void {
    this.#cross();
    for (let i = 0; i < this.#ports; i++) {
      if (!this.#core.isUp(i)) continue;
      const waiting = this.#core.inputWaiting(i) > 0;
      if (waiting === (this.#paused[i] === 1)) continue;
      this.#paused[i] = waiting ? 1 : 0;
      this.#counters[waiting ? 'pauses' : 'resumes']++;
      this.#out.push({ kind: waiting ? 'input-paused' : 'input-resumed', port: i });
    }
    for (const o of this.#touched) {
      if (!this.#core.isUp(o) || this.#announced[o] === 1) continue;
      if (this.#core.outputOccupancy(o) === 0 && this.#core.outputs[o]?.register == null && !this.#core.voqPending(o)) continue;
      this.#announced[o] = 1;
      this.#out.push({ kind: 'ready', port: o });
    }
    this.#touched.clear();
  }

  /** The crossbar's decisions and transfers, repeated until nothing moves. */
  #cross(): void {
    while (this.#decide || this.#transfers.length > 0) {
      this.#decide = false;
      this.#core.decide(this.#now, true);
      const done = this.#transfers.splice(0);
      for (const i of done) this.#core.transferDone(i, this.#now);
    }
  }

  #isPort(v: unknown): v is number {
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < this.#ports;
  }

  #invalid(detail: string): void {
    this.#core.invalidInput();
    this.event({ name: 'invalid-input', detail }, this.#now);
  }
}
