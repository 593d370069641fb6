/**
 * The end point process's transmit side (endpoint-process.ts "Transmit"): the engine sends only
 * when pulled. After every input, and when the link drains, the process pulls it while the link
 * is writable (docs/net-framing.md §4.4: the link stops accepting frames when the socket is over
 * its high-water mark). What was pulled but found the link full waits here (at most one pull's
 * worth) for the next drain.
 */
import type { Time } from '../engine/contract.ts';
import type { Packet } from '../wire/packet.ts';
import { WireError } from '../wire/errors.ts';
import type { EngineInputs } from './endpoint-inputs.ts';
import type { Link } from './link.ts';
import type { Logger } from './log.ts';

/** Packets taken from the engine per pull. */
const PULL_BATCH = 16;

/** What the pump needs of its process. */
export interface PumpHost {
  /** The link to the switch; null while there is none. */
  link(): Link | null;
  /** The engine's inputs (endpoint-inputs.ts). */
  readonly inputs: EngineInputs;
  /** The engine's clock. */
  readonly now: () => Time;
  /** A packet of the engine's that does not encode (counted as `encodeErrors`). */
  encodeError(): void;
  readonly log: Logger;
}

export class TransmitPump {
  readonly #host: PumpHost;
  /** Type 9 segments written straight into the link's send batch (`fastLane`, docs/fast-lane.md §10). */
  readonly #fast: boolean;
  #unsent: Packet[] = [];
  #pumping = false;

  constructor(host: PumpHost, fast: boolean) {
    this.#host = host;
    this.#fast = fast;
  }

  /** Packets pulled (or made by the process) and not yet handed to the link. */
  get unsent(): number {
    return this.#unsent.length;
  }

  /** A packet to send, behind those waiting. */
  push(p: Packet): void {
    this.#unsent.push(p);
  }

  /** The link went down: what waits is dropped; returns how many. */
  discard(): number {
    const n = this.#unsent.length;
    this.#unsent = [];
    return n;
  }

  /** Pulls the engine while the link takes frames. */
  pump(): void {
    const inputs = this.#host.inputs;
    if (this.#pumping || inputs.busy) return;
    this.#pumping = true;
    try {
      for (;;) {
        const link = this.#host.link();
        if (link === null || link.state !== 'open') return;
        while (this.#unsent.length > 0 && link.writable) this.#send(link, this.#unsent.shift() as Packet);
        if (!link.writable || this.#unsent.length > 0 || !inputs.may) return;
        if (!this.#fast || !inputs.fastPull(link, this.#host.now)) inputs.input({ kind: 'pull', max: PULL_BATCH }, this.#host.now);
      }
    } finally {
      this.#pumping = false;
    }
  }

  #send(link: Link, p: Packet): void {
    try {
      link.sendPacket(p);
    } catch (e) {
      // A packet the engine built that does not encode is the engine's fault, not the peer's: counted and logged.
      if (!(e instanceof WireError)) throw e;
      this.#host.encodeError();
      this.#host.log.error({ err: e.message, ftype: p.ftype }, 'packet does not encode');
    }
  }
}
