/**
 * Part 9 flow arbitration in an end point (§2.2, §2.4.7, §2.4.8; issue 7 §2 "Endpoints: … flow
 * arbitration"), the same for every host: the simulator's end points and the software fabric's
 * (fabric-endpoint-arb.ts). The end point runs both engines of src/flow/: ArbTx for the flows it
 * sources and ArbRx for the flows that end at it, whose `resources` are the PDUs it accepts at once
 * (e.g. reassembly contexts). The protocol is the engines'; this feature is their driver and the
 * application that asks for grants.
 *
 * Source. A flow starts blocked (FLOW_BLOCK.arbitration): §2.4.2.1 "arbitrated flows are expected
 * to remain off until explicitly enabled". While PDUs wait that no grant covers, the feature asks
 * ArbTx for one (arbitration-demand.ts; single mode: one per PDU, the next asked while the
 * current grant is in use, §2.2.2 pipelining; multi mode: one per backlog, given back with
 * `release` when the queue empties, rule 7). The flow may start a PDU while ArbTx holds a grant
 * for it that is not being released;
 * every data packet sent is a `segment` input, so the engine ends a single-PDU grant with the last
 * segment (rule 5) and sends RELEASE after the current PDU (rules 7, 8).
 *
 * Destination. REQUEST and RELEASE go to ArbRx, and so does every data packet received, as a
 * `segment` of the flow its prio/CRF name: the engine frees a single-PDU resource at the PDU's end
 * (rule 5) and restarts its idle timer (§2.4.8).
 *
 * Re-entry. `packetSent` runs inside the host's pull of that very packet (the simulator's channel
 * ignores a kick during its pull: the packet pulled restarts it when sent), so the control packets
 * and unblocked flows the engines ask for there are done at once. Engine outputs are collected while
 * an engine call is running and applied after it (`#flush`), because an applied effect can call
 * back into this feature.
 */
import { zeroCounters } from '../../engine/contract.ts';
import type { Counters, TimerOutput } from '../../engine/contract.ts';
import { ArbRx } from '../../flow/arb-rx.ts';
import { ArbTx } from '../../flow/arb-tx.ts';
import type { ArbRxInput, ArbTxInput } from '../../flow/arbitration-types.ts';
import { flowKey } from '../../flow/flows.ts';
import { ccpPrioCrf } from '../../wire/flow-id.ts';
import { type7Command } from '../../wire/type7.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { resolveArbitrationConfig } from './arbitration-config.ts';
import type { ArbitrationTimes, EndpointArbitrationConfig, ResolvedArbitrationConfig } from './arbitration-config.ts';
import { ARB_COUNTERS, RX_EVENT_COUNTER, TX_EVENT_COUNTER } from './arbitration-counters.ts';
import type { ArbCounterName } from './arbitration-counters.ts';
import { mayStart, pdusToStart, wantsRequest } from './arbitration-demand.ts';
import { arbControlPacket, dataFlowId, isType7 } from './arbitration-packets.ts';
import { FLOW_BLOCK } from './feature.ts';
import type { EndpointFeature, FeatureHost, PacketPosition, SentPacket } from './feature.ts';
import type { TxFlow } from './flows.ts';
import type { NodePacket } from './packet.ts';

export type { EndpointArbitrationConfig } from './arbitration-config.ts';

const ARB = FLOW_BLOCK.arbitration;
/** Timer names: the engines' own, behind a prefix per engine. */
const TX = 'tx:';
const RX = 'rx:';

interface FlowState {
  readonly flow: TxFlow;
  readonly key: string;
  /** Since when the flow has had a PDU ready to start and no grant to start it; null when not waiting. */
  waitingSince: number | null;
  /** ps of ended waits. */
  waitPs: number;
  /** A request for the flow is being handed to ArbTx: the settling it causes asks for no other. */
  asking: boolean;
}

type Effect = { readonly kind: 'send'; readonly packet: Type7Packet } | { readonly kind: 'open'; readonly st: FlowState };

export class ArbitrationFeature implements EndpointFeature {
  readonly name = 'arbitration';
  readonly kinds = ['arb'] as const;
  readonly config: ResolvedArbitrationConfig;
  readonly #host: FeatureHost;
  readonly #tx: ArbTx;
  readonly #rx: ArbRx;
  readonly #counters: Counters<ArbCounterName> = zeroCounters(ARB_COUNTERS);
  readonly #flows = new Map<string, FlowState>();
  readonly #effects: Effect[] = [];
  #depth = 0;
  #flushing = false;
  #allocated = 0;
  #maxAllocated = 0;

  /** `times`: the host's defaults of the durations (arbitration-config.ts). */
  constructor(host: FeatureHost, config: EndpointArbitrationConfig, times?: ArbitrationTimes) {
    this.#host = host;
    const c = resolveArbitrationConfig(config, times);
    this.config = c;
    this.#tx = new ArbTx({
      localID: host.id, tt: host.tt, crfSupported: host.crfSupported, pipelining: c.pipelining, requestTimeout: c.requestTimeout, retryDelay: c.retryDelay,
    });
    this.#rx = new ArbRx({
      localID: host.id,
      tt: host.tt,
      resources: c.resources,
      whenBusy: c.whenBusy,
      idleTimeout: c.idleTimeout,
      // §2.4.2 "a "CRF" bit value of 0b1, if supported": the end point's own CRF setting.
      responseFlow: ccpPrioCrf(host.crfSupported),
      ...(c.maxQueued === null ? {} : { maxQueued: c.maxQueued }),
    });
  }

  flowCreated(f: TxFlow, now: number): void {
    this.#state(f, now);
  }

  pduQueued(f: TxFlow, _bytes: number, now: number): void {
    const st = this.#state(f, now);
    this.#enter();
    this.#settle(st, now);
    this.#leave(now);
  }

  packetSent(f: TxFlow, p: SentPacket, now: number): void {
    const st = this.#state(f, now);
    this.#enter();
    this.#txIn({ kind: 'segment', destinationID: f.dst, flowID: f.flowID, segment: p.position }, st, p.position === 'end' || p.position === 'single', now);
    this.#leave(now);
  }

  receive(p: NodePacket, now: number): void {
    const w = p.wire;
    if (!isType7(w)) {
      this.#count('malformed');
      return;
    }
    const { command } = type7Command(w.xonXoff, w.fam);
    this.#enter();
    if (command === 'XON_ARB' || command === 'XOFF_ARB') {
      // The answer names the flow by its far end: tgtdestinationID is the receiver (addressing
      // decision, src/flow/arbitration-types.ts).
      const st = w.flowID === 'RESERVED' ? undefined : this.#flows.get(flowKey(w.tgtdestinationID, w.flowID));
      this.#txIn({ kind: 'ccp', packet: w }, st, false, now);
    } else if (command === 'REQUEST_SINGLE_PDU' || command === 'REQUEST_MULTI_PDU' || command === 'RELEASE') {
      this.#rxIn({ kind: 'ccp', packet: w }, now);
    } else {
      this.#count('ignored');
    }
    this.#leave(now);
  }

  dataReceived(p: NodePacket, position: PacketPosition, now: number): void {
    const flowID = dataFlowId(p, this.#host.crfSupported);
    if (flowID === undefined) {
      this.#count('unknownFlow');
      return;
    }
    this.#enter();
    this.#rxIn({ kind: 'segment', sourceID: p.src, flowID, segment: position }, now);
    this.#leave(now);
  }

  timer(name: string, now: number): void {
    this.#enter();
    if (name.startsWith(TX)) {
      const engineName = name.slice(TX.length);
      // ArbTx timers are `request:<dst>/<flowID>` and `retry:<dst>/<flowID>`.
      this.#txIn({ kind: 'timer', name: engineName }, this.#flows.get(engineName.slice(engineName.indexOf(':') + 1)), false, now);
    } else if (name.startsWith(RX)) {
      this.#rxIn({ kind: 'timer', name: name.slice(RX.length) }, now);
    }
    this.#leave(now);
  }

  counters(): Record<string, number> {
    return { ...this.#counters, maxAllocated: this.#maxAllocated };
  }

  snapshot(): Record<string, unknown> {
    return {
      config: { ...this.config },
      allocated: this.#allocated,
      maxAllocated: this.#maxAllocated,
      flows: [...this.#flows.values()].map((st) => ({
        flow: st.flow.index, dst: st.flow.dst, flowID: st.flow.flowID, blocked: (st.flow.blocked & ARB) !== 0, waitingSince: st.waitingSince, waitPs: st.waitPs,
      })),
      tx: this.#tx.snapshot(),
      rx: this.#rx.snapshot(),
    };
  }

  /** The flow's state, created (and the flow blocked) on first sight. */
  #state(f: TxFlow, now: number): FlowState {
    const key = flowKey(f.dst, f.flowID);
    let st = this.#flows.get(key);
    if (st === undefined) {
      st = { flow: f, key, waitingSince: null, waitPs: 0, asking: false };
      this.#flows.set(key, st);
      // §2.4.2.1 "arbitrated flows are expected to remain off until explicitly enabled".
      this.#host.setBlocked(f, ARB, true, now);
    }
    return st;
  }

  #count(name: ArbCounterName, by = 1): void {
    this.#counters[name] += by;
    this.#host.count(`arb.${name}`, by);
  }

  #timer(prefix: string, t: TimerOutput): void {
    this.#host.timer({ kind: 'timer', name: prefix + t.name, at: t.at });
  }

  #enter(): void {
    this.#depth++;
  }

  #leave(now: number): void {
    if (--this.#depth > 0) return;
    this.#flush(now);
  }

  #flush(now: number): void {
    if (this.#flushing) return;
    this.#flushing = true;
    // Effects may add effects (a control packet starts the link, whose pull sends a segment).
    for (let i = 0; i < this.#effects.length; i++) {
      const e = this.#effects[i] as Effect;
      if (e.kind === 'send') this.#host.sendControl(arbControlPacket(e.packet), now);
      else this.#open(e.st, now);
    }
    this.#effects.length = 0;
    this.#flushing = false;
  }

  #open(st: FlowState, now: number): void {
    const f = st.flow;
    if ((f.blocked & ARB) !== 0 && mayStart(this.#tx.state(f.dst, f.flowID))) this.#host.setBlocked(f, ARB, false, now);
  }

  /**
   * One ArbTx input and its outputs; then `st`'s blocking, wait time and demand follow the
   * engine's new state. `settle` false skips that when the only output is `transmit` (a segment
   * inside a PDU changes nothing the feature acts on).
   */
  #txIn(input: ArbTxInput, st: FlowState | undefined, settle: boolean, now: number): void {
    const out = this.#tx.handle(input, now);
    let reissue = false;
    let quiet = true;
    for (const o of out) {
      if (o.kind === 'transmit') continue;
      quiet = false;
      if (o.kind === 'send') {
        // Rule 3 1): the REQUEST right after a `request-timeout` event is the re-sent one.
        if (o.packet.command === 'RELEASE') this.#count('released');
        else if (!reissue) this.#count('requests');
        reissue = false;
        this.#effects.push({ kind: 'send', packet: o.packet });
      } else if (o.kind === 'grant') {
        this.#count('granted');
      } else if (o.kind === 'refused') {
        this.#count('refused');
      } else if (o.kind === 'timer') {
        this.#timer(TX, o);
      } else if (o.kind === 'event') {
        if (o.name === 'request-timeout') reissue = true;
        this.#count(TX_EVENT_COUNTER[o.name]);
      }
    }
    if (st !== undefined && (settle || !quiet)) this.#settle(st, now);
  }

  #rxIn(input: ArbRxInput, now: number): void {
    for (const o of this.#rx.handle(input, now)) {
      if (o.kind === 'send') {
        if (o.packet.command === 'XOFF_ARB') this.#count('xoffArbSent');
        this.#effects.push({ kind: 'send', packet: o.packet });
      } else if (o.kind === 'allocated') {
        this.#allocated++;
        this.#maxAllocated = Math.max(this.#maxAllocated, this.#allocated);
        this.#count('allocated');
      } else if (o.kind === 'freed') {
        this.#allocated--;
        this.#count('freed');
        if (o.reason === 'idle-timeout') this.#count('idleFreed');
        else if (o.reason === 'async') this.#count('asyncFreed');
      } else if (o.kind === 'timer') {
        this.#timer(RX, o);
      } else {
        const name = RX_EVENT_COUNTER[o.name];
        if (name !== null) this.#count(name);
      }
    }
  }

  /** Brings the flow's blocking, wait time and requests in line with the engine's state. */
  #settle(st: FlowState, now: number): void {
    const f = st.flow;
    const s = this.#tx.state(f.dst, f.flowID);
    const may = mayStart(s);
    const blocked = (f.blocked & ARB) !== 0;
    if (!may && !blocked) this.#host.setBlocked(f, ARB, true, now);
    else if (may && blocked) this.#effects.push({ kind: 'open', st });
    const waiting = !may && pdusToStart(f) > 0;
    if (waiting && st.waitingSince === null) {
      st.waitingSince = now;
      this.#count('waits');
    } else if (!waiting && st.waitingSince !== null) {
      const waited = now - st.waitingSince;
      st.waitingSince = null;
      st.waitPs += waited;
      this.#count('waitPs', waited);
    }
    const g = s.grant;
    if (g !== null && g.mode === 'multi' && !s.releasing && !s.pduInProgress && f.queue.length === 0) {
      // Rule 7 "relinquish a multi-PDU context by sending a RELEASE message after completion of
      // the current PDU": the backlog the grant was asked for has gone.
      this.#txIn({ kind: 'release', destinationID: f.dst, flowID: f.flowID }, st, true, now);
      return;
    }
    // Rule 1 "The transmitter shall issue a REQUEST when it wishes the receiver to allocate a
    // resource to a particular flow". One per settling: a further one waits for the next engine
    // event, so a request the engine does not take cannot loop.
    if (st.asking || !wantsRequest(f, s)) return;
    st.asking = true;
    this.#txIn({ kind: 'request', destinationID: f.dst, flowID: f.flowID, mode: this.config.mode }, st, true, now);
    st.asking = false;
  }
}
