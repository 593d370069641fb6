/**
 * The fair share of `riodp switch` between its input ports (issue 16 item 3: "Fair scheduling
 * between switch input ports … a flooding port cannot push a healthy flow below a documented
 * share"; docs/fabric-switch.md "Fair share"). No I/O: the switch process (switch-process.ts)
 * tells it each frame a link delivers, pauses the links it names, and runs `round` once the event
 * loop has turned.
 *
 * Why the host needs it: the process has one thread, and Node reads a socket with data for as
 * long as it has data (libuv: up to 32 reads of 64 KiB at a time), handing every frame to the
 * element before it reads another socket. A peer that sends without pause holds the process for
 * as long as its frames last, so the others' frames wait, and what the element does for them
 * (its arbitration, its budgets) comes too late. The simulator has no such reading: its links
 * deliver at wire speed and the crossbar arbitrates between inputs.
 *
 * Deficit round robin (Shreedhar & Varghese 1995) over the input ports, in frames (decision
 * SP16): each round every port may deliver `quantum` frames. The frame that uses up a port's
 * quantum is its last of the round: its link is paused at that frame boundary (`Link.pause`,
 * the rest of what it read is held, the socket is not read), and `round` — the next turn of the
 * event loop, after the other sockets' data has been read — gives every port a new quantum and
 * names the ports to resume, starting one port further each round. A port that delivered fewer
 * frames keeps no credit (DRR: an idle queue's deficit is reset), so no port can save up a burst.
 * Frames, not bytes: the switch's work is per frame (decode, route, queue, send), and a flood of
 * small requests costs as much per frame as bulk data does.
 */
export class InputShare {
  readonly quantum: number;
  /** Frames each port may still deliver this round. */
  readonly #left: number[];
  /** 1 for a port stopped at its quantum, waiting for the next round. */
  readonly #stopped: Uint8Array;
  /** Times each port was stopped at its quantum. */
  readonly #stops: number[];
  /** The port the next round resumes first. */
  #first = 0;

  constructor(ports: number, quantum: number) {
    if (!Number.isSafeInteger(quantum) || quantum < 1) throw new RangeError('quantum must be a positive integer');
    this.quantum = quantum;
    this.#left = Array.from({ length: ports }, () => quantum);
    this.#stopped = new Uint8Array(ports);
    this.#stops = Array.from({ length: ports }, () => 0);
  }

  /**
   * A frame `port`'s link delivered. True when it was the last of the port's quantum: the caller
   * stops the link at this frame and has `round` run once the event loop has turned.
   */
  took(port: number): boolean {
    const left = (this.#left[port] ?? 0) - 1;
    this.#left[port] = left;
    if (left > 0 || this.#stopped[port] === 1) return false;
    this.#stopped[port] = 1;
    this.#stops[port] = (this.#stops[port] ?? 0) + 1;
    return true;
  }

  /**
   * `frames` frames `port`'s link delivered at once (the fast lane's runs, never more than
   * `left`): `took` for each, true when the last of them ended the port's quantum.
   */
  tookMany(port: number, frames: number): boolean {
    if (frames <= 0) return false;
    this.#left[port] = (this.#left[port] ?? 0) - (frames - 1);
    return this.took(port);
  }

  /** Frames `port` may still deliver this round; at least 1, so that a link is never stopped before its first frame. */
  left(port: number): number {
    return Math.max(1, this.#left[port] ?? 0);
  }

  /** Whether `port` waits for the next round. */
  isStopped(port: number): boolean {
    return this.#stopped[port] === 1;
  }

  /** Times `port` was stopped at its quantum; without a port, every port's. */
  stops(port?: number): number {
    return port === undefined ? this.#stops.reduce((a, b) => a + b, 0) : this.#stops[port] ?? 0;
  }

  /**
   * A new round: every port's quantum is whole again. Returns the ports that were stopped, to
   * resume in that order: round robin, starting one port after the previous round's first.
   */
  round(): number[] {
    const n = this.#left.length;
    const resume: number[] = [];
    for (let k = 0; k < n; k++) {
      const p = (this.#first + k) % n;
      this.#left[p] = this.quantum;
      if (this.#stopped[p] === 0) continue;
      this.#stopped[p] = 0;
      resume.push(p);
    }
    this.#first = (this.#first + 1) % n;
    return resume;
  }

  /** The port's link went away: a new link starts with a whole quantum. */
  reset(port: number): void {
    this.#left[port] = this.quantum;
    this.#stopped[port] = 0;
  }
}
