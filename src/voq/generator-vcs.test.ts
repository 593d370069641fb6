import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Stype0, Stype1 } from '../wire/symbol-types.ts';
import { voqSymbol } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import { activeVcList } from './generator-link.ts';
import type { VoqGeneratorOutput } from './generator-types.ts';

/**
 * Regression: with 2 or 4 optional VCs active the generator tracked VCs 0..activeVcs, while a
 * VC_Status VCID names VC1 and VC5 (2 VCs) or VC1, VC3, VC5 and VC7 (4 VCs) by Part 6 Table 3-12:
 * congestion of VC5 was refused as `unknown-vc`, and a linked group of VC2 could never be carried.
 */

const LINKED = { generation: true, participation: true, vcLinking: true } as const;

function gen(activeVcs: 2 | 4): VoqGenerator {
  return new VoqGenerator({ ports: 6, detector: { kind: 'output-queue', high: 1, low: 0 }, portSettings: LINKED, activeVcs });
}

/** The stype2 a VC_Status carrier with this VCID gets on link 0 (CS48 parameter0 "000, VCID", Part 6 Table 3-11). */
function vcStatus(g: VoqGenerator, vcid: number): Extract<VoqGeneratorOutput, { kind: 'stype2' }> {
  const out = g.handle({ kind: 'fill', port: 0, symbol: { stype0: Stype0.vcStatus, parameter0: vcid, parameter1: 5, stype1: Stype1.nop, cmd: 0 } }, 0);
  const s = out.find((o) => o.kind === 'stype2');
  assert.ok(s?.kind === 'stype2');
  return s;
}

test('Part 6 Table 3-12 "bits in the VCID are ignored starting from the LSB": the active VCs are VC0 and VC1, VC5 (2) or VC1, VC3, VC5, VC7 (4)', () => {
  assert.deepEqual([0, 1, 2, 4, 8].map((n) => activeVcList(n as 0 | 1 | 2 | 4 | 8)), [[0], [0, 1], [0, 1, 5], [0, 1, 3, 5, 7], [0, 1, 2, 3, 4, 5, 6, 7, 8]]);
});

test('VoQ Backpressure §3.2, Part 6 Table 3-12 (regression): with 2 active VCs VC5 congestion is carried by a VC_Status with VCID 0b1xx; VC2 does not exist', () => {
  const g = gen(2);
  const out = g.handle({ kind: 'queue-depth', port: 3, vc: 5, depth: 1 }, 0);
  assert.deepEqual(out.filter((o) => o.kind === 'symbol-wanted' && o.port === 0), [{ kind: 'symbol-wanted', port: 0, group: 0, vc: 5 }]);
  const s = vcStatus(g, 0b110);
  assert.equal(s.stype2, voqSymbol({ group: 0, congestedOffsets: [3] }));
  assert.equal(s.message?.vc, 5);
  assert.deepEqual(g.pending(0), []);
  const bad = g.handle({ kind: 'queue-depth', port: 3, vc: 2, depth: 1 }, 0);
  assert.deepEqual(bad.filter((o) => o.kind === 'event'), [{ kind: 'event', name: 'unknown-vc', port: 3, detail: 'vc 2 is not an active VC (0, 1, 5)' }]);
});

test('VoQ Backpressure §4.2 e, Part 6 Table 3-12 (regression): with 4 active VCs a link that starts generating owes one group per active VC, each of which a VCID can carry', () => {
  const g = gen(4);
  for (const vc of [0, 1, 3, 5, 7]) g.handle({ kind: 'queue-depth', port: 0, vc, depth: 1 }, 0);
  assert.deepEqual(g.pending(0).map((p) => p.vc), [0, 1, 3, 5, 7]);
  // VCIDs 0b00x VC1, 0b01x VC3, 0b10x VC5, 0b11x VC7; VC0 rides in a Status symbol.
  for (const vcid of [0b001, 0b011, 0b100, 0b111]) assert.equal(vcStatus(g, vcid).message?.congestedPorts[0], 0);
  const status = g.handle({ kind: 'fill', port: 0, symbol: { stype0: Stype0.status, parameter0: 0, parameter1: 5, stype1: Stype1.nop, cmd: 0 } }, 0);
  assert.deepEqual(status.flatMap((o) => (o.kind === 'stype2' ? [o.message?.vc] : [])), [0]);
  assert.deepEqual(g.pending(0), []);
});
