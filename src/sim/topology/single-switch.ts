import { FabricBuilder } from './builder.ts';
import { MAX_SWITCH_PORTS, param } from './limits.ts';
import type { Fabric } from './types.ts';

/** Issue 7 §2 "N x N switch": one switch `s0`, host i on port i (the Karol, Hluchyj & Morgan model). */
export interface SingleSwitchSpec {
  readonly kind: 'switch';
  /** N, 2 … 192. */
  readonly hosts: number;
}

export function singleSwitch(spec: SingleSwitchSpec): Fabric {
  const n = param(spec.hosts, 2, MAX_SWITCH_PORTS, 'hosts');
  const b = new FabricBuilder();
  const s = b.addSwitch('s0', n);
  for (let p = 0; p < n; p++) b.addHost(s, p);
  for (let d = 0; d < n; d++) b.route(s, d, d);
  return b.finish(`switch ${n}x${n}`);
}
