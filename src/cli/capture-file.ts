import { readFile } from 'node:fs/promises';
import { WireError } from '../wire/errors.ts';
import { decodePcapng, isPcapng } from '../wire/pcapng/decode.ts';
import type { PcapngFile } from '../wire/pcapng/decode.ts';
import { LINKTYPE_USER0 } from '../wire/pcapng/format.ts';
import { FileError, fileError } from './stream-io.ts';

/**
 * A riodp capture read whole (docs/pcapng.md), for the commands that take `--pcap FILE` as their
 * input (`riodp reassemble`, `riodp model`): they choose interfaces before they read a record.
 */

/** The file read and decoded; a FileError (`<path>: …`, one line) when it cannot be read or is not pcapng. */
export async function readCaptureFile(path: string): Promise<PcapngFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw fileError(path, 'read', e);
  }
  if (!isPcapng(bytes)) throw new FileError(`${path}: not a pcapng file (it does not start with a Section Header Block)`);
  try {
    return decodePcapng(bytes);
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    throw new FileError(`${path}: ${e.message}`);
  }
}

/** The interfaces whose records are riodp link frames (LINKTYPE_USER0, docs/pcapng.md §1), as indexes. */
export function riodpInterfaces(capture: PcapngFile): number[] {
  return capture.interfaces.flatMap((i, k) => (i.linkType === LINKTYPE_USER0 ? [k] : []));
}

/** `a, b, c`: the names of interfaces, for messages. */
export function interfaceNames(capture: PcapngFile, ks: readonly number[]): string {
  return ks.map((k) => capture.interfaces[k]?.name ?? `#${k}`).join(', ');
}
