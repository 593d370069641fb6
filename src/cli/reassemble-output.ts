import { mkdir, open, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReassembledPdu } from '../streaming/reassembler-types.ts';
import { fileError, writeChunk } from './stream-io.ts';
import type { PduDestination } from './stream-options.ts';

/** Where `riodp reassemble` puts the PDUs it delivers, in delivery order. */
export interface PduSink {
  write(pdu: ReassembledPdu): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file of the n-th PDU delivered (1-based) under `--out-dir`: the order first, zero-padded to
 * six digits so that a plain `ls` lists the files in delivery order, then the VSID from the
 * destination's viewpoint (§3.2.2 "source ID+cos+streamID represents a unique stream") and the
 * destinationID, in decimal, e.g. `pdu-000001-src1-dst5-cos3-stream18.bin`.
 */
export function pduFileName(order: number, pdu: ReassembledPdu): string {
  const v = pdu.vsid;
  return `pdu-${String(order).padStart(6, '0')}-src${v.sourceID}-dst${v.destinationID}-cos${v.cos}-stream${v.streamID}.bin`;
}

class StreamSink implements PduSink {
  readonly #stream: NodeJS.WritableStream;

  constructor(stream: NodeJS.WritableStream) {
    this.#stream = stream;
  }

  async write(pdu: ReassembledPdu): Promise<void> {
    await writeChunk(this.#stream, pdu.payload);
  }

  close(): Promise<void> {
    // stdout belongs to the process: it is flushed and closed when the process exits.
    return Promise.resolve();
  }
}

class FileSink implements PduSink {
  readonly #file: FileHandle;
  readonly #path: string;

  constructor(file: FileHandle, path: string) {
    this.#file = file;
    this.#path = path;
  }

  async write(pdu: ReassembledPdu): Promise<void> {
    try {
      await this.#file.write(pdu.payload);
    } catch (e) {
      throw fileError(`--out ${this.#path}`, 'write', e);
    }
  }

  async close(): Promise<void> {
    await this.#file.close();
  }
}

class DirSink implements PduSink {
  readonly #dir: string;
  #count = 0;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async write(pdu: ReassembledPdu): Promise<void> {
    const path = join(this.#dir, pduFileName(++this.#count, pdu));
    try {
      await writeFile(path, pdu.payload);
    } catch (e) {
      throw fileError(path, 'write', e);
    }
  }

  close(): Promise<void> {
    // Each PDU's file is written and closed by writeFile.
    return Promise.resolve();
  }
}

/** Opens the destination before any input is read, so that a bad --out fails at once (exit 1). */
export async function openSink(d: PduDestination, stdout: NodeJS.WritableStream): Promise<PduSink> {
  switch (d.kind) {
    case 'stdout':
      return new StreamSink(stdout);
    case 'file':
      try {
        return new FileSink(await open(d.path, 'w'), d.path);
      } catch (e) {
        throw fileError(`--out ${d.path}`, 'write', e);
      }
    case 'dir':
      try {
        await mkdir(d.path, { recursive: true });
      } catch (e) {
        throw fileError(`--out-dir ${d.path}`, 'create', e);
      }
      return new DirSink(d.path);
  }
}
