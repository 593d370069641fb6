/**
 * Part 10 traffic management of an end point whose data goes through its session stack (the
 * software fabric's `FabricEndpoint`, src/node/fabric-endpoint.ts), the session streams' port of tm-engines.ts: the end point runs
 * `TmIngress` for the data it sends and `TmEgress` for the data it receives (src/streaming/). The
 * engines decide; this file feeds them and carries out what they say.
 *
 * Ingress. Each open Type 9 (DATA3) transmit stream is one TM queue, (destinationID, cos,
 * streamID) in the flow of the conveyance's data (§3.2.2 "From the source's viewpoint:
 * destination ID+cos+streamID represents a unique stream"). The application's `send` on it is
 * held here (`pdu-ready`) and handed to the session stack (`pdu-sent`) while the queue's gate is
 * open and no earlier PDU of the stream is still in the session stack (its `sent` event not
 * seen): so a gate holds back the stream's next PDU and never cuts one already handed on (§3.4.5
 * rule 4 "An ingress shall not overrule a TM directive from the egress"). The held count, in
 * steps, is the `queue-level`.
 *
 * Egress. The first segment of each received data PDU is a `pdu` input; the driver's `tm-level`
 * inputs, per source + cos (§3.3 "Egress queuing should be based on: source ID+cos"), are its
 * `queue-level`s.
 *
 * TM packets go out through a `TmOutbox` (its header says in which order) and are pulled like the
 * session stack's packets; a received one goes to the engine its message is for (tm-engines.ts,
 * shared with the flow queues' port tm.ts), never to the session stack.
 */
import { zeroCounters } from '../../engine/contract.ts';
import type { Counters, Time } from '../../engine/contract.ts';
import type { SendCommand, StreamInfo, StreamRef } from '../../session/types.ts';
import type { TmModeSetting } from '../../streaming/tm-mode.ts';
import type { TmRateTimerName, TmStreamRef } from '../../streaming/tm-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Type9Packet, Type9TmPacket } from '../../wire/type9-types.ts';
import { untag } from '../endpoint-input.ts';
import { badLevelInput, engineBytes, refuses, streamKey } from './tm-check.ts';
import { stepLevel } from '../../streaming/tm-queue-steps.ts';
import { NS_TM_CLOCK, resolveFabricTm } from './tm-config.ts';
import { TmEngines } from './tm-engines.ts';
import type { TmQueueLevel } from './tm-engines.ts';
import type { FabricTmConfig, FabricTmFacts, ResolvedFabricTm } from './tm-config.ts';
import { EgressLevels } from './tm-egress-levels.ts';
import { TmOutbox } from './tm-outbox.ts';
import { TM_ENDPOINT_COUNTERS } from '../fabric-endpoint-types.ts';
import type { FabricEndpointOutput, FabricTmCounters, FabricTmSnapshot, TmCommandInput, TmEndpointCounter, TmLevelInput } from '../fabric-endpoint-types.ts';
import type { SessionEndpoint } from '../session-endpoint.ts';
import type { EndpointPacket, SessionEndpointOutput } from '../session-endpoint-types.ts';

/** What the traffic management asks of its end point. */
export interface TmHost {
  /** Hands a PDU of a transmit stream to the session stack as the application's `send`: the session stack's outputs, already passed on. */
  handOn(stream: StreamRef, pdu: Uint8Array): readonly SessionEndpointOutput[];
  /** A timer request or an event. */
  output(o: Extract<FabricEndpointOutput, { readonly kind: 'timer' | 'event' }>): void;
  /** An input of the driver that does not fit. */
  invalid(detail: string): void;
}

/** One transmit stream as its ingress queue (`stream`: its engine reference). */
interface TmStream extends TmQueueLevel {
  readonly key: string;
  readonly ref: StreamRef;
  readonly cos: number;
  readonly queue: string;
  readonly held: Uint8Array[];
  /** The hand-on number (TmOutbox) of the PDU in the session stack; 0 when none. */
  inFlight: number;
  /** Whether that PDU's first segment was pulled. */
  started: boolean;
}

/**
 * The traffic management of an end point whose session stack is `endpoint`; undefined without
 * `tm`. The facts come from the session stack's own resolved configuration: its tt, the flow of
 * its Type 9 data (the conveyance's `normalFlow`) and the management streams it advertises.
 */
export function fabricTm(config: FabricTmConfig | undefined, endpoint: SessionEndpoint, crfSupported: boolean, host: TmHost): FabricTm | undefined {
  if (config === undefined) return undefined;
  const snap = endpoint.snapshot();
  const facts: FabricTmFacts = { id: snap.nodeId, tt: snap.tt, crfSupported, dataFlow: snap.type9?.normalFlow ?? '0A' };
  return new FabricTm(resolveFabricTm(facts, config), facts, new Set(snap.managementStreams), host);
}

type SessionEvent = Extract<SessionEndpointOutput, { readonly kind: 'event' }>;

export class FabricTm {
  readonly #host: TmHost;
  readonly #facts: FabricTmFacts;
  readonly #tm: TmEngines;
  readonly #queuePdus: number;
  readonly #outbox: TmOutbox;
  readonly #levels: EgressLevels;
  /** Annex 2 §3.3 "<StreamID> identifies a stream dedicated for the reception of management messages": their PDUs are not data. */
  readonly #managementStreams: ReadonlySet<number>;
  readonly #streams = new Map<string, TmStream>();
  /**
   * Per stream key, PDUs the ingress still counts as ready although their stream closed with them
   * held (the engine has no input to withdraw one): the next stream on that VSID takes their place.
   */
  readonly #phantoms = new Map<string, number>();
  readonly #counters: Counters<TmEndpointCounter> = zeroCounters(TM_ENDPOINT_COUNTERS);
  #now: Time = 0;
  #pumping = false;
  #pumpAgain = false;

  constructor(r: ResolvedFabricTm, facts: FabricTmFacts, managementStreams: ReadonlySet<number>, host: TmHost) {
    this.#host = host;
    this.#facts = facts;
    this.#queuePdus = r.queuePdus;
    this.#tm = new TmEngines(r, NS_TM_CLOCK.tick, {
      send: (packet, fromIngress) => { this.#queue(packet, fromIngress); },
      gate: (o) => {
        this.#counters[o.open ? 'gateOpens' : 'gateCloses']++;
        // Rate gates close and open at every PDU: only XOFF/XON (and a mode change) are told.
        if (o.reason === 'on-off' || o.reason === 'mode') this.#event('ingress', 'gate', { queue: o.queue, open: o.open, reason: o.reason });
      },
      opened: () => { this.#pumpAll(); },
      timer: (name, at) => { this.#host.output({ kind: 'timer', name: `tm:${name}`, at }); },
      event: (side, o, malformed) => {
        if (malformed) this.#counters.tmMalformed++;
        const { name, ...detail } = untag(o);
        this.#event(side, name, detail);
      },
    });
    this.#outbox = new TmOutbox(r.outboxLimit, facts.crfSupported);
    this.#levels = new EgressLevels(() => this.#tm.levelPeriod);
    this.#managementStreams = managementStreams;
  }

  // ---- Inputs --------------------------------------------------------------------------------

  /** An application `send`: true when it is on a TM stream and taken (held, or refused with an event). */
  send(c: SendCommand, now: Time): boolean {
    const ref = c.stream as unknown;
    if (typeof ref !== 'object' || ref === null || !(c.pdu instanceof Uint8Array)) return false;
    const r = ref as Partial<StreamRef>;
    const s = r.direction === 'tx' ? this.#streams.get(streamKey(r.remote as number, r.streamID as number)) : undefined;
    if (s === undefined) return false;
    this.#now = now;
    if (s.held.length >= this.#queuePdus) {
      this.#counters.queueFull++;
      this.#event('endpoint', 'queue-full', { stream: s.ref, bytes: c.pdu.length, held: s.held.length });
      return true;
    }
    s.held.push(c.pdu);
    this.#counters.pdusHeld++;
    const phantoms = this.#phantoms.get(s.key) ?? 0;
    if (phantoms > 0) this.#phantoms.set(s.key, phantoms - 1);
    else this.#tm.toIngress({ kind: 'pdu-ready', stream: s.stream, bytes: engineBytes(c.pdu.length) }, this.#now);
    this.#reportLevel(s);
    this.#pumpAll();
    return true;
  }

  /** A received Type 9 packet: true when it was a TM packet (taken here); a data segment goes on to the session stack. */
  received(p: Type9Packet, now: Time): boolean {
    this.#now = now;
    if (p.segment === 'tm') {
      this.#tmPacket(p);
      return true;
    }
    if ((p.segment === 'start' || p.segment === 'single') && p.destinationID === this.#facts.id && !this.#managementStreams.has(p.streamID)) {
      this.#counters.egressPdus++;
      this.#levels.seen(p.sourceID, p.cos, p.streamID);
      this.#tm.toEgress({ kind: 'pdu', sourceID: p.sourceID, cos: p.cos, streamID: p.streamID, flow: { prio: p.prio, crf: p.crf, vc: p.vc } }, this.#now);
    }
    return false;
  }

  /** An application's TM message (TmCommandInput). */
  command(c: TmCommandInput, now: Time): void {
    this.#now = now;
    if (c.side === 'egress') {
      this.#tm.toEgress({ kind: 'command', to: c.to, command: c.command }, this.#now);
      return;
    }
    const r = c.stream as Partial<StreamRef> | null | undefined;
    const s = r?.direction === 'tx' ? this.#streams.get(streamKey(r.remote as number, r.streamID as number)) : undefined;
    if (s === undefined) this.#host.invalid('tm-command: the stream is not an open Type 9 transmit stream with a TM queue');
    else this.#tm.toIngress({ kind: 'command', stream: s.stream, command: c.command }, this.#now);
  }

  level(i: TmLevelInput, now: Time): void {
    this.#now = now;
    const bad = badLevelInput(i);
    if (bad !== undefined) {
      this.#counters.invalidLevels++;
      this.#host.invalid(`tm-level: ${bad}`);
      return;
    }
    this.#counters.levelInputs++;
    this.#feed(this.#levels.set(i, now));
  }

  /** A TM Mode written to the end point's 0x48 (tm-mode-register.ts): both engines take it; a gate it opens lets PDUs go. */
  setMode(mode: TmModeSetting, now: Time): void {
    this.#now = now;
    this.#tm.toIngress({ kind: 'set-mode', mode }, now);
    this.#tm.toEgress({ kind: 'set-mode', mode }, now);
  }

  /** A `tm:` timer, named without the prefix. */
  timer(name: string, now: Time): void {
    this.#now = now;
    if (name === EgressLevels.TIMER) this.#feed(this.#levels.sample(now));
    else this.#tm.toIngress({ kind: 'timer', name: name as TmRateTimerName }, this.#now);
  }

  /** Every output of the session stack: streams opened and closed, PDUs whose last segment left. */
  observe(o: SessionEndpointOutput): void {
    if (o.kind !== 'event') return;
    const d = o.detail as unknown as Readonly<Record<string, unknown>>;
    if (o.source === 'session' && d['event'] === 'opened') this.#opened(d['stream'] as StreamInfo);
    else if (o.source === 'session' && d['event'] === 'closed') this.#closed(d['stream'] as StreamRef);
    else if (o.source === 'type9' && d['name'] === 'sent' && d['unit'] === 'pdu') this.#sent(o);
  }

  /** A packet the end point pulled from the session stack: a PDU's first segment lets the TM packets that follow it go. */
  pulled(p: EndpointPacket): void {
    if (p.ftype !== 9 || (p.segment !== 'start' && p.segment !== 'single')) return;
    const s = this.#streams.get(streamKey(p.destinationID, p.streamID));
    if (s === undefined || s.inFlight === 0 || s.started) return;
    s.started = true;
    this.#outbox.started(s.ref.remote, s.inFlight);
  }

  /** The next TM packet whose flow may send, taken out. */
  next(maySend: (destinationID: number, flowID: FlowIdLabel) => boolean): Type9TmPacket | undefined {
    const p = this.#outbox.next(maySend);
    if (p !== undefined) this.#counters.tmSent++;
    return p;
  }

  counters(): FabricTmCounters {
    return { endpoint: { ...this.#counters }, ingress: this.#tm.ingress.counters(), egress: this.#tm.egress.counters() };
  }

  snapshot(): FabricTmSnapshot {
    return {
      mode: this.#tm.ingress.mode(),
      queuePdus: this.#queuePdus,
      queueLevelBits: this.#tm.queueLevelBits,
      levelPeriod: this.#tm.levelPeriod,
      streams: [...this.#streams.values()].map((s) => ({
        stream: s.ref, cos: s.cos, queue: s.queue, held: s.held.length, inFlight: s.inFlight !== 0, started: s.started,
        gate: this.#tm.mayTransmit(s.queue, this.#now) ? 'open' : 'closed', level: stepLevel(s.step, this.#tm.queueLevelBits),
      })),
      phantoms: [...this.#phantoms].map(([stream, pdus]) => ({ stream, pdus })),
      levels: this.#levels.snapshot(),
      outbox: this.#outbox.snapshot(),
      ingress: this.#tm.ingress.snapshot(),
      egress: this.#tm.egress.snapshot(),
      counters: { ...this.#counters },
    };
  }

  // ---- Streams -------------------------------------------------------------------------------

  /** §4.3.4 DATA3: a transmit stream whose PDUs go to the Part 10 segmenter is a TM stream. */
  #opened(info: StreamInfo): void {
    if (info.direction !== 'tx' || info.settings.dataHeaderFormat !== 'DATA3') return;
    const key = streamKey(info.remote, info.streamID);
    this.#closed({ remote: info.remote, direction: 'tx', streamID: info.streamID });
    const target: TmStreamRef = { target: { destinationID: info.remote, cos: info.cos, streamID: info.streamID, flowID: this.#facts.dataFlow } };
    const queue = this.#tm.ingress.queueOf(target) as string;
    const ref: StreamRef = { remote: info.remote, direction: 'tx', streamID: info.streamID };
    this.#streams.set(key, { key, ref, cos: info.cos, stream: target, queue, held: [], inFlight: 0, started: false, step: 0 });
    // The queue exists from now on, so that a directive of the egress before the first PDU finds it
    // (an egress may XOFF a class before any of its data came); its level, 0, is its first Q_STATUS.
    this.#tm.toIngress({ kind: 'queue-level', stream: target, level: 0 }, this.#now);
  }

  #closed(ref: StreamRef): void {
    if (ref.direction !== 'tx') return;
    const key = streamKey(ref.remote, ref.streamID);
    const s = this.#streams.get(key);
    if (s === undefined) return;
    this.#streams.delete(key);
    if (s.inFlight !== 0 && !s.started) this.#outbox.started(s.ref.remote, s.inFlight);
    if (s.held.length === 0) return;
    this.#counters.pdusDiscarded += s.held.length;
    this.#phantoms.set(key, (this.#phantoms.get(key) ?? 0) + s.held.length);
    this.#event('endpoint', 'discarded', { stream: s.ref, pdus: s.held.length });
  }

  #sent(o: SessionEvent): void {
    const d = o.detail as unknown as Readonly<Record<string, unknown>>;
    const s = this.#streams.get(streamKey(d['to'] as number, d['streamID'] as number));
    if (s === undefined || s.inFlight === 0) return;
    this.#now = o.at;
    s.inFlight = 0;
    this.#pumpAll();
  }

  /** Hands on every PDU a gate lets go; re-entered (a gate opening while it runs) it goes round again. */
  #pumpAll(): void {
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#pumpAgain = false;
        for (const s of [...this.#streams.values()]) this.#pump(s);
      } while (this.#again());
    } finally {
      this.#pumping = false;
    }
  }

  /** Whether a gate opened during the last round (the field is set by the engines' outputs, which the compiler does not see). */
  #again(): boolean {
    return this.#pumpAgain;
  }

  #pump(s: TmStream): void {
    while (s.inFlight === 0 && this.#streams.get(s.key) === s && this.#tm.mayTransmit(s.queue, this.#now)) {
      const pdu = s.held.shift();
      if (pdu === undefined) return;
      const seq = this.#outbox.handOn(s.ref.remote);
      s.inFlight = seq;
      s.started = false;
      this.#counters.pdusHandedOn++;
      const taken = !this.#host.handOn(s.ref, pdu).some((o) => refuses(o, s.ref));
      // After the hand-on, so that what the ingress answers follows this PDU (TmOutbox).
      this.#tm.toIngress({ kind: 'pdu-sent', stream: s.stream, bytes: engineBytes(pdu.length) }, this.#now);
      if (!taken) {
        this.#counters.handOnRefused++;
        this.#outbox.started(s.ref.remote, seq);
        if (s.inFlight === seq) s.inFlight = 0;
        this.#event('endpoint', 'hand-on-refused', { stream: s.ref, bytes: pdu.length });
      }
      this.#reportLevel(s);
    }
  }

  #reportLevel(s: TmStream): void {
    this.#tm.reportLevel(s, s.held.length, this.#queuePdus, this.#now);
  }

  // ---- Received TM packets -------------------------------------------------------------------

  #tmPacket(p: Type9TmPacket): void {
    this.#counters.tmReceived++;
    const refused = this.#tm.receive(p, this.#facts.id, this.#now);
    if (refused?.why === 'malformed') {
      this.#counters.tmMalformed++;
      this.#event('endpoint', 'malformed', { reason: refused.reason });
    } else if (refused?.why === 'not-for-us') {
      this.#counters.tmNotForUs++;
      this.#event('endpoint', 'not-for-us', { destinationID: p.destinationID, sourceID: p.sourceID });
    }
  }

  // ---- The engines ---------------------------------------------------------------------------

  /** The egress's queue levels to give now (EgressLevels), and its sample timer. */
  #feed(r: ReturnType<EgressLevels['set']>): void {
    if (r.timer !== undefined) this.#host.output({ kind: 'timer', name: `tm:${EgressLevels.TIMER}`, at: r.timer });
    for (const l of r.levels) this.#tm.toEgress({ kind: 'queue-level', ...l }, this.#now);
  }

  #queue(packet: Type9TmPacket, followsData: boolean): void {
    if (this.#outbox.add(packet, followsData)) return;
    this.#counters.tmDropped++;
    this.#event('endpoint', 'outbox-full', { destinationID: packet.destinationID, tmOp: packet.tmOp, parameter1: packet.parameter1, parameter2: packet.parameter2 });
  }

  #event(side: 'ingress' | 'egress' | 'endpoint', name: string, detail: Readonly<Record<string, unknown>>): void {
    this.#host.output({ kind: 'event', source: 'fabric', at: this.#now, detail: { event: 'tm', side, name, detail } });
  }
}
