import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEngine } from '../../src/cli/model/describe.ts';
import { loadEngine } from '../../src/cli/model/engines.ts';
import { riodp } from '../support/spawn.ts';
import { configure, drive } from './model-drive.ts';
import { jsonLines, lines } from './output.ts';
import type { JsonLine as Line } from './output.ts';
import { tempFiles, trace } from './traces.ts';

/**
 * `riodp model smp` (docs/model.md; Annex 2 session management): the CLI run from source where its
 * own behaviour is under test (exit codes, stderr, --until, decode --json agreement), the driver in
 * process elsewhere. Node 1 is the figures' Source (mailbox 1), node 2 their Dest (mailbox 2).
 */

const newFile = tempFiles('riodp-model-smp-');
const file = (v: unknown): string => newFile(JSON.stringify(v), 'json');

const PROTO = 0x1234;
const ATTRS = [{ name: 'REQUEST_RETRY_PERIOD', microseconds: 100_000 }, { name: 'REQUEST_TIMEOUT_PERIOD', microseconds: 800_000 }];
const DEST = { nodeId: 2, contact: { conveyance: 'type11', mailbox: 2 }, protocols: [{ protoID: PROTO, attributes: ATTRS }] };
const SOURCE = { nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 } };
/** Table 4-4: OPEN_MESSAGE_NUMBER 1, then the advertised attributes (docs/cli.md's encoding). */
const OPEN = { command: 'OPEN', sourceID: 1, protoID: PROTO, attributes: [{ name: 'OPEN_MESSAGE_NUMBER', openMessageNumber: 1 }, ...ATTRS] };
const OPEN_HEX = '0301000112340003f000000300000001f0000000000186a0f0000001000c3500';
/** The first receive stream node 2 assigns (stream-ids.ts streamIdStart(2)). */
const SID = 0x1362;
const FROM_SOURCE = { t: 0, kind: 'contact', node: 1, advertisement: '0x00000001' };

const sends = (out: readonly Line[]): { to: number; priority: string; message: Line; hex: string }[] =>
  out.filter((o) => o['kind'] === 'send') as unknown as { to: number; priority: string; message: Line; hex: string }[];
/** Event lines without `t` and `kind`. */
const events = (out: readonly Line[]): Line[] => out.filter((o) => o['kind'] === 'event').map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 't' && k !== 'kind')));

test('docs/model.md: riodp model --help lists smp; --describe lists its config fields with their defaults in ns (Annex 2 §3.5.3.4–§3.5.3.6, §4.2.6) and its input kinds', async () => {
  const help = riodp(['model', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^ {2}smp {2,}session management end point: .*Annex 2/m);
  assert.match(help.stdout, /golden model, or an\s+Annex\s+2\s+session\s+management\s+end\s+point:/);
  const d = describeEngine(await loadEngine('smp'));
  assert.match(d, /^ {2}retryPeriod +integer ns > 0; default 250000000$/m);
  assert.match(d, /^ {2}timeoutPeriod +integer ns > 0; default 1000000000$/m);
  assert.match(d, /^ {2}xonTimeout +integer ns > 0; default 1000000000$/m);
  assert.match(d, /^ {2}rtsRetry +integer ns > 0; default 250000000$/m);
  assert.match(d, /^ {2}nodeId +device ID \(fits deviceIdBits\); default required$/m);
  for (const kind of ['message', 'pdu', 'contact', 'request', 'open', 'close', 'status-query', 'verify', 'send', 'broadcast', 'xoff', 'xon', 'userdefined']) {
    assert.match(d, new RegExp(`^ {2}${kind} +\\S`, 'm'), kind);
  }
});

test('riodp model smp: the header\'s effective config fills every types.ts default, protocol attributes as riodp decode --layer smp --json prints them (hex or object given)', async () => {
  const r = await configure('smp', { ...DEST, protocols: [{ protoID: PROTO, attributes: ['f0000000000186a0', ATTRS[1]] }] });
  assert.deepEqual(r, { ok: true, effective: {
    nodeId: 2, deviceIdBits: 16, contact: { conveyance: 'type11', mailbox: 2 },
    protocols: [{ protoID: PROTO, attributes: [
      { name: 'REQUEST_RETRY_PERIOD', id: 0xf0000000, idBits: 32, value: '000186a0', microseconds: 100_000 },
      { name: 'REQUEST_TIMEOUT_PERIOD', id: 0xf0000001, idBits: 32, value: '000c3500', microseconds: 800_000 },
    ], understood: [], singleSession: false, acceptOpen: true, cos: 0, data2Octet: 0 }],
    requestAdvertise: true, validation: false, retryPeriod: 250_000_000, timeoutPeriod: 1_000_000_000, xonTimeout: 1_000_000_000,
    rtsRetry: 250_000_000, rtsLimit: 1_000_000_000, conduitRole: 'peers', userDefined: [], reverifyOnStreamUnknown: true,
    maxPendingPdus: 64, dataMailboxes: [], multicast: false, type11SegmentSize: 256,
  } });
});

test('docs/model.md config errors (smp): exit 2 with nothing on stdout, one line per bad field naming its path and what was expected', async () => {
  const r = riodp(['model', 'smp', '--config', file({
    nodeId: 300, deviceIdBits: 8, contact: { conveyance: 'type12' },
    protocols: [{ protoID: PROTO, attributes: [{ name: 'MTU', mtu: 1500 }, 'f00000000001'] }, { protoID: PROTO, cos: 256 }],
    retryPeriod: 0, extra: 1,
  })], '{"t":0}\n');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(lines(r.stderr), [
    'riodp: config.contact.conveyance: expected one of type11, type9',
    // DECISIONS §7: an attribute ID means what the protocol says; 0x8002 is MTU under Ethernet only.
    'riodp: config.protocols.0.attributes.0.name: MTU is not an attribute of ProtoID 0x1234: ID 0x8002 is PROTOCOL_SPECIFIC there (DECISIONS §7)',
    'riodp: config.protocols.0.attributes.1: expected an attribute of 8 octets (§3.5.3), got 6',
    'riodp: config.protocols.1.cos: expected an integer 0..255',
    'riodp: config.retryPeriod: expected an integer >= 1',
    'riodp: config.extra: unknown field',
    'riodp: config.nodeId: expected a device ID 0..255 (deviceIdBits 8)',
    'riodp: config.protocols.1.protoID: expected a protocol not listed already (protocols.0)',
  ]);
  assert.deepEqual(await configure('smp', {}), { ok: false, errors: [
    'config.nodeId: missing, expected an integer 0..65535',
    "config.contact: missing, expected {conveyance: 'type11', mailbox} or {conveyance: 'type9', streamID, cos}",
  ] });
  // §3.5.3.1: a VENDOR value of neither OUI nor NAME format is refused (config files are read strictly); §3.5.2.3: 0xFFFF is no protocol.
  assert.deepEqual(await configure('smp', { ...SOURCE, protocols: [{ protoID: 0x0101, attributes: ['0000000000000001', { name: 'REQUEST_RETRY_PERIOD', microseconds: 5, value: '00000006' }] }, { protoID: 0xffff }] }), { ok: false, errors: [
    'config.protocols.0.attributes.0: value is neither OUI format (last four octets zero) nor NAME format (seven non-zero octets), Annex 2 §3.5.3.1',
    'config.protocols.0.attributes.1.microseconds: microseconds 5 disagrees with the raw fields, which give 6',
    'config.protocols.1.protoID: expected an integer 0..65534',
  ] });
  // Part 2 mailboxes are 0-63 and segments 8-256 bytes; §6.2: vendor-defined protocols (0x0101) may repeat, told apart by VENDOR and PROTOCOL_NAME.
  assert.deepEqual(await configure('smp', { nodeId: 1, contact: { conveyance: 'type11', mailbox: 64 }, dataMailboxes: [70], type11SegmentSize: 100 }), { ok: false, errors: [
    'config.contact.mailbox: expected an integer 0..63',
    'config.dataMailboxes.0: expected an integer 0..63',
    'config.type11SegmentSize: expected one of 8, 16, 32, 64, 128, 256',
  ] });
  assert.deepEqual(await configure('smp', { ...SOURCE, protocols: [{ protoID: 0x0101 }, { protoID: 0x0101 }] }), { ok: false, errors: [
    'config: protocols[0].attributes must carry VENDOR and PROTOCOL_NAME to stand beside another vendor-defined protocol (Annex 2 §6.2)',
  ] });
  const vendor = (name: string): unknown => ({ protoID: 0x0101, attributes: [{ name: 'VENDOR', oui: 0x00a01e }, { name: 'PROTOCOL_NAME', value: Buffer.from(name).toString('hex') }] });
  assert.equal((await configure('smp', { ...SOURCE, protocols: [vendor('PROTO_A'), vendor('PROTO_B')] })).ok, true);
});

test('docs/model.md bad lines (smp): one stderr line each naming the field, the run goes on with the next line (exit 1)', () => {
  const r = riodp(['model', 'smp', '--config', file(DEST)], trace([
    { t: 0, kind: 'message', from: 1 },
    { t: 0, kind: 'message', from: 1, bytes: 'zz' },
    { t: 0, kind: 'message', from: 1, bytes: '00', message: {} },
    { t: 0, kind: 'message', from: 1, message: { command: 'CLOSE', sourceID: 1 } },
    { t: 0, kind: 'open', to: 2, protoID: PROTO },
    { t: 0, kind: 'open', to: 2, protoID: 0x0102, ref: 'a', attributes: [{ name: 'DATA_OFFSET', offset: 1 }] },
    { t: 0, kind: 'close', stream: { remote: 1, direction: 'up', streamID: 1 } },
    { t: 0, kind: 'userdefined', to: 1, cmd: 5, streamID: 0, data: '' },
    { t: 0, kind: 'contact', node: 1, advertisement: 1, cos: 3 },
    { t: 0, kind: 'timer', name: 'retry:open/1' },
    { t: 0, kind: 'route' },
    // A good line after the bad ones: Annex 2 §3.8.3, DATA for a stream not open is answered Stream_Unknown.
    FROM_SOURCE,
    { t: 5, kind: 'message', from: 1, message: { command: 'DATA', mailbox: 2, sourceID: 1, streamID: 7, payload: '00' } },
  ]));
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.deepEqual(lines(r.stderr), [
    'riodp: line 1: missing, expected bytes (hex) or message (an object as riodp decode --layer smp --json prints it) (bytes)',
    "riodp: line 2: 'z' is not a hex digit, byte 0 (bytes)",
    'riodp: line 3: expected bytes or message, not both (message)',
    'riodp: line 4: destID is required (message.destID)',
    'riodp: line 5: missing, expected a string (ref)',
    'riodp: line 6: DATA_OFFSET is not an attribute of ProtoID 0x0102: ID 0x8003 is MAC_ADDRESS there (DECISIONS §7) (attributes.0.name)',
    'riodp: line 7: expected one of tx, rx (stream.direction)',
    'riodp: line 8: expected an integer 240..255 (cmd)',
    'riodp: line 9: cos goes with a componentTag word only (the other forms carry their own) (cos)',
    'riodp: line 10: timers are fired by the driver, not given as input (kind)',
    'riodp: line 11: expected one of message, pdu, contact, request, open, close, status-query, verify, send, broadcast, xoff, xon, userdefined, query (kind)',
  ]);
  const [status] = sends(jsonLines(r.stdout));
  assert.deepEqual([status?.message['statusFlags'], status?.message['streamID'], status?.message['cmdIDName']], [['STREAM_UNKNOWN', 'CLOSED'], 7, 'DATA']);
});

test('Annex 2 §4.2.3, docs/model.md: a message given as hex and as its riodp decode --layer smp --json object gives the same output; a send line\'s message is what decode --json prints for its hex', async () => {
  const object = JSON.parse(lines(riodp(['decode', '--layer', 'smp', '--json', OPEN_HEX]).stdout)[0] ?? '{}') as unknown;
  const run = async (m: Line): Promise<Line[]> => {
    const r = await drive('smp', DEST, [FROM_SOURCE, { t: 10, kind: 'message', from: 1, mailbox: 2, ...m }, { t: 20, kind: 'query' }]);
    assert.deepEqual(r.err, []);
    return r.out;
  };
  const asHex = await run({ bytes: OPEN_HEX });
  assert.deepEqual(await run({ message: object }), asHex);
  assert.deepEqual(await run({ message: OPEN }), asHex, 'labels stand for the raw fields, as riodp encode --layer smp reads them');
  const [accept] = sends(asHex);
  assert.ok(accept);
  const decoded = JSON.parse(lines(riodp(['decode', '--layer', 'smp', '--json', accept.hex]).stdout)[0] ?? '{}') as unknown;
  assert.deepEqual(accept.message, decoded);
  assert.equal(accept.message['streamID'], SID);
});

test('Annex 2 §3.5.3, DECISIONS §7: attributes of a command given as 16 hex digits or as objects reach the engine alike, read under the command\'s ProtoID', async () => {
  const open = (attributes: unknown[]): Promise<{ out: Line[]; err: string[] }> =>
    drive('smp', SOURCE, [{ t: 0, kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, { t: 1, kind: 'open', to: 2, protoID: 0x0102, ref: 'eth', attributes }]);
  // §7.2: MTU (ID 0x8002, the lowest two of six octets: 1500 = 0x05dc), MAC_ADDRESS (ID 0x8003 under Ethernet, six octets).
  const asHex = await open(['80020000000005dc', '800300a01e010203']);
  const asObjects = await open([{ name: 'MTU', mtu: 1500 }, { name: 'MAC_ADDRESS', macAddress: '00a01e010203' }]);
  assert.deepEqual(asHex.err, []);
  assert.deepEqual(asObjects, asHex);
  const [m] = sends(asHex.out);
  assert.deepEqual((m?.message['attributes'] as Line[]).map((a) => a['name']), ['OPEN_MESSAGE_NUMBER', 'MTU', 'MAC_ADDRESS']);
  // §3.5.3 "All attribute ID ranges not explicitly assigned ... are reserved and must not be used": 8-bit ID 0x10 under Ethernet.
  const reserved = ['10000000000000ff'];
  assert.deepEqual((await open(reserved)).err, ['line 2: attribute ID 0x10 is reserved and must not be used, Annex 2 §3.5.3 Table 3-2 (attributes.0)']);
  const lenient = await drive('smp', SOURCE, [{ t: 0, kind: 'contact', node: 2, advertisement: 2 }, { t: 1, kind: 'open', to: 2, protoID: 0x0102, ref: 'eth', attributes: reserved }], { lenient: true });
  assert.deepEqual(lenient.err, []);
  assert.deepEqual((sends(lenient.out)[0]?.message['attributes'] as Line[]).map((a) => a['name']), ['OPEN_MESSAGE_NUMBER', 'RESERVED']);
});

test('Annex 2 §3.5.2.2, §7.3.2.1: with deviceIdBits 8 every device ID of an input line must fit 8 bits', async () => {
  const r = await drive('smp', { ...SOURCE, deviceIdBits: 8 }, [
    { t: 0, kind: 'message', from: 0x100, bytes: '00' },
    { t: 0, kind: 'contact', node: 0x1ff, advertisement: 2 },
    { t: 0, kind: 'close', stream: { remote: 0x100, direction: 'tx', streamID: 1 } },
    { t: 0, kind: 'broadcast', frame: '00', members: [2, 0x300] },
    { t: 0, kind: 'contact', node: 0xff, advertisement: 2 },
  ]);
  assert.deepEqual(r.err, [
    'line 1: expected a device ID 0..255 (deviceIdBits 8) (from)',
    'line 2: expected a device ID 0..255 (deviceIdBits 8) (node)',
    'line 3: expected a device ID 0..255 (deviceIdBits 8) (stream.remote)',
    'line 4: expected a device ID 0..255 (deviceIdBits 8) (members.1)',
  ]);
  const s = await drive('smp', { ...SOURCE, deviceIdBits: 8 }, [{ t: 0, kind: 'contact', node: 0xff, advertisement: 2 }, { t: 1, kind: 'query' }]);
  assert.deepEqual((s.out.find((o) => o['kind'] === 'state') as { state: { contacts: unknown } } | undefined)?.state.contacts, [{ node: 0xff, contact: { conveyance: 'type11', mailbox: 2 } }]);
});

test('Annex 2 §3.7.1: an unanswered OPEN is sent again every REQUEST_RETRY_PERIOD (250 ms) and judged failed after REQUEST_TIMEOUT_PERIOD (1 s), its target suspect (riodp model --until)', () => {
  const r = riodp(['model', 'smp', '--config', file(SOURCE), '--until', '2000000000'], trace([
    { t: 0, kind: 'contact', node: 2, advertisement: 2 },
    { t: 1000, kind: 'open', to: 2, protoID: PROTO, ref: 'lost' },
  ]));
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const out = jsonLines(r.stdout);
  assert.deepEqual(sends(out).map((s) => [s.message['command'], s.hex]), Array.from({ length: 4 }, () => ['OPEN', '0301000112340001f000000300000001']));
  assert.deepEqual(out.filter((o) => o['kind'] === 'send').map((o) => o['t']), [1000, 250_001_000, 500_001_000, 750_001_000]);
  assert.deepEqual(out.filter((o) => o['kind'] === 'event'), [
    { t: 1_000_001_000, kind: 'event', event: 'timeout', node: 2, command: 'OPEN', ref: 'lost' },
    { t: 1_000_001_000, kind: 'event', event: 'suspect', node: 2, reason: 'OPEN timed out' },
  ]);
  assert.deepEqual(out.at(-1)?.['t'], 2_000_000_000);
  assert.deepEqual(out.at(-1)?.['pending'], []);
});

test('Annex 2 §3.8.5: in validation mode a non-zero reserved field rejects the message, its sender becomes suspect and gets STATUS Command_Unknown; without validation the CLOSE is answered Closed', async () => {
  // Table 4-8: octet 7 of CLOSE is Reserved.
  const close = { t: 10, kind: 'message', from: 1, mailbox: 2, message: { command: 'CLOSE', sourceID: 1, destID: 2, streamID: SID, rsrv: 1 } };
  const v = await drive('smp', { ...DEST, validation: true }, [FROM_SOURCE, close]);
  assert.deepEqual(v.err, []);
  assert.deepEqual(events(v.out).map((e) => e['event']), ['suspect', 'malformed']);
  assert.deepEqual(sends(v.out).map((s) => [s.priority, s.message['statusFlags'], s.message['cmdIDName']]), [['high', ['COMMAND_UNKNOWN'], 'CLOSE']]);
  const n = await drive('smp', DEST, [FROM_SOURCE, close]);
  assert.deepEqual(events(n.out), []);
  assert.deepEqual(sends(n.out).map((s) => [s.priority, s.message['statusFlags'], s.message['cmdIDName']]), [['high', ['CLOSED'], 'CLOSE']]);
});

test('Annex 2 §3.3, §5.2.3 Table 5-3, §5.3 Table 5-6: a contact read from the Advertisement CSR or the Component Tag CSR is the contact its fields give; a node that does not participate is a bad line', async () => {
  const contacts = async (lines: readonly unknown[], lenient = false): Promise<{ state: unknown; err: string[] }> => {
    const r = await drive('smp', SOURCE, [...lines, { t: 9, kind: 'query' }], { lenient });
    const s = r.out.find((o) => o['kind'] === 'state') as { state: { contacts: unknown } } | undefined;
    return { state: s?.state.contacts, err: r.err };
  };
  const want = [
    { node: 2, contact: { conveyance: 'type11', mailbox: 2 } },
    { node: 3, contact: { conveyance: 'type9', streamID: 0xf0f0, cos: 5 } },
    { node: 4, contact: { conveyance: 'type11', mailbox: 7 } },
    { node: 5, contact: { conveyance: 'type9', streamID: 0xfff0, cos: 3 } },
  ];
  // Table 5-3: Conveyance 0x0 | mailbox nn; 0x1 | cc (COS) | ssss (StreamID). Table 5-6 (DECISIONS §7): bit 0 Sess_Mgmt_Sup,
  // bits 1-2 Sess_Mgmt_Chan, bits 3-15 Chan_Info: 0b1_00_00000_00000111 = 0x8007 (mailbox 7);
  // 0b1_01_1_0000_11110000 = 0xb0f0 (x = 1: StreamID MSB 0xFF, LSB 0xF0), the word's upper half.
  const fromWords = await contacts([
    { t: 0, kind: 'contact', node: 2, advertisement: '0x00000002' },
    { t: 0, kind: 'contact', node: 3, advertisement: 0x1005f0f0 },
    { t: 0, kind: 'contact', node: 4, componentTag: '0x80070000' },
    { t: 0, kind: 'contact', node: 5, componentTag: 0xb0f00000, cos: 3 },
  ]);
  const fromObjects = await contacts(want.map((c) => ({ t: 0, kind: 'contact', ...c })));
  assert.deepEqual(fromWords, { state: want, err: [] });
  assert.deepEqual(fromObjects, fromWords);
  const refused = await contacts([
    { t: 0, kind: 'contact', node: 2, advertisement: 0xf0000000 },
    { t: 0, kind: 'contact', node: 2, componentTag: 0 },
    { t: 0, kind: 'contact', node: 2, advertisement: '0x00000102' },
    { t: 0, kind: 'contact', node: 2, advertisement: 0x30000002 },
  ]);
  assert.deepEqual(refused, { state: [], err: [
    'line 1: no contact: Conveyance 0xF, Not Supported, Annex 2 §5.2.3 Table 5-3 (advertisement.conveyance)',
    'line 2: no contact: Sess_Mgmt_Sup is 0, "the node does not conform to this specification", Annex 2 §5.3 (componentTag.sessMgmtSup)',
    'line 3: reserved bits 0x00000100 are not 0, Annex 2 §5.2.3 Table 5-3 (advertisement.conveyanceInfo)',
    'line 4: conveyance 0x3 is reserved, Annex 2 §5.2.3 Table 5-3 (advertisement.conveyance)',
  ] });
  // --lenient: the non-zero bits of the zero part are ignored; a reserved conveyance still names no contact.
  const lenient = await contacts([{ t: 0, kind: 'contact', node: 2, advertisement: '0x00000102' }, { t: 0, kind: 'contact', node: 3, advertisement: 0x30000002 }], true);
  assert.deepEqual(lenient, { state: [{ node: 2, contact: { conveyance: 'type11', mailbox: 2 } }], err: ['line 2: no contact: Conveyance 0x3 is reserved, Annex 2 §5.2.3 Table 5-3 (advertisement.conveyance)'] });
});

test('Annex 2 §4.2.1–§4.2.9, §7.3.2.2: every application command of types.ts reaches the engine; send lines carry the §3.7.2 priority', async () => {
  const stream = { remote: 1, direction: 'rx', streamID: SID };
  const r = await drive('smp', { ...DEST, protocols: [...DEST.protocols, { protoID: 0x0102 }] }, [
    FROM_SOURCE,
    { t: 10, kind: 'message', from: 1, mailbox: 2, bytes: OPEN_HEX },
    { t: 20, kind: 'xoff', stream },
    { t: 21, kind: 'xon', stream },
    { t: 22, kind: 'status-query', stream },
    { t: 23, kind: 'request', to: 1 },
    { t: 24, kind: 'userdefined', to: 1, cmd: 0xf3, streamID: SID, data: '0102030405060708' },
    { t: 25, kind: 'broadcast', frame: 'ffffffffffff00a01e0102030800', members: [1] },
    { t: 26, kind: 'send', stream: { remote: 1, direction: 'tx', streamID: 9 }, pdu: '00' },
    { t: 27, kind: 'close', stream },
    { t: 28, kind: 'verify', node: 1 },
    { t: 29, kind: 'open', to: 1, protoID: PROTO, ref: 'back' },
  ]);
  assert.deepEqual(r.err, []);
  const story = sends(r.out).map((s) => {
    const m = s.message;
    const what = m['command'] === 'FLOW_CONTROL' ? m['flowControlName'] : m['command'] === 'STATUS' ? (m['statusFlags'] as string[]).join('|') : m['command'];
    return `${s.priority} ${String(m['command'])} ${String(what)}`;
  });
  assert.deepEqual(story, [
    'high ACCEPT ACCEPT',
    'high FLOW_CONTROL XOFF',
    'high FLOW_CONTROL XON',
    'high STATUS STREAM_FUNCTIONAL|READY_TO_RECEIVE|REQUEST_STATUS_OF_REMOTE',
    'normal REQUEST REQUEST',
    'normal USERDEFINED USERDEFINED',
    'normal DATA DATA',
    'high CLOSE CLOSE',
    'normal OPEN OPEN',
  ]);
  // §7.3.2.2 "The reserved StreamID value 0xF000 may be used for transmission of broadcast traffic".
  assert.equal(sends(r.out)[6]?.message['streamID'], 0xf000);
  assert.deepEqual(events(r.out).filter((e) => e['event'] === 'dropped'), [{ event: 'dropped', reason: 'unknown-stream', node: 1, stream: { remote: 1, direction: 'tx', streamID: 9 } }]);
});

test('Annex 2 §3.3, §4.3.4: a pdu on the advertised Type 9 management stream is a management message; on another stream it is data (DATA3)', async () => {
  const t9 = { nodeId: 2, contact: { conveyance: 'type9', streamID: 0xf0f0, cos: 5 }, protocols: [{ protoID: PROTO }] };
  // Table 4-1: CMD 0x01, VER 0x01, SourceID 0x0001 | DestID 0x0002, COS 0, Reserved | ProtoID 0x1234, NumAttrib 0 | Reserved.
  const request = '01010001000200001234000000000000';
  const r = await drive('smp', t9, [
    { t: 0, kind: 'contact', node: 1, contact: { conveyance: 'type9', streamID: 0xf0f1, cos: 5 } },
    { t: 1, kind: 'pdu', from: 1, streamID: 0xf0f0, cos: 5, pdu: request },
    { t: 2, kind: 'pdu', from: 1, streamID: 0x0042, cos: 5, pdu: '00112233' },
  ]);
  assert.deepEqual(r.err, []);
  assert.deepEqual(sends(r.out).map((s) => [s.message['command'], s.message['cmdIDName'] ?? null]), [['ADVERTISE', null], ['STATUS', 'UNKNOWN']]);
  // §4.3.4 DATA3 "can be considered as CMD=0x0B": the Stream_Unknown STATUS names it.
  assert.equal(sends(r.out)[1]?.message['cmdID'], 0x0b);
});

test('docs/model.md query (smp): the state line is the engine snapshot (contacts, streams, pending requests) with its counters', async () => {
  const r = await drive('smp', DEST, [FROM_SOURCE, { t: 10, kind: 'message', from: 1, mailbox: 2, message: OPEN }, { t: 11, kind: 'status-query', stream: { remote: 1, direction: 'rx', streamID: SID } }, { t: 12, kind: 'query' }]);
  const s = r.out.find((o) => o['kind'] === 'state') as { t: number; state: { contacts: unknown; streams: Line[]; pending: Line[] }; counters: Line } | undefined;
  assert.ok(s);
  assert.equal(s.t, 12);
  assert.deepEqual(s.state.contacts, [{ node: 1, contact: { conveyance: 'type11', mailbox: 1 } }]);
  assert.deepEqual(s.state.streams.map((x) => [x['remote'], x['direction'], x['streamID'], x['protoID']]), [[1, 'rx', SID, PROTO]]);
  // §3.7.1: the query waits for its answer at the stream's negotiated REQUEST_RETRY_PERIOD (100 ms) and REQUEST_TIMEOUT_PERIOD (800 ms).
  assert.deepEqual(s.state.pending.map((p) => [p['command'], p['to'], p['deadline']]), [['STATUS', 1, 11 + 800_000_000]]);
  assert.deepEqual(r.out.filter((o) => o['kind'] === 'timer'), [{ t: 11, kind: 'timer', name: `retry:status/1/rx/${SID}`, at: 11 + 100_000_000 }]);
  assert.equal(s.counters['messagesIn'], 1);
  assert.equal(s.counters['messagesOut'], 2);
});
