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
import { toHex } from '../../src/wire/hex.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { compare } from './compare.ts';
import { reference } from './reference.ts';
import type { Reference } from './reference.ts';
import { SEED_PREFS, count, seen, tsharkPath } from './run.ts';
import { dissect, scratch } from './tshark.ts';

const dir = scratch();
process.on('exit', dir.done);

const scenario = parseScenario(`
name: capture
seed: 5
duration: 40us
warmup: 5us
topology: { kind: mesh, width: 2, height: 1, hostsPerSwitch: 2 }
link: { lanes: 1, baud: 3.125, encoding: 8b10b, propagation: 20ns }
linkOverrides: [{ match: "*-*", lanes: 4 }]
switch: { speedup: 4, inputBuffer: { packets: 8 }, outputBuffer: { packets: 32 } }
traffic:
  - { group: hot, pattern: incast, sink: 2, sources: [0, 1, 3], load: 0.9, sizes: 200B }
variants:
  - { name: part9, overrides: { switch: { congestion: { highWatermark: 6, lowWatermark: 3 } } } }
  - { name: voq, overrides: { switch: { queueing: cioq-voq-backpressure, voq: { high: 4, low: 2 } } } }
`);

/** tshark's fields of every record of a capture against riodp's decoding: the records that disagree, and riodp's view of all. */
async function check(path: string): Promise<{ refs: Reference[]; bad: string[] }> {
  const file = decodePcapng(readFileSync(path));
  const shown = await dissect(tsharkPath(), path, { 'riodp.voq_format': SEED_PREFS.voqFormat, 'riodp.voq_group_size': String(SEED_PREFS.voqGroupSize) });
  assert.equal(shown.length, file.packets.length);
  const refs = file.packets.map((p) => reference(p.data, SEED_PREFS));
  const bad = refs.flatMap((ref, i) => {
    const m = compare(ref, shown[i]!);
    return m.length === 0 ? [] : [`${path} record ${i + 1} ${toHex(file.packets[i]!.data)}:\n    ${m.join('\n    ')}`];
  });
  return { refs, bad };
}

test('riodp capture §3–§5 (simulator) / §7: tshark shows every field riodp decodes of each record of simulated links\' captures: Type 9 single segments, CCPs, Status symbols, VoQ backpressure in stype2', async () => {
  const run = runScenario(scenario, { pcap: { dir: join(dir.dir, 'sim') } });
  const host = run.variants[0]?.captures?.find((c) => c.link === 'h0')?.path;
  const fabric = run.variants[1]?.captures?.find((c) => c.link.includes('-'))?.path;
  assert.ok(host !== undefined && fabric !== undefined);
  const [h, f] = await Promise.all([check(host), check(fabric)]);
  assert.deepEqual([...h.bad, ...f.bad].slice(0, 5), []);
  const refs = [...h.refs, ...f.refs];
  assert.ok(refs.every((r) => r.error === undefined && r.strictError === undefined), 'every record decodes strictly');
  assert.deepEqual(seen(refs, 'riodp.type9.segment'), new Set(['single']));
  assert.ok(count(refs, 'riodp.type9.streamid') > 40, 'data packets');
  assert.ok(count(h.refs, 'riodp.type7.flowid') > 0, 'CCPs');
  assert.deepEqual(seen(refs, 'riodp.cs48.stype0name'), new Set(['status']));
  assert.ok(count(f.refs, 'riodp.cs48.voq.congestedports') > 0, 'VoQ backpressure in stype2');
});
