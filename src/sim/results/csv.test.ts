import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowTable } from '../fabric/endpoint-flows.ts';
import { Collector } from './collector.ts';
import { flowsCsv, latencyCsv, occupancyCsv, toCsv, writeResultFiles } from './csv.ts';

function sample(): Collector {
  const flows = new FlowTable();
  flows.register(1, 2, 1, 0, '0C');
  const c = new Collector({ sampleInterval: 100, flows });
  c.offered(0, 0, 64, 100, true);
  c.packetDelivered(0, 150, 80, 150);
  c.pduDelivered(0, 150, 64, 150);
  c.occupancy('ep1:src', 0, 1, 64);
  c.occupancy('ep1:src', 20, 0, 0);
  c.finish(200);
  return c;
}

test('issue 7 §3 results as CSV: flows.csv has one row per flow with its rates, latencies and XOFF time', () => {
  const text = flowsCsv(sample().results());
  const [header, row, end] = text.split('\r\n');
  assert.equal(end, '');
  const cols = (header ?? '').split(',');
  assert.equal(cols[0], 'flow');
  const cells = new Map(cols.map((k, i) => [k, (row ?? '').split(',')[i]]));
  assert.equal(cells.get('flowID'), '0C');
  assert.equal(cells.get('deliveredBytes'), '80');
  // 80 octets in 200 ps = 3.2e12 bit/s.
  assert.equal(cells.get('throughputBps'), '3200000000000');
  assert.equal(cells.get('throughputFraction'), '', 'null is an empty field');
  assert.equal(cells.get('pduLatencyP99'), '150');
});

test('issue 7 §3 results as CSV: occupancy.csv holds the sampled series, latency.csv the aggregate and per-flow percentiles', () => {
  const r = sample().results();
  assert.equal(occupancyCsv(r), 'component,time,packets,bytes\r\nep1:src,0,1,64\r\nep1:src,100,0,0\r\nep1:src,200,0,0\r\n');
  const lines = latencyCsv(r).trimEnd().split('\r\n');
  assert.equal(lines[0], 'scope,flow,kind,count,min,mean,p50,p90,p99,p999,p9999,max');
  assert.equal(lines[1], 'aggregate,,packet,1,150,150,150,150,150,150,150,150');
  assert.equal(lines.length, 5);
  assert.equal(lines[3], 'flow,0,packet,1,150,150,150,150,150,150,150,150');
});

test('RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled', () => {
  assert.equal(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [null, 3]]), 'a,b\r\n"x,y","say ""hi"""\r\n,3\r\n');
});

test('issue 7 §3 "written as JSON and CSV": results.json, flows.csv, occupancy.csv and latency.csv in one directory', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-results-'));
  try {
    const r = sample().results();
    const paths = await writeResultFiles(join(dir, 'out'), r);
    assert.deepEqual(paths.map((p) => p.slice(dir.length + 1)), ['out/results.json', 'out/flows.csv', 'out/occupancy.csv', 'out/latency.csv']);
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'out', 'results.json'), 'utf8')), JSON.parse(JSON.stringify(r)));
    assert.equal(await readFile(join(dir, 'out', 'flows.csv'), 'utf8'), flowsCsv(r));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
