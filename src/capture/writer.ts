import { closeSync, openSync, writeSync } from 'node:fs';
import { encodeEnhancedPacket, encodeInterfaceDescription, encodeSectionHeader, enhancedPacketLength, interfaceDescriptionLength, sectionHeaderLength } from '../wire/pcapng/encode.ts';
import { LINKTYPE_USER0 } from '../wire/pcapng/format.ts';
import type { PcapngDirection } from '../wire/pcapng/format.ts';
import { captureRecordLength, encodeCaptureRecord } from '../wire/pcapng/record.ts';
import type { CaptureRecord } from '../wire/pcapng/record.ts';

/**
 * A pcapng capture file being written (docs/pcapng.md): the hosts' `--pcap` (the software fabric,
 * the simulator, `riodp segment`) hand it records with their link direction and time. Below the
 * hosts, like src/config, because every host writes the same files. Writes are synchronous and
 * buffered (64 KiB): a capture keeps the order of the calls, and a host that exits after `close`
 * leaves a complete file.
 */

/** What a capture may grow to; past a limit it stops recording and counts what it left out. */
export interface CaptureLimits {
  /** Bytes of file, headers included. */
  readonly maxBytes?: number;
  /** Records. */
  readonly maxRecords?: number;
}

export interface CaptureOptions extends CaptureLimits {
  /** `shb_userappl`: the program and command (`riodp 0.1.0 switch`). */
  readonly application: string;
  /** `opt_comment` of the section. */
  readonly comment?: string;
}

/** What one record carries besides its bytes. */
export interface RecordNotes {
  /** One finding each (docs/pcapng.md §5): `defect: …`, `drop: …`. */
  readonly comments?: readonly string[];
  readonly direction?: PcapngDirection;
}

/** A capture's tally when it is closed. */
export interface CaptureSummary {
  readonly path: string;
  readonly records: number;
  readonly bytes: number;
  /** Records left out because a limit was reached. */
  readonly notRecorded: number;
}

const BUFFER_BYTES = 64 * 1024;

export class CaptureWriter {
  readonly #path: string;
  readonly #fd: number;
  readonly #limits: CaptureLimits;
  readonly #interfaces = new Map<string, number>();
  #buf = new Uint8Array(BUFFER_BYTES);
  #used = 0;
  #bytes = 0;
  #records = 0;
  #notRecorded = 0;
  #closed = false;

  /** Creates (or truncates) `path` and writes the section header. Throws the file system's error. */
  constructor(path: string, opts: CaptureOptions) {
    this.#path = path;
    this.#limits = opts;
    this.#fd = openSync(path, 'w');
    const section = { application: opts.application, ...(opts.comment === undefined ? {} : { comment: opts.comment }) };
    this.#reserve(sectionHeaderLength(section));
    this.#used = encodeSectionHeader(section, this.#buf, this.#used);
    this.#bytes = this.#used;
  }

  /**
   * The interface of one link direction (docs/pcapng.md §3: `sw0.p2.tx`), described in the file the
   * first time it is named. Interfaces are written even past a limit, so that every record's
   * interface exists.
   */
  interface(name: string, description?: string): number {
    const known = this.#interfaces.get(name);
    if (known !== undefined) return known;
    const iface = { name, linkType: LINKTYPE_USER0, ...(description === undefined ? {} : { description }) };
    const n = interfaceDescriptionLength(iface);
    this.#reserve(n);
    this.#used = encodeInterfaceDescription(iface, this.#buf, this.#used);
    this.#bytes += n;
    const id = this.#interfaces.size;
    this.#interfaces.set(name, id);
    return id;
  }

  /** Records a frame already in record form (a link frame's bytes); false when a limit left it out. */
  writeBytes(iface: number, timeNs: bigint, data: Uint8Array, notes: RecordNotes = {}): boolean {
    const p = {
      interfaceId: iface,
      timestamp: timeNs,
      data,
      ...(notes.comments === undefined || notes.comments.length === 0 ? {} : { comments: notes.comments }),
      ...(notes.direction === undefined ? {} : { direction: notes.direction }),
    };
    const n = enhancedPacketLength(p);
    if (!this.#fits(n)) return false;
    this.#reserve(n);
    this.#used = encodeEnhancedPacket(p, this.#buf, this.#used);
    this.#bytes += n;
    this.#records += 1;
    return true;
  }

  /** Encodes `record` (docs/pcapng.md §2) and records it. */
  write(iface: number, timeNs: bigint, record: CaptureRecord, notes: RecordNotes = {}): boolean {
    const data = new Uint8Array(captureRecordLength(record));
    encodeCaptureRecord(record, data, 0);
    return this.writeBytes(iface, timeNs, data, notes);
  }

  /** Records so far. */
  get records(): number {
    return this.#records;
  }

  /** Writes what is buffered and closes the file. */
  close(): CaptureSummary {
    if (!this.#closed) {
      this.#flush();
      closeSync(this.#fd);
      this.#closed = true;
    }
    return { path: this.#path, records: this.#records, bytes: this.#bytes, notRecorded: this.#notRecorded };
  }

  #fits(n: number): boolean {
    const { maxBytes, maxRecords } = this.#limits;
    if (this.#closed || (maxRecords !== undefined && this.#records >= maxRecords) || (maxBytes !== undefined && this.#bytes + n > maxBytes)) {
      this.#notRecorded += 1;
      return false;
    }
    return true;
  }

  #reserve(n: number): void {
    if (this.#closed) throw new Error(`capture ${this.#path} is closed`);
    if (this.#used + n <= this.#buf.length) return;
    this.#flush();
    if (n > this.#buf.length) this.#buf = new Uint8Array(n);
  }

  #flush(): void {
    let at = 0;
    while (at < this.#used) at += writeSync(this.#fd, this.#buf, at, this.#used - at);
    this.#used = 0;
  }
}
