import { integerInRange } from '../../engine/config-checks.ts';

/** The most ports a simulated switch has (switch-config.ts `ports` 1..192). */
export const MAX_SWITCH_PORTS = 192;

/** The most hosts a fabric may have: device IDs are 16 bits at most in the simulator's Dev8/Dev16 (Part 3 §2.4). */
export const MAX_HOSTS = 65_536;

/** A topology parameter: an integer in [min, max], else a RangeError naming `topology.<field>`. */
export function param(v: unknown, min: number, max: number, field: string): number {
  return integerInRange(v, min, max, `topology.${field}`);
}

/** A switch of `ports` ports must fit the simulator's switch; `what` names the parameters that set it. */
export function checkPorts(ports: number, what: string): void {
  if (ports > MAX_SWITCH_PORTS) throw new RangeError(`topology: ${what} give switches of ${ports} ports, more than ${MAX_SWITCH_PORTS}`);
}

export function checkHosts(hosts: number, what: string): void {
  if (hosts > MAX_HOSTS) throw new RangeError(`topology: ${what} give ${hosts} hosts, more than ${MAX_HOSTS}`);
}
