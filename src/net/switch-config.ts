/**
 * The configuration file of `riodp switch` (issue 8 §1, docs/fabric-switch.md): YAML, checked
 * with zod, mapped to the `SwitchElementConfig` of the switch processing element and to one TCP
 * listener per switch port. Every problem is collected before refusing, one "path: expectation"
 * line each (src/config/issues.ts), so that a user fixes a file in one go.
 */
import { z } from 'zod';
import { ConfigError } from '../config/issues.ts';
import type { Issue } from '../config/issues.ts';
import { checkSchema, loadConfigFile } from '../config/load.ts';
import { readNamedFile } from '../config/yaml-input.ts';
import { DEFAULT_OUTPUT_PACKETS, isInputQueued } from '../node/switch/config.ts';
import { SwitchElement } from '../node/switch/element.ts';
import { checkSwitchSettings, switchSettingsConfig, switchSettingsShape } from '../node/switch/schema.ts';
import { dispatch, expecting, int, oneOf } from '../config/zod-parts.ts';
import type { SwitchElementConfig, SwitchPortConfig } from '../node/switch/element.ts';
import { MAX_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE } from '../wire/frame-reader.ts';
import { DEFAULT_KEEPALIVE_MS } from './keepalive.ts';
import { LOG_LEVELS } from './log.ts';
import type { LogLevel } from './log.ts';
import { checkSecurity } from './security.ts';
import type { TlsConfig } from './security.ts';

/**
 * `riodp switch`'s maintenance budget per port when the file gives none: 10 000 requests a second
 * (one every 100 µs, in ns), 64 at once (docs/fabric-switch.md "Fair share").
 */
export const FABRIC_MAINTENANCE_BUDGET = { burst: 64, interval: 100_000 } as const;

/** Frames each input port may deliver per round of the fair share (src/net/input-share.ts) when the file gives none. */
export const DEFAULT_FAIR_QUANTUM = 64;

/** The fair share between the input ports (src/net/input-share.ts). */
export interface FairShareSetting {
  /** Frames each port may deliver per round. */
  readonly quantum: number;
}

/** Where a switch port listens for its link. */
export interface SwitchListenSetting {
  readonly host: string;
  /** 0: an ephemeral port (tests); `RunningSwitch.addresses` tells which. */
  readonly port: number;
}

/** A switch port with a listener. */
export interface SwitchPortSetting {
  /** The switch port (the element's port number, Part 1 Table 5-8 PortNumber). */
  readonly port: number;
  readonly listen: SwitchListenSetting;
}

/** A checked configuration: what `startSwitch` runs. */
export interface SwitchProcessConfig {
  readonly element: SwitchElementConfig;
  /** The ports that have a listener; a port of the element not listed here is never up. */
  readonly ports: readonly SwitchPortSetting[];
  readonly tls?: TlsConfig;
  readonly maxFrameSize?: number;
  /** Status symbol on an idle link after this many ms (keepalive.ts); 0 sends none. */
  readonly keepaliveMs?: number;
  /** Null: off (each link is read as fast as it delivers). */
  readonly fairShare: FairShareSetting | null;
  readonly log: LogLevel;
}

/**
 * A configuration that cannot be used: one "path: expectation" line per problem.
 *
 * @example
 * ```ts
 * import { SwitchConfigError, parseSwitchConfig } from 'riodp/net';
 *
 * try {
 *   parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { host: '0.0.0.0', port: 4000 } }], routes: { 2: 1 } }); // e.g. a YAML file's contents
 * } catch (e) {
 *   if (!(e instanceof SwitchConfigError)) throw e;
 *   for (const i of e.issues) console.log(`${i.path}: ${i.message}`); // every problem, one line each:
 *   // routes.2: expected a listed port (0)
 *   // ports.0.listen.host: host must be a loopback address (127.0.0.0/8 or ::1) to listen on 0.0.0.0 without tls; configure tls.psk or tls.cert
 * }
 * ```
 */
export class SwitchConfigError extends ConfigError {}
Object.defineProperty(SwitchConfigError.prototype, 'name', { value: 'SwitchConfigError', writable: true, configurable: true });

// ---- zod building blocks ------------------------------------------------------------------------

/** The element's ports are 0–254 (Part 1 Table 5-8 PortTotal: at most 255 ports). */
const switchPort = int(0, 254);
/** Dev8 and Dev16 (the element's route table widths); the width of `tt` is checked below. */
const deviceId = int(0, 0xffff);
const named = (what: string): z.ZodString => z.string({ error: expecting(what) }).min(1, { error: expecting(what) });

const listen = z.strictObject({
  host: named('an IP address').optional(),
  port: int(0, 65535),
}, { error: expecting('a mapping {host?, port}') });

const portEntry = z.strictObject({
  port: switchPort,
  listen,
  accept: dispatch<'any' | number[]>((v) => (v === 'any' ? z.literal('any') : z.array(deviceId, { error: expecting("'any' or a list of device IDs") }))).optional(),
}, { error: expecting('a mapping {port, listen, accept?}') });

const identity = z.strictObject({
  deviceIdentity: int(0, 0xffff).optional(),
  deviceVendorIdentity: int(0, 0xffff).optional(),
  deviceRev: int(0, 0xffffffff).optional(),
  assyIdentity: int(0, 0xffff).optional(),
  assyVendorIdentity: int(0, 0xffff).optional(),
  assyRev: int(0, 0xffff).optional(),
  componentTag: int(0, 0xffffffff).optional(),
}, { error: expecting('a mapping of identity fields') });

/** A PSK written in hex: YAML reads unquoted digits as a number, so the message says to quote it. */
const hexKey = z.string({ error: expecting('the key in hex, quoted') }).regex(/^([0-9a-fA-F]{2}){16,64}$/, { error: expecting('16 to 64 bytes in hex') });

const tls = z.strictObject({
  psk: z.strictObject({ identity: named('the PSK identity'), key: hexKey.optional(), keyFile: named('a file name').optional() }, { error: expecting('a mapping {identity, key | keyFile}') }).optional(),
  cert: z.strictObject({ cert: named('a PEM file name'), key: named('a PEM file name'), ca: named('a PEM file name'), serverName: named('a name').optional() }, { error: expecting('a mapping {cert, key, ca, serverName?}') }).optional(),
}, { error: expecting('a mapping {psk} or {cert}') });

const routes = z.record(z.string().regex(/^(0|[1-9]\d*)$/), switchPort, { error: expecting('a mapping destination ID → port') });

const schema = z.strictObject({
  deviceId,
  tt: z.union([z.literal(0), z.literal(1)], { error: expecting('0 (Dev8) or 1 (Dev16)') }).default(1),
  ports: z.array(portEntry, { error: expecting('a list of ports') }).min(1, { error: expecting('at least one port') }),
  routes: routes.default({}),
  defaultPort: switchPort.optional(),
  routeLimit: deviceId.optional(),
  // The switch element's settings, as a simulator scenario's `switch` writes them (durations in ns).
  ...switchSettingsShape({ duration: int(0), period: int(1) }),
  identity: identity.optional(),
  tls: tls.optional(),
  maxFrameSize: int(MIN_MAX_FRAME_SIZE, MAX_MAX_FRAME_SIZE).optional(),
  keepaliveMs: int(0, 60_000).optional(),
  fairShare: z.strictObject({ quantum: int(1, 1 << 16) }, { error: expecting('fair share settings {quantum} or null') }).nullable().default({ quantum: DEFAULT_FAIR_QUANTUM }),
  log: oneOf(LOG_LEVELS).default('info'),
}, { error: expecting('a mapping of switch settings') }).superRefine((c, ctx) => { checkSwitchSettings(c, ctx); });
type SchemaOut = z.infer<typeof schema>;

// ---- checks across fields -----------------------------------------------------------------------

/** The element's port count: one past the highest listed port, and at least 2 (Part 1 Table 5-8). */
function elementPorts(c: SchemaOut): number {
  return Math.max(2, ...c.ports.map((p) => p.port + 1));
}

function crossChecks(c: SchemaOut): Issue[] {
  const issues: Issue[] = [];
  const maxId = c.tt === 0 ? 0xff : 0xffff;
  const idIssue = (path: string, id: number): void => {
    if (id > maxId) issues.push({ path, message: `expected a device ID 0..${maxId} (tt ${c.tt})` });
  };
  idIssue('deviceId', c.deviceId);
  const listed = new Map<number, number>();
  const addresses = new Map<string, number>();
  c.ports.forEach((p, i) => {
    const first = listed.get(p.port);
    if (first !== undefined) issues.push({ path: `ports.${i}.port`, message: `port ${p.port} is already ports.${first}` });
    else listed.set(p.port, i);
    if (Array.isArray(p.accept)) p.accept.forEach((id, j) => { idIssue(`ports.${i}.accept.${j}`, id); });
    const address = `${p.listen.host ?? '127.0.0.1'}:${p.listen.port}`;
    const other = addresses.get(address);
    if (p.listen.port !== 0 && other !== undefined) issues.push({ path: `ports.${i}.listen`, message: `${address} is already the address of ports.${other}` });
    else addresses.set(address, i);
  });
  const names = [...listed.keys()].sort((a, b) => a - b).join(', ');
  const portIssue = (path: string, port: number): void => {
    if (!listed.has(port)) issues.push({ path, message: `expected a listed port (${names})` });
  };
  for (const [id, port] of Object.entries(c.routes)) {
    idIssue(`routes.${id}`, Number(id));
    portIssue(`routes.${id}`, port);
  }
  if (c.defaultPort !== undefined) portIssue('defaultPort', c.defaultPort);
  if (c.routeLimit !== undefined) idIssue('routeLimit', c.routeLimit);
  c.voq?.generate?.forEach((p, i) => { portIssue(`voq.generate.${i}`, p); });
  const n = elementPorts(c);
  if (Array.isArray(c.congestion) && c.congestion.length !== n) {
    issues.push({ path: 'congestion', message: `expected one setting for every port or a list of ${n} (ports 0..${n - 1})` });
  }
  return issues;
}

/** zod types an absent optional field as `undefined`; the element's types leave it out. */
type Defined<T> = { [K in keyof T]: Exclude<T[K], undefined> };
function defined<T extends object>(o: T): Defined<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Defined<T>;
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

/** Reads the key and certificate files, named relative to the configuration file's folder. */
function resolveTls(t: NonNullable<SchemaOut['tls']>, baseDir: string, issues: Issue[]): TlsConfig | undefined {
  const read = (path: string, file: string): Buffer | undefined => readNamedFile(baseDir, file, path, issues);
  if ((t.psk === undefined) === (t.cert === undefined)) {
    issues.push({ path: 'tls', message: 'expected exactly one of psk, cert' });
    return undefined;
  }
  if (t.psk !== undefined) {
    const { identity, key, keyFile } = t.psk;
    if ((key === undefined) === (keyFile === undefined)) {
      issues.push({ path: 'tls.psk', message: 'expected exactly one of key (hex), keyFile' });
      return undefined;
    }
    if (key !== undefined) return { psk: { identity, key: hexBytes(key) } };
    const bytes = read('tls.psk.keyFile', keyFile as string);
    if (bytes === undefined) return undefined;
    // The file holds the key in hex, as `openssl rand -hex 32` writes it.
    const hex = bytes.toString('utf8').replace(/\s+/g, '');
    const r = hexKey.safeParse(hex);
    if (!r.success) {
      issues.push({ path: 'tls.psk.keyFile', message: `${keyFile as string}: expected 16 to 64 bytes in hex` });
      return undefined;
    }
    return { psk: { identity, key: hexBytes(r.data) } };
  }
  const c = t.cert as NonNullable<typeof t.cert>;
  const cert = read('tls.cert.cert', c.cert);
  const key = read('tls.cert.key', c.key);
  const ca = read('tls.cert.ca', c.ca);
  if (cert === undefined || key === undefined || ca === undefined) return undefined;
  return { cert: { cert, key, ca, ...(c.serverName === undefined ? {} : { serverName: c.serverName }) } };
}

function toElement(c: SchemaOut): SwitchElementConfig {
  const n = elementPorts(c);
  const portConfig: SwitchPortConfig[] = Array.from({ length: n }, () => ({}));
  for (const p of c.ports) if (p.accept !== undefined) portConfig[p.port] = { accept: p.accept };
  const cfg: { -readonly [K in keyof SwitchElementConfig]: SwitchElementConfig[K] } = {
    deviceId: c.deviceId,
    tt: c.tt,
    ports: n,
    routes: Object.fromEntries(Object.entries(c.routes).map(([id, port]) => [Number(id), port])),
    portConfig,
  };
  if (c.defaultPort !== undefined) cfg.defaultPort = c.defaultPort;
  if (c.routeLimit !== undefined) cfg.routeLimit = c.routeLimit;
  Object.assign(cfg, switchSettingsConfig(c));
  // TCP links carry no credits to keep places for the higher priorities (Part 6 §6.12 rule 4):
  // the output buffer keeps them, 1 per priority unless the file says (decision NS1).
  const out = cfg.outputBuffer;
  const packets = out?.packets ?? DEFAULT_OUTPUT_PACKETS;
  if (out?.reservePerPriority === undefined && !isInputQueued(c.queueing ?? 'output-queued')) cfg.outputBuffer = { packets, reservePerPriority: packets > 3 ? 1 : 0 };
  // A peer on a TCP port can send requests for the switch far faster than it needs answers: each
  // port gets a budget unless the file says (null: none; decision SW9). The element has none.
  if (c.maintenanceBudget === undefined) cfg.maintenanceBudget = FABRIC_MAINTENANCE_BUDGET;
  if (c.identity !== undefined) cfg.identity = defined(c.identity);
  return cfg;
}

/**
 * Checks a configuration already read (a YAML or JSON value); file names in `tls` are relative to
 * `baseDir` (default: the working directory). Throws a SwitchConfigError listing every problem.
 *
 * @example
 * ```ts
 * import { parseSwitchConfig } from 'riodp/net';
 *
 * // The object form of an `riodp switch` YAML file: 2 ports, each accepting only its end point's source ID.
 * const config = parseSwitchConfig({
 *   deviceId: 0x50,
 *   ports: [{ port: 0, listen: { port: 4000 }, accept: [1] }, { port: 1, listen: { port: 4001 }, accept: [2] }],
 *   routes: { 1: 0, 2: 1 },
 *   congestion: { highWatermark: 16, lowWatermark: 8 }, // a Part 9 congestion point on every output
 * });
 * console.log(config.ports[1]);                          // { port: 1, listen: { host: '127.0.0.1', port: 4001 } }
 * console.log(config.element.tt, config.element.outputBuffer); // 1 { packets: 32, reservePerPriority: 1 }: the fabric's defaults
 * ```
 */
export function parseSwitchConfig(value: unknown, opts: { readonly baseDir?: string } = {}): SwitchProcessConfig {
  const c = checkSchema(schema, value ?? {}, { invalidKey: 'expected a destination ID in decimal digits as the key', error: SwitchConfigError });
  const issues = crossChecks(c);
  const tlsConfig = c.tls === undefined ? undefined : resolveTls(c.tls, opts.baseDir ?? process.cwd(), issues);
  c.ports.forEach((p, i) => {
    // issue 8 §3 "Listen on loopback by default. Any other address requires TLS": security.ts's own message.
    if (c.tls !== undefined && tlsConfig === undefined) return;
    try {
      checkSecurity(p.listen.host, tlsConfig, 'listen');
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      issues.push({ path: `ports.${i}.listen.host`, message: e.message });
    }
  });
  if (issues.length > 0) throw new SwitchConfigError(issues);
  const element = toElement(c);
  try {
    // The element's own checks beyond the schema's (a congestion point's engine settings, ports a list names).
    new SwitchElement(element);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new SwitchConfigError([{ path: '', message: e.message }]);
  }
  return {
    element,
    ports: c.ports.map((p) => ({ port: p.port, listen: { host: p.listen.host ?? '127.0.0.1', port: p.listen.port } })),
    ...(tlsConfig === undefined ? {} : { tls: tlsConfig }),
    ...(c.maxFrameSize === undefined ? {} : { maxFrameSize: c.maxFrameSize }),
    keepaliveMs: c.keepaliveMs ?? DEFAULT_KEEPALIVE_MS,
    fairShare: c.fairShare,
    log: c.log,
  };
}

/**
 * Reads and checks a YAML (or JSON) configuration file.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadSwitchConfig } from 'riodp/net';
 *
 * const file = join(mkdtempSync(join(tmpdir(), 'riodp-')), 'switch.yaml');
 * writeFileSync(file, `
 * deviceId: 0x50
 * ports:
 *   - { port: 0, listen: { port: 4000 }, accept: [1] }
 *   - { port: 1, listen: { port: 4001 }, accept: [2] }
 * routes: { 1: 0, 2: 1 }
 * `);
 * const config = loadSwitchConfig(file); // what `riodp switch --config switch.yaml` runs
 * console.log(config.ports.map((p) => `${p.port} ${p.listen.host}:${p.listen.port}`)); // [ '0 127.0.0.1:4000', '1 127.0.0.1:4001' ]
 * ```
 */
export function loadSwitchConfig(path: string): SwitchProcessConfig {
  return loadConfigFile(path, (value, baseDir) => parseSwitchConfig(value, { baseDir }), SwitchConfigError);
}
