import { CaptureWriter } from '../../capture/writer.ts';
import type { CaptureLimits, RecordNotes } from '../../capture/writer.ts';
import type { Channel } from '../fabric/channel.ts';
import type { ChannelTap, SimPacket, SimSymbol } from '../fabric/types.ts';
import { packetRecord, recordBytes, symbolFrame } from './records.ts';
import type { RecordContext } from './records.ts';

/**
 * The capture of one simulated link (docs/pcapng.md §3–§5): one pcapng file with an interface
 * per end and direction (`<end>.p<port>.tx`, `<end>.p<port>.rx`). Every packet and control
 * symbol is written twice: on its sender's `tx` when its first bit goes on the wire, and on its
 * receiver's `rx` when its last bit arrives (transmission start + wire time + propagation). The
 * file is in simulated time order: records are written as the kernel runs the events.
 *
 * A channel is FIFO, so the bytes written on `tx` wait in a queue for the arrival that writes them
 * on `rx`. While the receiver handles an arriving packet, what it sends at once on the same link
 * (a credit for a packet it dropped) is held until the packet's `rx` record is written, so that
 * the file shows the arrival first.
 */

/** One end of a link: its element's name and port, and how to tell that it dropped a packet. */
export interface LinkEnd {
  readonly element: string;
  readonly port: number;
  /** Drop reasons and a reading of the matching counters: a counter that rises while the end handles a packet names the packet's drop. */
  readonly drops?: { readonly reasons: readonly string[]; read(): readonly number[] };
}

/** How a link is captured. */
export interface LinkCaptureOptions extends CaptureLimits {
  readonly path: string;
  readonly application: string;
  readonly comment?: string;
  /** The link's name in the scenario, for the summary. */
  readonly link: string;
  /** Simulated ps after which nothing is written. */
  readonly until?: number;
  readonly context: RecordContext;
}

/** One capture file's tally (what `VariantRun.captures` lists). */
export interface SimCaptureFile {
  /** The file. */
  readonly path: string;
  /** The link's name in the scenario (`h0`, `m0.0:2-m1.0:3`). */
  readonly link: string;
  /** Records written. */
  readonly records: number;
  /** Bytes of the file, headers included. */
  readonly bytes: number;
  /** Records left out because the file reached its `maxBytes`. */
  readonly notRecorded: number;
  /** Records not written because they came after `until`. */
  readonly afterUntil: number;
}

/** A channel of the link with its two interfaces and its receiver's state. */
interface Direction {
  readonly channel: Channel;
  readonly tx: number;
  readonly rx: number;
  readonly from: LinkEnd;
  readonly to: LinkEnd;
  /** Bytes written on `tx`, waiting for their arrival; null for one sent after `until`. */
  readonly inFlight: (Uint8Array | null)[];
  head: number;
  sent: number;
  arrived: number;
  /** Buffers the receiver returned in credits. */
  returned: number;
  dropsBefore: readonly number[] | null;
}

/** Simulated ps → ns, rounded down (docs/pcapng.md §4), exact for every safe integer. */
export function psToNs(ps: number): bigint {
  return BigInt((ps - (ps % 1000)) / 1000);
}

export class LinkCapture {
  readonly #w: CaptureWriter;
  readonly #o: LinkCaptureOptions;
  readonly #until: number;
  readonly #dirs: readonly [Direction, Direction];
  #holding = false;
  readonly #held: [number, bigint, Uint8Array, RecordNotes][] = [];
  #afterUntil = 0;

  /** Creates the file and puts a tap on both channels: `ab` carries a → b, `ba` b → a. */
  constructor(o: LinkCaptureOptions, a: LinkEnd, b: LinkEnd, ab: Channel, ba: Channel, describe: (from: LinkEnd, to: LinkEnd) => string) {
    this.#o = o;
    this.#until = o.until ?? Number.POSITIVE_INFINITY;
    this.#w = new CaptureWriter(o.path, {
      application: o.application,
      ...(o.comment === undefined ? {} : { comment: o.comment }),
      ...(o.maxBytes === undefined ? {} : { maxBytes: o.maxBytes }),
      ...(o.maxRecords === undefined ? {} : { maxRecords: o.maxRecords }),
    });
    const name = (e: LinkEnd, d: 'tx' | 'rx'): string => `${e.element}.p${e.port}.${d}`;
    const aTx = this.#w.interface(name(a, 'tx'), describe(a, b));
    const aRx = this.#w.interface(name(a, 'rx'), describe(b, a));
    const bTx = this.#w.interface(name(b, 'tx'), describe(b, a));
    const bRx = this.#w.interface(name(b, 'rx'), describe(a, b));
    const dir = (channel: Channel, tx: number, rx: number, from: LinkEnd, to: LinkEnd): Direction => ({
      channel, tx, rx, from, to, inFlight: [], head: 0, sent: 0, arrived: 0, returned: 0, dropsBefore: null,
    });
    this.#dirs = [dir(ab, aTx, bRx, a, b), dir(ba, bTx, aRx, b, a)];
    ab.setTap(this.#tap(0));
    ba.setTap(this.#tap(1));
  }

  /** Takes the taps off, writes what is buffered and closes the file. */
  close(): SimCaptureFile {
    for (const d of this.#dirs) d.channel.setTap(null);
    const w = this.#w.close();
    return { path: w.path, link: this.#o.link, records: w.records, bytes: w.bytes, notRecorded: w.notRecorded, afterUntil: this.#afterUntil };
  }

  #tap(i: 0 | 1): ChannelTap {
    const d = this.#dirs[i];
    const other = this.#dirs[i === 0 ? 1 : 0];
    return {
      packetSent: (p, now) => {
        const ackID = d.sent & 63;
        d.sent++;
        this.#sent(d, now, () => packetRecord(p, ackID, this.#o.context));
      },
      symbolSent: (s, now) => {
        // A symbol on d reports on the other direction's receiver (the sender's own receive side).
        if (s.kind === 'credit') other.returned += s.count;
        this.#sent(d, now, () => recordBytes(symbolFrame(s, this.#form(d), {
          ackIDStatus: other.arrived & 63,
          freeBuffers: other.channel.rxSpec.packets - (other.arrived - other.returned),
        })));
      },
      packetArriving: (_p: SimPacket, now) => {
        d.arrived++;
        this.#holding = now <= this.#until;
        d.dropsBefore = this.#holding ? (d.to.drops?.read() ?? null) : null;
      },
      packetArrived: (_p: SimPacket, now) => {
        this.#holding = false;
        const bytes = this.#arrival(d, now);
        if (bytes !== null) this.#write(d.rx, now, bytes, { direction: 'inbound', ...this.#dropNote(d) });
        for (const [iface, ns, data, notes] of this.#held) this.#w.writeBytes(iface, ns, data, notes);
        this.#held.length = 0;
      },
      symbolArrived: (_s: SimSymbol, now) => {
        const bytes = this.#arrival(d, now);
        if (bytes !== null) this.#write(d.rx, now, bytes, { direction: 'inbound' });
      },
    };
  }

  #form(d: Direction): 'cs48' | 'cs64' {
    const s = d.channel.spec;
    return s.symbol ?? (s.encoding === '64b67b' ? 'cs64' : 'cs48');
  }

  #sent(d: Direction, now: number, make: () => Uint8Array): void {
    if (now > this.#until) {
      d.inFlight.push(null);
      this.#afterUntil++;
      return;
    }
    const bytes = make();
    d.inFlight.push(bytes);
    this.#write(d.tx, now, bytes, { direction: 'outbound' });
  }

  /** The bytes of the record arriving now; null when it is not to be written (after `until`). */
  #arrival(d: Direction, now: number): Uint8Array | null {
    const bytes = d.inFlight[d.head] ?? null;
    d.head++;
    // Keep the queue short: drop the consumed head once it is half the array.
    if (d.head > 64 && d.head * 2 > d.inFlight.length) {
      d.inFlight.splice(0, d.head);
      d.head = 0;
    }
    if (bytes === null || now > this.#until) {
      this.#afterUntil++;
      return null;
    }
    return bytes;
  }

  #dropNote(d: Direction): Pick<RecordNotes, 'comments'> {
    const drops = d.to.drops;
    const before = d.dropsBefore;
    if (drops === undefined || before === null) return {};
    const after = drops.read();
    const reasons = drops.reasons.filter((_, k) => (after[k] ?? 0) > (before[k] ?? 0));
    return reasons.length === 0 ? {} : { comments: reasons.map((r) => `drop: ${r}`) };
  }

  #write(iface: number, now: number, bytes: Uint8Array, notes: RecordNotes): void {
    const ns = psToNs(now);
    if (this.#holding) this.#held.push([iface, ns, bytes, notes]);
    else this.#w.writeBytes(iface, ns, bytes, notes);
  }
}
