/**
 * The configuration of an end point process (`riodp endpoint --config endpoint.yaml`, issue 8 §1):
 * a YAML file (or the same object in TypeScript) checked with zod, one "path: expectation" line
 * per bad field (src/config/issues.ts), resolved into what `startEndpoint` takes: the
 * sans-IO end point's configuration, the switch address and the process's own settings.
 *
 * Engine durations are integer nanoseconds (the TCP fabric's time unit, src/net/clock.ts);
 * process settings that are host timeouts end in `Ms`. The engines check their own fields when
 * the process builds them and name the field the same way (`session.retryPeriod must be …`).
 * The schema, what the file may say, is endpoint-config-schema.ts.
 */
import type { z } from 'zod';
import { ConfigError } from '../config/issues.ts';
import type { Issue } from '../config/issues.ts';
import { checkSchema, loadConfigFile } from '../config/load.ts';
import { readNamedFile } from '../config/yaml-input.ts';
import type { ProtocolSupport } from '../session/types.ts';
import { attrProtocolName, attrVendor } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import type { ConnectOptions } from './connect.ts';
import type { FabricEndpointConfig } from './endpoint-engine.ts';
import { endpointConfigSchema } from './endpoint-config-schema.ts';
import { FILE_TRANSFER_SUPPORT } from './api-file-format.ts';
import { DEFAULT_KEEPALIVE_MS } from './keepalive.ts';
import type { LogLevel } from './log.ts';
import { DEFAULT_HOST, checkSecurity } from './security.ts';
import type { TlsConfig } from './security.ts';
import type { FabricTmConfig } from '../node/endpoint/tm-config.ts';
import { partialPolicy } from '../node/endpoint/tm-schema.ts';
import type { FabricArbitrationConfig } from '../node/endpoint/session-features.ts';
import { withoutUndefined } from '../config/zod-parts.ts';

/** The API layer's bounds (api.ts): what a stream may hold on each side. */
export interface ApiSettings {
  /** PDUs of one stream handed to the engine and not yet segmented; `send` waits beyond. Default 4. */
  readonly sendWindow: number;
  /** PDUs received and not yet read at which the stream is turned off (FLOW_CONTROL XOFF). Default 16. */
  readonly rxHigh: number;
  /** ... and at or below which it is turned on again (XON). Default 4. */
  readonly rxLow: number;
  /**
   * PDUs received and not yet read at which the end point stops taking packets from its link
   * until the application reads (api-streams.ts): what was in flight after the XOFF waits in the
   * fabric, not lost. Default 64.
   */
  readonly rxLimit: number;
  /**
   * How long the link waits for the application to read a stream at `rxLimit`; then that
   * stream's PDUs beyond `rxLimit` are dropped and counted (`rxDropped`) until it reads again,
   * and the link goes on. Default 2000 ms.
   */
  readonly rxStallMs: number;
  /**
   * Every this long, a node with open streams from which nothing was heard during the period is
   * verified with STATUS queries (Annex 2 §3.8.3); one that does not answer has its streams closed and is
   * suspect (§3.7.1). null: never (decision EA18, api-liveness.ts). Default 10 000 ms.
   */
  readonly verifyIdleMs: number | null;
  /**
   * Every this long, a node with open streams from which nothing was heard is checked at the
   * switch: the port its route leaves by and that port's Error and Status CSR (Part 6 §7.6.10).
   * Port Uninitialized: the node's link is down, its streams close at once (cause 'peer-lost');
   * Port OK: it is alive, maybe stopped, and is waited for. null: never (decision FF4,
   * api-port-check.ts). Default 1000 ms.
   */
  readonly peerCheckMs: number | null;
  /** How long `readRegister` waits for the MAINTENANCE response. Default 1000 ms. */
  readonly readTimeoutMs: number;
}

/** Connecting to the switch: the first attempt, and again after the link went down. */
export interface RetrySettings {
  /** `startEndpoint` rejects when no link is up this long after it was called. Default 10 000 ms. */
  readonly timeoutMs: number;
  /** Delay before the first retry, doubled after each failure up to `maxMs`. Default 100 ms. */
  readonly firstMs: number;
  readonly maxMs: number;
}

/** A checked end point configuration: what `startEndpoint` runs (`endpointConfig`, `loadEndpointConfig`). */
export interface EndpointProcessConfig {
  readonly engine: FabricEndpointConfig;
  /** The switch port this end point's link goes to, with the link's own options. */
  readonly switch: ConnectOptions;
  readonly retry: RetrySettings;
  /** Unix domain socket of the control channel (control-server.ts), served by the process once its link is up; null: none. */
  readonly control: string | null;
  readonly log: LogLevel;
  readonly api: ApiSettings;
  /**
   * The switch's link silent this long (no frame, not even its keepalive) stops the end point's
   * clock until it is heard again (peer-clock.ts); null never does. Default 500 ms.
   */
  readonly silenceMs?: number | null;
  /**
   * The fast lane (issue 17): whether the end point writes its Type 9 segments straight into the
   * link's send batch when nothing else may go first (docs/fast-lane.md §10) and reassembles
   * received Type 9 frames from the link's frame batch (§8); false: every packet is pulled as an
   * object and encoded, and every received packet decoded. Default true.
   */
  readonly fastLane?: boolean;
}

/**
 * A configuration that cannot be used: every problem found, one "path: expectation" line each.
 *
 * @example
 * ```ts
 * import { EndpointConfigError, endpointConfig } from 'riodp/net';
 *
 * try {
 *   endpointConfig({ nodeId: 70000, switch: { host: '127.0.0.1' }, conveyances: ['type10'] }); // e.g. a YAML file's contents
 * } catch (e) {
 *   if (!(e instanceof EndpointConfigError)) throw e;
 *   for (const i of e.issues) console.log(`${i.path}: ${i.message}`); // every problem, one line each:
 *   // nodeId: expected an integer 0..65535
 *   // switch.port: missing, expected an integer 1..65535
 *   // conveyances.0: expected type9 or type11
 * }
 * ```
 */
export class EndpointConfigError extends ConfigError {}
Object.defineProperty(EndpointConfigError.prototype, 'name', { value: 'EndpointConfigError', writable: true, configurable: true });

export { endpointConfigSchema };
export type { EndpointConfigInput } from './endpoint-config-schema.ts';
type Parsed = z.output<typeof endpointConfigSchema>;

// ---- Defaults ----------------------------------------------------------------------------------

/** Annex 2 Table 3-1: 0xE000–0xFFFE are not assigned to opened streams, so a management stream lives there. */
export const DEFAULT_MANAGEMENT_STREAM = 0xfff0;
/**
 * Part 10 §3.2.5 "a time-out as part of the lost packet detection mechanism": 8 s, so that a peer
 * killed mid-PDU (issue 8 §3) leaves no reassembly context behind for long.
 */
export const DEFAULT_REASSEMBLY_IDLE_NS = 8_000_000_000;
/**
 * Discovery's MAINTENANCE reads wait 1 s in a process (the engine's 100 ms suits a simulated
 * fabric): over TCP a read queued behind megabytes of another transfer's segments is answered
 * later than 100 ms, and the peer would be reported unreachable (docs/fabric-demo.md).
 */
export const DEFAULT_DISCOVERY_READ_NS = 1_000_000_000;
export const DEFAULT_API: ApiSettings = { sendWindow: 4, rxHigh: 16, rxLow: 4, rxLimit: 64, rxStallMs: 2000, verifyIdleMs: 10_000, peerCheckMs: 1000, readTimeoutMs: 1000 };
export const DEFAULT_SILENCE_MS = 500;
export const DEFAULT_RETRY: RetrySettings = { timeoutMs: 10_000, firstMs: 100, maxMs: 5_000 };

function protocolSupport(p: Parsed['protocols'] extends (infer T)[] | undefined ? T : never): ProtocolSupport {
  const attributes: AttributeLike[] = [];
  if (p.vendor !== undefined) attributes.push(attrVendor({ oui: p.vendor }));
  if (p.name !== undefined) attributes.push(attrProtocolName(p.name));
  return {
    protoID: p.protoID,
    attributes,
    ...(p.dataHeaderFormat === undefined ? {} : { dataHeaderFormat: p.dataHeaderFormat }),
    ...(p.cos === undefined ? {} : { cos: p.cos }),
    ...(p.acceptOpen === undefined ? {} : { acceptOpen: p.acceptOpen }),
    ...(p.singleSession === undefined ? {} : { singleSession: p.singleSession }),
  };
}

/** The fields of `o` that are set (zod leaves an absent optional field undefined, which exactOptionalPropertyTypes refuses). */
type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

function dropUndefined<T extends object>(o: T | undefined): Defined<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Defined<T>;
}

function engineConfig(c: Parsed): FabricEndpointConfig {
  const m = c.management ?? {};
  const kind = m.conveyance ?? 'type9';
  const contact = kind === 'type9' ? { conveyance: kind, streamID: m.streamID ?? DEFAULT_MANAGEMENT_STREAM, cos: m.cos ?? 0 } : { conveyance: kind, mailbox: m.mailbox ?? 0 };
  const protocols = (c.protocols ?? []).map(protocolSupport);
  if (c.fileTransfer !== false) protocols.push(FILE_TRANSFER_SUPPORT);
  const d = c.discovery ?? {};
  return {
    nodeId: c.nodeId,
    tt: c.tt ?? 1,
    conveyances: c.conveyances ?? (kind === 'type9' ? ['type9', 'type11'] : ['type11', 'type9']),
    advertisement: { blocks: [{ contact }] },
    session: { protocols, ...dropUndefined(c.session) },
    discovery: {
      readTimeout: DEFAULT_DISCOVERY_READ_NS,
      ...dropUndefined({ ...d, targets: undefined, scan: undefined }),
      ...(d.targets === undefined ? {} : { targets: d.targets.map((t) => (t.hop === undefined ? { node: t.node } : { node: t.node, hop: t.hop })) }),
      ...(d.scan === undefined ? {} : { scan: d.scan.hop === undefined ? { first: d.scan.first, last: d.scan.last } : { first: d.scan.first, last: d.scan.last, hop: d.scan.hop } }),
    },
    type9: { idleTimeout: DEFAULT_REASSEMBLY_IDLE_NS, ...dropUndefined(c.type9) },
    ...(c.type11 === undefined ? {} : { type11: dropUndefined(c.type11) }),
    ...(c.ccp === undefined ? {} : { ccp: dropUndefined(c.ccp) }),
    ...(c.heldLimit === undefined ? {} : { heldLimit: c.heldLimit }),
    ...(c.tm === undefined ? {} : { tm: tmConfig(c.tm) }),
    ...(c.arbitration == null ? {} : { arbitration: withoutUndefined(c.arbitration) as FabricArbitrationConfig }),
  };
}

/** The `tm` section without the fields left out (exactOptionalPropertyTypes), nested ones too; a policy part given in part takes the rest from its defaults. */
function tmConfig(t: NonNullable<Parsed['tm']>): FabricTmConfig {
  const { policy, ...rest } = t;
  // Deeply without the undefined fields, which is what the FabricTmConfig type allows.
  return withoutUndefined({ ...rest, ...(policy === undefined ? {} : { policy: partialPolicy(policy) }) }) as FabricTmConfig;
}

function tlsConfig(t: NonNullable<Parsed['switch']['tls']>, base: string, issues: Issue[]): TlsConfig {
  if ('psk' in t) return { psk: t.psk };
  const c = t.cert;
  const read = (f: 'cert' | 'key' | 'ca'): string => readNamedFile(base, c[f], `switch.tls.cert.${f}`, issues)?.toString('utf8') ?? '';
  return { cert: { cert: read('cert'), key: read('key'), ca: read('ca'), ...(c.serverName === undefined ? {} : { serverName: c.serverName }) } };
}

/**
 * Checks a configuration and fills in the defaults. `baseDir` resolves the certificate files of
 * `switch.tls.cert` (the config file's folder). Throws EndpointConfigError.
 *
 * @example
 * ```ts
 * import { endpointConfig } from 'riodp/net';
 *
 * // The object form of an `riodp endpoint` YAML file: node 1, its link to switch port 127.0.0.1:4000.
 * const config = endpointConfig({
 *   nodeId: 1,
 *   switch: { port: 4000 },
 *   protocols: [{ protoID: 0x1234, dataHeaderFormat: 'DATA3' }],
 *   discovery: { targets: [{ node: 2 }] },
 * });
 * console.log(config.switch.host, config.switch.port, config.engine.tt, config.retry); // 127.0.0.1 4000 1 { timeoutMs: 10000, firstMs: 100, maxMs: 5000 }
 * console.log(config.engine.session.protocols.map((p) => p.protoID.toString(16))); // [ '1234', '101' ]: riodp's file-transfer protocol is on by default
 * ```
 */
export function endpointConfig(input: unknown, baseDir = process.cwd()): EndpointProcessConfig {
  const c = checkSchema(endpointConfigSchema, input, { error: EndpointConfigError });
  const issues: Issue[] = [];
  const api: ApiSettings = { ...DEFAULT_API, ...dropUndefined(c.api) };
  if (api.rxLow >= api.rxHigh) issues.push({ path: 'api.rxLow', message: `expected less than api.rxHigh (${api.rxHigh})` });
  if (api.rxLimit < api.rxHigh) issues.push({ path: 'api.rxLimit', message: `expected at least api.rxHigh (${api.rxHigh})` });
  const retry = { timeoutMs: c.connect?.timeoutMs ?? DEFAULT_RETRY.timeoutMs, firstMs: c.connect?.retryMs ?? DEFAULT_RETRY.firstMs, maxMs: c.connect?.maxRetryMs ?? DEFAULT_RETRY.maxMs };
  if (retry.maxMs < retry.firstMs) issues.push({ path: 'connect.maxRetryMs', message: `expected at least connect.retryMs (${retry.firstMs})` });
  const tls = c.switch.tls === undefined ? undefined : tlsConfig(c.switch.tls, baseDir, issues);
  const host = c.switch.host ?? DEFAULT_HOST;
  // issue 8 §3 "Any other address requires TLS": a configuration error now, not connections
  // refused one by one until connect.timeoutMs (issue 16 item 6).
  if (tls === undefined) {
    try {
      checkSecurity(host, undefined, 'connect');
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      issues.push({ path: 'switch.host', message: e.message });
    }
  }
  if (issues.length > 0) throw new EndpointConfigError(issues);
  const { silenceMs, fastLane, ...linkOpts } = c.link ?? {};
  const sw: ConnectOptions = {
    host,
    port: c.switch.port,
    ...(tls === undefined ? {} : { tls }),
    keepaliveMs: DEFAULT_KEEPALIVE_MS,
    ...dropUndefined(linkOpts),
    // fastLane false: received chunks are cut by FrameReader and every packet decoded (docs/fast-lane.md §8).
    ...(fastLane === false ? { batch: false } : {}),
  };
  return { engine: engineConfig(c), switch: sw, retry, control: c.control ?? null, log: c.log ?? 'info', api, silenceMs: silenceMs === undefined ? DEFAULT_SILENCE_MS : silenceMs, fastLane: fastLane ?? true };
}

/**
 * Reads and checks a YAML configuration file; every problem is an EndpointConfigError line.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadEndpointConfig } from 'riodp/net';
 *
 * const file = join(mkdtempSync(join(tmpdir(), 'riodp-')), 'endpoint-1.yaml');
 * writeFileSync(file, 'nodeId: 1\nswitch: { host: 127.0.0.1, port: 4000 }\ntm: { mode: BASIC }\n');
 * const config = loadEndpointConfig(file); // what `riodp endpoint --config endpoint-1.yaml` runs
 * console.log(config.engine.advertisement.blocks?.[0]?.contact, config.engine.tm); // { conveyance: 'type9', streamID: 65520, cos: 0 } { mode: 'BASIC' }
 * ```
 */
export function loadEndpointConfig(path: string): EndpointProcessConfig {
  return loadConfigFile(path, endpointConfig, EndpointConfigError);
}
