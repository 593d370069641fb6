import type { Channel } from './channel.ts';
import { Ring } from './queues.ts';
import type { Queueing } from './switch-config.ts';
import { CLASSES } from './switch-voq.ts';
import type { PortRx, PortTx, SimPacket, SimSymbol } from './types.ts';

/**
 * The buffers of one switch port: the input buffer behind the receiving side of its link and the
 * output queue in front of the transmitting side.
 *
 * Input buffer organisation by queueing mode:
 * - 'input-fifo': one FIFO (issue 7 §2 "one FIFO per input; the head packet contends for its
 *   output"), whatever the priority: the model of Karol et al. 1987.
 * - 'output-queued', 'cioq-voq-backpressure': one FIFO per priority. A packet waits at the input
 *   only while its output queue is full; a FIFO per priority lets a higher-priority packet pass a
 *   lower one held there, as Part 6 §5 priorities require of a port's buffers.
 * - 'input-voq': one virtual output queue per (output, class) (issue 7 §2 "one virtual output
 *   queue per (input, output) (and priority)"), class = prio × 2 + CRF.
 */
export class InputStage {
  readonly index: number;
  /** FIFOs: 1 ('input-fifo'), 4 by priority, or outputs × CLASSES ('input-voq'). */
  readonly queues: Ring<SimPacket>[];
  /** The output of each queued packet, parallel to `queues` (unused for 'input-voq', where the queue names it). */
  readonly outs: Ring<number>[];
  /** 'input-voq': packets per (output, priority), [o × 4 + prio], for the iSLIP requests. */
  readonly voqCounts: Int32Array | null;
  /** Packets in the buffer, including the one crossing the crossbar. */
  count = 0;
  bytes = 0;
  /** Packets waiting to cross (in `queues`). */
  waiting = 0;
  /** The packet crossing the crossbar (an input sends one at a time), its output. */
  current: SimPacket | null = null;
  currentOut = -1;
  inChannel: Channel | undefined;

  constructor(index: number, mode: Queueing, outputs: number) {
    this.index = index;
    const n = mode === 'input-fifo' ? 1 : mode === 'input-voq' ? outputs * CLASSES : 4;
    this.queues = Array.from({ length: n }, () => new Ring<SimPacket>());
    this.outs = mode === 'input-voq' ? [] : Array.from({ length: n }, () => new Ring<number>());
    this.voqCounts = mode === 'input-voq' ? new Int32Array(outputs * 4) : null;
  }
}

/**
 * An output: data packets queued by class (served prio 3 … 0, CRF 1 before 0, FIFO within), the
 * CCPs the switch itself made (`control`, ahead of data of their class), the output register of
 * an input-queued switch with no output queue, and a flag for the transfer it is receiving (an
 * output receives one packet at a time).
 */
export class OutputStage {
  readonly index: number;
  readonly data: Ring<SimPacket>[];
  readonly control: Ring<SimPacket>[];
  /** Packets of data queued (in `data`, or staged by the VoQ engines). */
  dataCount = 0;
  controlCount = 0;
  bytes = 0;
  receiving = false;
  /** outputQueue 0: the packet crossing the crossbar straight onto the link. */
  register: SimPacket | null = null;
  /** Slotted operation: the link asked for a packet between slot boundaries; kick it at the next one. */
  wantsSlot = false;
  outChannel: Channel | undefined;

  constructor(index: number) {
    this.index = index;
    this.data = Array.from({ length: CLASSES }, () => new Ring<SimPacket>());
    this.control = Array.from({ length: CLASSES }, () => new Ring<SimPacket>());
  }
}

/** Part 6 §5: a packet of priority p may go while more than (3 − p) × reserve buffers are free at the receiver. */
export function priorityAllowed(prio: number, free: number, reserve: number): boolean {
  return free > (3 - prio) * reserve;
}

/** The switch entry points its ports' link sides call. */
export interface PortHost {
  pullPort(o: number, now: number, free: number, reserve: number): SimPacket | null;
  symbolPort(o: number, s: SimSymbol, now: number): void;
  receivePort(i: number, p: SimPacket, now: number): void;
}

/** The transmitting side of a switch port, as its link's channel sees it. */
export class SwitchPortTx implements PortTx {
  readonly #host: PortHost;
  readonly #port: number;
  constructor(host: PortHost, port: number) {
    this.#host = host;
    this.#port = port;
  }
  pull(now: number, freeBuffers: number, reservePerPriority: number): SimPacket | null {
    return this.#host.pullPort(this.#port, now, freeBuffers, reservePerPriority);
  }
  onSymbol(symbol: SimSymbol, now: number): void {
    this.#host.symbolPort(this.#port, symbol, now);
  }
}

/** The receiving side of a switch port. */
export class SwitchPortRx implements PortRx {
  readonly #host: PortHost;
  readonly #port: number;
  constructor(host: PortHost, port: number) {
    this.#host = host;
    this.#port = port;
  }
  receive(packet: SimPacket, now: number): void {
    this.#host.receivePort(this.#port, packet, now);
  }
}
