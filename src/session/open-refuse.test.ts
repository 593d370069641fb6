import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attempt } from '../wire/errors.ts';
import {
  STATUS_BIT, attrConduitStream, attrDataHeaderFormat, attrOpenMessageNumber, attrPeriod, decodeSmp, smpBytes, smpFlowControl, smpOpen,
} from '../wire/smp/index.ts';
import type { AttributeLike, SmpAttribute, SmpMessage, SmpOpen } from '../wire/smp/index.ts';
import { SessionEngine } from './engine.ts';
import { refuseFor } from './open-refuse.ts';
import type { ProtocolSupport, SessionConfig, SessionEvent, SessionOutput } from './types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const RETRY = attrPeriod('REQUEST_RETRY_PERIOD', 50_000);

function node2(extra: Partial<SessionConfig> = {}): SessionEngine {
  const e = new SessionEngine({ nodeId: 2, contact: { conveyance: 'type11', mailbox: 2 }, protocols: [P], ...extra });
  e.handle({ kind: 'contact', node: 1, contact: { conveyance: 'type11', mailbox: 1 } }, 0);
  return e;
}
const sends = (out: SessionOutput[]) => out.flatMap((o) => (o.kind === 'send' ? [o] : []));
const evs = (out: SessionOutput[]): SessionEvent[] => out.flatMap((o) => (o.kind === 'event' ? [o.detail] : []));
const names = (attrs: readonly SmpAttribute[]): string[] => attrs.map((a) => a.name);

/** The one message sent, decoded strictly from its octets: it is well formed. */
function strictlySent(out: SessionOutput[]): SmpMessage {
  const [s, more] = sends(out);
  assert.ok(s !== undefined && more === undefined, 'one message answers');
  const d = attempt(() => decodeSmp(s.bytes, 0, s.bytes.length, { strict: true }));
  assert.ok(d.ok, d.ok ? '' : d.error.message);
  return d.value;
}

test('Annex 2 §3.5.1.5, §4.2.5: the REFUSE to a well-formed OPEN "contains all the attributes in the OPEN request", OPEN_MESSAGE_NUMBER first', () => {
  const open = smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 9, attributes: [RETRY] });
  const r = refuseFor(2, open);
  assert.ok(r !== undefined);
  assert.deepEqual(r.attributes, open.attributes);
  assert.deepEqual([r.destID, r.protoID, r.nackType, r.fill], [2, PROTO, 0, 0xffffff]);
});

test('Annex 2 §4.2.5, §4.2.3: the REFUSE to an OPEN whose OPEN_MESSAGE_NUMBER is not first is well formed — OPEN_MESSAGE_NUMBER first, the other attributes after it — in both modes', () => {
  const open = smpOpen({ sourceID: 1, protoID: PROTO, attributes: [RETRY, attrOpenMessageNumber(7)] });
  for (const validation of [false, true]) {
    const out = node2({ validation }).handle({ kind: 'message', from: 1, bytes: smpBytes(open) }, 0);
    const r = strictlySent(out);
    assert.ok(r.command === 'REFUSE', `validation ${String(validation)}`);
    assert.deepEqual(names(r.attributes), ['OPEN_MESSAGE_NUMBER', 'REQUEST_RETRY_PERIOD']);
    assert.equal(r.attributes[0]?.name === 'OPEN_MESSAGE_NUMBER' && r.attributes[0].openMessageNumber, 7);
  }
});

test('Annex 2 §4.2.5, §3.8.5: in validation mode the REFUSE to an OPEN with reserved bits in an attribute carries OPEN_MESSAGE_NUMBER alone, not the bad attribute', () => {
  const open = smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 3, attributes: [attrDataHeaderFormat('DATA', 0, 1)] });
  const out = node2({ validation: true }).handle({ kind: 'message', from: 1, bytes: smpBytes(open) }, 0);
  const r = strictlySent(out);
  assert.ok(r.command === 'REFUSE');
  assert.deepEqual(names(r.attributes), ['OPEN_MESSAGE_NUMBER']);
  assert.deepEqual(evs(out).map((d) => d.event), ['suspect', 'malformed', 'open-refused']);
});

test('Annex 2 §4.2.5, §3.8.5, §4.2.8: an OPEN without OPEN_MESSAGE_NUMBER cannot be REFUSEd ("The only attribute required in the REFUSE message is the OPEN_MESSAGE_NUMBER attribute from the OPEN"): STATUS Command_Unknown quoting it, malformed, sender suspect', () => {
  const open = smpOpen({ sourceID: 1, protoID: PROTO, attributes: [RETRY] });
  const bytes = smpBytes(open);
  assert.equal(refuseFor(2, open), undefined);
  for (const validation of [false, true]) {
    const e = node2({ validation });
    const out = e.handle({ kind: 'message', from: 1, bytes }, 0);
    const st = strictlySent(out);
    assert.ok(st.command === 'STATUS');
    assert.equal(st.status, STATUS_BIT.COMMAND_UNKNOWN);
    assert.deepEqual([...st.contextSpecificData.subarray(0, bytes.length)], [...bytes]);
    const refused = evs(out).find((d) => d.event === 'open-refused');
    assert.deepEqual(refused && { ...refused, detail: undefined }, { event: 'open-refused', node: 1, protoID: PROTO, reason: validation ? 'validation' : 'missing-open-message-number', detail: undefined, answer: 'STATUS' });
    assert.deepEqual([e.counters().malformed, e.counters().suspects], [1, 1]);
  }
});

/** OPENs from node 1 to node 2 and the refusal reason each must be reported with. */
function refusals(): { readonly name: string; readonly config: Partial<SessionConfig>; readonly open: SmpOpen; readonly reason: string }[] {
  const omn = (n: number, attributes: AttributeLike[] = []): SmpOpen => smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: n, attributes });
  return [
    { name: 'unsupported protocol', config: {}, open: smpOpen({ sourceID: 1, protoID: 0x4444, openMessageNumber: 1 }), reason: 'protocol-unsupported' },
    { name: 'acceptOpen false', config: { protocols: [{ ...P, acceptOpen: false }] }, open: omn(2), reason: 'not-accepted' },
    { name: 'value not offered', config: { protocols: [{ ...P, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 1000)] }] }, open: omn(3, [RETRY]), reason: 'value-not-offered' },
    { name: 'not understood', config: {}, open: omn(4, [{ id: 0x10, value: new Uint8Array(7) }]), reason: 'unknown-attribute' },
    { name: 'OPEN_MESSAGE_NUMBER second', config: {}, open: smpOpen({ sourceID: 1, protoID: PROTO, attributes: [RETRY, attrOpenMessageNumber(5)] }), reason: 'attribute-order' },
    { name: 'validation mode, reserved bits', config: { validation: true }, open: omn(6, [attrDataHeaderFormat('DATA', 0, 1)]), reason: 'validation' },
    { name: 'DATA2 with no mailbox', config: { protocols: [{ ...P, dataHeaderFormat: 'DATA2' }], dataMailboxes: [] }, open: omn(7), reason: 'no-data-mailbox' },
    { name: 'master without record', config: { conduitRole: 'master' }, open: omn(8, [attrConduitStream(0xffff, 0xffff)]), reason: 'master-without-record' },
  ];
}

test('Annex 2 §3.7.3 (decision E30): every REFUSE the engine sends is also an open-refused event naming its reason, the OPEN_MESSAGE_NUMBER and the answer', () => {
  for (const r of refusals()) {
    const out = node2(r.config).handle({ kind: 'message', from: 1, bytes: smpBytes(r.open) }, 0);
    const refuses = sends(out).filter((s) => s.message.command === 'REFUSE');
    const reported = evs(out).flatMap((d) => (d.event === 'open-refused' ? [d] : []));
    assert.equal(refuses.length, 1, r.name);
    assert.equal(reported.length, 1, r.name);
    const [e] = reported;
    assert.ok(e !== undefined && e.reason === r.reason && e.answer === 'REFUSE' && e.node === 1 && e.protoID === r.open.protoID && e.detail.length > 0, `${r.name}: ${JSON.stringify(e)}`);
    const refused = refuses[0]?.message;
    assert.ok(refused?.command === 'REFUSE' && refused.attributes[0]?.name === 'OPEN_MESSAGE_NUMBER' && refused.attributes[0].openMessageNumber === e.openMessageNumber, r.name);
    strictlySent(out.filter((o) => o.kind !== 'send' || o.message.command === 'REFUSE'));
  }
});

test('Annex 2 §3.7, §3.7.3 (decision E31): outside validation mode a malformed message, an illegal value or an OPEN breaking §4.2.3 makes its sender suspect; a reserved field, an unknown command or a negotiation REFUSE does not', () => {
  const suspectAfter = (bytes: Uint8Array, config: Partial<SessionConfig> = {}): boolean => {
    const e = node2(config);
    e.handle({ kind: 'message', from: 1, bytes }, 0);
    return e.counters().suspects === 1;
  };
  assert.equal(suspectAfter(Uint8Array.of(0x08, 0x01, 0x00, 0x01)), true, 'too short for its command');
  // §4.2.6 defines XON 0x01, XOFF 0x00 and RTS 0xFF only.
  assert.equal(suspectAfter(smpBytes(smpFlowControl({ flowControl: 0x05, sourceID: 1, streamID: 1, protoID: PROTO }))), true, 'undefined Flow_Control');
  assert.equal(suspectAfter(smpBytes(smpOpen({ sourceID: 1, protoID: PROTO, attributes: [RETRY, attrOpenMessageNumber(5)] }))), true, 'OPEN_MESSAGE_NUMBER second');
  assert.equal(suspectAfter(smpBytes(smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 1, attributes: [attrDataHeaderFormat('DATA', 0, 1)] }))), false, 'reserved bits: validation mode only');
  assert.equal(suspectAfter(Uint8Array.of(0x0c, 0x01, 0, 0, 0, 0, 0, 0)), false, 'unknown command');
  assert.equal(suspectAfter(smpBytes(smpOpen({ sourceID: 1, protoID: 0x4444, openMessageNumber: 1 }))), false, 'unsupported protocol');
});
