/**
 * The TM packets a `FabricEndpoint` has to send (tm-streams.ts), in the order the data
 * they speak of needs.
 *
 * Part 10 §3.4.5 protocol rule 1: "all TM transactions occur in the same flows as the data", so a
 * TM packet and the data it follows are delivered in order. §3.4.4 asks for that order: CREDIT
 * STATUS <AU> <nn> "is sent ahead of the first packet" of the AU, and <AU> <00> "is always sent
 * after the last packet resulting in the number of credits going to 0". The ingress speaks of a
 * PDU when it is handed to the session stack (`pdu-sent`), but the PDU's first segment leaves at
 * some later pull. So each PDU handed on to a destination gets a sequence number, and every TM
 * packet the ingress sends to that destination waits until the PDUs handed on before it (its own
 * `pdu-sent` included) have had their first segment pulled. The egress's packets speak of data
 * coming the other way and wait for nothing.
 *
 * Packets leave in the order they were made, except that a packet whose flow may not send (Part 9,
 * `maySend`) or which waits for its data lets the packets of other (destination, flow) pairs pass.
 */
import { flowIdForChannel, flowIdForPacket } from '../../wire/flow-id.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import type { FabricTmSnapshot } from '../fabric-endpoint-types.ts';

interface Entry {
  readonly packet: Type9TmPacket;
  readonly flowID: FlowIdLabel | undefined;
  /** The PDU hand-on to its destination this packet follows; 0: none. */
  readonly after: number;
}

/** The Part 9 flow a TM request travels in, as `stoppableFlow` (fabric-endpoint-hold.ts) reads a packet. */
export function tmFlow(p: Pick<Type9TmPacket, 'prio' | 'crf' | 'vc'>, crfSupported: boolean): FlowIdLabel | undefined {
  const bits = ((p.prio & 3) << 1) | (p.crf & 1);
  if ((p.vc & 1) === 1) return flowIdForChannel(1 + bits);
  return flowIdForPacket({ prio: p.prio & 3, crf: p.crf & 1, response: false, crfSupported })?.flowID;
}

export class TmOutbox {
  readonly #limit: number;
  readonly #crfSupported: boolean;
  #entries: Entry[] = [];
  /** Per destination: the sequence number of the last PDU handed on. */
  readonly #handed = new Map<number, number>();
  /** Per destination: the sequence numbers of the PDUs handed on whose first segment was not pulled yet, ascending. */
  readonly #unstarted = new Map<number, number[]>();

  constructor(limit: number, crfSupported: boolean) {
    this.#limit = limit;
    this.#crfSupported = crfSupported;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** A PDU to `destinationID` is handed to the session stack: its sequence number. */
  handOn(destinationID: number): number {
    const seq = (this.#handed.get(destinationID) ?? 0) + 1;
    this.#handed.set(destinationID, seq);
    const list = this.#unstarted.get(destinationID);
    if (list === undefined) this.#unstarted.set(destinationID, [seq]);
    else list.push(seq);
    return seq;
  }

  /** The PDU's first segment was pulled, or it will never be (the session stack refused it). */
  started(destinationID: number, seq: number): void {
    const list = this.#unstarted.get(destinationID);
    if (list === undefined) return;
    const i = list.indexOf(seq);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.#unstarted.delete(destinationID);
  }

  /** Queues a packet; `followsData` for the ingress's packets. False when the outbox is full (the packet is dropped). */
  add(packet: Type9TmPacket, followsData: boolean): boolean {
    if (this.#entries.length >= this.#limit) return false;
    const after = followsData ? (this.#handed.get(packet.destinationID) ?? 0) : 0;
    this.#entries.push({ packet, flowID: tmFlow(packet, this.#crfSupported), after });
    return true;
  }

  /** The next packet that may leave now, taken out; undefined when none may. */
  next(maySend: (destinationID: number, flowID: FlowIdLabel) => boolean): Type9TmPacket | undefined {
    let passed: Set<string> | undefined;
    for (let i = 0; i < this.#entries.length; i++) {
      const e = this.#entries[i] as Entry;
      const dest = e.packet.destinationID;
      const pair = `${dest}/${e.flowID ?? ''}`;
      if (passed?.has(pair) === true) continue;
      const waiting = (this.#unstarted.get(dest)?.[0] ?? Infinity) <= e.after;
      if (waiting || (e.flowID !== undefined && !maySend(dest, e.flowID))) {
        (passed ??= new Set()).add(pair);
        continue;
      }
      this.#entries.splice(i, 1);
      return e.packet;
    }
    return undefined;
  }

  snapshot(): FabricTmSnapshot['outbox'] {
    return {
      waiting: this.#entries.length,
      unstarted: [...this.#unstarted].sort((a, b) => a[0] - b[0]).map(([destinationID, seqs]) => ({ destinationID, pdus: seqs.length })),
    };
  }
}
