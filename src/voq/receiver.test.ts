import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VoqReceiver } from './receiver.ts';
import type { VoqReceiverConfig, VoqReceiverInput, VoqReceiverOutput } from './receiver-types.ts';
import { buildSymbol } from '../wire/symbol.ts';
import { Stype0, Stype1 } from '../wire/symbol-types.ts';
import { voqSymbol } from '../wire/voq-stype2.ts';

/** Seed stype2 for one group with the given offsets congested (bit k of the status = offset k). */
const seed = (group: number, offsets: readonly number[] = []): number => voqSymbol({ group, congestedOffsets: offsets });
const bp = (stype2: number, port = 0, vc?: number): VoqReceiverInput => (vc === undefined ? { kind: 'stype2', port, stype2 } : { kind: 'stype2', port, stype2, vc });
const pkt = (destID: number, packetId: number | string, vc?: number): VoqReceiverInput => (vc === undefined ? { kind: 'packet', destID, packetId } : { kind: 'packet', destID, packetId, vc });
const go = (port = 0): VoqReceiverInput => ({ kind: 'transmit-opportunity', port });

/** destID d goes to local port 0, downstream port d. */
function oneLink(ports: readonly number[], extra: Partial<VoqReceiverConfig> = {}, queues = 4): VoqReceiver {
  return new VoqReceiver({ ports: [{ queues }], routes: ports.map((d) => ({ destID: d, localPort: 0, downstreamPort: d })), ...extra });
}

function events(out: readonly VoqReceiverOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
}
function changes(out: readonly VoqReceiverOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'blocked' || o.kind === 'unblocked' ? [`${o.kind} ${o.vc === null ? '' : `vc${o.vc} `}q${o.queue}`] : []));
}
/** Offers opportunities until idle; the packet IDs sent. */
function drain(r: VoqReceiver, port = 0): (number | string)[] {
  const sent: (number | string)[] = [];
  for (let i = 0; i < 1000; i++) {
    const out = r.handle(go(port), i);
    const t = out.find((o) => o.kind === 'transmit');
    if (t === undefined) break;
    sent.push(t.packetId);
  }
  return sent;
}

test('VoQ Backpressure §2.2, §4.3 a: the forward lookup gives a destination ID its local and downstream egress port', () => {
  const r = new VoqReceiver({ ports: [{}, {}], routes: [{ destID: 0x20, localPort: 1, downstreamPort: 7 }] });
  assert.deepEqual(r.route(0x20), { destID: 0x20, localPort: 1, downstreamPort: 7 });
  r.handle(pkt(0x20, 'a'), 0);
  assert.equal(r.stagedCount(1), 1);
  assert.deepEqual(r.staged(1, 7 % 4), ['a'], 'decoder: downstream port 7 is staged in queue 7 mod 4');
  assert.deepEqual(r.handle(go(1), 1), [{ kind: 'transmit', port: 1, packetId: 'a', destID: 0x20, vc: 0, queue: 3, downstreamPort: 7 }]);
});

test('VoQ Backpressure §2.2: an end point (one port, no routing table) associates destination IDs with the downstream egress port', () => {
  const r = new VoqReceiver({ ports: [{ queues: 2 }], routes: [{ destID: 1, localPort: 0, downstreamPort: 2 }, { destID: 2, localPort: 0, downstreamPort: 3 }] });
  r.handle(bp(seed(0, [2])), 0);
  r.handle(pkt(1, 'to-congested'), 1);
  r.handle(pkt(2, 'to-clear'), 2);
  assert.deepEqual(drain(r), ['to-clear']);
});

test('VoQ Backpressure §4.3 a: a packet without a forward-table entry is not staged (event no-route)', () => {
  const r = oneLink([1]);
  const out = r.handle(pkt(99, 'x'), 0);
  assert.deepEqual(out, [{ kind: 'event', name: 'no-route', packetId: 'x', detail: 'destID 99' }]);
  assert.equal(r.stagedCount(0), 0);
  assert.equal(r.counters().noRoute, 1);
});

test('VoQ Backpressure §2.3: a congestion message is reverse mapped to the same queue the forward lookup used (decoder)', () => {
  const r = oneLink([0, 1, 2, 3, 4, 5]);
  const out = r.handle(bp(seed(0, [5])), 0);
  assert.deepEqual(out, [{ kind: 'blocked', port: 0, vc: null, queue: 1, cause: 'backpressure' }]);
  assert.equal(r.isBlocked(0, 1), true);
  assert.deepEqual(r.congestedPorts(0), [5]);
});

test('VoQ Backpressure §2.3: a RAM-based reverse map (table) takes each downstream port to its listed queue', () => {
  const r = new VoqReceiver({
    ports: [{ queues: 2, reverseMap: { mode: 'table', table: [1, 1, 0, 0] } }],
    routes: [{ destID: 10, localPort: 0, downstreamPort: 0 }, { destID: 12, localPort: 0, downstreamPort: 2 }],
  });
  assert.deepEqual(changes(r.handle(bp(seed(0, [1])), 0)), ['blocked q1']);
  r.handle(pkt(10, 'q1'), 1);
  r.handle(pkt(12, 'q0'), 2);
  assert.deepEqual(drain(r), ['q0']);
  assert.deepEqual(changes(r.handle(bp(seed(0, [4])), 3)), ['unblocked q1'], 'port 4 has no table entry: it blocks nothing');
  assert.deepEqual(r.congestedPorts(0), [4]);
  assert.throws(() => new VoqReceiver({ ports: [{ queues: 2, reverseMap: { mode: 'table', table: [0] } }], routes: [{ destID: 1, localPort: 0, downstreamPort: 3 }] }), {
    name: 'RangeError',
    message: 'routes[0].downstreamPort must have a queue in ports[0].reverseMap.table',
  });
});

test('VoQ Backpressure §4.3 e: a co-mingled queue blocks when any of its ports is congested and unblocks only when all are clear', () => {
  // queues 2: ports 1, 3 and 5 share queue 1.
  const r = oneLink([1, 3, 5], {}, 2);
  assert.deepEqual(changes(r.handle(bp(seed(0, [3])), 0)), ['blocked q1']);
  r.handle(pkt(1, 'p1'), 1);
  r.handle(pkt(5, 'p5'), 2);
  assert.deepEqual(drain(r), [], '"any congestion for any of the ports associated with the co-mingled traffic results in all that traffic being stopped"');
  assert.deepEqual(changes(r.handle(bp(seed(0, [1, 5])), 3)), [], 'port 3 clears, 1 and 5 congest: still blocked');
  assert.deepEqual(changes(r.handle(bp(seed(0, [5])), 4)), []);
  assert.deepEqual(drain(r), []);
  assert.deepEqual(changes(r.handle(bp(seed(0, [])), 5)), ['unblocked q1'], '"only ... if all ports represented by the traffic are not congested"');
  assert.deepEqual(drain(r), ['p1', 'p5']);
});

test('VoQ Backpressure §4.3 b: traffic for a congested port is not committed to the link, other traffic passes', () => {
  const r = oneLink([0, 1, 2, 3]);
  r.handle(bp(seed(0, [2])), 0);
  r.handle(pkt(2, 'blocked-1'), 1);
  r.handle(pkt(0, 'a'), 2);
  r.handle(pkt(2, 'blocked-2'), 3);
  r.handle(pkt(3, 'b'), 4);
  assert.deepEqual(drain(r), ['a', 'b']);
  const idle = r.handle(go(), 5);
  assert.deepEqual(idle, [{ kind: 'event', name: 'idle', port: 0, detail: '2 staged' }], 'nothing else may go: the link is offered nothing');
  assert.deepEqual(r.staged(0, 2), ['blocked-1', 'blocked-2']);
});

test('VoQ Backpressure §4.3 c, d: segregated traffic is re-introduced in the order it was segregated; eligible traffic keeps arrival order', () => {
  const r = oneLink([0, 1], {}, 2);
  r.handle(bp(seed(0, [0])), 0);
  for (const id of ['x1', 'y1', 'x2', 'y2', 'x3']) r.handle(pkt(id.startsWith('x') ? 0 : 1, id), 1);
  assert.deepEqual(r.handle(go(), 2).map((o) => (o.kind === 'transmit' ? o.packetId : o.kind)), ['y1']);
  r.handle(bp(seed(0, [])), 3);
  assert.deepEqual(drain(r), ['x1', 'x2', 'y2', 'x3'], 'oldest head first; x1 < x2 < x3 kept');
});

test('VoQ Backpressure §4.3 c: among unblocked queues the oldest head goes first, whatever its queue number', () => {
  const r = oneLink([0, 1, 2, 3]);
  for (const [d, id] of [[3, 'a'], [0, 'b'], [2, 'c'], [1, 'd']] as const) r.handle(pkt(d, id), 0);
  assert.deepEqual(drain(r), ['a', 'b', 'c', 'd']);
});

test('VoQ Backpressure §3.1 Table 3-2/3-3, §4.2 d: group boundaries — ports 0, 5, 6, 186 and 191', () => {
  const ports = [0, 5, 6, 186, 191];
  const r = new VoqReceiver({ ports: [{ queues: 192 }], routes: ports.map((d) => ({ destID: d, localPort: 0, downstreamPort: d })) });
  // CMD 0b001 in bits 0–2 (value bits 13–11), status bits 3–8 (bit 8 = offset 0 = value bit 5), group bits 9–13.
  const vectors: [number, number][] = [
    [0b001_000001_00000, 0], // group 0, offset 0
    [0b001_100000_00000, 5], // group 0, offset 5 (status bit 3)
    [0b001_000001_00001, 6], // group 1, base 0x06
    [0b001_000001_11111, 186], // group 31, base 0xBA
    [0b001_100000_11111, 191], // group 31, offset 5: the last port
  ];
  for (const [stype2, port] of vectors) {
    const out = r.handle(bp(stype2), 0);
    assert.deepEqual(r.congestedPorts(0), [port], `stype2 0x${stype2.toString(16)}`);
    assert.deepEqual(changes(out), [`blocked q${port}`]);
    r.handle(bp(stype2 & ~(0x3f << 5)), 1);
    assert.deepEqual(r.congestedPorts(0), []);
  }
});

test('VoQ Backpressure §2.1 "Port Bit = 0 = No Congestion": a message sets every port of its group and leaves other groups alone', () => {
  const r = oneLink([], {}, 1);
  r.handle(bp(seed(0, [0, 1])), 0);
  r.handle(bp(seed(1, [0])), 1);
  r.handle(bp(seed(0, [1, 2])), 2);
  assert.deepEqual(r.congestedPorts(0), [1, 2, 6]);
});

test('Part 12 §2.1, §4.2 d: with RX Port Group Size 4 a group holds 9 ports, the lowest port in the least significant status bit', () => {
  const r = new VoqReceiver({ format: 'part12-rev4.1', ports: [{ queues: 16, rxPortGroupSize: 4 }], routes: [] });
  // CMD 0b1 (value bit 13) | status(9) | group(4).
  r.handle(bp((1 << 13) | (0b000000001 << 4) | 1), 0);
  assert.deepEqual(r.congestedPorts(0), [9], 'group 1 starts at port 9');
  r.handle(bp((1 << 13) | (0b100000000 << 4) | 0), 1);
  assert.deepEqual(r.congestedPorts(0), [8, 9], 'group 0 ends at port 8');
  r.handle(bp((1 << 13) | (0b100000000 << 4) | 15), 2);
  assert.deepEqual(r.congestedPorts(0), [8, 9, 143], 'group 15 ends at port 143');
});

test('Part 12 §5.1.2.2 Table 5-3: received symbols are read with the RX Port Group Size, reset 0 (13 ports in group 0), and a control write changes it', () => {
  const r = new VoqReceiver({ format: 'part12-rev4.1', ports: [{ queues: 1 }], routes: [] });
  r.handle(bp((1 << 13) | (1 << 12)), 0);
  assert.deepEqual(r.congestedPorts(0), [12]);
  assert.deepEqual(r.handle({ kind: 'control', port: 0, rxPortGroupSize: 1 }, 1), []);
  // Size 1: CMD | status(12) | group(1); group 1 = ports 12–23, status 0b10 = offset 1.
  r.handle(bp((1 << 13) | (0b10 << 1) | 1), 2);
  assert.deepEqual(r.congestedPorts(0), [13], 'port 12 is now offset 0 of group 1 and reported clear; port 13 congested');
});

test('VoQ Backpressure §3.1 Table 3-1: NOP is ignored in both formats', () => {
  const s = oneLink([0]);
  assert.deepEqual(events(s.handle(bp(0), 0)), ['nop']);
  const p = new VoqReceiver({ format: 'part12-rev4.1', ports: [{}], routes: [] });
  assert.deepEqual(events(p.handle(bp(0), 0)), ['nop'], 'Part 12: an all-zero stype2 is no message');
  assert.deepEqual([s.counters().nop, p.counters().nop, s.counters().backpressure], [1, 1, 0]);
});

test('VoQ Backpressure §3.1 Table 3-1: reserved CMD values are counted and ignored (seed 0b010–0b111, Part 12 CMD 0b0 with a parameter)', () => {
  const s = oneLink([0]);
  s.handle(bp(seed(0, [0])), 0);
  for (const cmd of [2, 3, 4, 5, 6, 7]) assert.deepEqual(events(s.handle(bp(cmd << 11), 1)), ['reserved-cmd']);
  assert.deepEqual(s.congestedPorts(0), [0], 'a reserved CMD is not read as "all clear"');
  assert.equal(s.counters().reservedCmd, 6);
  const p = new VoqReceiver({ format: 'part12-rev4.1', ports: [{}], routes: [] });
  assert.deepEqual(p.handle(bp(0x0001), 0), [{ kind: 'event', name: 'reserved-cmd', port: 0, detail: 'cmd 0' }]);
});

test('VoQ Backpressure §3.1: a received CS48 control symbol carries the message in stype2', () => {
  const r = oneLink([0, 1]);
  const symbol = buildSymbol({ link: 'cs48', stype0: Stype0.packetAccepted, parameter0: 3, parameter1: 10, stype1: Stype1.nop, cmd: 0, stype2: seed(0, [1]) });
  assert.deepEqual(changes(r.handle({ kind: 'symbol', port: 0, symbol }, 0)), ['blocked q1']);
});

test('VoQ Backpressure §4.1 d: a Control Symbol 24 has no stype2 and carries no message', () => {
  const r = oneLink([0]);
  const symbol = buildSymbol({ link: 'cs24', stype0: Stype0.status, parameter0: 0, parameter1: 0, stype1: Stype1.nop, cmd: 0 });
  assert.deepEqual(events(r.handle({ kind: 'symbol', port: 0, symbol }, 0)), ['not-extended-symbol']);
  assert.equal(r.counters().notExtended, 1);
});

test('VoQ Backpressure §4.1 b, c: a port without reception support ignores backpressure; another port honours it', () => {
  const r = new VoqReceiver({ ports: [{ reception: false }, {}], routes: [] });
  assert.deepEqual(events(r.handle(bp(seed(0, [0]), 0), 0)), ['reception-unsupported']);
  assert.deepEqual(r.congestedPorts(0), []);
  assert.deepEqual(changes(r.handle(bp(seed(0, [0]), 1), 1)), ['blocked q0']);
  assert.equal(r.counters().receptionUnsupported, 1);
});

test('VoQ Backpressure §3.2: without VC linking a message flow-controls the port queues in all VCs, even with a VC_Status symbol', () => {
  const r = new VoqReceiver({ vcs: 2, ports: [{ queues: 1, perVcStaging: true }], routes: [{ destID: 1, localPort: 0, downstreamPort: 0 }] });
  const symbol = buildSymbol({ link: 'cs48', stype0: Stype0.vcStatus, parameter0: 0b100, parameter1: 5, stype1: Stype1.nop, cmd: 0, stype2: seed(0, [0]) });
  assert.deepEqual(changes(r.handle({ kind: 'symbol', port: 0, symbol }, 0)), ['blocked vc0 q0', 'blocked vc1 q0', 'blocked vc5 q0']);
  r.handle(pkt(1, 'vc5', 5), 1);
  assert.deepEqual(drain(r), []);
});

test('VoQ Backpressure §3.2: with VC linking the VC_Status VCID (or Status for VC0) names the one VC whose queue is flow-controlled', () => {
  const r = new VoqReceiver({ vcs: 4, ports: [{ queues: 1, perVcStaging: true, enableVcLinking: true }], routes: [{ destID: 1, localPort: 0, downstreamPort: 0 }] });
  // Part 6 Table 3-12, 4 optional VCs: VCID 0b01x is VC3.
  const vcStatus = buildSymbol({ link: 'cs48', stype0: Stype0.vcStatus, parameter0: 0b011, parameter1: 5, stype1: Stype1.nop, cmd: 0, stype2: seed(0, [0]) });
  assert.deepEqual(changes(r.handle({ kind: 'symbol', port: 0, symbol: vcStatus }, 0)), ['blocked vc3 q0']);
  const status = buildSymbol({ link: 'cs48', stype0: Stype0.status, parameter0: 0, parameter1: 5, stype1: Stype1.nop, cmd: 0, stype2: seed(0, [0]) });
  assert.deepEqual(changes(r.handle({ kind: 'symbol', port: 0, symbol: status }, 1)), ['blocked vc0 q0']);
  r.handle(pkt(1, 'on-vc3', 3), 2);
  r.handle(pkt(1, 'on-vc1', 1), 3);
  r.handle(pkt(1, 'on-vc0', 0), 4);
  assert.deepEqual(drain(r), ['on-vc1']);
  assert.deepEqual(changes(r.handle(bp(seed(0), 0, 3), 5)), ['unblocked vc3 q0']);
  assert.deepEqual(drain(r), ['on-vc3']);
});

test('VoQ Backpressure §4.2 c: with VC linking a message not combined with Status or VC_Status names no VC and is ignored (decision)', () => {
  const r = new VoqReceiver({ vcs: 1, ports: [{ perVcStaging: true, enableVcLinking: true }], routes: [] });
  const symbol = buildSymbol({ link: 'cs48', stype0: Stype0.packetAccepted, parameter0: 0, parameter1: 5, stype1: Stype1.nop, cmd: 0, stype2: seed(0, [0]) });
  assert.deepEqual(events(r.handle({ kind: 'symbol', port: 0, symbol }, 0)), ['unlinked-backpressure']);
  assert.deepEqual([r.congestedPorts(0, 0), r.congestedPorts(0, 1)], [[], []]);
  assert.deepEqual(events(r.handle(bp(seed(0, [0]), 0, 2), 1)), ['unknown-vc'], 'VC2 is not active with one optional VC');
  assert.equal(r.counters().unlinkedBackpressure, 1);
});

test('VoQ Backpressure §3.2: a VC_Status symbol on links without optional VCs names no VC (decision: unknown-vc when linked)', () => {
  const r = new VoqReceiver({ ports: [{ perVcStaging: true, enableVcLinking: true }], routes: [] });
  const symbol = buildSymbol({ link: 'cs48', stype0: Stype0.vcStatus, parameter0: 0, parameter1: 5, stype1: Stype1.nop, cmd: 0, stype2: seed(0, [0]) });
  assert.deepEqual(r.handle({ kind: 'symbol', port: 0, symbol }, 0), [{ kind: 'event', name: 'unknown-vc', port: 0, detail: 'VC none' }]);
});

test('VoQ Backpressure §3.2 "the linking capability shall be disabled": linking needs per-VC staging, in the config and in a control write', () => {
  assert.throws(() => new VoqReceiver({ ports: [{ enableVcLinking: true }], routes: [] }), { name: 'RangeError', message: 'ports[0].enableVcLinking must be false without perVcStaging' });
  const r = new VoqReceiver({ ports: [{}], routes: [] });
  assert.deepEqual(events(r.handle({ kind: 'control', port: 0, enableVcLinking: true }, 0)), ['control-rejected']);
  assert.equal(r.counters().controlRejected, 1);
});

test('VoQ Backpressure §3.2: switching VC linking keeps the recorded per-VC congestion (decision)', () => {
  const r = new VoqReceiver({ vcs: 1, ports: [{ queues: 1, perVcStaging: true }], routes: [] });
  r.handle(bp(seed(0, [0])), 0);
  r.handle({ kind: 'control', port: 0, enableVcLinking: true }, 1);
  assert.deepEqual(changes(r.handle(bp(seed(0), 0, 1), 2)), ['unblocked vc1 q0'], 'linked: only VC1 clears');
  assert.equal(r.isBlocked(0, 0, 0), true);
  r.handle({ kind: 'control', port: 0, enableVcLinking: false }, 3);
  assert.equal(r.isBlocked(0, 0, 0), true, 'unlinking changes nothing by itself');
  assert.deepEqual(changes(r.handle(bp(seed(0)), 4)), ['unblocked vc0 q0'], 'the next unlinked message writes every VC');
});

test('Part 6 Table 3-12: a packet on a VC the links do not run is not staged (event unknown-vc)', () => {
  const r = new VoqReceiver({ vcs: 2, ports: [{ perVcStaging: true }], routes: [{ destID: 1, localPort: 0, downstreamPort: 0 }] });
  assert.deepEqual(r.handle(pkt(1, 'p', 3), 0), [{ kind: 'event', name: 'unknown-vc', port: 0, packetId: 'p', detail: 'VC 3' }]);
  r.handle(pkt(1, 'q', 5), 1);
  assert.deepEqual(r.staged(0, 0, 5), ['q'], 'with 2 optional VCs they are VC1 and VC5');
});

test('VoQ Backpressure §2.4: staging before the VC sort serves every VC in one set of queues, in arrival order', () => {
  const r = new VoqReceiver({ vcs: 8, ports: [{ queues: 1 }], routes: [{ destID: 1, localPort: 0, downstreamPort: 0 }] });
  r.handle(pkt(1, 'a', 8), 0);
  r.handle(pkt(1, 'b', 0), 1);
  assert.deepEqual(r.staged(0, 0), ['a', 'b']);
  assert.deepEqual(drain(r), ['a', 'b']);
});

test('VoQ Backpressure §4.3 b: while a link is down nothing is committed to it and staged packets stay (decision)', () => {
  const r = oneLink([0]);
  r.handle(pkt(0, 'a'), 0);
  r.handle({ kind: 'link-down', port: 0 }, 1);
  assert.equal(r.isLinkUp(0), false);
  assert.deepEqual(events(r.handle(go(), 2)), ['link-down']);
  assert.deepEqual(r.staged(0, 0), ['a']);
  r.handle({ kind: 'link-up', port: 0 }, 3);
  assert.deepEqual(drain(r), ['a']);
  assert.equal(r.counters().linkDownOpportunity, 1);
});

test('VoQ Backpressure §4.2 g: a link-up clears the recorded congestion by default, or keeps it with clearOnLinkUp false (decision)', () => {
  const r = oneLink([0, 1]);
  r.handle(bp(seed(0, [0, 1])), 0);
  r.handle({ kind: 'link-down', port: 0 }, 1);
  const out = r.handle({ kind: 'link-up', port: 0 }, 2);
  assert.deepEqual(out, [
    { kind: 'unblocked', port: 0, vc: null, queue: 0, cause: 'link-up' },
    { kind: 'unblocked', port: 0, vc: null, queue: 1, cause: 'link-up' },
  ]);
  assert.deepEqual(r.handle({ kind: 'link-up', port: 0 }, 3), [], 'a link-up on a link already up clears nothing');
  const keep = oneLink([0], { clearOnLinkUp: false });
  keep.handle(bp(seed(0, [0])), 0);
  keep.handle({ kind: 'link-down', port: 0 }, 1);
  assert.deepEqual(keep.handle({ kind: 'link-up', port: 0 }, 2), []);
  assert.equal(keep.isBlocked(0, 0), true);
});

test('riodp engine contract: bad protocol input is counted, never thrown', () => {
  const r = oneLink([0]);
  assert.deepEqual(r.handle(bp(seed(0, [0]), 7), 0), [{ kind: 'event', name: 'unknown-port', detail: 'port 7' }]);
  assert.deepEqual(r.handle(go(-1), 0), [{ kind: 'event', name: 'unknown-port', detail: 'port -1' }]);
  assert.deepEqual(r.handle(bp(1 << 14), 0), [{ kind: 'event', name: 'invalid-stype2', port: 0, detail: '16384' }]);
  assert.deepEqual(events(r.handle(bp(0.5), 0)), ['invalid-stype2']);
  assert.deepEqual(events(r.handle({ kind: 'control', port: 0, rxPortGroupSize: 2 }, 0)), ['control-rejected'], 'the seed format has no group size');
  const p = new VoqReceiver({ format: 'part12-rev4.1', ports: [{}], routes: [] });
  assert.deepEqual(events(p.handle({ kind: 'control', port: 0, rxPortGroupSize: 7 }, 0)), ['control-rejected'], '0x7 = Reserved');
  assert.deepEqual(r.counters().unknownPort, 2);
});

test('riodp engine contract: config errors are RangeErrors naming the field', () => {
  const bad: [VoqReceiverConfig, string][] = [
    [{ ports: [], routes: [] }, 'ports must be a non-empty array'],
    [{ ports: [{ queues: 0 }], routes: [] }, 'ports[0].queues must be an integer from 1 to 256'],
    [{ ports: [{}], routes: [], vcs: 3 as 2 }, 'vcs must be 0, 1, 2, 4 or 8'],
    [{ ports: [{ rxPortGroupSize: 1 }], routes: [] }, 'ports[0].rxPortGroupSize must be absent in the seed format'],
    [{ format: 'part12-rev4.1', ports: [{ rxPortGroupSize: 7 }], routes: [] }, 'ports[0].rxPortGroupSize must be an integer from 0 to 6'],
    [{ ports: [{}], routes: [{ destID: 1, localPort: 1, downstreamPort: 0 }] }, 'routes[0].localPort must be an integer from 0 to 0'],
    [{ ports: [{}], routes: [{ destID: 1, localPort: 0, downstreamPort: 0 }, { destID: 1, localPort: 0, downstreamPort: 1 }] }, 'routes[1].destID must be unique'],
    [{ ports: [{ queues: 2, reverseMap: { mode: 'table', table: [2] } }], routes: [] }, 'ports[0].reverseMap.table[0] must be an integer from 0 to 1'],
    [{ format: 'v3' as 'seed', ports: [{}], routes: [] }, "format must be 'seed' or 'part12-rev4.1'"],
  ];
  for (const [config, message] of bad) assert.throws(() => new VoqReceiver(config), { name: 'RangeError', message });
});

test('riodp engine contract: snapshot is plain JSON of the state, counters a copy', () => {
  const r = new VoqReceiver({ vcs: 1, ports: [{ queues: 2, perVcStaging: true }], routes: [{ destID: 3, localPort: 0, downstreamPort: 1 }] });
  r.handle(bp(seed(0, [1])), 0);
  r.handle(pkt(3, 'p', 1), 42);
  const snap = r.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  const port = snap.ports[0]!;
  assert.deepEqual(port.lanes.map((l) => [l.vc, l.congested, l.queues.map((q) => q.blocked)]), [[0, [1], [false, true]], [1, [1], [false, true]]]);
  assert.equal(port.lanes[1]!.queues[1]!.packets[0]!.stagedAt, 42);
  const c = r.counters();
  c.staged = 99;
  assert.equal(r.counters().staged, 1);
});

test('VoQ Backpressure §2.3 Figure 2-3, Table 5-3 reset values: defaults are 4 staging queues, a decoder reverse map, reception on, linking off, RX group size 0 (decision)', () => {
  const r = new VoqReceiver({ ports: [{}], routes: [] });
  const port = r.snapshot().ports[0]!;
  assert.deepEqual(
    [port.queues, port.reverseMap, port.reception, port.perVcStaging, port.enableVcLinking, port.rxPortGroupSize, r.snapshot().format, r.snapshot().clearOnLinkUp],
    [4, { mode: 'decoder' }, true, false, false, 0, 'seed', true],
  );
});
