import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { checkHop, checkNode, resolveDiscoveryConfig } from './discovery-config.ts';
import type { ResolvedDiscoveryConfig, ResolvedTarget } from './discovery-config.ts';
import { probeNode } from './discovery-probe.ts';
import type { Probe, ProbeResult } from './discovery-probe.ts';
import { DISCOVERY_COUNTERS } from './discovery-types.ts';
import type {
  DiscoveryConfig, DiscoveryCounter, DiscoveryEvent, DiscoveryInput, DiscoveryOutput, DiscoverySnapshot, DiscoveryTimerName, FoundContact,
  ReadResultInput,
} from './discovery-types.ts';

export type * from './discovery-types.ts';

/** A node being read: its probe, the read it waits for, what was already reported of it. */
interface Active {
  readonly node: number;
  readonly hop: number;
  readonly attempt: number;
  readonly probe: Probe;
  readonly reported: Set<string>;
  tag: number;
  offset: number;
  reads: number;
}

/** A node to read, first or again after a poll period. */
interface Pending extends ResolvedTarget {
  readonly attempt: number;
  readonly reported: Set<string>;
}

/**
 * Finds remote session management participants (Annex 2 §3.3) by reading their registers
 * (Chapter 5) with MAINTENANCE reads it asks the driver for. Sans-IO: `read` outputs carry a
 * `tag` the driver returns in the `read-result` input; each read has a `read:<tag>` timer.
 *
 * Per node, in order: `ef-chain` and `illegal-block` events as registers are found wanting (each
 * once per node), then one of `participant`, `not-participating` or `unreachable`. A node whose
 * block is still being initialised (§5.2.4 "0x1-0xF - Initialization of registers incomplete") is
 * read again every `pollPeriod`, up to `pollLimit` times, then reported as it stands. A read error
 * or timeout ends the node (`unreachable`); results that match no outstanding read are counted and
 * reported (`stale-result`). When nothing is left to read, `done`.
 *
 * The contact chosen is the first found whose conveyance comes first in `conveyances` (the ones
 * this end point can use): a block's Advertisement CSR, or the Component Tag CSR, including §3.3's
 * mixed system ("the Session Management Advertisement CSR to contain contact information for
 * Type 9 management, and ... the Component Tag CSR to contain contact information for Type 11").
 *
 * @example
 * ```ts
 * import { SessionDiscovery } from 'riodp/engines';
 * import { buildEndpointRegisters } from 'riodp/registers';
 *
 * // Node 2's configuration space: a session management block advertising Type 11 mailbox 3.
 * const node2 = buildEndpointRegisters({ messaging: true, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 3 }] } });
 * const d = new SessionDiscovery({ targets: [{ node: 2 }] });
 * let out = d.handle({ kind: 'start' }, 0); // → { kind: 'read', tag: 0, node: 2, hop: 255, offset: 0x10 }, timer read:0
 * for (let now = 1; out.length > 0; now++) {
 *   for (const o of out) {
 *     if (o.kind === 'event' && o.detail.event === 'participant') console.log(o.detail.node, o.detail.contact); // 2 { conveyance: 'type11', mailbox: 3 }
 *   }
 *   const read = out.find((o) => o.kind === 'read');
 *   // Answer each read with the word the MAINTENANCE response carried (7 reads here):
 *   out = read ? d.handle({ kind: 'read-result', tag: read.tag, value: node2.readWord(read.offset) }, now) : [];
 * }
 * ```
 */
export class SessionDiscovery implements ObservableEngine<DiscoveryInput, DiscoveryOutput, DiscoverySnapshot, DiscoveryCounter> {
  readonly #config: ResolvedDiscoveryConfig;
  readonly #timers = new Timers<DiscoveryTimerName>();
  readonly #counters: Counters<DiscoveryCounter> = zeroCounters(DISCOVERY_COUNTERS);
  readonly #queue: Pending[] = [];
  readonly #active = new Map<number, Active>();
  readonly #byTag = new Map<number, number>();
  readonly #waiting = new Map<number, Pending>();
  readonly #targets: ReadonlySet<number>;
  readonly #results = new Map<number, DiscoveryEvent['event']>();
  #scanNext: number | null = null;
  #nextTag = 0;
  #started = false;
  #busy = false;

  constructor(config: DiscoveryConfig = {}) {
    this.#config = resolveDiscoveryConfig(config);
    this.#targets = new Set(this.#config.targets.map((t) => t.node));
  }

  handle(input: DiscoveryInput, now: Time): DiscoveryOutput[] {
    const out: DiscoveryOutput[] = [];
    switch (input.kind) {
      case 'start':
        this.#start(now, out);
        break;
      case 'discover':
        this.#discover(input.node, input.hop, now, out);
        break;
      case 'read-result':
        this.#readResult(input, now, out);
        break;
      case 'timer':
        this.#timer(input.name, now, out);
        break;
      default:
        this.#ignore(`unknown input kind ${String((input as { kind?: unknown }).kind)}`, now, out);
    }
    this.#pump(now, out);
    return out;
  }

  counters(): Counters<DiscoveryCounter> {
    return { ...this.#counters };
  }

  snapshot(): DiscoverySnapshot {
    const c = this.#config;
    return {
      config: { ...c, targets: c.targets.map((t) => ({ ...t })), conveyances: [...c.conveyances] },
      started: this.#started,
      scanNext: this.#scanNext,
      queue: this.#queue.map((p) => ({ node: p.node, hop: p.hop, attempt: p.attempt })),
      active: [...this.#active.values()].map((a) => ({ node: a.node, attempt: a.attempt, tag: a.tag, offset: a.offset, reads: a.reads })),
      waiting: [...this.#waiting.values()].map((p) => ({ node: p.node, attempt: p.attempt })),
      results: [...this.#results].map(([node, result]) => ({ node, result })),
      timers: this.#timers.pending(),
      stats: this.counters(),
    };
  }

  #event(out: DiscoveryOutput[], now: Time, detail: DiscoveryEvent): void {
    out.push({ kind: 'event', at: now, detail });
  }

  #ignore(reason: string, now: Time, out: DiscoveryOutput[]): void {
    this.#counters.ignored++;
    this.#event(out, now, { event: 'ignored', reason });
  }

  #start(now: Time, out: DiscoveryOutput[]): void {
    if (this.#started) {
      this.#ignore('discovery already started', now, out);
      return;
    }
    this.#started = true;
    this.#busy = true;
    for (const t of this.#config.targets) this.#enqueue(t);
    this.#scanNext = this.#config.scan?.first ?? null;
  }

  #known(node: number): boolean {
    return this.#active.has(node) || this.#waiting.has(node) || this.#queue.some((p) => p.node === node);
  }

  #enqueue(t: ResolvedTarget): void {
    if (!this.#known(t.node)) this.#queue.push({ node: t.node, hop: t.hop, attempt: 0, reported: new Set() });
  }

  #discover(node: number, hop: number | undefined, now: Time, out: DiscoveryOutput[]): void {
    const bits = this.#config.deviceIdBits;
    let target: ResolvedTarget;
    try {
      target = { node: checkNode(node, bits, 'node'), hop: checkHop(hop, 'hop') };
    } catch (e) {
      this.#ignore(`discover: ${(e as Error).message}`, now, out);
      return;
    }
    if (this.#known(target.node)) {
      this.#ignore(`discover: node ${target.node} is already being read`, now, out);
      return;
    }
    this.#busy = true;
    this.#enqueue(target);
  }

  /** The next node to read: queued ones (polls first, then targets), then the scan. */
  #next(): Pending | undefined {
    const queued = this.#queue.shift();
    if (queued !== undefined) return queued;
    const scan = this.#config.scan;
    while (scan !== null && this.#scanNext !== null && this.#scanNext <= scan.last) {
      const node = this.#scanNext;
      this.#scanNext = node + 1;
      if (node !== this.#config.self && !this.#targets.has(node) && !this.#known(node)) return { node, hop: scan.hop, attempt: 0, reported: new Set() };
    }
    return undefined;
  }

  #pump(now: Time, out: DiscoveryOutput[]): void {
    while (this.#active.size < this.#config.parallel) {
      const p = this.#next();
      if (p === undefined) break;
      const c = this.#config;
      const probe = probeNode({
        validation: c.validation,
        maxEfBlocks: c.maxEfBlocks,
        tagCos: c.tagCos,
        protoID: c.attributeProtoID,
        waitForLock: c.waitForLock,
        final: p.attempt >= c.pollLimit,
      });
      const a: Active = { node: p.node, hop: p.hop, attempt: p.attempt, probe, reported: p.reported, tag: -1, offset: -1, reads: 0 };
      this.#active.set(p.node, a);
      this.#step(a, probe.next(), now, out);
    }
    if (this.#busy && this.#active.size === 0 && this.#waiting.size === 0 && this.#queue.length === 0 && !this.#scanLeft()) {
      this.#busy = false;
      const participants = [...this.#results.values()].filter((r) => r === 'participant').length;
      this.#event(out, now, { event: 'done', nodes: this.#results.size, participants });
    }
  }

  #scanLeft(): boolean {
    const scan = this.#config.scan;
    return scan !== null && this.#scanNext !== null && this.#scanNext <= scan.last;
  }

  #step(a: Active, r: IteratorResult<number, ProbeResult>, now: Time, out: DiscoveryOutput[]): void {
    if (r.done === true) {
      this.#finish(a, r.value, now, out);
      return;
    }
    const tag = this.#nextTag++;
    a.tag = tag;
    a.offset = r.value;
    a.reads++;
    this.#byTag.set(tag, a.node);
    this.#counters.reads++;
    out.push({ kind: 'read', tag, node: a.node, hop: a.hop, offset: r.value });
    this.#timers.arm(`read:${tag}`, now + this.#config.readTimeout, out);
  }

  #readResult(input: ReadResultInput, now: Time, out: DiscoveryOutput[]): void {
    const node = typeof input.tag === 'number' ? this.#byTag.get(input.tag) : undefined;
    const a = node === undefined ? undefined : this.#active.get(node);
    if (a === undefined || a.tag !== input.tag) {
      // A result after its timeout, twice, or for a read never asked.
      this.#counters.staleResults++;
      this.#event(out, now, { event: 'stale-result', tag: typeof input.tag === 'number' ? input.tag : -1 });
      return;
    }
    this.#byTag.delete(a.tag);
    this.#timers.cancel(`read:${a.tag}`, out);
    const v = input.value;
    if (input.error !== undefined || typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
      if (input.error === undefined) this.#counters.badResults++;
      else this.#counters.readErrors++;
      // JSON input may carry anything: the error is reported as text whatever it is.
      const raw: unknown = input.error;
      const error = raw === undefined ? `read result ${String(v)} is not a 32-bit word` : typeof raw === 'string' ? raw : JSON.stringify(raw);
      this.#unreachable(a, { reason: 'read-error', error }, now, out);
      return;
    }
    this.#step(a, a.probe.next(v), now, out);
  }

  #timer(name: DiscoveryTimerName, now: Time, out: DiscoveryOutput[]): void {
    if (typeof name !== 'string' || !this.#timers.expire(name, now)) return;
    const n = Number(name.slice(5));
    if (name.startsWith('read:')) {
      const node = this.#byTag.get(n);
      const a = node === undefined ? undefined : this.#active.get(node);
      if (a === undefined) return;
      this.#byTag.delete(n);
      this.#counters.readTimeouts++;
      this.#unreachable(a, { reason: 'timeout', error: `no read result within ${this.#config.readTimeout}` }, now, out);
      return;
    }
    const p = this.#waiting.get(n);
    if (p === undefined) return;
    this.#waiting.delete(n);
    this.#counters.polls++;
    this.#queue.unshift({ ...p, attempt: p.attempt + 1 });
  }

  #unreachable(a: Active, why: { reason: 'read-error' | 'timeout'; error: string }, now: Time, out: DiscoveryOutput[]): void {
    this.#active.delete(a.node);
    this.#counters.unreachable++;
    this.#counters.nodes++;
    this.#results.set(a.node, 'unreachable');
    this.#event(out, now, { event: 'unreachable', node: a.node, reason: why.reason, error: why.error, offset: a.offset });
  }

  #finish(a: Active, r: ProbeResult, now: Time, out: DiscoveryOutput[]): void {
    this.#active.delete(a.node);
    const once = (key: string): boolean => {
      if (a.reported.has(key)) return false;
      a.reported.add(key);
      return true;
    };
    if (r.chain !== null && once(`chain:${r.chain.offset}`)) {
      this.#counters.efChainErrors++;
      this.#event(out, now, { event: 'ef-chain', node: a.node, ...r.chain });
    }
    for (const f of r.illegal) {
      if (!once(`illegal:${f.offset}:${f.field}`)) continue;
      this.#counters.illegal++;
      this.#event(out, now, { event: 'illegal-block', node: a.node, ...f });
    }
    if (r.incomplete && a.attempt < this.#config.pollLimit) {
      this.#waiting.set(a.node, { node: a.node, hop: a.hop, attempt: a.attempt, reported: a.reported });
      this.#timers.arm(`poll:${a.node}`, now + this.#config.pollPeriod, out);
      return;
    }
    this.#counters.nodes++;
    const detail = this.#verdict(a, r);
    this.#results.set(a.node, detail.event);
    if (detail.event === 'participant') this.#counters.participants++;
    else if (detail.event === 'not-participating') this.#counters.notParticipating++;
    else this.#counters.unreachable++;
    this.#event(out, now, detail);
  }

  #verdict(a: Active, r: ProbeResult): DiscoveryEvent {
    if (r.contacts.length === 0) return { event: 'not-participating', node: a.node, why: r.why };
    let chosen: FoundContact | undefined;
    for (const conveyance of this.#config.conveyances) {
      chosen = r.contacts.find((c) => c.contact.conveyance === conveyance);
      if (chosen !== undefined) break;
    }
    if (chosen === undefined) {
      const offered = [...new Set(r.contacts.map((c) => c.contact.conveyance))].join(', ');
      return { event: 'unreachable', node: a.node, reason: 'no-common-conveyance', error: `the node offers ${offered}; this end point uses ${this.#config.conveyances.join(', ')}` };
    }
    return {
      event: 'participant',
      node: a.node,
      contact: chosen.contact,
      source: chosen.source,
      contacts: r.contacts,
      attributes: chosen.attributes,
      initStage: chosen.initStage,
      complete: chosen.source === 'component-tag' || (chosen.initStage === 0 && chosen.numAttr !== null && chosen.lockVal === 0xffff),
      suspect: [...a.reported].some((k) => k.startsWith('illegal:')),
    };
  }
}
