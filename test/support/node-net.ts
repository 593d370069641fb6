/**
 * What the test fabrics of end points (endpoint-net.ts, fabric-endpoint.ts) record of their nodes'
 * outputs besides packets: events, deliveries, timers. Each fabric carries packets its own way
 * and hands every other output here.
 */
import type { StreamRef } from '../../src/session/types.ts';
import { NetClock } from './net-clock.ts';
import type { NetDelivery } from './net-clock.ts';

export interface NodeNetEvent<S extends string = string> {
  readonly node: number;
  readonly at: number;
  readonly source: S;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** The outputs every end point engine gives besides its packets. */
export type RecordedOutput<S extends string> =
  | { readonly kind: 'idle' }
  | { readonly kind: 'timer'; readonly name: string; readonly at: number | null }
  | { readonly kind: 'event'; readonly at: number; readonly source: S; readonly detail: object }
  | { readonly kind: 'deliver'; readonly stream: StreamRef; readonly protoID: number; readonly pdu: Uint8Array };

export abstract class NodeNet<S extends string = string> extends NetClock {
  readonly events: NodeNetEvent<S>[] = [];
  readonly deliveries: NetDelivery[] = [];

  /** Events of `source` named `name` (a session, discovery or end point `event`, a conveyance event `name`), of one node or all. */
  eventsOf(source: S, name: string, node?: number): Readonly<Record<string, unknown>>[] {
    return this.events.filter((e) => e.source === source && (e.detail['event'] ?? e.detail['name']) === name && (node === undefined || e.node === node)).map((e) => e.detail);
  }

  deliveriesTo(node: number): NetDelivery[] {
    return this.deliveries.filter((d) => d.node === node);
  }

  protected record(node: number, o: RecordedOutput<S>): void {
    switch (o.kind) {
      case 'timer':
        this.setTimer(node, o.name, o.at);
        break;
      case 'event':
        this.events.push({ node, at: o.at, source: o.source, detail: o.detail as Readonly<Record<string, unknown>> });
        break;
      case 'deliver':
        this.deliveries.push({ node, at: this.now, stream: o.stream, protoID: o.protoID, pdu: o.pdu });
        break;
      case 'idle':
        break;
    }
  }
}
