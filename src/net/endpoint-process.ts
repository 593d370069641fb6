/**
 * The end point process driver (issue 8 §1 "`riodp endpoint --config endpoint.yaml`"): the sans-IO
 * end point (endpoint-engine.ts) on a real link to its switch port and the real clock. No
 * protocol logic here: it moves packets between the link and the engine, runs the engines'
 * timers through one TimerDriver, and hands deliveries and events to the API (api.ts).
 *
 * - Link (endpoint-link.ts): connected, retried with backoff; then `link-up` into the engine. When
 *   it closes: `link-down`, and connect again. Time is the PeerClock's (peer-clock.ts).
 * - Transmit (endpoint-pump.ts): the engine sends only when pulled, after every input and when
 *   the link drains, while the link is writable (docs/net-framing.md §4.4).
 * - Receive: each packet goes to the engine, except MAINTENANCE responses to the application's
 *   reads (api-reads.ts) and packets of nodes not yet discovered (api-contacts.ts), held until
 *   discovery has reported them.
 * - Inputs the API makes while the engine's outputs are being dispatched (an XOFF because a
 *   delivery filled a stream's buffer) wait until that dispatch is over, so that every input's
 *   outputs are dispatched in order (endpoint-inputs.ts).
 */
import type { EndpointProcessSnapshot, EndpointProcessTimerKey } from './endpoint-process-snapshot.ts';
import type { Time, TimerInput } from '../engine/contract.ts';
import { resolveDiscoveryConfig } from '../session/discovery-config.ts';
import type { Packet, SerialPacket } from '../wire/packet.ts';
import { isType8Response } from '../wire/type8.ts';
import { ContactGate } from './api-contacts.ts';
import { EndpointApi } from './api.ts';
import type { ApiHost } from './api.ts';
import type { LinkStatus } from './api-types.ts';
import { SwitchLink } from './endpoint-link.ts';
import { DEFAULT_SILENCE_MS } from './endpoint-config.ts';
import { checkConnectOptions } from './connect.ts';
import type { EndpointProcessConfig } from './endpoint-config.ts';
import { EndpointEngine, conduitReceives } from './endpoint-engine.ts';
import { EngineInputs } from './endpoint-inputs.ts';
import { TransmitPump } from './endpoint-pump.ts';
import type { FabricCounters, FabricEndpointInput, FabricEndpointOutput, FlowState } from './endpoint-engine.ts';
import { logEngineOutput } from './endpoint-log.ts';
import { ReadPort } from './endpoint-reads.ts';
import type { Link, LinkCounters } from './link.ts';
import { makeLogger } from './log.ts';
import type { Logger } from './log.ts';
import { PeerClock } from './peer-clock.ts';
import { TimerDriver } from './timer-driver.ts';
import { LogLimiter, logSuppressed } from './log-limit.ts';
import { receiveFrames } from './endpoint-frames.ts';
import { ProcessCapture } from './link-capture.ts';
import type { CaptureSettings, LinkCapture } from './link-capture.ts';
import { receivedDropOf } from '../node/endpoint-drops.ts';
import type { FrameRunHost } from './endpoint-frames.ts';
import { startControlServer } from './control-server.ts';
import type { ControlServer } from './control-server.ts';

/** Options of `startEndpoint`. */
export interface StartEndpointOptions {
  /** Default: a pino logger at the configured level on stderr (log.ts). */
  readonly logger?: Logger;
  /**
   * Capture the link's frames into a pcapng file (docs/pcapng.md; `riodp endpoint --pcap`):
   * interfaces `<name>.p0.tx|rx`, `name` default `ep<nodeId>`; the link is then read frame by frame.
   */
  readonly capture?: CaptureSettings & { readonly name?: string };
}

type TimerKey = EndpointProcessTimerKey;

const MS = 1_000_000;

export class EndpointProcess implements ApiHost {
  readonly api: EndpointApi;
  readonly nodeId: number;
  readonly tt: 0 | 1;
  readonly targets: readonly { readonly node: number; readonly hop?: number }[];
  readonly #config: EndpointProcessConfig;
  readonly #engine: EndpointEngine;
  readonly #timers: TimerDriver<TimerKey>;
  /** Engine time: stops of this process and silences of the switch's link left out (peer-clock.ts). */
  readonly #clock: PeerClock;
  readonly #sw: SwitchLink;
  readonly #log: Logger;
  readonly #logLimit = new LogLimiter();
  readonly #gate: ContactGate<SerialPacket>;
  readonly #reads: ReadPort;
  #closing = false;
  #closed: Promise<void> | null = null;
  /** The control socket of `config.control` (control-server.ts), opened once the link is up. */
  #control: Promise<ControlServer> | null = null;
  /** The transmit side (endpoint-pump.ts). */
  readonly #tx: TransmitPump;
  /** The engine's inputs, one at a time (endpoint-inputs.ts). */
  readonly #inputs: EngineInputs;
  readonly #capture: { readonly file: ProcessCapture; readonly tap: LinkCapture } | null = null;
  #firstLink: { resolve(): void; reject(e: Error): void } | null = null;
  /** The fast lane on receive (endpoint-frames.ts). */
  readonly #rx: FrameRunHost = {
    busy: () => this.#inputs.busy,
    now: () => this.now(),
    heard: (node) => { this.api.heard(node); },
    passes: (node) => node === this.nodeId || this.#gate.known(node),
    packet: (p) => { this.#received(p); },
    engine: (frames, chunk, first, count, now) => this.#inputs.frames(frames, chunk, first, count, now, this.#now),
    paused: () => this.#sw.link?.paused !== false,
    pump: () => { this.#tx.pump(); },
  };
  readonly #now = (): Time => this.now();

  constructor(config: EndpointProcessConfig, opts: StartEndpointOptions = {}) {
    this.#config = config;
    this.#engine = new EndpointEngine(config.engine);
    this.#inputs = new EngineInputs(this.#engine, (o) => { this.#dispatch(o); });
    this.nodeId = config.engine.nodeId;
    this.tt = config.engine.tt ?? 1;
    this.targets = config.engine.discovery?.targets ?? [];
    this.#log = opts.logger ?? makeLogger({ level: config.log, name: `endpoint-${this.nodeId}` });
    this.#tx = new TransmitPump({
      link: () => this.#sw.link, inputs: this.#inputs, now: this.#now, log: this.#log,
      encodeError: () => { this.api.count('encodeErrors'); },
    }, config.fastLane !== false);
    const silence = config.silenceMs === undefined ? DEFAULT_SILENCE_MS : config.silenceMs;
    this.#clock = new PeerClock({ silenceNs: silence === null ? null : silence * MS });
    this.#timers = new TimerDriver<TimerKey>(
      (key, input) => {
        this.#expired(key, input);
      },
      { clock: this.#clock },
    );
    if (opts.capture !== undefined) {
      const file = new ProcessCapture(opts.capture, 'riodp endpoint');
      this.#capture = { file, tap: file.link(opts.capture.name ?? `ep${this.nodeId}`, 0, `end point ${this.nodeId}'s link to its switch`) };
    }
    this.#sw = new SwitchLink(this.#capture === null ? config.switch : { ...config.switch, tap: this.#capture.tap }, config.retry, this.#clock, {
      up: (l) => { this.#up(l); },
      down: (by, reason, text) => { this.#down(by, reason, text); },
      packet: (p) => { this.#received(p); },
      frames: (b, chunk, first, count) => receiveFrames(this.#rx, b, chunk, first, count),
      symbol: () => { this.api.count('symbolsIn'); },
      drain: () => { this.#tx.pump(); },
      malformed: (e) => {
        // Bounded like the switch's (log-limit.ts); what is left out is told by the next line or at close.
        const suppressed = this.#logLimit.admit('malformed frame', Math.floor(this.now() / 1e6));
        if (suppressed !== null) this.#log.warn({ err: e.message, clause: e.clause, ...(suppressed > 0 ? { suppressed } : {}) }, 'malformed frame');
      },
      retry: (ms, e) => {
        this.#log.debug({ err: e.message }, 'connect failed');
        this.#reconnect(ms);
      },
    });
    this.#gate = new ContactGate(this.nodeId);
    const engineReadTimeout = resolveDiscoveryConfig({ ...config.engine.discovery, self: this.nodeId }).readTimeout;
    this.#reads = new ReadPort({ nodeId: this.nodeId, tt: this.tt, engineReadTimeout }, config.api.readTimeoutMs, {
      now: () => this.now(),
      send: (p) => { this.#tx.push(p); },
      timer: (t) => { this.#timers.apply('process', t); },
      count: (n) => { this.api.count(n); },
    });
    this.api = new EndpointApi(this, config.api, config.engine.tm !== undefined);
  }

  /**
   * Connects for the first time: resolves once the link is up, rejects after `retry.timeoutMs`.
   * Throws at once, before any attempt, a RangeError for switch options no connection can use
   * (issue 16 item 6: a non-loopback host without TLS was refused only after the retries).
   */
  start(): Promise<void> {
    checkConnectOptions(this.#config.switch);
    const first = new Promise<void>((resolve, reject) => {
      this.#firstLink = { resolve, reject };
    });
    this.#clock.start();
    this.#timers.apply('process', { kind: 'timer', name: 'give-up', at: this.now() + this.#config.retry.timeoutMs * MS });
    this.#attempt();
    const path = this.#config.control;
    if (path === null) return first;
    // An accepted `control` acts: the socket is served once the link is up; when it cannot be, the end point closes and start rejects.
    return first.then(() => (this.#control = startControlServer(this.api, path, this.#log)).then(() => undefined, async (e: unknown) => {
      await this.close();
      throw e;
    }));
  }

  now(): Time {
    return this.#timers.now();
  }

  // ---- The engine ----------------------------------------------------------------------------

  command(input: FabricEndpointInput): readonly FabricEndpointOutput[] | null {
    const out = this.#inputs.input(input, this.#now);
    this.#tx.pump();
    return out;
  }

  #dispatch(o: FabricEndpointOutput): void {
    switch (o.kind) {
      case 'packet':
        this.#outgoing(o.packet);
        return;
      case 'timer':
        this.#timers.apply('engine', o);
        return;
      case 'event': {
        if (o.source === 'discovery') this.#discovered(o.detail);
        const drop = this.#capture === null ? null : receivedDropOf(o);
        if (drop !== null) this.#capture?.tap.drop(drop);
        break;
      }
      default:
        break;
    }
    logEngineOutput(this.#log, o);
    this.api.output(o);
  }

  /** Discovery reported a node: its held packets go to the engine, after the input running now. */
  #discovered(d: Readonly<Record<string, unknown>>): void {
    const e = d['event'];
    if (e !== 'participant' && e !== 'not-participating' && e !== 'unreachable') return;
    for (const packet of this.#gate.reported(d['node'] as number)) this.#inputs.queue({ kind: 'packet', packet });
  }

  #outgoing(p: Packet): void {
    if (p.ftype === 8 && p.transactionName === 'MAINTENANCE_READ_REQUEST') this.#reads.engineRequest(p);
    this.#tx.push(p);
  }

  // ---- The link ------------------------------------------------------------------------------

  #attempt(): void {
    if (!this.#closing) this.#sw.attempt();
  }

  #up(l: Link): void {
    if (this.#closing) {
      l.close('normal', 'end point closed');
      return;
    }
    this.api.count('connects');
    this.#log.info({ switch: this.#sw.address, connects: this.#sw.status().connects }, 'link up');
    this.#timers.apply('process', { kind: 'timer', name: 'give-up', at: null });
    this.command({ kind: 'link-up' });
    const f = this.#firstLink;
    this.#firstLink = null;
    f?.resolve();
  }

  #down(by: string, reason: string, text: string): void {
    this.#sw.ended(this.#closing);
    this.api.count('linkDowns');
    this.api.count('unsentDiscarded', this.#tx.discard());
    this.#log.info({ by, reason, text }, 'link down');
    this.command({ kind: 'link-down' });
    if (!this.#closing) this.api.linkDown(`the link to the switch went down (${by}, ${reason}${text === '' ? '' : `: ${text}`}); what was in flight is lost`);
    this.#reads.failAll(`the link to the switch went down (${reason}) before the MAINTENANCE response came`);
    this.#reconnect(this.#sw.nextRetryMs());
  }

  #reconnect(ms: number): void {
    if (!this.#closing) this.#timers.apply('process', { kind: 'timer', name: 'reconnect', at: this.now() + ms * MS });
  }

  #received(p: SerialPacket): void {
    // A CCP (Type 7) comes from a switch's congestion point, not from a peer.
    if ('sourceID' in p) this.api.heard(p.sourceID);
    if (p.ftype === 8 && isType8Response(p) && this.#reads.response(p)) return;
    const v = this.#gate.admit(p);
    if (v.action === 'hold') {
      this.api.count('gatedPackets');
      if (v.discover !== null) this.command({ kind: 'discover', node: v.discover });
      return;
    }
    if (v.overflow) this.api.count('gateOverflow');
    this.command({ kind: 'packet', packet: p });
  }

  /** A receive stream of the API is at `api.rxLimit` (api-streams.ts): no packet more from the link until it has room. */
  holdReceive(on: boolean): void {
    this.#sw.hold(on);
  }

  // ---- Timers --------------------------------------------------------------------------------

  setTimer(name: string, at: Time | null): void {
    this.#timers.apply('api', { kind: 'timer', name, at });
  }

  #expired(key: TimerKey, input: TimerInput): void {
    if (key === 'engine') {
      this.command(input as FabricEndpointInput);
    } else if (key === 'api') {
      this.api.timer(input.name);
      this.#tx.pump();
    } else if (input.name === 'reconnect') {
      this.#attempt();
    } else if (input.name === 'give-up') {
      this.#giveUp();
    } else {
      this.#reads.timer(input.name);
    }
  }

  #giveUp(): void {
    const f = this.#firstLink;
    if (f === null) return;
    this.#firstLink = null;
    const err = this.#sw.lastError;
    f.reject(new Error(`no link to the switch at ${this.#sw.address} within ${this.#config.retry.timeoutMs} ms${err === null ? '' : `: ${err.message}`}`));
    void this.close();
  }

  // ---- Application reads ---------------------------------------------------------------------

  readRegister(to: number, hop: number, offset: number): Promise<number> {
    if (this.#sw.link === null || this.#closing) return Promise.reject(new Error('no link to the switch'));
    const p = this.#reads.read(to, hop, offset);
    this.#tx.pump();
    return p;
  }

  /** A word MAINTENANCE write (the port check's route lookup, api-port-check.ts). */
  writeRegister(to: number, hop: number, offset: number, value: number): Promise<void> {
    if (this.#sw.link === null || this.#closing) return Promise.reject(new Error('no link to the switch'));
    const p = this.#reads.read(to, hop, offset, value >>> 0);
    this.#tx.pump();
    return p.then(() => undefined);
  }

  // ---- Status and end ------------------------------------------------------------------------

  conduitReceives(remote: number): number[] {
    return conduitReceives(this.#engine.snapshot(), remote);
  }

  engineCounters(): FabricCounters {
    return this.#engine.counters();
  }

  flows(): FlowState[] {
    return this.#engine.flows();
  }

  link(): LinkStatus {
    return this.#sw.status();
  }

  linkCounters(): LinkCounters | null {
    return this.#sw.link?.counters() ?? null;
  }

  snapshot(): EndpointProcessSnapshot {
    return { ...this.#engine.snapshot(), held: this.#gate.waiting(), unsent: this.#tx.unsent, clock: { ...this.#clock.counters(), watching: this.#clock.watching }, timers: this.#timers.pending().map((t) => ({ key: t.key, name: t.name, at: t.at })) };
  }

  close(): Promise<void> {
    if (this.#closed !== null) return this.#closed;
    // The control socket first: it aborts its transfers in progress while the link still carries their senders' answers (control-server.ts).
    const control = this.#control;
    this.#closed = control === null ? this.#end() : control.then((c) => c.close(), () => undefined).then(() => this.#end());
    return this.#closed;
  }

  #end(): Promise<void> {
    this.#closing = true;
    this.api.shutdown();
    const link = this.#sw.link;
    this.#reads.failAll('the end point is closed');
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        logSuppressed(this.#log, this.#logLimit, 0, true);
        this.#timers.close();
        this.#clock.stop();
        this.#sw.ended(true);
        const capture = this.#capture?.file.close();
        if (capture !== undefined) this.#log[capture.notRecorded > 0 ? 'warn' : 'info']({ capture }, 'capture-closed');
        resolve();
      };
      if (link === null || link.state === 'closed') {
        finish();
        return;
      }
      link.socket.once('close', finish);
      link.close('normal', 'end point closed');
    });
  }
}
