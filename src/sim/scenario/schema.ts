import { z } from 'zod';
import { ccpShape } from '../../node/endpoint/ccp-schema.ts';
import { checkSwitchSettings, switchSettingsShape } from '../../node/switch/schema.ts';
import { arbitrationSettings } from './schema-arbitration.ts';
import { bool, dispatch, expecting, int, oneOf, real, text } from '../../config/zod-parts.ts';
import { baud, encoding, lanes, linkChanges, symbolForm } from './schema-link.ts';
import { hostIds, size, time } from './schema-parts.ts';
import { FIXED_PATTERNS, isFixedPattern } from '../traffic/permutations.ts';
import { reassemblySettings } from './schema-reassembly.ts';
import { sessionSettings } from './schema-session.ts';
import { switchOverrides } from './schema-switches.ts';
import { tmSettings } from './schema-tm.ts';

/**
 * The scenario file (issue 7 §3 "YAML files validated with zod; an invalid file is refused with
 * the path of each bad field and what was expected"). docs/simulator.md lists every field with its
 * default. Times are integer ps after parsing (units.ts), sizes integer bytes.
 */

/** Issue 7 §2 "Links: lane count, baud rate with 8b/10b or 64b/67b efficiency, propagation delay". Default 4x 3.125 Gbaud 8b/10b (10 Gbit/s), no delay. */
const link = z.strictObject({
  lanes: lanes.default(4),
  baud: baud.default(3.125),
  encoding: encoding.default('8b10b'),
  propagation: time().default(0),
  symbol: symbolForm.optional(),
}, { error: expecting('a link: {lanes, baud, encoding, propagation, symbol}') });

/** Changes to the links whose name matches `match` (a name, or a pattern with `*`: "h*", "leaf0:*"). Later entries win. */
const linkOverride = z.strictObject({ match: text, ...linkChanges }, { error: expecting('a link override: {match, lanes?, baud?, encoding?, propagation?, symbol?}') });

/** An end point's receive buffers (RxBufferSpec). */
const buffers = z.strictObject({
  packets: int(1, 1 << 20).default(8),
  reservePerPriority: int(0).default(1),
}, { error: expecting('buffers: {packets, reservePerPriority}') }).refine((b) => 3 * b.reservePerPriority < b.packets, {
  path: ['reservePerPriority'],
  error: 'expected fewer than packets / 3 buffers (Part 6 §5: three priorities keep that many each)',
});

/** The switch element's settings (src/node/switch/schema.ts), with the simulator's crossbar timing. */
const sw = z.strictObject({
  ...switchSettingsShape({ duration: time(), period: time(1) }),
  speedup: real(1, 1024, 'a crossbar speedup from 1 to 1024').default(1),
  slot: z.union([time(1), z.null()]).default(null),
}, { error: expecting('switch settings') }).superRefine((s, ctx) => { checkSwitchSettings(s, ctx); });

/** endpoints.ccp: the fields of every host's `ccp` section (src/node/endpoint/ccp-schema.ts); the orphan period defaults to 1 ms in ps. */
const ccp = z.strictObject(ccpShape(time(1)), { error: expecting('false or CCP settings {orphanPeriod, counterBits}') })
  .transform(({ orphanPeriod, counterBits }) => ({ orphanPeriod: orphanPeriod ?? 1_000_000_000, ...(counterBits === undefined ? {} : { counterBits }) }));

/**
 * An end point feature that `null` switches off, like absence. Variants merge `null` as a value
 * (merge.ts), so this is how a variant removes session management, flow arbitration or traffic
 * management that its base scenario turns on.
 */
function off<T extends z.ZodType>(settings: T): z.ZodPreprocess<z.ZodOptional<T>> {
  return z.preprocess((v) => (v === null ? undefined : v), settings.optional());
}

const mtuWhat = 'an MTU in bytes, a multiple of 4 from 32 to 256';
const endpoints = z.strictObject({
  buffers: buffers.default({ packets: 8, reservePerPriority: 1 }),
  serviceTime: time().default(0),
  sar: bool.default(false),
  mtu: int(1, 256).default(256),
  sarMtu: int(32, 256).refine((v) => v % 4 === 0, { error: expecting(mtuWhat) }).default(256),
  queuePdus: int(1).default(64),
  sourceQueue: oneOf(['per-destination', 'fifo']).optional(),
  crfSupported: bool.default(true),
  // A bad field inside the settings is reported by its path, not as the union's one message.
  ccp: dispatch<false | z.output<typeof ccp>>((v) => (v === false ? z.literal(false) : ccp)).default({ orphanPeriod: 1_000_000_000 }),
  arbitration: off(arbitrationSettings),
  tm: off(tmSettings),
  session: off(sessionSettings),
  reassembly: reassemblySettings.optional(),
}, { error: expecting('end point settings') });

const sizes = z.union([
  z.strictObject({ min: size(), max: size() }),
  z.array(z.strictObject({ bytes: size(), weight: real(Number.MIN_VALUE, Number.MAX_VALUE, 'a positive weight') })).min(1),
  size(),
], { error: expecting('a size ("256B"), {min, max}, or a list of {bytes, weight}') });

export const PATTERNS = ['uniform', 'hotspot', 'permutation', 'incast', 'onoff', ...FIXED_PATTERNS] as const;

/** One traffic entry: a pattern applied to each of its sources. */
const traffic = z.strictObject({
  group: text.optional(),
  pattern: oneOf(PATTERNS),
  load: real(0, 64, 'an offered load per source, a fraction of its link (0 … 1)'),
  sizes: sizes.default(256),
  prio: int(0, 2).default(0),
  crf: int(0, 1).default(0),
  sources: hostIds.optional(),
  destinations: hostIds.optional(),
  hotspot: int(0).optional(),
  h: real(0, 1, 'a fraction 0..1').optional(),
  sink: int(0).optional(),
  arrival: oneOf(['bernoulli', 'poisson', 'onoff']).optional(),
  meanBurst: real(1, 1e9, 'a mean burst of at least 1 PDU').default(8),
  peak: real(Number.MIN_VALUE, 1, 'a peak load above 0, at most 1').default(1),
  start: time().optional(),
  stop: time().optional(),
}, { error: expecting('a traffic entry {pattern, load, …}') }).superRefine((t, ctx) => {
  if (t.pattern === 'hotspot') {
    if (t.hotspot === undefined) ctx.addIssue({ code: 'custom', path: ['hotspot'], message: 'missing, expected the hotspot host ID' });
    if (t.h === undefined) ctx.addIssue({ code: 'custom', path: ['h'], message: 'missing, expected the hotspot fraction h 0..1' });
  }
  if (t.pattern === 'incast' && t.sink === undefined) ctx.addIssue({ code: 'custom', path: ['sink'], message: 'missing, expected the incast sink host ID' });
  // Issue 21: a synthetic permutation fixes each source's destination; a list would be ignored.
  if (isFixedPattern(t.pattern) && t.destinations !== undefined) ctx.addIssue({ code: 'custom', path: ['destinations'], message: `not allowed with pattern ${t.pattern}: each source's destination is fixed by the pattern` });
  const arrival = t.arrival ?? (t.pattern === 'onoff' ? 'onoff' : 'bernoulli');
  if (arrival !== 'poisson' && t.load > 1) ctx.addIssue({ code: 'custom', path: ['load'], message: `expected a fraction 0..1 with ${arrival} arrivals` });
  if (arrival === 'onoff' && t.load > t.peak) ctx.addIssue({ code: 'custom', path: ['load'], message: 'expected at most peak with on/off arrivals' });
  if (t.start !== undefined && t.stop !== undefined && t.stop <= t.start) ctx.addIssue({ code: 'custom', path: ['stop'], message: 'expected a time after start' });
});

const topology = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('switch'), hosts: int(2, 192) }),
  z.strictObject({ kind: z.literal('leaf-spine'), leaves: int(1, 192), spines: int(1, 192), hostsPerLeaf: int(1, 192) }),
  z.strictObject({ kind: z.literal('butterfly'), k: int(2, 64), n: int(1, 16) }),
  z.strictObject({ kind: z.literal('ring'), switches: int(2, 4096), hostsPerSwitch: int(1, 190) }),
  z.strictObject({ kind: z.literal('mesh'), width: int(1, 4096), height: int(1, 4096), hostsPerSwitch: int(1, 188) }),
], { error: expecting('a topology {kind: switch | leaf-spine | butterfly | ring | mesh, …}') });

// What a run's results hold (issue 20): at 1024 end points and more, per-flow rows and every
// buffer's series are most of the results and of the run's memory.
const output = z.strictObject({
  dir: text.optional(),
  sampleInterval: time(1).optional(),
  flows: oneOf(['all', 'none']).optional(),
  occupancy: oneOf(['all', 'top', 'none']).optional(),
}, { error: expecting('output settings {dir, sampleInterval, flows, occupancy}') });

/** The scenario without its variants: what one run simulates. */
export const runSchema = z.strictObject({
  name: text,
  description: z.string({ error: expecting('a string') }).optional(),
  seed: int(0, 0xffffffff).default(1),
  replications: int(1, 10_000).optional(),
  duration: time(1),
  warmup: time().default(0),
  tt: z.union([z.literal(0), z.literal(1)], { error: expecting('a tt 0 (Dev8) or 1 (Dev16)') }).optional(),
  topology,
  link: link.default({ lanes: 4, baud: 3.125, encoding: '8b10b', propagation: 0 }),
  linkOverrides: z.array(linkOverride, { error: expecting('a list of link overrides') }).default([]),
  switch: sw.default({ speedup: 1, slot: null }),
  switches: switchOverrides.optional(),
  endpoints: endpoints.default({
    buffers: { packets: 8, reservePerPriority: 1 }, serviceTime: 0, sar: false, mtu: 256, sarMtu: 256, queuePdus: 64, crfSupported: true, ccp: { orphanPeriod: 1_000_000_000 },
  }),
  traffic: z.array(traffic, { error: expecting('a list of traffic entries') }).min(1, { error: expecting('at least one traffic entry') }),
  output: output.default({}),
}, { error: expecting('a scenario mapping') }).superRefine((s, ctx) => {
  if (s.warmup >= s.duration) ctx.addIssue({ code: 'custom', path: ['warmup'], message: 'expected a time before duration' });
});

/** One entry of `variants`: the base scenario deep-merged with `overrides` (scenario/merge.ts). */
export const variantSchema = z.strictObject({
  name: text,
  overrides: z.record(z.string(), z.unknown(), { error: expecting('a mapping of scenario fields') }).default({}),
}, { error: expecting('a variant {name, overrides}') });

/** A scenario's run configuration, checked and with defaults (docs/simulator.md). */
export type RunConfig = z.output<typeof runSchema>;
/** One traffic source of `RunConfig.traffic`. */
export type TrafficEntry = RunConfig['traffic'][number];
/** The `topology` of a run. */
export type TopologyConfig = RunConfig['topology'];
/** The `switch` settings of a run, shared by every switch. */
export type SwitchSettings = RunConfig['switch'];
/** The `endpoints` settings of a run, shared by every end point. */
export type EndpointSettings = RunConfig['endpoints'];
/** The `link` settings of a run, shared by every link. */
export type LinkSettings = RunConfig['link'];
/** Settings of chosen links (`linkOverrides`). */
export type LinkOverride = RunConfig['linkOverrides'][number];
