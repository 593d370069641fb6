import { FabricBuilder } from './builder.ts';
import { MAX_SWITCH_PORTS, checkHosts, checkPorts, param } from './limits.ts';
import type { Fabric } from './types.ts';

/**
 * Issue 7 §2 "ring … of switches": R switches `r0` … `r<R−1>`, each with H hosts on ports 0 …
 * H − 1 (host IDs r·H …), port H to the next switch clockwise and port H + 1 to the previous one.
 *
 * Shortest-path routing; when both ways are equally long (R even, the opposite switch) the packet
 * goes clockwise, so the choice is the same at every switch on the way and paths never loop.
 * A ring with shortest-path routing and finite buffers can deadlock under load (the channels form
 * a cycle); the simulator models that faithfully rather than hiding it.
 */
export interface RingSpec {
  readonly kind: 'ring';
  readonly switches: number;
  readonly hostsPerSwitch: number;
}

export function ring(spec: RingSpec): Fabric {
  const r = param(spec.switches, 2, 4096, 'switches');
  const h = param(spec.hostsPerSwitch, 1, MAX_SWITCH_PORTS, 'hostsPerSwitch');
  checkPorts(h + 2, 'hostsPerSwitch + 2');
  checkHosts(r * h, 'switches × hostsPerSwitch');
  const b = new FabricBuilder();
  const sw = Array.from({ length: r }, (_, i) => b.addSwitch(`r${i}`, h + 2));
  for (let i = 0; i < r; i++) for (let p = 0; p < h; p++) b.addHost(sw[i] as number, p);
  for (let i = 0; i < r; i++) b.connect(sw[i] as number, h, sw[(i + 1) % r] as number, h + 1);
  for (let d = 0; d < r * h; d++) {
    const home = Math.floor(d / h);
    for (let i = 0; i < r; i++) {
      const cw = (home - i + r) % r;
      b.route(sw[i] as number, d, cw === 0 ? d % h : cw <= r - cw ? h : h + 1);
    }
  }
  return b.finish(`ring of ${r} switches, ${h} hosts each`);
}
