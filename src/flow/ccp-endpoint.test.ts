import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CcpEndpoint } from './ccp-endpoint.ts';
import type { CcpEndpointOutput } from './ccp-endpoint-types.ts';
import { makeCcp, type7Command } from '../wire/type7.ts';
import type { Type7DefinedCommand, Type7Packet } from '../wire/type7.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';

const D = 0x12;

function ccp(command: Type7DefinedCommand, flowID: FlowIdLabel, tgt = D, seq?: number): { kind: 'ccp'; packet: Type7Packet } {
  const base = { destinationID: 0x01, tgtdestinationID: tgt, tt: 0, command, flowID, soc: 0 };
  return { kind: 'ccp', packet: makeCcp(seq === undefined ? base : { ...base, seq }) };
}
const xoff = (flowID: FlowIdLabel, tgt = D): { kind: 'ccp'; packet: Type7Packet } => ccp('XOFF', flowID, tgt);
const xon = (flowID: FlowIdLabel, tgt = D): { kind: 'ccp'; packet: Type7Packet } => ccp('XON', flowID, tgt);

/** A CCP with raw XON/XOFF and FAM bits, labels derived as the decoder does. */
function raw(xonXoff: number, fam: number, flowID: FlowIdLabel, tgt = D): { kind: 'ccp'; packet: Type7Packet } {
  const p = makeCcp({ destinationID: 1, tgtdestinationID: tgt, tt: 0, command: 'XOFF', flowID, soc: 0 });
  const { command, seq } = type7Command(xonXoff, fam);
  const packet: Type7Packet = seq === undefined ? { ...p, xonXoff, fam, command } : { ...p, xonXoff, fam, command, seq };
  return { kind: 'ccp', packet };
}

/** `flow` outputs as "0A-" (stopped) / "0A+" (enabled). */
function flows(out: readonly CcpEndpointOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'flow' ? [`${o.flowID}${o.enabled ? '+' : '-'}`] : []));
}

function events(out: readonly CcpEndpointOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
}

function sendable(e: CcpEndpoint, dest = D): string {
  return FLOW_ID_LABELS.filter((f) => e.canSend(dest, f)).join(' ');
}

const ALL = FLOW_ID_LABELS.join(' ');

test('Part 9 §2.4.2.3: counters start at zero, XOFF increments and XON decrements the counter of (tgtdestinationID, flowID)', () => {
  const e = new CcpEndpoint();
  assert.equal(sendable(e), ALL);
  e.handle(xoff('0D'), 0);
  e.handle(xoff('0D'), 1);
  assert.equal(e.counterValue(D, '0D'), 2);
  assert.equal(e.counterValue(D + 1, '0D'), 0, 'keyed by tgtdestinationID');
  e.handle(xon('0D'), 2);
  assert.equal(e.counterValue(D, '0D'), 1);
  assert.equal(e.canSend(D, '0D'), false, '"Only when this counter is equal to zero is the flow enabled"');
  assert.deepEqual(e.counters(), { ...e.counters(), xoff: 2, xon: 1 });
});

test('Part 9 §2.4.5 rule 1: an XOFF for 0C stops 0A, 0B and 0C of that destination only, in Table 3-1 order', () => {
  const e = new CcpEndpoint();
  const out = e.handle(xoff('0C'), 0);
  assert.deepEqual(out.filter((o) => o.kind === 'flow'), ['0A', '0B', '0C'].map((f) => ({ kind: 'flow', destinationID: D, flowID: f, enabled: false, cause: 'xoff' })));
  assert.equal(sendable(e), '0D 0E 0F 1A 2A 3A 4A 5A 6A 7A 8A');
  assert.equal(sendable(e, D + 1), ALL, 'other destinations keep running');
  assert.deepEqual(flows(e.handle(xoff('0C'), 1)), [], 'a second XOFF changes no permission');
});

test('Part 9 §2.4.5 rule 2: an XON that brings 0C to zero restarts 0C and the lower flows whose own and higher counters are zero', () => {
  const e = new CcpEndpoint();
  e.handle(xoff('0C'), 0);
  e.handle(xoff('0C'), 1);
  assert.deepEqual(flows(e.handle(xon('0C'), 2)), [], 'counter 1: still stopped');
  const out = e.handle(xon('0C'), 3);
  assert.deepEqual(out.filter((o) => o.kind === 'flow'), ['0A', '0B', '0C'].map((f) => ({ kind: 'flow', destinationID: D, flowID: f, enabled: true, cause: 'xon' })));
  assert.equal(sendable(e), ALL);
});

test('Part 9 §2.4.5 rules 1-2: 0A stopped by its own XOFF stays stopped when 0C is XONed; 0B and 0C restart', () => {
  const e = new CcpEndpoint();
  assert.deepEqual(flows(e.handle(xoff('0A'), 0)), ['0A-']);
  assert.deepEqual(flows(e.handle(xoff('0C'), 1)), ['0B-', '0C-'], '0A was already stopped');
  assert.deepEqual(flows(e.handle(xon('0C'), 2)), ['0B+', '0C+']);
  assert.equal(e.canSend(D, '0A'), false);
  assert.deepEqual(flows(e.handle(xon('0A'), 3)), ['0A+']);
});

test('Part 9 §2.4.5 rule 2: an XON of 0A while 0C is XOFFed leaves 0A stopped by the higher counter', () => {
  const e = new CcpEndpoint();
  e.handle(xoff('0C'), 0);
  e.handle(xoff('0A'), 1);
  assert.deepEqual(flows(e.handle(xon('0A'), 2)), []);
  assert.equal(sendable(e), '0D 0E 0F 1A 2A 3A 4A 5A 6A 7A 8A');
});

test('Part 9 §3.2 Table 3-1: VC1–VC8 flows act on their own channel, independent of VC0 and of each other', () => {
  const e = new CcpEndpoint();
  assert.deepEqual(flows(e.handle(xoff('1A'), 0)), ['1A-']);
  assert.deepEqual(flows(e.handle(xoff('0F'), 1)), ['0A-', '0B-', '0C-', '0D-', '0E-', '0F-'], 'VC0 flow 0F does not reach 1A');
  assert.deepEqual(flows(e.handle(xoff('8A'), 2)), ['8A-']);
  assert.equal(sendable(e), '2A 3A 4A 5A 6A 7A');
  assert.deepEqual(flows(e.handle(xon('0F'), 3)), ['0A+', '0B+', '0C+', '0D+', '0E+', '0F+']);
  assert.deepEqual(flows(e.handle(xon('8A'), 4)), ['8A+']);
  assert.equal(e.canSend(D, '1A'), false);
});

test('Part 9 §2.4.2.3: counters saturate at 2^counterBits − 1 and never wrap; the XONs then restart the flow', () => {
  const e = new CcpEndpoint({ counterBits: 2 });
  assert.equal(e.counterMax, 3);
  for (let t = 0; t < 3; t++) e.handle(xoff('0B'), t);
  const out = e.handle(xoff('0B'), 3);
  assert.deepEqual(out, [{ kind: 'event', name: 'counter-saturated', destinationID: D, flowID: '0B', counter: 3 }]);
  assert.equal(e.counterValue(D, '0B'), 3);
  assert.equal(e.counters().saturated, 1);
  assert.deepEqual(flows(e.handle(xon('0B'), 4)), []);
  assert.deepEqual(flows(e.handle(xon('0B'), 5)), []);
  assert.deepEqual(flows(e.handle(xon('0B'), 6)), ['0A+', '0B+'], 'three XONs bring 3 to zero');
});

test('Part 9 §2.4.2.3: an XON at zero stops at zero (event xon-at-zero, no flow change)', () => {
  const e = new CcpEndpoint();
  const out = e.handle(xon('0E'), 0);
  assert.deepEqual(out, [{ kind: 'event', name: 'xon-at-zero', destinationID: D, flowID: '0E', counter: 0 }]);
  assert.equal(e.counterValue(D, '0E'), 0);
  assert.equal(e.counters().xonAtZero, 1);
  assert.deepEqual(flows(e.handle(xoff('0E'), 1)), ['0A-', '0B-', '0C-', '0D-', '0E-'], 'a later XOFF still stops the flow');
});

test('Part 9 §2.4.2.3: with bounded counters, two flows sharing a counter stop and start together', () => {
  // 7 counters: (0·14 + 0) % 7 = (0·14 + 7) % 7 = 0, so 0A and 2A of destination 0 share counter 0.
  const e = new CcpEndpoint({ counters: { mode: 'bounded', count: 7 } });
  assert.deepEqual(flows(e.handle(xoff('2A', 0), 0)), ['0A-', '2A-']);
  assert.equal(e.counterValue(0, '0A'), 1);
  assert.deepEqual(flows(e.handle(xoff('0A', 0), 1)), [], 'the shared counter goes to 2');
  assert.deepEqual(flows(e.handle(xon('2A', 0), 2)), []);
  assert.deepEqual(flows(e.handle(xon('0A', 0), 3)), ['0A+', '2A+']);
  assert.deepEqual(e.snapshot()['counters'], []);
});

test('Part 9 §2.4.2.3: bounded counters shared across destinations stop the flows of every destination named so far', () => {
  // 14 counters: flow i of every destination uses counter i.
  const e = new CcpEndpoint({ counters: { mode: 'bounded', count: 14 } });
  e.handle(xon('1A', 1), 0);
  const out = e.handle(xoff('1A', 2), 1);
  assert.deepEqual(out.flatMap((o) => (o.kind === 'flow' ? [`${o.destinationID}/${o.flowID}${o.enabled ? '+' : '-'}`] : [])), ['1/1A-', '2/1A-']);
  assert.equal(e.canSend(99, '1A'), false, 'canSend answers for destinations never named too');
  // Decision: a destination enters the flow outputs when first named, with the flows already
  // stopped by shared counters reported then, under that input's cause.
  assert.deepEqual(e.handle(xon('4A', 3), 2), [
    { kind: 'flow', destinationID: 3, flowID: '1A', enabled: false, cause: 'xon' },
    { kind: 'event', name: 'xon-at-zero', destinationID: 3, flowID: '4A', counter: 0 },
  ]);
  assert.deepEqual(flows(e.handle(xon('1A', 1), 3)), ['1A+', '1A+', '1A+']);
});

test('Part 9 §2.4.3: an XOFF naming a critical flow is ignored and a critical flow is never stopped by a higher XOFF', () => {
  const e = new CcpEndpoint({ critical: [{ flowID: '0A' }, { destinationID: 5, flowID: '0B' }] });
  assert.deepEqual(e.handle(xoff('0A'), 0), [{ kind: 'event', name: 'critical-xoff-ignored', destinationID: D, flowID: '0A' }]);
  assert.equal(e.counterValue(D, '0A'), 0);
  assert.deepEqual(flows(e.handle(xoff('0C'), 1)), ['0B-', '0C-'], '0A stays enabled');
  assert.equal(e.canSend(D, '0A'), true);
  assert.deepEqual(events(e.handle(xoff('0B', 5), 2)), ['critical-xoff-ignored'], 'critical towards destination 5');
  assert.deepEqual(flows(e.handle(xoff('0B', 6), 3)), ['0B-'], 'not critical towards destination 6');
  assert.equal(e.counters().criticalIgnored, 2);
  assert.equal(e.counters().xoff, 2);
});

test('Part 9 §2.4.3 (decision): an XON naming a critical flow is processed like any XON (its counter is zero: xon-at-zero)', () => {
  const e = new CcpEndpoint({ critical: [{ flowID: '3A' }] });
  e.handle(xoff('3A'), 0);
  assert.deepEqual(events(e.handle(xon('3A'), 1)), ['xon-at-zero']);
  assert.equal(e.counters().xon, 1);
});

test('Part 9 §3.3: without flow arbitration the FAM bits are ignored and every Type 7 acts on its XON/XOFF bit alone', () => {
  const e = new CcpEndpoint();
  assert.deepEqual(flows(e.handle(ccp('RELEASE', '0A', D, 1), 0)), ['0A-'], 'RELEASE: XON/XOFF = 0 is an XOFF');
  assert.deepEqual(flows(e.handle(raw(0, 0b001, '1A'), 1)), ['1A-'], 'XOFF with the undefined FAM 001 is an XOFF');
  assert.deepEqual(flows(e.handle(ccp('XOFF_ARB', '2A', D, 0), 2)), ['2A-']);
  assert.deepEqual(flows(e.handle(ccp('REQUEST_SINGLE_PDU', '0A', D, 0), 3)), ['0A+'], 'REQUEST: XON/XOFF = 1 is an XON');
  assert.deepEqual(flows(e.handle(raw(1, 0b001, '1A'), 4)), ['1A+'], 'XON with the undefined FAM 001 is an XON');
  assert.deepEqual(flows(e.handle(ccp('XON_ARB', '2A', D, 1), 5)), ['2A+']);
  assert.deepEqual(e.counters(), { ...e.counters(), xoff: 3, xon: 3, arbitrationIgnored: 0, undefinedIgnored: 0 });
});

test('Part 9 §3.3 Table 3-2: with flow arbitration, arbitration commands and undefined commands change nothing here', () => {
  const e = new CcpEndpoint({ flowArbitration: true });
  assert.deepEqual(e.handle(ccp('XOFF_ARB', '0C', D, 1), 0), [{ kind: 'event', name: 'arbitration-message', destinationID: D, flowID: '0C' }]);
  assert.deepEqual(events(e.handle(ccp('RELEASE', '0C', D, 0), 1)), ['arbitration-message']);
  assert.deepEqual(events(e.handle(ccp('REQUEST_MULTI_PDU', '1A', D, 0), 2)), ['arbitration-message']);
  assert.deepEqual(e.handle(raw(0, 0b110, '0C'), 3), [{ kind: 'event', name: 'undefined-command', destinationID: D, flowID: '0C' }]);
  assert.equal(sendable(e), ALL);
  assert.deepEqual(flows(e.handle(xoff('0C'), 4)), ['0A-', '0B-', '0C-'], 'plain XOFF (FAM 000) still acts');
  assert.deepEqual(e.counters(), { ...e.counters(), xoff: 1, arbitrationIgnored: 3, undefinedIgnored: 1 });
});

test('Part 9 §3.4: a reserved flowID is no action, whatever the tgtdestinationID and the command', () => {
  for (const flowArbitration of [false, true]) {
    const e = new CcpEndpoint({ flowArbitration });
    for (const [tgt, xonXoff, fam] of [[0, 0, 0], [0xff, 1, 0], [0xffffffff, 0, 0b010]] as const) {
      const p = raw(xonXoff, fam, '0A', tgt).packet;
      const out = e.handle({ kind: 'ccp', packet: { ...p, flowIDCode: 0b0000110, flowID: 'RESERVED' } }, 0);
      assert.deepEqual(out, [{ kind: 'event', name: 'reserved-flow-id', flowID: '0b0000110' }], 'no destinationID: it is ignored');
    }
    assert.equal(e.counters().reservedFlowId, 3);
    assert.equal(e.counters().xoff + e.counters().xon + e.counters().arbitrationIgnored, 0);
    assert.deepEqual(e.orphanQueue(), []);
    assert.equal(e.orphanDeadline(), undefined);
  }
});

test('Part 9 §2.4.4 rule 4: CCPs are processed in order: XOFF then XON leaves the flow enabled, XON then XOFF leaves it stopped', () => {
  const a = new CcpEndpoint();
  for (const input of [xoff('0D'), xon('0D')]) a.handle(input, 7);
  assert.equal(a.canSend(D, '0D'), true);
  const b = new CcpEndpoint();
  for (const input of [xon('0D'), xoff('0D')]) b.handle(input, 7);
  assert.equal(b.canSend(D, '0D'), false);
  assert.equal(b.counterValue(D, '0D'), 1);
});

test('Part 9 Annex A.2: three flows stopped at different times each restart one period after becoming the oldest', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  assert.deepEqual(e.handle(xoff('0A'), 0), [
    { kind: 'flow', destinationID: D, flowID: '0A', enabled: false, cause: 'xoff' },
    { kind: 'timer', name: 'orphan', at: 100 },
  ]);
  assert.deepEqual(e.handle(xoff('1A'), 30).filter((o) => o.kind === 'timer'), [], 'not the oldest: no arming');
  e.handle(xoff('2A', D + 1), 60);
  assert.deepEqual(e.orphanQueue(), [
    { destinationID: D, flowID: '0A', counter: 1 }, { destinationID: D, flowID: '1A', counter: 1 }, { destinationID: D + 1, flowID: '2A', counter: 1 },
  ]);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 100), [
    { kind: 'flow', destinationID: D, flowID: '0A', enabled: true, cause: 'orphan' },
    { kind: 'event', name: 'orphan-restart', destinationID: D, flowID: '0A', counter: 1 },
    { kind: 'timer', name: 'orphan', at: 200 },
  ]);
  assert.deepEqual(flows(e.handle({ kind: 'timer', name: 'orphan' }, 200)), ['1A+']);
  assert.equal(e.orphanDeadline(), 300);
  const last = e.handle({ kind: 'timer', name: 'orphan' }, 300);
  assert.deepEqual(last, [
    { kind: 'flow', destinationID: D + 1, flowID: '2A', enabled: true, cause: 'orphan' },
    { kind: 'event', name: 'orphan-restart', destinationID: D + 1, flowID: '2A', counter: 1 },
  ], 'the expired timer is not re-armed: the FIFO is empty');
  assert.equal(e.orphanDeadline(), undefined);
  assert.equal(e.counters().orphanRestarts, 3);
});

test('Part 9 Annex A.2: a second XOFF does not move a counter in the FIFO; the orphan restart resets the whole counter', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  e.handle(xoff('0A'), 0);
  e.handle(xoff('1A'), 10);
  assert.deepEqual(e.handle(xoff('0A'), 20), [], 'no flow change, no re-arming');
  assert.deepEqual(e.orphanQueue().map((q) => `${q.flowID}:${q.counter}`), ['0A:2', '1A:1']);
  const out = e.handle({ kind: 'timer', name: 'orphan' }, 100);
  assert.deepEqual(events(out), ['orphan-restart']);
  assert.equal(out.find((o) => o.kind === 'event')?.counter, 2);
  assert.equal(e.counterValue(D, '0A'), 0, '§2.4.2.3 "the counter is reset to zero"');
});

test('Part 9 Annex A.2: an XON of the oldest re-arms for the next oldest; an XON of a younger one does not re-arm', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  e.handle(xoff('0A'), 0);
  e.handle(xoff('1A'), 10);
  e.handle(xoff('2A'), 20);
  assert.deepEqual(e.handle(xon('1A'), 30), [{ kind: 'flow', destinationID: D, flowID: '1A', enabled: true, cause: 'xon' }]);
  assert.deepEqual(e.handle(xon('0A'), 50), [
    { kind: 'flow', destinationID: D, flowID: '0A', enabled: true, cause: 'xon' },
    { kind: 'timer', name: 'orphan', at: 150 },
  ]);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 100), [], 'the replaced deadline is stale');
  assert.deepEqual(flows(e.handle({ kind: 'timer', name: 'orphan' }, 150)), ['2A+']);
});

test('Part 9 Annex A.2: an XON that empties the FIFO cancels the orphan timer', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  e.handle(xoff('5A'), 0);
  assert.deepEqual(e.handle(xon('5A'), 10), [
    { kind: 'flow', destinationID: D, flowID: '5A', enabled: true, cause: 'xon' },
    { kind: 'timer', name: 'orphan', at: null },
  ]);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 100), [], 'expiry after a cancel is stale');
});

test('Part 9 §2.4.2.1: Loss: a lost XON ends in an orphan restart, with no software intervention', () => {
  const e = new CcpEndpoint({ orphanPeriod: 1000 });
  e.handle(xoff('0C'), 5);
  // The XON for 0C is dropped in the fabric (§2.4.2 "XOFF and XON CCPs may be dropped").
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 1004), [], 'not due yet');
  const out = e.handle({ kind: 'timer', name: 'orphan' }, 1005);
  assert.deepEqual(flows(out), ['0A+', '0B+', '0C+']);
  assert.ok(out.every((o) => o.kind !== 'flow' || o.cause === 'orphan'));
  assert.equal(sendable(e), ALL);
});

test('Part 9 Annex A.2: a timer expiry that is late, repeated or for an idle timer is ignored unless the deadline passed', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 50), [], 'nothing armed');
  e.handle(xoff('0B'), 0);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 99), []);
  assert.deepEqual(flows(e.handle({ kind: 'timer', name: 'orphan' }, 140)), ['0A+', '0B+'], 'a late delivery still acts');
  assert.deepEqual(e.handle({ kind: 'timer', name: 'orphan' }, 141), [], 'a repeated delivery is stale');
});

test('Part 9 Annex A.2: set-orphan-period ("programmable") applies from the next arming', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  e.handle(xoff('0A'), 0);
  assert.deepEqual(e.handle({ kind: 'set-orphan-period', period: 500 }, 10), []);
  assert.equal(e.orphanPeriod, 500);
  assert.equal(e.orphanDeadline(), 100, 'the running count keeps its deadline');
  e.handle(xoff('1A'), 20);
  const out = e.handle({ kind: 'timer', name: 'orphan' }, 100);
  assert.deepEqual(out.at(-1), { kind: 'timer', name: 'orphan', at: 600 });
  assert.throws(() => e.handle({ kind: 'set-orphan-period', period: 0 }, 110), { name: 'RangeError', message: 'period must be a positive integer' });
  assert.equal(e.orphanPeriod, 500);
});

test('Part 9 §2.4.2.3: reset-destination zeroes its counters, restarts its flows and drops its FIFO entries', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  e.handle(xoff('0B'), 0);
  e.handle(xoff('0B'), 1);
  e.handle(xoff('3A', D + 1), 2);
  e.handle(xoff('4A'), 3);
  assert.deepEqual(e.handle({ kind: 'reset-destination', destinationID: D }, 40), [
    { kind: 'flow', destinationID: D, flowID: '0A', enabled: true, cause: 'reset' },
    { kind: 'flow', destinationID: D, flowID: '0B', enabled: true, cause: 'reset' },
    { kind: 'flow', destinationID: D, flowID: '4A', enabled: true, cause: 'reset' },
    { kind: 'timer', name: 'orphan', at: 140 },
  ]);
  assert.deepEqual(e.orphanQueue(), [{ destinationID: D + 1, flowID: '3A', counter: 1 }]);
  assert.equal(e.counterValue(D, '0B'), 0);
  assert.equal(e.canSend(D + 1, '3A'), false, 'other destinations untouched');
  assert.deepEqual(e.handle({ kind: 'reset-destination', destinationID: D + 1 }, 50), [
    { kind: 'flow', destinationID: D + 1, flowID: '3A', enabled: true, cause: 'reset' },
    { kind: 'timer', name: 'orphan', at: null },
  ]);
  assert.deepEqual(e.handle({ kind: 'reset-destination', destinationID: 7 }, 60), [], 'nothing to reset');
});

test('Part 9 §2.4.2.1: the configuration is checked and the orphaned XOFF mechanism cannot be switched off', () => {
  assert.throws(() => new CcpEndpoint({ orphanPeriod: 0 }), { name: 'RangeError', message: 'orphanPeriod must be a positive integer' });
  assert.throws(() => new CcpEndpoint({ orphanPeriod: 1.5 }), /orphanPeriod/);
  assert.throws(() => new CcpEndpoint({ counterBits: 0 }), /counterBits must be an integer from 1 to 31/);
  assert.throws(() => new CcpEndpoint({ counterBits: 32 }), /counterBits/);
  assert.throws(() => new CcpEndpoint({ counters: { mode: 'bounded', count: 0 } }), /counters.count must be a positive integer/);
  assert.throws(() => new CcpEndpoint({ critical: [{ flowID: 'ZZ' as FlowIdLabel }] }), /critical\[0\].flowID/);
  assert.throws(() => new CcpEndpoint({ critical: [{ destinationID: -1, flowID: '0A' }] }), /critical\[0\].destinationID/);
  const e = new CcpEndpoint();
  assert.equal(e.orphanPeriod, 1_000_000);
  assert.equal(e.counterMax, 255);
});

test('engine contract: counters() is a copy and snapshot() is plain JSON of the state', () => {
  const e = new CcpEndpoint({ orphanPeriod: 100 });
  e.handle(xoff('0B'), 0);
  const c = e.counters();
  c.xoff = 99;
  assert.equal(e.counters().xoff, 1);
  const s = e.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
  assert.deepEqual(s['counters'], [{ destinationID: D, flowID: '0B', value: 1 }]);
  assert.deepEqual(s['stopped'], [{ destinationID: D, flows: ['0A', '0B'] }]);
  assert.deepEqual(s['timers'], [{ name: 'orphan', at: 100 }]);
  assert.deepEqual(s['orphanQueue'], [{ destinationID: D, flowID: '0B', counter: 1 }]);
});
