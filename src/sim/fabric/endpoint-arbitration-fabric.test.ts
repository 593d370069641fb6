import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arbFabric, maxInReception, overlappingPulls, starts, startsBeyondGrants } from '../../../test/support/sim-arbitration.ts';
import type { ArbEvent, ArbFabric, Trace } from '../../../test/support/sim-arbitration.ts';
import type { EndpointArbitrationConfig } from '../../node/endpoint/arbitration-config.ts';
import type { EndpointConfig } from './endpoint-types.ts';

/** Traffic stops at 150 µs; 2 ms is ample to drain (1 KiB PDUs take about 9 µs on a 1 Gbit/s link). */
const STOP = 150_000_000;
const DRAIN = 2_000_000_000;

interface Incast {
  readonly arbitration?: EndpointArbitrationConfig;
  /** Part 10 reassembly contexts of host 0 (SegSupport). */
  readonly contexts?: number;
  readonly sources?: number;
  readonly load?: number;
  readonly seed?: number;
}

/** Hosts 1..n send 1 KiB PDUs (four Part 10 segments) to host 0 with Poisson arrivals; host 1 also sends to host 2. */
function incast(o: Incast): ArbFabric {
  const n = o.sources ?? 3;
  const configs: EndpointConfig[] = [];
  for (let id = 0; id <= n; id++) {
    const traffic = id === 0 ? [] : [{ load: o.load ?? 0.5, arrival: { kind: 'poisson' as const }, destinations: { kind: 'fixed' as const, dst: 0 }, size: { kind: 'fixed' as const, bytes: 1024 }, stop: STOP }];
    if (id === 1) traffic.push({ load: 0.2, arrival: { kind: 'poisson' }, destinations: { kind: 'fixed', dst: 2 }, size: { kind: 'fixed', bytes: 1024 }, stop: STOP });
    configs.push({
      name: `h${id}`, id, buffers: { packets: 8 }, sar: true,
      ...(o.arbitration === undefined ? {} : { arbitration: o.arbitration }),
      ...(id === 0 && o.contexts !== undefined ? { sink: { reassembler: { segSupport: o.contexts } } } : {}),
      traffic,
    });
  }
  const f = arbFabric(configs, o.seed ?? 1);
  for (const ep of f.eps) ep.start(0);
  f.b.sched.run({ until: DRAIN });
  f.b.collector.finish(DRAIN);
  return f;
}

function sum(f: ArbFabric, k: 'pdusOffered' | 'pdusDropped' | 'pdusReceived' | 'pduDefects'): number {
  return f.eps.reduce((s, ep) => s + ep.counters()[k], 0);
}

function flowArb(t: Trace, ep: number, dir: 'in' | 'out'): ArbEvent[] {
  return (dir === 'in' ? t.arbIn : t.arbOut).filter((a) => a.ep === ep);
}

test('Part 9 §2.4.7 preamble and rule 10, §2.4.2.1: through a switch, no PDU of an arbitrated flow starts before its XON(ARB), and host 0 never receives more PDUs at once than its resources', () => {
  const f = incast({ arbitration: { mode: 'single', resources: 2 }, sources: 4, load: 0.6 });
  assert.deepEqual(startsBeyondGrants(f.trace), []);
  assert.ok(f.trace.sent.filter(starts).length > 40, 'enough PDUs to mean something');
  assert.ok(maxInReception(f.trace, 0) <= 2, `in reception at once: ${maxInReception(f.trace, 0)}`);
  assert.equal(maxInReception(f.trace, 0), 2, 'both resources used');
  assert.equal(f.arb(0).counters()['maxAllocated'], 2);
  assert.deepEqual([f.total('refused'), f.total('unexpectedSegments'), overlappingPulls(f.trace)], [0, 0, 0]);
});

test('Part 9 §2.4.7 preamble, Part 10 §3.2.4: with two reassembly contexts at host 0, three sources lose PDUs to context shortage without arbitration and none with two resources', () => {
  const off = incast({ contexts: 2 });
  assert.ok(sum(off, 'pduDefects') > 0, 'no-context defects without arbitration');
  const on = incast({ contexts: 2, arbitration: { resources: 2 } });
  assert.equal(sum(on, 'pduDefects'), 0);
  assert.equal(sum(on, 'pdusReceived'), sum(on, 'pdusOffered') - sum(on, 'pdusDropped'));
  assert.equal(on.b.collector.results().counts['reassembler.no-context'] ?? 0, 0);
});

test('Part 9 §2.2.1 Figures 2-1 and 2-2, §2.4.7 rules 5-7: a lossless run delivers every PDU in either mode; single-PDU asks once per PDU, multi-PDU once per backlog and gives each grant back with RELEASE', () => {
  const runs = { single: incast({ arbitration: { mode: 'single' } }), multi: incast({ arbitration: { mode: 'multi' } }) };
  for (const [mode, f] of Object.entries(runs)) {
    const pdus = f.trace.sent.filter(starts).length;
    assert.equal(sum(f, 'pdusReceived'), sum(f, 'pdusOffered') - sum(f, 'pdusDropped'), `${mode}: every PDU delivered`);
    assert.equal(sum(f, 'pdusReceived'), pdus);
    assert.deepEqual([sum(f, 'pduDefects'), f.total('refused'), f.total('unexpectedSegments'), f.total('reissued'), overlappingPulls(f.trace)], [0, 0, 0, 0, 0], mode);
    // Drained: no resource held, no flow waiting, every source flow blocked until its next grant.
    for (const ep of f.eps) {
      const s = f.arb(ep.id).snapshot() as { allocated: number; flows: { waitingSince: number | null; blocked: boolean }[] };
      assert.equal(s.allocated, 0, `${mode}: ${ep.name} holds nothing`);
      assert.ok(s.flows.every((x) => x.waitingSince === null && x.blocked), `${mode}: ${ep.name} flows idle`);
    }
    assert.equal(f.total('granted'), f.total('requests'), `${mode}: every REQUEST granted`);
    assert.equal(f.total('allocated'), f.total('freed'));
    if (mode === 'single') {
      assert.deepEqual([f.total('requests'), f.total('released')], [pdus, 0]);
    } else {
      assert.equal(f.total('released'), f.total('granted'));
      assert.ok(f.total('requests') < pdus, `multi: ${f.total('requests')} REQUESTs for ${pdus} PDUs`);
      assert.equal(f.total('freed'), f.total('released'), 'multi-PDU resources come back by RELEASE only');
      // Four resources for three sources, and Type 7 packets keep their order through the switch
      // (Part 9 §2.4.4 rule 3): a source's next REQUEST never arrives before its RELEASE, so none waits.
      assert.deepEqual([f.total('queued'), f.total('xoffArbSent')], [0, 0]);
    }
    assert.ok(f.total('waits') > 0 && f.total('waitPs') > 0);
  }
  // Decision: a destination takes nothing back while the holder is backlogged (rule 6), even with
  // REQUESTs waiting: two resources for three sources. Rule 2: a waiting REQUEST that its source
  // reissues (rule 3 1)) is answered XOFF(ARB) then; those are the only XOFF(ARB)s.
  const busy = incast({ arbitration: { mode: 'multi', resources: 2 } });
  assert.ok(busy.total('queued') > 0, 'REQUESTs waited');
  assert.ok(busy.total('duplicates') > 0, 'a waiting REQUEST was reissued');
  assert.deepEqual([busy.total('xoffArbSent'), busy.total('refused')], [busy.total('duplicates'), 0]);
  assert.equal(sum(busy, 'pdusReceived'), sum(busy, 'pdusOffered') - sum(busy, 'pdusDropped'));
});

test('Part 9 §2.2.1 Figure 2-2, §2.4.7 rules 6, 7, 12: one multi-PDU grant carries a backlog of three PDUs; RELEASE follows the last segment in the data flow and frees the resource at host 0', () => {
  const f = arbFabric([0, 1].map((id) => ({ name: `h${id}`, id, buffers: { packets: 8 }, sar: true, arbitration: { mode: 'multi' as const } })));
  for (const ep of f.eps) ep.start(0);
  for (let i = 0; i < 3; i++) f.eps[1]?.source.offer(0, 0, 0, 1024, 0);
  f.b.sched.run({ until: DRAIN });
  const out = flowArb(f.trace, 1, 'out');
  assert.deepEqual(out.map((a) => [a.command, a.seq, a.prio, a.crf]), [['REQUEST_MULTI_PDU', 0, 3, 1], ['RELEASE', 0, 0, 0]]);
  const sent = f.trace.sent.filter((s) => s.ep === 1);
  assert.deepEqual(sent.map((s) => s.position), Array(3).fill(['start', 'continuation', 'continuation', 'end']).flat());
  assert.ok((out[1]?.at ?? 0) > (sent.at(-1)?.at ?? Infinity), 'RELEASE after the last segment');
  const releaseIn = flowArb(f.trace, 0, 'in').find((a) => a.command === 'RELEASE');
  const lastIn = f.trace.received.filter((r) => r.ep === 0).at(-1);
  assert.ok(releaseIn !== undefined && lastIn !== undefined && releaseIn.at > lastIn.at, 'RELEASE arrives behind the last segment');
  const rx = f.arb(0).counters();
  assert.deepEqual([rx['allocated'], rx['freed'], rx['staleReleases']], [1, 1, 0]);
  assert.equal(f.eps[0]?.counters().pdusReceived, 3);
});

test('Part 9 §2.2.2 Figure 2-4, §2.4.7 rule 11: the second REQUEST is pipelined during the first PDU, and host 0 answers it only after that PDU\'s last segment; without pipelining it waits for the first PDU to end', () => {
  for (const pipelining of [true, false]) {
    const f = arbFabric([0, 1].map((id) => ({ name: `h${id}`, id, buffers: { packets: 8 }, sar: true, arbitration: { mode: 'single' as const, pipelining } })));
    for (const ep of f.eps) ep.start(0);
    for (let i = 0; i < 2; i++) f.eps[1]?.source.offer(0, 0, 0, 1024, 0);
    f.b.sched.run({ until: DRAIN });
    const out = flowArb(f.trace, 1, 'out');
    assert.deepEqual(out.map((a) => [a.command, a.seq]), [['REQUEST_SINGLE_PDU', 0], ['REQUEST_SINGLE_PDU', 1]]);
    const firstEnd = f.trace.sent.find((s) => s.ep === 1 && s.position === 'end');
    const request1 = out[1];
    assert.ok(firstEnd !== undefined && request1 !== undefined);
    if (pipelining) assert.ok(request1.at < firstEnd.at, 'Request_1 before PDU 0 ends');
    else assert.ok(request1.at > firstEnd.at, 'Request_1 after PDU 0 ends');
    const xon1 = flowArb(f.trace, 0, 'out').find((a) => a.command === 'XON_ARB' && a.seq === 1);
    const eom0 = f.trace.received.find((r) => r.ep === 0 && r.position === 'end');
    assert.ok(xon1 !== undefined && eom0 !== undefined && xon1.at >= eom0.at, '"shall not be honored until the current transaction has been completely received"');
    assert.equal(f.eps[0]?.counters().pdusReceived, 2);
  }
});

test('Part 9 §2.2.1 Figure 2-1 XOFF(ARB) branch, §2.4.7 rules 2-4, §2.4.2.1: a destination that rejects when busy answers XOFF(ARB); the source asks again retryDelay later with the next sequence bit, and everything arrives', () => {
  const retryDelay = 2_000_000;
  const f = incast({ arbitration: { resources: 1, whenBusy: 'reject', retryDelay } });
  assert.ok(f.total('rejected') > 0 && f.total('rejected') === f.total('xoffArbSent'));
  for (let ep = 1; ep < f.eps.length; ep++) {
    const rej = flowArb(f.trace, ep, 'in').filter((a) => a.command === 'XOFF_ARB');
    const reqs = flowArb(f.trace, ep, 'out').filter((a) => a.command === 'REQUEST_SINGLE_PDU');
    for (const x of rej) {
      const next = reqs.find((r) => r.at > x.at && r.tgt === ep && r.to === x.tgt && r.flowID === x.flowID);
      assert.ok(next !== undefined && next.at >= x.at + retryDelay, `host ${ep}: retry ${next?.at ?? 'none'} after XOFF(ARB) at ${x.at}`);
      assert.equal(next.seq, (x.seq ?? 0) ^ 1, 'rule 4: a new REQUEST advances Y');
    }
  }
  assert.equal(sum(f, 'pdusReceived'), sum(f, 'pdusOffered') - sum(f, 'pdusDropped'));
  assert.deepEqual([f.total('refused'), f.total('unexpectedSegments'), overlappingPulls(f.trace)], [0, 0, 0]);
});

test('issue 7 §1 determinism: the same arbitrated fabric and seed give the same wire trace, feature snapshots and results', () => {
  const run = (): string => {
    const f = incast({ arbitration: { mode: 'multi', resources: 1 }, seed: 9, sources: 4 });
    assert.equal(overlappingPulls(f.trace), 0);
    return JSON.stringify({ trace: f.trace, arb: f.eps.map((ep) => f.arb(ep.id).snapshot()), results: f.b.collector.results() });
  };
  const a = run();
  assert.equal(run(), a);
  assert.ok(a.includes('RELEASE'));
});
