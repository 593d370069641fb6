import { parseSize } from '../net/demo-data.ts';
import type { CaptureSettings } from '../net/link-capture.ts';
import type { CaptureFlags } from './capture-flags.ts';

/** The capture the flags ask for; a string is the usage error (one line, exit 2). */
export function captureSettings(flags: CaptureFlags): (CaptureSettings & { readonly name?: string }) | undefined | string {
  if (flags.pcap === undefined) {
    const alone = flags.pcapMaxBytes !== undefined ? '--pcap-max-bytes' : flags.pcapName !== undefined ? '--pcap-name' : null;
    return alone === null ? undefined : `${alone} needs --pcap`;
  }
  const name = flags.pcapName;
  // Interface names are <name>.p<port>.<tx|rx> (docs/pcapng.md §3): a name with a dot or a space would read as another.
  if (name !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(name)) return `--pcap-name must be 1 to 64 letters, digits, '_' or '-', not '${name}'`;
  const named = name === undefined ? { path: flags.pcap } : { path: flags.pcap, name };
  if (flags.pcapMaxBytes === undefined) return named;
  const n = parseSize(flags.pcapMaxBytes);
  if (n === null || n < 1) return `--pcap-max-bytes must be a size in bytes: an integer, or with B, kB, KB, KiB, MB, MiB, GB or GiB, not '${flags.pcapMaxBytes}'`;
  return { ...named, maxBytes: n };
}
