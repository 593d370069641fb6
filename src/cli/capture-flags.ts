import type { Command } from 'commander';

/** `--pcap FILE [--pcap-max-bytes SIZE]` of `riodp switch` and `riodp endpoint` (docs/pcapng.md). */
export interface CaptureFlags {
  readonly pcap?: string;
  readonly pcapMaxBytes?: string;
  readonly pcapName?: string;
}

export function addCaptureOptions(cmd: Command): Command {
  return cmd
    .option('--pcap <file>', 'capture every frame of every link into a pcapng file (docs/pcapng.md), for `riodp decode --pcap` and Wireshark (contrib/wireshark); links are then read frame by frame')
    .option('--pcap-max-bytes <size>', 'stop recording when the capture reaches this size: bytes, or with kB, KB, KiB, MB, MiB, GB, GiB (default 1GiB); what is left out is counted in the log')
    .option('--pcap-name <name>', 'the element name in the capture\'s interface names, <name>.p<port>.tx|rx (default sw<deviceId> for a switch, ep<nodeId> for an end point, decimal)');
}
