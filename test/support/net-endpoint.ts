/**
 * Test-only wire for end point processes (src/net/endpoint-process.ts): a relay that stands in for
 * a switch. It listens on one loopback port per end point (as a switch has one listener per port)
 * and forwards every packet to the link of the end point its destinationID names, without loss:
 * while a destination's link is full, the packets for it wait (bounded by the sources' pause) and
 * the sources' links are paused (docs/net-framing.md §4.4). It answers no MAINTENANCE itself.
 */
import { listen } from '../../src/net/listen.ts';
import type { Listener } from '../../src/net/listen.ts';
import type { Link } from '../../src/net/link.ts';
import { endpointConfig } from '../../src/net/endpoint-config.ts';
import type { EndpointConfigInput, EndpointProcessConfig } from '../../src/net/endpoint-config.ts';
import type { SerialPacket } from '../../src/wire/packet.ts';

export interface Relay {
  /** TCP port of the listener for end point `id`. */
  port(id: number): number;
  /** The open link of end point `id`. */
  link(id: number): Link | undefined;
  /** Packets forwarded, dropped for want of a destination, and every packet seen (ftype, source, destination). */
  readonly counts: { forwarded: number; dropped: number };
  readonly seen: { readonly ftype: number; readonly from: number; readonly to: number }[];
  /** Packets not forwarded while this returns true (a test's filter). */
  hold: ((p: SerialPacket) => boolean) | null;
  close(): Promise<void>;
}

interface Out {
  readonly queue: SerialPacket[];
  readonly paused: Set<Link>;
}

export async function startRelay(ids: readonly number[]): Promise<Relay> {
  const links = new Map<number, Link>();
  const outs = new Map<number, Out>();
  const listeners = new Map<number, Listener>();
  const counts = { forwarded: 0, dropped: 0 };
  const seen: { ftype: number; from: number; to: number }[] = [];
  const relay: Relay = {
    port: (id) => {
      const l = listeners.get(id);
      if (l === undefined) throw new Error(`no port for ${id}`);
      return l.port;
    },
    link: (id) => links.get(id),
    counts,
    seen,
    hold: null,
    close: async () => {
      await Promise.all([...listeners.values()].map((l) => l.close()));
    },
  };
  const flush = (id: number): void => {
    const dest = links.get(id);
    const out = outs.get(id);
    if (dest === undefined || out === undefined) return;
    while (out.queue.length > 0 && dest.writable) dest.sendPacket(out.queue.shift() as SerialPacket);
    if (out.queue.length === 0) {
      for (const src of out.paused) src.resume();
      out.paused.clear();
    }
  };
  const forward = (src: Link, p: SerialPacket): void => {
    seen.push({ ftype: p.ftype, from: 'sourceID' in p ? p.sourceID : -1, to: p.destinationID });
    if (relay.hold?.(p) === true) return;
    const dest = links.get(p.destinationID);
    const out = outs.get(p.destinationID);
    if (dest === undefined || out === undefined || (dest.state !== 'open' && dest.state !== 'hello')) {
      counts.dropped++;
      return;
    }
    counts.forwarded++;
    if (out.queue.length === 0 && dest.writable) {
      dest.sendPacket(p);
      return;
    }
    out.queue.push(p);
    out.paused.add(src);
    src.pause();
  };
  for (const id of ids) {
    outs.set(id, { queue: [], paused: new Set() });
    const l = await listen({ port: 0 }, (link) => {
      // Known from the start, so that nothing sent to it is lost while its HELLO is on the way.
      links.set(id, link);
      return {
      onPacket: (p) => {
        forward(link, p);
      },
      onDrain: () => {
        flush(id);
      },
      onClose: () => {
        if (links.get(id) === link) links.delete(id);
        const out = outs.get(id);
        if (out !== undefined) {
          out.queue.length = 0;
          for (const src of out.paused) src.resume();
          out.paused.clear();
        }
      },
      };
    });
    listeners.set(id, l);
  }
  return relay;
}

/** ns */
export const MS = 1_000_000;

/**
 * An end point's configuration for tests: silent log, session periods short enough for tests,
 * discovery of `targets`.
 */
export function testEndpointConfig(nodeId: number, port: number, more: Partial<EndpointConfigInput> = {}): EndpointProcessConfig {
  return endpointConfig({
    nodeId,
    switch: { port },
    log: 'silent',
    connect: { timeoutMs: 3000, retryMs: 20, maxRetryMs: 200 },
    session: { retryPeriod: 100 * MS, timeoutPeriod: 400 * MS, xonTimeout: 400 * MS },
    // Reads answered within 400 ms even on a loaded two-core machine running the suite.
    discovery: { readTimeout: 400 * MS, pollPeriod: 50 * MS },
    ...more,
  });
}

/** `n` bytes, different for each `seed`. */
export function bytes(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (seed * 131 + i * 7 + (i >>> 8)) & 0xff;
  return b;
}

/** Resolves when `cond()` holds, polling every 5 ms; rejects after `ms`. */
export async function until(cond: () => boolean, ms = 3000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Closes the end points one at a time, each once the switch has seen its link down (port `i` for
 * `endpoints[i]`), then the switch: every frame sent before a CLOSE is read before it, so both
 * ends' captures hold the same frames.
 */
export async function closeInOrder(sw: { ports(): readonly { readonly link: string }[]; close(): Promise<void> }, endpoints: readonly { close(): Promise<void> }[]): Promise<void> {
  for (const [i, ep] of endpoints.entries()) {
    await ep.close();
    await until(() => sw.ports()[i]?.link === 'none');
  }
  await sw.close();
}
