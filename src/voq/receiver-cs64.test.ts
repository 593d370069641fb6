import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSymbol64 } from '../wire/symbol64.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import { voqCs64Parameters } from '../wire/voq-cs64.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorOutput } from './generator-types.ts';
import { VoqReceiver } from './receiver.ts';
import type { VoqReceiverConfig, VoqReceiverOutput, VoqReceiverPortConfig } from './receiver-types.ts';

/** A CS64 VoQ-backpressure symbol for one group (stype1 NOP). */
function voq64(group: number, offsets: readonly number[], groupSize = 0, vc: number | 'all' = 'all'): ControlSymbol64 {
  const p = voqCs64Parameters({ group, congestedOffsets: offsets, vc, groupSize });
  return buildSymbol64({ link: 'cs64', stype0: 0b1101, ...p, stype1: 0x38 }, { part12GroupSize: groupSize });
}
/** destID d goes to local port 0, downstream port d; each downstream port has its own queue. */
function rx(port: VoqReceiverPortConfig = {}, extra: Partial<VoqReceiverConfig> = {}, downstream: readonly number[] = [0, 1, 15, 16, 17, 31, 32]): VoqReceiver {
  return new VoqReceiver({
    format: 'part12-rev4.1',
    symbol: 'cs64',
    ports: [{ queues: 256, ...port }],
    routes: downstream.map((d) => ({ destID: d, localPort: 0, downstreamPort: d })),
    ...extra,
  });
}
const events = (out: readonly VoqReceiverOutput[]): string[] => out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
const changes = (out: readonly VoqReceiverOutput[]): string[] =>
  out.flatMap((o) => (o.kind === 'blocked' || o.kind === 'unblocked' ? [`${o.kind} ${o.vc === null ? '' : `vc${o.vc} `}q${o.queue}`] : []));

test('Part 12 §3.2 (engine config): the receiver takes symbol \'cs64\' only in the part12-rev4.1 format; CS64 groups reach downstream port 895', () => {
  assert.throws(() => new VoqReceiver({ ports: [{}], routes: [], symbol: 'cs64' }), /^RangeError: symbol must be 'cs48' in the seed format$/);
  assert.equal(rx().snapshot()['symbol'], 'cs64');
  // 14 status bits × 64 groups with RX Port Group Size 6 (Part 12 §3.2), against 7 × 64 for the CS48 stype2.
  assert.doesNotThrow(() => rx({}, {}, [895]));
  assert.throws(() => rx({}, {}, [896]), /^RangeError: routes\[0\]\.downstreamPort must be an integer from 0 to 895$/);
  assert.throws(() => new VoqReceiver({ format: 'part12-rev4.1', ports: [{}], routes: [{ destID: 0, localPort: 0, downstreamPort: 448 }] }), /downstreamPort must be an integer from 0 to 447/);
});

test('Part 12 §3.2 Table 3-4: with RX Port Group Size 4 the status bits of group 1 are ports 16–31 (bit 15 port 16, bit 0 port 31); ports 15 and 32 are other groups', () => {
  const r = rx({ rxPortGroupSize: 4 });
  const out = r.handle({ kind: 'cs64', port: 0, symbol: voq64(1, [0, 15], 4) }, 0);
  assert.deepEqual(changes(out), ['blocked q16', 'blocked q31']);
  assert.deepEqual(r.congestedPorts(0), [16, 31]);
  // A group-0 message clears nothing of group 1.
  assert.deepEqual(changes(r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [15], 4) }, 0)), ['blocked q15']);
  assert.deepEqual(r.congestedPorts(0), [15, 16, 31]);
  assert.deepEqual(changes(r.handle({ kind: 'cs64', port: 0, symbol: voq64(1, [], 4) }, 0)), ['unblocked q16', 'unblocked q31']);
});

test('Part 12 §3.2, §4.2 d: with the reset RX Port Group Size 0 one message carries 20 ports (0–19)', () => {
  const r = rx({}, {}, [0, 19]);
  r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [0, 19]) }, 0);
  assert.deepEqual(r.congestedPorts(0), [0, 19]);
  // The RX Port Group Size is the port's, whatever the symbol's own `voq` view says.
  const r4 = rx({ rxPortGroupSize: 4 }, {}, [0, 19]);
  r4.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [0, 19]) }, 0);
  // 0x80001 read with 4 group bits: group 0b0001, status 0x8000 (offset 15): port 16 + 15.
  assert.deepEqual(r4.congestedPorts(0), [31]);
});

test('Part 12 §3.2 Table 3-3: a reserved VC_IND makes the receiver "ignore the VoQ Backpressure control symbol without error"', () => {
  const r = rx();
  for (let vcInd = 0b1001; vcInd <= 0b1110; vcInd++) {
    const s = buildSymbol64({ link: 'cs64', stype0: 0b1101, parameter0: vcInd << 8, parameter1: 0xfff, stype1: 0x38 });
    assert.deepEqual(r.handle({ kind: 'cs64', port: 0, symbol: s }, 0), [{ kind: 'event', name: 'reserved-vc-ind', port: 0, detail: `VC_IND 0b${vcInd.toString(2)}` }]);
  }
  assert.deepEqual(r.congestedPorts(0), []);
  assert.equal(r.counters().reservedVcInd, 6);
  assert.equal(r.counters().backpressure, 0);
});

test('Part 12 §3.3: under VoQ Backpressure per VC a VC_IND other than all VCs flow-controls just the port queue of that VC', () => {
  const r = rx({ queues: 4, perVcStaging: true, enableVcLinking: true }, { vcs: 8 });
  const out = r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [1], 0, 3) }, 0);
  assert.deepEqual(changes(out), ['blocked vc3 q1']);
  assert.deepEqual([r.congestedPorts(0, 3), r.congestedPorts(0, 0), r.congestedPorts(0, 4)], [[1], [], []]);
  assert.deepEqual(changes(r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [2], 0, 0) }, 0)), ['blocked vc0 q2'], 'VC_IND 0b1000 is VC0');
});

test('Part 12 §3.3 (decision): under VoQ Backpressure per VC a VC_IND of all VCs flow-controls the port in every VC', () => {
  const r = rx({ queues: 4, perVcStaging: true, enableVcLinking: true }, { vcs: 2 });
  assert.deepEqual(changes(r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [1]) }, 0)), ['blocked vc0 q1', 'blocked vc1 q1', 'blocked vc5 q1']);
});

test('Part 12 §3.3: "A device with queueing within VCs shall flow control corresponding port queues in all VCs when VoQ Backpressure per VC Transmission is disabled", whatever the VC_IND', () => {
  const r = rx({ queues: 4, perVcStaging: true }, { vcs: 2 });
  assert.deepEqual(changes(r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [3], 0, 5) }, 0)), ['blocked vc0 q3', 'blocked vc1 q3', 'blocked vc5 q3']);
});

test('Part 12 §3.2 Table 3-3, Part 6 Table 3-12 (decision): a VC_IND extends the VCID encoding, so with 4 optional VCs 0b0011 (VC4) folds to VC3; with VC0 only it names no VC', () => {
  const r = rx({ queues: 4, perVcStaging: true, enableVcLinking: true }, { vcs: 4 });
  assert.deepEqual(changes(r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [0], 0, 4) }, 0)), ['blocked vc3 q0']);
  const none = rx({ queues: 4, perVcStaging: true, enableVcLinking: true });
  assert.deepEqual(events(none.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [0], 0, 2) }, 0)), ['unknown-vc']);
  assert.deepEqual(changes(none.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [0], 0, 0) }, 0)), ['blocked vc0 q0']);
});

test('Part 12 §3.2: a CS64 whose stype0 is not VoQ-backpressure carries no VoQ message (event nop); a malformed symbol is invalid-symbol', () => {
  const r = rx();
  const pa = buildSymbol64({ link: 'cs64', stype0: 0, parameter0: 1, parameter1: 2, stype1: 0x38 });
  assert.deepEqual(r.handle({ kind: 'cs64', port: 0, symbol: pa }, 0), [{ kind: 'event', name: 'nop', port: 0, detail: 'stype0 0' }]);
  const junk = JSON.parse('{"link":"cs48","stype0":13,"parameter0":0,"parameter1":0}') as ControlSymbol64;
  assert.deepEqual(events(r.handle({ kind: 'cs64', port: 0, symbol: junk }, 0)), ['invalid-symbol']);
  const wide = JSON.parse('{"link":"cs64","stype0":13,"parameter0":4096,"parameter1":0}') as ControlSymbol64;
  assert.deepEqual(events(r.handle({ kind: 'cs64', port: 0, symbol: wide }, 0)), ['invalid-symbol']);
  assert.deepEqual(events(r.handle({ kind: 'cs64', port: 3, symbol: pa }, 0)), ['unknown-port']);
  assert.equal(r.counters().invalidSymbol, 2);
});

test('Part 12 §4.1 c: a port without reception support ignores CS64 backpressure too', () => {
  const r = rx({ reception: false });
  assert.deepEqual(events(r.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [1]) }, 0)), ['reception-unsupported']);
  assert.deepEqual(r.congestedPorts(0), []);
});

test('Part 12 Chapter 3 (decision): CS48 inputs to a CS64 receiver and CS64 input to a CS48 receiver are ignored (symbol-form-mismatch)', () => {
  const r = rx();
  assert.deepEqual(events(r.handle({ kind: 'stype2', port: 0, stype2: 0x2001 }, 0)), ['symbol-form-mismatch']);
  const cs48 = new VoqReceiver({ format: 'part12-rev4.1', ports: [{}], routes: [] });
  assert.deepEqual(events(cs48.handle({ kind: 'cs64', port: 0, symbol: voq64(0, [1]) }, 0)), ['symbol-form-mismatch']);
  assert.equal(r.counters().symbolFormMismatch, 1);
  assert.deepEqual(r.congestedPorts(0), []);
});

test('Part 12 §3.2, §4.2, §4.3 b: generator → receiver over CS64 (TX/RX Port Group Size 4): congestion stops just the traffic for that port, and its clearing restarts it', () => {
  const g = new VoqGenerator({ format: 'part12-rev4.1', symbol: 'cs64', ports: 40, detector: { kind: 'output-queue', high: 4, low: 1 }, portSettings: { generation: true, participation: true, txPortGroupSize: 4 } });
  const r = rx({ rxPortGroupSize: 4 });
  const deliver = (): void => {
    for (;;) {
      const o = g.handle({ kind: 'next-cs64', port: 0 }, 0).find((x): x is Extract<VoqGeneratorOutput, { kind: 'cs64' }> => x.kind === 'cs64');
      if (o?.symbol === null || o === undefined) return;
      r.handle({ kind: 'cs64', port: 0, symbol: o.symbol }, 0);
    }
  };
  for (const d of [16, 17, 31]) r.handle({ kind: 'packet', destID: d, packetId: `to-${d}` }, 0);
  g.handle({ kind: 'queue-depth', port: 17, depth: 9 }, 0);
  g.handle({ kind: 'queue-depth', port: 32, depth: 9 }, 0);
  deliver();
  assert.deepEqual(r.congestedPorts(0), [17, 32]);
  const sent: (string | number)[] = [];
  for (let i = 0; i < 3; i++) {
    const t = r.handle({ kind: 'transmit-opportunity', port: 0 }, 1).find((o) => o.kind === 'transmit');
    if (t?.kind === 'transmit') sent.push(t.packetId);
  }
  assert.deepEqual(sent, ['to-16', 'to-31']);
  g.handle({ kind: 'queue-depth', port: 17, depth: 0 }, 2);
  deliver();
  assert.deepEqual(r.congestedPorts(0), [32]);
  const t = r.handle({ kind: 'transmit-opportunity', port: 0 }, 3).find((o) => o.kind === 'transmit');
  assert.equal(t?.kind === 'transmit' ? t.packetId : undefined, 'to-17');
});

test('Part 12 §3.3: generator → receiver over CS64 with VoQ Backpressure per VC on both sides: each VC_IND reaches its VC\'s queues only', () => {
  const g = new VoqGenerator({ format: 'part12-rev4.1', symbol: 'cs64', ports: 8, activeVcs: 8, detector: { kind: 'output-queue', high: 1, low: 0 }, portSettings: { generation: true, participation: true, vcLinking: true } });
  const r = rx({ queues: 8, perVcStaging: true, enableVcLinking: true }, { vcs: 8 }, [1, 2]);
  g.handle({ kind: 'queue-depth', port: 1, vc: 6, depth: 1 }, 0);
  g.handle({ kind: 'queue-depth', port: 2, vc: 0, depth: 1 }, 0);
  for (;;) {
    const o = g.handle({ kind: 'next-cs64', port: 0 }, 0).find((x) => x.kind === 'cs64');
    if (o?.kind !== 'cs64' || o.symbol === null) break;
    r.handle({ kind: 'cs64', port: 0, symbol: o.symbol }, 0);
  }
  assert.deepEqual([r.congestedPorts(0, 6), r.congestedPorts(0, 0), r.congestedPorts(0, 1)], [[1], [2], []]);
});
