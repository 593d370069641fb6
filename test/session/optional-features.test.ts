import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrConveyanceMailbox, attrPeriod, attrVendor, smpAttribute } from '../../src/wire/smp/index.ts';
import { as, openStream, sessionPair } from '../support/session-pair.ts';
import type { ProtocolSupport } from '../../src/session/types.ts';

/** Annex 2 §3.8.1, §3.9 and §4.2.2: optional features and what inter-operation needs of them. */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 100_000)] };

test('Annex 2 §3.8.1: "No system may refuse to establish a connection based solely on the fact that no REQUEST command had been previously received": an OPEN out of the blue is accepted, with or without REQUEST support', () => {
  for (const requestAdvertise of [true, false]) {
    const net = sessionPair({ protocols: [P] }, { protocols: [P], requestAdvertise });
    const tx = openStream(net, 1, 2, PROTO, 'first');
    assert.ok(tx, `accepted (requestAdvertise ${String(requestAdvertise)})`);
    assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 ACCEPT']);
  }
});

test('Annex 2 §3.8.1 (decision): "trying OPEN first with the preferred protocol and attributes, and only fall back on the REQUEST / ADVERTISE mechanism in case of failure" is the application\'s: the engine reports refused, and an OPEN after the ADVERTISE uses the advertised attributes', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  // A CONVEYANCE the receiver did not advertise commits it to a channel it did not offer.
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'preferred', attributes: [attrConveyanceMailbox(9)] });
  net.settle();
  assert.deepEqual(net.eventsOf('refused', 1).map((e) => e.ref), ['preferred']);
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'fallback');
  assert.ok(tx, 'the OPEN after REQUEST/ADVERTISE is accepted');
  assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 REFUSE', '1>2 REQUEST', '2>1 ADVERTISE', '1>2 OPEN', '2>1 ACCEPT']);
  const open = as(net.trace[4]?.message, 'OPEN');
  assert.deepEqual(open.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'REQUEST_RETRY_PERIOD']);
});

test('Annex 2 §3.9.1: "If any vendor specific attribute is used, it should be optional": an OPEN that leaves out the vendor-specific attributes the receiver advertised is accepted', () => {
  const vendor: ProtocolSupport = { protoID: PROTO, attributes: [attrVendor({ oui: 0x00a01e }), smpAttribute(0x78, Uint8Array.of(0, 0, 0, 0, 0, 0, 1))] };
  const net = sessionPair({ protocols: [vendor] }, { protocols: [vendor] });
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'plain', attributes: [] });
  net.settle();
  assert.equal(net.eventsOf('opened', 1).filter((e) => e.ref === 'plain').length, 1);
  const open = as(net.trace[0]?.message, 'OPEN');
  assert.deepEqual(open.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER']);
});

test('Annex 2 §4.2.2: "a value of 0, meaning that no Attributes are supported for this <ProtoID>, is valid": a protocol with no attributes is advertised with S=1, A=1 and numAttributes 0', () => {
  const bare: ProtocolSupport = { protoID: PROTO, attributes: [] };
  const net = sessionPair({ protocols: [bare] }, { protocols: [bare] });
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const adv = as(net.trace[1]?.message, 'ADVERTISE');
  assert.equal(adv.s, 1);
  assert.equal(adv.a, 1);
  assert.deepEqual(adv.protocols.map((p) => [p.protoID, 'attributes' in p ? p.attributes.length : -1]), [[PROTO, 0]]);
  assert.equal(net.eventsOf('advertised', 1).length, 1);
});
