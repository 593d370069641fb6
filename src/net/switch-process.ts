/**
 * `riodp switch` without the command line: one `SwitchElement` (src/node/switch/element.ts)
 * with each of its ports on a TCP (or TLS) listener (issue 8 §1 "riodp switch --config
 * switch.yaml"). No protocol logic here: frames go from the sockets to the element and back,
 * timer requests to one TimerDriver, events to the log (docs/node-switch.md "Driver contract").
 *
 * - One connection per port at a time: a port is one link of the switch, and a second peer on it
 *   would pose as the first; the second connection gets CLOSE `application` "port N is busy".
 * - Backpressure without loss (issue 8 §1 "bounded buffers with backpressure (no loss)"): a port
 *   is pulled only while its link is `writable`, and again on its `onDrain`; `input-paused` stops
 *   reading a link at once, inside the packet handler, so the element never receives more than the
 *   packet that filled its hold; `input-resumed` restarts it in the order the element said it.
 * - Element outputs are applied in the order the element produced them, across inputs: a link
 *   resumed while outputs are being applied delivers its held frames as new inputs whose outputs
 *   queue behind the ones still to apply.
 * - Fair share between the input ports (input-share.ts, issue 16 item 3): a link that has
 *   delivered its quantum of frames in a round stops after that frame and is resumed in the next
 *   round, on the event loop's next turn. A link is read only while neither the element
 *   (backpressure, `held`) nor its share stops it; each resumes it only when the other does not
 *   stop it (switch-ports.ts).
 */
import type { SwitchInput, SwitchOutput } from '../node/switch/element.ts';
import { SwitchElement } from '../node/switch/element.ts';
import { zeroCounters } from '../engine/contract.ts';
import type { Counters, Time } from '../engine/contract.ts';
import { WireError } from '../wire/errors.ts';
import type { FrameBatch } from '../wire/frame-batch.ts';
import { listen } from './listen.ts';
import type { ListenerRefusal } from './listen.ts';
import type { Link, LinkHandlers } from './link.ts';
import { makeLogger } from './log.ts';
import type { Logger } from './log.ts';
import type { SwitchProcessConfig } from './switch-config.ts';
import { logSuppressed, logSwitchEvent } from './switch-process-log.ts';
import { LogLimiter } from './log-limit.ts';
import { PeerClock } from './peer-clock.ts';
import type { LogLimitOptions } from './log-limit.ts';
import { SwitchPorts } from './switch-ports.ts';
import type { Slot } from './switch-ports.ts';
import { Refusals, helloRefusal } from './switch-refusals.ts';
import { SWITCH_PROCESS_COUNTERS } from './switch-process-types.ts';
import type { RunningSwitch, RunningSwitchCounters, StartSwitchOptions, SwitchAddress, SwitchPortState, SwitchProcessCounter, SwitchProcessSnapshot } from './switch-process-types.ts';
import { TimerDriver } from './timer-driver.ts';
import { ProcessCapture } from './link-capture.ts';
import type { LinkCapture } from './link-capture.ts';
import { receivedDrop } from '../node/switch/drops.ts';

export { SWITCH_PROCESS_COUNTERS } from './switch-process-types.ts';
export type { RunningSwitch, RunningSwitchCounters, StartSwitchOptions, SwitchAddress, SwitchPortState, SwitchProcessCounter, SwitchProcessSnapshot } from './switch-process-types.ts';

const KEY = 'switch';

class SwitchProcess implements RunningSwitch {
  readonly #element: SwitchElement;
  readonly #log: Logger;
  readonly #timers: TimerDriver<typeof KEY>;
  /** The ports: links, backpressure, fair share, pull turns (switch-ports.ts). */
  readonly #ports: SwitchPorts;
  readonly #slots: readonly Slot[];
  readonly #counters: Counters<SwitchProcessCounter> = zeroCounters(SWITCH_PROCESS_COUNTERS);
  /** The fast lane's outputs of one run (`handleFrames`), reused. */
  readonly #batchOut: SwitchOutput[] = [];
  /** Outputs not yet applied, oldest first. */
  readonly #queue: SwitchOutput[] = [];
  #running = false;
  #closing: Promise<void> | null = null;
  /** Per-packet and per-connection log lines (a flood of bad frames, spoofed IDs, refused handshakes) are bounded (log-limit.ts). */
  readonly #limit: LogLimiter;
  readonly #refusals: Refusals;
  readonly #flushLog: NodeJS.Timeout;
  readonly #clock = new PeerClock({ silenceNs: null });
  /** `--pcap` (docs/pcapng.md): the file, and each port's tap. */
  readonly #capture: ProcessCapture | null;
  readonly #taps: (LinkCapture | undefined)[] = [];
  readonly #captureName: string;
  addresses: readonly SwitchAddress[] = [];

  constructor(config: SwitchProcessConfig, log: Logger, timers: StartSwitchOptions['timers'], logLimit: LogLimitOptions | undefined, capture: StartSwitchOptions['capture']) {
    const element = config.element;
    this.#captureName = capture?.name ?? `sw${element.deviceId}`;
    this.#capture = capture === undefined ? null : new ProcessCapture(capture, 'riodp switch');
    this.#element = new SwitchElement(element);
    this.#log = log;
    this.#limit = new LogLimiter(logLimit);
    // Stops of this process are left out of the element's time (peer-clock.ts, decision FF2).
    if (timers?.clock === undefined) this.#clock.start();
    this.#timers = new TimerDriver<typeof KEY>((_key, input, now) => { this.#input(input as SwitchInput, now); }, { clock: this.#clock, ...timers, unref: true });
    this.#ports = new SwitchPorts(element.ports, config.fairShare, this.#counters);
    this.#slots = this.#ports.slots;
    this.#refusals = new Refusals(element.ports, log, this.#limit, () => this.#ms());
    this.#flushLog = setInterval(() => { logSuppressed(this.#log, this.#limit, this.#ms()); }, this.#limit.intervalMs).unref();
  }

  #ms(): number {
    return Math.floor(this.#timers.now() / 1e6);
  }

  async start(config: SwitchProcessConfig, link: StartSwitchOptions['link']): Promise<void> {
    const addresses: SwitchAddress[] = [];
    try {
      for (const p of config.ports) {
        const slot = this.#slots[p.port] as Slot;
        const tap = this.#capture?.link(this.#captureName, p.port, `switch ${this.#captureName} port ${p.port}`);
        this.#taps[p.port] = tap;
        // forward: packets leave in the bytes they came in (src/wire/received-bytes.ts), not re-encoded.
        const opts = {
          ...link,
          forward: true,
          ...(tap === undefined ? {} : { tap }),
          host: p.listen.host,
          port: p.listen.port,
          ...(config.tls === undefined ? {} : { tls: config.tls }),
          ...(config.maxFrameSize === undefined ? {} : { maxFrameSize: config.maxFrameSize }),
          ...(config.keepaliveMs === undefined ? {} : { keepaliveMs: config.keepaliveMs }),
          onRefused: (r: ListenerRefusal) => { this.#refusals.connection(p.port, r.reason, r.peer, r.error); },
        };
        try {
          slot.listener = await listen(opts, (l) => this.#accept(slot, l));
        } catch (e) {
          throw new Error(`port ${p.port}: cannot listen on ${p.listen.host}:${p.listen.port}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        }
        addresses.push({ port: p.port, host: slot.listener.host, tcpPort: slot.listener.port });
        this.#log.info({ port: p.port, host: slot.listener.host, tcpPort: slot.listener.port, tls: config.tls !== undefined }, 'listening');
      }
    } catch (e) {
      await this.close();
      throw e;
    }
    this.addresses = addresses;
  }

  ports(): SwitchPortState[] {
    return this.#slots.map((s) => {
      const l = s.link;
      const address = this.addresses.find((a) => a.port === s.port) ?? null;
      return {
        port: s.port,
        address,
        link: l?.state ?? 'none',
        peer: l === null ? null : `${l.socket.remoteAddress ?? '?'}:${l.socket.remotePort ?? '?'}`,
        paused: l === null ? false : s.held,
        yielded: l === null ? false : this.#ports.yielded(s.port),
        shareStops: this.#ports.shareStops(s.port),
        waiting: s.wanting,
        counters: l?.counters() ?? null,
        refused: this.#refusals.port(s.port),
      };
    });
  }

  counters(): RunningSwitchCounters {
    return { ...this.#element.counters(), ...this.#counters, ...this.#refusals.totals() };
  }

  snapshot(): SwitchProcessSnapshot {
    return {
      element: this.#element.snapshot(),
      ports: this.ports(),
      timers: this.#timers.pending().map((t) => ({ name: t.name, at: t.at })),
      clock: this.#clock.counters(),
      counters: this.counters(),
    };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const s of this.#slots) s.link?.close('normal', 'shutdown');
      await Promise.all(this.#slots.flatMap((s) => (s.listener === null ? [] : [s.listener.close()])));
      this.#timers.close();
      this.#clock.stop();
      clearInterval(this.#flushLog);
      logSuppressed(this.#log, this.#limit, this.#ms(), true);
      const capture = this.#capture?.close();
      if (capture !== undefined && capture.notRecorded > 0) this.#log.warn({ capture }, 'capture-limit');
      this.#log.info({ counters: this.counters(), ...(capture === undefined ? {} : { capture }) }, 'stopped');
    })();
    return this.#closing;
  }

  // ---- Links ------------------------------------------------------------------------------------

  #accept(slot: Slot, link: Link): LinkHandlers {
    this.#counters.connections++;
    const peer = `${link.socket.remoteAddress ?? '?'}:${link.socket.remotePort ?? '?'}`;
    if (slot.link !== null || this.#closing !== null) {
      const text = this.#closing !== null ? 'shutdown' : `port ${slot.port} is busy`;
      this.#refusals.connection(slot.port, 'busy', peer, text);
      // After the Link's constructor, which calls this before it has queued its HELLO.
      queueMicrotask(() => { link.close(this.#closing !== null ? 'normal' : 'application', text); });
      return {};
    }
    slot.link = link;
    this.#ports.clear(slot);
    let opened = false;
    const port = slot.port;
    return {
      onOpen: () => {
        opened = true;
        this.#counters.linksOpened++;
        this.#log.info({ port, peer }, 'link-up');
        this.#input({ kind: 'link-up', port });
      },
      // octets: the frame body, which is serialPacketLength(packet) for a packet that decoded.
      // Every frame counts against the port's share, whatever its kind (malformed, undefined ones too).
      onFrame: () => { this.#ports.took(slot); },
      onFrames: (frames, chunk, first, count) => this.#frames(slot, frames, chunk, first, count),
      onPacket: (packet, octets, wire) => { this.#input(wire === undefined ? { kind: 'packet', port, packet, octets } : { kind: 'packet', port, packet, octets, wire }); },
      onSymbol: (symbol) => { this.#input({ kind: 'symbol', port, symbol }); },
      onDrain: () => { if (slot.wanting) this.#run(); },
      onMalformed: (e) => {
        this.#counters.malformedFrames++;
        const suppressed = this.#limit.admit(`frame-malformed:${port}`, this.#ms());
        if (suppressed === null) return;
        this.#log.warn({ port, peer, code: e.code, field: e.field, clause: e.clause, error: e.message, ...(suppressed > 0 ? { suppressed } : {}) }, 'frame-malformed');
      },
      onClose: (c) => {
        slot.link = null;
        slot.wanting = false;
        // A peer refused at its opening (riodp link §4.1) never was a link of the switch.
        this.#ports.clear(slot);
        if (!opened && c.hello !== undefined) {
          this.#refusals.connection(port, helloRefusal(c.hello), peer, c.text);
          return;
        }
        this.#counters[c.reasonName === 'lost' ? 'linksLost' : 'linksClosed']++;
        this.#log[c.reasonName === 'lost' ? 'warn' : 'info']({ port, peer, by: c.by, reason: c.reasonName, text: c.text }, 'link-down');
        if (opened) this.#input({ kind: 'link-down', port });
      },
    };
  }

  // ---- The element ------------------------------------------------------------------------------

  /**
   * The fast lane: a run of Type 9 frames from `slot`'s link, at most what is left of its share,
   * to the element in one input; returns how many it took (the link pauses at the first one not
   * taken). One clock read per run, where the object path reads it per packet.
   */
  #frames(slot: Slot, frames: FrameBatch, chunk: Uint8Array, first: number, count: number): number {
    const n = this.#ports.allowance(slot.port, count);
    const now = this.#timers.now();
    const out = this.#batchOut;
    const taken = this.#element.handleFrames(slot.port, frames, chunk, first, n, now, out);
    for (let i = 0; i < out.length; i++) {
      const o = out[i] as SwitchOutput;
      if (o.kind === 'input-paused') this.#ports.pause(o.port);
      else this.#queue.push(o);
    }
    out.length = 0;
    this.#ports.tookMany(slot, taken);
    this.#run(now);
    return taken;
  }

  /**
   * Hands one input to the element. A pause is applied before returning, so that a link stops
   * delivering at the very next frame; everything else joins the queue of outputs.
   */
  #input(input: SwitchInput, now: Time = this.#timers.now()): void {
    const out = this.#element.handle(input, now);
    if (input.kind === 'packet' && this.#capture !== null) this.#dropsOf(input.port, out);
    for (const o of out) {
      if (o.kind === 'input-paused') this.#ports.pause(o.port);
      else this.#queue.push(o);
    }
    this.#run(now);
  }

  /** The drops of the packet received on `port` (node/switch/drops.ts), told to its capture. */
  #dropsOf(port: number, out: readonly SwitchOutput[]): void {
    const tap = this.#taps[port];
    if (tap === undefined) return;
    for (const o of out) {
      if (o.kind !== 'event') continue;
      const drop = receivedDrop(o.event, port);
      if (drop !== null) tap.drop(drop);
    }
  }

  /**
   * Applies queued outputs, then pulls ports that have frames while their links can take them.
   * The pulls of one run share `now`, the time of the input that started it: the run is one
   * synchronous step, and reading the clock per pull cost a system call per forwarded packet.
   */
  #run(now: Time = this.#timers.now()): void {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        for (let i = 0; i < this.#queue.length; i++) this.#apply(this.#queue[i] as SwitchOutput);
        this.#queue.length = 0;
        const port = this.#ports.nextPull();
        if (port === undefined) break;
        // Into the queue itself, which is empty here: no array per pull.
        this.#element.handleInto((this.#slots[port] as Slot).pull, now, this.#queue);
      }
    } finally {
      this.#running = false;
    }
  }

  #apply(o: SwitchOutput): void {
    switch (o.kind) {
      case 'ready': {
        const s = this.#slots[o.port];
        if (s !== undefined) s.wanting = true;
        break;
      }
      case 'idle': {
        const s = this.#slots[o.port];
        if (s !== undefined) s.wanting = false;
        break;
      }
      case 'packet':
        this.#send(o.port, (l) => l.sendPacket(o.packet, o.wire));
        break;
      case 'forward': {
        // Per forwarded packet: no closure, and nothing here can throw a WireError.
        const p = o.packet;
        const link = this.#slots[o.port]?.link ?? null;
        if (link === null) this.#sendFailed(o.port, 'no link');
        else if (!link.sendPacketBytes(p.chunk, p.start, p.end)) this.#sendFailed(o.port, `link ${link.state}, not writable`);
        break;
      }
      case 'symbol':
        this.#send(o.port, (l) => l.sendSymbol(o.symbol.symbol));
        break;
      case 'input-paused':
        this.#ports.pause(o.port);
        break;
      case 'input-resumed':
        this.#ports.resume(o.port);
        break;
      case 'timer':
        this.#timers.apply(KEY, o);
        break;
      case 'event':
        if (o.event.name === 'source-rejected') this.#refusals.source(o.event.port);
        logSwitchEvent(this.#log, o.at, o.event, this.#limit);
        break;
    }
  }

  #send(port: number, send: (l: Link) => boolean): void {
    const link = this.#slots[port]?.link ?? null;
    let error: string | null = link === null ? 'no link' : null;
    try {
      if (link !== null && !send(link)) error = `link ${link.state}, not writable`;
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      error = e.message;
    }
    if (error !== null) this.#sendFailed(port, error);
  }

  #sendFailed(port: number, error: string): void {
    this.#counters.sendErrors++;
    this.#log.error({ port, error }, 'send-failed');
  }
}

/**
 * Starts a switch: the element built from `config.element`, one listener per configured port.
 * Rejects, with nothing left open, if the element's configuration is refused (RangeError) or a
 * port cannot listen (its message names the port and the address).
 *
 * @example
 * ```ts
 * import { endpointConfig, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * // Switch 0x50 with its port 0 on a free loopback TCP port (listen port 0), for end point 1.
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 }, accept: [1] }], routes: { 1: 0 }, log: 'warn' }));
 * const { host, tcpPort } = sw.addresses[0]!;                     // '127.0.0.1' and the port the system chose
 * const ep = await startEndpoint(endpointConfig({ nodeId: 1, switch: { host, port: tcpPort }, log: 'warn' }));
 * // hop_count 0: the switch answers itself. Switch Port Information CAR (Part 1 §5.4.6):
 * console.log((await ep.readRegister(0x50, 0, 0x14)).toString(16)); // 200: PortTotal 2, the read came in on port 0
 * console.log(sw.ports()[0]?.link, sw.counters().maintenanceReads); // open 1
 * await ep.close();
 * await sw.close();
 * ```
 */
export async function startSwitch(config: SwitchProcessConfig, opts: StartSwitchOptions = {}): Promise<RunningSwitch> {
  const log = opts.logger ?? makeLogger({ level: config.log, name: 'switch' });
  const sw = new SwitchProcess(config, log, opts.timers, opts.logLimit, opts.capture);
  await sw.start(config, opts.link);
  return sw;
}
