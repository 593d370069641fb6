/**
 * A fabric description (issue 7 §2 "Topologies: N x N switch, leaf/spine, k-ary n-fly, ring/mesh
 * of switches"): switches with their port counts, end points (hosts) with their device IDs and the
 * switch port each hangs on, the links between ports, and each switch's routing table
 * "destID -> port (and next-hop port for VoQ staging)". Pure data: scenario/build.ts turns it into
 * `Switch`es, `Endpoint`s and `makeLink` channels.
 *
 * Every host has one port (Part 6 §5.1.2 "Single port end points implement the port 0 register
 * only"), so a host link joins a host to one switch port, and a fabric link joins two switch ports.
 * Host device IDs are 0 … hosts − 1 in the order the topology lists them.
 */

/** A switch of the fabric and its port count. */
export interface TopoSwitch {
  readonly name: string;
  readonly ports: number;
}

/** An end point of the fabric: its device ID and the switch port it hangs on. */
export interface TopoHost {
  readonly name: string;
  readonly id: number;
  /** Index of the switch it is linked to, and the port. */
  readonly switch: number;
  readonly port: number;
}

/** A port of a switch (by the switch's index). */
export interface SwitchPortRef {
  readonly switch: number;
  readonly port: number;
}

/** A host link (a host and a switch port) or a fabric link (two switch ports). */
export type TopoLink =
  | { readonly kind: 'host'; readonly name: string; readonly host: number; readonly b: SwitchPortRef }
  | { readonly kind: 'fabric'; readonly name: string; readonly a: SwitchPortRef; readonly b: SwitchPortRef };

/** A routing table entry: the output port and, VoQ Backpressure §2.2, the next device's egress port (0 for an end point). */
export interface TopoRoute {
  readonly port: number;
  readonly next: number;
}

/** What is at the far end of a switch port. */
export type PortPeer = { readonly kind: 'host'; readonly id: number } | { readonly kind: 'switch'; readonly switch: number; readonly port: number };

/** A fabric description: switches, hosts, links and routing tables. */
export interface Fabric {
  /** The topology kind and its parameters, for reports. */
  readonly kind: string;
  readonly switches: readonly TopoSwitch[];
  /** By device ID: hosts[i].id === i. */
  readonly hosts: readonly TopoHost[];
  readonly links: readonly TopoLink[];
  /** routes[s] maps every host ID to its entry at switch s. */
  readonly routes: readonly ReadonlyMap<number, TopoRoute>[];
  /** peers[s][p]: what port p of switch s is linked to; undefined for an unused port. */
  readonly peers: readonly (readonly (PortPeer | undefined)[])[];
}
