import { booleanFlag, deviceIdForTt, orDefault, transportType } from '../engine/config-checks.ts';
import type { ReassemblerConfig } from '../streaming/reassembler-types.ts';
import { isFlowIdLabel } from '../streaming/segment-pdu.ts';
import type { SegmenterConfig } from '../streaming/segmenter-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { TT } from '../wire/header.ts';
import type { Type9ConveyanceConfig } from './type9-conveyance-types.ts';

/** The validated configuration of a `Type9Conveyance`, defaults filled in (the MTU and MaxPDUs are the segmenter's). */
export interface ResolvedType9Config {
  readonly nodeId: number;
  readonly tt: number;
  readonly highFlow: FlowIdLabel;
  readonly normalFlow: FlowIdLabel;
  readonly accepted: ReadonlySet<number>;
}

function checkFlow(v: unknown, field: string): FlowIdLabel {
  if (!isFlowIdLabel(v)) throw new RangeError(`${field} must be a Part 9 Table 3-1 flow (0A–0F, 1A–8A)`);
  return v;
}

export function resolveType9Config(config: Type9ConveyanceConfig): ResolvedType9Config & { readonly crfSupported: boolean } {
  const tt = transportType(orDefault(config.tt, TT.dev16), 'tt');
  const nodeId = deviceIdForTt(config.nodeId, tt, 'nodeId');
  const crfSupported = booleanFlag(orDefault(config.crfSupported, true), 'crfSupported');
  const ids = orDefault<unknown>(config.multicastIds, []);
  if (!Array.isArray(ids)) throw new RangeError('multicastIds must be a list of device IDs');
  const accepted = new Set<number>([nodeId, ...ids.map((id: unknown, i) => deviceIdForTt(id, tt, `multicastIds[${i}]`))]);
  return {
    nodeId,
    tt,
    crfSupported,
    // Part 6 Table 6-7: prio 1 CRF 0 is flow C; Table 6-6 (no CRF): prio 1 is flow B.
    highFlow: checkFlow(orDefault<unknown>(config.highFlow, crfSupported ? '0C' : '0B'), 'highFlow'),
    normalFlow: checkFlow(orDefault<unknown>(config.normalFlow, '0A'), 'normalFlow'),
    accepted,
  };
}

/** The segmenter's configuration: this node's ID as the sourceID, the MTU and MaxPDUs as configured. */
export function segmenterConfig(c: ResolvedType9Config & { readonly crfSupported: boolean }, config: Type9ConveyanceConfig): SegmenterConfig {
  return {
    sourceID: c.nodeId,
    tt: c.tt,
    crfSupported: c.crfSupported,
    ...(config.mtu === undefined ? {} : { mtu: config.mtu }),
    ...(config.defaultMaxPdu === undefined ? {} : { defaultMaxPdu: config.defaultMaxPdu }),
    ...(config.maxPdu === undefined ? {} : { maxPdu: config.maxPdu }),
  };
}

/**
 * The reassembler's configuration. With multicast IDs the end point "can be a multicast target"
 * (Part 10 §3.2.4): the destination ID becomes part of a reassembly context's key.
 */
export function reassemblerConfig(c: ResolvedType9Config & { readonly crfSupported: boolean }, config: Type9ConveyanceConfig): ReassemblerConfig {
  return {
    crfSupported: c.crfSupported,
    destinationInContext: c.accepted.size > 1,
    ...(config.mtu === undefined ? {} : { mtu: config.mtu }),
    ...(config.segSupport === undefined ? {} : { segSupport: config.segSupport }),
    ...(config.idleTimeout === undefined ? {} : { idleTimeout: config.idleTimeout }),
    ...(config.bufferPool === undefined ? {} : { bufferPool: config.bufferPool }),
  };
}
