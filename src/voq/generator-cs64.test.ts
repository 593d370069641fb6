import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toHex } from '../wire/hex.ts';
import { SYMBOL64_LENGTH, decodeSymbol64, encodeSymbol64 } from '../wire/symbol64.ts';
import { Stype1_64 } from '../wire/symbol64-types.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorConfig, VoqGeneratorOutput, VoqPortSettings } from './generator-types.ts';

const OQ = { kind: 'output-queue', high: 4, low: 1 } as const;
const NORMAL: VoqPortSettings = { generation: true, participation: true };
const PER_VC: VoqPortSettings = { ...NORMAL, vcLinking: true };

function gen(extra: Partial<VoqGeneratorConfig> = {}): VoqGenerator {
  return new VoqGenerator({ format: 'part12-rev4.1', symbol: 'cs64', ports: 32, detector: OQ, portSettings: NORMAL, ...extra });
}
type Cs64Out = Extract<VoqGeneratorOutput, { kind: 'cs64' }>;
function next(g: VoqGenerator, port = 0, stype1?: number): Cs64Out {
  const out = g.handle(stype1 === undefined ? { kind: 'next-cs64', port } : { kind: 'next-cs64', port, stype1 }, 0);
  const o = out.find((x): x is Cs64Out => x.kind === 'cs64');
  assert.ok(o !== undefined, JSON.stringify(out));
  return o;
}
function hexOf(o: Cs64Out): string {
  assert.ok(o.symbol !== null);
  const b = new Uint8Array(SYMBOL64_LENGTH);
  encodeSymbol64(o.symbol, b, 0);
  return toHex(b);
}
const events = (out: readonly VoqGeneratorOutput[]): string[] => out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
const congest = (g: VoqGenerator, port: number, vc?: number) => g.handle(vc === undefined ? { kind: 'queue-depth', port, depth: 4 } : { kind: 'queue-depth', port, depth: 4, vc }, 0);

test('Part 12 §3.2 (engine config): symbol is \'cs48\' (default) or \'cs64\', and \'cs64\' needs format part12-rev4.1', () => {
  assert.equal(new VoqGenerator({ ports: 1, detector: OQ }).snapshot()['symbol'], 'cs48');
  assert.equal(gen().snapshot()['symbol'], 'cs64');
  assert.throws(() => new VoqGenerator({ ports: 1, detector: OQ, symbol: 'cs64' }), /^RangeError: symbol must be 'cs48' in the seed format$/);
  const bad = JSON.parse('{"ports":1,"detector":{"kind":"output-queue","high":2,"low":1},"format":"part12-rev4.1","symbol":"cs96"}') as VoqGeneratorConfig;
  assert.throws(() => new VoqGenerator(bad), /^RangeError: symbol must be 'cs48' or 'cs64'$/);
});

test('Part 12 §3.2 Figure 3-4, Table 3-4: a CS64 link sends the message as its own stype0 0b1101 symbol with TX Port Group Size 4 (port 17 is group 1, offset 1)', () => {
  const g = gen({ portSettings: { ...NORMAL, txPortGroupSize: 4 } });
  assert.deepEqual(congest(g, 17).filter((o) => o.kind === 'symbol-wanted' && o.port === 0), [{ kind: 'symbol-wanted', port: 0, group: 1, vc: null }]);
  const o = next(g);
  assert.deepEqual(o.message, { group: 1, vc: null, portStatus: 2, congestedPorts: [17], reason: 'change' });
  // The golden of src/wire/symbol64.test.ts, assembled by hand from Figure 3-3/3-4: 1101 |
  // VC_IND 1111 ‖ status 0x0002 ‖ group 0001 | alignment 00 | stype1 NOP 0x38 | CRC-24 0x39a5e4.
  assert.equal(hexOf(o), 'df000210e0e69790');
  assert.deepEqual(o.symbol, decodeSymbol64(Buffer.from('df000210e0e69790', 'hex'), 0, 8, { part12GroupSize: 4 }));
  assert.equal(o.symbol.voq?.vcIndName, 'ALL_VCS', '§3.3: 0b1111 "shall be used when VoQ backpressure per VC is disabled"');
});

test('Part 12 §3.2: the symbol carries the stype1 the link layer gives (default NOP 0x38); a stype1 that is not 8 bits is refused', () => {
  const g = gen();
  congest(g, 3);
  const o = next(g, 0, Stype1_64.endOfPacketUnpadded);
  assert.equal(o.symbol?.stype1Name, 'end-of-packet-unpadded');
  congest(g, 4);
  const bad = g.handle({ kind: 'next-cs64', port: 0, stype1: 256 }, 0);
  assert.deepEqual(events(bad), ['invalid-symbol']);
  assert.equal(g.pending(0).length, 1, 'nothing consumed');
  assert.equal(next(g).symbol?.stype1, Stype1_64.nop);
});

test('Part 12 §4.2 d: ports 0..N-1 occupy group 0 with N = 20 - TX Port Group Size (G = 0: 20 ports, one group)', () => {
  const g = gen({ ports: 24 });
  congest(g, 19);
  const o = next(g);
  assert.deepEqual([o.message?.group, o.message?.portStatus, o.symbol?.voq?.congestedPorts], [0, 1 << 19, [19]]);
  // Port 20 is beyond what a 20-bit status with no group bits can name.
  assert.deepEqual(congest(g, 20), []);
  assert.equal(g.snapshot().links[0]?.reach, 20);
});

test('Part 12 §4.2 d: with TX Port Group Size 6 the groups hold 14 ports: port 13 ends group 0 and port 14 starts group 1', () => {
  const g = gen({ portSettings: { ...NORMAL, txPortGroupSize: 6 } });
  congest(g, 13);
  congest(g, 14);
  const a = next(g);
  const b = next(g);
  assert.deepEqual([a.message?.group, a.message?.portStatus, b.message?.group, b.message?.portStatus], [0, 1 << 13, 1, 1]);
  assert.deepEqual([a.symbol?.voq?.congestedPorts, b.symbol?.voq?.congestedPorts], [[13], [14]]);
});

test('Part 12 §3.3: with VoQ Backpressure per VC the VC_IND names the VC (VC3 0b0010, VC0 0b1000), and no carrier is needed', () => {
  const g = gen({ portSettings: PER_VC, activeVcs: 8 });
  congest(g, 2, 3);
  congest(g, 5, 0);
  const a = next(g);
  const b = next(g);
  assert.deepEqual([a.message?.vc, a.symbol?.voq?.vcInd, a.symbol?.voq?.vcIndName, a.symbol?.voq?.congestedPorts], [3, 0b0010, 'VC3', [2]]);
  assert.deepEqual([b.message?.vc, b.symbol?.voq?.vcInd, b.symbol?.voq?.vcIndName], [0, 0b1000, 'VC0']);
  assert.equal(g.counters().carrierRefused, 0);
});

test('Part 12 §3.3, Part 6 Table 3-12: with 2 optional VCs a per-VC message of VC5 has VC_IND 0b0100', () => {
  const g = gen({ portSettings: PER_VC, activeVcs: 2 });
  congest(g, 1, 5);
  assert.deepEqual([next(g).symbol?.voq?.vcIndName], ['VC5']);
});

test('Part 12 §3.2: with nothing due, next-cs64 answers with no message and no symbol (the link sends its own stype0)', () => {
  const g = gen();
  assert.deepEqual(next(g), { kind: 'cs64', port: 0, message: null, symbol: null });
  assert.equal(g.counters().nops, 1);
  assert.equal(g.counters().messages, 0);
});

test('Part 12 §4.2 a: a CS64 link without generation enabled sends nothing', () => {
  const g = gen({ ports: 2, portSettings: [NORMAL, { participation: true }] });
  congest(g, 0);
  assert.equal(next(g, 1).symbol, null);
  assert.notEqual(next(g, 0).symbol, null);
});

test('Part 12 Chapter 3 (decision): CS48 inputs to a CS64 generator and next-cs64 to a CS48 generator are refused (symbol-form-mismatch), nothing consumed', () => {
  const g = gen();
  congest(g, 1);
  assert.deepEqual(events(g.handle({ kind: 'next-stype2', port: 0, stype0: 4 }, 0)), ['symbol-form-mismatch']);
  assert.deepEqual(events(g.handle({ kind: 'fill', port: 0, symbol: { stype0: 4, parameter0: 0, parameter1: 0, stype1: 7, cmd: 0 } }, 0)), ['symbol-form-mismatch']);
  assert.equal(g.pending(0).length, 1);
  const cs48 = new VoqGenerator({ format: 'part12-rev4.1', ports: 2, detector: OQ, portSettings: NORMAL });
  assert.deepEqual(events(cs48.handle({ kind: 'next-cs64', port: 0 }, 0)), ['symbol-form-mismatch']);
  assert.equal(g.counters().symbolFormMismatch, 2);
  assert.deepEqual(events(g.handle({ kind: 'next-cs64', port: 99 }, 0)), ['unknown-port']);
});

test('Part 12 §4.2 e, f: a CS64 link resends on the refresh timer and sends a change only while it is still a change', () => {
  const g = gen({ refreshPeriod: 100 });
  congest(g, 1);
  g.handle({ kind: 'queue-depth', port: 1, depth: 0 }, 0);
  assert.equal(next(g).symbol, null, 'congested then clear before a symbol went out: nothing to say');
  g.handle({ kind: 'timer', name: 'refresh' }, 100);
  const o = next(g);
  assert.deepEqual([o.message?.reason, o.message?.portStatus], ['timer', 0]);
});
