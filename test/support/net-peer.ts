/**
 * A raw peer of a riodp link for tests of the fabric processes: connects (src/net/connect.ts),
 * keeps every packet and symbol it receives, sends packets as fast as the link takes them
 * (waiting for `onDrain` when it is not writable, as a well-behaved sender must), and waits for a
 * number of packets with a deadline that names what did arrive. `startTestSwitch` runs a switch
 * process (src/net/switch-process.ts) on ephemeral loopback ports with its log captured.
 */
import { connect } from '../../src/net/connect.ts';
import type { ConnectOptions } from '../../src/net/connect.ts';
import type { Link, LinkClosed } from '../../src/net/link.ts';
import { LogCapture, makeLogger } from '../../src/net/log.ts';
import type { LogLevel } from '../../src/net/log.ts';
import { parseSwitchConfig } from '../../src/net/switch-config.ts';
import { startSwitch } from '../../src/net/switch-process.ts';
import type { RunningSwitch } from '../../src/net/switch-process.ts';
import type { Packet, SerialPacket } from '../../src/wire/packet.ts';
import type { ControlSymbol } from '../../src/wire/symbol.ts';
import type { ControlSymbol64 } from '../../src/wire/symbol64.ts';
import { ssizeFor, type11FromFields } from '../../src/wire/type11.ts';
import type { Type11Packet } from '../../src/wire/type11.ts';

/**
 * A single-segment Type 11 message (Dev16) from `src` to `dst` whose first two payload bytes
 * number it; `size` is its payload (8, 16, … 256 bytes: Part 2 Table 4-4), large ones to fill
 * socket buffers fast.
 */
export function numbered(src: number, dst: number, index: number, size = 8): Type11Packet {
  const payload = new Uint8Array(size);
  payload[0] = (index >>> 8) & 0xff;
  payload[1] = index & 0xff;
  const ssize = ssizeFor(size);
  if (ssize === undefined) throw new RangeError(`${size} bytes is not a segment size`);
  return type11FromFields({
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 11, destinationID: dst, sourceID: src, msglen: 0, ssize, letter: 0, mbox: 0, msgsegXmbox: 0, payload,
  });
}

/** The number `numbered` wrote, modulo 65536; -1 for another packet. */
export function numberOf(p: Packet): number {
  return p.ftype === 11 ? (((p.payload[0] ?? 0) << 8) | (p.payload[1] ?? 0)) : -1;
}

export interface Peer {
  readonly link: Link;
  readonly packets: SerialPacket[];
  readonly symbols: (ControlSymbol | ControlSymbol64)[];
  /** Resolves with how the link ended. */
  readonly closed: Promise<LinkClosed>;
  /** Sends every packet in order, waiting for the link to drain whenever it is full. */
  send(packets: Iterable<Packet>): Promise<void>;
  /** Resolves once `n` packets have arrived; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<SerialPacket[]>;
}

export async function connectPeer(port: number, opts: Omit<ConnectOptions, 'port'> = {}): Promise<Peer> {
  const packets: SerialPacket[] = [];
  const symbols: (ControlSymbol | ControlSymbol64)[] = [];
  let wake: (() => void) | null = null;
  let drained: (() => void) | null = null;
  let onClosed: (c: LinkClosed) => void = () => undefined;
  const closed = new Promise<LinkClosed>((resolve) => { onClosed = resolve; });
  const link = await connect({ ...opts, port }, {
    onPacket: (p) => { packets.push(p); wake?.(); },
    onSymbol: (s) => { symbols.push(s); },
    onDrain: () => { drained?.(); },
    onClose: (c) => { onClosed(c); wake?.(); drained?.(); },
  });
  return {
    link,
    packets,
    symbols,
    closed,
    async send(list) {
      for (const p of list) {
        while (!link.writable) {
          if (link.state === 'closing' || link.state === 'closed') throw new Error(`link ${link.state} while sending`);
          await new Promise<void>((resolve) => { drained = resolve; });
          drained = null;
        }
        link.sendPacket(p);
      }
    },
    async waitFor(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (packets.length < n) {
        const left = deadline - Date.now();
        if (left <= 0 || link.state === 'closed') throw new Error(`${packets.length} of ${n} packets arrived (link ${link.state})`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          wake = () => { clearTimeout(t); resolve(); };
        });
        wake = null;
      }
      return packets;
    },
  };
}

/**
 * A 3-port switch configuration, ID 0x50: port N for end point N+1 (accepting only that source ID),
 * routes 1→0, 2→1, 3→2; `more` adds or replaces fields.
 */
export function threePortSwitch(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    deviceId: 0x50,
    ports: [
      { port: 0, listen: { port: 0 }, accept: [1] },
      { port: 1, listen: { port: 0 }, accept: [2] },
      { port: 2, listen: { port: 0 }, accept: [3] },
    ],
    routes: { 1: 0, 2: 1, 3: 2 },
    ...more,
  };
}

/** A switch process under test with its log captured, and the peers connected to it. */
export interface TestSwitch {
  readonly sw: RunningSwitch;
  readonly log: LogCapture;
  /** The TCP port switch port `port` listens on. */
  tcpPort(port: number): number;
  peer(port: number, opts?: Omit<ConnectOptions, 'port'>): Promise<Peer>;
  /** Resolves once the switch has the links of `ports` open (it has their HELLOs). */
  waitUp(...ports: number[]): Promise<void>;
  /** Closes the peers still open, then the switch. */
  stop(): Promise<void>;
}

export async function startTestSwitch(config: unknown, level: LogLevel = 'debug'): Promise<TestSwitch> {
  const log = new LogCapture();
  const sw = await startSwitch(parseSwitchConfig(config), { logger: makeLogger({ level, destination: log }) });
  const peers: Peer[] = [];
  const tcpPort = (port: number): number => {
    const a = sw.addresses.find((x) => x.port === port);
    if (a === undefined) throw new Error(`port ${port} does not listen`);
    return a.tcpPort;
  };
  return {
    sw,
    log,
    tcpPort,
    async peer(port, opts = {}) {
      const p = await connectPeer(tcpPort(port), opts);
      peers.push(p);
      return p;
    },
    async waitUp(...ports) {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const states = sw.ports();
        if (ports.every((p) => states[p]?.link === 'open')) return;
        await new Promise((r) => setTimeout(r, 2));
      }
      throw new Error(`ports ${ports.join(', ')} did not come up`);
    },
    async stop() {
      for (const p of peers) p.link.close('normal', 'test done');
      await sw.close();
    },
  };
}
