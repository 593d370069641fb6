import type { Command } from 'commander';
import type { ReassembleFlags, SegmentFlags } from './stream-options.ts';

/**
 * `riodp segment` and `riodp reassemble` (Part 10 §3.2.5). Option values stay strings here and
 * are checked by stream-options.ts, so that each usage error is one stderr line naming the
 * clause; the command modules load only when a command runs (`riodp --help` stays fast).
 */
export function streamingCommands(program: Command): void {
  program
    .command('segment')
    .description('cut a PDU (binary FILE or stdin) into Type 9 data streaming segments, printed as serial packet hex one a line (Part 10 §3.2.5)')
    .argument('[file]', "the PDU, binary; '-' or none: stdin")
    .option('--mtu <bytes>', 'MTU in bytes: 32..256, a multiple of 4 (required)')
    .option('--dest <id>', 'destinationID (required)')
    .option('--src <id>', 'sourceID (required)')
    .option('--cos <n>', 'class of service, 0..255 (required)')
    .option('--stream <id>', 'streamID, 0..0xFFFF (required)')
    .option('--flow <flow>', 'transaction request flow: 0A-0F (VC0), 1A-8A (VC1-VC8)', '0A')
    .option('--tt <tt>', '0 Dev8, 1 Dev16, 2 Dev32 (default: the smallest that holds --dest and --src)')
    .option('--max-pdu <bytes>', "the destination's MaxPDU, 1..65536", '65536')
    .option('--json', 'print each segment as riodp decode --json prints it', false)
    .option('--pcap <capture>', 'also write the segments to a pcapng capture (docs/pcapng.md), interface segment.tx, one nanosecond apart')
    .addHelpText('after', '\nNumbers are decimal or 0x hex. Exit 0; 1 if FILE cannot be read or the capture written; 2 for a usage error.\n')
    .action(async (file: string | undefined, flags: SegmentFlags) => {
      const { runSegment } = await import('./segment.ts');
      process.exitCode = await runSegment(file, flags);
    });

  program
    .command('reassemble')
    .description('reassemble Type 9 segments (serial packet hex, one a line, as segment prints them) into PDUs, reporting every defect (Part 10 §3.2.5)')
    .argument('[file]', "the packets; '-' or none: stdin")
    .option('--mtu <bytes>', 'MTU in bytes: 32..256, a multiple of 4', '256')
    .option('--seg-support <n>', 'SegSupport: segmentation contexts, 1..65535, 0 (or 65536) for 64k', '0')
    .option('--out <file>', 'write the PDUs, concatenated in delivery order, to a file instead of stdout')
    .option('--out-dir <dir>', 'write each PDU to its own file pdu-<order>-src<id>-dst<id>-cos<n>-stream<id>.bin in a folder')
    .option('--lenient', 'decode as decode --lenient does, and report, count and skip a line that still cannot be used (bad hex, CRC) instead of stopping there', false)
    .option('--pcap <capture>', 'read the packets from a riodp capture (pcapng, docs/pcapng.md) instead of hex lines; reports name records')
    .option('--interface <name>', 'with --pcap: the interface to reassemble (e.g. ep1.p0.rx); needed when several carry Type 9 packets')
    .addHelpText('after', '\nPackets that are not Type 9 are passed over and counted. Exit 0; 1 if a line was bad, a PDU was lost or a file failed; 2 for a usage error.\n')
    .action(async (file: string | undefined, flags: ReassembleFlags) => {
      const { runReassemble } = await import('./reassemble.ts');
      process.exitCode = await runReassemble(file, flags);
    });
}
