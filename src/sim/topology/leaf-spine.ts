import { FabricBuilder } from './builder.ts';
import { MAX_SWITCH_PORTS, checkHosts, checkPorts, param } from './limits.ts';
import type { Fabric } from './types.ts';

/**
 * Issue 7 §2 "leaf/spine": L leaves `leaf<l>`, S spines `spine<s>`, H hosts per leaf. Leaf l has
 * its hosts on ports 0 … H − 1 (host IDs l·H … l·H + H − 1) and spine s on port H + s; spine s has
 * leaf l on port l.
 *
 * Routing is up/down and deterministic: a leaf sends its own hosts' traffic straight down, and
 * everything else up to spine (destination ID mod S), which sends it down to the destination's
 * leaf. Every path between leaves is leaf → spine → leaf, never down then up, so there is no
 * loop; all traffic to one destination crosses the same spine, which keeps each flow in order.
 */
export interface LeafSpineSpec {
  readonly kind: 'leaf-spine';
  readonly leaves: number;
  readonly spines: number;
  readonly hostsPerLeaf: number;
}

export function leafSpine(spec: LeafSpineSpec): Fabric {
  const leaves = param(spec.leaves, 1, MAX_SWITCH_PORTS, 'leaves');
  const spines = param(spec.spines, 1, MAX_SWITCH_PORTS, 'spines');
  const h = param(spec.hostsPerLeaf, 1, MAX_SWITCH_PORTS, 'hostsPerLeaf');
  checkPorts(h + spines, 'hostsPerLeaf + spines');
  checkHosts(leaves * h, 'leaves × hostsPerLeaf');
  if (leaves * h < 2) throw new RangeError('topology: leaves × hostsPerLeaf must be at least 2');
  const b = new FabricBuilder();
  const leaf = Array.from({ length: leaves }, (_, l) => b.addSwitch(`leaf${l}`, h + spines));
  const spine = Array.from({ length: spines }, (_, s) => b.addSwitch(`spine${s}`, leaves));
  for (let l = 0; l < leaves; l++) for (let p = 0; p < h; p++) b.addHost(leaf[l] as number, p);
  for (let l = 0; l < leaves; l++) for (let s = 0; s < spines; s++) b.connect(leaf[l] as number, h + s, spine[s] as number, l);
  for (let d = 0; d < leaves * h; d++) {
    const home = Math.floor(d / h);
    for (let l = 0; l < leaves; l++) b.route(leaf[l] as number, d, l === home ? d % h : h + (d % spines));
    for (let s = 0; s < spines; s++) b.route(spine[s] as number, d, home);
  }
  return b.finish(`leaf/spine ${leaves} leaves, ${spines} spines, ${h} hosts per leaf`);
}
