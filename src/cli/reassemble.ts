import { createInterface } from 'node:readline';
import { Reassembler } from '../streaming/reassembler.ts';
import { attempt } from '../wire/errors.ts';
import type { DecodeResult } from '../wire/errors.ts';
import { parseHex } from '../wire/hex.ts';
import { decodeSerialPacket } from '../wire/packet.ts';
import { FTYPE_DATA_STREAMING, isSegmentSizeError } from '../wire/type9.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { openSink } from './reassemble-output.ts';
import type { PduSink } from './reassemble-output.ts';
import { describeEvent, describeSummary, describeUnfinished } from './reassemble-report.ts';
import type { ReassembleTally } from './reassemble-report.ts';
import { FileError, fileError, isStdin, processIo, textInput } from './stream-io.ts';
import type { CliIo } from './stream-io.ts';
import { UsageError, reassembleOptions } from './stream-options.ts';
import type { ReassembleFlags } from './stream-options.ts';

/**
 * `riodp reassemble`: LP-Serial packets in hex, one a line (as `riodp segment` prints them; blank
 * and `#` lines skipped), through the `reassembler` engine (Part 10 §3.2.5 reassembly rules 1–9);
 * the PDUs it delivers are written in delivery order. The input line number is the engine's time,
 * so that a PDU's `openedAt` is the line of its start segment.
 *
 * Lines (docs/cli.md):
 * - a packet that is not Type 9 (its ftype) is passed over and counted: reassembly reads only
 *   Type 9 data segments (Part 10 §4.2), so a trace of a whole link can be given as it is;
 * - a Type 9 packet is decoded strictly, as `riodp decode` does (with `--lenient` as `riodp decode
 *   --lenient` does), except for the segment size, which the engine judges against its MTU
 *   (rules 3–6) instead of the decoder against every MTU;
 * - a line that cannot be used (bad hex, a CRC error, a decoding error) stops the run with one
 *   line; with `--lenient` it is reported, counted and skipped, and the run goes on.
 * Every PDU lost (a defect, no free context, no end segment before the input ends) is one stderr
 * line naming the input line and the rule. An abort (segmentation rule 9) is reported as well but
 * is no error: the source discarded its PDU as the protocol allows. Traffic management packets
 * (xh = 1) are Type 9 but carry no PDU data (§4.3): they are skipped without a report. A run that
 * passed over or skipped a line ends with a summary line.
 *
 * Exit 0; 1 if a line was bad or a PDU was lost, or a file cannot be read or written; 2 for a
 * usage error.
 */
export async function runReassemble(file: string | undefined, flags: ReassembleFlags, io: CliIo = processIo()): Promise<number> {
  let sink: PduSink | undefined;
  try {
    const opts = reassembleOptions(flags);
    const input = await textInput(file, io.stdin);
    sink = await openSink(opts.destination, io.stdout);
    const engine = new Reassembler({ mtu: opts.mtu, segSupport: opts.segSupport });
    let ok: boolean;
    try {
      ok = await reassembleLines(input, engine, sink, io.stderr, opts.lenient);
    } catch (e) {
      if (e instanceof FileError || typeof (e as NodeJS.ErrnoException | undefined)?.code !== 'string') throw e;
      throw fileError(isStdin(file) ? 'stdin' : file, 'read', e);
    }
    return ok ? 0 : 1;
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof FileError)) throw e;
    io.stderr.write(`riodp: ${e.message}\n`);
    return e instanceof UsageError ? 2 : 1;
  } finally {
    await sink?.close();
  }
}

/** What one input line holds. */
type Line =
  | { readonly kind: 'packet'; readonly packet: Type9Packet }
  | { readonly kind: 'not-type9' }
  | { readonly kind: 'bad'; readonly message: string };

/**
 * Feeds every packet line to the engine; true when no line was bad and no PDU was lost. Without
 * `lenient` the first bad line ends the run (false).
 */
async function reassembleLines(input: NodeJS.ReadableStream, engine: Reassembler, sink: PduSink, stderr: NodeJS.WritableStream, lenient: boolean): Promise<boolean> {
  const tally: ReassembleTally = { packets: 0, notType9: 0, firstNotType9: 0, skipped: 0, pdus: 0, lost: 0 };
  const report = (line: number, text: string): void => {
    stderr.write(`riodp: line ${line}: ${text}\n`);
  };
  let n = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    const line = readLine(text, lenient);
    if (line.kind === 'not-type9') {
      if (tally.notType9++ === 0) tally.firstNotType9 = n;
      continue;
    }
    if (line.kind === 'bad') {
      if (!lenient) {
        report(n, `${line.message}; the run stops here (--lenient skips bad lines)`);
        return false;
      }
      tally.skipped++;
      report(n, line.message);
      continue;
    }
    tally.packets++;
    for (const out of engine.handle({ kind: 'packet', packet: line.packet }, n)) {
      if (out.kind === 'pdu') {
        tally.pdus++;
        await sink.write(out);
      } else if (out.kind === 'event') {
        const said = describeEvent(out);
        if (said === undefined) continue;
        report(n, said);
        if (out.name !== 'aborted') tally.lost++;
      }
    }
  }
  // A PDU already reported defective (rules 4, 5) waits in `discarding` for its end: not reported twice.
  const unfinished = engine.openContexts().filter((c) => c.state === 'assembling').sort((a, b) => a.openedAt - b.openedAt);
  for (const c of unfinished) {
    tally.lost++;
    report(c.openedAt, describeUnfinished(c));
  }
  if (tally.notType9 > 0 || tally.skipped > 0) stderr.write(`riodp: ${describeSummary(tally)}\n`);
  return tally.skipped === 0 && tally.lost === 0;
}

/** A line's packet: not Type 9 by its ftype (Part 6 §2.3 Figure 2-2), else decoded. */
function readLine(text: string, lenient: boolean): Line {
  const hex = attempt(() => parseHex(text));
  if (!hex.ok) return { kind: 'bad', message: hex.error.message };
  const bytes = hex.value;
  if (bytes.length >= 2 && ((bytes[1] as number) & 0xf) !== FTYPE_DATA_STREAMING) return { kind: 'not-type9' };
  let decoded: DecodeResult<Type9Packet> = attempt(() => decodeSerialPacket(bytes, 0, bytes.length, { strict: !lenient }) as Type9Packet);
  // The segment size is the engine's to judge, by its MTU (rules 3–6): strict decoding would
  // refuse a start that is no MTU at all before rule 4 could find it short or long.
  if (!decoded.ok && isSegmentSizeError(decoded.error)) decoded = attempt(() => decodeSerialPacket(bytes, 0, bytes.length) as Type9Packet);
  return decoded.ok ? { kind: 'packet', packet: decoded.value } : { kind: 'bad', message: decoded.error.message };
}
