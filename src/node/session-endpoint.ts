import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { SessionDiscovery } from '../session/discovery.ts';
import { SessionEngine } from '../session/engine.ts';
import { readParticipation } from '../session/local-advertisement.ts';
import type { Participation } from '../session/local-advertisement.ts';
import { Type11Conveyance } from '../session/type11-conveyance.ts';
import type { Type11TimerName } from '../session/type11-conveyance-types.ts';
import { Type9Conveyance } from '../session/type9-conveyance.ts';
import type { FastPull, Type9Backlog, Type9ConveyanceOutput } from '../session/type9-conveyance-types.ts';
import type { FrameColumns } from '../wire/frame-batch-types.ts';
import type { IdleTimerName } from '../streaming/reassembler-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Packet } from '../wire/packet.ts';
import { FTYPE_MAINTENANCE } from '../wire/type8.ts';
import { describeInput, pullUpTo } from '../engine/input-checks.ts';
import { isPacket, SESSION_COMMANDS, sourceOf, splitTimerName } from './endpoint-input.ts';
import { buildRegisters, resolveEndpointConfig, within } from './session-endpoint-config.ts';
import type { ResolvedEndpointConfig } from './session-endpoint-config.ts';
import { EndpointMaintenance, mtuWritten } from './session-endpoint-maintenance.ts';
import { ENDPOINT_COUNTERS } from './session-endpoint-types.ts';
import type {
  EndpointCounter, EndpointEvent, EngineCounters, SessionEndpointConfig,
  SessionEndpointInput, SessionEndpointOutput, SessionEndpointSnapshot,
} from './session-endpoint-types.ts';
import { EngineWiring } from './session-endpoint-wiring.ts';
import { TransmitQueue } from './transmit-queue.ts';

export type * from './session-endpoint-types.ts';

/**
 * One RapidIO end point's Annex 2 session management stack (session-endpoint-types.ts): its
 * register space, MAINTENANCE both ways, discovery, the session engine and the Type 11 and Type 9
 * conveyances, wired to each other:
 *
 * - discovery's `read` outputs leave as Type 8 read requests; the responses are its `read-result`s;
 *   each `participant` it reports becomes the session engine's contact of that node (§3.3 "the end
 *   point is then expected to contact remote end points as appropriate"; session-endpoint-maintenance.ts);
 * - the session engine's messages go over the conveyance of their contact, DATA3 PDUs over Type 9;
 * - received messages, and Type 9 PDUs on a management stream this end point advertises, are the
 *   session engine's messages; other Type 9 PDUs are its data PDUs (§4.3.4).
 *
 * Outputs of one input come in the order they are caused. Packets leave only when pulled, in the
 * order of transmit-queue.ts (responses, then high-priority management, then discovery's reads,
 * then the rest).
 *
 * @example
 * ```ts
 * import { SessionEndpoint } from 'riodp/node';
 *
 * const ep = new SessionEndpoint({
 *   nodeId: 1,
 *   conveyances: ['type11'],
 *   advertisement: { blocks: [{ contact: { conveyance: 'type11', mailbox: 1 } }] },
 *   session: { protocols: [{ protoID: 0x1234, attributes: [] }] },
 *   discovery: { targets: [{ node: 2 }] },
 * });
 * ep.handle({ kind: 'discover' }, 0);
 * ep.handle({ kind: 'pull' }, 1); // → a Type 8 MAINTENANCE read of node 2's registers
 * ```
 */
export class SessionEndpoint implements ObservableEngine<SessionEndpointInput, SessionEndpointOutput, SessionEndpointSnapshot, EndpointCounter> {
  readonly #config: ResolvedEndpointConfig;
  readonly #space: RegisterSpace;
  readonly #session: SessionEngine;
  /** MAINTENANCE both ways and discovery (session-endpoint-maintenance.ts). */
  readonly #maint: EndpointMaintenance;
  readonly #type11: Type11Conveyance | undefined;
  readonly #type9: Type9Conveyance | undefined;
  readonly #tx: TransmitQueue;
  readonly #counters: Counters<EndpointCounter> = zeroCounters(ENDPOINT_COUNTERS);
  /** §3.3 "<StreamID> identifies a stream dedicated for the reception of management messages": each one this end point advertises. */
  readonly #managementStreams: ReadonlySet<number>;
  /** The session engine and the conveyances joined (session-endpoint-wiring.ts). */
  readonly #wires: EngineWiring;
  #now: Time = 0;
  #out: SessionEndpointOutput[] = [];
  /** The Type 9 conveyance's outputs of one `frame`, reused. */
  readonly #frameOut: Type9ConveyanceOutput[] = [];

  constructor(config: SessionEndpointConfig) {
    const r = resolveEndpointConfig(config);
    this.#config = r;
    this.#session = within('session', () => new SessionEngine(r.session));
    const discovery = within('discovery', () => new SessionDiscovery(r.discovery));
    const t11 = r.type11;
    const t9 = r.type9;
    this.#type11 = t11 === undefined ? undefined : within('type11', () => new Type11Conveyance(t11));
    this.#type9 = t9 === undefined ? undefined : within('type9', () => new Type9Conveyance(t9));
    this.#space = buildRegisters(config, r);
    const crfSupported = t9?.crfSupported ?? true;
    const highFlow = this.#type9?.snapshot().highFlow ?? (crfSupported ? '0C' : '0B');
    this.#tx = new TransmitQueue({ highFlow, crfSupported });
    this.#managementStreams = new Set(r.advertised.flatMap((c) => (c.conveyance === 'type9' ? [c.streamID] : [])));
    this.#wires = new EngineWiring(
      { session: this.#session, type11: this.#type11, type9: this.#type9, tx: this.#tx, managementStreams: this.#managementStreams },
      {
        now: () => this.#now,
        output: (o) => { this.#out.push(o); },
        noConveyance: (conveyance, to, unit) => { this.#noConveyance(conveyance, to, unit); },
      },
    );
    this.#maint = new EndpointMaintenance(discovery, { nodeId: r.nodeId, tt: r.tt, readTimeout: r.readTimeout }, this.#space, this.#tx, this.#counters, {
      output: (o) => { this.#out.push(o); },
      contact: (input) => { this.#wires.toSession(input); },
      event: (detail) => { this.#event(detail); },
      unsupported: (p, reason) => { this.#unsupported(p, reason); },
      written: (offset, bytes) => {
        const mtu = mtuWritten(this.#space, offset, bytes);
        if (mtu !== null && this.#type9 !== undefined && mtu !== this.#type9.mtu) this.#wires.from9(this.#type9.handle({ kind: 'set-mtu', mtu }, this.#now));
      },
    });
  }

  handle(input: SessionEndpointInput, now: Time): SessionEndpointOutput[] {
    this.#now = now;
    const out: SessionEndpointOutput[] = [];
    this.#out = out;
    switch (input.kind) {
      case 'packet':
        this.#packet(input.packet);
        break;
      case 'pull':
        this.#pull(input.max);
        break;
      case 'gate':
        // Part 9 §2.4.5 rule 1 at the source; GateInput says why Type 11 is not gated.
        if (this.#type9 !== undefined) this.#wires.from9(this.#type9.handle(input, now));
        break;
      case 'recycle':
        if (this.#type9 !== undefined) this.#wires.from9(this.#type9.handle(input, now));
        break;
      case 'discover':
        this.#maint.discover(input, now);
        break;
      case 'timer':
        this.#timer(input.name);
        break;
      default:
        // Inputs also arrive as JSON (`riodp model`): only the session engine's commands pass.
        if (SESSION_COMMANDS.has(input.kind)) this.#wires.toSession(input);
        else this.#invalid(`unknown input kind ${describeInput((input as { kind?: unknown }).kind)}`);
    }
    return out;
  }

  /** Whether received Type 9 frames may come by `frame` (there is a Type 9 conveyance). */
  get takesFrames(): boolean {
    return this.#type9 !== undefined;
  }

  /**
   * The fast lane (issue 17, docs/fast-lane.md §8): frame `i` of a frame batch parsed from `chunk`,
   * a good Type 9 packet frame, handled as a `packet` input of its decoded packet is; outputs
   * appended to `out`. Only while `takesFrames`.
   */
  frame(frames: FrameColumns, i: number, chunk: Uint8Array, now: Time, out: SessionEndpointOutput[]): void {
    const t9 = this.#type9;
    if (t9 === undefined) throw new RangeError('frame: this end point has no Type 9 conveyance');
    this.#now = now;
    this.#out = out;
    this.#counters.packetsIn++;
    const o = this.#frameOut;
    t9.frame(frames, i, chunk, now, o);
    if (o.length === 0) return;
    // from9 may reach the conveyance again (a PDU's answer): it reads a copy.
    this.#wires.from9(o.splice(0));
  }

  counters(): Counters<EndpointCounter> {
    return { ...this.#counters };
  }

  /** The inner engines' counters, copies. */
  engineCounters(): EngineCounters {
    return {
      session: this.#session.counters(),
      discovery: this.#maint.discovery.counters(),
      type11: this.#type11?.counters() ?? null,
      type9: this.#type9?.counters() ?? null,
    };
  }

  /** What this end point's registers advertise (§3.2), as its own processor reads them. */
  participation(): Participation {
    return readParticipation(this.#space);
  }

  /** The end point's configuration space, as MAINTENANCE requests from the network see it. */
  get registers(): RegisterSpace {
    return this.#space;
  }

  /** What the Type 9 conveyance's segmenter holds for one flow (`Type9Conveyance.backlog`); undefined without a Type 9 conveyance. */
  type9Backlog(destinationID: number, flowID: FlowIdLabel): Type9Backlog | undefined {
    return this.#type9?.backlog(destinationID, flowID);
  }

  /** The flows the Type 9 conveyance's segmenter holds PDUs of. */
  type9BusyFlows(): readonly { readonly destinationID: number; readonly flowID: FlowIdLabel }[] {
    return this.#type9?.busyFlows() ?? [];
  }

  snapshot(): SessionEndpointSnapshot {
    const c = this.#config;
    return {
      nodeId: c.nodeId,
      tt: c.tt,
      conveyances: [...c.conveyances],
      advertised: [...c.advertised],
      managementStreams: [...this.#managementStreams].sort((a, b) => a - b),
      participation: this.participation(),
      transmit: this.#tx.snapshot(),
      reads: this.#maint.reads.snapshot(),
      session: this.#session.snapshot(),
      discovery: this.#maint.discovery.snapshot(),
      type11: this.#type11?.snapshot() ?? null,
      type9: this.#type9?.snapshot() ?? null,
      counters: this.counters(),
    };
  }

  // ---- Inputs --------------------------------------------------------------------------------

  #packet(p: Packet): void {
    if (!isPacket(p)) {
      this.#invalid('packet: not a decoded packet');
      return;
    }
    this.#counters.packetsIn++;
    const now = this.#now;
    if (p.ftype === FTYPE_MAINTENANCE) {
      this.#maint.packet(p, now);
      return;
    }
    if (p.ftype === 9) {
      if (this.#type9 === undefined) this.#unsupported(p, 'this end point has no Type 9 conveyance');
      else this.#wires.from9(this.#type9.handle({ kind: 'packet', packet: p }, now));
      return;
    }
    if (p.ftype === 11 || (p.ftype === 13 && p.transactionName === 'MESSAGE_RESPONSE')) {
      if (this.#type11 === undefined) this.#unsupported(p, 'this end point has no Type 11 conveyance');
      else this.#wires.from11(this.#type11.handle({ kind: 'packet', packet: p }, now));
      return;
    }
    this.#unsupported(p, p.ftype === 13 ? 'a RESPONSE to a request this end point never sends' : `ftype ${p.ftype} carries no session management`);
  }

  #timer(name: unknown): void {
    const t = splitTimerName(name);
    const now = this.#now;
    if (t?.engine === 'session') {
      this.#wires.toSession({ kind: 'timer', name: t.inner });
    } else if (t?.engine === 'discovery') {
      this.#maint.timer(t.inner, now);
    } else if (t?.engine === 'type11' && this.#type11 !== undefined) {
      this.#wires.from11(this.#type11.handle({ kind: 'timer', name: t.inner as Type11TimerName }, now));
    } else if (t?.engine === 'type9' && this.#type9 !== undefined) {
      this.#wires.from9(this.#type9.handle({ kind: 'timer', name: t.inner as IdleTimerName }, now));
    } else {
      this.#invalid(`timer: ${describeInput(name)} names no inner engine`);
    }
  }

  #pull(max: unknown): void {
    const sent = pullUpTo(max, () => {
      this.#stage();
      const packet = this.#tx.next();
      if (packet === undefined) return false;
      this.#counters.packetsOut++;
      this.#out.push({ kind: 'packet', packet });
      return true;
    });
    if (sent === undefined) {
      this.#invalid(`pull: max ${describeInput(max)} is not a positive integer`);
      return;
    }
    this.#counters.pulls++;
    if (sent === 0) {
      this.#counters.idlePulls++;
      this.#out.push({ kind: 'idle' });
    }
  }

  /**
   * The fast lane's pull (issue 17, docs/fast-lane.md §10): the Type 9 segments consecutive `pull`s
   * would send, written as frames into buf[offset, offset + budget) (Type9Conveyance.pullInto),
   * and the outputs those pulls give but their packets, appended to `out`. Null, changing nothing,
   * unless a pull could send Type 9 segments only: nothing in the transmit queue (a response, a
   * read, a staged packet) and no Type 11 message pending, which would take turns with them.
   */
  pullInto(buf: Uint8Array, offset: number, budget: number, now: Time, out: SessionEndpointOutput[]): FastPull | null {
    const t9 = this.#type9;
    if (t9 === undefined || this.#tx.size !== 0 || (this.#type11?.pending ?? 0) > 0) return null;
    const outs: Type9ConveyanceOutput[] = [];
    const r = t9.pullInto(buf, offset, budget, now, outs);
    if (r === null) return null;
    this.#now = now;
    this.#out = out;
    this.#wires.from9(outs);
    const c = this.#counters;
    c.packetsOut += r.frames;
    c.pulls += r.frames;
    if (r.frames > 0) this.#tx.served('type9');
    if (!r.more) {
      c.pulls++;
      c.idlePulls++;
      if (r.frames === 0) out.push({ kind: 'idle' });
    }
    return r;
  }

  /** Each conveyance's next packet, into its empty slot of the transmit queue. */
  #stage(): void {
    if (this.#type11 !== undefined && this.#tx.free('type11') && this.#type11.pending > 0) this.#wires.from11(this.#type11.handle({ kind: 'pull' }, this.#now));
    if (this.#type9 !== undefined && this.#tx.free('type9')) this.#wires.from9(this.#type9.handle({ kind: 'pull' }, this.#now));
  }

  // ---- Outputs -------------------------------------------------------------------------------

  #event(detail: EndpointEvent): void {
    this.#out.push({ kind: 'event', source: 'endpoint', at: this.#now, detail });
  }

  #unsupported(p: Packet, reason: string): void {
    this.#counters.unsupportedPackets++;
    this.#event({ event: 'unsupported-packet', ftype: p.ftype, sourceID: sourceOf(p), reason });
  }

  #noConveyance(conveyance: 'type11' | 'type9', to: number, unit: 'message' | 'pdu'): void {
    this.#counters.noConveyance++;
    this.#event({ event: 'no-conveyance', conveyance, to, unit });
  }

  #invalid(detail: string): void {
    this.#counters.invalidInputs++;
    this.#event({ event: 'invalid-input', detail });
  }
}
