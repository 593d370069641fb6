/**
 * Captures the simulator writes (`riodp sim --pcap`, docs/pcapng.md §3–§5) read by the real
 * tshark with the dissector: a two-switch fabric with plain (not segmented) traffic, a host link
 * under Part 9 congestion control (synthesized Type 9 single segments, Type 7 CCPs, Status symbols
 * for the credits) and the switch-to-switch link under VoQ backpressure (Status symbols carrying
 * it in stype2). Every record's fields must be riodp's decoding of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario } from '../../src/sim/scenario/run.ts';
import { parseScenario } from '../../src/sim/scenario/load.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { count, runFile, seen } from './run.ts';
import type { RunResult } from './run.ts';
import { scratch } from './tshark.ts';
import { captureScenarioYaml } from '../support/sim-capture-scenario.ts';

const dir = scratch();
process.on('exit', dir.done);

const scenario = parseScenario(captureScenarioYaml('40us'));

/** tshark over a capture's records against riodp's decoding of them (run.ts:runFile). */
function check(path: string): Promise<RunResult> {
  return runFile(path, decodePcapng(readFileSync(path)).packets.map((p) => p.data));
}

test('riodp capture §3–§5 (simulator) / §7: tshark shows every field riodp decodes of each record of simulated links\' captures: Type 9 single segments, CCPs, Status symbols, VoQ backpressure in stype2', async () => {
  const run = runScenario(scenario, { pcap: { dir: join(dir.dir, 'sim') } });
  const host = run.variants[0]?.captures?.find((c) => c.link === 'h0')?.path;
  const fabric = run.variants[1]?.captures?.find((c) => c.link.includes('-'))?.path;
  assert.ok(host !== undefined && fabric !== undefined);
  const [h, f] = await Promise.all([check(host), check(fabric)]);
  assert.deepEqual([h.bad, f.bad, ...h.mismatches, ...f.mismatches], [0, 0]);
  const refs = [...h.refs, ...f.refs];
  assert.ok(refs.every((r) => r.error === undefined && r.strictError === undefined), 'every record decodes strictly');
  assert.deepEqual(seen(refs, 'riodp.type9.segment'), new Set(['single']));
  assert.ok(count(refs, 'riodp.type9.streamid') > 40, 'data packets');
  assert.ok(count(h.refs, 'riodp.type7.flowid') > 0, 'CCPs');
  assert.deepEqual(seen(refs, 'riodp.cs48.stype0name'), new Set(['status']));
  assert.ok(count(f.refs, 'riodp.cs48.voq.congestedports') > 0, 'VoQ backpressure in stype2');
});
