import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../config/issues.ts';
import { patternMap } from '../traffic/permutations.ts';
import type { FixedPattern } from '../traffic/permutations.ts';
import { parseScenario } from './load.ts';
import { runScenario } from './run.ts';

const scenario = (hosts: number, entry: string, extra = ''): string => `
name: synthetic
seed: 3
duration: 4us
topology: { kind: switch, hosts: ${hosts} }
traffic:
  - ${entry}
${extra}`;

const ALL16 = Array.from({ length: 16 }, (_, s) => s);

/** Runs `pattern` at load 0.5 on a 16-host switch; every flow must be a source to its image, and each image must deliver. */
function runsToImages(pattern: FixedPattern, sources?: readonly number[]): void {
  const src = sources === undefined ? '' : `, sources: [${sources.join(', ')}]`;
  const r = runScenario(parseScenario(scenario(16, `{ pattern: ${pattern}, load: 0.5, sizes: 64B${src} }`)));
  const v = r.variants[0]!;
  const expected = [...patternMap(pattern, sources ?? ALL16, 16)].map(([s, d]) => `${s}>${d}`);
  const flows = v.results.flows.filter((f) => f.offeredPdus > 0);
  assert.deepEqual(flows.map((f) => `${f.src}>${f.dst}`).sort(), [...expected].sort(), pattern);
  for (const f of flows) assert.ok(f.deliveredPdus > 0, `${pattern}: flow ${f.src}>${f.dst} delivered nothing`);
  assert.equal(v.results.aggregate.deliveredPdus, flows.reduce((a, f) => a + f.deliveredPdus, 0));
  assert.deepEqual(v.groups.map((g) => g.name), [pattern]);
}

test('issue 21 Dally & Towles §3.2 bit permutations in a run: each source sends only to its image, a source that is its own image sends nothing', () => {
  runsToImages('transpose');
  runsToImages('bit-complement');
  runsToImages('bit-reverse');
  runsToImages('shuffle', [0, 1, 2, 3, 15]);
});

test('issue 21 Dally & Towles §3.2 tornado and neighbour in a run (over the host index): each source sends only to its image', () => {
  runsToImages('tornado');
  runsToImages('neighbour', [4, 9, 15]);
});

const refused = (text: string, re: RegExp): void => {
  assert.throws(() => parseScenario(text), (e: unknown) => e instanceof ConfigError && re.test(e.message));
};

test('issue 21 Dally & Towles §3.2 (decision): the scenario refuses a bit pattern over a host count not a power of two, destinations with a fixed pattern, and sources that are all their own image', () => {
  refused(scenario(12, '{ pattern: bit-reverse, load: 0.5 }'), /traffic\.0\.pattern: expected a host count that is a power of two for bit-reverse \(the topology has 12 hosts\)/);
  refused(scenario(8, '{ pattern: transpose, load: 0.5 }'), /traffic\.0\.pattern: expected a host count that is an even power of two \(4, 16, 64, …\) for transpose \(the topology has 8 hosts\)/);
  refused(scenario(16, '{ pattern: tornado, load: 0.5, destinations: [1, 2] }'), /traffic\.0\.destinations: not allowed with pattern tornado: each source's destination is fixed by the pattern/);
  refused(scenario(16, '{ pattern: transpose, load: 0.5, sources: [0, 5, 10, 15] }'), /traffic\.0\.sources: expected a source whose transpose image is another host \(over 16 hosts each source given is its own image\)/);
  refused(scenario(2, '{ pattern: tornado, load: 0.5 }'), /traffic\.0\.sources: expected a source whose tornado image is another host/);
  refused(scenario(16, '{ pattern: butterfly, load: 0.5 }'), /traffic\.0\.pattern: expected one of uniform, hotspot, permutation, incast, onoff, transpose, bit-complement, bit-reverse, shuffle, tornado, neighbour/);
  // Tornado and neighbour take any host count.
  assert.equal(parseScenario(scenario(12, '{ pattern: tornado, load: 0.5 }')).variants.length, 1);
});
