import { SwitchElement } from '../../src/node/switch/element.ts';
import type { SwitchElementConfig, SwitchEvent, SwitchOutput } from '../../src/node/switch/element.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { serialPacketLength } from '../../src/wire/packet.ts';
import { type11FromFields } from '../../src/wire/type11.ts';
import type { Type11Packet } from '../../src/wire/type11.ts';

/**
 * A `SwitchElement` under test, driven the way the TCP driver will drive it: every port's link
 * comes up first, packets are handed over with their octet length, and `drain` pulls a port until
 * it answers `idle`.
 *
 * Default switch: device ID 0x50, Dev16, 4 ports, destination IDs 0–3 routed to the port of the
 * same number, output buffers of 4 packets with 0 reserved per priority (so that tests fill them
 * with few packets).
 */
export const SWITCH_ID = 0x50;

export function baseConfig(extra: Partial<SwitchElementConfig> = {}): SwitchElementConfig {
  return { deviceId: SWITCH_ID, ports: 4, routes: { 0: 0, 1: 1, 2: 2, 3: 3 }, outputBuffer: { packets: 4, reservePerPriority: 0 }, ...extra };
}

export class Rig {
  readonly sw: SwitchElement;
  readonly outputs: SwitchOutput[] = [];
  now = 0;

  constructor(config: SwitchElementConfig = baseConfig(), linksUp = true) {
    this.sw = new SwitchElement(config);
    if (linksUp) for (let p = 0; p < config.ports; p++) this.run({ kind: 'link-up', port: p });
  }

  run(input: Parameters<SwitchElement['handle']>[0]): SwitchOutput[] {
    const out = this.sw.handle(input, this.now);
    this.outputs.push(...out);
    return out;
  }

  send(port: number, packet: Packet): SwitchOutput[] {
    return this.run({ kind: 'packet', port, packet, octets: serialPacketLength(packet) });
  }

  pull(port: number): SwitchOutput | undefined {
    return this.run({ kind: 'pull', port }).find((o) => o.kind === 'packet' || o.kind === 'symbol' || o.kind === 'idle');
  }

  /** Packets sent on `port`, pulled until idle (symbols skipped). */
  drain(port: number): Packet[] {
    const got: Packet[] = [];
    for (let n = 0; n < 10_000; n++) {
      const o = this.pull(port);
      if (o === undefined || o.kind === 'idle') return got;
      if (o.kind === 'packet') got.push(o.packet);
    }
    throw new Error(`port ${port} never went idle`);
  }

  events(name?: SwitchEvent['name']): SwitchEvent[] {
    return this.outputs.flatMap((o) => (o.kind === 'event' && (name === undefined || o.event.name === name) ? [o.event] : []));
  }

  kinds(kind: SwitchOutput['kind']): SwitchOutput[] {
    return this.outputs.filter((o) => o.kind === kind);
  }
}

/** A single-packet Type 11 message from `src` to `dst`; `tag` (0–255) is its first payload byte, to tell packets apart. */
export function message(src: number, dst: number, opts: { prio?: number; crf?: number; tag?: number; tt?: number } = {}): Type11Packet {
  const payload = new Uint8Array(8);
  payload[0] = opts.tag ?? 0;
  return type11FromFields({
    ackID: 0, vc: 0, crf: opts.crf ?? 0, prio: opts.prio ?? 0, tt: opts.tt ?? 1, ftype: 11, destinationID: dst, sourceID: src,
    msglen: 0, ssize: 9, letter: 0, mbox: 0, msgsegXmbox: 0, payload,
  });
}

export function tagOf(p: Packet): number {
  return p.ftype === 11 ? (p.payload[0] ?? -1) : -1;
}
