/**
 * Test-only wiring of Type 11 conveyances (src/session/type11-conveyance.ts): packets pulled from
 * one end are encoded, decoded (strictly, so every packet sent is one a strict receiver takes) and
 * handed to the other end, as a link would.
 */
import { decodePacket, encodePacket, packetLength } from '../../src/wire/packet.ts';
import type { Type11Packet } from '../../src/wire/type11.ts';
import type { Type13MessageResponse, Type13Packet } from '../../src/wire/type13.ts';
import { Type11Conveyance } from '../../src/session/type11-conveyance.ts';
import type {
  Type11ConveyanceConfig, Type11ConveyanceOutput, Type11EventName, Type11EventOutput, Type11MessageOutput,
} from '../../src/session/type11-conveyance-types.ts';
import type { SmpPriority } from '../../src/session/types.ts';

export type Sent = Type11Packet | Type13MessageResponse;

export interface End {
  readonly engine: Type11Conveyance;
  readonly id: number;
  /** Every non-packet output of the end, in order. */
  readonly log: Type11ConveyanceOutput[];
}

export function end(id: number, config: Omit<Type11ConveyanceConfig, 'nodeId'> = {}): End {
  return { engine: new Type11Conveyance({ nodeId: id, ...config }), id, log: [] };
}

/** The packet as the other end receives it: encoded and strictly decoded. */
export function wire(p: Sent): Type11Packet | Type13Packet {
  const bytes = new Uint8Array(packetLength(p));
  encodePacket(p, bytes, 0);
  return decodePacket(bytes, 0, bytes.length, { strict: true }) as Type11Packet | Type13Packet;
}

/** A `send` input as the session engine's SendMessageOutput gives it (minus the decoded message). */
export function send(to: number, mailbox: number, bytes: Uint8Array, priority: SmpPriority = 'normal', id?: string | number) {
  const base = { kind: 'send' as const, to, contact: { conveyance: 'type11' as const, mailbox }, priority, bytes };
  return id === undefined ? base : { ...base, id };
}

/** Handles `input` on `e` and logs its non-packet outputs; returns the packets. */
export function feed(e: End, input: Parameters<Type11Conveyance['handle']>[0], now: number): Sent[] {
  const packets: Sent[] = [];
  for (const o of e.engine.handle(input, now)) {
    if (o.kind === 'packet') packets.push(o.packet);
    else e.log.push(o);
  }
  return packets;
}

/** Every packet `e` has now, one pull at a time. */
export function drain(e: End, now: number): Sent[] {
  const all: Sent[] = [];
  for (;;) {
    const got = feed(e, { kind: 'pull' }, now);
    if (got.length === 0) return all;
    all.push(...got);
  }
}

export interface ExchangeOptions {
  /** Reorders (or drops from) the packets of one burst before they are delivered. */
  readonly arrange?: (packets: Sent[]) => Sent[];
}

/**
 * Pulls every packet from both ends and delivers it to the other, until neither has any left.
 * Returns the packets carried, in delivery order.
 */
export function exchange(a: End, b: End, now: number, opts: ExchangeOptions = {}): Sent[] {
  const carried: Sent[] = [];
  for (;;) {
    let moved = 0;
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const burst = drain(from, now);
      const arranged = opts.arrange ? opts.arrange(burst) : burst;
      for (const p of arranged) {
        carried.push(p);
        feed(to, { kind: 'packet', packet: wire(p) }, now);
      }
      moved += burst.length;
    }
    if (moved === 0) return carried;
  }
}

export function messages(e: End): Type11MessageOutput[] {
  return e.log.flatMap((o) => (o.kind === 'message' ? [o] : []));
}

export function events<N extends Type11EventName>(e: End, name: N): Extract<Type11EventOutput, { name: N }>[] {
  return e.log.flatMap((o) => (o.kind === 'event' && o.name === name ? [o as Extract<Type11EventOutput, { name: N }>] : []));
}

/** `n` octets counting from `seed`. */
export function octets(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (seed + i * 13) & 0xff;
  return b;
}

export function isSegment(p: Sent): p is Type11Packet {
  return p.ftype === 11;
}
