import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, fails, flat } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { decodeSmp, smpBytes, smpStatus } from './index.ts';
import { statusFlags } from './status.ts';
import { smpFlowControl } from './flow-control.ts';
import { attrOpenMessageNumber } from './attribute-build.ts';

// Table 4-9, a status query (Figure 3-4, first example):
//   Word 0: CMD 0x10 | VER 0x01 | COS 0x05 | DataSize 0
//   Word 1: SourceID 0x0012 | StreamID 0x0042
//   Word 2: Mailbox 0x02 | Reserved 0x00 | CmdID 0x10 | CmdVersion 0x01
//   Word 3: Status = Request Status of Remote 0x80000000 | Data Ready to Send 0x8 | Ready to
//           Receive 0x4 | Stream Functional 0x2 = 0x8000000E (Table 4-10)
const QUERY = '10010500 00120042 02001001 8000000e';

test('Annex 2 §4.2.8 Tables 4-9, 4-10: a STATUS query has DataSize 0 and the status bits by name', () => {
  const m = decode(QUERY);
  assert.ok(m.command === 'STATUS');
  assert.deepEqual(
    [m.cos, m.sourceID, m.streamID, m.mailbox, m.rsrv, m.cmdID, m.cmdIDName, m.cmdVersion, m.status, m.contextSpecificData.length],
    [5, 0x12, 0x42, 2, 0, 0x10, 'STATUS', 1, 0x8000000e, 0],
  );
  assert.deepEqual(m.statusFlags, ['STREAM_FUNCTIONAL', 'READY_TO_RECEIVE', 'DATA_READY_TO_SEND', 'REQUEST_STATUS_OF_REMOTE']);
  const built = smpStatus({ cos: 5, sourceID: 0x12, streamID: 0x42, mailbox: 2, status: ['STREAM_FUNCTIONAL', 'READY_TO_RECEIVE', 'DATA_READY_TO_SEND', 'REQUEST_STATUS_OF_REMOTE'] });
  assert.equal(toHex(smpBytes(built)), flat(QUERY));
});

test('Annex 2 §4.2.8 Table 4-10: every status bit has its name; 0x0FFFFFF0 is reserved', () => {
  assert.deepEqual(statusFlags(0x00000001), ['STREAM_UNKNOWN']);
  assert.deepEqual(statusFlags(0x10000000), ['ERROR']);
  assert.deepEqual(statusFlags(0x20000000), ['CLOSED']);
  assert.deepEqual(statusFlags(0x40000000), ['COMMAND_UNKNOWN']);
  assert.deepEqual(statusFlags(0x00000010), ['RESERVED']);
  fails('10010500 00120042 02001001 00000010', 'reserved', 12);
  fails('10010500 00120042 02001001 08000000', 'reserved', 12);
  const m = decode('10010500 00120042 02001001 00000012', false);
  assert.equal(m.command === 'STATUS' && m.status, 0x12);
});

test('Annex 2 §4.2.8: with Stream_Unknown set, only Stream_Unknown and Closed are valid', () => {
  decode('10010500 00120042 02000801 20000001');
  fails('10010500 00120042 02000801 00000003', 'reserved', 12);
  fails('10010500 00120042 02000801 40000001', 'reserved', 12);
});

test('Annex 2 §4.2.8: a status request (Request_Status_of_Remote) has DataSize zero', () => {
  fails('10010501 00120042 02001001 80000000 00000000 00000000', 'invalid', 3);
});

test('Annex 2 §4.2.7, §4.2.8: the STATUS answering a CLOSE reports Closed', () => {
  // Word 2: Mailbox 0x02 | Reserved | CmdID 0x08 (CLOSE) | CmdVersion 0x01; Word 3: Closed 0x20000000
  const hex = '10010500 00120042 02000801 20000000';
  const m = decode(hex);
  assert.deepEqual(m.command === 'STATUS' && [m.cmdIDName, m.statusFlags], ['CLOSE', ['CLOSED']]);
  assert.equal(toHex(smpBytes(smpStatus({ cos: 5, sourceID: 0x12, streamID: 0x42, mailbox: 2, cmdID: 8, status: ['CLOSED'] }))), flat(hex));
});

test('Annex 2 §4.2.8: the answer to Request_Status_of_Remote copies the ProtoID and attributes (DataSize in 8-octet words)', () => {
  // DataSize 2: ProtoID 0x1234 | numAttributes 1 | OPEN_MESSAGE_NUMBER 0xF0000003 00000007 | 4 pad octets.
  const hex = '10010502 00120042 02001001 0000000e 12340001 f0000003 00000007 00000000';
  const m = decode(hex);
  assert.ok(m.command === 'STATUS');
  assert.equal(m.contextSpecificData.length, 16);
  assert.equal(m.streamProtocol?.protoID, 0x1234);
  assert.deepEqual(m.streamProtocol.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER']);
  const built = smpStatus({ cos: 5, sourceID: 0x12, streamID: 0x42, mailbox: 2, status: 0xe, streamProtocol: { protoID: 0x1234, attributes: [attrOpenMessageNumber(7)] } });
  assert.equal(toHex(smpBytes(built)), flat(hex));
});

test('Annex 2 §4.2.8: context-specific data that is not a ProtoID and attributes is kept, and rejected strictly', () => {
  // DataSize 1: ProtoID 0x1234 | numAttributes 5, but only 4 octets follow.
  const hex = '10010501 00120042 02001001 0000000e 12340005 00000000';
  fails(hex, 'truncated', 20);
  const m = decode(hex, false);
  assert.ok(m.command === 'STATUS');
  assert.equal(m.streamProtocol, undefined);
  assert.equal(toHex(m.contextSpecificData), '1234000500000000');
});

test('Annex 2 §4.2.8, Figure 3-4: Command_Unknown quotes the original command in the context-specific data', () => {
  // <BAD CMD> 0x33 with random contents 01 DE AD BE EF, zero-padded to one 8-octet word:
  //   Word 2: Mailbox 0x02 | Reserved | CmdID 0x33 | CmdVersion 0x01; Word 3: Command Unknown 0x40000000
  const hex = '10010501 00120042 02003301 40000000 3301dead beef0000';
  const m = decode(hex);
  assert.ok(m.command === 'STATUS');
  assert.deepEqual([m.cmdIDName, m.statusFlags], ['UNKNOWN', ['COMMAND_UNKNOWN']]);
  assert.equal(m.quotedCommand?.command, 'UNKNOWN');
  assert.equal(m.quotedCommand.cmd, 0x33);
  const built = smpStatus({ cos: 5, sourceID: 0x12, streamID: 0x42, mailbox: 2, status: 0, quote: parseHex('3301deadbeef') });
  assert.equal(toHex(smpBytes(built)), flat(hex));
});

test('Annex 2 §4.2.8: a quoted command that decodes leniently is shown decoded', () => {
  // The quoted FLOW_CONTROL has the undefined Flow_Control 0x02: DataSize 2.
  const bad = smpFlowControl({ flowControl: 2, sourceID: 1, streamID: 2, protoID: 0x0102 });
  const m = smpStatus({ sourceID: 1, streamID: 2, status: ['COMMAND_UNKNOWN'], quote: bad });
  assert.deepEqual([m.cmdID, m.cmdVersion, m.contextSpecificData.length], [7, 1, 16]);
  const b = smpBytes(m);
  const d = decodeSmp(b, 0, b.length, { strict: true });
  assert.ok(d.command === 'STATUS');
  assert.deepEqual(d.quotedCommand, bad);
  assert.deepEqual(d, m);
});

test('Annex 2 §4.2.8 Table 4-9: DataSize counts 8-octet words that must be present', () => {
  const b = parseHex('10010502 00120042 02001001 00000000 00000000');
  assert.throws(() => decodeSmp(b, 0, b.length), (e: unknown) => e instanceof WireError && e.code === 'truncated' && e.offset === 16);
});

test('Annex 2 §3.8.5, §4.2.8 Table 4-9: the Reserved octet of STATUS must be zero', () => {
  fails('10010500 00120042 02011001 00000002', 'reserved', 9);
});
