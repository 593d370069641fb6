import { booleanFlag, deviceIdForTt, integerInRange, nonNegativeInteger, oneOf, orDefault, positiveInteger, transportType } from '../../engine/config-checks.ts';
import type { CcpEndpointConfig } from '../../flow/ccp-endpoint-types.ts';
import type { ReassemblerConfig } from '../../streaming/reassembler-types.ts';
import { PDU_MAX, isMtu } from '../../streaming/segment-pdu.ts';
import { makeSize } from '../traffic/sizes.ts';
import { requestFlowId } from '../../node/endpoint/flows.ts';
import { DEFAULT_QUEUE_PDUS, SIM_ORPHAN_PERIOD } from './endpoint-types.ts';
import type { EndpointConfig, EndpointTraffic } from './endpoint-types.ts';
import type { RxBufferSpec } from './types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';

/** Part 6 §2.5: a packet carries at most 256 data bytes. */
export const PLAIN_MTU_MAX = 256;

export interface ResolvedTraffic {
  readonly spec: EndpointTraffic;
  readonly prio: 0 | 1 | 2;
  readonly crf: 0 | 1;
  readonly flowID: FlowIdLabel;
}

export interface ResolvedEndpointConfig {
  readonly name: string;
  readonly id: number;
  readonly tt: number;
  readonly buffers: RxBufferSpec;
  readonly traffic: readonly ResolvedTraffic[];
  readonly flows: readonly { readonly dst: number; readonly prio: 0 | 1 | 2; readonly crf: 0 | 1; readonly flowID: FlowIdLabel }[];
  readonly sar: boolean;
  readonly mtu: number;
  readonly sarMtu: number;
  readonly queuePdus: number;
  readonly sourceQueue: 'per-destination' | 'fifo';
  readonly crfSupported: boolean;
  readonly ccp: CcpEndpointConfig | null;
  readonly serviceTime: number;
  readonly reassembler: ReassemblerConfig;
}

/** Validates an end point's configuration (RangeError naming the field) and fills in the defaults. */
export function resolveEndpointConfig(c: EndpointConfig): ResolvedEndpointConfig {
  if (typeof c.name !== 'string' || c.name === '') throw new RangeError('name must be a non-empty string');
  const tt = transportType(orDefault(c.tt, 0), 'tt');
  const id = deviceIdForTt(c.id, tt, 'id');
  positiveInteger(c.buffers.packets, 'buffers.packets');
  const crfSupported = booleanFlag(orDefault(c.crfSupported, true), 'crfSupported');
  const sar = booleanFlag(orDefault(c.sar, false), 'sar');
  const mtu = integerInRange(orDefault(c.mtu, PLAIN_MTU_MAX), 1, PLAIN_MTU_MAX, 'mtu');
  const sarMtu = orDefault(c.sarMtu, 256);
  if (!isMtu(sarMtu)) throw new RangeError('sarMtu must be a multiple of 4 from 32 to 256');
  const traffic = (c.traffic ?? []).map((spec, i): ResolvedTraffic => {
    const prio = spec.prio ?? 0;
    const crf = spec.crf ?? 0;
    const flowID = requestFlowId(prio, crf, crfSupported, `traffic[${i}]`);
    // Part 10 Table 4-1 length "0x0000 - 64kbytes": the segmenter refuses anything longer.
    if (sar && makeSize(spec.size).max > PDU_MAX) throw new RangeError(`traffic[${i}].size must not exceed 65536 bytes with sar (Part 10 Table 4-1)`);
    return { spec, prio, crf, flowID };
  });
  const flows = (c.flows ?? []).map((f, i) => {
    const prio = f.prio ?? 0;
    const crf = f.crf ?? 0;
    const dst = deviceIdForTt(f.dst, tt, `flows[${i}].dst`);
    if (dst === id) throw new RangeError(`flows[${i}].dst must not be the end point itself`);
    return { dst, prio, crf, flowID: requestFlowId(prio, crf, crfSupported, `flows[${i}]`) };
  });
  const ccp = c.ccp === false ? null : { orphanPeriod: SIM_ORPHAN_PERIOD, ...(c.ccp ?? {}) };
  return {
    name: c.name,
    id,
    tt,
    buffers: c.buffers,
    traffic,
    flows,
    sar,
    mtu,
    sarMtu,
    queuePdus: positiveInteger(orDefault(c.queuePdus, DEFAULT_QUEUE_PDUS), 'queuePdus'),
    sourceQueue: oneOf(orDefault<unknown>(c.sourceQueue, 'per-destination'), ['per-destination', 'fifo'] as const, 'sourceQueue'),
    crfSupported,
    ccp,
    serviceTime: nonNegativeInteger(orDefault(c.sink?.serviceTime, 0), 'sink.serviceTime'),
    reassembler: { ...(c.sink?.reassembler ?? {}), mtu: sarMtu, crfSupported },
  };
}
