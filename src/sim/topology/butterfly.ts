import { FabricBuilder } from './builder.ts';
import { MAX_SWITCH_PORTS, checkHosts, checkPorts, param } from './limits.ts';
import type { Fabric } from './types.ts';

/**
 * Issue 7 §2 "k-ary n-fly" (a butterfly of n stages of k^(n−1) switches with k inputs and k
 * outputs), with destination-tag routing: stage j takes the output named by digit n − 1 − j of
 * the destination ID written in base k, so after the last stage a packet is at the output whose
 * number is the destination ID (Dally & Towles, "Principles and Practices of Interconnection
 * Networks", §4.1).
 *
 * A simulated end point has one port, so the fly is folded back onto its terminals: the k hosts
 * of terminal switch w hang on stage-0 switch `f0.w` (ports 0 … k − 1, host IDs w·k …), which
 * also takes the k outputs of last-stage switch `f<n−1>.w` back in on ports 2k … 3k − 1; the last
 * stage's output p of switch w is terminal w·k + p, so the packet arrives at its destination's own
 * stage-0 switch, which delivers it. Stage-0 switches route their own hosts' traffic straight
 * down (destination-tag routing cannot send a packet back where it came from); everything else
 * crosses all n stages.
 *
 * Wiring between stages j and j + 1 (j < n − 1): output k + p of switch w goes to input d of
 * switch w' where w' is w with digit n − 2 − j replaced by p, and d is that digit of w. Inputs
 * are ports 0 … k − 1 and outputs k … 2k − 1 at every stage.
 *
 * n = 1 is a single k × k switch.
 */
export interface ButterflySpec {
  readonly kind: 'butterfly';
  readonly k: number;
  readonly n: number;
}

function digit(v: number, i: number, k: number): number {
  return Math.floor(v / k ** i) % k;
}

export function butterfly(spec: ButterflySpec): Fabric {
  const k = param(spec.k, 2, Math.floor(MAX_SWITCH_PORTS / 3), 'k');
  const n = param(spec.n, 1, 16, 'n');
  checkHosts(k ** n, 'k^n');
  checkPorts(n === 1 ? k : 3 * k, 'k');
  const b = new FabricBuilder();
  const per = k ** (n - 1);
  const sw: number[][] = [];
  for (let j = 0; j < n; j++) {
    const ports = j === 0 ? (n === 1 ? k : 3 * k) : 2 * k;
    sw.push(Array.from({ length: per }, (_, w) => b.addSwitch(`f${j}.${w}`, ports)));
  }
  const at = (j: number, w: number): number => sw[j]?.[w] as number;
  for (let w = 0; w < per; w++) for (let p = 0; p < k; p++) b.addHost(at(0, w), p);
  for (let j = 0; j + 1 < n; j++) {
    const pos = n - 2 - j;
    for (let w = 0; w < per; w++) {
      const d = digit(w, pos, k);
      for (let p = 0; p < k; p++) b.connect(at(j, w), k + p, at(j + 1, w + (p - d) * k ** pos), d);
    }
  }
  if (n > 1) for (let w = 0; w < per; w++) for (let p = 0; p < k; p++) b.connect(at(n - 1, w), k + p, at(0, w), 2 * k + p);
  const hosts = k ** n;
  for (let dst = 0; dst < hosts; dst++) {
    const home = Math.floor(dst / k);
    for (let w = 0; w < per; w++) b.route(at(0, w), dst, w === home ? dst % k : k + digit(dst, n - 1, k));
    for (let j = 1; j < n; j++) for (let w = 0; w < per; w++) b.route(at(j, w), dst, k + digit(dst, n - 1 - j, k));
  }
  return b.finish(`${k}-ary ${n}-fly`);
}
