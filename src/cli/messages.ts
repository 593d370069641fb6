import { createInterface } from 'node:readline';
import { Type11Capture } from '../session/type11-capture.ts';
import type { CapturedMessage } from '../session/type11-capture.ts';
import { attempt } from '../wire/errors.ts';
import { parseHex, toHex } from '../wire/hex.ts';
import { decodeSerialPacket } from '../wire/packet.ts';
import { decodeSmp } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { toJsonValue } from './json/output.ts';
import { FileError, fileError, isStdin, processIo, textInput, writeChunk } from './stream-io.ts';
import type { CliIo } from './stream-io.ts';
import { formatTree } from './tree.ts';

export interface MessagesFlags {
  readonly json: boolean;
  readonly smp: boolean;
  readonly lenient: boolean;
}

/**
 * `riodp messages`: the Type 11 data messages of a captured trace (LP-Serial packets in hex, one a
 * line; blank and `#` lines skipped but counted), put together as each destination's session layer
 * gets them (`Type11Capture`), printed in the order they complete. The line number is the time, so
 * a message is named by the line of the segment that completes it.
 *
 * Packets that are not Type 11 (the responses, flow control and data traffic a capture also holds)
 * are passed over. A bad line (hex, CRC, decoding), a segment that cannot be placed, a message
 * abandoned or still incomplete at the end, and with `--smp` a message that is no well-formed
 * Annex 2 message, are one stderr line each; the run goes on. Exit 0; 1 if any of those, or a file
 * cannot be read.
 */
export async function runMessages(file: string | undefined, flags: MessagesFlags, io: CliIo = processIo()): Promise<number> {
  try {
    const input = await textInput(file, io.stdin);
    try {
      return (await messageLines(input, flags, io)) > 0 ? 1 : 0;
    } catch (e) {
      if (e instanceof FileError || typeof (e as NodeJS.ErrnoException | undefined)?.code !== 'string') throw e;
      throw fileError(isStdin(file) ? 'stdin' : file, 'read', e);
    }
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    io.stderr.write(`riodp: ${e.message}\n`);
    return 1;
  }
}

async function messageLines(input: NodeJS.ReadableStream, flags: MessagesFlags, io: CliIo): Promise<number> {
  const capture = new Type11Capture();
  const strict = !flags.lenient;
  let bad = 0;
  const report = (line: number, text: string): void => {
    bad++;
    io.stderr.write(`riodp: line ${line}: ${text}\n`);
  };
  let n = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    const decoded = attempt(() => {
      const bytes = parseHex(text);
      return decodeSerialPacket(bytes, 0, bytes.length, { strict });
    });
    if (!decoded.ok) {
      report(n, decoded.error.message);
      continue;
    }
    const p = decoded.value;
    if (p.ftype !== 11) continue;
    for (const o of capture.packet(p, n)) {
      if (o.kind === 'problem') report(n, `${o.clause}: ${o.text}`);
      else await print(o, n, flags, io, report);
    }
  }
  for (const u of capture.unfinished()) report(u.at, `${u.clause}: ${u.text}`);
  return bad;
}

async function print(m: CapturedMessage, line: number, flags: MessagesFlags, io: CliIo, report: (line: number, text: string) => void): Promise<void> {
  let smp: SmpMessage | undefined;
  if (flags.smp) {
    const r = attempt(() => decodeSmp(m.bytes, 0, m.bytes.length, { strict: !flags.lenient }));
    if (r.ok) smp = r.value;
    else report(line, `the message from ${m.sourceID} to ${m.destinationID}, mailbox ${m.mailbox}: smp.${r.error.message}`);
  }
  if (flags.json) {
    const head = { line, tt: m.tt, sourceID: m.sourceID, destinationID: m.destinationID, mailbox: m.mailbox, length: m.bytes.length, message: toHex(m.bytes) };
    await writeChunk(io.stdout, `${JSON.stringify(smp === undefined ? head : { ...head, smp: toJsonValue(smp) })}\n`);
  } else if (!flags.smp) {
    await writeChunk(io.stdout, `${toHex(m.bytes)}\n`);
  } else if (smp !== undefined) {
    await writeChunk(io.stdout, `${formatTree(`line ${line}: message from ${m.sourceID} to ${m.destinationID}, mailbox ${m.mailbox}`, m.bytes.length, smp)}\n`);
  }
}
