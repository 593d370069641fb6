import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDU, SLOW, incast, runStar, star, tmFeature, tmOf, toDst } from '../../../test/support/sim-tm.ts';
import { serialLength } from '../../wire/serial.ts';
import { type9Length } from '../../wire/type9.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm.ts';

test('Part 10 §3.4.2, Table 4-4: an XOFF from the congested egress stops the source flow before its next PDU, and XON restarts it', () => {
  const s = incast({ mode: 'BASIC' });
  runStar(s, 2_000_000_000);
  let stops = 0;
  let restarts = 0;
  for (const src of [1, 2]) {
    const mine = s.trace.filter((t) => t.ep === src);
    let off = false;
    let inPdu: number | null = null;
    let startedWhileOn = false;
    for (const t of mine) {
      const m = tmOf(t);
      if (t.dir === 'in' && m?.message === 'XOFF') {
        assert.equal(off, false, 'a second XOFF without an XON between');
        // The egress's queue is source ID + cos (§3.3): its XOFF names the class, cos 0 (§4.3.1 wc=001).
        assert.deepEqual([(t.packet.wire as Type9TmPacket).wildcard, (t.packet.wire as Type9TmPacket).cos], [0b001, 0]);
        off = true;
        stops++;
      } else if (t.dir === 'in' && m?.message === 'XON') {
        off = false;
        startedWhileOn = false;
      } else if (t.dir === 'out' && t.packet.kind === 'data') {
        const pdu = t.packet.pdu as NonNullable<typeof t.packet.pdu>;
        if (pdu.index === 0) {
          // §3.4.5 rule 4 "An ingress shall not overrule a TM directive from the egress".
          assert.equal(off, false, `source ${src} started PDU ${pdu.id} at ${t.at} while XOFF'd`);
          inPdu = pdu.id;
          if (!startedWhileOn && stops > 0) restarts++;
          startedWhileOn = true;
        } else {
          // The PDU under way when the XOFF came finishes: no Part 10 context is left half filled.
          assert.equal(pdu.id, inPdu);
        }
      }
    }
  }
  assert.ok(stops >= 5, `${stops} XOFFs`);
  assert.ok(restarts >= 5, `${restarts} restarts after XON`);
  const sink = tmFeature(s.eps[0]!).counters();
  assert.equal(sink['xoff'], stops);
  assert.ok((sink['xon'] as number) >= stops - 2);
  for (const ep of s.eps) assert.equal(tmFeature(ep).counters()['ingress.gateViolations'], 0);
});

test('Part 10 §3.4.2: with TM the congestion stays at the sources: the switch output queue to the slow egress holds less than without', () => {
  const peak = (tm: EndpointTmConfig | undefined): { mean: number; max: number } => {
    const host = { name: '', buffers: { packets: 8 } };
    const cfg = (c: Record<string, unknown>) => (tm === undefined ? c : { ...c, tm });
    const s = star([
      { ...host, ...cfg({}), name: 'sink', sink: { serviceTime: SLOW } },
      { ...host, ...cfg({}), name: 'a', traffic: [toDst(0, 0.6, PDU)] },
      { ...host, ...cfg({}), name: 'b', traffic: [toDst(0, 0.6, PDU)] },
    ] as never);
    runStar(s, 2_000_000_000);
    s.collector.finish(s.sched.now);
    const o = s.collector.results().occupancy.find((x) => x.component === 's0/out0');
    assert.ok(o !== undefined);
    return { mean: o.meanPackets, max: o.maxPackets };
  };
  const off = peak(undefined);
  const on = peak({ mode: 'BASIC' });
  assert.ok(off.max >= 30, `without TM the output queue fills: ${JSON.stringify(off)}`);
  assert.ok(on.mean < off.mean / 4, `with TM ${JSON.stringify(on)} against ${JSON.stringify(off)}`);
});

test('Part 10 §3.4.5 protocol rule 1: TM packets travel in the flow of the data they concern, as Type 9 xh=1 packets of their length', () => {
  const s = incast({ mode: 'BASIC' }, (dst) => toDst(dst, 0.6, PDU, { prio: 1, crf: 1 }));
  runStar(s, 1_000_000_000);
  const tm = s.trace.filter((t) => t.dir === 'out' && t.packet.kind === 'tm');
  assert.ok(tm.length > 4);
  for (const t of tm) {
    const w = t.packet.wire as Type9TmPacket;
    assert.equal(w.xh, 1);
    assert.equal(w.segment, 'tm');
    assert.deepEqual([t.packet.prio, t.packet.crf, w.prio, w.crf], [1, 1, 1, 1]);
    assert.equal(t.packet.bytes, serialLength(type9Length(w)));
    assert.equal(t.packet.dst, w.destinationID);
    assert.equal(t.packet.src, t.ep);
  }
});

test('Part 10 §3.4.3, Table 4-5: in RATE mode the egress REDUCEs the congested source, whose PDUs then leave no faster than the rate in force', () => {
  const initial = 100_000_000;
  const tm: EndpointTmConfig = {
    mode: 'RATE', levelPeriod: 4_000_000,
    rate: { average: initial, peak: 200_000_000, burst: 256, peakBurst: 256, minRate: 10_000_000 },
    policy: { onOff: null, rate: { high: 160, low: 64, reduce: 16, increase: 32 } },
  };
  const s = star([
    { name: 'sink', buffers: { packets: 8 }, tm, sink: { serviceTime: 4_000_000 } },
    { name: 'a', buffers: { packets: 8 }, tm, traffic: [toDst(0, 1, 256)] },
  ]);
  const feature = tmFeature(s.eps[1]!);
  const rates: { at: number; rate: number }[] = [{ at: 0, rate: initial }];
  const receive = feature.receive.bind(feature);
  feature.receive = (p, now) => {
    receive(p, now);
    const q = (feature.snapshot()['ingress'] as { queues: { averageRate: number }[] }).queues[0];
    if (q !== undefined && q.averageRate !== rates.at(-1)?.rate) rates.push({ at: now, rate: q.averageRate });
  };
  runStar(s, 1_000_000_000);
  assert.ok(feature.counters()['ingress.rateChanges'] as number > 5);
  assert.ok(tmFeature(s.eps[0]!).counters()['rate'] as number > 5);
  const lowest = Math.min(...rates.map((r) => r.rate));
  assert.ok(lowest < initial / 2, `lowest rate ${lowest}`);
  const rateAt = (t: number): number => rates.filter((r) => r.at <= t).at(-1)?.rate ?? initial;
  const starts = s.trace.filter((t) => t.ep === 1 && t.dir === 'out' && t.packet.kind === 'data').map((t) => t.at);
  assert.ok(starts.length > 100);
  let checked = 0;
  for (let i = 1; i < starts.length; i++) {
    const t0 = starts[i - 1] as number;
    const t1 = starts[i] as number;
    const fastest = Math.max(rateAt(t0), ...rates.filter((r) => r.at > t0 && r.at <= t1).map((r) => r.rate));
    // The bucket holds one PDU: after one leaves, the next needs 256 bytes earned at no more than `fastest`
    // bytes/s; the engines' ns clock rounds each time down by less than 1000 ps.
    assert.ok(t1 - t0 >= (256 * 1e12) / fastest - 1000, `PDU at ${t1} only ${t1 - t0} ps after the one before, rate ${fastest}`);
    checked++;
  }
  assert.equal(checked, starts.length - 1);
});

test('Part 10 §3.4.4 "PDUs are only transmitted when an ingress is given an allocation of credits": in CREDIT mode no source starts a PDU beyond the credits allocated to it', () => {
  const s = incast({ mode: 'CREDIT' });
  runStar(s, 2_000_000_000);
  for (const src of [1, 2]) {
    let credits = 0;
    let pdus = 0;
    for (const t of s.trace.filter((x) => x.ep === src)) {
      const m = tmOf(t);
      if (t.dir === 'in' && m?.message === 'ALLOCATE') credits += m.credits;
      if (t.dir === 'out' && t.packet.kind === 'data' && t.packet.pdu?.index === 0) {
        pdus++;
        assert.ok(pdus <= credits, `source ${src}: PDU ${pdus} at ${t.at} with ${credits} credits allocated`);
      }
    }
    assert.ok(pdus > 50 && credits > 0, `source ${src}: ${pdus} PDUs, ${credits} credits`);
  }
  const sink = tmFeature(s.eps[0]!).counters();
  assert.equal(sink['egress.pdusWithoutCredit'], 0);
  // "CREDIT STATUS <AU> <nn> … is sent ahead of the first packet": the egress never had to assume an AU open.
  assert.equal(sink['egress.auAssumedOpen'], 0);
  assert.ok((sink['creditStatus'] as number) === 0 && (tmFeature(s.eps[1]!).counters()['creditStatus'] as number) > 4);
  assert.ok((sink['allocate'] as number) > 4);
  for (const ep of s.eps) assert.equal(tmFeature(ep).counters()['ingress.gateViolations'], 0);
});
