import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { ScenarioRun } from '../sim/scenario/run.ts';
import { pcapLine, pcapOptions } from './sim-pcap.ts';

test('docs/cli.md riodp sim --pcap: the options become the run\'s capture options (sizes and times as scenarios write them, a bare number bytes or ps)', () => {
  assert.equal(pcapOptions({}, 'riodp sim'), undefined);
  assert.deepEqual(pcapOptions({ pcap: 'caps' }, 'riodp sim'), { dir: resolve('caps'), maxBytes: 100_000_000, application: 'riodp sim' });
  assert.deepEqual(pcapOptions({ pcap: 'caps', pcapMaxBytes: '2KiB', pcapUntil: '20us' }, 'a'), { dir: resolve('caps'), maxBytes: 2048, application: 'a', until: 20_000_000 });
  assert.deepEqual(pcapOptions({ pcap: 'caps', pcapMaxBytes: '5000', pcapUntil: '1500' }, 'a'), { dir: resolve('caps'), maxBytes: 5000, application: 'a', until: 1500 });
});

test('docs/cli.md riodp sim --pcap: a limit without --pcap, a size below 1KiB or not a size, a time that is not one, are refused with one line', () => {
  assert.equal(pcapOptions({ pcapUntil: '3us' }, 'a'), '--pcap-until: needs --pcap DIR (there is no capture to limit)');
  assert.equal(pcapOptions({ pcapMaxBytes: '3MB' }, 'a'), '--pcap-max-bytes: needs --pcap DIR (there is no capture to limit)');
  for (const size of ['100', '1000B', 'big', '1.5B', '-3KB']) assert.match(JSON.stringify(pcapOptions({ pcap: 'x', pcapMaxBytes: size }, 'a')), /^"--pcap-max-bytes: expected a size of at least 1KiB/);
  for (const time of ['soon', '1.5ps', '-1us']) assert.match(JSON.stringify(pcapOptions({ pcap: 'x', pcapUntil: time }, 'a')), /^"--pcap-until: expected a time/);
  assert.equal(pcapOptions({ pcap: '' }, 'a'), '--pcap: expected a directory');
});

test('docs/cli.md riodp sim --pcap: the summary line counts the files, the records, and what each limit left out', () => {
  const file = (records: number, notRecorded: number, afterUntil: number) => ({ path: 'p', link: 'l', records, bytes: 1000, notRecorded, afterUntil });
  const run = (files: ReturnType<typeof file>[]): ScenarioRun => ({ name: 's', variants: [{ captures: files }] }) as unknown as ScenarioRun;
  assert.equal(pcapLine(run([file(10, 0, 0)]), '/c'), 'captures: /c: 1 file, 10 records, 1000 bytes');
  assert.equal(pcapLine(run([file(10, 5, 2), file(3, 0, 1)]), '/c'), 'captures: /c: 2 files, 13 records, 2000 bytes; 5 records not recorded: 1 file reached --pcap-max-bytes; 3 records after --pcap-until');
});
