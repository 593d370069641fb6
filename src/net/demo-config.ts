/**
 * The configurations `npm run demo:fabric` writes for its switch and end points (issue 8 §4: "one
 * switch and three endpoints on loopback"), as the files `riodp switch --config` and `riodp
 * endpoint --config` read (docs/fabric-switch.md, docs/fabric-api.md §3), and the lines those
 * commands print once they run.
 *
 * Decisions (docs/fabric-demo.md):
 * - Every switch port listens on TCP port 0: the system picks free ports, the switch prints them
 *   (`port N listening on HOST:PORT`) and the end point configurations are written with them, so
 *   no port is guessed and two demos can run at once.
 * - Part 9 congestion point on every output, XOFF above `highWatermark` packets, XON at
 *   `lowWatermark`, within a 32-packet output buffer; A.1 method 2 (`threshold`: "an XOFF flow
 *   control to the source of every new transaction flow it receives as long as the watermark is
 *   exceeded"), so that every source feeding the hotspot is stopped, not only the largest flow.
 * - `ccp.orphanPeriod` of the end points is 5 s, not the 1 ms default: the orphaned-XOFF timer
 *   (Part 9 A.2) restarts a stopped flow on its own, and at 1 ms it would restart the flows long
 *   before the switch's XON, hiding the XON the demo shows.
 * - `discovery.readTimeout` is 2 s, not 100 ms: a read queued behind megabytes of another
 *   transfer's segments in the loopback sockets takes longer than 100 ms to be answered.
 * - `api.rxHigh` 64 and `rxLow` 16 (not 16 and 4): every FLOW_CONTROL XOFF stops the sender
 *   between two PDUs, and the demo kills C while it is inside one. `api.rxLimit` 128 stays above
 *   `rxHigh`, so a stream reaches it only with what was in flight after its XOFF; the end point
 *   then holds its link until `riodp recv` has written some (docs/fabric-api.md §1 Backpressure),
 *   and nothing is dropped. `api.verifyIdleMs` 5 s (not 10 s): a C killed between two PDUs is
 *   verified after 5 to 10 s of silence, within the demo's wait for B closing its streams.
 */
import { stringify } from 'yaml';

/** Switch device ID (Base Device ID CSR): the routing table's destination IDs are the end points'. */
export const DEMO_SWITCH_ID = 0x50;

export interface DemoNode {
  /** The end point's device ID. */
  readonly id: number;
  /** The switch port it is cabled to. */
  readonly port: number;
}

export interface DemoSwitchOptions {
  readonly nodes: readonly DemoNode[];
  readonly highWatermark: number;
  readonly lowWatermark: number;
}

/** The switch configuration: one port per end point, accepting only that end point's source ID (issue 8 §3). */
export function demoSwitchConfig(o: DemoSwitchOptions): Record<string, unknown> {
  return {
    deviceId: DEMO_SWITCH_ID,
    tt: 1,
    ports: o.nodes.map((n) => ({ port: n.port, listen: { host: '127.0.0.1', port: 0 }, accept: [n.id] })),
    routes: Object.fromEntries(o.nodes.map((n) => [n.id, n.port])),
    outputBuffer: { packets: 32, reservePerPriority: 1 },
    congestion: { highWatermark: o.highWatermark, lowWatermark: o.lowWatermark, policy: { kind: 'threshold' } },
    identity: { deviceIdentity: 0x0001, deviceVendorIdentity: 0x0038, componentTag: DEMO_SWITCH_ID },
    log: 'info',
  };
}

export interface DemoEndpointOptions {
  readonly id: number;
  /** TCP port of its switch port's listener. */
  readonly switchPort: number;
  readonly control: string;
  /** The other end points: discovery targets. */
  readonly peers: readonly number[];
}

export function demoEndpointConfig(o: DemoEndpointOptions): Record<string, unknown> {
  return {
    nodeId: o.id,
    tt: 1,
    switch: { host: '127.0.0.1', port: o.switchPort },
    control: o.control,
    log: 'info',
    discovery: { targets: o.peers.map((node) => ({ node })), readTimeout: 2_000_000_000 },
    type9: { idleTimeout: 5_000_000_000 },
    ccp: { orphanPeriod: 5_000_000_000 },
    api: { rxHigh: 64, rxLow: 16, rxLimit: 128, verifyIdleMs: 5_000 },
  };
}

/** YAML text of a configuration object. */
export function toYaml(config: Record<string, unknown>): string {
  return stringify(config);
}

/** `port 1 listening on 127.0.0.1:4001` (riodp switch's stdout) as `{port, host, tcpPort}`; null for another line. */
export function parseListening(line: string): { port: number; host: string; tcpPort: number } | null {
  const m = /^port (\d+) listening on (?:\[([^\]]+)\]|([^:\s]+)):(\d+)(?: \(tls\))?$/.exec(line.trim());
  if (m === null) return null;
  return { port: Number(m[1]), host: m[2] ?? m[3] ?? '', tcpPort: Number(m[4]) };
}

/** `riodp endpoint 2: link up to 127.0.0.1:4001; control /tmp/x.sock` (riodp endpoint's stdout): the node ID; null for another line. */
export function parseLinkUp(line: string): number | null {
  const m = /^riodp endpoint (\d+): link up to \S+; control .+$/.exec(line.trim());
  return m === null ? null : Number(m[1]);
}
