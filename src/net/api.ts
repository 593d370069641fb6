/**
 * `RiodpEndpoint` (api-types.ts), the public TypeScript API of an end point process (issue 8 §2),
 * over the process driver (endpoint-process.ts), which owns the sans-IO end point, the link and
 * the timers. Every engine output of the process comes here (`output`); the application's calls
 * become engine inputs.
 *
 * Decisions:
 * - `openStream`/`openConduit` to a node whose contact is not known discover it first (§3.3: the
 *   contact comes from discovery), and fail when it does not participate.
 * - A conduit that is not complete `CONDUIT_TIMEOUT_NS` after the OPEN (the peer's own OPEN never
 *   came, §3.4.1) is closed and the open rejected.
 * - `discover()` after the first run discovers the configured targets again (the engine's scan
 *   runs once).
 */
import type { Time } from '../engine/contract.ts';
import type { DiscoveryEvent } from '../session/discovery-types.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { AsyncQueue } from './api-queue.ts';
import { StreamError, StreamHandle } from './api-stream.ts';
import type { RxSide, StreamCore, TxSide } from './api-stream.ts';
import { StreamRegistry } from './api-streams.ts';
import { API_COUNTERS } from './api-types.ts';
import type { ApiCounter, EndpointStatus, EngineEvent, FlowChange, LinkStatus, OpenOptions, Peer, RiodpEndpoint, Stream, StreamLoss, TmCommand } from './api-types.ts';
import type { ApiSettings } from './endpoint-config.ts';
import { ENGINE_NAME } from './endpoint-engine.ts';
import type { FabricCounters, FabricEndpointInput, FabricEndpointOutput, FlowState } from './endpoint-engine.ts';
import type { LinkCounters } from './link.ts';
import { PeerLiveness } from './api-liveness.ts';
import { PeerPortCheck } from './api-port-check.ts';
import { refusal, tmRefusal } from './api-refusal.ts';
import { engineLoss } from './api-loss.ts';
import { PeerBook } from './api-peers.ts';

/** What the API asks of the process driver. */
export interface ApiHost {
  readonly nodeId: number;
  readonly tt: 0 | 1;
  readonly targets: readonly { readonly node: number; readonly hop?: number }[];
  now(): Time;
  /** Runs an input through the engine now and returns its outputs (already dispatched); null when queued behind the one running. */
  command(input: FabricEndpointInput): readonly FabricEndpointOutput[] | null;
  setTimer(name: string, at: Time | null): void;
  /** Stop (true) or go on (false) taking packets from the link (a receive stream at `api.rxLimit`, api-streams.ts). */
  holdReceive(on: boolean): void;
  /** StreamIDs of the conduit receive streams the engine holds for `remote` (its conduit table). */
  conduitReceives(remote: number): number[];
  engineCounters(): FabricCounters;
  flows(): FlowState[];
  link(): LinkStatus;
  linkCounters(): LinkCounters | null;
  readRegister(to: number, hop: number, offset: number): Promise<number>;
  writeRegister(to: number, hop: number, offset: number, value: number): Promise<void>;
  close(): Promise<void>;
}

/** §3.4.1: time the peer has to send the OPEN that completes a conduit: 5 s in ns. */
export const CONDUIT_TIMEOUT_NS = 5_000_000_000;
const CONDUIT_TIMER = 'conduit:';
/** Type 11 messages queued in the conveyance beyond which a non-DATA3 stream's `send` waits. */
const TYPE11_BACKLOG = 16;
const FLOW_CHANGES_HELD = 1024;

export class EndpointApi implements RiodpEndpoint, StreamCore {
  readonly #host: ApiHost;
  readonly #settings: ApiSettings;
  readonly #streams: StreamRegistry;
  readonly #counters = Object.fromEntries(API_COUNTERS.map((n) => [n, 0])) as Record<ApiCounter, number>;
  readonly #peers = new PeerBook();
  #started = false;
  #openSeq = 0;
  readonly #flowListeners = new Set<(c: FlowChange) => void>();
  /** Ends each `flowChanges()` subscription at shutdown. */
  readonly #stops = new Set<() => void>();
  readonly #eventListeners = new Set<(e: EngineEvent) => void>();
  readonly #lossListeners = new Set<(l: StreamLoss) => void>();
  #closed = false;
  readonly #liveness: PeerLiveness;
  readonly #portCheck: PeerPortCheck;
  readonly #tm: boolean;

  /** `tm`: the end point runs Part 10 traffic management, whose egress gets the receive queues' levels. */
  constructor(host: ApiHost, settings: ApiSettings, tm = false) {
    this.#host = host;
    this.#settings = settings;
    this.#tm = tm;
    // What the stream registry and the liveness check both ask of the process.
    const engine = {
      post: (input: FabricEndpointInput): void => {
        host.command(input);
      },
      setTimer: (name: string, at: Time | null): void => {
        host.setTimer(name, at);
      },
      now: (): Time => host.now(),
    };
    this.#streams = new StreamRegistry(
      {
        ...engine,
        flowChange: (c) => {
          this.#flowChange(c);
        },
        count: (n) => {
          this.#counters[n]++;
        },
        inConduit: (ref) => host.conduitReceives(ref.remote).includes(ref.streamID),
        holdReceive: (on) => {
          host.holdReceive(on);
        },
        lost: (l) => {
          this.#counters.lossReports++;
          this.#counters.pdusLost += l.pdus ?? 0;
          for (const f of [...this.#lossListeners]) f(l);
        },
      },
      this,
      settings,
      tm,
    );
    const remotes = (): ReadonlySet<number> => new Set(this.#streams.handles().map((h) => h.remote));
    this.#liveness = new PeerLiveness({ ...engine, remotes }, settings.verifyIdleMs);
    // Hop 0 requests of the switch, named to this end point (api-port-check.ts).
    this.#portCheck = new PeerPortCheck({
      ...engine,
      remotes,
      tt: host.tt,
      read: (offset) => host.readRegister(host.nodeId, 0, offset),
      write: (offset, value) => host.writeRegister(host.nodeId, 0, offset, value),
    }, settings.peerCheckMs);
  }

  tmCommand(c: TmCommand): void {
    if (!this.#tm) throw new StreamError('this end point has no traffic management (tm in its configuration)');
    const input: FabricEndpointInput =
      c.side === 'ingress'
        ? { kind: 'tm-command', side: 'ingress', stream: { remote: c.to, direction: 'tx', streamID: c.streamID }, command: c.command }
        : { kind: 'tm-command', side: 'egress', to: c.to, command: c.command };
    const why = tmRefusal(this.#host.command(input) ?? []);
    if (why !== undefined) throw new StreamError(why);
  }

  /** A packet came from `node` (the liveness checks, api-liveness.ts and api-port-check.ts). */
  heard(node: number): void {
    this.#liveness.heard(node);
    this.#portCheck.heard(node);
  }

  get nodeId(): number {
    return this.#host.nodeId;
  }

  get sendWindow(): number {
    return this.#settings.sendWindow;
  }

  count(name: ApiCounter, n = 1): void {
    this.#counters[name] += n;
  }

  // ---- Engine outputs ------------------------------------------------------------------------

  output(o: FabricEndpointOutput): void {
    switch (o.kind) {
      case 'deliver':
        this.#streams.deliver(o.stream, o.pdu);
        break;
      case 'flow-state':
        this.#flowChange({ kind: 'part9', at: o.at, destinationID: o.destinationID, flowID: o.flowID, state: o.state, cause: o.cause });
        break;
      case 'event':
        this.#event(o.source, o.at, o.detail);
        break;
      default:
        break;
    }
  }

  #event(source: string, at: Time, detail: Readonly<Record<string, unknown>>): void {
    if (source === 'session') {
      this.#streams.session(detail as never, at);
      if (detail['event'] === 'suspect') this.#peers.suspect(detail['node'] as number);
    }
    else if (source === 'discovery') this.#peers.discovery(detail as unknown as DiscoveryEvent);
    else if (source === 'type9' && detail['name'] === 'sent' && detail['unit'] === 'pdu') this.#streams.segmented(detail['to'] as number, detail['streamID'] as number);
    else if (source === 'type11' && (detail['name'] === 'sent' || detail['name'] === 'failed')) this.#streams.wakeType11();
    const loss = engineLoss(source, detail);
    if (loss !== null) this.#streams.report(loss, at);
    for (const l of this.#eventListeners) l({ source, at, detail });
  }

  /** An API timer fell due. */
  timer(name: string): void {
    if (this.#streams.timer(name) || this.#liveness.timer(name) || this.#portCheck.timer(name)) return;
    if (!name.startsWith(CONDUIT_TIMER)) return;
    const ref = name.slice(CONDUIT_TIMER.length);
    const p = this.#streams.pending.get(ref);
    if (p === undefined) return;
    this.#streams.pending.delete(ref);
    const e = new StreamError(`conduit to node ${p.handle.remote} not complete within ${CONDUIT_TIMEOUT_NS / 1e9} s (the peer's OPEN, Annex 2 §3.4.1)`);
    const tx = p.handle.tx;
    if (tx !== null) this.#host.command({ kind: 'close', stream: tx });
    p.handle.abandon(e);
    p.reject(e);
  }

  #flowChange(c: FlowChange): void {
    for (const l of this.#flowListeners) l(c);
  }

  // ---- StreamCore ----------------------------------------------------------------------------

  sendPdu(s: StreamHandle, tx: TxSide, pdu: Uint8Array): string | undefined {
    if (this.#closed) return 'the end point is closed';
    const out = this.#host.command({ kind: 'send', stream: tx.ref, pdu });
    const why = out === null ? undefined : refusal(out, tx.ref.remote, tx.ref.streamID);
    if (why !== undefined) {
      this.#counters.sendRefused++;
      return why;
    }
    this.#counters.pdusSent++;
    if (tx.settings.dataHeaderFormat === 'DATA3') tx.outstanding++;
    s.wake();
    return undefined;
  }

  consumed(_s: StreamHandle, rx: RxSide): void {
    this.#streams.consumed(rx);
  }

  release(pdu: Uint8Array): void {
    if (!this.#closed) this.#host.command({ kind: 'recycle', pdu });
  }

  closeStream(s: StreamHandle): void {
    for (const ref of [s.tx, s.rx]) {
      const side = ref === null ? null : ref.direction === 'tx' ? s.txSide : s.rxSide;
      if (ref !== null && side !== null && !side.closed) this.#host.command({ kind: 'close', stream: ref });
    }
    s.wake();
  }

  type11Room(): boolean {
    const t = this.#host.engineCounters().engines.type11;
    return t === null || t.messagesQueued - t.messagesSent - t.messagesFailed < TYPE11_BACKLOG;
  }

  // ---- RiodpEndpoint -------------------------------------------------------------------------

  #checkNode(node: unknown, field: string): number {
    const max = this.#host.tt === 0 ? 0xff : 0xffff;
    if (typeof node !== 'number' || !Number.isInteger(node) || node < 0 || node > max) throw new RangeError(`${field} must be a device ID from 0 to ${max}`);
    return node;
  }

  #live(): void {
    if (this.#closed) throw new StreamError('the end point is closed');
  }

  async discover(node?: number, hop?: number): Promise<Peer[]> {
    this.#live();
    if (node !== undefined) {
      const n = this.#checkNode(node, 'node');
      if (hop !== undefined && (!Number.isInteger(hop) || hop < 0 || hop > 0xff)) throw new RangeError('hop must be an integer from 0 to 255');
      const p = this.#peers.waitNode(n);
      this.#host.command(hop === undefined ? { kind: 'discover', node: n } : { kind: 'discover', node: n, hop });
      return p;
    }
    if (this.#started && this.#host.targets.length === 0) return this.#peers.list();
    const p = this.#peers.waitDone();
    if (!this.#started) {
      this.#started = true;
      this.#host.command({ kind: 'discover' });
    } else {
      for (const t of this.#host.targets) this.#host.command(t.hop === undefined ? { kind: 'discover', node: t.node } : { kind: 'discover', node: t.node, hop: t.hop });
    }
    return p;
  }

  openStream(o: OpenOptions): Promise<Stream> {
    return this.#open(o, false);
  }

  openConduit(o: OpenOptions): Promise<Stream> {
    return this.#open(o, true);
  }

  async #open(o: OpenOptions, conduit: boolean): Promise<Stream> {
    this.#live();
    const to = this.#checkNode(o.to, 'to');
    if (!Number.isInteger(o.protoID) || o.protoID < 0 || o.protoID > 0xfffe) throw new RangeError('protoID must be an integer from 0 to 0xFFFE');
    if (!this.#peers.has(to)) {
      const found = await this.discover(to, o.hop);
      if (found.length === 0) throw new StreamError(`node ${to} is not a session management participant this end point can reach (Annex 2 §3.3)`);
    }
    this.#live();
    const ref = `api-${++this.#openSeq}`;
    const attributes: readonly AttributeLike[] = o.attributes ?? [];
    const handle = new StreamHandle(this, to, o.protoID, attributes, false);
    const opened = new Promise<StreamHandle>((resolve, reject) => {
      this.#streams.pending.set(ref, { handle, conduit, resolve, reject });
    });
    const out = this.#host.command({ kind: 'open', to, protoID: o.protoID, ref, ...(o.attributes === undefined ? {} : { attributes: o.attributes }), ...(conduit ? { conduit: true } : {}) });
    const why = out === null ? undefined : refusal(out, to, undefined);
    if (why !== undefined && this.#streams.pending.has(ref)) {
      this.#streams.pending.delete(ref);
      throw new StreamError(`OPEN to node ${to} not sent: ${why}`);
    }
    if (conduit) this.#host.setTimer(CONDUIT_TIMER + ref, this.#host.now() + CONDUIT_TIMEOUT_NS);
    try {
      return await opened;
    } finally {
      if (conduit) this.#host.setTimer(CONDUIT_TIMER + ref, null);
    }
  }

  incoming(): AsyncIterable<Stream> {
    return this.#streams.incoming;
  }

  flowState(): FlowState[] {
    return this.#host.flows();
  }

  flowChanges(): AsyncIterable<FlowChange> {
    const q = new AsyncQueue<FlowChange>(FLOW_CHANGES_HELD);
    const listener = (c: FlowChange): void => {
      q.push(c);
    };
    this.#flowListeners.add(listener);
    if (this.#closed) q.end();
    const stop = (): void => {
      this.#flowListeners.delete(listener);
      q.end();
    };
    this.#stops.add(stop);
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => q.next(),
        return: () => {
          stop();
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
  }

  onFlowChange(listener: (c: FlowChange) => void): () => void {
    this.#flowListeners.add(listener);
    return () => this.#flowListeners.delete(listener);
  }

  onLoss(listener: (l: StreamLoss) => void): () => void {
    this.#lossListeners.add(listener);
    return () => this.#lossListeners.delete(listener);
  }

  /** The end point's link to the switch went down (endpoint-process.ts): a possible gap on every open stream. */
  linkDown(detail: string): void {
    this.#streams.linkDown(detail, this.#host.now());
  }

  onEvent(listener: (e: EngineEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  status(): EndpointStatus {
    return {
      nodeId: this.#host.nodeId,
      engine: ENGINE_NAME,
      link: this.#host.link(),
      peers: this.#peers.list(),
      streams: this.#streams.handles().map((h) => h.status()),
      flows: this.#host.flows(),
      counters: { engine: this.#host.engineCounters(), link: this.#host.linkCounters(), api: { ...this.#counters } },
    };
  }

  async readRegister(to: number, hop: number, offset: number): Promise<number> {
    this.#live();
    this.#checkNode(to, 'to');
    if (!Number.isInteger(hop) || hop < 0 || hop > 0xff) throw new RangeError('hop must be an integer from 0 to 255');
    if (!Number.isInteger(offset) || offset < 0 || offset > 0xfffffc || offset % 4 !== 0) throw new RangeError('offset must be a word-aligned byte offset from 0 to 0xFFFFFC');
    return await this.#host.readRegister(to, hop, offset);
  }

  close(): Promise<void> {
    return this.#host.close();
  }

  /** The process stopped: pending operations reject and iterations end. */
  shutdown(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#liveness.stop();
    this.#portCheck.stop();
    const e = new StreamError('the end point is closed');
    this.#streams.abandonAll(e);
    for (const stop of this.#stops) stop();
    this.#stops.clear();
    this.#peers.release();
  }
}
