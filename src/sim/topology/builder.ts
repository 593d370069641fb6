import type { Fabric, PortPeer, TopoHost, TopoLink, TopoRoute, TopoSwitch } from './types.ts';

/**
 * Assembles a `Fabric`: the topology builders add switches, hosts and links and say which port
 * each switch sends each destination to; `finish` fills in the next device's egress port of every
 * entry (VoQ Backpressure §2.2 "that lookup must produce the egress port for the current device
 * as well as the egress port for the next device") by looking the destination up in the table of
 * the switch at the far end of the port, or 0 when the far end is the destination end point
 * (§5.1.2 "Single port end points implement the port 0 register only").
 *
 * Misuse (a port used twice, a port out of range, a route to an unused port) is a bug in a
 * builder, not user input: it throws.
 */
export class FabricBuilder {
  readonly #switches: TopoSwitch[] = [];
  readonly #hosts: TopoHost[] = [];
  readonly #links: TopoLink[] = [];
  readonly #peers: (PortPeer | undefined)[][] = [];
  readonly #ports: Map<number, number>[] = [];

  addSwitch(name: string, ports: number): number {
    this.#switches.push({ name, ports });
    this.#peers.push(Array.from<PortPeer | undefined>({ length: ports }));
    this.#ports.push(new Map());
    return this.#switches.length - 1;
  }

  switchName(s: number): string {
    return this.#sw(s).name;
  }

  /** A host with the next device ID, linked to port `port` of switch `s`; returns its ID. */
  addHost(s: number, port: number): number {
    const id = this.#hosts.length;
    this.#claim(s, port, { kind: 'host', id });
    const name = `h${id}`;
    this.#hosts.push({ name, id, switch: s, port });
    this.#links.push({ kind: 'host', name, host: id, b: { switch: s, port } });
    return id;
  }

  /** A fabric link between port `pa` of switch `a` and port `pb` of switch `b`. */
  connect(a: number, pa: number, b: number, pb: number): void {
    this.#claim(a, pa, { kind: 'switch', switch: b, port: pb });
    this.#claim(b, pb, { kind: 'switch', switch: a, port: pa });
    this.#links.push({ kind: 'fabric', name: `${this.#sw(a).name}:${pa}-${this.#sw(b).name}:${pb}`, a: { switch: a, port: pa }, b: { switch: b, port: pb } });
  }

  /** Switch `s` sends destination `dst` out of `port`. */
  route(s: number, dst: number, port: number): void {
    if (this.#peers[s]?.[port] === undefined) throw new RangeError(`topology: ${this.#sw(s).name} routes ${dst} to unused port ${port}`);
    (this.#ports[s] as Map<number, number>).set(dst, port);
  }

  get hostCount(): number {
    return this.#hosts.length;
  }

  finish(kind: string): Fabric {
    const routes = this.#ports.map((table, s) => {
      const out = new Map<number, TopoRoute>();
      for (let dst = 0; dst < this.#hosts.length; dst++) {
        const port = table.get(dst);
        if (port === undefined) throw new RangeError(`topology: ${this.#sw(s).name} has no route to ${dst}`);
        const peer = this.#peers[s]?.[port];
        const next = peer?.kind === 'switch' ? this.#ports[peer.switch]?.get(dst) : 0;
        if (next === undefined) throw new RangeError(`topology: ${this.#sw(s).name} port ${port} leads to a switch with no route to ${dst}`);
        out.set(dst, { port, next });
      }
      return out;
    });
    return { kind, switches: this.#switches, hosts: this.#hosts, links: this.#links, routes, peers: this.#peers };
  }

  #sw(s: number): TopoSwitch {
    const sw = this.#switches[s];
    if (sw === undefined) throw new RangeError(`topology: no switch ${s}`);
    return sw;
  }

  #claim(s: number, port: number, peer: PortPeer): void {
    const sw = this.#sw(s);
    const list = this.#peers[s] as (PortPeer | undefined)[];
    if (!Number.isInteger(port) || port < 0 || port >= sw.ports) throw new RangeError(`topology: ${sw.name} has no port ${port}`);
    if (list[port] !== undefined) throw new RangeError(`topology: ${sw.name} port ${port} is used twice`);
    list[port] = peer;
  }
}
