import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../../wire/errors.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { decodeSmp, smpBytes } from '../../wire/smp/index.ts';
import { toJsonValue } from './common.ts';
import { smpFromJson } from './smp.ts';

const flat = (hex: string): string => hex.replace(/ /g, '');
const encodeJson = (json: unknown): string => toHex(smpBytes(smpFromJson(json)));
function rejects(json: unknown, field: string): void {
  assert.throws(
    () => smpFromJson(json),
    (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.field === field,
  );
}

/** The Chapter 4 golden vectors of the wire tests (see the *.test.ts files in src/wire/smp). */
const GOLDEN = [
  '01010012 00340500 ffff0000 00000000',
  '02010034 00128002 01010102 00000000',
  '02010034 0012c002 01020001 80020000 000005dc 01010002 0000a01e 00000000 0150524f 544f0000',
  '03010012 01020004 f0000003 00000007 80020000 000005dc 80010001 00000002 800300a0 1e010203',
  '04010034 00050042 01020001 f0000003 00000007 00000000',
  '05010034 00ffffff 01020001 f0000003 00000007 00000000',
  '07010501 00120042 01020000 00000000',
  '08010012 00340500 00420000 00000000',
  '10010500 00120042 02001001 8000000e',
  '10010502 00120042 02001001 0000000e 12340001 f0000003 00000007 00000000',
  '10010501 00120042 02003301 40000000 3301dead beef0000',
  'f3010500 00120042 01020304 05060708',
  '06010205 00000012 c0050042 68656c6c 6f000000 00000000',
  '09010205 00000012 80000003 00420000 61626300 00000000',
  '0a5ac004 01020304',
];

test('docs/cli.md: what riodp decode --json prints encodes back to the same octets', () => {
  for (const hex of GOLDEN) {
    const b = parseHex(hex);
    const json: unknown = JSON.parse(JSON.stringify(toJsonValue(decodeSmp(b, 0, b.length, { strict: true }))));
    assert.equal(encodeJson(json), flat(hex), hex);
  }
});

test('docs/cli.md: labels alone are enough (command, protocol, attribute names and meanings)', () => {
  const open = {
    command: 'OPEN',
    sourceID: 0x12,
    protocol: 'ETHERNET',
    attributes: [
      { name: 'OPEN_MESSAGE_NUMBER', openMessageNumber: 7 },
      { name: 'MTU', mtu: 1500 },
      { name: 'CONVEYANCE', channelName: 'MESSAGE', mailbox: 2 },
      { name: 'MAC_ADDRESS', macAddress: '00:a0:1e:01:02:03' },
    ],
  };
  assert.equal(encodeJson(open), flat(GOLDEN[3] ?? ''));
  assert.equal(encodeJson({ command: 'FLOW_CONTROL', flowControlName: 'XON', cos: 5, sourceID: 0x12, streamID: 0x42, protocol: 'ETHERNET' }), flat(GOLDEN[6] ?? ''));
  assert.equal(
    encodeJson({ command: 'STATUS', cos: 5, sourceID: 0x12, streamID: 0x42, mailbox: 2, statusFlags: ['STREAM_FUNCTIONAL', 'READY_TO_RECEIVE', 'DATA_READY_TO_SEND', 'REQUEST_STATUS_OF_REMOTE'] }),
    flat(GOLDEN[8] ?? ''),
  );
  assert.equal(encodeJson({ command: 'ADVERTISE', variant: 'PROTOCOL_LIST', sourceID: 0x34, destID: 0x12, protocols: [{ protocol: 'VENDOR_DEFINED' }, { protocol: 'ETHERNET' }] }), flat(GOLDEN[1] ?? ''));
  assert.equal(encodeJson({ command: 'DATA2', implementationSpecific: 0x5a, segment: 'SINGLE', payload: '01020304' }), flat(GOLDEN[14] ?? ''));
  assert.equal(
    encodeJson({ command: 'STATUS', cos: 5, sourceID: 0x12, streamID: 0x42, mailbox: 2, quotedCommand: { command: 'UNKNOWN', cmd: 0x33, data: '01deadbeef' } }),
    flat(GOLDEN[10] ?? ''),
  );
});

test('docs/cli.md: raw fields alone are enough (cmd, ver, protoID, attribute id and value)', () => {
  const json = { cmd: 4, ver: 1, destID: 0x34, ackType: 0, cos: 5, streamID: 0x42, protoID: 0x0102, attributes: [{ id: 0xf0000003, value: '00000007' }] };
  assert.equal(encodeJson(json), flat(GOLDEN[4] ?? ''));
});

test('docs/cli.md, DECISIONS §7: attribute labels are checked under the message ProtoID', () => {
  // 0x8003 is DATA_OFFSET outside Ethernet.
  rejects({ command: 'OPEN', sourceID: 1, protoID: 0x1234, attributes: [{ name: 'MAC_ADDRESS', id: 0x8003, value: '000000000000' }] }, 'attributes.0.name');
  const m = smpFromJson({ command: 'OPEN', sourceID: 1, protoID: 0x1234, attributes: [{ name: 'DATA_OFFSET', offset: 4 }] });
  assert.ok(m.command === 'OPEN');
  assert.equal(m.attributes[0]?.name, 'DATA_OFFSET');
});

test('docs/cli.md: a label that disagrees with its raw field is an error naming the field', () => {
  rejects({ command: 'OPEN', cmd: 4, destID: 1, streamID: 1, protoID: 1 }, 'command');
  rejects({ command: 'FLOW_CONTROL', flowControl: 1, flowControlName: 'XOFF', sourceID: 1, streamID: 1, protoID: 1 }, 'flowControlName');
  rejects({ command: 'CLOSE', ver: 2, version: 'V1', sourceID: 1, destID: 1, streamID: 1 }, 'version');
  rejects({ command: 'STATUS', sourceID: 1, streamID: 1, status: 2, statusFlags: ['CLOSED'] }, 'statusFlags');
  rejects({ command: 'OPEN', sourceID: 1, protoID: 0x1234, attributes: [{ id: 0xf0000003, value: '00000007', openMessageNumber: 8 }] }, 'attributes.0.openMessageNumber');
  rejects({ command: 'DATA', sourceID: 1, streamID: 2, payload: '00', segment: 'START', s: 1, e: 1 }, 'segment');
});

test('docs/cli.md: fields that do not apply, unknown keys and missing required fields are errors', () => {
  rejects({ command: 'CLOSE', sourceID: 1, destID: 1, streamID: 1, protoID: 5 }, 'protoID');
  rejects({ command: 'CLOSE', sourceID: 1, destID: 1, streamID: 1, bogus: 1 }, 'json');
  rejects({ command: 'CLOSE', sourceID: 1, destID: 1 }, 'streamID');
  rejects({ command: 'USERDEFINED', sourceID: 1, streamID: 1 }, 'cmd');
  rejects({ command: 'OPEN', sourceID: 1, protocol: 'OTHER' }, 'protoID');
  rejects({ command: 'OPEN', sourceID: 1, protoID: 1, attributes: [{ name: 'VENDOR_SPECIFIC', id: 0xef00 }] }, 'attributes.0.value');
});
