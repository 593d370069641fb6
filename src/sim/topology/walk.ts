import type { Fabric } from './types.ts';

/**
 * Follows the routing tables from one host to another, as a packet would: the switches it crosses
 * in order, or why it cannot arrive. Routing is by destination only, so a packet that comes back
 * to a switch it has crossed would go round for ever: that is a loop.
 */
export type Walk =
  | { readonly ok: true; readonly switches: readonly number[] }
  | { readonly ok: false; readonly switches: readonly number[]; readonly reason: string };

export function walk(fabric: Fabric, src: number, dst: number): Walk {
  const start = fabric.hosts[src];
  if (start === undefined || fabric.hosts[dst] === undefined) return { ok: false, switches: [], reason: `no host ${start === undefined ? src : dst}` };
  const seen = new Set<number>();
  const path: number[] = [];
  let s = start.switch;
  for (;;) {
    if (seen.has(s)) return { ok: false, switches: path, reason: `loop at ${fabric.switches[s]?.name ?? s}` };
    seen.add(s);
    path.push(s);
    const route = fabric.routes[s]?.get(dst);
    if (route === undefined) return { ok: false, switches: path, reason: `no route at ${fabric.switches[s]?.name ?? s}` };
    const peer = fabric.peers[s]?.[route.port];
    if (peer === undefined) return { ok: false, switches: path, reason: `unused port ${route.port} at ${fabric.switches[s]?.name ?? s}` };
    if (peer.kind === 'host') return peer.id === dst ? { ok: true, switches: path } : { ok: false, switches: path, reason: `delivered to ${peer.id}` };
    s = peer.switch;
  }
}

/** Every ordered pair of distinct hosts: the first that cannot reach the other, or null. */
export function unreachable(fabric: Fabric): string | null {
  for (let a = 0; a < fabric.hosts.length; a++) {
    for (let b = 0; b < fabric.hosts.length; b++) {
      if (a === b) continue;
      const w = walk(fabric, a, b);
      if (!w.ok) return `${a} → ${b}: ${w.reason}`;
    }
  }
  return null;
}
