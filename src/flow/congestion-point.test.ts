import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CongestionPoint } from './congestion-point.ts';
import { deq, enq } from '../../test/support/congestion-point.ts';
import type { BufferedPacket, CongestionPointConfig, CongestionPointOutput } from './congestion-point-types.ts';

type Out = CongestionPointOutput;

function req(sourceID: number, destinationID: number, prio = 0, crf = 0, extra: Partial<BufferedPacket> = {}): BufferedPacket {
  return { sourceID, destinationID, tt: 0, prio, crf, ftype: 5, ...extra };
}
function rsp(sourceID: number, destinationID: number, prio = 1, crf = 0): BufferedPacket {
  return { sourceID, destinationID, tt: 0, prio, crf, ftype: 13 };
}
const MAINT: BufferedPacket = { sourceID: 5, destinationID: 9, tt: 0, prio: 0, crf: 0, ftype: 8 };
const TYPE7: BufferedPacket = { sourceID: 6, destinationID: 9, tt: 0, prio: 3, crf: 1, ftype: 7 };

function cp(c: Partial<CongestionPointConfig> = {}): CongestionPoint {
  return new CongestionPoint({ role: 'switch', highWatermark: 3, lowWatermark: 1, routes: { default: 4 }, ...c });
}
/** Every CCP field the congestion point chooses, plus the port. */
function ccps(out: readonly Out[]): string[] {
  return out.flatMap((o) => {
    if (o.kind !== 'send') return [];
    const p = o.packet;
    return [`port ${o.port}: ${p.command} dst ${p.destinationID} tgt ${p.tgtdestinationID} flow ${p.flowID} soc ${p.soc} prio ${p.prio} crf ${p.crf} tt ${p.tt}`];
  });
}
function names(out: readonly Out[]): string[] {
  return out.map((o) => (o.kind === 'event' ? o.name : `send ${o.packet.command} ${o.packet.destinationID}`));
}

test('Part 9 Annex A.1 method 1, §2.4.6 rule 1: histogram analysis XOFFs the top flows when the watermark is exceeded and XONs them below it — exact CCPs', () => {
  const e = cp({ policy: { kind: 'histogram', flows: 2 } });
  const A = req(1, 9, 0, 0); // flow 0A
  const B = req(2, 9, 1, 1); // flow 0D, CRF=1
  const C = req(3, 9, 2, 0); // flow 0E
  assert.deepEqual([...enq(e, A, 2), ...enq(e, B)], []);
  const out = enq(e, C);
  // Occupancy 4 > 3: top two are A (2 packets), then C over B (1 packet each, CRF=0 first).
  assert.deepEqual(out[0], { kind: 'event', name: 'congested', occupancy: 4 });
  assert.deepEqual(out[1], {
    kind: 'send', port: 4,
    packet: { ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 1, tgtdestinationID: 9, xonXoff: 0, fam: 0, command: 'XOFF', flowIDCode: 0, flowID: '0A', soc: 0, rsrv: 0 },
  });
  assert.deepEqual(ccps(out), [
    'port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0',
    'port 4: XOFF dst 3 tgt 9 flow 0E soc 0 prio 3 crf 1 tt 0',
  ]);
  // B reaches 2 packets: top two are A and B; A is already controlled.
  assert.deepEqual(ccps(enq(e, B)), ['port 4: XOFF dst 2 tgt 9 flow 0D soc 0 prio 3 crf 1 tt 0']);
  assert.deepEqual([...deq(e, A, 2), ...deq(e, B)], []);
  const xon = deq(e, C);
  assert.deepEqual(xon[0], { kind: 'event', name: 'decongested', occupancy: 1 });
  assert.deepEqual(xon[1], {
    kind: 'send', port: 4,
    packet: { ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 1, tgtdestinationID: 9, xonXoff: 1, fam: 0, command: 'XON', flowIDCode: 0, flowID: '0A', soc: 0, rsrv: 0 },
  });
  assert.deepEqual(ccps(xon), [
    'port 4: XON dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0',
    'port 4: XON dst 3 tgt 9 flow 0E soc 0 prio 3 crf 1 tt 0',
    'port 4: XON dst 2 tgt 9 flow 0D soc 0 prio 3 crf 1 tt 0',
  ]);
  assert.deepEqual(deq(e, B), []);
  const c = e.counters();
  assert.deepEqual([c.enqueued, c.dequeued, c.xoffSent, c.xonSent], [5, 5, 3, 3]);
});

test('Part 9 Annex A.1 method 2, §2.4.5 rule 5, §3.2 SOC=1: simple threshold XOFFs the flow of every arriving packet while above the watermark — end point CCPs', () => {
  const e = new CongestionPoint({ role: 'endpoint', highWatermark: 2, lowWatermark: 0, policy: { kind: 'threshold' } });
  const A = req(1, 9, 0, 0);
  const B = req(2, 9, 0, 1);
  assert.deepEqual(enq(e, A, 2), []);
  const first = enq(e, A);
  assert.deepEqual(first[0], { kind: 'event', name: 'congested', occupancy: 3 });
  assert.deepEqual(first[1], {
    kind: 'send', port: 0,
    packet: { ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 1, tgtdestinationID: 9, xonXoff: 0, fam: 0, command: 'XOFF', flowIDCode: 0, flowID: '0A', soc: 1, rsrv: 0 },
  });
  assert.deepEqual(ccps(enq(e, B)), ['port 0: XOFF dst 2 tgt 9 flow 0B soc 1 prio 3 crf 1 tt 0']);
  assert.deepEqual(enq(e, A), [], 'an already controlled flow is not XOFF\'d again');
  assert.deepEqual([...deq(e, A, 3), ...deq(e, B)], []);
  const last = deq(e, A);
  assert.deepEqual(names(last), ['decongested', 'send XON 1', 'send XON 2']);
  assert.deepEqual(ccps(last), [
    'port 0: XON dst 1 tgt 9 flow 0A soc 1 prio 3 crf 1 tt 0',
    'port 0: XON dst 2 tgt 9 flow 0B soc 1 prio 3 crf 1 tt 0',
  ]);
});

test('Part 9 Annex A.1 a) "sufficient hysteresis": nothing happens between the watermarks; congested/decongested fire once per crossing', () => {
  const e = cp({ highWatermark: 4, lowWatermark: 2 });
  const A = req(1, 9);
  assert.deepEqual(enq(e, A, 4), []);
  assert.equal(e.isCongested(), false);
  assert.deepEqual(names(enq(e, A)), ['congested', 'send XOFF 1']);
  assert.deepEqual([...deq(e, A, 2), ...enq(e, A, 2)], []);
  assert.equal(e.isCongested(), true);
  assert.deepEqual(deq(e, A, 2), []);
  assert.deepEqual(names(deq(e, A)), ['decongested', 'send XON 1']);
  assert.equal(e.isCongested(), false);
  assert.deepEqual(enq(e, A, 2), []);
  assert.deepEqual(names(enq(e, A)), ['congested', 'send XOFF 1']);
  assert.equal(e.occupancy(), 5);
});

test('Part 9 §2.4.3 "may select for shut off a packet with CRF=0 over a packet with CRF=1"; without CRF support the bit is ignored and CCPs carry CRF 0', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0 });
  enq(e, req(1, 9, 0, 1));
  assert.deepEqual(ccps(enq(e, req(2, 9, 0, 0))), ['port 4: XOFF dst 2 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  const n = cp({ highWatermark: 1, lowWatermark: 0, crfSupported: false });
  enq(n, req(1, 9, 0, 1));
  // Both are flow A without CRF (Table 6-6); the tie goes to the flow seen first.
  assert.deepEqual(ccps(enq(n, req(2, 9, 0, 0))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 0 tt 0']);
});

test('Part 9 §2.4.3 Table 2-1, DECISIONS §3: XOFF flowIDs of requests and responses, with and without CRF; Illegal combinations raise "unmappable"', () => {
  const flows = (crfSupported: boolean, packets: readonly BufferedPacket[]): string[] => {
    const e = cp({ highWatermark: 1, lowWatermark: 0, policy: { kind: 'threshold' }, responses: 'equal', crfSupported });
    enq(e, MAINT, 2);
    return packets.map((p) => {
      const out = enq(e, p);
      return out[0]?.kind === 'send' ? out[0].packet.flowID : out[0]?.kind === 'event' ? out[0].name : 'none';
    });
  };
  const pc: [number, number][] = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1]];
  assert.deepEqual(flows(true, pc.map(([p, c], i) => req(10 + i, 9, p, c))), ['0A', '0B', '0C', '0D', '0E', '0F', 'unmappable', 'unmappable']);
  assert.deepEqual(flows(true, pc.map(([p, c], i) => rsp(10 + i, 9, p, c))), ['unmappable', 'unmappable', '0A', '0B', '0C', '0D', '0E', '0F']);
  assert.deepEqual(flows(false, pc.map(([p, c], i) => req(10 + i, 9, p, c))), ['0A', '0A', '0B', '0B', '0C', '0C', 'unmappable', 'unmappable']);
  assert.deepEqual(flows(false, pc.map(([p, c], i) => rsp(10 + i, 9, p, c))), ['unmappable', 'unmappable', '0A', '0A', '0B', '0B', '0C', '0C']);
});

test('Part 9 §2.4.3 requests preferred, histogram: fallback picks a request flow over a bigger response flow and a response flow only when no request is buffered', () => {
  const e = cp({ responses: 'fallback' });
  enq(e, rsp(1, 9), 3);
  assert.deepEqual(ccps(enq(e, req(2, 9))), ['port 4: XOFF dst 2 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  const r = cp({ responses: 'fallback' });
  assert.deepEqual(ccps(enq(r, rsp(1, 9, 2, 0), 4)), ['port 4: XOFF dst 1 tgt 9 flow 0C soc 0 prio 3 crf 1 tt 0']);
});

test('Part 9 §2.4.3 requests preferred, histogram: ignore never XOFFs a response-only flow; equal weighs every packet and breaks ties for the request', () => {
  const i = cp({ responses: 'ignore' });
  assert.deepEqual(ccps(enq(i, rsp(1, 9), 5)), []);
  assert.deepEqual(ccps(enq(i, req(2, 9))), ['port 4: XOFF dst 2 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  const q = cp({ responses: 'equal' });
  enq(q, rsp(1, 9), 3);
  assert.deepEqual(ccps(enq(q, req(2, 9))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  const t = cp({ responses: 'equal' });
  enq(t, rsp(1, 9), 2);
  enq(t, req(2, 9));
  assert.deepEqual(ccps(enq(t, req(2, 9))), ['port 4: XOFF dst 2 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
});

test('Part 9 §2.4.3 requests preferred, threshold: a response triggers an XOFF under fallback only when no request is buffered, never under ignore, always under equal', () => {
  const mk = (responses: 'fallback' | 'ignore' | 'equal'): CongestionPoint => cp({ highWatermark: 1, lowWatermark: 0, policy: { kind: 'threshold' }, responses });
  const f = mk('fallback');
  enq(f, req(2, 9));
  assert.deepEqual(ccps(enq(f, rsp(1, 9))), []);
  assert.deepEqual(ccps(enq(f, req(2, 9))), ['port 4: XOFF dst 2 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  const g = mk('fallback');
  enq(g, MAINT);
  assert.deepEqual(ccps(enq(g, rsp(1, 9))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  const i = mk('ignore');
  enq(i, MAINT);
  assert.deepEqual(ccps(enq(i, rsp(1, 9), 3)), []);
  const q = mk('equal');
  enq(q, req(2, 9));
  assert.deepEqual(ccps(enq(q, rsp(1, 9))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
});

test('Part 9 §2.4.3 "Maintenance and flow control transaction request flows must never cause the generation of a flow control transaction" (histogram)', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0 });
  const A = req(1, 9);
  enq(e, A);
  assert.deepEqual(names([...enq(e, MAINT, 3), ...enq(e, TYPE7, 3)]), ['congested']);
  assert.equal(e.occupancy(), 7);
  assert.equal(e.bufferedCount(5, 9, '0A'), 0);
  // Six maintenance/Type 7 packets against one data packet: the histogram only holds A.
  assert.deepEqual(ccps(enq(e, A)), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  assert.deepEqual([...deq(e, MAINT, 3), ...deq(e, TYPE7, 3)], []);
  assert.equal(e.counters().unknownDequeue, 0);
});

test('Part 9 §2.4.3: maintenance and Type 7 packets never trigger the threshold method either', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0, policy: { kind: 'threshold' } });
  assert.deepEqual(names([...enq(e, MAINT, 2), ...enq(e, TYPE7, 2)]), ['congested']);
  assert.equal(e.counters().xoffSent, 0);
});

test('Part 9 §2.4.3 Table 2-1 (decision): an unmappable packet occupies the buffer, raises "unmappable" and triggers no XOFF, not even of the top flow', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0 });
  enq(e, req(1, 9));
  const out = enq(e, req(3, 9, 3, 0));
  assert.deepEqual(out, [
    { kind: 'event', name: 'unmappable', destinationID: 3, tgtdestinationID: 9, occupancy: 2 },
    { kind: 'event', name: 'congested', occupancy: 2 },
  ]);
  assert.deepEqual(ccps(enq(e, req(1, 9))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 1 tt 0']);
  assert.deepEqual(deq(e, req(3, 9, 3, 0)), []);
  assert.equal(e.counters().unmappable, 1);
});

test('Part 9 §3.2 Table 3-1: with 8 VCs (Part 6 Table 2-2) VC1–VC8 packets are XOFF\'d as flows 1A–8A', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0, policy: { kind: 'threshold' }, vcCount: 8 });
  enq(e, MAINT);
  assert.deepEqual(ccps([...enq(e, req(1, 9, 3, 1, { vc: 1 })), ...enq(e, req(2, 9, 0, 0, { vc: 1 })), ...enq(e, req(3, 9, 2, 1, { vc: 1 }))]), [
    'port 4: XOFF dst 1 tgt 9 flow 8A soc 0 prio 3 crf 1 tt 0',
    'port 4: XOFF dst 2 tgt 9 flow 1A soc 0 prio 3 crf 1 tt 0',
    'port 4: XOFF dst 3 tgt 9 flow 6A soc 0 prio 3 crf 1 tt 0',
  ]);
  assert.equal(e.bufferedCount(1, 9, '8A'), 1);
});

test('Part 9 §2.4.2 "prio field value of 0b11, and a CRF bit value of 0b1, if supported": ccpFlow overrides it; without CRF support CRF is 0', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0, ccpFlow: { prio: 2, crf: 0 } });
  enq(e, req(1, 9));
  assert.deepEqual(ccps(enq(e, req(1, 9))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 2 crf 0 tt 0']);
  const n = cp({ highWatermark: 1, lowWatermark: 0, ccpFlow: { prio: 3, crf: 1 }, crfSupported: false });
  enq(n, req(1, 9));
  assert.deepEqual(ccps(enq(n, req(1, 9))), ['port 4: XOFF dst 1 tgt 9 flow 0A soc 0 prio 3 crf 0 tt 0']);
});

test('Part 9 §3.4: the CCP keeps the transport size of the offending packet (Dev16 and Dev32 IDs)', () => {
  const e = cp({ highWatermark: 1, lowWatermark: 0, policy: { kind: 'threshold' } });
  enq(e, MAINT);
  assert.deepEqual(ccps([...enq(e, req(0x1234, 0xbeef, 1, 0, { tt: 1 })), ...enq(e, req(0x12345678, 0x9abcdef0, 2, 1, { tt: 2 }))]), [
    'port 4: XOFF dst 4660 tgt 48879 flow 0C soc 0 prio 3 crf 1 tt 1', // 0x1234, 0xbeef
    'port 4: XOFF dst 305419896 tgt 2596069104 flow 0F soc 0 prio 3 crf 1 tt 2', // 0x12345678, 0x9abcdef0
  ]);
});

test('Part 9 Annex A.1 "internal packet buffer levels" in bytes: watermarks compare bytes, the histogram still counts packets', () => {
  const e = cp({ unit: 'bytes', highWatermark: 1000, lowWatermark: 200 });
  const big = req(1, 9, 0, 0, { size: 600 });
  assert.deepEqual(enq(e, big), []);
  assert.deepEqual(names(enq(e, big)), ['congested', 'send XOFF 1']);
  assert.equal(e.occupancy(), 1200);
  assert.equal(e.bufferedCount(1, 9, '0A'), 2);
  // Decision: a packet without a valid size weighs 0 bytes.
  assert.deepEqual(enq(e, req(2, 9)), []);
  assert.equal(e.occupancy(), 1200);
  assert.deepEqual(deq(e, big), []);
  assert.deepEqual(names(deq(e, big)), ['decongested', 'send XON 1']);
  assert.deepEqual(deq(e, req(2, 9)), []);
  assert.equal(e.occupancy(), 0);
});
