/**
 * A switch's routing table (Part 3 §2.3 "Each switch in the interconnect fabric contains a table
 * that tells the switch how to route every destination ID from an input port to the proper
 * output port"; Part 6 §6.11 packet delivery rule 3 "Packet forwarding decisions made by a switch
 * processing element shall provide a consistent output port selection which is based solely on
 * the value of the destinationID field carried in the packet").
 *
 * Entries cover destination IDs 0..limit (Part 3 §3.4.2 "Max_destID ... thereby indirectly
 * defining the size of the route table"); IDs above the limit go to the default port (§3.5.7 "the
 * port to which packets with destinations IDs that are greater than that specified in the Switch
 * Route Table Destination ID Limit CAR are routed"). An entry holds a port number or NO_ROUTE:
 * PortTotal is at most 255 (Part 1 Table 5-8), so 0xFF never names a port, and an entry holding
 * it sends its IDs to the default port too. A port the switch does not have routes nothing.
 */
export const NO_ROUTE = 0xff;

export class RouteTable {
  readonly ports: number;
  readonly limit: number;
  readonly #entries: Uint8Array;
  #default: number;

  constructor(ports: number, limit: number, entries: ReadonlyMap<number, number>, defaultPort: number | undefined) {
    this.ports = ports;
    this.limit = limit;
    this.#entries = new Uint8Array(limit + 1).fill(NO_ROUTE);
    for (const [id, port] of entries) this.#entries[id] = port;
    this.#default = defaultPort ?? NO_ROUTE;
  }

  /** The output for a destinationID, or undefined when the packet has nowhere to go. */
  lookup(destinationID: number): number | undefined {
    const e = Number.isSafeInteger(destinationID) && destinationID >= 0 && destinationID <= this.limit ? (this.#entries[destinationID] as number) : NO_ROUTE;
    const port = e === NO_ROUTE ? this.#default : e;
    return port < this.ports ? port : undefined;
  }

  /** The stored entry (NO_ROUTE when none); IDs above the limit have none. */
  entry(destinationID: number): number {
    return destinationID >= 0 && destinationID <= this.limit ? (this.#entries[destinationID] as number) : NO_ROUTE;
  }

  /** Stores the low 8 bits of `port` (Config_output_port is 8 bits, Part 3 Table 3-10); false when the ID is above the limit. */
  set(destinationID: number, port: number): boolean {
    if (!Number.isSafeInteger(destinationID) || destinationID < 0 || destinationID > this.limit) return false;
    this.#entries[destinationID] = port & 0xff;
    return true;
  }

  get defaultPort(): number {
    return this.#default;
  }

  set defaultPort(port: number) {
    this.#default = port & 0xff;
  }

  /** Entries that hold a port, by destinationID, and the default. */
  snapshot(): { readonly entries: Record<string, number>; readonly defaultPort: number | null; readonly limit: number } {
    const entries: Record<string, number> = {};
    this.#entries.forEach((port, id) => {
      if (port !== NO_ROUTE) entries[String(id)] = port;
    });
    return { entries, defaultPort: this.#default === NO_ROUTE ? null : this.#default, limit: this.limit };
  }
}
