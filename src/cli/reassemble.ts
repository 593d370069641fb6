import { Reassembler } from '../streaming/reassembler.ts';
import { hexLines } from './reassemble-input.ts';
import type { Item } from './reassemble-input.ts';
import { openSink } from './reassemble-output.ts';
import { captureItems } from './reassemble-pcap.ts';
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
    const input = flags.pcap === undefined ? hexLines(await textInput(file, io.stdin), opts.lenient) : await captureItems(flags.pcap, file, flags.interface, opts.lenient);
    sink = await openSink(opts.destination, io.stdout);
    const engine = new Reassembler({ mtu: opts.mtu, segSupport: opts.segSupport });
    let ok: boolean;
    try {
      ok = await reassembleItems(input, flags.pcap === undefined ? 'line' : 'record', engine, sink, io.stderr, opts.lenient);
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

/**
 * Feeds every packet to the engine; true when nothing was bad and no PDU was lost. Without
 * `lenient` the first bad line or record ends the run (false).
 */
async function reassembleItems(
  input: AsyncIterable<Item> | Iterable<Item>,
  unit: 'line' | 'record',
  engine: Reassembler,
  sink: PduSink,
  stderr: NodeJS.WritableStream,
  lenient: boolean,
): Promise<boolean> {
  const tally: ReassembleTally = { unit, notPackets: 0, packets: 0, notType9: 0, firstNotType9: 0, skipped: 0, pdus: 0, lost: 0 };
  const report = (at: number, text: string): void => {
    stderr.write(`riodp: ${unit} ${at}: ${text}\n`);
  };
  for await (const line of input) {
    const n = line.at;
    if (line.kind === 'not-packet') {
      tally.notPackets++;
      continue;
    }
    if (line.kind === 'not-type9') {
      if (tally.notType9++ === 0) tally.firstNotType9 = n;
      continue;
    }
    if (line.kind === 'bad') {
      if (!lenient) {
        report(n, `${line.message}; the run stops here (--lenient skips bad ${unit}s)`);
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
  if (tally.notType9 > 0 || tally.skipped > 0 || tally.notPackets > 0) stderr.write(`riodp: ${describeSummary(tally)}\n`);
  return tally.skipped === 0 && tally.lost === 0;
}
