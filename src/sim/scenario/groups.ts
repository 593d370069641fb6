import type { LatencySummary } from '../results/histogram.ts';
import type { SimResults } from '../results/results-types.ts';
import type { GroupCollector } from './group-collector.ts';

/**
 * Per flow group figures of one run (issue 7 §4 Pfister & Norton: "non-hotspot traffic collapses
 * … the non-hotspot (victim) flows keep >= 90% of their offered load"): the flows' results summed
 * by group, and the group latency the collector kept.
 *
 * `deliveredFraction` is PDU payload delivered in whole PDUs over PDU payload offered in the
 * measured window (offered counts what the sources generated, including what a full source queue
 * dropped), so 1 means the fabric carried everything the group offered.
 */
export interface GroupSummary {
  readonly name: string;
  readonly flows: number;
  /** Payload bits offered per second of the window. */
  readonly offeredBps: number;
  /** Payload bits delivered in whole PDUs per second of the window. */
  readonly deliveredBps: number;
  /** Packet octets (headers included) delivered per second of the window, as bits. */
  readonly throughputBps: number;
  readonly deliveredFraction: number;
  readonly droppedPdus: number;
  readonly packetLatency: LatencySummary;
  readonly pduLatency: LatencySummary;
  /** ps any of the group's flows spent XOFF'd, summed over its flows. */
  readonly xoffTime: number;
  readonly xoffCount: number;
}

export function groupSummaries(results: SimResults, collector: GroupCollector): GroupSummary[] {
  const seconds = results.window.duration / 1e12;
  return collector.groups.map((name, g) => {
    let flows = 0;
    let offered = 0;
    let delivered = 0;
    let octets = 0;
    let dropped = 0;
    let xoffTime = 0;
    let xoffCount = 0;
    for (let i = 0; i < collector.flowCount; i++) {
      if (collector.groupOf(i) !== g) continue;
      const f = collector.flowCounts(i);
      flows++;
      offered += f.offeredBytes;
      delivered += f.deliveredPduBytes;
      octets += f.deliveredBytes;
      dropped += f.droppedPdus;
      xoffTime += f.xoffTime;
      xoffCount += f.xoffCount;
    }
    const latency = collector.groupLatency(g);
    const bps = (bytes: number): number => (seconds > 0 ? (bytes * 8) / seconds : 0);
    return {
      name, flows,
      offeredBps: bps(offered),
      deliveredBps: bps(delivered),
      throughputBps: bps(octets),
      deliveredFraction: offered > 0 ? delivered / offered : 0,
      droppedPdus: dropped,
      packetLatency: latency.packet,
      pduLatency: latency.pdu,
      xoffTime,
      xoffCount,
    };
  });
}
