import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverAndOpenAll, FabricNet } from '../../test/support/fabric-endpoint.ts';
import { octets, type9Node } from '../../test/support/endpoint-net.ts';
import type { ProtocolSupport, StreamRef } from '../session/types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { encodePacket, packetLength } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { makeCcp } from '../wire/type7.ts';
import type { Type7Packet } from '../wire/type7.ts';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import { DEFAULT_HELD_LIMIT, DEFAULT_REASSEMBLY_IDLE } from './fabric-endpoint-config.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput, FabricEndpointSnapshot } from './fabric-endpoint.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

interface Trio {
  readonly net: FabricNet;
  readonly e: FabricEndpoint;
  readonly to2: StreamRef;
  readonly to3: StreamRef;
  readonly t: number;
}

/** End points 1, 2 and 3 (Type 9) through a switch, streams 1 → 2 and 1 → 3 open; node 1 is then driven by hand. */
function trio(extra: Partial<FabricEndpointConfig> = {}, all: Partial<FabricEndpointConfig> = {}): Trio {
  const net = new FabricNet();
  net.add({ ...type9Node(1, 0xfff1, { protocols: [P], discover: [2, 3] }), ...all, ...extra });
  net.add({ ...type9Node(2, 0xfff2, { protocols: [P], discover: [1] }), ...all });
  net.add({ ...type9Node(3, 0xfff3, { protocols: [P], discover: [1] }), ...all });
  const [to2, to3] = discoverAndOpenAll(net, [[1, 2], [1, 3]], PROTO);
  return { net, e: net.node(1), to2: to2!, to3: to3!, t: net.now };
}

function ccp(command: 'XOFF' | 'XON', tgtdestinationID: number, flowID: FlowIdLabel, destinationID = 1): Type7Packet {
  return makeCcp({ destinationID, tgtdestinationID, tt: 1, command, flowID, soc: 0 });
}

/** A MAINTENANCE read request from node 2 to node 1, which node 1 answers. */
function readFrom2(srcTID: number): Packet {
  return maintenanceReadRequest({ tt: 1, destinationID: 1, sourceID: 2, srcTID, byteOffset: 0, byteCount: 4 });
}

function packetsOf(out: readonly FabricEndpointOutput[]): Packet[] {
  return out.flatMap((o) => (o.kind === 'packet' ? [o.packet] : []));
}

/** Pulls one packet at a time until the end point answers idle; every output. */
function drain(e: FabricEndpoint, now: number): FabricEndpointOutput[] {
  const all: FabricEndpointOutput[] = [];
  for (let i = 0; i < 10_000; i++) {
    const out = e.handle({ kind: 'pull' }, now);
    all.push(...out);
    if (out.some((o) => o.kind === 'idle')) return all;
  }
  throw new Error('never idle');
}

function hex(p: Packet): string {
  const b = new Uint8Array(packetLength(p));
  encodePacket(p, b, 0);
  return Buffer.from(b).toString('hex');
}

/** Type 9 data segments of a stream (0A, prio 0) to `dest`. */
function dataTo(ps: readonly Packet[], dest: number): Packet[] {
  return ps.filter((p) => p.ftype === 9 && p.destinationID === dest && p.prio === 0);
}

/** The same inputs given to node 1 of a fresh trio without any CCP, drained: what node 1 sends when nothing stops it. */
function reference(inputs: readonly FabricEndpointInput[]): Packet[] {
  const r = trio();
  for (const i of inputs) r.e.handle(i, r.t);
  return packetsOf(drain(r.e, r.t));
}

test('Part 9 §2.4.5 rule 1, Part 6 §6.12: an XOFF for (2, 0A) holds exactly that flow; the response, the high-priority flow to 2 and the flow to 3 go on (gated at the source, decision FE10, or by the hold alone)', () => {
  for (const gateFlows of [true, false]) {
    const { e, to2, to3, t } = trio({ gateFlows });
    // Gated, the PDU to 2 stays in the segmenter: nothing of it is pulled, so nothing is held.
    const held = gateFlows ? 0 : 4;
    const out = e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
    assert.deepEqual(out, [
      { kind: 'flow-state', at: t, destinationID: 2, flowID: '0A', state: 'xoff', cause: 'xoff' },
      { kind: 'timer', name: 'ccp:orphan', at: t + 1_000_000 },
    ]);
    e.handle({ kind: 'send', stream: to2, pdu: octets(1000, 1) }, t);
    e.handle({ kind: 'send', stream: to3, pdu: octets(1000, 2) }, t);
    e.handle({ kind: 'packet', packet: readFrom2(7) }, t);
    e.handle({ kind: 'status-query', stream: to2 }, t);
    const before = e.counters().endpoint.packetsOut;
    const sent = packetsOf(drain(e, t));
    assert.deepEqual(dataTo(sent, 2), [], 'nothing of (2, 0A) leaves');
    // Decision FE4: the session stack counts a held packet as sent when it is pulled from it.
    assert.equal(e.counters().endpoint.packetsOut - before, sent.length + held);
    assert.equal(sent[0]?.ftype, 8, 'the MAINTENANCE response first');
    assert.ok(sent.some((p) => p.ftype === 9 && p.destinationID === 2 && p.prio === 1), 'STATUS to 2 on 0C');
    assert.equal(dataTo(sent, 3).length, 4, 'the PDU to 3: four segments of the 256-octet MTU');
    assert.deepEqual(e.flows(), [
      { destinationID: 2, flowID: '0A', state: 'xoff', held },
      { destinationID: 2, flowID: '0C', state: 'xon', held: 0 },
      { destinationID: 3, flowID: '0A', state: 'xon', held: 0 },
    ]);
    const c = e.counters().fabric;
    assert.deepEqual([c.ccpIn, c.held, c.released, c.blockedPulls, c.gates], [1, held, 0, gateFlows ? 0 : 1, gateFlows ? 1 : 0], `gateFlows ${gateFlows}`);
    assert.equal(e.counters().ccp['xoff'], 1);
  }
});

test('Part 9 §2.4.5 rule 2, Part 10 §2.4 rule 1, §3.2.4: XON releases the held packets first and in the order the session stack made them; the PDU arrives whole', () => {
  // The hold alone (gateFlows false), so that every packet of the flow goes through it.
  const { net, e, to2, t } = trio({ gateFlows: false });
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  const inputs: FabricEndpointInput[] = [
    { kind: 'send', stream: to2, pdu: octets(1000, 1) },
    { kind: 'send', stream: to2, pdu: octets(300, 2) },
  ];
  for (const i of inputs) e.handle(i, t);
  assert.deepEqual(packetsOf(drain(e, t)), []);
  const xon = e.handle({ kind: 'packet', packet: ccp('XON', 2, '0A') }, t + 10);
  assert.deepEqual(xon, [
    { kind: 'flow-state', at: t + 10, destinationID: 2, flowID: '0A', state: 'xon', cause: 'xon' },
    { kind: 'timer', name: 'ccp:orphan', at: null },
  ]);
  // The session stack had nothing more to give: the pulls after XON hand out exactly the held packets.
  const released = packetsOf(e.handle({ kind: 'pull', max: 100 }, t + 10));
  assert.deepEqual(released.map(hex), reference(inputs).map(hex));
  assert.deepEqual(released.map((p) => (p.ftype === 9 ? p.segment : '')), ['start', 'continuation', 'continuation', 'end', 'start', 'end']);
  const c = e.counters().fabric;
  assert.deepEqual([c.held, c.released], [6, 6]);
  const receiver = net.node(2);
  const delivered = released.flatMap((p) => receiver.handle({ kind: 'packet', packet: p }, t + 20)).flatMap((o) => (o.kind === 'deliver' ? [o.pdu] : []));
  assert.deepEqual(delivered, [octets(1000, 1), octets(300, 2)]);
});

test('Part 9 §2.4.5 rule 1 "stops all transaction request flows of the specified priority and lower": an XOFF of 0C stops 0A, 0B and 0C towards that destination and nothing towards another (gated at the source, decision FE10, or by the hold alone)', () => {
  for (const gateFlows of [true, false]) {
    const { e, to2, to3, t } = trio({ gateFlows });
    const out = e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0C') }, t);
    assert.deepEqual(out.flatMap((o) => (o.kind === 'flow-state' ? [`${o.destinationID}/${o.flowID} ${o.state}`] : [])), ['2/0A xoff', '2/0B xoff', '2/0C xoff']);
    e.handle({ kind: 'send', stream: to2, pdu: octets(10, 1) }, t);
    e.handle({ kind: 'send', stream: to3, pdu: octets(10, 2) }, t);
    e.handle({ kind: 'status-query', stream: to2 }, t);
    const sent = packetsOf(drain(e, t));
    assert.deepEqual(sent.map((p) => `${p.ftype}>${p.destinationID} prio ${p.prio}`), ['9>3 prio 0']);
    const held = e.flows().filter((f) => f.held > 0).map((f) => [f.destinationID, f.flowID, f.held]);
    assert.deepEqual(held, gateFlows ? [] : [[2, '0A', 1], [2, '0C', 1]]);
    // Gated: the flows held as 0A, 0B and 0C; the VC flows 1A–8A are flows of their own (Part 9 Table 3-1).
    const gated = e.snapshot().gated;
    assert.deepEqual(gated, gateFlows ? [{ destinationID: 2, flowIDs: ['0A', '0B', '0C'] }] : []);
  }
});

test('DECISIONS §3, Part 6 Table 6-6 (decision FE5): without CRF (type9.crfSupported false, the system setting) the high-priority flow is 0B: its XOFF holds the STATUS (prio 1) and the data (prio 0) to 2, not the data to 3 (gated at the source, decision FE10, or by the hold alone)', () => {
  for (const gateFlows of [true, false]) {
    const { e, to2, to3, t } = trio({ gateFlows }, { type9: { crfSupported: false } });
    const out = e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0B') }, t);
    assert.deepEqual(out.flatMap((o) => (o.kind === 'flow-state' ? [o.flowID] : [])), ['0A', '0B']);
    e.handle({ kind: 'status-query', stream: to2 }, t);
    e.handle({ kind: 'send', stream: to2, pdu: octets(10, 1) }, t);
    e.handle({ kind: 'send', stream: to3, pdu: octets(10, 2) }, t);
    assert.deepEqual(packetsOf(drain(e, t)).map((p) => `${p.ftype}>${p.destinationID} prio ${p.prio} crf ${p.crf}`), ['9>3 prio 0 crf 0']);
    assert.deepEqual(e.flows().filter((f) => f.held > 0).map((f) => [f.destinationID, f.flowID, f.held]), gateFlows ? [] : [[2, '0A', 1], [2, '0B', 1]]);
    assert.equal(e.counters().fabric.gates > 0, gateFlows);
  }
});

test('Part 9 Annex A.2: the orphaned XOFF timer is ccp:orphan; at its deadline the flow restarts (cause orphan) and its held packets go at the next pull; an early expiry is ignored', () => {
  const { e, to2, t } = trio({ ccp: { orphanPeriod: 5000 } });
  const [, timer] = e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  assert.deepEqual(timer, { kind: 'timer', name: 'ccp:orphan', at: t + 5000 });
  e.handle({ kind: 'send', stream: to2, pdu: octets(600, 3) }, t);
  assert.deepEqual(packetsOf(drain(e, t)), []);
  assert.deepEqual(e.handle({ kind: 'timer', name: 'ccp:orphan' }, t + 4999), [], 'not due yet');
  const out = e.handle({ kind: 'timer', name: 'ccp:orphan' }, t + 5000);
  assert.deepEqual(out, [
    { kind: 'flow-state', at: t + 5000, destinationID: 2, flowID: '0A', state: 'xon', cause: 'orphan' },
    { kind: 'event', source: 'fabric', at: t + 5000, detail: { event: 'ccp', name: 'orphan-restart', detail: { destinationID: 2, flowID: '0A', counter: 1 } } },
  ]);
  assert.equal(packetsOf(drain(e, t + 5000)).length, 3);
  assert.equal(e.counters().ccp['orphanRestarts'], 1);
});

test('issue 8 §1 (decision FE1): while heldLimit packets are held the end point pulls nothing from the session stack and answers idle (blockedPulls); a response waits too, then goes before the rest once the flow restarts', () => {
  // The hold alone (gateFlows false): gated, a Type 9 flow's packets stay in the segmenter instead.
  const { e, to2, t } = trio({ heldLimit: 2, gateFlows: false });
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  e.handle({ kind: 'send', stream: to2, pdu: octets(1000, 1) }, t);
  assert.deepEqual(e.handle({ kind: 'pull' }, t), [{ kind: 'idle' }]);
  e.handle({ kind: 'packet', packet: readFrom2(9) }, t);
  assert.deepEqual(e.handle({ kind: 'pull' }, t), [{ kind: 'idle' }], 'the response waits behind the full hold');
  assert.deepEqual(e.flows()[0], { destinationID: 2, flowID: '0A', state: 'xoff', held: 2 });
  assert.equal(e.counters().fabric.blockedPulls, 2);
  e.handle({ kind: 'packet', packet: ccp('XON', 2, '0A') }, t + 1);
  const sent = packetsOf(drain(e, t + 1));
  // The two held segments, then the session stack's own order: its response before its data.
  assert.deepEqual(sent.map((p) => (p.ftype === 9 ? p.segment : `type ${p.ftype}`)), ['start', 'continuation', 'type 8', 'continuation', 'end']);
});

test('issue 8 §3 (decision FE2), Part 9 §2.4.2.3: link-down discards the held packets (counted, event) and restarts every flow (cause reset); the orphan timer is cancelled', () => {
  const { e, to2, t } = trio({ gateFlows: false });
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  e.handle({ kind: 'send', stream: to2, pdu: octets(1000, 1) }, t);
  drain(e, t);
  const out = e.handle({ kind: 'link-down' }, t + 1);
  assert.deepEqual(out, [
    { kind: 'event', source: 'fabric', at: t + 1, detail: { event: 'link-down', discarded: 4 } },
    { kind: 'flow-state', at: t + 1, destinationID: 2, flowID: '0A', state: 'xon', cause: 'reset' },
    { kind: 'timer', name: 'ccp:orphan', at: null },
  ]);
  assert.deepEqual([e.counters().fabric.discarded, e.flows()[0]?.held], [4, 0]);
  assert.equal(e.snapshot().link, 'down');
  assert.deepEqual(e.handle({ kind: 'link-up' }, t + 2), [], 'nothing left to reset');
});

test('Part 9 §2.4.2.3 (decision FE2): link-up restarts stopped flows (cause reset) without discarding: their held packets go next, in order', () => {
  const { e, to2, t } = trio();
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  const inputs: FabricEndpointInput[] = [{ kind: 'send', stream: to2, pdu: octets(700, 5) }];
  for (const i of inputs) e.handle(i, t);
  drain(e, t);
  assert.deepEqual(e.handle({ kind: 'link-up' }, t + 1), [
    { kind: 'flow-state', at: t + 1, destinationID: 2, flowID: '0A', state: 'xon', cause: 'reset' },
    { kind: 'timer', name: 'ccp:orphan', at: null },
  ]);
  assert.deepEqual(packetsOf(drain(e, t + 1)).map(hex), reference(inputs).map(hex));
  assert.equal(e.counters().fabric.discarded, 0);
});

test('Part 9 §3.4: a Type 7 with a reserved flowID is counted and reported, never thrown; Part 9 §3.2: a Type 7 for another end point and a malformed one are reported as unsupported', () => {
  const { e, t } = trio();
  const reserved: Type7Packet = { ...ccp('XOFF', 2, '0A'), flowIDCode: 0b0111111, flowID: 'RESERVED' };
  assert.deepEqual(e.handle({ kind: 'packet', packet: reserved }, t), [
    { kind: 'event', source: 'fabric', at: t, detail: { event: 'ccp', name: 'reserved-flow-id', detail: { flowID: '0b0111111' } } },
  ]);
  const other = e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A', 9) }, t);
  assert.deepEqual(other.map((o) => (o.kind === 'event' ? o.detail : o)), [{ event: 'unsupported-packet', ftype: 7, reason: 'Type 7 for destinationID 9, not this end point' }]);
  const junk = { ...ccp('XOFF', 2, '0A'), flowIDCode: 'x' } as unknown as Packet;
  const bad = e.handle({ kind: 'packet', packet: junk }, t);
  assert.deepEqual(bad.map((o) => (o.kind === 'event' ? o.detail : o)), [{ event: 'unsupported-packet', ftype: 7, reason: 'malformed Type 7: flowIDCode is not an integer from 0 to 127' }]);
  const c = e.counters();
  assert.deepEqual([c.fabric.ccpIn, c.fabric.unsupportedPackets, c.ccp['reservedFlowId']], [1, 2, 1]);
  assert.deepEqual(e.flows().filter((f) => f.state === 'xoff'), []);
});

test('issue 8 §1: other packets, commands and inner timers go to the session stack unchanged; a timer naming no engine is its invalid input', () => {
  const { e, t } = trio();
  const out = e.handle({ kind: 'packet', packet: readFrom2(3) }, t);
  assert.deepEqual(out, []);
  assert.equal(packetsOf(e.handle({ kind: 'pull' }, t))[0]?.ftype, 8);
  const disc = e.handle({ kind: 'discover', node: 3 }, t);
  assert.ok(disc.some((o) => o.kind === 'timer' && o.name.startsWith('discovery:')), 'discovery timers keep their names');
  const bogus = e.handle({ kind: 'timer', name: 'nothing' as 'ccp:orphan' }, t);
  assert.deepEqual(bogus.map((o) => (o.kind === 'event' ? [o.source, o.detail] : o)), [['endpoint', { event: 'invalid-input', detail: 'timer: "nothing" names no inner engine' }]]);
  const badPull = e.handle({ kind: 'pull', max: 0 }, t);
  assert.deepEqual(badPull.map((o) => (o.kind === 'event' ? o.detail : o)), [{ event: 'invalid-input', detail: 'pull: max 0 is not a positive integer' }]);
});

test('issue 8 §2: pull {max} hands out up to max packets, held ones first; flows(), counters() and a JSON-serialisable snapshot() with the inner snapshots', () => {
  const { e, to2, to3, t } = trio({ gateFlows: false });
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  e.handle({ kind: 'send', stream: to2, pdu: octets(300, 1) }, t);
  e.handle({ kind: 'send', stream: to3, pdu: octets(300, 2) }, t);
  const first = packetsOf(e.handle({ kind: 'pull', max: 1 }, t));
  assert.deepEqual(first.map((p) => p.destinationID), [3]);
  e.handle({ kind: 'packet', packet: ccp('XON', 2, '0A') }, t);
  const rest = packetsOf(e.handle({ kind: 'pull', max: 3 }, t));
  assert.deepEqual(rest.map((p) => p.destinationID), [2, 2, 3]);
  const snap = JSON.parse(JSON.stringify(e.snapshot())) as FabricEndpointSnapshot;
  assert.deepEqual(snap.flows, e.flows());
  assert.equal(snap.heldLimit, DEFAULT_HELD_LIMIT);
  assert.equal(snap.endpoint.nodeId, 1);
  assert.deepEqual(snap.ccp.stats, e.counters().ccp);
  const c = e.counters();
  assert.deepEqual(Object.keys(c), ['fabric', 'endpoint', 'engines', 'ccp']);
  assert.ok(c.endpoint.packetsOut >= 4 && c.engines.type9 !== null);
  assert.equal(e.participation().blocks.length, 1);
});

test('issue 8 §1 configuration: defaults resolved (heldLimit 64, type9.idleTimeout 1 s, null kept); bad fields are RangeErrors naming them', () => {
  const base = type9Node(1, 0xfff1, { protocols: [P] });
  const idle = (c: FabricEndpointConfig) => new FabricEndpoint(c).snapshot().endpoint.type9?.reassembler.idleTimeout;
  assert.equal(idle(base), DEFAULT_REASSEMBLY_IDLE);
  assert.equal(idle({ ...base, type9: { idleTimeout: null } }), null);
  assert.equal(idle({ ...base, type9: { idleTimeout: 5 } }), 5);
  assert.throws(() => new FabricEndpoint({ ...base, heldLimit: 0 }), /^RangeError: heldLimit must be a positive integer$/);
  assert.throws(() => new FabricEndpoint({ ...base, ccp: { orphanPeriod: -1 } }), /^RangeError: ccp\.orphanPeriod must be a positive integer$/);
  assert.throws(() => new FabricEndpoint({ ...base, verifyOnReassemblyTimeout: 1 as unknown as boolean }), /^RangeError: verifyOnReassemblyTimeout must be a boolean$/);
  assert.throws(() => new FabricEndpoint({ ...base, ccp: null as unknown as object }), /^RangeError: ccp must be/);
  assert.throws(() => new FabricEndpoint({ ...base, type9: { idleTimeout: 0 } }), /^RangeError: type9\.idleTimeout must be a positive integer or null$/);
});

test('issue 8 §1 "its register space served over Type 8": the end point exposes the same register space its MAINTENANCE answers come from', () => {
  const { e } = trio();
  const word = e.registers.read(0x60);
  // Base Device ID CSR (Part 3 §3.5.1 Table 3-5): the large (Dev16) base device ID in the low half.
  assert.equal(((word[2] as number) << 8) | (word[3] as number), 1);
});
