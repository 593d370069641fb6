import { booleanFlag, orDefault, positiveInteger } from '../engine/config-checks.ts';
import type { CcpEndpointConfig } from '../flow/ccp-endpoint-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { FabricArbitrationConfig } from './endpoint/session-features.ts';
import type { FabricTmConfig } from './endpoint/tm-config.ts';
import type { FabricEndpointConfig } from './fabric-endpoint-types.ts';
import type { SessionEndpointConfig } from './session-endpoint-types.ts';
import { withTmRegisters } from './endpoint/tm-registers.ts';

/** Packets held for stopped flows, all flows together (fabric-endpoint-types.ts `heldLimit`). */
export const DEFAULT_HELD_LIMIT = 64;

/**
 * Type 9 reassembly idle timeout of a fabric end point: 1 s in nanoseconds, the
 * REQUEST_TIMEOUT_PERIOD default of Annex 2 §3.5.3.5. It must outlast the longest an XOFF may keep
 * a PDU's segments apart at the sender (the orphaned XOFF period, 1 ms by default, A.2), and a
 * session that waits that long for an answer considers the peer gone (§3.7.1).
 */
export const DEFAULT_REASSEMBLY_IDLE = 1_000_000_000;

/**
 * Buffers of delivered multi-segment PDUs a fabric end point keeps for reuse once the application
 * gives them back (`Stream.release`, the `recycle` input). Only released PDUs fill it, so an
 * application that never releases costs nothing; 8 covers a reader that releases each PDU after
 * it is written out (docs/fast-lane.md §12).
 */
export const DEFAULT_BUFFER_POOL = 8;

/** The validated configuration of a `FabricEndpoint`. */
export interface ResolvedFabricConfig {
  readonly nodeId: number;
  /** What the inner `SessionEndpoint` is built from (it checks it itself). */
  readonly endpoint: SessionEndpointConfig;
  readonly ccp: CcpEndpointConfig;
  readonly heldLimit: number;
  readonly gateFlows: boolean;
  readonly verifyOnReassemblyTimeout: boolean;
  /** The system's CRF setting (DECISIONS §3), as the Type 9 conveyance takes it: how a packet's prio/CRF name its flow. */
  readonly crfSupported: boolean;
  /** Traffic management's settings, checked when its engines are built (endpoint/tm-config.ts); undefined: none. */
  readonly tm: FabricTmConfig | undefined;
  /** Flow arbitration's settings, checked when its engines are built (arbitration-config.ts); undefined: none. */
  readonly arbitration: FabricArbitrationConfig | undefined;
  readonly tt: number;
  /** The Type 9 conveyance's flow of DATA and 'normal' messages, the flow arbitrated by default. */
  readonly normalFlow: FlowIdLabel;
}

export function resolveFabricConfig(c: FabricEndpointConfig): ResolvedFabricConfig {
  if (typeof c !== 'object' || (c as unknown) === null) throw new RangeError('config must be an end point configuration');
  const { ccp, heldLimit, gateFlows, verifyOnReassemblyTimeout, tm, arbitration, ...endpoint } = c;
  const ccpConfig = orDefault<unknown>(ccp, {});
  if (typeof ccpConfig !== 'object' || ccpConfig === null) throw new RangeError('ccp must be the CCP reaction engine\'s configuration');
  const type9 = (c.type9 as SessionEndpointConfig['type9'] | null | undefined) ?? {};
  const crf = orDefault<unknown>(type9.crfSupported, true);
  return {
    nodeId: c.nodeId,
    endpoint: {
      ...endpoint,
      // Part 9 §4.2 Table 4-1: the end point reacts to CCPs (PE Features bit 24) and, with
      // arbitration, takes part in flow arbitration (bit 20, and the port's Flow Arbitration
      // Participant bit); the configuration's own register settings come last.
      registers: {
        flowControl: true,
        ...((arbitration as unknown) == null ? {} : { flowArb: true }),
        ...endpoint.registers,
        // What 0x48 and the Operations CARs say of traffic management (endpoint/tm-registers.ts).
        ...withTmRegisters(endpoint.registers?.dataStreaming, tm),
      },
      type9: { ...type9, idleTimeout: orDefault(type9.idleTimeout, DEFAULT_REASSEMBLY_IDLE), bufferPool: orDefault(type9.bufferPool, DEFAULT_BUFFER_POOL) },
    },
    ccp: ccpConfig,
    heldLimit: positiveInteger(orDefault<unknown>(heldLimit, DEFAULT_HELD_LIMIT), 'heldLimit'),
    gateFlows: booleanFlag(orDefault<unknown>(gateFlows, true), 'gateFlows'),
    verifyOnReassemblyTimeout: booleanFlag(orDefault<unknown>(verifyOnReassemblyTimeout, true), 'verifyOnReassemblyTimeout'),
    // Checked by the Type 9 conveyance (type9.crfSupported); anything but false is its default.
    crfSupported: crf !== false,
    // From YAML or JSON an absent section may be null.
    tm: (tm as unknown) === null ? undefined : tm,
    arbitration: (arbitration as unknown) === null ? undefined : arbitration,
    tt: c.tt ?? 0,
    normalFlow: typeof type9.normalFlow === 'string' ? type9.normalFlow : '0A',
  };
}
