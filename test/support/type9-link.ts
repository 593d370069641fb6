/**
 * Test-only wiring of Type 9 conveyances (src/session/type9-conveyance.ts): segments pulled from
 * one end are encoded and decoded (strictly) and handed to the other end, as a link would.
 */
import { decodeType9, encodeType9, type9Length } from '../../src/wire/type9.ts';
import type { Type9DataPacket, Type9Packet } from '../../src/wire/type9-types.ts';
import { Type9Conveyance } from '../../src/session/type9-conveyance.ts';
import type { Type9ConveyanceConfig, Type9ConveyanceInput, Type9ConveyanceOutput, Type9PduOutput } from '../../src/session/type9-conveyance-types.ts';

export interface Node9 {
  readonly engine: Type9Conveyance;
  readonly id: number;
  /** Every non-packet output, in order. */
  readonly log: Type9ConveyanceOutput[];
}

export function node9(id: number, config: Omit<Type9ConveyanceConfig, 'nodeId'> = {}): Node9 {
  return { engine: new Type9Conveyance({ nodeId: id, ...config }), id, log: [] };
}

/** The segment as a receiver gets it: encoded and strictly decoded, its payload a view of those bytes. */
export function wire9(p: Type9DataPacket): Type9Packet {
  const bytes = new Uint8Array(type9Length(p));
  encodeType9(p, bytes, 0);
  return decodeType9(bytes, 0, bytes.length, { strict: true });
}

export function feed9(n: Node9, input: Type9ConveyanceInput, now: number): Type9DataPacket[] {
  const packets: Type9DataPacket[] = [];
  for (const o of n.engine.handle(input, now)) {
    if (o.kind === 'packet') packets.push(o.packet);
    else n.log.push(o);
  }
  return packets;
}

/** Pulls one segment at a time from `from` until it has none and delivers each to `to`; returns them. */
export function carry(from: Node9, to: Node9, now: number, max = Infinity): Type9DataPacket[] {
  const carried: Type9DataPacket[] = [];
  while (carried.length < max) {
    const [p] = feed9(from, { kind: 'pull' }, now);
    if (p === undefined) break;
    carried.push(p);
    feed9(to, { kind: 'packet', packet: wire9(p) }, now);
  }
  return carried;
}

export function pdus(n: Node9): Type9PduOutput[] {
  return n.log.flatMap((o) => (o.kind === 'pdu' ? [o] : []));
}

/** Events by name: this engine's own and the reassembler's, which it passes on. */
export function named(n: Node9, name: string): Record<string, unknown>[] {
  return n.log.flatMap((o) => (o.kind === 'event' && o.name === name ? [o as unknown as Record<string, unknown>] : []));
}
