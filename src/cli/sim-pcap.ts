import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PCAP_MAX_BYTES } from '../sim/capture/fabric-capture.ts';
import type { SimCaptureFile, SimCaptureOptions } from '../sim/capture/fabric-capture.ts';
import type { ScenarioRun } from '../sim/scenario/run.ts';
import { parseSize, parseTime } from '../sim/scenario/units.ts';

/**
 * `riodp sim --pcap DIR [--pcap-max-bytes SIZE] [--pcap-until TIME]` (docs/cli.md, docs/pcapng.md
 * §3–§5): the options checked into the run's capture options, the folder made before the run, and
 * the captures' line of the summary.
 */

export interface PcapFlags {
  readonly pcap?: string;
  readonly pcapMaxBytes?: string;
  readonly pcapUntil?: string;
}

/** The smallest --pcap-max-bytes: room for the section header and a link's four interfaces. */
export const PCAP_MIN_BYTES = 1024;

/** A size or a time as scenarios write them; a bare number is bytes or ps. */
function quantity(text: string, parse: (v: unknown) => number | undefined): number | undefined {
  return /^\d+$/.test(text) ? (Number.isSafeInteger(Number(text)) ? Number(text) : undefined) : parse(text);
}

/** The run's capture options, or the one line that refuses the flags (exit 2); undefined without --pcap. */
export function pcapOptions(flags: PcapFlags, application: string): SimCaptureOptions | string | undefined {
  if (flags.pcap === undefined) {
    const given = flags.pcapMaxBytes !== undefined ? '--pcap-max-bytes' : flags.pcapUntil !== undefined ? '--pcap-until' : undefined;
    return given === undefined ? undefined : `${given}: needs --pcap DIR (there is no capture to limit)`;
  }
  if (flags.pcap === '') return '--pcap: expected a directory';
  let maxBytes = DEFAULT_PCAP_MAX_BYTES;
  if (flags.pcapMaxBytes !== undefined) {
    const n = quantity(flags.pcapMaxBytes, parseSize);
    if (n === undefined || n < PCAP_MIN_BYTES) return `--pcap-max-bytes: expected a size of at least 1KiB: bytes, or with B, KB, KiB, MB or MiB ("10MB")`;
    maxBytes = n;
  }
  let until: number | undefined;
  if (flags.pcapUntil !== undefined) {
    until = quantity(flags.pcapUntil, parseTime);
    if (until === undefined) return '--pcap-until: expected a time: ps as a number, or with ps, ns, us, ms or s ("10us")';
  }
  return { dir: resolve(flags.pcap), maxBytes, application, ...(until === undefined ? {} : { until }) };
}

/** Makes the folder before the run, so that one that cannot be written fails at once; the error's text, or undefined. */
export function preparePcapDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (e) {
    return `cannot write the captures to ${dir}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Every capture file of a run with its variant. */
function files(run: ScenarioRun): (SimCaptureFile & { readonly variant: string })[] {
  return run.variants.flatMap((v) => (v.captures ?? []).map((f) => ({ ...f, variant: v.name })));
}

/** The totals of a run's captures, as `--json` prints them under `pcap`. */
export function pcapJson(run: ScenarioRun, dir: string): unknown {
  const all = files(run);
  const sum = (k: 'records' | 'bytes' | 'notRecorded' | 'afterUntil'): number => all.reduce((n, f) => n + f[k], 0);
  return {
    dir,
    records: sum('records'),
    bytes: sum('bytes'),
    notRecorded: sum('notRecorded'),
    afterUntil: sum('afterUntil'),
    files: all.map((f) => ({ path: f.path, variant: f.variant, link: f.link, records: f.records, bytes: f.bytes, notRecorded: f.notRecorded, afterUntil: f.afterUntil })),
  };
}

/** The summary's line: `captures: DIR: 4 files, 890 records, 150060 bytes` and what the limits left out. */
export function pcapLine(run: ScenarioRun, dir: string): string {
  const all = files(run);
  const records = all.reduce((n, f) => n + f.records, 0);
  const bytes = all.reduce((n, f) => n + f.bytes, 0);
  const notRecorded = all.reduce((n, f) => n + f.notRecorded, 0);
  const afterUntil = all.reduce((n, f) => n + f.afterUntil, 0);
  const full = all.filter((f) => f.notRecorded > 0).length;
  let line = `captures: ${dir}: ${all.length} file${all.length === 1 ? '' : 's'}, ${records} records, ${bytes} bytes`;
  if (notRecorded > 0) line += `; ${notRecorded} records not recorded: ${full} file${full === 1 ? '' : 's'} reached --pcap-max-bytes`;
  if (afterUntil > 0) line += `; ${afterUntil} records after --pcap-until`;
  return line;
}
