import type { ResolvedSwitchConfig } from './config.ts';
import type { SwitchCoreSnapshot } from './element-types.ts';
import type { SwitchPacket } from './packet.ts';
import type { RouteTable } from './routes.ts';
import type { InputStage, OutputStage } from './stages.ts';
import type { SwitchVoq } from './voq-generator.ts';
import type { VoqStaging } from './voq-staging.ts';

/** What `SwitchCore.snapshot` gathers besides the stages. */
export interface SnapshotParts<P extends SwitchPacket> {
  readonly deviceId: number;
  readonly matcher: SwitchCoreSnapshot['crossbar'];
  readonly congestion: SwitchCoreSnapshot['congestion'];
  readonly staging: VoqStaging<P> | null;
  readonly voq: SwitchVoq | null;
  readonly maintenanceBudget: SwitchCoreSnapshot['maintenanceBudget'];
  readonly counters: SwitchCoreSnapshot['counters'];
}

/** The switch element's state, JSON-serialisable (for `riodp status`-like views, tests and reports). */
export function snapshotSwitch<P extends SwitchPacket>(
  cfg: ResolvedSwitchConfig, inputs: readonly InputStage<P>[], outputs: readonly OutputStage<P>[], up: Uint8Array, routes: RouteTable, s: SnapshotParts<P>,
): SwitchCoreSnapshot {
  return {
    name: cfg.name,
    deviceId: s.deviceId,
    tt: cfg.tt,
    queueing: cfg.queueing,
    outputBuffer: { packets: cfg.outputPackets, reservePerPriority: cfg.outputReserve },
    ports: inputs.map((inp, port) => {
      const out = outputs[port] as OutputStage<P>;
      const accept = cfg.accept[port];
      return {
        port,
        up: up[port] === 1,
        accept: accept == null ? 'any' : [...accept].sort((a, b) => a - b),
        input: { packets: inp.count, bytes: inp.bytes, waiting: inp.waiting, crossing: inp.current !== null },
        output: {
          queued: out.dataCount, own: out.ownCount, flowControl: out.fc.length, bytes: out.bytes, receiving: out.receiving, register: out.register !== null,
          byClass: out.data.map((d) => d.length),
          congestedDownstream: s.staging?.congestedPorts(port) ?? [],
        },
      };
    }),
    routes: routes.snapshot(),
    crossbar: s.matcher,
    congestion: s.congestion,
    voq: s.staging === null && s.voq === null ? null : { staging: s.staging?.snapshot() ?? null, generator: s.voq?.snapshot() ?? null },
    maintenanceBudget: s.maintenanceBudget,
    counters: s.counters,
  };
}
