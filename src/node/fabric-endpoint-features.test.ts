import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverAndOpenAll, FabricNet } from '../../test/support/fabric-endpoint.ts';
import { octets, type9Node } from '../../test/support/endpoint-net.ts';
import type { ProtocolSupport } from '../session/types.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import type { FabricArbitrationConfig } from './endpoint/session-features.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointConfig } from './fabric-endpoint.ts';
import type { FabricWire } from '../../test/support/fabric-endpoint.ts';

const PROTO = 0x1234;
const DATA3: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

/** Senders 1 and 2 stream PDUs of 4 segments or more to 3; every node arbitrates its 0A flow. */
function incast(arbitration: FabricArbitrationConfig, pdus = 4): { net: FabricNet; sent: Uint8Array[][] } {
  const net = new FabricNet();
  net.add({ ...type9Node(1, 0xfff1, { protocols: [DATA3], discover: [3] }), arbitration });
  net.add({ ...type9Node(2, 0xfff2, { protocols: [DATA3], discover: [3] }), arbitration });
  net.add({ ...type9Node(3, 0xfff3, { protocols: [DATA3], discover: [1, 2] }), arbitration });
  const [from1, from2] = discoverAndOpenAll(net, [[1, 3], [2, 3]], PROTO);
  const sent = [1, 2].map((n) => Array.from({ length: pdus }, (_, k) => octets(1000 + 37 * k, n * 16 + k)));
  for (let k = 0; k < pdus; k++) {
    net.input(1, { kind: 'send', stream: from1!, pdu: sent[0]![k]! });
    net.input(2, { kind: 'send', stream: from2!, pdu: sent[1]![k]! });
  }
  net.settle();
  return { net, sent };
}

function command(w: FabricWire): string | undefined {
  return w.packet.ftype === 7 ? w.packet.command : undefined;
}

function segment(w: FabricWire): string | undefined {
  const p = w.packet as Type9Packet;
  return w.packet.ftype === 9 && p.segment !== 'tm' && p.segment !== 'extended' ? p.segment : undefined;
}

/** Wire order at the destination's end: data segments sent by `from` that start a PDU, before any grant came to it. */
function startsWithoutGrant(net: FabricNet, from: number): number {
  let grants = 0;
  let starts = 0;
  let violations = 0;
  for (const w of net.trace) {
    if (w.from === 3 && w.to === from && command(w) === 'XON_ARB') grants++;
    if (w.from === from && w.to === 3) {
      const s = segment(w);
      if (s === 'start' || s === 'single') {
        starts++;
        if (starts > grants) violations++;
      }
    }
  }
  return violations;
}

test('Part 9 §2.4.7 rules 1, 5, 10, issue 15: the software fabric end point arbitrates its DATA3 PDUs: each starts after an XON(ARB) of its destination, one PDU at a time into a destination with one resource, and every PDU arrives whole', () => {
  const { net, sent } = incast({ mode: 'single', resources: 1 });
  assert.deepEqual(net.deliveriesTo(3).filter((d) => d.stream.remote === 1).map((d) => d.pdu), sent[0]);
  assert.deepEqual(net.deliveriesTo(3).filter((d) => d.stream.remote === 2).map((d) => d.pdu), sent[1]);
  for (const from of [1, 2]) {
    assert.equal(startsWithoutGrant(net, from), 0, `node ${from} started a PDU without a grant`);
    const c = net.node(from).counters().arbitration ?? {};
    // One REQUEST per PDU (single-PDU mode), each granted; the OPEN went over 0A before the data, so it asked too.
    assert.ok((c['requests'] ?? 0) >= 4 && c['granted'] === c['requests'], `node ${from}: ${JSON.stringify(c)}`);
    assert.equal(c['refused'], 0);
  }
  // The destination's resource: never two PDUs in reception at once (rule 10), given back at each PDU's end (rule 5).
  const rx = net.node(3).counters().arbitration ?? {};
  assert.equal(rx['maxAllocated'], 1);
  assert.equal(rx['allocated'], rx['freed']);
  let open = 0;
  for (const w of net.trace.filter((x) => x.to === 3 && x.from !== 3)) {
    const s = segment(w);
    if (s === 'start') open++;
    if (s === 'end') open--;
    assert.ok(open <= 1, 'two PDUs interleaved at the destination');
  }
});

test('Part 9 §2.4.7 rules 6, 7, issue 15: in multi-PDU mode a grant covers a backlog and goes back with RELEASE after its last PDU', () => {
  const { net, sent } = incast({ mode: 'multi', resources: 1 }, 3);
  assert.deepEqual(net.deliveriesTo(3).filter((d) => d.stream.remote === 1).map((d) => d.pdu), sent[0]);
  assert.deepEqual(net.deliveriesTo(3).filter((d) => d.stream.remote === 2).map((d) => d.pdu), sent[1]);
  for (const from of [1, 2]) {
    const c = net.node(from).counters().arbitration ?? {};
    assert.ok((c['requests'] ?? 0) < 3, `node ${from} asked once per backlog: ${JSON.stringify(c)}`);
    assert.equal(c['released'], c['granted']);
    assert.ok(net.trace.some((w) => w.from === from && command(w) === 'RELEASE'));
  }
  assert.equal(net.node(3).counters().arbitration?.['freed'], net.node(3).counters().arbitration?.['allocated']);
});

test('Part 9 §3.3, issue 15: without arbitration configured an end point has no arbitration counters and sends no Type 7 of its own', () => {
  const net = new FabricNet();
  net.add(type9Node(1, 0xfff1, { protocols: [DATA3], discover: [3] }));
  net.add(type9Node(3, 0xfff3, { protocols: [DATA3], discover: [1] }));
  const [to3] = discoverAndOpenAll(net, [[1, 3]], PROTO);
  net.input(1, { kind: 'send', stream: to3!, pdu: octets(3000, 1) });
  net.settle();
  assert.deepEqual(net.deliveriesTo(3).map((d) => d.pdu), [octets(3000, 1)]);
  assert.equal(net.node(1).counters().arbitration, undefined);
  assert.equal(net.packets(1, 3, 7).length, 0);
});

test('issue 8 §1 configuration, issue 15: a bad arbitration field is one RangeError naming it once (arbitration.<field>), flows included', () => {
  const node = type9Node(1, 0xfff1, { protocols: [DATA3] });
  const refused = (arbitration: unknown): string => {
    try {
      new FabricEndpoint({ ...node, arbitration } as FabricEndpointConfig);
    } catch (e) {
      return e instanceof RangeError ? e.message : `not a RangeError: ${String(e)}`;
    }
    return 'accepted';
  };
  assert.match(refused({ mode: 'both' }), /^arbitration\.mode must be/);
  assert.match(refused({ flows: ['0A', 'ZZ'] }), /^arbitration\.flows must list flowIDs of Part 9 Table 3-1/);
  assert.match(refused({ flows: [] }), /^arbitration\.flows must list/);
  assert.equal(refused({ flows: ['0A', '1A'] }), 'accepted');
});

test('Part 9 §4.2 Table 4-1, issue 15: the fabric end point advertises flow control (PE Features bit 24) always, and flow arbitration (bit 20, the port\'s Flow Arbitration Participant bit) when it arbitrates; its own register settings win', () => {
  const node = type9Node(1, 0xfff1, { protocols: [DATA3] });
  const pe = (c: FabricEndpointConfig): number => new FabricEndpoint(c).registers.readWord(0x10) & 0x00000880;
  assert.equal(pe(node), 0x00000080);
  assert.equal(pe({ ...node, arbitration: {} }), 0x00000880);
  assert.equal(new FabricEndpoint({ ...node, arbitration: {} }).registers.readWord(0x15c) & 0x00010000, 0x00010000);
  assert.equal(pe({ ...node, registers: { flowControl: false } }), 0);
});
