import type { Counters } from '../../engine/contract.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import { within } from '../session-endpoint-config.ts';
import type { ArbiterRandom } from './arbiters.ts';
import { isInputQueued, resolveSwitchConfig } from './config.ts';
import type { ResolvedSwitchConfig } from './config.ts';
import type { SwitchConfig } from './config-types.ts';
import { SwitchCongestion } from './congestion.ts';
import { Matcher } from './matcher.ts';
import type { MatchHost } from './matcher.ts';
import { OwnPackets } from './own-packets.ts';
import type { SwitchPacket } from './packet.ts';
import { buildSwitchRegisters } from './registers.ts';
import { RouteTable } from './routes.ts';
import { InputStage, OutputStage } from './stages.ts';
import { bufferProbe } from './types.ts';
import type { BufferProbe, SwitchCounter, SwitchEvent, SwitchHost, SwitchProbe } from './types.ts';
import { SwitchVoq } from './voq-generator.ts';
import type { VoqHost } from './voq-generator.ts';
import { VoqStaging } from './voq-staging.ts';

/** What the parts of a switch element report to, and read from, the element (core.ts). */
export interface SwitchCoreContext<P extends SwitchPacket> {
  readonly host: SwitchHost<P>;
  readonly probe: SwitchProbe;
  readonly counters: Counters<SwitchCounter>;
  /** The element as the matcher's host. */
  readonly match: MatchHost<P>;
  /** The stream `arbitration: random` draws from. */
  readonly rng: ArbiterRandom | undefined;
  /** The time of the input being handled. */
  now(): number;
  event(e: SwitchEvent): void;
}

/** The parts of a switch element, built from its configuration. */
export interface SwitchCoreParts<P extends SwitchPacket> {
  readonly config: ResolvedSwitchConfig;
  readonly routes: RouteTable;
  readonly registers: RegisterSpace;
  readonly lpSerialBase: number;
  readonly inputs: readonly InputStage<P>[];
  readonly outputs: readonly OutputStage<P>[];
  /** 1 for a port whose link is up. */
  readonly up: Uint8Array;
  readonly congestion: SwitchCongestion;
  /** Whether the congestion points watch the input buffers (input-queued architectures) or the output queues. */
  readonly congestionAtInputs: boolean;
  /** Packets an output queue holds; 0: output buffer 0, a register. */
  readonly capacity: number;
  /** The probe's reports of each input and output buffer (named `<switch>/in<i>`, `<switch>/out<o>`). */
  readonly inBuf: readonly BufferProbe[];
  readonly outBuf: readonly BufferProbe[];
  readonly own: OwnPackets<P>;
  readonly matcher: Matcher<P>;
  readonly staging: VoqStaging<P> | null;
  readonly voq: SwitchVoq | null;
}

/**
 * A switch element's parts from its configuration (config.ts resolves and checks it; messages name
 * a field after the switch's name when it has one): the route table, the congestion points, the
 * register space, the input and output stages, the switch's own packets, the matcher, and the VoQ
 * staging and generator.
 */
export function assembleSwitchCore<P extends SwitchPacket>(config: SwitchConfig, x: SwitchCoreContext<P>): SwitchCoreParts<P> {
  const c = resolveSwitchConfig(config);
  const n = c.ports;
  const routes = new RouteTable(n, c.routeLimit, new Map([...c.routes].map(([id, r]) => [id, r.port])), c.defaultPort);
  const congestionAtInputs = isInputQueued(c.queueing);
  // Messages name the field after the switch's name when it has one (resolveSwitchConfig).
  const named = <T>(f: () => T): T => (config.name === undefined ? f() : within(config.name, f));
  const congestion = named(() => new SwitchCongestion(c.congestion, Array.isArray(config.congestion), c.tt));
  const regs = buildSwitchRegisters({
    ports: n, tt: c.tt, deviceId: c.deviceId, routes, flowControl: congestion.any, identity: c.identity,
    ...(c.voq === null ? {} : { voq: { format: c.voq.format, generate: c.voq.generate } }),
  });
  const inputs = Array.from({ length: n }, (_, i) => new InputStage<P>(i, c.queueing, n));
  const outputs = Array.from({ length: n }, (_, o) => new OutputStage<P>(o));
  const up = new Uint8Array(n);
  const inBuf = Array.from({ length: n }, (_, i) => bufferProbe(x.probe, `${c.name}/in${i}`));
  const outBuf = Array.from({ length: n }, (_, i) => bufferProbe(x.probe, `${c.name}/out${i}`));
  const own = new OwnPackets<P>({
    host: x.host, probe: x.probe, counters: x.counters, routes, registers: regs.space, lpSerialBase: regs.lpSerialBase, outputs,
    up, ccpQueue: c.ccpQueue, tt: c.tt, noId: c.hasDeviceId ? -1 : c.deviceId, outBuf, now: () => x.now(),
    maintenanceBudget: c.maintenanceBudget,
  });
  const matcher = new Matcher(c, x.match, x.rng);
  const v = c.voq;
  const staging = v !== null && c.queueing === 'cioq-voq-backpressure' ? new VoqStaging<P>(n, c.routes, v) : null;
  const voqHost: VoqHost = {
    wanted: (port) => { x.host.voqWanted(port, x.now()); },
    timer: (at) => { x.host.voqTimer(at, x.now()); },
    event: (voqEvent, port, detail) => { x.counters.voqEvents++; x.event({ name: 'voq', voqEvent, ...(port === undefined ? {} : { port }), ...(detail === undefined ? {} : { detail }) }); },
    now: () => x.now(),
  };
  const base = regs.voqBase;
  const voq = v === null || base === undefined ? null : named(() => within('voq', () => new SwitchVoq(regs.space, base, v, n, voqHost)));
  return {
    config: c, routes, registers: regs.space, lpSerialBase: regs.lpSerialBase, inputs, outputs, up, congestion, congestionAtInputs,
    capacity: c.outputPackets, inBuf, outBuf, own, matcher, staging, voq,
  };
}
