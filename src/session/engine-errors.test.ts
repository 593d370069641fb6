import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildStatus, smpBytes, smpClose, smpData1, smpFlowControl, smpOpen, smpRequest, smpStatus, smpUserDefined, STATUS_BIT,
} from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { as, openStream, rxOf, sessionPair } from '../../test/support/session-pair.ts';
import { SessionEngine } from './engine.ts';
import type { ProtocolSupport, SessionConfig, SessionEvent, SessionOutput } from './types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };

function node2(extra: Partial<SessionConfig> = {}): SessionEngine {
  const e = new SessionEngine({ nodeId: 2, contact: { conveyance: 'type11', mailbox: 2 }, protocols: [P], ...extra });
  e.handle({ kind: 'contact', node: 1, contact: { conveyance: 'type11', mailbox: 1 } }, 0);
  return e;
}
const sent = (out: SessionOutput[]): SmpMessage[] => out.flatMap((o) => (o.kind === 'send' ? [o.message] : []));
const evs = (out: SessionOutput[]): SessionEvent[] => out.flatMap((o) => (o.kind === 'event' ? [o.detail] : []));
const from1 = (bytes: Uint8Array) => ({ kind: 'message' as const, from: 1, bytes });

function commandUnknown(out: SessionOutput[], quoted: Uint8Array): void {
  const m = as(sent(out)[0], 'STATUS');
  assert.equal(m.status, STATUS_BIT.COMMAND_UNKNOWN);
  assert.equal(m.cmdID, quoted[0]);
  assert.deepEqual([...m.contextSpecificData.subarray(0, quoted.length)], [...quoted]);
}

test('Annex 2 §3.5.2.1: an unrecognised <CMD> is answered by STATUS Command_Unknown with the original as context data', () => {
  const e = node2();
  const bad = Uint8Array.of(0x0c, 0x01, 0, 0, 0, 0, 0, 0);
  const out = e.handle(from1(bad), 0);
  commandUnknown(out, bad);
  assert.equal(e.counters().statusCommandUnknown, 1);
  assert.equal(e.counters().malformed, 0);
  // 0x0B (DATA3) "must never be transmitted": received, it is no command either.
  commandUnknown(e.handle(from1(Uint8Array.of(0x0b, 0x01, 0, 0)), 0), Uint8Array.of(0x0b, 0x01, 0, 0));
});

test('Annex 2 §3.5.2.1: a message other than STATUS with unknown <VER> gets Command_Unknown; a STATUS with unknown <VER> gets nothing', () => {
  const e = node2();
  const open = smpBytes(smpOpen({ ver: 2, sourceID: 1, protoID: PROTO, openMessageNumber: 1 }));
  commandUnknown(e.handle(from1(open), 0), open);
  const st = smpBytes(buildStatus({ ver: 2, sourceID: 1, streamID: 1, status: ['STREAM_FUNCTIONAL'] }));
  const out = e.handle(from1(st), 0);
  assert.deepEqual(sent(out), []);
  assert.deepEqual(evs(out), [{ event: 'malformed', node: 1, reason: 'VER 0x02 is not 0x01' }]);
  // §3.5.2.1 "except the DATA1 command": its <VER> carries no version.
  const d1 = smpBytes(smpData1({ ver: 7, sourceID: 1, streamID: 0x0999, payload: Uint8Array.of(1) }));
  const r = sent(e.handle(from1(d1), 0))[0];
  assert.ok(r?.command === 'STATUS' && r.status === (STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED));
});

test('Annex 2 §4.2.8, §3.7.3 (decision E31): a message too short for its command is malformed: reported, answered by Command_Unknown quoting it, its sender suspect without validation mode too', () => {
  const e = node2();
  const short = Uint8Array.of(0x08, 0x01, 0x00, 0x01);
  const out = e.handle(from1(short), 0);
  commandUnknown(out, short);
  assert.deepEqual(evs(out).map((d) => d.event), ['suspect', 'malformed']);
  assert.equal(e.counters().malformed, 1);
});

test('Annex 2 §4.2.8: a quote longer than <DataSize> allows is cut at 255 words (2040 octets)', () => {
  const e = node2();
  const big = new Uint8Array(3000).fill(0x77);
  big[0] = 0x0d;
  const [m] = sent(e.handle(from1(big), 0));
  assert.ok(m?.command === 'STATUS' && m.contextSpecificData.length === 2040);
});

test('Annex 2 §3.8.5: validation mode rejects a non-zero reserved field with STATUS Command_Unknown and the sender becomes suspect', () => {
  const req = smpBytes(smpRequest({ sourceID: 1, destID: 2, protoID: 0xffff, rsrv: 0x80 }));
  const strict = node2({ validation: true });
  const out = strict.handle(from1(req), 0);
  commandUnknown(out, req);
  assert.deepEqual(evs(out).map((d) => d.event), ['suspect', 'malformed']);
  assert.equal(strict.counters().suspects, 1);
  // §3.8.5 non-validation mode: "reserved fields are ignored".
  const lenient = node2();
  const [adv] = sent(lenient.handle(from1(req), 0));
  assert.equal(adv?.command, 'ADVERTISE');
  assert.equal(lenient.counters().suspects, 0);
});

test('Annex 2 §3.8.5: in validation mode a CLOSE with a non-zero reserved octet is rejected and the stream stays open', () => {
  for (const validation of [true, false]) {
    const net = sessionPair({ protocols: [P] }, { protocols: [P], validation });
    const tx = openStream(net, 1, 2, PROTO, 'v');
    assert.ok(tx);
    const close = smpBytes(smpClose({ sourceID: 1, destID: 2, streamID: tx.streamID, rsrv: 1 }));
    const reply = as(sent(net.input(2, from1(close)))[0], 'STATUS');
    assert.equal(reply.status, validation ? STATUS_BIT.COMMAND_UNKNOWN : STATUS_BIT.CLOSED);
    assert.equal(net.engine(2).snapshot().streams.length, validation ? 1 : 0);
  }
});

test('Annex 2 §3.8.5: in validation mode an OPEN with a reserved violation gets its normal error handling, REFUSE, and the sender is suspect', () => {
  const open = smpBytes(smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 1, pad: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1) }));
  const strict = node2({ validation: true });
  const out = strict.handle(from1(open), 0);
  assert.equal(sent(out)[0]?.command, 'REFUSE');
  assert.ok(evs(out).some((d) => d.event === 'suspect'));
  assert.equal(sent(node2().handle(from1(open), 0))[0]?.command, 'ACCEPT');
});

test('Annex 2 §4.2.8: in validation mode a STATUS with Stream_Unknown and another flag is dropped, reported, never answered', () => {
  const st = smpBytes(buildStatus({ sourceID: 1, streamID: 5, status: STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.STREAM_FUNCTIONAL }));
  const strict = node2({ validation: true });
  const out = strict.handle(from1(st), 0);
  assert.deepEqual(sent(out), []);
  assert.deepEqual(evs(out).map((d) => d.event), ['suspect', 'malformed']);
  const lenient = node2();
  const out2 = lenient.handle(from1(st), 0);
  assert.deepEqual(sent(out2), []);
  assert.deepEqual(evs(out2).map((d) => d.event), ['status']);
});

test('Annex 2 §3.7, §3.8.5: an undefined Flow_Control value is an error in both modes; a status request with context data is dropped', () => {
  for (const validation of [true, false]) {
    const e = node2({ validation });
    const fc = smpBytes(smpFlowControl({ flowControl: 0x05, sourceID: 1, streamID: 1, protoID: PROTO }));
    commandUnknown(e.handle(from1(fc), 0), fc);
    const st = smpBytes(buildStatus({ sourceID: 1, streamID: 1, status: ['REQUEST_STATUS_OF_REMOTE'], contextSpecificData: new Uint8Array(8) }));
    const out = e.handle(from1(st), 0);
    assert.deepEqual(sent(out), []);
    assert.ok(evs(out).some((d) => d.event === 'malformed'));
  }
});

test('Annex 2 §3.5.2.1, §4.2.8: a well-formed STATUS is never answered with a STATUS, whatever it reports', () => {
  const e = node2();
  for (const status of [STATUS_BIT.COMMAND_UNKNOWN, STATUS_BIT.ERROR, STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED, STATUS_BIT.STREAM_FUNCTIONAL]) {
    const st = status === STATUS_BIT.COMMAND_UNKNOWN ? smpStatus({ sourceID: 1, streamID: 1, status: 0, quote: Uint8Array.of(0x55) }) : buildStatus({ sourceID: 1, streamID: 1, status });
    assert.deepEqual(sent(e.handle(from1(smpBytes(st)), 0)), []);
  }
});

test('Annex 2 §3.8.4, §4.2.9: a USERDEFINED command not understood gets STATUS Command_Unknown; an understood one is reported', () => {
  const ud = smpBytes(smpUserDefined({ cmd: 0xf3, sourceID: 1, streamID: 0, userDefinedData: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) }));
  commandUnknown(node2().handle(from1(ud), 0), ud);
  const knows = node2({ userDefined: [0xf3] });
  const out = knows.handle(from1(ud), 0);
  assert.deepEqual(sent(out), []);
  const [ev] = evs(out);
  assert.ok(ev?.event === 'userdefined' && ev.node === 1 && ev.message.command === 'USERDEFINED' && ev.message.cmd === 0xf3);
});

test('Annex 2 §3.7.2, §4.2.9: the userdefined command sends USERDEFINED at normal priority; an invalid one is dropped', () => {
  const e = node2();
  const out = e.handle({ kind: 'userdefined', to: 1, cmd: 0xf1, streamID: 3, data: Uint8Array.of(9, 0, 0, 0, 0, 0, 0, 0) }, 0);
  const s = out.find((o) => o.kind === 'send');
  assert.ok(s?.kind === 'send' && s.message.command === 'USERDEFINED' && s.priority === 'normal');
  const bad = e.handle({ kind: 'userdefined', to: 1, cmd: 0x20, streamID: 3, data: Uint8Array.of(9) }, 0);
  assert.equal(evs(bad)[0]?.event, 'dropped');
});

test('Annex 2 §4.2.9, Table 4-11 (decision E27): the userdefined command takes data of whole double-words only, so the Type 11 pad never joins the data', () => {
  const e = node2();
  for (const n of [1, 7, 9, 13]) {
    const out = e.handle({ kind: 'userdefined', to: 1, cmd: 0xf1, streamID: 3, data: new Uint8Array(n) }, 0);
    assert.deepEqual(out.filter((o) => o.kind === 'send'), [], `${n} octets`);
    assert.deepEqual(evs(out).map((d) => (d.event === 'dropped' ? d.reason : d.event)), [`invalid-userdefined: data of ${n} octets is not whole double-words (8 octets each)`]);
  }
  for (const n of [0, 8, 16]) {
    const s = e.handle({ kind: 'userdefined', to: 1, cmd: 0xf1, streamID: 3, data: new Uint8Array(n) }, 0).find((o) => o.kind === 'send');
    assert.ok(s?.kind === 'send' && s.bytes.length === 8 + n && s.bytes.length % 8 === 0, `${n} octets`);
  }
});

test('Annex 2 §3.7.2: within one input, ACCEPT, CLOSE, FLOW_CONTROL and STATUS go ahead of OPEN, REFUSE and DATA', () => {
  const net = sessionPair({ protocols: [P], conduitRole: 'master' }, { protocols: [P], conduitRole: 'slave' });
  const tx = openStream(net, 1, 2, PROTO, 'data');
  assert.ok(tx);
  net.input(2, { kind: 'xoff', stream: rxOf(1, tx) });
  net.settle();
  // The slave's answer to a conduit OPEN: its own OPEN is caused first, the ACCEPT still leaves first.
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  const conduitOpen = net.trace.at(-1);
  assert.ok(conduitOpen?.command === 'OPEN');
  const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: conduitOpen.bytes }, net.now);
  const order = out.flatMap((o) => (o.kind === 'send' ? [`${o.message.command}:${o.priority}`] : []));
  assert.deepEqual(order, ['ACCEPT:high', 'OPEN:normal']);
});
