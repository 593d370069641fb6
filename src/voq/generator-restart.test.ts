import { test } from 'node:test';
import assert from 'node:assert/strict';
import { voqSymbol } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorConfig, VoqGeneratorOutput, VoqMessage, VoqPortSettings } from './generator-types.ts';

/**
 * A link that (re)starts generating, or switches VC linking or TX Port Group Size, resends every
 * group (reason `restart`). Regression: it used to start from an upstream view of "nothing
 * congested" and send only the congested groups, so a port that cleared while generation was off
 * stayed congested at the upstream device until a timer refresh or a link recovery.
 */

const OQ = { kind: 'output-queue', high: 4, low: 1 } as const;
const NORMAL: VoqPortSettings = { generation: true, participation: true };

function gen(extra: Partial<VoqGeneratorConfig> = {}): VoqGenerator {
  return new VoqGenerator({ ports: 12, detector: OQ, portSettings: NORMAL, ...extra });
}
const depth = (g: VoqGenerator, port: number, d: number): VoqGeneratorOutput[] => g.handle({ kind: 'queue-depth', port, depth: d }, 0);
const control = (g: VoqGenerator, port: number, settings: VoqPortSettings): VoqGeneratorOutput[] => g.handle({ kind: 'port-control', port, settings }, 0);
function wanted(out: readonly VoqGeneratorOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'symbol-wanted' ? [`${o.port}:g${o.group}`] : []));
}

/** Every message link `port` sends until it has nothing left to say (packet-accepted carriers). */
function drain(g: VoqGenerator, port: number): { stype2: number; message: VoqMessage }[] {
  const sent: { stype2: number; message: VoqMessage }[] = [];
  for (;;) {
    const o = g.handle({ kind: 'next-stype2', port, stype0: 0 }, 0).find((x) => x.kind === 'stype2');
    assert.ok(o?.kind === 'stype2');
    if (o.message === null) return sent;
    sent.push({ stype2: o.stype2, message: o.message });
  }
}

test('VoQ Backpressure Table 5-3 bit 8, §4.2 g (regression): a port that cleared while generation was off is restated clear when generation is re-enabled', () => {
  const g = gen();
  depth(g, 3, 4);
  assert.deepEqual(drain(g, 0).map((m) => m.stype2), [voqSymbol({ group: 0, congestedOffsets: [3] })]);
  control(g, 0, { generation: false });
  depth(g, 3, 0);
  assert.deepEqual(drain(g, 0), [], '"0b0 = No VoQ symbols will be transmitted"');
  assert.deepEqual(wanted(control(g, 0, { generation: true })), ['0:g0', '0:g1']);
  const sent = drain(g, 0);
  assert.deepEqual(sent.map((m) => m.stype2), [voqSymbol({ group: 0, congestedOffsets: [] }), voqSymbol({ group: 1, congestedOffsets: [] })]);
  assert.ok(sent.every((m) => m.message.reason === 'restart'));
});

test('VoQ Backpressure Table 5-3 bit 8 (decision): clearing generation drops the groups that were due; a write that changes none of bits 8, 11 and the group size restates nothing', () => {
  const g = gen();
  depth(g, 7, 4);
  assert.equal(g.pending(0).length, 1);
  assert.deepEqual(control(g, 0, { generation: false }), []);
  assert.deepEqual(g.pending(0), []);
  control(g, 0, { generation: true });
  drain(g, 0);
  assert.deepEqual(wanted(control(g, 0, { generation: true, vcLinking: false })), [], 'the same values again: no restart');
  assert.deepEqual(wanted(control(g, 1, { generation: true })), [], 'another link: nothing due on it or on link 0');
  assert.deepEqual(g.pending(0), []);
});

test('VoQ Backpressure Table 5-3 bits 8, 10 (decision): enabling generation and Port XOFF in one write makes each group due once', () => {
  const g = gen({ portSettings: { participation: true } });
  const out = control(g, 0, { generation: true, portXoff: true });
  assert.deepEqual(wanted(out), ['0:g0', '0:g1']);
  assert.deepEqual(drain(g, 0).map((m) => m.message.congestedPorts), [[0], []]);
});

test('Part 12 Table 5-3 bits 8, 26–28 (regression): after a TX Port Group Size change re-enabling generation resends every group in the new size', () => {
  const g = gen({ format: 'part12-rev4.1', ports: 24 });
  depth(g, 12, 4);
  // Group size 0: 13 ports a group, port 12 is group 0 status bit 12.
  assert.deepEqual(drain(g, 0).map((m) => m.stype2), [0b1_1000000000000]);
  control(g, 0, { generation: false });
  depth(g, 12, 0);
  depth(g, 20, 4);
  assert.deepEqual(wanted(control(g, 0, { txPortGroupSize: 1 })), [], 'generation is off: nothing is sent yet');
  assert.deepEqual(wanted(control(g, 0, { generation: true })), ['0:g0', '0:g1']);
  // Group size 1: 12 ports a group; CMD 1 ‖ 12 status bits ‖ 1 group bit. Port 20 is group 1 bit 8.
  assert.deepEqual(drain(g, 0).map((m) => m.stype2), [0b1_000000000000_0, 0b1_000100000000_1]);
});

test('Part 12 §3.2 (regression): a CS64 link that re-enables generation restates every group, the all-clear ones too', () => {
  const g = new VoqGenerator({ format: 'part12-rev4.1', symbol: 'cs64', ports: 38, detector: OQ, portSettings: { ...NORMAL, txPortGroupSize: 1 } });
  depth(g, 5, 4);
  g.handle({ kind: 'next-cs64', port: 0 }, 0);
  control(g, 0, { generation: false });
  depth(g, 5, 0);
  assert.deepEqual(wanted(control(g, 0, { generation: true })), ['0:g0', '0:g1']);
  const messages: (VoqMessage | null)[] = [];
  for (let i = 0; i < 3; i++) messages.push(g.handle({ kind: 'next-cs64', port: 0 }, 0).find((o) => o.kind === 'cs64')?.message ?? null);
  // CS64 with TX Port Group Size 1: 20 − 1 = 19 ports a group, two groups (Part 12 §3.2, §4.2 d).
  assert.deepEqual(messages, [
    { group: 0, vc: null, portStatus: 0, congestedPorts: [], reason: 'restart' },
    { group: 1, vc: null, portStatus: 0, congestedPorts: [], reason: 'restart' },
    null,
  ]);
});
