import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHex, toHex } from '../wire/hex.ts';
import { decodeSmp, smpBytes } from '../wire/smp/index.ts';
import { smpData, smpData1, smpData2 } from '../wire/smp/data.ts';
import type { SmpData, SmpData1, SmpData2 } from '../wire/smp/data.ts';
import {
  DEFAULT_MAX_MESSAGE, DEFAULT_REASSEMBLY_MAX_PDU, DataReassembler, maxPdu, pduOctetsPerMessage, pduToDataMessages,
} from './data-formats.ts';
import type { DataHeader, DataMessage, DataResult } from './data-formats.ts';

const H: DataHeader = { format: 'DATA', sourceID: 0x12, streamID: 0x42, cos: 5, mailbox: 2 };

function pattern(n: number, seed = 1): Uint8Array {
  const p = new Uint8Array(n);
  for (let i = 0; i < n; i++) p[i] = (i * 31 + seed) & 0xff;
  return p;
}

/** Every message through its octets and back, as a receiver sees it. */
function wire(msgs: readonly DataMessage[]): DataMessage[] {
  return msgs.map((m) => {
    const b = smpBytes(m);
    const d = decodeSmp(b, 0, b.length, { strict: true });
    assert.ok(d.command === 'DATA' || d.command === 'DATA1' || d.command === 'DATA2');
    return d;
  });
}

function feed(r: DataReassembler, from: number, mailbox: number | undefined, msgs: readonly DataMessage[], offset = 0): DataResult[] {
  return msgs.map((m) => r.accept(from, mailbox, m, offset));
}

function only(results: readonly DataResult[]): DataResult {
  const last = results[results.length - 1];
  assert.ok(last !== undefined);
  for (const r of results.slice(0, -1)) assert.deepEqual(r, { kind: 'partial' });
  return last;
}

function data(f: { s: number; e: number; streamID?: number; pduLength?: number; payload: Uint8Array; mailbox?: number }): SmpData {
  return smpData({ sourceID: 0x12, mailbox: f.mailbox ?? 2, s: f.s, e: f.e, payload: f.payload, ...(f.streamID !== undefined && { streamID: f.streamID }), ...(f.pduLength !== undefined && { pduLength: f.pduLength }) });
}

// --- sending ------------------------------------------------------------------------------------

test('Annex 2 §4.3.1 Table 4-12: a PDU that fits one message is one DATA with S and E set and the StreamID', () => {
  // Word 0: CMD 0x06 | VER 0x01 | Mailbox 0x02 | COS 0x05
  // Word 1: Reserved 0x0000 | SourceID 0x0012
  // Word 2: S=1 E=1 00 Length=5 → 0xC005 | StreamID 0x0042
  // payload 01..05, then seven zero pad octets: 12 + 5 + 7 = 24.
  const msgs = pduToDataMessages(parseHex('0102030405'), H);
  assert.equal(msgs.length, 1);
  assert.equal(toHex(smpBytes(msgs[0]!)), '0601020500000012c0050042' + '0102030405' + '00000000000000');
});

test('Annex 2 §4.3.1: a multi-segment transfer is sent Start, middle segments, End; middle segments carry PDU-Length', () => {
  const pdu = pattern(10000);
  const msgs = pduToDataMessages(pdu, H) as SmpData[];
  // 4096 octets per message less the 12-octet header: 4084 PDU octets each.
  assert.deepEqual(msgs.map((m) => m.segment), ['START', 'CONTINUATION', 'END']);
  assert.deepEqual(msgs.map((m) => m.payload.length), [4084, 4084, 10000 - 2 * 4084]);
  assert.deepEqual(msgs.map((m) => [m.streamID, m.pduLength]), [[0x42, undefined], [undefined, 10000], [0x42, undefined]]);
});

test('Annex 2 §4.3.1: "If a transfer fits within a single segment, then both the S and E bits are set" (an empty PDU too)', () => {
  for (const n of [0, 1, 4084]) {
    const msgs = pduToDataMessages(pattern(n), H);
    assert.equal(msgs.length, 1);
    assert.deepEqual([msgs[0]!.s, msgs[0]!.e], [1, 1]);
  }
  assert.equal(pduToDataMessages(pattern(4085), H).length, 2);
});

test('Annex 2 §4.3.2 and Part 2: every message is at most maxMessage octets and a multiple of 8, the zero pad not counted in <Length>', () => {
  for (const format of ['DATA', 'DATA1', 'DATA2'] as const) {
    for (const maxMessage of [4096, 256, 100]) {
      const msgs = pduToDataMessages(pattern(3001), { ...H, format, maxMessage });
      let total = 0;
      for (const m of msgs) {
        const b = smpBytes(m);
        assert.ok(b.length <= maxMessage && b.length % 8 === 0, `${format} ${maxMessage}: ${b.length}`);
        const d = decodeSmp(b, 0, b.length, { strict: true });
        assert.ok(d.command === format);
        assert.equal(d.payload.length, m.payload.length);
        total += d.payload.length;
      }
      assert.equal(total, 3001);
    }
  }
});

test('Annex 2 §4.3.2: pad octets are zeros after the payload', () => {
  const b = smpBytes(pduToDataMessages(parseHex('ff'), { ...H, format: 'DATA1' })[0]!);
  // 16-octet DATA1 header, one payload octet, seven zero pad octets.
  assert.equal(b.length, 24);
  assert.equal(toHex(b.subarray(16)), 'ff00000000000000');
});

test('Annex 2 §4.3.2 Table 4-13: DATA1 carries PDUs over 65535 octets, PDU-Length in 32 bits', () => {
  const msgs = pduToDataMessages(pattern(70000), { ...H, format: 'DATA1' }) as SmpData1[];
  // 4096 - 16 = 4080 PDU octets per message: 18 messages.
  assert.equal(msgs.length, Math.ceil(70000 / 4080));
  const middle = msgs[1]!;
  assert.equal(middle.pduLength, 70000);
  const b = smpBytes(middle);
  // Octets 12–15 are the whole <StreamID/PDU-Length><Reserved/PDU-Length> word: 70000 = 0x00011170.
  assert.equal(toHex(b.subarray(12, 16)), '00011170');
});

test('Annex 2 §4.3.1 Table 4-12: DATA states PDU-Length in 16 bits, so a DATA PDU is at most 65535 octets', () => {
  assert.equal(maxPdu('DATA'), 0xffff);
  assert.equal(pduToDataMessages(pattern(0xffff), H).length, Math.ceil(0xffff / 4084));
  assert.throws(() => pduToDataMessages(pattern(0x10000), H), (e: unknown) => e instanceof RangeError && /pdu\.length/.test(e.message));
});

test('Annex 2 §4.3.2: DATA1 "allows transfers of up to 4 gigabytes"; §4.3.3: "the maximum PDU size is 16380 octets"', () => {
  assert.equal(maxPdu('DATA1'), 0xffffffff);
  assert.equal(maxPdu('DATA2'), 16380);
  assert.equal(pduToDataMessages(pattern(16380), { ...H, format: 'DATA2' }).length, Math.ceil(16380 / 4092));
  assert.throws(() => pduToDataMessages(pattern(16381), { ...H, format: 'DATA2' }), RangeError);
});

test('Annex 2 §4.3.3 Table 4-14: DATA2 carries the implementation-specific octet and S/E, no StreamID', () => {
  const msgs = pduToDataMessages(pattern(5000), { ...H, format: 'DATA2', data2Octet: 0xa5 }) as SmpData2[];
  assert.deepEqual(msgs.map((m) => [m.implementationSpecific, m.s, m.e]), [[0xa5, 1, 0], [0xa5, 0, 1]]);
  // CMD 0x0A | 0xA5 | S=1 E=0 Length=4092 → 0x8FFC
  assert.equal(toHex(smpBytes(msgs[0]!).subarray(0, 4)), '0aa58ffc');
});

test('Annex 2 §3.5.3.3: the Offset octets follow the header of every message, counted in <Length>, not in PDU-Length (decision)', () => {
  const offsetOctets = parseHex('aabbcc');
  const msgs = pduToDataMessages(pattern(9000), { ...H, offsetOctets }) as SmpData[];
  // 4096 - 12 - 3 = 4081 PDU octets per message.
  assert.deepEqual(msgs.map((m) => m.payload.length), [3 + 4081, 3 + 4081, 3 + 9000 - 2 * 4081]);
  for (const m of msgs) assert.equal(toHex(m.payload.subarray(0, 3)), 'aabbcc');
  assert.equal(msgs[1]!.pduLength, 9000);
  const r = only(feed(new DataReassembler(), 0x12, 2, wire(msgs), 3));
  assert.ok(r.kind === 'pdu');
  assert.deepEqual(r.pdu, pattern(9000));
});

test('Annex 2 §3.5.3.3: a maxMessage with no room for PDU octets, or more than 255 Offset octets, is refused', () => {
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, maxMessage: 12 }), /maxMessage/);
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, maxMessage: 16, offsetOctets: new Uint8Array(4) }), /maxMessage/);
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, offsetOctets: new Uint8Array(256) }), /offsetOctets/);
  assert.equal(pduOctetsPerMessage('DATA', 16, 3), 1);
});

test('Annex 2 §4.3.1 Table 4-12: header fields out of range are refused with a RangeError naming the field', () => {
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, streamID: 0x10000 }), /streamID/);
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, mailbox: 256 }), /mailbox/);
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, format: 'DATA2', data2Octet: 256 }), /data2Octet/);
  assert.throws(() => pduToDataMessages(pattern(1), { ...H, maxMessage: 0 }), /maxMessage/);
});

test('Part 2: the default largest message is 16 segments of 256 octets; a DATA message carries at most 4095 octets of <Length>', () => {
  assert.equal(DEFAULT_MAX_MESSAGE, 4096);
  assert.equal(pduOctetsPerMessage('DATA', 8192, 0), 0xfff);
  assert.equal(pduOctetsPerMessage('DATA1', 8192, 0), 8192 - 16);
  assert.equal(pduOctetsPerMessage('DATA2', 1 << 20, 0), 16380);
  // A maxMessage not a multiple of 8 is used down to the multiple below it.
  assert.equal(pduOctetsPerMessage('DATA', 4100, 0), 4084);
});

// --- receiving ----------------------------------------------------------------------------------

test('Annex 2 §4.3.1: a single-segment message is a whole PDU with its StreamID', () => {
  const r = new DataReassembler();
  assert.deepEqual(r.accept(7, 2, data({ s: 1, e: 1, streamID: 9, payload: parseHex('0102') })), { kind: 'pdu', streamID: 9, pdu: parseHex('0102') });
  assert.equal(r.size, 0);
});

test('Annex 2 §4.3.1: a multi-segment transfer is rebuilt from Start, middle and End segments', () => {
  const r = new DataReassembler();
  for (const format of ['DATA', 'DATA1', 'DATA2'] as const) {
    const pdu = pattern(12000, 3);
    const out = only(feed(r, 7, 2, wire(pduToDataMessages(pdu, { ...H, format }))));
    assert.deepEqual(out, { kind: 'pdu', streamID: format === 'DATA2' ? undefined : 0x42, pdu });
  }
});

test('Annex 2 §4.3.1: a middle segment without a start segment is a defect', () => {
  const r = new DataReassembler();
  const got = r.accept(7, 2, data({ s: 0, e: 0, pduLength: 10, payload: pattern(4) }));
  assert.ok(got.kind === 'defect' && /middle segment without a start/.test(got.reason));
});

test('Annex 2 §4.3.1: an end segment without a start segment is a defect', () => {
  const r = new DataReassembler();
  const got = r.accept(7, 2, data({ s: 0, e: 1, streamID: 9, payload: pattern(4) }));
  assert.ok(got.kind === 'defect' && /end segment without a start/.test(got.reason));
});

test('Annex 2 §4.3.1: a start segment while a transfer is open is a defect; the new transfer goes on', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  const got = r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8, 5) }));
  assert.ok(got.kind === 'defect' && /start segment while a transfer is open/.test(got.reason));
  assert.deepEqual(r.accept(7, 2, data({ s: 0, e: 1, streamID: 9, payload: pattern(2) })), { kind: 'pdu', streamID: 9, pdu: Uint8Array.from([...pattern(8, 5), ...pattern(2)]) });
});

test('Annex 2 §4.3.1: a single-segment message while a transfer is open is a defect that still carries its whole PDU (decision)', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  const got = r.accept(7, 2, data({ s: 1, e: 1, streamID: 9, payload: parseHex('abcd') }));
  assert.ok(got.kind === 'defect');
  assert.deepEqual([got.pdu, got.streamID], [parseHex('abcd'), 9]);
  assert.equal(r.size, 0);
});

test('Annex 2 §4.3.1: an End whose total differs from PDU-Length is a defect', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  assert.deepEqual(r.accept(7, 2, data({ s: 0, e: 0, pduLength: 30, payload: pattern(8) })), { kind: 'partial' });
  const got = r.accept(7, 2, data({ s: 0, e: 1, streamID: 9, payload: pattern(8) }));
  assert.ok(got.kind === 'defect' && /24 octets received, PDU-Length is 30/.test(got.reason));
  assert.equal(r.size, 0);
});

test('Annex 2 §4.3.1: more octets than PDU-Length is a defect as soon as it arrives', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  const got = r.accept(7, 2, data({ s: 0, e: 0, pduLength: 12, payload: pattern(8) }));
  assert.ok(got.kind === 'defect' && /more than PDU-Length 12/.test(got.reason));
  const rest = r.accept(7, 2, data({ s: 0, e: 1, streamID: 9, payload: pattern(8) }));
  assert.ok(rest.kind === 'defect' && /abandoned transfer/.test(rest.reason));
  assert.equal(r.size, 0);
});

test('Annex 2 §4.3.1: middle segments of one transfer that disagree on PDU-Length are a defect', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  r.accept(7, 2, data({ s: 0, e: 0, pduLength: 40, payload: pattern(8) }));
  const got = r.accept(7, 2, data({ s: 0, e: 0, pduLength: 48, payload: pattern(8) }));
  assert.ok(got.kind === 'defect' && /PDU-Length 48 differs/.test(got.reason));
});

test('Annex 2 §4.3.1: an End segment naming another StreamID than its Start is a defect', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  const got = r.accept(7, 2, data({ s: 0, e: 1, streamID: 10, payload: pattern(8) }));
  assert.ok(got.kind === 'defect' && /StreamID 10 is not the start segment's 9/.test(got.reason));
});

test('Annex 2 §4.3.3: a PDU over the reassembler\'s maxPdu is a defect; the rest of its transfer is discarded, the next one is fine', () => {
  const r = new DataReassembler({ maxPdu: 20 });
  const single = r.accept(7, 2, data({ s: 1, e: 1, streamID: 9, payload: pattern(21) }));
  assert.ok(single.kind === 'defect' && /over the limit of 20/.test(single.reason));
  assert.deepEqual(r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(16) })), { kind: 'partial' });
  const over = r.accept(7, 2, data({ s: 0, e: 0, pduLength: 40, payload: pattern(8) }));
  assert.ok(over.kind === 'defect' && /PDU-Length 40 over the limit of 20/.test(over.reason));
  const end = r.accept(7, 2, data({ s: 0, e: 1, streamID: 9, payload: pattern(8) }));
  assert.ok(end.kind === 'defect' && /abandoned/.test(end.reason));
  assert.equal(r.accept(7, 2, data({ s: 1, e: 1, streamID: 9, payload: pattern(20) })).kind, 'pdu');
});

test('Annex 2 §4.3.3: DATA2 segments past 16380 octets are a defect whatever the reassembler allows', () => {
  const r = new DataReassembler({ maxPdu: 1 << 20 });
  r.accept(7, 2, smpData2({ s: 1, e: 0, payload: pattern(16000) }));
  const got = r.accept(7, 2, smpData2({ s: 0, e: 1, payload: pattern(400) }));
  assert.ok(got.kind === 'defect' && /16400 octets is over the limit of 16380/.test(got.reason));
});

test('Annex 2 §4.3.1: an oversized Start of a multi-segment transfer abandons it: its middle segments are not "without a start"', () => {
  const r = new DataReassembler({ maxPdu: 8 });
  assert.equal(r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(16) })).kind, 'defect');
  const mid = r.accept(7, 2, data({ s: 0, e: 0, pduLength: 32, payload: pattern(8) }));
  assert.ok(mid.kind === 'defect' && /abandoned transfer/.test(mid.reason));
});

test('Annex 2 §3.5.3.3: a message shorter than the stream\'s Offset octets is a defect', () => {
  const r = new DataReassembler();
  const got = r.accept(7, 2, data({ s: 1, e: 1, streamID: 9, payload: pattern(2) }), 4);
  assert.ok(got.kind === 'defect' && /shorter than the 4 Offset octets/.test(got.reason));
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(6) }), 4);
  const mid = r.accept(7, 2, data({ s: 0, e: 0, pduLength: 10, payload: pattern(3) }));
  assert.ok(mid.kind === 'defect' && /shorter than the 4 Offset octets/.test(mid.reason));
});

test('Annex 2 §4.3.1: transfers are kept apart by source, mailbox and format, since middle segments carry no StreamID', () => {
  const r = new DataReassembler();
  const a = wire(pduToDataMessages(pattern(9000, 1), H));
  const b = wire(pduToDataMessages(pattern(9000, 2), { ...H, streamID: 0x43 }));
  const c = wire(pduToDataMessages(pattern(9000, 3), { ...H, format: 'DATA1' }));
  const out: DataResult[] = [];
  for (let i = 0; i < a.length; i++) {
    out.push(r.accept(7, 2, a[i]!), r.accept(8, 2, a[i]!), r.accept(7, 3, b[i]!));
    if (c[i] !== undefined) out.push(r.accept(7, 2, c[i]!));
  }
  const pdus = out.filter((x) => x.kind === 'pdu');
  assert.deepEqual(pdus.map((x) => x.streamID), [0x42, 0x42, 0x43, 0x42]);
  assert.deepEqual(pdus.map((x) => x.pdu[0]), [pattern(1, 1)[0], pattern(1, 1)[0], pattern(1, 2)[0], pattern(1, 3)[0]]);
  assert.ok(out.every((x) => x.kind !== 'defect'));
});

test('Annex 2 §4.3.1 Table 4-12: without an arrival mailbox, DATA and DATA1 are keyed by their <Mailbox> field (decision)', () => {
  const r = new DataReassembler();
  r.accept(7, undefined, data({ s: 1, e: 0, streamID: 9, payload: pattern(8), mailbox: 4 }));
  assert.equal(r.accept(7, undefined, data({ s: 0, e: 1, streamID: 9, payload: pattern(8), mailbox: 5 })).kind, 'defect');
  assert.equal(r.accept(7, undefined, data({ s: 0, e: 1, streamID: 9, payload: pattern(8), mailbox: 4 })).kind, 'pdu');
});

test('Annex 2 §3.5.1.8: dropFrom and dropStream forget partial transfers of a node or of one closed stream', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  r.accept(7, 3, data({ s: 1, e: 0, streamID: 10, payload: pattern(8) }));
  r.accept(8, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  r.dropStream(7, 10);
  assert.equal(r.size, 2);
  r.dropFrom(7);
  assert.deepEqual(r.snapshot().transfers.map((t) => t.from), [8]);
  const got = r.accept(7, 2, data({ s: 0, e: 1, streamID: 9, payload: pattern(8) }));
  assert.ok(got.kind === 'defect' && /without a start/.test(got.reason));
});

test('Annex 2 §4.3.1: snapshot() is plain JSON of the transfers in progress', () => {
  const r = new DataReassembler();
  r.accept(7, 2, data({ s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  r.accept(7, 2, data({ s: 0, e: 0, pduLength: 100, payload: pattern(8) }));
  r.accept(7, undefined, smpData2({ s: 1, e: 0, payload: pattern(4) }));
  const s = r.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
  assert.deepEqual(s.transfers, [
    { from: 7, mailbox: 2, format: 'DATA', streamID: 9, received: 16, pduLength: 100, abandoned: false },
    { from: 7, mailbox: null, format: 'DATA2', streamID: null, received: 4, pduLength: null, abandoned: false },
  ]);
});

test('Annex 2 §4.3.2: the reassembler limit defaults to 16 MiB and must be a positive 32-bit count (decision)', () => {
  assert.equal(new DataReassembler().snapshot().maxPdu, DEFAULT_REASSEMBLY_MAX_PDU);
  assert.equal(DEFAULT_REASSEMBLY_MAX_PDU, 16 * 1024 * 1024);
  assert.throws(() => new DataReassembler({ maxPdu: 0 }), /maxPdu/);
  assert.throws(() => new DataReassembler({ maxPdu: 2 ** 32 }), /maxPdu/);
});

test('Annex 2 §4.3.1: a reassembled PDU does not share memory with the received messages', () => {
  const r = new DataReassembler();
  const payload = parseHex('0102');
  const got = r.accept(7, 2, smpData1({ sourceID: 1, streamID: 9, payload }));
  payload[0] = 0xff;
  assert.ok(got.kind === 'pdu');
  assert.equal(toHex(got.pdu), '0102');
});

test('Annex 2 §4.3.1–§4.3.3: the largest PDU of each format survives octets and reassembly', () => {
  const r = new DataReassembler({ maxPdu: 0xffffffff });
  for (const [format, n] of [['DATA', 0xffff], ['DATA1', 70000], ['DATA2', 16380]] as const) {
    const pdu = pattern(n, 9);
    assert.deepEqual(only(feed(r, 1, 0, wire(pduToDataMessages(pdu, { ...H, format })))), { kind: 'pdu', streamID: format === 'DATA2' ? undefined : 0x42, pdu });
  }
});

test('Annex 2 §4.3.1: only middle segments carry PDU-Length, so losing the one middle segment of a three-message transfer goes unseen (limitation)', () => {
  const msgs = wire(pduToDataMessages(pattern(10000), H));
  assert.equal(msgs.length, 3);
  const last = only(feed(new DataReassembler(), 1, 0, [msgs[0]!, msgs[2]!]));
  assert.ok(last.kind === 'pdu');
  assert.equal(last.pdu.length, 10000 - 4084);
});

test('Annex 2 §4.3.1: transfers are keyed by the transport source, not the header SourceID (decision)', () => {
  const r = new DataReassembler();
  r.accept(7, 2, smpData({ sourceID: 1, mailbox: 2, s: 1, e: 0, streamID: 9, payload: pattern(8) }));
  const got = r.accept(7, 2, smpData({ sourceID: 99, mailbox: 2, s: 0, e: 1, streamID: 9, payload: pattern(8) }));
  assert.equal(got.kind, 'pdu');
});
