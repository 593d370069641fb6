import { createInterface } from 'node:readline';
import { Reassembler } from '../streaming/reassembler.ts';
import { WireError, WireErrorCode, attempt } from '../wire/errors.ts';
import { parseHex } from '../wire/hex.ts';
import { decodeSerialPacket } from '../wire/packet.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import { openSink } from './reassemble-output.ts';
import type { PduSink } from './reassemble-output.ts';
import { describeEvent, describeUnfinished } from './reassemble-report.ts';
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
 * Every bad line (hex, CRC, strict decoding, a packet that is not Type 9) and every PDU lost (a
 * defect, no free context, no end segment before the input ends) is one stderr line naming the
 * input line and the rule; the run goes on. An abort (segmentation rule 9) is reported as well but
 * is no error: the source discarded its PDU as the protocol allows. Traffic management packets
 * (xh = 1) are Type 9 but carry no PDU data (§4.3): they are skipped without a report.
 *
 * Exit 0; 1 if any line was bad or any PDU was lost, or a file cannot be read or written; 2 for a
 * usage error.
 */
export async function runReassemble(file: string | undefined, flags: ReassembleFlags, io: CliIo = processIo()): Promise<number> {
  let sink: PduSink | undefined;
  try {
    const opts = reassembleOptions(flags);
    const input = await textInput(file, io.stdin);
    sink = await openSink(opts.destination, io.stdout);
    const engine = new Reassembler({ mtu: opts.mtu, segSupport: opts.segSupport });
    let bad: number;
    try {
      bad = await reassembleLines(input, engine, sink, io.stderr);
    } catch (e) {
      if (e instanceof FileError || typeof (e as NodeJS.ErrnoException | undefined)?.code !== 'string') throw e;
      throw fileError(isStdin(file) ? 'stdin' : file, 'read', e);
    }
    return bad > 0 ? 1 : 0;
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof FileError)) throw e;
    io.stderr.write(`riodp: ${e.message}\n`);
    return e instanceof UsageError ? 2 : 1;
  } finally {
    await sink?.close();
  }
}

/** Feeds every packet line to the engine; returns the number of bad lines and lost PDUs. */
async function reassembleLines(input: NodeJS.ReadableStream, engine: Reassembler, sink: PduSink, stderr: NodeJS.WritableStream): Promise<number> {
  let bad = 0;
  const report = (line: number, text: string): void => {
    stderr.write(`riodp: line ${line}: ${text}\n`);
  };
  let n = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    n++;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    const decoded = attempt(() => type9Packet(parseHex(text)));
    if (!decoded.ok) {
      bad++;
      report(n, decoded.error.message);
      continue;
    }
    for (const out of engine.handle({ kind: 'packet', packet: decoded.value }, n)) {
      if (out.kind === 'pdu') {
        await sink.write(out);
      } else if (out.kind === 'event') {
        const said = describeEvent(out);
        if (said === undefined) continue;
        report(n, said);
        if (out.name !== 'aborted') bad++;
      }
    }
  }
  // A PDU already reported defective (rules 4, 5) waits in `discarding` for its end: not reported twice.
  const unfinished = engine.openContexts().filter((c) => c.state === 'assembling').sort((a, b) => a.openedAt - b.openedAt);
  for (const c of unfinished) {
    bad++;
    report(c.openedAt, describeUnfinished(c));
  }
  return bad;
}

/** A whole serial packet, strictly decoded (as `riodp decode` does), that must be Type 9. */
function type9Packet(bytes: Uint8Array): Type9Packet {
  const p = decodeSerialPacket(bytes, 0, bytes.length, { strict: true });
  if (p.ftype !== 9) {
    throw new WireError(WireErrorCode.unsupported, 'ftype', 1, 'Part 10 §4.2', `ftype ${p.ftype} is not a Type 9 data streaming packet`);
  }
  return p;
}
