import type { Counters } from '../engine/contract.ts';
import type { CcpEndpoint } from '../flow/ccp-endpoint.ts';
import { flowIdLabel } from '../wire/flow-id.ts';
import type { Packet } from '../wire/packet.ts';
import type { Type7Packet } from '../wire/type7.ts';
import { untag } from './endpoint-input.ts';
import { FABRIC_ARB_TIMES } from './endpoint/arbitration-config.ts';
import { EndpointCore } from './endpoint/core.ts';
import type { EndpointPath } from './endpoint/core.ts';
import type { EndpointArbitrationConfig } from './endpoint/arbitration-config.ts';
import type { NodePacket } from './endpoint/packet.ts';
import type { SessionFeatures } from './endpoint/session-features.ts';
import type { SessionGates } from './endpoint/session-gates.ts';
import type { FlowBook } from './fabric-endpoint-hold.ts';
import { flowSlot } from './fabric-endpoint-hold.ts';
import type { FabricCounter, FabricEndpointOutput, FabricEvent } from './fabric-endpoint-types.ts';

/** The name of the orphaned XOFF timer (Annex A.2) among a `FabricEndpoint`'s timers. */
export const ORPHAN_TIMER = 'ccp:orphan';

/** The end point element of a `FabricEndpoint`, with the session streams as its data path. */
export type FabricElement = EndpointCore<NodePacket, EndpointPath<NodePacket>>;

/** What the element and its data path need of their `FabricEndpoint` (fabric-endpoint.ts). */
export interface FabricElementHost {
  readonly gates: SessionGates;
  readonly book: FlowBook;
  /** The session stack's flows as the features' (flow arbitration) host; undefined: no feature configured. */
  readonly arb: SessionFeatures | undefined;
  readonly counters: Counters<FabricCounter>;
  /** An output of the input being handled. */
  output(o: FabricEndpointOutput): void;
  event(detail: FabricEvent): void;
  /** A received packet no feature takes. */
  received(p: Packet): void;
}

/**
 * The end point element (endpoint/core.ts `EndpointCore`) of a `FabricEndpoint` with node ID
 * `nodeId`: its Part 9 CCP reaction `ccp`, flow arbitration with `arbitration` (undefined: none) at
 * the fabric's default times, and the session streams as its data path.
 */
export function fabricElement(nodeId: number, ccp: CcpEndpoint, arbitration: EndpointArbitrationConfig | undefined, host: FabricElementHost): FabricElement {
  return new EndpointCore(
    { id: nodeId, name: `node ${nodeId}`, ccp, ...(arbitration === undefined ? {} : { arbitration }) },
    {
      ccpTimer: (at) => { host.output({ kind: 'timer', name: ORPHAN_TIMER, at }); },
      ccpEvent: (e) => {
        const { name, ...detail } = untag(e);
        host.event({ event: 'ccp', name, detail });
      },
      ccpArrived: () => undefined,
      ccpDone: (p, refusal) => { ccpDone(host, p.wire as Type7Packet, refusal); },
    },
    sessionPath(host),
    0,
    { arbitrationTimes: FABRIC_ARB_TIMES },
  );
}

/** A CCP the element's reaction took or refused (Part 9 §3.2: "destinationID ... which end point the CCP is destined for"). */
function ccpDone(host: FabricElementHost, p: Type7Packet, refused: string | undefined): void {
  if (refused !== undefined) {
    host.counters.unsupportedPackets++;
    host.event({ event: 'unsupported-packet', ftype: 7, reason: refused });
    return;
  }
  host.counters.ccpIn++;
  const flowID = flowIdLabel(p.flowIDCode);
  if (flowID !== 'RESERVED') host.book.note(flowSlot(p.tgtdestinationID, flowID), p.tgtdestinationID, flowID);
}

/** The session streams as the element's data path (endpoint/core.ts `EndpointPath`). */
function sessionPath(host: FabricElementHost): EndpointPath<NodePacket> {
  const { arb, gates, book } = host;
  return {
    featureHost: (name) => {
      if (arb === undefined) throw new RangeError(`${name}: the session streams carry flow arbitration only`);
      return arb.featureHost(name);
    },
    featuresBuilt: (features) => { arb?.bind(features); },
    useFeatures: (features) => { arb?.bind(features); },
    flowChanged: (destinationID, flowID, enabled, cause, at) => {
      gates.changed(destinationID);
      book.note(flowSlot(destinationID, flowID), destinationID, flowID);
      host.output({ kind: 'flow-state', at, destinationID, flowID, state: enabled ? 'xon' : 'xoff', cause });
    },
    aroundCcp: (run) => { gates.aroundCcp(run); },
    // The hold and the gates ask the element's CCP reaction themselves (FabricEndpoint#flowOpen).
    attached: () => undefined,
    dataPosition: (v) => arb?.position(v.wire as Packet),
    receive: (v) => { host.received(v.wire as Packet); },
  };
}
