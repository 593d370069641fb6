import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeStype2, voqSymbol } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorConfig, VoqGeneratorInput, VoqGeneratorOutput } from './generator-types.ts';

const OQ = { kind: 'output-queue', high: 4, low: 1 } as const;
const NORMAL = { generation: true, participation: true } as const;

function gen(extra: Partial<VoqGeneratorConfig> = {}): VoqGenerator {
  return new VoqGenerator({ ports: 12, detector: OQ, portSettings: NORMAL, ...extra });
}
const depth = (port: number, d: number): VoqGeneratorInput => ({ kind: 'queue-depth', port, depth: d });
const congest = (g: VoqGenerator, port: number, now = 0): VoqGeneratorOutput[] => g.handle(depth(port, 4), now);
const clear = (g: VoqGenerator, port: number, now = 0): VoqGeneratorOutput[] => g.handle(depth(port, 0), now);

/** The stype2 the link layer of `port` gets for its next symbol (a packet-accepted carrier). */
function next(g: VoqGenerator, port: number, stype0 = 0): number {
  const o = g.handle({ kind: 'next-stype2', port, stype0 }, 0).find((x) => x.kind === 'stype2');
  assert.ok(o?.kind === 'stype2');
  return o.stype2;
}
function wanted(out: readonly VoqGeneratorOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'symbol-wanted' ? [`${o.port}:g${o.group}${o.vc === null ? '' : `/vc${o.vc}`}`] : []));
}
function events(out: readonly VoqGeneratorOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
}

test('VoQ Backpressure §4.2 rule e: a symbol whenever the status of a port in a group changes', () => {
  const g = gen({ ports: 2 });
  assert.deepEqual(wanted(congest(g, 1)), ['0:g0', '1:g0']);
  // Hand-derived (Table 3-1/3-2): CMD 0b001 || status 0b000010 (offset 1 = bit 7) || group 0b00000.
  assert.equal(next(g, 0), 0b001_000010_00000);
  assert.equal(next(g, 1), 0b001_000010_00000);
  assert.equal(next(g, 0), 0, 'nothing new to say: NOP');
  assert.deepEqual(wanted(clear(g, 1)), ['0:g0', '1:g0']);
  assert.equal(next(g, 0), 0b001_000000_00000, 'the change back to not congested is sent too');
  assert.equal(g.counters().changeTriggers, 4);
});

test('VoQ Backpressure §3.1 Table 3-1: a stype2 NOP (0b000, parameter 0) when there is nothing to say', () => {
  const g = gen();
  const out = g.handle({ kind: 'next-stype2', port: 3, stype0: 4 }, 0);
  assert.deepEqual(out, [{ kind: 'stype2', port: 3, stype2: 0, message: null }]);
  assert.equal(decodeStype2(0).cmdName, 'NOP');
  assert.equal(g.counters().nops, 1);
});

test('VoQ Backpressure §4.2 rule e (decision): a change undone before its symbol goes out sends nothing', () => {
  const g = gen({ ports: 1 });
  congest(g, 0);
  clear(g, 0);
  assert.equal(next(g, 0), 0);
  assert.deepEqual(g.pending(0), []);
});

test('VoQ Backpressure §4.2 rule e (decision): a group is sent with the status current when its symbol is filled', () => {
  const g = gen({ ports: 6 });
  congest(g, 0);
  assert.deepEqual(wanted(congest(g, 4)), [], 'group 0 is already due on every link');
  assert.equal(next(g, 2), voqSymbol({ group: 0, congestedOffsets: [0, 4] }));
});

test('VoQ Backpressure §4.2 rule e (decision): due groups go out oldest first', () => {
  const g = gen({ ports: 18 });
  congest(g, 13);
  congest(g, 1);
  congest(g, 7);
  assert.deepEqual(g.pending(0).map((p) => p.group), [2, 0, 1]);
  assert.deepEqual([next(g, 0), next(g, 0), next(g, 0)].map((s) => decodeStype2(s).portGroup), [2, 0, 1]);
});

test('VoQ Backpressure §4.2 rule d: port group g covers ports 6g..6g+5 (boundaries 0, 5, 6, 186, 191)', () => {
  // Hand-derived: 0b001 || status (offset k = 2^k) || group, offset 5 = Table 3-2 "Bit 3".
  const cases: [number, number][] = [
    [0, 0b001_000001_00000],
    [5, 0b001_100000_00000],
    [6, 0b001_000001_00001],
    [186, 0b001_000001_11111],
    [191, 0b001_100000_11111],
  ];
  for (const [port, stype2] of cases) {
    const g = gen({ ports: 192, portSettings: [{ generation: true }, ...Array.from({ length: 191 }, () => ({ participation: true }))], detector: OQ });
    g.handle({ kind: 'port-control', port, settings: { participation: true } }, 0);
    congest(g, port);
    assert.equal(next(g, 0), stype2, `port ${port}`);
    assert.deepEqual(decodeStype2(stype2).congestedPorts, [port]);
  }
});

test('VoQ Backpressure §4.2 rule a: only ports with generation enabled transmit the symbol', () => {
  const g = gen({ ports: 3, portSettings: [NORMAL, { participation: true }, NORMAL] });
  assert.deepEqual(wanted(congest(g, 1)), ['0:g0', '2:g0'], 'a congested port asks every link; only enabled ones queue it');
  assert.equal(next(g, 1), 0);
  assert.equal(next(g, 2), voqSymbol({ group: 0, congestedOffsets: [1] }));
  g.handle({ kind: 'port-control', port: 2, settings: { generation: false } }, 0);
  congest(g, 0);
  assert.equal(next(g, 2), 0, '"0b0 = No VoQ symbols will be transmitted"');
});

test('VoQ Backpressure §4.2 rule a (decision): enabling generation makes every group of the link due, the congested ones and the all-clear ones', () => {
  const g = gen({ ports: 12, portSettings: { participation: true } });
  congest(g, 0);
  const out = g.handle({ kind: 'port-control', port: 1, settings: { generation: true } }, 0);
  assert.deepEqual(wanted(out), ['1:g0', '1:g1']);
  assert.equal(next(g, 1), voqSymbol({ group: 0, congestedOffsets: [0] }));
  assert.equal(next(g, 1), voqSymbol({ group: 1, congestedOffsets: [] }));
  assert.equal(next(g, 1), 0);
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 00: status always 0b0, no symbol', () => {
  const g = gen({ ports: 2, portSettings: [NORMAL, { generation: true }] });
  assert.deepEqual(wanted(congest(g, 1)), []);
  assert.equal(g.reportedStatus(0, 1), 0);
  congest(g, 0);
  assert.equal(next(g, 0), voqSymbol({ group: 0, congestedOffsets: [0] }), 'port 1 reports 0 although congested');
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 01: status always 0b1, no symbol', () => {
  const g = gen({ ports: 2, portSettings: [NORMAL, { generation: true }] });
  const out = g.handle({ kind: 'port-control', port: 1, settings: { portXoff: true } }, 0);
  assert.deepEqual(wanted(out), [], '"toggling bit 10 will change the ports reported state, but will not trigger any new symbols"');
  assert.equal(g.reportedStatus(0, 1), 1);
  assert.equal(next(g, 0), 0);
  congest(g, 0);
  assert.equal(next(g, 0), voqSymbol({ group: 0, congestedOffsets: [0, 1] }), 'the forced 0b1 rides with the next message of the group');
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 10: normal operation, state transitions cause symbols', () => {
  const g = gen({ ports: 1 });
  assert.equal(g.reportedStatus(0, 0), 0);
  assert.deepEqual(wanted(congest(g, 0)), ['0:g0']);
  assert.equal(g.reportedStatus(0, 0), 1);
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 11: status 0b1, a symbol only when the state changes', () => {
  const g = gen({ ports: 2 });
  assert.deepEqual(wanted(g.handle({ kind: 'port-control', port: 1, settings: { portXoff: true } }, 0)), ['0:g0', '1:g0']);
  assert.equal(next(g, 0), voqSymbol({ group: 0, congestedOffsets: [1] }));
  congest(g, 0);
  next(g, 0);
  assert.deepEqual(wanted(g.handle({ kind: 'port-control', port: 0, settings: { portXoff: true } }, 0)), [], 'already reported congested: no state change');
  assert.deepEqual(wanted(clear(g, 1)), [], 'Port XOFF holds the status at 0b1');
});

test('VoQ Backpressure Table 5-4 bits 9,10 = 11 (decision): Port XOFF from the configuration is due with the first input', () => {
  const g = gen({ ports: 2, portSettings: [NORMAL, { ...NORMAL, portXoff: true }] });
  assert.deepEqual(wanted(g.handle(depth(0, 0), 0)), ['0:g0', '1:g0']);
  assert.deepEqual(wanted(g.handle(depth(0, 0), 0)), []);
  assert.equal(next(g, 0), voqSymbol({ group: 0, congestedOffsets: [1] }));
});

test('VoQ Backpressure Table 5-3 bit 9 (decision): leaving participation triggers nothing, the new status rides later', () => {
  const g = gen({ ports: 2 });
  congest(g, 1);
  next(g, 0);
  assert.deepEqual(wanted(g.handle({ kind: 'port-control', port: 1, settings: { participation: false } }, 0)), []);
  assert.equal(next(g, 0), 0);
  congest(g, 0);
  assert.equal(next(g, 0), voqSymbol({ group: 0, congestedOffsets: [0] }));
});

test('VoQ Backpressure §2.5: with presorted input VoQs only the link receiving traffic for the congested output is told', () => {
  const g = gen({ ports: 3, detector: { kind: 'input-voq', high: 2, low: 0 } });
  const out = g.handle({ kind: 'voq-depth', input: 2, output: 0, depth: 2 }, 0);
  assert.deepEqual(wanted(out), ['2:g0']);
  assert.equal(next(g, 2), voqSymbol({ group: 0, congestedOffsets: [0] }));
  assert.equal(next(g, 1), 0);
  assert.equal(g.reportedStatus(1, 0), 0);
});

test('VoQ Backpressure §2.4 (decision): without linking a port is congested when any of its VCs is', () => {
  // Part 6 Table 3-12: the two optional VCs are VC1 and VC5.
  const g = gen({ ports: 1, activeVcs: 2 });
  assert.deepEqual(wanted(g.handle({ kind: 'queue-depth', port: 0, vc: 5, depth: 5 }, 0)), ['0:g0']);
  assert.equal(next(g, 0), voqSymbol({ group: 0, congestedOffsets: [0] }));
  assert.deepEqual(wanted(g.handle({ kind: 'queue-depth', port: 0, vc: 1, depth: 5 }, 0)), []);
});

test('VoQ Backpressure §4.2 (bad input is normal input): unknown ports, VCs, depths and detector inputs are counted', () => {
  const g = gen({ ports: 2 });
  const bad: VoqGeneratorInput[] = [
    depth(2, 4),
    { kind: 'queue-depth', port: 0, depth: 4, vc: 1 },
    depth(0, -1),
    depth(0, 1.5),
    { kind: 'voq-depth', input: 0, output: 1, depth: 4 },
    { kind: 'link-recovered', port: -1 },
    { kind: 'next-stype2', port: 9, stype0: 0 },
    { kind: 'next-stype2', port: 0, stype0: 8 },
    { kind: 'next-stype2', port: 0, stype0: 5 },
    { kind: 'fill', port: 0, symbol: { stype0: 0, parameter0: 64, parameter1: 0, stype1: 0, cmd: 0 } },
    { kind: 'port-control', port: 0, settings: { generation: 'yes' as never } },
    { kind: 'port-control', port: 0, settings: { txPortGroupSize: 7 } },
  ];
  const names = bad.flatMap((i) => events(g.handle(i, 0)));
  assert.deepEqual(names, [
    'unknown-port', 'unknown-vc', 'detector-input-ignored', 'detector-input-ignored', 'detector-input-ignored', 'unknown-port', 'unknown-port',
    'invalid-symbol', 'invalid-symbol', 'invalid-symbol', 'invalid-control', 'invalid-control',
  ]);
  const c = g.counters();
  assert.deepEqual([c.unknownPort, c.unknownVc, c.detectorIgnored, c.invalidSymbol, c.invalidControl, c.messages], [3, 1, 3, 3, 2, 0]);
  assert.deepEqual(g.pending(0), []);
});

test('VoQ Backpressure §4.2: counters() is a copy and snapshot() is plain JSON', () => {
  const g = gen({ ports: 7, refreshPeriod: 100 });
  congest(g, 6);
  g.counters().changeTriggers = 99;
  assert.equal(g.counters().changeTriggers, 7);
  const snap = g.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  const links = snap.links;
  assert.deepEqual(links[0]?.pending, [{ group: 1, vc: null, reason: 'change' }]);
  assert.equal(links[0].groups, 2);
  assert.deepEqual(snap.timers, [{ name: 'refresh', at: 100 }]);
});
