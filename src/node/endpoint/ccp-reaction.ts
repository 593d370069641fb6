/**
 * Part 9 source reaction to congestion control packets, as every end point element runs it (the
 * simulator's `Endpoint` and the software fabric's `FabricEndpoint`): the checks a received Type 7
 * must pass, the `CcpEndpoint` engine (src/flow/ccp-endpoint.ts), its orphan timer, and the
 * counter resets a link change asks for. What a flow change does to the transmit side is the
 * host's: the simulator's flow queues skip a stopped flow (§2.4.5 rule 1 "stops all transaction
 * request flows of the specified priority and lower targeted to the specified destination"), the
 * fabric end point gates its segmenter flows and holds staged requests.
 */
import { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import type { CcpEndpointInput, CcpEndpointOutput, FlowChangeCause } from '../../flow/ccp-endpoint-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Type7Packet } from '../../wire/type7.ts';

export type CcpReactionEvent = Extract<CcpEndpointOutput, { readonly kind: 'event' }>;

/** What the reaction asks of its end point. */
export interface CcpReactionHost {
  /** The send permission of (destinationID, flowID) changed (the engine's `flow` output, Table 3-1 order). */
  flowChanged(destinationID: number, flowID: FlowIdLabel, enabled: boolean, cause: FlowChangeCause, now: number): void;
  /** Arm (at) or cancel (null) the orphaned XOFF timer (Annex A.2); call `orphanTimer` when it fires. */
  orphanTimer(at: number | null): void;
  /** Something the engine reports (ignored XOFFs, saturation, orphan restarts). */
  event(e: CcpReactionEvent, now: number): void;
}

/** What a Type 7 decoded from JSON lacks for the engine (Part 9 §3.2 Figure 3-1 fields); undefined when it has it all. */
export function malformedCcp(p: Type7Packet): string | undefined {
  const u: unknown = p;
  if (typeof u !== 'object' || u === null) return 'not a Type 7 packet';
  const r = u as Record<string, unknown>;
  if (r['ftype'] !== 7) return 'not a Type 7 packet';
  if (!isId(r['tgtdestinationID'])) return 'tgtdestinationID is not a device ID';
  for (const [field, max] of [['xonXoff', 1], ['fam', 7], ['flowIDCode', 127]] as const) {
    const v = r[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) return `${field} is not an integer from 0 to ${max}`;
  }
  return undefined;
}

function isId(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

export class CcpReaction {
  readonly engine: CcpEndpoint;
  readonly #nodeId: number;
  readonly #host: CcpReactionHost;
  /** tgtdestinationIDs of the CCPs taken: the only destinations whose counters can be non-zero. */
  readonly #destinations = new Set<number>();

  constructor(engine: CcpEndpoint, nodeId: number, host: CcpReactionHost) {
    this.engine = engine;
    this.#nodeId = nodeId;
    this.#host = host;
  }

  /**
   * A received Type 7 for the CCP engine: undefined when taken, else why it was refused. Part 9
   * §3.2: "destinationID ... which end point the CCP is destined for".
   */
  receive(p: Type7Packet, now: number): string | undefined {
    const malformed = malformedCcp(p);
    if (malformed !== undefined) return `malformed Type 7: ${malformed}`;
    if (p.destinationID !== this.#nodeId) return `Type 7 for destinationID ${p.destinationID}, not this end point`;
    this.#destinations.add(p.tgtdestinationID);
    this.#handle({ kind: 'ccp', packet: p }, now);
    return undefined;
  }

  /** The orphan timer fired. */
  orphanTimer(now: number): void {
    this.#handle({ kind: 'timer', name: 'orphan' }, now);
  }

  /**
   * A link went up or down: the counters of every destination a CCP named are reset (§2.4.2.3
   * "The counter is initialized to zero at start up"): a new link is a new path, and the XONs
   * owed on the old one will not come.
   */
  linkChange(now: number): void {
    for (const destinationID of [...this.#destinations].sort((a, b) => a - b)) this.#handle({ kind: 'reset-destination', destinationID }, now);
  }

  /**
   * §2.4.5 rule 2: a flow sends when the counters of its flowID "and flowIDs of higher priority" are
   * zero. Every non-zero counter is in the A.2 FIFO of XOFF'd flows, whose head the orphan timer
   * watches: with no timer pending every counter is zero, and the per-packet check is skipped.
   */
  flowOpen(destinationID: number, flowID: FlowIdLabel): boolean {
    return this.engine.orphanDeadline() === undefined || this.engine.canSend(destinationID, flowID);
  }

  #handle(input: CcpEndpointInput, now: number): void {
    for (const o of this.engine.handle(input, now)) {
      if (o.kind === 'flow') this.#host.flowChanged(o.destinationID, o.flowID, o.enabled, o.cause, now);
      else if (o.kind === 'timer') this.#host.orphanTimer(o.at);
      else this.#host.event(o, now);
    }
  }
}
