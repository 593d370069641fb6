import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors as errors } from '../../../test/support/scenario-errors.ts';
import { buildFabric } from './build.ts';
import { parseScenario } from './load.ts';
import { runBuilt } from './run.ts';
import type { VariantRun } from './run.ts';
import { reassemblySettings } from './schema-reassembly.ts';

/**
 * Three sources send 1 KiB PDUs (four 256-byte Part 10 segments each) to host 0 at once: their
 * segments interleave on host 0's link, so host 0 has up to three PDUs assembling at a time.
 */
const INCAST = (endpoints: string): string => `
name: reassembly
duration: 30us
topology: { kind: switch, hosts: 4 }
switch: { speedup: 4 }
endpoints: ${endpoints}
traffic:
  - { pattern: incast, sink: 0, load: 0.6, sizes: 1KiB }
`;

interface Ran {
  readonly run: VariantRun;
  /** Host 0's reassembler, as its snapshot shows it (null: it never took a segment). */
  readonly reassembler: { readonly contextLimit: number; readonly idleTimeout: number | null } | null;
}

function run(endpoints: string): Ran {
  const b = buildFabric(parseScenario(INCAST(endpoints)));
  const r = runBuilt(b);
  const snap = b.endpoints[0]?.snapshot();
  assert.ok(snap !== undefined);
  return { run: r, reassembler: snap['reassembler'] };
}

const count = (r: Ran, name: string): number => r.run.results.counts[name] ?? 0;

test('Part 10 §5.4.3 Table 5-5, §3.2.5: endpoints.reassembly {} takes 65536 contexts ("0x0000 - 64k segmentation contexts") and no idle timeout; times are ps', () => {
  assert.deepEqual(reassemblySettings.parse({}), { contexts: 65_536, idleTimeout: null });
  assert.deepEqual(reassemblySettings.parse({ contexts: 3, idleTimeout: '2us' }), { contexts: 3, idleTimeout: 2_000_000 });
  const s = parseScenario(INCAST('{ sar: true, reassembly: { contexts: 2, idleTimeout: 5us } }'));
  assert.deepEqual(s.variants[0]?.config.endpoints.reassembly, { contexts: 2, idleTimeout: 5_000_000 });
  assert.equal(parseScenario(INCAST('{ sar: true }')).variants[0]?.config.endpoints.reassembly, undefined);
});

test('issue 7 §3 "an invalid file is refused with the path of each bad field and what was expected": endpoints.reassembly', () => {
  assert.deepEqual(errors(INCAST('{ sar: true, reassembly: { contexts: 0, idleTimeout: 0, segSupport: 4 } }')), [
    'endpoints.reassembly.contexts: expected an integer 1..65536',
    'endpoints.reassembly.idleTimeout: expected a time above 0, or null for no timeout',
    'endpoints.reassembly.segSupport: unknown field',
  ]);
  // Decision: one device ID per end point and VC0 links leave nothing for these to change.
  assert.deepEqual(errors(INCAST('{ sar: true, reassembly: { destinationInContext: true, vcCount: 2 } }')), [
    'endpoints.reassembly.destinationInContext: unknown field',
    'endpoints.reassembly.vcCount: unknown field',
  ]);
  assert.deepEqual(errors(INCAST('{ sar: true, reassembly: { contexts: 65537 } }')), ['endpoints.reassembly.contexts: expected an integer 1..65536']);
  assert.deepEqual(errors(INCAST('{ sar: true, reassembly: 2 }')), ['endpoints.reassembly: expected reassembly settings {contexts, idleTimeout}']);
});

test('Part 10 §3.2.4 "The number of contexts that can be supported by a particular destination end point is specified in a CAR": with one context, interleaved PDUs find none and are lost as defects', () => {
  const plenty = run('{ sar: true }');
  const one = run('{ sar: true, reassembly: { contexts: 1 } }');
  assert.equal(plenty.reassembler?.contextLimit, 65_536);
  assert.equal(one.reassembler?.contextLimit, 1);
  assert.equal(count(plenty, 'reassembler.no-context'), 0);
  assert.equal(plenty.run.results.headline.pduDefects, 0);
  assert.ok(count(one, 'reassembler.no-context') > 0, 'start segments found every context open');
  assert.ok(one.run.results.headline.pduDefects >= count(one, 'reassembler.no-context'));
  assert.ok(one.run.results.aggregate.deliveredPdus < plenty.run.results.aggregate.deliveredPdus);
  assert.ok(one.run.results.aggregate.deliveredPdus > 0, 'the PDU that holds the context still gets through');
  // Three contexts serve three sources: nothing is lost.
  const three = run('{ sar: true, reassembly: { contexts: 3 } }');
  assert.equal(count(three, 'reassembler.no-context'), 0);
  assert.equal(three.run.results.headline.pduDefects, 0);
});

test('Part 10 §3.2.5 "a timeout as part of the lost packet detection mechanism": endpoints.reassembly.idleTimeout closes a context left idle that long, and its PDU is lost', () => {
  // A 256-byte segment takes 276 octets + a delimiter, over 221 ns on the 10 Gbit/s host link:
  // 100 ns is shorter than any gap between two segments of a PDU, 10 µs longer than all of them.
  const short = run('{ sar: true, reassembly: { idleTimeout: 100ns } }');
  const long = run('{ sar: true, reassembly: { idleTimeout: 10us } }');
  assert.equal(short.reassembler?.idleTimeout, 100_000);
  assert.ok(count(short, 'reassembler.idle-timeout') > 0);
  assert.equal(short.run.results.aggregate.deliveredPdus, 0, 'every PDU has four segments: none survives');
  assert.ok(short.run.results.headline.pduDefects > 0);
  assert.equal(count(long, 'reassembler.idle-timeout'), 0);
  assert.equal(long.run.results.headline.pduDefects, 0);
  assert.ok(long.run.results.aggregate.deliveredPdus > 0);
});

test('decision: endpoints.reassembly without endpoints.sar is accepted and changes nothing (plain packets are not reassembled by Part 10)', () => {
  const plain = run('{ sar: false }');
  const withSettings = run('{ sar: false, reassembly: { contexts: 1, idleTimeout: 1ns } }');
  assert.equal(withSettings.reassembler, null, 'no reassembler was needed');
  assert.deepEqual(withSettings.run.results, plain.run.results);
});
