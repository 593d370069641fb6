import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attrConveyance, attrConveyanceMailbox, attrDataOffset, attrDataOffsetVendor, attrMacAddress, attrMtu, attrPeriod, attrProtocolName, attrVendor,
  smpAttribute,
} from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { checkAttributeOrder } from '../wire/smp/attribute-order.ts';
import { decodeSmp, smpBytes } from '../wire/smp/index.ts';
import { smpRequest } from '../wire/smp/request-advertise.ts';
import type { SmpAdvertise } from '../wire/smp/request-advertise.ts';
import { advertiseFor, limitTo } from './advertise-for.ts';
import type { ProtocolSupport } from './types.ts';

const SELF = 0x0010;
const PEER = 0x0020;
const ETH = 0x0102;
const VDP = 0x0101;
const OTHER = 0x0200;
const MAC = Uint8Array.of(0x00, 0xa0, 0x1e, 1, 2, 3);
const ACME = attrVendor({ oui: 0x00a01e });
const V78 = smpAttribute(0x78, new Uint8Array(7));

const eth: ProtocolSupport = {
  protoID: ETH,
  attributes: [attrMtu(1500), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC), attrPeriod('REQUEST_RETRY_PERIOD', 500), ACME, V78],
};
const alpha: ProtocolSupport = { protoID: VDP, attributes: [ACME, attrProtocolName('ALPHA'), attrPeriod('REQUEST_TIMEOUT_PERIOD', 9)] };
const bravo: ProtocolSupport = { protoID: VDP, attributes: [ACME, attrProtocolName('BRAVO')] };
const all = [eth, alpha, bravo, { protoID: OTHER, attributes: [] }];

const request = (protoID: number, attributes: readonly AttributeLike[] = []) => smpRequest({ sourceID: PEER, destID: SELF, protoID, attributes });
const ids = (m: SmpAdvertise, block = 0): number[] => (m.a === 1 ? (m.protocols[block]?.attributes.map((a) => a.id) ?? []) : []);

/** The message survives its own encoder and a strict decode (every field and ordering rule). */
function wireClean(m: SmpAdvertise): void {
  const b = smpBytes(m);
  assert.deepEqual(smpBytes(decodeSmp(b, 0, b.length, { strict: true })), b);
}

test('Annex 2 §4.2.1, §4.2.2 Table 4-3: a REQUEST for ProtoID 0xFFFF gets S=1, A=0 and the list of protocols, from this node to the requester', () => {
  const m = advertiseFor(request(0xffff), all, SELF);
  assert.equal(m.s, 1);
  assert.equal(m.a, 0);
  assert.equal(m.sourceID, SELF);
  assert.equal(m.destID, PEER);
  assert.deepEqual(m.protocols.map((p) => p.protoID), [ETH, VDP, OTHER], 'each ProtoID once');
  wireClean(m);
  const refusing = advertiseFor(request(0xffff), [{ protoID: 0x0300, attributes: [], acceptOpen: false }], SELF);
  assert.deepEqual(refusing.protocols.map((p) => p.protoID), [0x0300], 'a protocol refusing OPENs is still listed (decision)');
  const none = advertiseFor(request(0xffff), [{ protoID: 0xffff, attributes: [] }], SELF);
  assert.deepEqual([none.s, none.a, none.protocols.length], [1, 0, 0], '0xFFFF "is reserved for special usage" and is never listed');
});

test('Annex 2 §3.5.1.2, §4.2.2 Table 4-2: a REQUEST for a supported protocol gets S=1, A=1 and "all required and optional attributes" (both copies of a range)', () => {
  const m = advertiseFor(request(ETH), all, SELF);
  assert.deepEqual([m.s, m.a, m.protocols.length], [1, 1, 1]);
  assert.deepEqual(ids(m), eth.attributes.map((a) => a.id));
  wireClean(m);
});

test('Annex 2 §4.2.2, DECISIONS §7: a REQUEST for an unsupported protocol gets S=0, A=0 and Count 0', () => {
  const m = advertiseFor(request(0x0300), all, SELF);
  assert.deepEqual([m.s, m.a, m.protocols.length, m.variant], [0, 0, 0, 'NOT_SUPPORTED']);
  wireClean(m);
});

test('Annex 2 §4.2.1: "the receiver should respond only with attributes that match the attributes included in the REQUEST message" (matched by ID)', () => {
  const m = advertiseFor(request(ETH, [attrMtu(0), attrMacAddress(new Uint8Array(6))]), all, SELF);
  assert.deepEqual(ids(m), [0x8002, 0x8002, 0x8003]);
  wireClean(m);
});

test('Annex 2 §3.5.3, §3.5.3.10 (decision): a vendor-specific attribute or channel kept keeps VENDOR (0x00) ahead of it', () => {
  assert.deepEqual(ids(advertiseFor(request(ETH, [V78]), all, SELF)), [0x00, 0x78]);
  const channel = attrConveyance(0xff00, 1);
  assert.deepEqual(limitTo([attrMtu(1500), channel, ACME], [channel], ETH).map((a) => a.id), [0x8001, 0x00]);
  assert.deepEqual(limitTo([attrMtu(1500), attrConveyanceMailbox(1), ACME], [attrConveyanceMailbox(1)], ETH).map((a) => a.id), [0x8001]);
});

test('Annex 2 §3.5.3.2 (decision): DATA_OFFSET_VENDOR kept keeps the DATA_OFFSET that "must follow it"', () => {
  const list = [attrPeriod('REQUEST_RETRY_PERIOD', 5), attrDataOffsetVendor({ oui: 1 }), attrDataOffset(4)];
  assert.deepEqual(limitTo(list, [attrDataOffsetVendor({ oui: 1 })], OTHER).map((a) => a.id), [0x02, 0x8003]);
  // Under Ethernet 0x8003 is MAC_ADDRESS (DECISIONS §7), which DATA_OFFSET_VENDOR does not pull in.
  assert.deepEqual(limitTo([attrDataOffsetVendor({ oui: 1 }), attrMacAddress(MAC)], [attrDataOffsetVendor({ oui: 1 })], ETH).map((a) => a.id), [0x02]);
});

test('Annex 2 §6.2 (decision): vendor-defined protocols get a block each, always with VENDOR and PROTOCOL_NAME; naming them selects the block', () => {
  const both = advertiseFor(request(VDP), all, SELF);
  assert.equal(both.protocols.length, 2);
  wireClean(both);
  const limited = advertiseFor(request(VDP, [attrPeriod('REQUEST_TIMEOUT_PERIOD', 0)]), all, SELF);
  assert.deepEqual([ids(limited, 0), ids(limited, 1)], [[0x00, 0x01, 0xf0000001], [0x00, 0x01]]);
  const one = advertiseFor(request(VDP, [ACME, attrProtocolName('BRAVO')]), all, SELF);
  assert.equal(one.protocols.length, 1);
  assert.deepEqual(one.a === 1 && one.protocols[0]?.attributes.map((a) => Buffer.from(a.value).toString('latin1')), [Buffer.from(ACME.value).toString('latin1'), 'BRAVO\0\0']);
  const none = advertiseFor(request(VDP, [attrProtocolName('ZULU')]), all, SELF);
  assert.deepEqual([none.s, none.a], [0, 0], 'the named vendor protocol is not supported');
});

test('Annex 2 §3.5.3: every ADVERTISE block built from an ordered list stays ordered after limiting', () => {
  for (const wanted of [[V78], [attrMtu(0)], [attrPeriod('REQUEST_RETRY_PERIOD', 0), ACME]]) {
    const m = advertiseFor(request(ETH, wanted), all, SELF);
    assert.ok(m.a === 1);
    assert.deepEqual(checkAttributeOrder(m.protocols[0]?.attributes ?? [], ETH, 'ADVERTISE'), []);
  }
});
