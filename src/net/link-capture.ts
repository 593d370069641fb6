/**
 * The software fabric's captures (`riodp switch --pcap`, `riodp endpoint --pcap`, issue 19): a
 * link's tap (LinkOptions.tap) that writes each frame it sees as a record of a pcapng file
 * (docs/pcapng.md §2), on the interface of its direction (§3: `sw80.p2.rx`), stamped with
 * wall-clock nanoseconds since 1970 (§4). A received frame is written after the process has
 * handled it, with a `defect:` comment when it did not decode and a `drop:` comment for each
 * drop the element reported for it (§5).
 */
import { hrtime } from 'node:process';
import { CaptureWriter } from '../capture/writer.ts';
import type { CaptureLimits, CaptureSummary } from '../capture/writer.ts';
import type { WireError } from '../wire/errors.ts';
import type { LinkTap } from './link-types.ts';

/** Where a process writes its capture, and how large it may grow. */
export interface CaptureSettings extends CaptureLimits {
  readonly path: string;
}

/** What a capture of `riodp switch`/`riodp endpoint` may grow to unless told otherwise: 1 GiB. */
export const DEFAULT_CAPTURE_MAX_BYTES = 1 << 30;

/** `defect: <code> <field> at byte <n>: <detail> (<clause>)` (docs/pcapng.md §5), the byte counted from the record's start. */
export function defectComment(e: WireError, recordStart: number): string {
  return `defect: ${e.code} ${e.field} at byte ${e.offset - recordStart}: ${e.detail} (${e.clause})`;
}

/** Nanoseconds since 1970-01-01 UTC, read from the monotonic clock after one reading of the wall clock. */
export function wallClockNs(): () => bigint {
  const base = BigInt(Date.now()) * 1_000_000n - hrtime.bigint();
  return () => base + hrtime.bigint();
}

/** One process's capture file: a tap per link, all writing to it. */
export class ProcessCapture {
  readonly #writer: CaptureWriter;
  readonly #now: () => bigint;

  /** Creates the file (the file system's error if it cannot). */
  constructor(settings: CaptureSettings, application: string, now: () => bigint = wallClockNs()) {
    try {
      this.#writer = new CaptureWriter(settings.path, {
        application,
        maxBytes: settings.maxBytes ?? DEFAULT_CAPTURE_MAX_BYTES,
        ...(settings.maxRecords === undefined ? {} : { maxRecords: settings.maxRecords }),
      });
    } catch (e) {
      throw new Error(`cannot write the capture ${settings.path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    this.#now = now;
  }

  /** The tap of the link `<element>.p<port>` (its two interfaces, described by `description`). */
  link(element: string, port: number, description: string): LinkCapture {
    const name = `${element}.p${port}`;
    return new LinkCapture(this.#writer, this.#now, this.#writer.interface(`${name}.tx`, `${description}: sent`), this.#writer.interface(`${name}.rx`, `${description}: received`));
  }

  get records(): number {
    return this.#writer.records;
  }

  close(): CaptureSummary {
    return this.#writer.close();
  }
}

/** The tap of one link: frames sent on `tx`, frames received on `rx`. */
export class LinkCapture implements LinkTap {
  readonly #writer: CaptureWriter;
  readonly #now: () => bigint;
  readonly #tx: number;
  readonly #rx: number;
  /** The drops reported while the frame being received was handled; null between frames. */
  #notes: string[] | null = null;

  constructor(writer: CaptureWriter, now: () => bigint, tx: number, rx: number) {
    this.#writer = writer;
    this.#now = now;
    this.#tx = tx;
    this.#rx = rx;
  }

  /**
   * A drop of the frame being received (`no-route: …`), written as its `drop:` comment. Outside
   * the handling of a received frame (a timer's, a command's) there is no record to say it on:
   * ignored, and false.
   */
  drop(reason: string): boolean {
    if (this.#notes === null) return false;
    this.#notes.push(`drop: ${reason}`);
    return true;
  }

  receiving(): void {
    this.#notes = [];
  }

  received(bytes: Uint8Array, start: number, end: number, defect: WireError | null): void {
    const comments = this.#notes ?? [];
    this.#notes = null;
    if (defect !== null) comments.unshift(defectComment(defect, start));
    this.#writer.writeBytes(this.#rx, this.#now(), bytes.subarray(start, end), { comments, direction: 'inbound' });
  }

  sent(bytes: Uint8Array, start: number, end: number): void {
    const t = this.#now();
    let at = start;
    // Whole frames (docs/net-framing.md §2): a 16-bit length, then that many bytes.
    while (at + 2 <= end) {
      const next = at + 2 + (((bytes[at] as number) << 8) | (bytes[at + 1] as number));
      this.#writer.writeBytes(this.#tx, t, bytes.subarray(at, Math.min(next, end)), { direction: 'outbound' });
      at = next;
    }
  }
}
