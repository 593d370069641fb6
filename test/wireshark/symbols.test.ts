/**
 * Control symbols in the Wireshark dissector, with the real tshark: random CS48 and CS64 symbols
 * (test/support/symbol.ts, test/support/frames.ts) read with each VoQ preference, the seed stype2
 * format and the Part 12 format with every port group size (riodp decode --voq-format,
 * --voq-group-size), every field compared with riodp's decoding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND, cs48Arb, cs64SymbolArb, draw, record } from './records.ts';
import { count, run, seen } from './run.ts';
import type { RunResult } from './run.ts';

function symbols(n: number, salt: number): Uint8Array[] {
  return [...draw(cs48Arb, n, salt).map((b) => record(KIND.cs48, b)), ...draw(cs64SymbolArb, n, salt + 1).map((b) => record(KIND.cs64, b))];
}

function start(p: Promise<RunResult>): Promise<RunResult> {
  p.catch(() => undefined);
  return p;
}

const SEED_N = 1200;
const PART12_N = 150;
const seed = start(run('symbols-seed', symbols(SEED_N, 10)));
const part12 = [0, 1, 2, 3, 4, 5, 6].map((g) => start(run(`symbols-part12-g${g}`, symbols(PART12_N, 20 + 2 * g), { voqFormat: 'part12-rev4.1', voqGroupSize: g })));

function agree(r: RunResult): void {
  assert.equal(r.bad, 0, `${r.bad} of ${r.refs.length} records disagree:\n  ${r.mismatches.join('\n  ')}`);
}

test(`Part 6 §3.3–§3.6, VoQ Backpressure §3.1: tshark shows every field riodp decodes of ${SEED_N} CS48 symbols (CRC-13, seed stype2) and ${SEED_N} CS64 symbols (CRC-24)`, async () => {
  const r = await seed;
  agree(r);
  assert.equal(seen(r.refs, 'riodp.cs48.stype0name').size, 8);
  assert.equal(seen(r.refs, 'riodp.cs48.cmdname').size, 12, 'every cmd function, RESERVED included');
  assert.deepEqual(seen(r.refs, 'riodp.cs48.voq.cmdname'), new Set(['NOP', 'VOQ_BACKPRESSURE', 'RESERVED']));
  assert.ok(count(r.refs, 'riodp.cs48.voq.congestedports') > 60, 'seed VoQ backpressure');
  assert.equal(seen(r.refs, 'riodp.cs64.stype0name').size, 11, 'CS64 stype0 functions, loop-response and VoQ-backpressure included');
  assert.ok(seen(r.refs, 'riodp.cs64.stype1name').size >= 13);
  assert.ok(count(r.refs, 'riodp.cs64.voq.vcindname') > 300, 'Part 12 §3.2 VoQ-backpressure symbols');
  assert.ok(count(r.refs, 'riodp.cs64.alignment0') > 100, 'alignment bits kept and flagged');
});

test(`Part 12 §3.1–§3.2, §5.1.2.2 Table 5-3: with riodp.voq_format part12-rev4.1 and riodp.voq_group_size 0–6, the CS48 stype2 and CS64 VoQ fields of ${7 * 2 * PART12_N} symbols are riodp's`, async () => {
  const runs = await Promise.all(part12);
  runs.forEach((r, g) => {
    agree(r);
    assert.deepEqual(seen(r.refs, 'riodp.cs48.voq.portgroupsize'), new Set([g]));
    assert.deepEqual(seen(r.refs, 'riodp.cs64.voq.portgroupsize'), new Set([g]));
    assert.ok(count(r.refs, 'riodp.cs48.voq.congestedports') > 20, `group size ${g}: congested ports`);
  });
});
