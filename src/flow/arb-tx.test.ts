import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbTx } from './arb-tx.ts';
import type { ArbTxInput } from './arbitration-types.ts';
import { makeCcp } from '../wire/type7.ts';
import { RX, TX, events, kinds, only, release, request, segment, sent, xoffArb, xonArb } from '../../test/support/arb-tx.ts';

const tx = (extra: Partial<ConstructorParameters<typeof ArbTx>[0]> = {}): ArbTx => new ArbTx({ localID: TX, ...extra });

/** A transmitter holding a grant of `mode` on flow 0A towards RX (REQUEST seq 0, XON(ARB) seq 0). */
function granted(mode: 'single' | 'multi', extra: Partial<ConstructorParameters<typeof ArbTx>[0]> = {}): ArbTx {
  const e = tx(extra);
  e.handle(request(mode), 0);
  e.handle(xonArb(0), 10);
  return e;
}

test('Part 9 §2.4.7 rule 1, §3.3 Table 3-2: a single-PDU request sends REQUEST (XON, FAM 10Y) to the receiver naming this end point, Y = 0, in the request flow', () => {
  const e = tx();
  const out = e.handle(request('single', '0C'), 100);
  const p = only(out, 'send').packet;
  assert.equal(p.command, 'REQUEST_SINGLE_PDU');
  assert.deepEqual([p.xonXoff, p.fam, p.seq], [1, 0b100, 0]);
  assert.deepEqual([p.destinationID, p.tgtdestinationID, p.flowID, p.soc, p.tt], [RX, TX, '0C', 1, 0]);
  assert.deepEqual([p.prio, p.crf, p.vc], [3, 1, 0], 'default request flow prio 3 CRF 1 (§2.4.2, rule 12)');
  assert.deepEqual(only(out, 'timer'), { kind: 'timer', name: `request:${RX}/0C`, at: 100 + 100_000 });
  assert.equal(e.counters().requests, 1);
});

test('Part 9 §3.3 Table 3-2: a multi-PDU request sends REQUEST multi-PDU (XON, FAM 11Y)', () => {
  const p = only(tx().handle(request('multi'), 0), 'send').packet;
  assert.deepEqual([p.command, p.xonXoff, p.fam], ['REQUEST_MULTI_PDU', 1, 0b110]);
});

test('Part 9 §2.4.7 rule 12: REQUEST goes in the configured request flow; with tt 1 the IDs are Dev16', () => {
  const e = tx({ tt: 1, localID: 0x1234, requestFlow: { prio: 2, crf: 0 } });
  const p = only(e.handle(request('single', '0A', 0xbeef), 0), 'send').packet;
  assert.deepEqual([p.tt, p.destinationID, p.tgtdestinationID, p.prio, p.crf], [1, 0xbeef, 0x1234, 2, 0]);
});

test('Part 9 §2.4.7 preamble: nothing is transmitted on an arbitrated flow before XON(ARB), even with a REQUEST outstanding', () => {
  const e = tx();
  assert.deepEqual(e.handle(segment('single'), 0), [{ kind: 'refused', destinationID: RX, flowID: '0A', segment: 'single', reason: 'no-grant' }]);
  e.handle(request('single'), 0);
  assert.equal(only(e.handle(segment('start'), 1), 'refused').reason, 'no-grant');
  assert.equal(only(e.handle(segment('continuation'), 2), 'refused').reason, 'no-grant', 'no-grant before out-of-sequence');
  assert.equal(e.counters().refusedSegments, 3);
});

test('Part 9 §2.2.1 Figure 2-1: XON(ARB) with the REQUEST\'s Y grants the flow and stops the response timer', () => {
  const e = tx();
  e.handle(request('single'), 0);
  const out = e.handle(xonArb(0), 50);
  assert.deepEqual(out, [
    { kind: 'timer', name: `request:${RX}/0A`, at: null },
    { kind: 'grant', destinationID: RX, flowID: '0A', mode: 'single', seq: 0 },
  ]);
  assert.equal(e.counters().granted, 1);
  assert.deepEqual(e.state(RX, '0A').grant, { mode: 'single', seq: 0, revoked: false });
});

test('Part 9 §2.4.7 rule 5: a single-PDU grant ends upon sending the last segment (single)', () => {
  const e = granted('single');
  assert.deepEqual(e.handle(segment('single'), 20), [
    { kind: 'transmit', destinationID: RX, flowID: '0A', segment: 'single' },
    { kind: 'grant-ended', destinationID: RX, flowID: '0A', reason: 'last-segment' },
  ]);
  assert.equal(only(e.handle(segment('single'), 21), 'refused').reason, 'no-grant');
});

test('Part 9 §2.4.7 rule 5: a single-PDU grant lasts through start and continuation and ends with the end segment', () => {
  const e = granted('single');
  assert.deepEqual(kinds(e.handle(segment('start'), 20)), ['transmit']);
  assert.equal(e.state(RX, '0A').pduInProgress, true);
  assert.deepEqual(kinds(e.handle(segment('continuation'), 21)), ['transmit']);
  assert.deepEqual(kinds(e.handle(segment('end'), 22)), ['transmit', 'grant-ended']);
  assert.equal(e.state(RX, '0A').grant, null);
});

test('Part 9 §2.4.8 1: an aborted PDU ends the single-PDU grant like its last segment', () => {
  const e = granted('single');
  e.handle(segment('start'), 20);
  const out = e.handle(segment('abort'), 21);
  assert.deepEqual(only(out, 'grant-ended').reason, 'last-segment');
  assert.equal(only(out, 'transmit').segment, 'abort');
});

test('Part 10 segmentation: start while a PDU is in progress, or continuation/end/abort with none, is refused out-of-sequence', () => {
  const e = granted('multi');
  for (const s of ['continuation', 'end', 'abort'] as const) assert.equal(only(e.handle(segment(s), 20), 'refused').reason, 'out-of-sequence');
  e.handle(segment('start'), 21);
  for (const s of ['start', 'single'] as const) assert.equal(only(e.handle(segment(s), 22), 'refused').reason, 'out-of-sequence');
  assert.equal(e.state(RX, '0A').pduInProgress, true, 'the PDU in progress is unaffected');
  assert.equal(e.counters().refusedSegments, 5);
});

test('Part 9 §2.4.7 rule 6, §2.2.1 Figure 2-2: a multi-PDU grant carries PDUs continuously without renegotiation', () => {
  const e = granted('multi');
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(kinds(e.handle(segment('start'), 20 + i)), ['transmit']);
    assert.deepEqual(kinds(e.handle(segment('end'), 20 + i)), ['transmit']);
    assert.deepEqual(kinds(e.handle(segment('single'), 20 + i)), ['transmit']);
  }
  assert.deepEqual(e.state(RX, '0A').grant, { mode: 'multi', seq: 0, revoked: false });
});

test('Part 9 §2.4.7 rule 7: release with no PDU in progress sends RELEASE with the grant\'s Y at once and ends the grant', () => {
  const e = granted('multi');
  const out = e.handle(release(), 30);
  const p = only(out, 'send').packet;
  assert.deepEqual([p.command, p.xonXoff, p.fam, p.seq, p.destinationID, p.tgtdestinationID, p.flowID, p.soc], ['RELEASE', 0, 0b100, 0, RX, TX, '0A', 1]);
  assert.deepEqual(out[1], { kind: 'grant-ended', destinationID: RX, flowID: '0A', reason: 'released' });
  assert.equal(e.counters().releases, 1);
});

test('Part 9 §2.4.7 rule 7: release during a PDU sends RELEASE after the PDU completes; a new PDU meanwhile is refused releasing', () => {
  const e = granted('multi');
  e.handle(segment('start'), 20);
  assert.deepEqual(e.handle(release(), 21), []);
  assert.equal(e.state(RX, '0A').releasing, true);
  assert.equal(only(e.handle(segment('single'), 22), 'refused').reason, 'releasing');
  assert.deepEqual(kinds(e.handle(segment('continuation'), 23)), ['transmit']);
  const out = e.handle(segment('end'), 24);
  assert.deepEqual(kinds(out), ['transmit', 'send', 'grant-ended']);
  assert.equal(only(out, 'send').packet.command, 'RELEASE');
  assert.equal(only(e.handle(segment('start'), 25), 'refused').reason, 'no-grant');
});

test('Part 9 §2.4.7 rule 12, DECISIONS §3: RELEASE travels in the data flow — 0D as prio 1 CRF 1, without CRF as prio 2 CRF 0', () => {
  for (const [crfSupported, prio, crf] of [[true, 1, 1], [false, 2, 0]] as const) {
    const e = tx({ crfSupported });
    e.handle(request('multi', '0D'), 0);
    e.handle(xonArb(0, '0D'), 1);
    const p = only(e.handle(release('0D'), 2), 'send').packet;
    assert.deepEqual([p.vc, p.prio, p.crf], [0, prio, crf], `crfSupported ${crfSupported}`);
  }
});

test('Part 9 §2.4.7 rule 12, Part 6 Table 2-2: RELEASE of flow 3A travels in VC3 (VC 1, PRIO||CRF = 010)', () => {
  const e = tx();
  e.handle(request('multi', '3A'), 0);
  e.handle(xonArb(0, '3A'), 1);
  const p = only(e.handle(release('3A'), 2), 'send').packet;
  assert.deepEqual([p.vc, p.prio, p.crf, p.flowID], [1, 1, 0, '3A']);
});

test('Part 9 §2.4.7 rule 8, §2.2.1 Figure 2-3: XOFF(ARB) mid multi-PDU transfer: the current PDU completes, then RELEASE with the grant\'s Y', () => {
  const e = tx();
  e.handle(request('multi', '1A'), 0);
  e.handle(xoffArb(0, '1A'), 1);
  e.handle({ kind: 'timer', name: `retry:${RX}/1A` }, 10_001);
  e.handle(xonArb(1, '1A'), 10_002);
  e.handle(segment('start', '1A'), 10_003);
  const revoke = e.handle(xoffArb(1, '1A'), 10_004);
  assert.deepEqual(revoke, [{ kind: 'event', name: 'revoked', destinationID: RX, flowID: '1A', seq: 1 }]);
  assert.equal(only(e.handle(segment('start', '1A'), 10_005), 'refused').reason, 'releasing');
  assert.deepEqual(kinds(e.handle(segment('continuation', '1A'), 10_006)), ['transmit']);
  const out = e.handle(segment('end', '1A'), 10_007);
  assert.deepEqual(kinds(out), ['transmit', 'send', 'grant-ended']);
  const p = only(out, 'send').packet;
  assert.deepEqual([p.command, p.seq, p.vc, p.prio, p.crf], ['RELEASE', 1, 1, 0, 0], 'VC1: VC 1, PRIO||CRF 000');
  assert.equal(only(out, 'grant-ended').reason, 'released');
  assert.equal(e.counters().revoked, 1);
});

test('Part 9 §2.4.7 rule 8: XOFF(ARB) during a multi-PDU grant between PDUs sends RELEASE at once', () => {
  const e = granted('multi');
  const out = e.handle(xoffArb(0), 20);
  assert.deepEqual(kinds(out), ['event', 'send', 'grant-ended']);
  assert.equal(only(out, 'send').packet.command, 'RELEASE');
});

test('Part 9 §2.4.7 rule 8 (decision): a repeated XOFF(ARB) for a grant already revoked is stale', () => {
  const e = granted('multi');
  e.handle(segment('start'), 20);
  e.handle(xoffArb(0), 21);
  assert.deepEqual(events(e.handle(xoffArb(0), 22)), ['stale-response']);
  assert.equal(e.counters().revoked, 1);
});

test('Part 9 §2.4.7 rule 8 (decision): XOFF(ARB) after the application asked to release still records the revocation; one RELEASE goes', () => {
  const e = granted('multi');
  e.handle(segment('start'), 20);
  e.handle(release(), 21);
  assert.deepEqual(events(e.handle(xoffArb(0), 22)), ['revoked']);
  assert.equal(sent(e.handle(segment('end'), 23)).length, 1);
});

test('Part 9 §2.4.7 rule 5 (decision): XOFF(ARB) with the Y of a single-PDU grant whose PDU has not started withdraws it: event revoked, grant-ended revoked, no RELEASE', () => {
  const e = granted('single');
  const out = e.handle(xoffArb(0), 20);
  assert.deepEqual(out, [
    { kind: 'event', name: 'revoked', destinationID: RX, flowID: '0A', seq: 0 },
    { kind: 'grant-ended', destinationID: RX, flowID: '0A', reason: 'revoked' },
  ]);
  assert.equal(e.state(RX, '0A').grant, null);
  assert.equal(only(e.handle(segment('single'), 21), 'refused').reason, 'no-grant');
});

test('Part 9 §2.4.7 rule 5 (decision): XOFF(ARB) with the Y of a single-PDU grant whose PDU started: the PDU finishes and the grant ends with its last segment', () => {
  const e = granted('single');
  e.handle(segment('start'), 20);
  assert.deepEqual(events(e.handle(xoffArb(0), 21)), ['revoked']);
  assert.deepEqual(kinds(e.handle(segment('continuation'), 22)), ['transmit']);
  const out = e.handle(segment('end'), 23);
  assert.deepEqual(kinds(out), ['transmit', 'grant-ended']);
  assert.equal(only(out, 'grant-ended').reason, 'last-segment');
  assert.equal(sent(out).length, 0, 'no RELEASE for a single-PDU grant');
});

test('Part 9 §2.4.7 rule 7 (decision): release without a current multi-PDU grant is ignored (counted); a repeated release is a no-op', () => {
  const e = tx();
  assert.deepEqual(e.handle(release(), 0), [{ kind: 'event', name: 'ignored', destinationID: RX, flowID: '0A' }]);
  e.handle(request('single'), 0);
  e.handle(xonArb(0), 1);
  assert.deepEqual(events(e.handle(release(), 2)), ['ignored'], 'a single-PDU grant ends with its last segment, not RELEASE');
  assert.equal(e.counters().ignored, 2);
  const m = granted('multi');
  m.handle(segment('start'), 20);
  m.handle(release(), 21);
  assert.deepEqual(m.handle(release(), 22), []);
});

test('Part 9 §3.3: towards a receiver that does not support arbitration no REQUEST is sent and segments pass', () => {
  const e = tx({ unsupportedPeers: [0x30] });
  assert.deepEqual(e.handle(request('single', '0A', 0x30), 0), [{ kind: 'event', name: 'not-arbitrated', destinationID: 0x30, flowID: '0A' }]);
  for (const s of ['start', 'continuation', 'end', 'single', 'abort'] as const) {
    assert.deepEqual(e.handle(segment(s, '0A', 0x30), 1), [{ kind: 'transmit', destinationID: 0x30, flowID: '0A', segment: s }]);
  }
  assert.deepEqual(events(e.handle(release('0A', 0x30), 2)), ['not-arbitrated']);
  assert.equal(e.state(0x30, '0A').arbitrated, false);
  assert.equal(only(e.handle(request('single'), 3), 'send').packet.command, 'REQUEST_SINGLE_PDU', 'other receivers still arbitrate');
});

test('Part 9 §4.2 Table 4-1 bit 20, §3.3: with this end\'s support off (enabled false) no arbitration message is sent and XON/XOFF(ARB) are not acted upon', () => {
  const e = tx({ enabled: false });
  assert.deepEqual(events(e.handle(request('multi'), 0)), ['not-arbitrated']);
  assert.deepEqual(kinds(e.handle(segment('single'), 1)), ['transmit']);
  assert.deepEqual(e.handle(xonArb(0), 2), [{ kind: 'event', name: 'not-arbitrated', destinationID: RX, flowID: '0A', seq: 0 }]);
  assert.equal(e.counters().ignored, 1);
  assert.equal(e.state(RX, '0A').grant, null);
});

test('Part 9 §3.3 Table 3-2: XON, XOFF, REQUEST and RELEASE received by the transmitter are ignored (counted)', () => {
  const e = tx();
  for (const command of ['XON', 'XOFF', 'REQUEST_SINGLE_PDU', 'REQUEST_MULTI_PDU', 'RELEASE'] as const) {
    const seq = command === 'XON' || command === 'XOFF' ? undefined : 0;
    const packet = makeCcp({ destinationID: TX, tgtdestinationID: RX, tt: 0, command, flowID: '0A', soc: 1, ...(seq === undefined ? {} : { seq }) });
    assert.deepEqual(e.handle({ kind: 'ccp', packet }, 0), [{ kind: 'event', name: 'ignored' }], command);
  }
  assert.equal(e.counters().ignored, 5);
});

test('Part 9 §3.4 (decision): XON(ARB) with a reserved flowID or addressed to another end point is ignored', () => {
  const e = tx();
  e.handle(request('single'), 0);
  const base = makeCcp({ destinationID: TX, tgtdestinationID: RX, tt: 0, command: 'XON_ARB', seq: 0, flowID: '0A', soc: 1 });
  assert.deepEqual(events(e.handle({ kind: 'ccp', packet: { ...base, flowIDCode: 0x7f, flowID: 'RESERVED' } }, 1)), ['ignored']);
  assert.deepEqual(events(e.handle({ kind: 'ccp', packet: { ...base, destinationID: TX + 1 } }, 2)), ['ignored']);
  assert.notEqual(e.state(RX, '0A').outstanding, null, 'the REQUEST is still outstanding');
});

test('engine contract: bad application input is ignored and counted, never thrown', () => {
  const e = tx();
  const bad = [
    null,
    { kind: 'nonsense' },
    { kind: 'request', destinationID: 0x100, flowID: '0A', mode: 'single' },
    { kind: 'request', destinationID: RX, flowID: '9A', mode: 'single' },
    { kind: 'request', destinationID: RX, flowID: '0A', mode: 'many' },
    { kind: 'segment', destinationID: RX, flowID: '0A', segment: 'middle' },
    { kind: 'release', destinationID: -1, flowID: '0A' },
    { kind: 'ccp', packet: null },
  ] as unknown as ArbTxInput[];
  for (const input of bad) assert.deepEqual(events(e.handle(input, 0)), ['ignored'], JSON.stringify(input));
  assert.equal(e.counters().ignored, bad.length);
  assert.deepEqual(e.snapshot().flows, []);
});

test('engine contract: configuration errors throw a RangeError naming the field', () => {
  const cases: [Partial<ConstructorParameters<typeof ArbTx>[0]>, RegExp][] = [
    [{ localID: 0x100 }, /^localID /],
    [{ tt: 3 }, /^tt /],
    [{ requestTimeout: 0 }, /^requestTimeout /],
    [{ retryDelay: -1 }, /^retryDelay /],
    [{ requestFlow: { prio: 4, crf: 0 } }, /^requestFlow\.prio /],
    [{ requestFlow: { prio: 3, crf: 2 } }, /^requestFlow\.crf /],
    [{ unsupportedPeers: [1.5] }, /^unsupportedPeers\[0\] /],
    [{ pipelining: 'yes' as unknown as boolean }, /^pipelining /],
  ];
  for (const [extra, re] of cases) assert.throws(() => tx(extra), (err: unknown) => err instanceof RangeError && re.test(err.message), JSON.stringify(extra));
  assert.doesNotThrow(() => tx({ requestTimeout: null, retryDelay: 0 }));
});

test('Part 9 §2.4.2 (decision): without CRF support the default request flow is prio 3 CRF 0', () => {
  const p = only(tx({ crfSupported: false }).handle(request('single'), 0), 'send').packet;
  assert.deepEqual([p.prio, p.crf], [3, 0]);
});

test('engine contract: state() of an unknown flow is the initial state; snapshot() is plain JSON', () => {
  const e = tx();
  assert.deepEqual(e.state(RX, '0B'), {
    destinationID: RX, flowID: '0B', arbitrated: true, seq: 0, outstanding: null, pending: null, grant: null, held: null, pduInProgress: false, releasing: false,
  });
  e.handle(request('multi'), 0);
  e.handle(xonArb(0), 5);
  e.handle(request('single'), 6);
  e.handle(segment('start'), 7);
  const s = e.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
  assert.equal(s.flows.length, 1);
  assert.deepEqual([s.config.localID, s.config.requestTimeout, s.config.retryDelay, s.config.pipelining], [TX, 100_000, 10_000, true]);
  assert.deepEqual(s.timers, [{ name: `request:${RX}/0A`, at: 100_006 }]);
  assert.deepEqual(s.flows[0]?.outstanding, { mode: 'single', seq: 1, reissues: 0 });
  assert.equal(s.counters.requests, 2);
  const c = e.counters();
  c.requests = 99;
  assert.equal(e.counters().requests, 2, 'counters() returns a copy');
});
