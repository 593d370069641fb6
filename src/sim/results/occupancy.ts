/**
 * One buffer's occupancy over time (issue 7 §3 "buffer occupancy over time"): a piecewise-constant
 * signal set by `update(now, packets, bytes)`.
 *
 * - Summary over the measured window [warmup, end]: time-weighted mean and maximum of packets and
 *   octets. The maximum counts every value the buffer held at or after warm-up, even for no time
 *   (a packet that arrives and leaves at the same instant still needed the buffer).
 * - Series: the value held at every multiple of `interval` from 0 to the end (warm-up included, so
 *   a chart shows the transient), without scheduler events: a sample at t is written when the
 *   first update after t arrives, with the value set by the last update at or before t.
 */

/** One buffer's occupancy over the measured window: time-weighted mean and maximum, in packets and octets. */
export interface OccupancySummary {
  readonly component: string;
  readonly meanPackets: number;
  readonly maxPackets: number;
  readonly meanBytes: number;
  readonly maxBytes: number;
}

/** One buffer's occupancy sampled at `t` (ps), in packets and octets. */
export interface OccupancySeries {
  readonly component: string;
  readonly t: number[];
  readonly packets: number[];
  readonly bytes: number[];
}

export class OccupancyTrack {
  readonly component: string;
  readonly #warmup: number;
  readonly #interval: number;
  #last = 0;
  #packets = 0;
  #bytes = 0;
  #areaPackets = 0;
  #areaBytes = 0;
  #maxPackets = 0;
  #maxBytes = 0;
  #nextSample = 0;
  #end = -1;
  readonly #series: OccupancySeries;

  constructor(component: string, warmup: number, interval: number) {
    this.component = component;
    this.#warmup = warmup;
    this.#interval = interval;
    this.#series = { component, t: [], packets: [], bytes: [] };
  }

  update(now: number, packets: number, bytes: number): void {
    this.#advance(now);
    this.#packets = packets;
    this.#bytes = bytes;
    if (now >= this.#warmup) {
      if (packets > this.#maxPackets) this.#maxPackets = packets;
      if (bytes > this.#maxBytes) this.#maxBytes = bytes;
    }
  }

  /** Closes the window at `end` (the sample at `end` included). */
  finish(end: number): void {
    this.#advance(end);
    const s = this.#series;
    while (this.#nextSample <= end) {
      s.t.push(this.#nextSample);
      s.packets.push(this.#packets);
      s.bytes.push(this.#bytes);
      this.#nextSample += this.#interval;
    }
    this.#end = end;
  }

  summary(): OccupancySummary {
    const span = this.#end - this.#warmup;
    return {
      component: this.component,
      meanPackets: span > 0 ? this.#areaPackets / span : 0,
      maxPackets: this.#maxPackets,
      meanBytes: span > 0 ? this.#areaBytes / span : 0,
      maxBytes: this.#maxBytes,
    };
  }

  series(): OccupancySeries {
    return this.#series;
  }

  #advance(now: number): void {
    const s = this.#series;
    while (this.#nextSample < now) {
      s.t.push(this.#nextSample);
      s.packets.push(this.#packets);
      s.bytes.push(this.#bytes);
      this.#nextSample += this.#interval;
    }
    const from = this.#last > this.#warmup ? this.#last : this.#warmup;
    if (now > from) {
      this.#areaPackets += this.#packets * (now - from);
      this.#areaBytes += this.#bytes * (now - from);
      // The value held when the window opened counts towards the maximum.
      if (this.#packets > this.#maxPackets) this.#maxPackets = this.#packets;
      if (this.#bytes > this.#maxBytes) this.#maxBytes = this.#bytes;
    }
    if (now > this.#last) this.#last = now;
  }
}
