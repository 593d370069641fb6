/**
 * CSV and JSON files of a simulation's results (issue 7 §3 "written as JSON and CSV"):
 *
 * - `flows.csv`: one row per flow, the totals, rates, loads, latency percentiles and XOFF time of
 *   `SimResults.flows` (ps for times, bit/s for rates).
 * - `occupancy.csv`: the sampled occupancy series, one row per (buffer, sample time).
 * - `latency.csv`: latency percentiles, one row per (scope, kind): the aggregate first, then each
 *   flow, each with its packet and PDU latencies.
 *
 * RFC 4180 form: a header line, comma-separated fields, a field quoted when it holds a comma, a
 * quote or a line break, lines ended by CRLF. Empty fields stand for null.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LatencySummary } from './histogram.ts';
import type { SimResults } from './results-types.ts';

type Cell = string | number | null;

function field(v: Cell): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

const LATENCY_COLUMNS = ['count', 'min', 'mean', 'p50', 'p90', 'p99', 'p999', 'p9999', 'max'] as const;

function latencyCells(l: LatencySummary): number[] {
  return LATENCY_COLUMNS.map((k) => l[k]);
}

export function flowsCsv(r: SimResults): string {
  const header = [
    'flow', 'src', 'dst', 'prio', 'crf', 'flowID',
    'offeredPdus', 'offeredBytes', 'offeredLoad', 'droppedPdus', 'droppedBytes',
    'deliveredPackets', 'deliveredBytes', 'deliveredPdus', 'deliveredPduBytes', 'pduDefects',
    'throughputBps', 'payloadBps', 'throughputFraction',
    'packetLatencyMean', 'packetLatencyP50', 'packetLatencyP99', 'packetLatencyMax',
    'pduLatencyMean', 'pduLatencyP50', 'pduLatencyP99', 'pduLatencyMax',
    'xoffTime', 'xoffFraction', 'xoffCount',
  ];
  const rows = r.flows.map((f) => [
    f.flow, f.src, f.dst, f.prio, f.crf, f.flowID,
    f.offeredPdus, f.offeredBytes, f.offeredLoad, f.droppedPdus, f.droppedBytes,
    f.deliveredPackets, f.deliveredBytes, f.deliveredPdus, f.deliveredPduBytes, f.pduDefects,
    f.throughputBps, f.payloadBps, f.throughputFraction,
    f.packetLatency.mean, f.packetLatency.p50, f.packetLatency.p99, f.packetLatency.max,
    f.pduLatency.mean, f.pduLatency.p50, f.pduLatency.p99, f.pduLatency.max,
    f.xoffTime, f.xoffFraction, f.xoffCount,
  ]);
  return toCsv(header, rows);
}

export function occupancyCsv(r: SimResults): string {
  const rows: Cell[][] = [];
  for (const b of r.occupancySeries.buffers) {
    for (let i = 0; i < b.t.length; i++) rows.push([b.component, b.t[i] ?? null, b.packets[i] ?? null, b.bytes[i] ?? null]);
  }
  return toCsv(['component', 'time', 'packets', 'bytes'], rows);
}

export function latencyCsv(r: SimResults): string {
  const rows: Cell[][] = [
    ['aggregate', null, 'packet', ...latencyCells(r.aggregate.packetLatency)],
    ['aggregate', null, 'pdu', ...latencyCells(r.aggregate.pduLatency)],
  ];
  for (const f of r.flows) {
    rows.push(['flow', f.flow, 'packet', ...latencyCells(f.packetLatency)]);
    rows.push(['flow', f.flow, 'pdu', ...latencyCells(f.pduLatency)]);
  }
  return toCsv(['scope', 'flow', 'kind', ...LATENCY_COLUMNS], rows);
}

/** Writes results.json, flows.csv, occupancy.csv and latency.csv into `dir` (created if needed); returns their paths. */
export async function writeResultFiles(dir: string, r: SimResults): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: [string, string][] = [
    ['results.json', JSON.stringify(r, null, 2) + '\n'],
    ['flows.csv', flowsCsv(r)],
    ['occupancy.csv', occupancyCsv(r)],
    ['latency.csv', latencyCsv(r)],
  ];
  const paths: string[] = [];
  for (const [name, text] of files) {
    const p = join(dir, name);
    await writeFile(p, text);
    paths.push(p);
  }
  return paths;
}
