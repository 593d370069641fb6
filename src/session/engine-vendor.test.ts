import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrProtocolName, attrVendor } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { sessionPair } from '../../test/support/session-pair.ts';
import type { SessionNet } from '../../test/support/session-pair.ts';
import { SessionEngine } from './engine.ts';
import type { ProtocolSupport, SessionConfig, StreamInfo } from './types.ts';

/**
 * Vendor-defined protocols side by side (Annex 2 Chapter 6): they share ProtoID 0x0101 and "These
 * two attributes distinguish a vendor-defined protocol from all other vendor-defined protocols"
 * (§6.2): VENDOR, then PROTOCOL_NAME.
 */

const VDP = 0x0101;
const ACME = attrVendor({ oui: 0x00a01e });
const OTHER = attrVendor({ oui: 0x00c0ff });
const ALPHA = attrProtocolName('ALPHA');
const BRAVO = attrProtocolName('BRAVO');
const alpha: ProtocolSupport = { protoID: VDP, attributes: [ACME, ALPHA], cos: 1 };
const bravo: ProtocolSupport = { protoID: VDP, attributes: [ACME, BRAVO], cos: 2 };
const BASE: SessionConfig = { nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [] };
const named = (s: StreamInfo): string => Buffer.from(s.attributes.find((a) => a.id === 0x01)?.value ?? []).toString('latin1').replace(/\0+$/, '');

function openFor(net: SessionNet, ref: string, attributes: readonly AttributeLike[], conduit = false): StreamInfo | undefined {
  net.input(1, { kind: 'open', to: 2, protoID: VDP, ref, attributes, conduit });
  net.settle();
  return net.eventsOf('opened', 1).find((e) => e.ref === ref)?.stream;
}

test('Annex 2 §6.2: the configuration takes several vendor-defined protocols told apart by VENDOR and PROTOCOL_NAME; a true duplicate, or one without the two, is a RangeError', () => {
  assert.doesNotThrow(() => new SessionEngine({ ...BASE, protocols: [alpha, bravo, { protoID: VDP, attributes: [OTHER, ALPHA] }] }));
  const bad: [readonly ProtocolSupport[], RegExp][] = [
    [[alpha, { ...alpha, cos: 7 }], /^RangeError: protocols\[1\] must not repeat the VENDOR and PROTOCOL_NAME of protocols\[0\] \(Annex 2 §6\.2\)$/],
    // Two advertised names are alternatives (decision N9): sharing one of them is a duplicate.
    [[alpha, { protoID: VDP, attributes: [ACME, BRAVO, ALPHA] }], /protocols\[1\] must not repeat the VENDOR and PROTOCOL_NAME of protocols\[0\]/],
    [[{ protoID: VDP, attributes: [ACME] }, bravo], /^RangeError: protocols\[0\]\.attributes must carry VENDOR and PROTOCOL_NAME to stand beside another vendor-defined protocol/],
    [[{ protoID: 0x1234, attributes: [] }, { protoID: 0x1234, attributes: [ACME] }], /^RangeError: protocols\[1\]\.protoID must not repeat an earlier protocol$/],
  ];
  for (const [protocols, re] of bad) assert.throws(() => new SessionEngine({ ...BASE, protocols }), re);
  assert.doesNotThrow(() => new SessionEngine({ ...BASE, protocols: [{ protoID: VDP, attributes: [] }] }), 'one vendor-defined protocol needs nothing to tell it apart');
});

test('Annex 2 §6.2: OPENs for two vendor-defined protocols side by side are each accepted as their own protocol; an unknown PROTOCOL_NAME is refused', () => {
  const net = sessionPair({ protocols: [alpha, bravo] }, { protocols: [alpha, bravo] });
  const b = openFor(net, 'b', [ACME, BRAVO]);
  const a = openFor(net, 'a', [ACME, ALPHA]);
  assert.ok(a && b);
  assert.deepEqual([named(a), a.cos, named(b), b.cos], ['ALPHA', 1, 'BRAVO', 2], 'each ACCEPT carries its own protocol\'s COS');
  assert.notEqual(a.streamID, b.streamID);
  assert.equal(openFor(net, 'z', [ACME, attrProtocolName('ZULU')]), undefined);
  assert.equal(openFor(net, 'o', [OTHER, ALPHA]), undefined, 'another vendor\'s ALPHA is another protocol');
  assert.deepEqual(net.eventsOf('refused', 1).map((e) => e.ref), ['z', 'o']);
  const refusals = net.trace.filter((m) => m.command === 'REFUSE').length;
  assert.equal(refusals, 2);
});

test('Annex 2 §3.5.1.4, §6.2: a single session is one per vendor-defined protocol, not one per ProtoID 0x0101', () => {
  const one = (p: ProtocolSupport): ProtocolSupport => ({ ...p, singleSession: true });
  const net = sessionPair({ protocols: [alpha, bravo] }, { protocols: [one(alpha), one(bravo)] });
  const a1 = openFor(net, 'a1', [ACME, ALPHA]);
  const b1 = openFor(net, 'b1', [ACME, BRAVO]);
  const a2 = openFor(net, 'a2', [ACME, ALPHA]);
  assert.ok(a1 && b1 && a2);
  assert.notEqual(a1.streamID, b1.streamID, 'BRAVO gets a stream of its own');
  assert.equal(a2.streamID, a1.streamID, 'a second ALPHA OPEN gets the ALPHA stream');
});

test('Annex 2 §3.4.3, §6.2: the conduit procedure\'s own OPEN carries the vendor-defined protocol of the conduit, not another one sharing ProtoID 0x0101', () => {
  const net = sessionPair({ protocols: [alpha, bravo], conduitRole: 'master' }, { protocols: [alpha, bravo], conduitRole: 'slave' });
  const tx = openFor(net, 'c', [ACME, BRAVO], true);
  assert.ok(tx);
  const slaveOpen = net.trace.find((m) => m.from === 2 && m.command === 'OPEN');
  assert.ok(slaveOpen?.message?.command === 'OPEN');
  assert.deepEqual(slaveOpen.message.attributes.filter((a) => a.id === 0x01).map((a) => Buffer.from(a.value).toString('latin1').replace(/\0+$/, '')), ['BRAVO']);
  const conduits = net.eventsOf('conduit', 1);
  assert.equal(conduits.length, 1);
  const rx = net.eventsOf('opened', 1).find((e) => e.stream.direction === 'rx')?.stream;
  assert.ok(rx);
  assert.deepEqual([named(rx), rx.cos], ['BRAVO', 2]);
});
