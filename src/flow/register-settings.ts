import { findEfBlocks } from '../registers/ef-chain.ts';
import { LP_SERIAL_LAYOUT, LP_SERIAL_MAX_PORTS, portControlOffset, portParticipation } from '../registers/port-control.ts';
import type { LpSerialMap } from '../registers/port-control.ts';
import { PE_FEATURES_OFFSET, decodePeFeatures } from '../registers/pe-features.ts';
import type { RegisterSpace } from '../registers/space.ts';

/**
 * What the Part 9 engines read from a processing element's registers (Part 9 Chapter 4): PE
 * Features CAR bit 20 "Flow Arbitration Support" and bit 24 "Flow Control Support" (§4.2
 * Table 4-1), Part 6's CRF support bit 26 (DECISIONS §3 system setting), and each port's Flow
 * Control Participant and Flow Arbitration Participant bits in its Port n Control CSR (§4.3
 * Table 4-2: "0b0 - Do not route or issue flow control transactions to this port").
 */
export interface PortFlowSettings {
  readonly port: number;
  readonly flowControlParticipant: boolean;
  readonly flowArbitrationParticipant: boolean;
}

export interface FlowRegisterSettings {
  readonly flowControlSupport: boolean;
  readonly flowArbitrationSupport: boolean;
  readonly crfSupported: boolean;
  readonly ports: readonly PortFlowSettings[];
}

function lpSerialPorts(space: RegisterSpace): PortFlowSettings[] {
  for (const map of Object.keys(LP_SERIAL_LAYOUT) as LpSerialMap[]) {
    const [base] = findEfBlocks(space, LP_SERIAL_LAYOUT[map].efId);
    if (base === undefined) continue;
    const ports: PortFlowSettings[] = [];
    for (let port = 0; port < LP_SERIAL_MAX_PORTS; port++) {
      const offset = portControlOffset(base, port, map);
      // The block defines one Port n Control CSR per port it has; the first undefined one ends it.
      if (space.definition(offset) === undefined) break;
      const p = portParticipation(space.readWord(offset));
      ports.push({ port, flowControlParticipant: p.flowControl, flowArbitrationParticipant: p.flowArbitration });
    }
    return ports;
  }
  return [];
}

export function readFlowSettings(space: RegisterSpace): FlowRegisterSettings {
  const pe = decodePeFeatures(space.readWord(PE_FEATURES_OFFSET));
  return {
    flowControlSupport: pe.flowControlSupport,
    flowArbitrationSupport: pe.flowArbitrationSupport,
    crfSupported: pe.crfSupport,
    ports: lpSerialPorts(space),
  };
}

/** Ports a congestion point may send CCPs through (§4.3 bit 13), for `CongestionPointConfig.participants`. */
export function flowControlPorts(s: FlowRegisterSettings): number[] {
  return s.ports.filter((p) => p.flowControlParticipant).map((p) => p.port);
}

/**
 * Whether this end may use flow arbitration on a port: "The CAR bits define whether the device
 * supports the flow arbitration protocol" (§3.3) and the port's Flow Arbitration Participant bit
 * says whether to "route or issue flow arbitration transaction to this port" (§4.3 bit 15).
 */
export function arbitrationEnabled(s: FlowRegisterSettings, port = 0): boolean {
  return s.flowArbitrationSupport && s.ports.some((p) => p.port === port && p.flowArbitrationParticipant);
}
