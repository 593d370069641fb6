import { z } from 'zod';
import type { VoqSymbolForm } from '../../wire/voq-cs64.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import { DEFAULT_QUEUES, MAX_DOWNSTREAM_PORTS, MAX_DOWNSTREAM_PORTS_CS64, MAX_QUEUES, reverseMapQueue } from '../../voq/receiver-config.ts';
import { VoqReceiver } from '../../voq/receiver.ts';
import type { ReverseMap, VoqReceiverInput, VoqReceiverOutput, VoqRoute } from '../../voq/receiver-types.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter, ParseContext } from './adapter.ts';
import { bool, deviceId, expecting, int, vcCount } from './schema.ts';
import { CS64_FORMAT_MESSAGE, groupSize, portNumber, readSymbol, readSymbol64, symbolForm, vcNumber, voqFormat } from './voq-schema.ts';

/**
 * `riodp model voq-rx`: the upstream device of VoQ backpressure, src/voq/receiver-types.ts
 * (VoQ Backpressure §2.2–§2.4, §3.2, §4.3; Part 12 §3.1, §3.3 with format `part12-rev4.1`, §3.2
 * with symbol `cs64`), defaults as documented there. The receiver asks for no timers.
 */

interface ModelRxPort {
  readonly queues: number;
  readonly reverseMap: ReverseMap;
  readonly reception: boolean;
  readonly perVcStaging: boolean;
  readonly enableVcLinking: boolean;
  /** Part 12 only (Table 5-3 bits 29–31). */
  readonly rxPortGroupSize?: number;
}

export interface ModelVoqRxConfig {
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly ports: readonly ModelRxPort[];
  readonly routes: readonly VoqRoute[];
  readonly vcs: 0 | 1 | 2 | 4 | 8;
  readonly clearOnLinkUp: boolean;
}

/** §2.3 "the mapping can be RAM based for maximum flexibility ... or a straight decoder". */
const reverseMap = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('decoder') }),
  z.strictObject({ mode: z.literal('table'), table: z.array(int(0, MAX_QUEUES - 1), { error: expecting('a list of queue numbers, one per downstream port') }) }),
], { error: expecting("{mode: 'decoder'} or {mode: 'table', table: [queue, ...]}") });

const port = z.strictObject({
  queues: int(1, MAX_QUEUES).default(DEFAULT_QUEUES),
  reverseMap: reverseMap.default({ mode: 'decoder' }),
  reception: bool.default(true),
  perVcStaging: bool.default(false),
  enableVcLinking: bool.default(false),
  rxPortGroupSize: groupSize.optional(),
}, { error: expecting('a mapping {queues?, reverseMap?, reception?, perVcStaging?, enableVcLinking?, rxPortGroupSize?}') });

const route = z.strictObject({
  destID: deviceId,
  localPort: int(0),
  downstreamPort: int(0, MAX_DOWNSTREAM_PORTS_CS64 - 1),
}, { error: expecting('a route {destID, localPort, downstreamPort}') });

type Ctx = z.core.$RefinementCtx;
type PortIn = z.infer<typeof port>;

function refinePort(p: PortIn, n: number, format: VoqFormat, ctx: Ctx): void {
  // §3.2 "Linking only works if both upstream and downstream devices use port staging within VC structures."
  if (p.enableVcLinking && !p.perVcStaging) ctx.addIssue({ code: 'custom', path: ['ports', n, 'enableVcLinking'], message: 'expected false without perVcStaging: linking needs staging queues per VC (§3.2)' });
  if (format === 'seed' && p.rxPortGroupSize !== undefined) ctx.addIssue({ code: 'custom', path: ['ports', n, 'rxPortGroupSize'], message: 'expected no rxPortGroupSize in the seed format (Part 12 only; the seed port group is 5 bits)' });
  if (p.reverseMap.mode === 'table') {
    p.reverseMap.table.forEach((q, i) => {
      if (q >= p.queues) ctx.addIssue({ code: 'custom', path: ['ports', n, 'reverseMap', 'table', i], message: `expected a queue 0..${p.queues - 1} (queues)` });
    });
  }
}

function refineRoutes(routes: readonly VoqRoute[], ports: readonly PortIn[], symbol: VoqSymbolForm, ctx: Ctx): void {
  const seen = new Map<number, number>();
  routes.forEach((r, i) => {
    // The widest layout names 7 status bits × 64 groups in a CS48 stype2 (Part 12 §3.1), 14 × 64 in a CS64 (§3.2).
    if (symbol === 'cs48' && r.downstreamPort >= MAX_DOWNSTREAM_PORTS) ctx.addIssue({ code: 'custom', path: ['routes', i, 'downstreamPort'], message: `expected an integer 0..${MAX_DOWNSTREAM_PORTS - 1} (0..${MAX_DOWNSTREAM_PORTS_CS64 - 1} with symbol cs64)` });
    const first = seen.get(r.destID);
    if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['routes', i, 'destID'], message: `expected a destination ID not routed already (routes.${first})` });
    else seen.set(r.destID, i);
    const p = ports[r.localPort];
    if (p === undefined) {
      ctx.addIssue({ code: 'custom', path: ['routes', i, 'localPort'], message: `expected a local port 0..${ports.length - 1} (ports)` });
      return;
    }
    // §2.3 "it is reverse mapped to the same queue that the forward lookup used to stage the data".
    if (reverseMapQueue(p.reverseMap, p.queues, r.downstreamPort) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['routes', i, 'downstreamPort'], message: `expected a downstream port that ports.${r.localPort}.reverseMap.table maps to a queue (0..${(p.reverseMap as { table: readonly number[] }).table.length - 1})` });
    }
  });
}

const config = z.strictObject({
  format: voqFormat.default('seed'),
  symbol: symbolForm.default('cs48'),
  ports: z.array(port, { error: expecting('a list of local ports, port 0 first') }).min(1, { error: 'expected at least one local port' }).prefault([{}]),
  routes: z.array(route, { error: expecting('a list of routes {destID, localPort, downstreamPort}') }),
  vcs: vcCount.default(0),
  clearOnLinkUp: bool.default(true),
}).superRefine((c, ctx) => {
  if (c.symbol === 'cs64' && c.format !== 'part12-rev4.1') ctx.addIssue({ code: 'custom', path: ['symbol'], message: CS64_FORMAT_MESSAGE });
  c.ports.forEach((p, n) => {
    refinePort(p, n, c.format, ctx);
  });
  refineRoutes(c.routes, c.ports, c.symbol, ctx);
}).transform((c): ModelVoqRxConfig => ({
  format: c.format,
  symbol: c.symbol,
  ports: c.ports.map((p) => {
    const { rxPortGroupSize, ...rest } = p;
    return c.format === 'seed' ? rest : { ...rest, rxPortGroupSize: rxPortGroupSize ?? 0 };
  }),
  routes: c.routes,
  vcs: c.vcs,
  clearOnLinkUp: c.clearOnLinkUp,
}));

const onPort = { port: portNumber };

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('symbol'), ...onPort, symbol: z.unknown() }),
  z.strictObject({ kind: z.literal('stype2'), ...onPort, stype2: int(0, 0x3fff), vc: vcNumber.optional() }),
  z.strictObject({ kind: z.literal('cs64'), ...onPort, symbol: z.unknown() }),
  z.strictObject({ kind: z.literal('packet'), destID: deviceId, vc: vcNumber.optional(), packetId: z.union([int(0), z.string()], { error: expecting('a packet ID, a non-negative integer or a string') }) }),
  z.strictObject({ kind: z.literal('transmit-opportunity'), ...onPort }),
  z.strictObject({ kind: z.literal('link-down'), ...onPort }),
  z.strictObject({ kind: z.literal('link-up'), ...onPort }),
  z.strictObject({ kind: z.literal('control'), ...onPort, enableVcLinking: bool.optional(), rxPortGroupSize: groupSize.optional() }),
]);
type Line = z.infer<typeof input>;

function toInput(d: Line, ctx: ParseContext<ModelVoqRxConfig>): VoqReceiverInput {
  const { format, ports } = ctx.config;
  switch (d.kind) {
    case 'symbol': {
      // The engine decodes stype2 itself with the port's current RX Port Group Size; the configured one reads the JSON `voq` labels.
      const groupBits = ports[d.port]?.rxPortGroupSize ?? 0;
      return { kind: d.kind, port: d.port, symbol: readSymbol(d.symbol, 'symbol', { format, groupSize: groupBits, lenient: ctx.lenient }) };
    }
    case 'stype2':
      return { kind: d.kind, port: d.port, stype2: d.stype2, ...(d.vc === undefined ? {} : { vc: d.vc }) };
    case 'cs64':
      // As a CS48: the engine reads parameter0‖parameter1 itself with the port's current RX Port Group Size.
      return { kind: d.kind, port: d.port, symbol: readSymbol64(d.symbol, 'symbol', { groupSize: ports[d.port]?.rxPortGroupSize ?? 0, lenient: ctx.lenient }) };
    case 'packet':
      return { kind: d.kind, destID: d.destID, packetId: d.packetId, ...(d.vc === undefined ? {} : { vc: d.vc }) };
    case 'control':
      return {
        kind: d.kind,
        port: d.port,
        ...(d.enableVcLinking === undefined ? {} : { enableVcLinking: d.enableVcLinking }),
        ...(d.rxPortGroupSize === undefined ? {} : { rxPortGroupSize: d.rxPortGroupSize }),
      };
    case 'transmit-opportunity':
    case 'link-down':
    case 'link-up':
      return d;
  }
}

export const voqRxAdapter: EngineAdapter<ModelVoqRxConfig, VoqReceiverInput, VoqReceiverOutput> = defineAdapter({
  name: 'voq-rx',
  fields: [
    { name: 'format', type: "'seed' | 'part12-rev4.1'", default: 'seed', meaning: 'stype2 format (DECISIONS §5) the received symbols are read in' },
    { name: 'symbol', type: "'cs48' | 'cs64'", default: 'cs48', meaning: 'the control symbol the links carry VoQ messages in (Part 12 Chapter 3, §4.1 d): cs48 (symbol, stype2 lines) or cs64, part12-rev4.1 only (cs64 lines: VC_IND(4)|status(20-G)|group(G), §3.2)' },
    { name: 'ports', type: 'list of {queues?, reverseMap?, reception?, perVcStaging?, enableVcLinking?, rxPortGroupSize?}', default: '[{}]: one port, {"queues":4,"reverseMap":{"mode":"decoder"},"reception":true,"perVcStaging":false,"enableVcLinking":false}, rxPortGroupSize 0 in part12-rev4.1', meaning: 'the local egress ports: staging queues (1..256), downstream port → queue (§2.3: decoder p mod queues, or a table), Table 5-3 reception support (bit 1), staging per VC (§2.4), Enable VC linking (bit 11), Part 12 RX Port Group Size (bits 29-31)' },
    { name: 'routes', type: 'list of {destID, localPort, downstreamPort (0..447; 0..895 with symbol cs64)}', default: 'required', meaning: '§2.2 the forward lookup: "the egress port for the current device as well as the egress port for the next device"; destIDs unique' },
    { name: 'vcs', type: '0 | 1 | 2 | 4 | 8', default: '0', meaning: 'VCs besides VC0 the links run (Part 6); a VC_Status VCID is read by Part 6 Table 3-12' },
    { name: 'clearOnLinkUp', type: 'boolean', default: 'true', meaning: '§4.2 g: the generator need not resend after link recovery, so a link-up clears the port\'s recorded congestion' },
  ],
  kinds: [
    { kind: 'symbol', fields: 'port, symbol (CS48 hex or decode --layer symbol --json object; a CS24 is reported)', meaning: 'a control symbol received on a local port; its stype2 is read with the port\'s RX Port Group Size' },
    { kind: 'stype2', fields: 'port, stype2 (0..16383), vc? (the VC of its Status/VC_Status carrier)', meaning: 'a bare stype2 field received on a local port' },
    { kind: 'cs64', fields: 'port, symbol (CS64 hex or decode --layer symbol --link cs64 --json object)', meaning: 'symbol cs64: a Control Symbol 64 received on a local port; a VoQ-backpressure one (stype0 0b1101) is read with the port\'s RX Port Group Size, its VC_IND naming the VC (Part 12 §3.2, §3.3)' },
    { kind: 'packet', fields: 'destID, vc? (0..8), packetId (integer or string)', meaning: 'a packet to stage: the forward lookup picks local port, downstream port and queue' },
    { kind: 'transmit-opportunity', fields: 'port', meaning: 'the link may take one packet now: transmit, or event idle' },
    { kind: 'link-down', fields: 'port', meaning: 'the port\'s link went down: opportunities commit nothing' },
    { kind: 'link-up', fields: 'port', meaning: 'the link came up (clearOnLinkUp: its recorded congestion is cleared)' },
    { kind: 'control', fields: 'port, enableVcLinking?, rxPortGroupSize? (0..6)', meaning: 'a write of the port\'s VoQ Control CSR bits 11 and 29-31 (Table 5-3)' },
  ],
  config,
  input,
  engine: VoqReceiver,
  toInput,
  // The receiver arms no timers (receiver.ts: `now` only stamps staged packets).
  timer: () => undefined,
});
