import type { Type9TmPacket } from '../../src/wire/type9-types.ts';
import type { StreamTarget } from '../../src/streaming/classifier.ts';
import { TmEgress } from '../../src/streaming/tm-egress.ts';
import { TmIngress } from '../../src/streaming/tm-ingress.ts';
import type { TmEgressCommand, TmEgressOutput, TmIngressOutput } from '../../src/streaming/tm-types.ts';
import type { TmDesignation } from '../../src/streaming/tm-operand-match.ts';
import { describe } from './tm.ts';

/**
 * A tiny loop wiring a TmIngress to a TmEgress with zero latency: TM packets are delivered in the
 * order they are sent (first in, first out), PDUs go to the egress as the application sends them.
 * `drop` decides which TM packets are lost. The trace lists what crossed the link:
 * "I>E <message>", "E>I <message>", "PDU <AU>/<n>" (Figure 3-6 legend "<AU><PKT#> implied").
 */
export class TmLink {
  readonly trace: string[] = [];
  readonly events: string[] = [];
  readonly packets: Type9TmPacket[] = [];
  readonly #pending: { readonly to: 'ingress' | 'egress'; readonly packet: Type9TmPacket }[] = [];
  now = 0;

  constructor(
    readonly ingress: TmIngress,
    readonly egress: TmEgress,
    readonly stream: StreamTarget,
    readonly drop: (text: string, packet: Type9TmPacket) => boolean = () => false,
  ) {}

  /** The application queues `n` PDUs of 64 bytes. */
  ready(n: number): void {
    for (let i = 0; i < n; i++) this.#fromIngress(this.ingress.handle({ kind: 'pdu-ready', stream: { target: this.stream }, bytes: 64 }, this.now));
    this.pump();
  }

  /** The application sends while the gate allows, at most `max` PDUs. */
  send(max = Infinity): number {
    const queue = this.ingress.queueOf({ target: this.stream }) as string;
    let n = 0;
    while (n < max && this.ingress.mayTransmit(queue) && (this.ingress.queueState(queue)?.ready ?? 0) > 0) {
      const ctx = this.ingress.creditContexts()[0];
      const cur = ctx?.current;
      this.trace.push(cur == null ? 'PDU' : `PDU ${cur.allocationUnit}/${cur.credits - cur.remaining + 1}`);
      this.#fromEgress(this.egress.handle({ kind: 'pdu', sourceID: this.ingress.snapshot().localID, cos: this.stream.cos, streamID: this.stream.streamID }, this.now));
      this.#fromIngress(this.ingress.handle({ kind: 'pdu-sent', stream: { target: this.stream }, bytes: 64 }, this.now));
      this.pump();
      n++;
    }
    return n;
  }

  /** The application makes the ingress repeat its Q_STATUS (§3.4.5 rule 5 "An ingress may "insist""). */
  insist(): void {
    this.#fromIngress(this.ingress.handle({ kind: 'command', stream: { target: this.stream }, command: { message: 'Q_STATUS' } }, this.now));
    this.pump();
  }

  /** The egress's own queue for the stream is now `level`/255 full. */
  egressLevel(level: number): void {
    this.#fromEgress(this.egress.handle({ kind: 'queue-level', sourceID: this.ingress.snapshot().localID, cos: this.stream.cos, streamID: this.stream.streamID, level }, this.now));
    this.pump();
  }

  command(to: TmDesignation, command: TmEgressCommand): void {
    this.#fromEgress(this.egress.handle({ kind: 'command', to, command }, this.now));
    this.pump();
  }

  pump(): void {
    for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
      const text = `${next.to === 'egress' ? 'I>E' : 'E>I'} ${describe(next.packet)}`;
      if (this.drop(text, next.packet)) {
        this.trace.push(`${text} (lost)`);
        continue;
      }
      this.trace.push(text);
      this.packets.push(next.packet);
      if (next.to === 'egress') this.#fromEgress(this.egress.handle({ kind: 'tm', packet: next.packet }, this.now));
      else this.#fromIngress(this.ingress.handle({ kind: 'tm', packet: next.packet }, this.now));
    }
  }

  #fromIngress(out: readonly TmIngressOutput[]): void {
    for (const o of out) {
      if (o.kind === 'tm') this.#pending.push({ to: 'egress', packet: o.packet });
      else if (o.kind === 'event') this.events.push(`ingress ${o.name}`);
    }
  }

  #fromEgress(out: readonly TmEgressOutput[]): void {
    for (const o of out) {
      if (o.kind === 'tm') this.#pending.push({ to: 'ingress', packet: o.packet });
      else if (o.name !== 'q-status') this.events.push(`egress ${o.name}${o.allocationUnit === undefined ? '' : ` ${o.allocationUnit}`}`);
    }
  }
}
