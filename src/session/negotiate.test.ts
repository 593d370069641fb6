import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attrConduitStream, attrConveyance, attrConveyanceMailbox, attrDataHeaderFormat, attrDataOffset, attrDataOffsetVendor, attrMacAddress,
  attrMtu, attrOpenMessageNumber, attrPeriod, attrProtocolName, attrVendor, smpAttribute,
} from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { smpOpen } from '../wire/smp/open-accept-refuse.ts';
import { judgeOpen, settingsFromAttributes } from './negotiate.ts';
import type { NegotiationDefaults, OpenVerdict, RefuseReason } from './negotiate.ts';
import type { ProtocolSupport } from './types.ts';

const ETH = 0x0102;
const VDP = 0x0101;
const OTHER = 0x0200;
const D: NegotiationDefaults = { retryPeriod: 250_000_000, timeoutPeriod: 1_000_000_000, xonTimeout: 1_000_000_000, unitsPerMicrosecond: 1000 };
const MAC = Uint8Array.of(0x00, 0xa0, 0x1e, 1, 2, 3);
const ACME = attrVendor({ oui: 0x00a01e });
const vendorSpecific = (id: number, n: number): AttributeLike => smpAttribute(id, Uint8Array.of(0, 0, 0, 0, 0, 0, n).subarray(0, id <= 0x7f ? 7 : id <= 0xefff ? 6 : 4));

/** Ethernet's required attributes (§7.2) as this end point advertises them. */
const ethRequired = (): AttributeLike[] => [attrMtu(1500), attrConveyanceMailbox(2), attrMacAddress(MAC)];
const ethSupport = (extra: Partial<ProtocolSupport> = {}): ProtocolSupport => ({ protoID: ETH, attributes: ethRequired(), ...extra });

/** An OPEN from node 3; `n` null leaves OPEN_MESSAGE_NUMBER out. */
function open(protoID: number, attributes: readonly AttributeLike[], n: number | null = 7) {
  return smpOpen({ sourceID: 3, protoID, attributes, ...(n !== null && { openMessageNumber: n }) });
}

function refused(v: OpenVerdict, reason: RefuseReason): void {
  if (v.ok) assert.fail(`accepted, expected ${reason}`);
  assert.equal(v.reason, reason, v.detail);
}

function accepted(v: OpenVerdict): Extract<OpenVerdict, { ok: true }> {
  if (!v.ok) assert.fail(`refused: ${v.reason}: ${v.detail}`);
  return v;
}

const idsOf = (v: Extract<OpenVerdict, { ok: true }>): number[] => v.attributes.map((a) => a.id);

test('Annex 2 §4.2.3: an OPEN without OPEN_MESSAGE_NUMBER is refused (missing-open-message-number)', () => {
  const v = judgeOpen(open(ETH, ethRequired(), null), ethSupport(), D);
  refused(v, 'missing-open-message-number');
  assert.ok(!v.ok && v.openMessageNumber === undefined);
});

test('Annex 2 §4.2.3: "The OPEN request must have the OPEN_MESSAGE_NUMBER attribute as the first attribute" — elsewhere it is an order violation', () => {
  const v = judgeOpen(open(ETH, [attrMtu(1500), attrOpenMessageNumber(9), attrConveyanceMailbox(2), attrMacAddress(MAC)], null), ethSupport(), D);
  refused(v, 'attribute-order');
  assert.ok(!v.ok && v.openMessageNumber === 9, 'the number is reported for the REFUSE');
});

test('Annex 2 §3.5.3.7, §3.8.2: a repeated identical OPEN_MESSAGE_NUMBER is removed; two different ones are refused', () => {
  const same = judgeOpen(open(ETH, [attrOpenMessageNumber(7), ...ethRequired()]), ethSupport(), D);
  assert.equal(accepted(same).openMessageNumber, 7);
  assert.ok(!idsOf(accepted(same)).includes(0xf0000003), 'OPEN_MESSAGE_NUMBER is not a stream attribute');
  refused(judgeOpen(open(ETH, [attrOpenMessageNumber(8), ...ethRequired()]), ethSupport(), D), 'attribute-order');
});

test('Annex 2 §3.5.2.3, §4.2.5: an OPEN for a protocol this end point does not support is refused (protocol-unsupported)', () => {
  refused(judgeOpen(open(ETH, ethRequired()), undefined, D), 'protocol-unsupported');
  refused(judgeOpen(open(VDP, []), ethSupport(), D), 'protocol-unsupported');
  refused(judgeOpen(open(0xffff, []), { protoID: 0xffff, attributes: [] }, D), 'protocol-unsupported');
});

test('Annex 2 §3.5.1.5: a protocol configured to refuse OPENs is refused with the OPEN\'s number (not-accepted)', () => {
  const v = judgeOpen(open(ETH, ethRequired(), 41), ethSupport({ acceptOpen: false }), D);
  refused(v, 'not-accepted');
  assert.ok(!v.ok && v.openMessageNumber === 41);
});

test('Annex 2 §3.5.3 Table 3-2: attribute IDs in unassigned ranges "are reserved and must not be used" (reserved-attribute)', () => {
  for (const id of [0x05, 0x8004, 0xf0000006]) {
    const a = smpAttribute(id, new Uint8Array(id <= 0x7f ? 7 : id <= 0xefff ? 6 : 4));
    refused(judgeOpen(open(ETH, [...ethRequired(), a]), ethSupport(), D), 'reserved-attribute');
  }
  // 0x01 is PROTOCOL_NAME only under 0x0101 (§6.2.2); under Ethernet it is reserved.
  refused(judgeOpen(open(ETH, [...ethRequired(), attrProtocolName('ABC')]), ethSupport(), D), 'reserved-attribute');
});

test('Annex 2 §3.5.3: "In the event that an optional or vendor specific attribute is not understood by an implementation, the session must not be opened"', () => {
  const list = [...ethRequired(), ACME, vendorSpecific(0x78, 1)];
  refused(judgeOpen(open(ETH, list), ethSupport(), D), 'unknown-attribute');
  accepted(judgeOpen(open(ETH, list), ethSupport({ understood: [0x78] }), D));
  // An attribute a protocol outside this annex defines is understood only when configured.
  refused(judgeOpen(open(OTHER, [smpAttribute(0x10, new Uint8Array(7))]), { protoID: OTHER, attributes: [] }, D), 'unknown-attribute');
  accepted(judgeOpen(open(OTHER, [smpAttribute(0x10, new Uint8Array(7))]), { protoID: OTHER, attributes: [], understood: [0x10] }, D));
});

test('Annex 2 §3.5.3 (decision): an attribute this end point advertises is understood without being listed in `understood`', () => {
  const support = ethSupport({ attributes: [...ethRequired(), ACME, vendorSpecific(0xef01, 3)] });
  accepted(judgeOpen(open(ETH, [...ethRequired(), ACME, vendorSpecific(0xef01, 3)]), support, D));
});

test('Annex 2 §3.5.3: required attributes ahead of optional ones, optional ahead of vendor-specific ones (attribute-order)', () => {
  const retry = attrPeriod('REQUEST_RETRY_PERIOD', 1000);
  refused(judgeOpen(open(ETH, [retry, ...ethRequired()]), ethSupport(), D), 'attribute-order');
  refused(judgeOpen(open(ETH, [...ethRequired(), ACME, vendorSpecific(0x78, 1), retry]), ethSupport({ understood: [0x78] }), D), 'attribute-order');
});

test('Annex 2 §3.5.3: "the first vendor specific attribute must begin with attribute 0x00" (attribute-order)', () => {
  refused(judgeOpen(open(ETH, [...ethRequired(), vendorSpecific(0x78, 1)]), ethSupport({ understood: [0x78] }), D), 'attribute-order');
});

test('Annex 2 §3.5.3.1: "Only one VENDOR attribute may be specified in any single command" (attribute-order)', () => {
  refused(judgeOpen(open(ETH, [...ethRequired(), ACME, ACME]), ethSupport({ attributes: [...ethRequired(), ACME] }), D), 'attribute-order');
});

test('Annex 2 §3.5.3.2: DATA_OFFSET_VENDOR without the DATA_OFFSET that "must follow it" is refused (missing-required)', () => {
  const support = ethSupport({ attributes: [...ethRequired(), attrDataOffsetVendor({ oui: 1 })] });
  refused(judgeOpen(open(OTHER, [attrDataOffsetVendor({ oui: 1 })]), { ...support, protoID: OTHER }, D), 'missing-required');
});

test('Annex 2 §3.5.3.10: "if a vendor-specific channel is used, the VENDOR attribute must be specified" (missing-required)', () => {
  const channel = attrConveyance(0xff01, 5);
  const support = ethSupport({ attributes: [attrMtu(1500), channel, attrMacAddress(MAC), ACME] });
  refused(judgeOpen(open(ETH, [attrMtu(1500), channel, attrMacAddress(MAC)]), support, D), 'missing-required');
  accepted(judgeOpen(open(ETH, [attrMtu(1500), channel, attrMacAddress(MAC), ACME]), support, D));
});

test('Annex 2 §7.2: an Ethernet OPEN without MTU, CONVEYANCE or MAC_ADDRESS is refused (missing-required)', () => {
  for (let drop = 0; drop < 3; drop++) {
    const list = ethRequired().filter((_, i) => i !== drop);
    refused(judgeOpen(open(ETH, list), ethSupport(), D), 'missing-required');
  }
});

test('Annex 2 §6.2: a vendor-defined protocol needs VENDOR first, PROTOCOL_NAME right after it, and the values this end point advertised', () => {
  const name = attrProtocolName('TURBO');
  const support: ProtocolSupport = { protoID: VDP, attributes: [ACME, name] };
  accepted(judgeOpen(open(VDP, [ACME, name]), support, D));
  refused(judgeOpen(open(VDP, [name, ACME]), support, D), 'attribute-order');
  refused(judgeOpen(open(VDP, [ACME]), support, D), 'missing-required');
  refused(judgeOpen(open(VDP, [ACME, attrProtocolName('OTHER')]), support, D), 'value-not-offered');
  refused(judgeOpen(open(VDP, [attrVendor({ oui: 0x123456 }), name]), support, D), 'value-not-offered');
});

test('Annex 2 §3.8.2: an OPEN value must be one the receiver advertised (value-not-offered)', () => {
  refused(judgeOpen(open(ETH, [attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), ethSupport(), D), 'value-not-offered');
  refused(judgeOpen(open(ETH, [attrMtu(1500), attrConveyanceMailbox(3), attrMacAddress(MAC)]), ethSupport(), D), 'value-not-offered');
  refused(judgeOpen(open(ETH, [attrMtu(1500), attrConveyanceMailbox(2), attrMacAddress(new Uint8Array(6))]), ethSupport(), D), 'value-not-offered');
});

test('Annex 2 §3.8.2: two advertised copies of a quantity are "the minimum and maximum values" — any value between is accepted', () => {
  const support = ethSupport({ attributes: [attrMtu(1500), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)] });
  for (const mtu of [1500, 4000, 9000]) {
    const v = accepted(judgeOpen(open(ETH, [attrMtu(mtu), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D));
    assert.equal(v.settings.mtu, mtu);
  }
  refused(judgeOpen(open(ETH, [attrMtu(1499), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D), 'value-not-offered');
  refused(judgeOpen(open(ETH, [attrMtu(9001), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D), 'value-not-offered');
});

test('Annex 2 §3.8.2 (decision): two copies of an identity or channel attribute are alternatives, not a range; three or more copies are alternatives', () => {
  const two = ethSupport({ attributes: [attrMtu(1500), attrConveyanceMailbox(2), attrConveyanceMailbox(6), attrMacAddress(MAC)] });
  accepted(judgeOpen(open(ETH, [attrMtu(1500), attrConveyanceMailbox(6), attrMacAddress(MAC)]), two, D));
  refused(judgeOpen(open(ETH, [attrMtu(1500), attrConveyanceMailbox(4), attrMacAddress(MAC)]), two, D), 'value-not-offered');
  const three = ethSupport({ attributes: [attrMtu(1500), attrMtu(4000), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)] });
  accepted(judgeOpen(open(ETH, [attrMtu(4000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), three, D));
  refused(judgeOpen(open(ETH, [attrMtu(2000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), three, D), 'value-not-offered');
});

test('Annex 2 §3.8.2: "the recipient must remove the duplicates and determine a specific value" — the first acceptable copy of the OPEN', () => {
  const support = ethSupport({ attributes: [attrMtu(1500), attrConveyanceMailbox(2), attrConveyanceMailbox(6), attrMacAddress(MAC)] });
  const v = accepted(judgeOpen(open(ETH, [attrMtu(1500), attrConveyanceMailbox(9), attrConveyanceMailbox(6), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D));
  assert.deepEqual(idsOf(v), [0x8002, 0x8001, 0x8003], 'one copy each, in the OPEN\'s order');
  assert.deepEqual(v.settings.conveyance, { conveyance: 'type11', mailbox: 6 });
  refused(judgeOpen(open(ETH, [attrMtu(1500), attrConveyanceMailbox(9), attrConveyanceMailbox(8), attrMacAddress(MAC)]), support, D), 'value-not-offered');
});

test('Annex 2 §3.8.2 (decision): an OPEN\'s two copies of a quantity are its range — with no copy acceptable, the lowest value both ranges share', () => {
  const support = ethSupport({ attributes: [attrMtu(1500), attrMtu(4000), attrConveyanceMailbox(2), attrMacAddress(MAC)] });
  const v = accepted(judgeOpen(open(ETH, [attrMtu(1000), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D));
  assert.equal(v.settings.mtu, 1500);
  const values = ethSupport({ attributes: [attrMtu(1500), attrMtu(2000), attrMtu(3000), attrConveyanceMailbox(2), attrMacAddress(MAC)] });
  assert.equal(accepted(judgeOpen(open(ETH, [attrMtu(1800), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), values, D)).settings.mtu, 2000);
  refused(judgeOpen(open(ETH, [attrMtu(5000), attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D), 'value-not-offered');
});

test('Annex 2 §3.5.3.4–§3.5.3.6 (decision): periods the receiver did not advertise are accepted and applied, microseconds to time units', () => {
  const list = [
    ...ethRequired(),
    attrPeriod('REQUEST_RETRY_PERIOD', 100_000),
    attrPeriod('REQUEST_TIMEOUT_PERIOD', 400_000),
    attrPeriod('FLOW_CONTROL_XON_TIMEOUT_PERIOD', 2_000_000),
  ];
  const v = accepted(judgeOpen(open(ETH, list), ethSupport(), D));
  assert.equal(v.settings.retryPeriod, 100_000_000);
  assert.equal(v.settings.timeoutPeriod, 400_000_000);
  assert.equal(v.settings.xonTimeout, 2_000_000_000);
  refused(judgeOpen(open(ETH, [...ethRequired(), attrPeriod('REQUEST_RETRY_PERIOD', 0)]), ethSupport(), D), 'value-not-offered');
});

test('Annex 2 §3.5.3.4–§3.5.3.6: without the attributes, REQUEST_RETRY_PERIOD is 250 ms and the two timeouts 1 s (the configured defaults)', () => {
  const v = accepted(judgeOpen(open(ETH, ethRequired()), ethSupport(), D));
  assert.deepEqual(v.settings, { retryPeriod: D.retryPeriod, timeoutPeriod: D.timeoutPeriod, xonTimeout: D.xonTimeout, dataHeaderFormat: 'DATA', data2Octet: 0, dataOffset: 0, conveyance: { conveyance: 'type11', mailbox: 2 }, mtu: 1500 });
});

test('Annex 2 §3.5.3.9 (decision): an OPEN\'s DATA_HEADER_FORMAT not advertised must be the receiver\'s own (DATA by default; DATA2 with its octet)', () => {
  accepted(judgeOpen(open(ETH, [...ethRequired(), attrDataHeaderFormat('DATA')]), ethSupport(), D));
  refused(judgeOpen(open(ETH, [...ethRequired(), attrDataHeaderFormat('DATA1')]), ethSupport(), D), 'value-not-offered');
  const d2 = ethSupport({ dataHeaderFormat: 'DATA2', data2Octet: 0x5a });
  const v = accepted(judgeOpen(open(ETH, [...ethRequired(), attrDataHeaderFormat('DATA2', 0x5a)]), d2, D));
  assert.equal(v.settings.dataHeaderFormat, 'DATA2');
  assert.equal(v.settings.data2Octet, 0x5a);
  refused(judgeOpen(open(ETH, [...ethRequired(), attrDataHeaderFormat('DATA2', 0x5b)]), d2, D), 'value-not-offered');
  refused(judgeOpen(open(ETH, [...ethRequired(), attrDataHeaderFormat(0x07)]), ethSupport(), D), 'value-not-offered');
});

test('Annex 2 §3.5.3.9 (decision): the receiver\'s configured DATA_HEADER_FORMAT joins the agreed attributes, ahead of vendor-specific ones', () => {
  const support = ethSupport({ attributes: [...ethRequired(), ACME, vendorSpecific(0x78, 1)], dataHeaderFormat: 'DATA1' });
  const v = accepted(judgeOpen(open(ETH, [...ethRequired(), ACME, vendorSpecific(0x78, 1)]), support, D));
  assert.deepEqual(idsOf(v), [0x8002, 0x8001, 0x8003, 0xf0000005, 0x00, 0x78]);
  assert.equal(v.settings.dataHeaderFormat, 'DATA1');
  assert.deepEqual(v.settings, settingsFromAttributes(v.attributes, ETH, D));
});

test('Annex 2 §3.5.3.2, §3.5.3.3, §3.5.3.10 (decision): CONVEYANCE and DATA_OFFSET(_VENDOR) the receiver did not advertise are refused', () => {
  refused(judgeOpen(open(OTHER, [attrConveyanceMailbox(4)]), { protoID: OTHER, attributes: [] }, D), 'value-not-offered');
  const offset = [attrDataOffsetVendor({ oui: 1 }), attrDataOffset(8)];
  refused(judgeOpen(open(OTHER, offset), { protoID: OTHER, attributes: [] }, D), 'value-not-offered');
  const v = accepted(judgeOpen(open(OTHER, offset), { protoID: OTHER, attributes: offset }, D));
  assert.equal(v.settings.dataOffset, 8);
});

test('Annex 2 §7.2.1, §7.2.3 (decision): MTU and MAC_ADDRESS not advertised are accepted (MTU non-zero)', () => {
  const support: ProtocolSupport = { protoID: ETH, attributes: [attrConveyanceMailbox(2)] };
  const v = accepted(judgeOpen(open(ETH, [attrMtu(9000), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D));
  assert.equal(v.settings.mtu, 9000);
  refused(judgeOpen(open(ETH, [attrMtu(0), attrConveyanceMailbox(2), attrMacAddress(MAC)]), support, D), 'value-not-offered');
});

test('Annex 2 §3.5.3.8: CONDUIT_STREAM of the OPEN is reported as the sender\'s transmit and receive streamIDs and kept out of the stream attributes', () => {
  const v = accepted(judgeOpen(open(ETH, [...ethRequired(), attrConduitStream(0xffff, 0x0012)]), ethSupport(), D));
  assert.deepEqual(v.conduit, { transmit: 0xffff, receive: 0x0012 });
  assert.ok(!idsOf(v).includes(0xf0000004));
  assert.equal(accepted(judgeOpen(open(ETH, ethRequired()), ethSupport(), D)).conduit, undefined);
});

test('Annex 2 §3.8.2 (decision): attributes in another order than the ADVERTISE\'s are accepted ("may refuse", not must)', () => {
  const v = accepted(judgeOpen(open(ETH, [attrMacAddress(MAC), attrConveyanceMailbox(2), attrMtu(1500)]), ethSupport(), D));
  assert.deepEqual(idsOf(v), [0x8003, 0x8001, 0x8002]);
});

test('Annex 2 §3.5.3: a malformed attribute in a hand-built OPEN is refused, not thrown', () => {
  const bad = { ...open(ETH, ethRequired()), attributes: [attrOpenMessageNumber(1), { ...attrMtu(1500), value: new Uint8Array(2) }] };
  refused(judgeOpen(bad, ethSupport(), D), 'unknown-attribute');
  const shortNumber = { ...open(ETH, ethRequired()), attributes: [{ ...attrOpenMessageNumber(1), value: new Uint8Array(1) }] };
  refused(judgeOpen(shortNumber, ethSupport(), D), 'missing-open-message-number');
});

test('Annex 2 §3.5.3: settingsFromAttributes reads either side\'s attributes — first copy counts, zero periods keep the default, junk is skipped', () => {
  const s = settingsFromAttributes(
    [
      attrPeriod('REQUEST_RETRY_PERIOD', 0),
      attrPeriod('REQUEST_TIMEOUT_PERIOD', 3),
      attrPeriod('REQUEST_TIMEOUT_PERIOD', 9),
      attrDataHeaderFormat('DATA1', 0x44),
      attrDataOffset(4),
      { id: 0x8001, value: new Uint8Array(1) },
      attrConveyance(0xff00, 1),
    ],
    OTHER,
    { ...D, unitsPerMicrosecond: 0.001 },
  );
  assert.equal(s.retryPeriod, D.retryPeriod);
  assert.equal(s.timeoutPeriod, 1, 'rounded, at least one time unit');
  assert.equal(s.dataHeaderFormat, 'DATA1');
  assert.equal(s.data2Octet, 0, 'the implementation-specific octet goes with DATA2 (§3.5.3.9 text, Table 4-14)');
  assert.equal(s.dataOffset, 4);
  assert.equal(s.conveyance, undefined, 'a vendor channel has no Contact form');
  assert.equal(settingsFromAttributes([attrDataHeaderFormat(0x33)], OTHER, D).dataHeaderFormat, 'DATA');
});

test('Annex 2 §7.2.1, §7.2.3, DECISIONS §7: under Ethernet 0x8003 is MAC_ADDRESS (no DATA_OFFSET) and MTU uses the lowest two octets', () => {
  const s = settingsFromAttributes([attrMtu(1500, 0xffffffff), attrMacAddress(Uint8Array.of(9, 9, 9, 9, 9, 9))], ETH, D);
  assert.equal(s.mtu, 1500);
  assert.equal(s.dataOffset, 0);
  assert.equal(settingsFromAttributes([attrMtu(1500)], OTHER, D).mtu, undefined, '0x8002 is MTU only under Ethernet');
});
