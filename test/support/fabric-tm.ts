/**
 * Helpers for the Part 10 traffic management tests of `FabricEndpoint`
 * (src/node/fabric-endpoint-tm*.test.ts) on the test fabric of fabric-endpoint.ts: end points
 * with a `tm` section, the TM packets on the wire, the `tm` events of a node.
 */
import type { FabricEndpointConfig, FabricTmCounters } from '../../src/node/fabric-endpoint.ts';
import type { FabricTmConfig } from '../../src/node/endpoint/tm-config.ts';
import type { ProtocolSupport, StreamRef } from '../../src/session/types.ts';
import type { Packet } from '../../src/wire/packet.ts';
import type { Type9Packet, Type9TmPacket } from '../../src/wire/type9-types.ts';
import { type9Node } from './endpoint-net.ts';
import { discoverAndOpenAll, FabricNet } from './fabric-endpoint.ts';
import type { FabricNetOptions, FabricWire } from './fabric-endpoint.ts';

export const TM_PROTO = 0x1234;
const DATA3: ProtocolSupport = { protoID: TM_PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

export interface TmPair {
  readonly net: FabricNet;
  /** The stream 1 → 2. */
  readonly to2: StreamRef;
}

/**
 * End points 1 and 2 (Type 9, DATA3) behind the switch, each with `tm` (undefined: none), stream
 * 1 → 2 open; `one` is added to node 1's configuration.
 */
export function tmPair(tm: FabricTmConfig | undefined, opts: FabricNetOptions = {}, one: Partial<FabricEndpointConfig> = {}): TmPair {
  const net = new FabricNet(opts);
  const withTm = tm === undefined ? {} : { tm };
  net.add({ ...type9Node(1, 0xfff1, { protocols: [DATA3], discover: [2] }), ...withTm, ...one });
  net.add({ ...type9Node(2, 0xfff2, { protocols: [DATA3], discover: [1] }), ...withTm });
  const [to2] = discoverAndOpenAll(net, [[1, 2]], TM_PROTO);
  return { net, to2: to2 as StreamRef };
}

export function isTm(p: Packet): p is Type9TmPacket {
  return p.ftype === 9 && p.segment === 'tm';
}

/** TM packets an end point sent to another (in the switch's trace of what end points sent). */
export function tmWires(net: FabricNet, from: number, to: number): (FabricWire & { readonly packet: Type9TmPacket })[] {
  return net.packets(from, to, 9).filter((w): w is FabricWire & { readonly packet: Type9TmPacket } => isTm(w.packet));
}

/** Data segments (Type 9, xh = 0) an end point sent to another. */
export function dataWires(net: FabricNet, from: number, to: number): (FabricWire & { readonly packet: Type9Packet })[] {
  return net.packets(from, to, 9).filter((w): w is FabricWire & { readonly packet: Type9Packet } => w.packet.ftype === 9 && w.packet.segment !== 'tm');
}

/** The first segments (start or single) of the PDUs of one stream an end point sent, with their time. */
export function streamStarts(net: FabricNet, from: number, to: number, streamID: number): number[] {
  return dataWires(net, from, to).filter((w) => (w.packet.segment === 'start' || w.packet.segment === 'single') && w.packet.streamID === streamID).map((w) => w.at);
}

/** The `tm` events (source `fabric`) of a node named `name`, with their time. */
export function tmEvents(net: FabricNet, node: number, name: string): { readonly at: number; readonly detail: Readonly<Record<string, unknown>> }[] {
  return net.events
    .filter((e) => e.node === node && e.source === 'fabric' && e.detail['event'] === 'tm' && e.detail['name'] === name)
    .map((e) => ({ at: e.at, detail: e.detail['detail'] as Readonly<Record<string, unknown>> }));
}

/** A node's traffic management counters (asserted present). */
export function tmCounters(net: FabricNet, node: number): FabricTmCounters {
  const c = net.node(node).counters().tm;
  if (c === undefined) throw new Error(`node ${node} has no traffic management`);
  return c;
}

/** The driver of node `at` reports its receive buffer for the data of `sourceID` (cos 0) `level`/255 full. */
export function level(net: FabricNet, at: number, sourceID: number, value: number): void {
  net.input(at, { kind: 'tm-level', sourceID, cos: 0, level: value });
}

/** The fields of a Type 9 packet that name its flow (Part 10 §3.4.5 rule 1). */
export function flowOf(p: Pick<Type9Packet, 'prio' | 'crf' | 'vc'>): string {
  return `prio ${p.prio} crf ${p.crf} vc ${p.vc}`;
}
