import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHex } from '../../src/wire/hex.ts';
import { attrDataHeaderFormat, attrPeriod, smpBytes, smpOpen } from '../../src/wire/smp/index.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { riodp } from '../support/spawn.ts';
import { errorLines, jsonLines, lines } from './output.ts';
import { serialHex, transportHex } from './vectors.ts';

const OPEN = smpBytes(smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 7, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 100_000)] }));

/** A Type 11 MESSAGE from 1 to 2 (Dev16), mailbox 2, letter 1. */
function message(payload: Uint8Array, over: Partial<{ msglen: number; msgseg: number }> = {}): Packet {
  const multi = (over.msglen ?? 0) > 0;
  // Part 2 Table 4-4: ssize 0b1001 is 8 bytes, … 0b1110 256; a single packet's payload fits its ssize.
  const ssize = multi ? 14 : 9 + Math.max(0, Math.ceil(Math.log2(payload.length / 8)));
  return {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 11, destinationID: 2, sourceID: 1, msglen: over.msglen ?? 0, ssize, letter: 1, mbox: 2,
    ...(multi ? { msgseg: over.msgseg ?? 0 } : { xmbox: 0 }), segmentSize: 8 << (ssize - 9), mailbox: 2, payload,
  };
}

/** A single Type 9 segment (S = E = 1) on stream 0x42, cos 3, from 1 to 2 (Dev8). */
function single9(payload: Uint8Array): Packet {
  return { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID: 2, sourceID: 1, cos: 3, start: 1, end: 1, xh: 0, odd: 0, pad: 0, segment: 'single', rsrv: 0, streamID: 0x42, payload };
}

const smpJson = (bytes: Uint8Array): unknown => jsonLines(riodp(['decode', '--layer', 'smp', '--json', Buffer.from(bytes).toString('hex')]).stdout)[0];

test('Annex 2 §3.3, Part 2 §3.3.2: decode --smp decodes the session management message of a single-packet Type 11 message in the same step (field smp), serial and transport', () => {
  const hex = serialHex(message(OPEN));
  const r = riodp(['decode', '--smp', '--json', hex]);
  assert.equal(r.stderr, '');
  const [packet] = jsonLines(r.stdout);
  assert.deepEqual(packet?.['smp'], smpJson(OPEN));
  assert.equal(packet?.['ftype'], 11);
  const plain = jsonLines(riodp(['decode', '--json', hex]).stdout)[0];
  assert.deepEqual({ ...packet, smp: undefined }, { ...plain, smp: undefined });
  const transport = jsonLines(riodp(['decode', '--smp', '--json', '--layer', 'transport', transportHex(message(OPEN))]).stdout)[0];
  assert.deepEqual(transport?.['smp'], smpJson(OPEN));
  // The field tree has the message as a nested section.
  const tree = lines(riodp(['decode', '--smp', hex]).stdout);
  assert.ok(tree.includes('  smp') && tree.includes('    command     OPEN'), tree.join('\n'));
});

test('Annex 2 §3.3 (Type 9 contact), Part 10 §4.2: decode --smp decodes the message a single Type 9 segment carries', () => {
  const r = riodp(['decode', '--smp', '--json', serialHex(single9(OPEN))]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(jsonLines(r.stdout)[0]?.['smp'], smpJson(OPEN));
  // An OPEN cut after 7 octets: P = 1 pads the segment to a half-word; the error names the message's byte in the item.
  const cut = OPEN.subarray(0, 7);
  const alone = errorLines(riodp(['decode', '--layer', 'smp', Buffer.from(cut).toString('hex')]).stderr)[0];
  const hex = serialHex({ ...single9(cut), pad: 1 } as Packet);
  const [e] = errorLines(riodp(['decode', '--smp', hex]).stderr);
  assert.ok(alone !== undefined && e !== undefined);
  // Type 9 Dev8 header: prefix 2, IDs 2, cos 1, S/E/xh/O/P 1, streamID 2.
  assert.deepEqual([e.field, e.offset], [`smp.${alone.field}`, 8 + alone.offset]);
});

test('Part 2 §3.3.2, Part 10 §4.2, Annex 2 §3.3: decode --smp refuses, one line each, a segment holding part of a message and a packet that carries none; exit 1', () => {
  const seg = serialHex(message(new Uint8Array(256), { msglen: 2, msgseg: 1 }));
  const ccp = serialHex(makeCcp({ destinationID: 2, tgtdestinationID: 1, tt: 0, command: 'XOFF', flowID: '0A', soc: 1 }));
  const start9 = serialHex({ ...single9(new Uint8Array(32)), end: 0, segment: 'start' } as Packet);
  const r = riodp(['decode', '--smp', seg, ccp, start9, serialHex(message(OPEN))]);
  assert.equal(r.status, 1);
  assert.deepEqual(errorLines(r.stderr).map((e) => [e.index, e.field, e.clause]), [[1, 'msglen', 'Part 2 §3.3.2'], [2, 'ftype', 'Annex 2 §3.3'], [3, 'segment', 'Part 10 §4.2']]);
  assert.match(r.stderr, /segment 1 of a 3-segment message holds part of it: reassemble the message first \(riodp messages --smp\)/);
  assert.ok(r.stdout.includes('command     OPEN'), 'the good item still decodes');
});

test('Annex 2 §3.8.5, Part 6 §2.4.1: a message error is named smp.<field> at its byte in the item, past the early CRC of a long packet; --lenient decodes it', () => {
  // OPEN_MESSAGE_NUMBER, nine periods, then DATA_HEADER_FORMAT with a reserved octet set: attribute 10 at message byte 88.
  const periods = (['REQUEST_RETRY_PERIOD', 'REQUEST_TIMEOUT_PERIOD', 'FLOW_CONTROL_XON_TIMEOUT_PERIOD'] as const).flatMap((n) => [1, 2, 3].map((k) => attrPeriod(n, k * 1000)));
  const bad = smpBytes(smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 1, attributes: [...periods, attrDataHeaderFormat('DATA', 0, 1)] }));
  const aloneRun = riodp(['decode', '--layer', 'smp', Buffer.from(bad).toString('hex')]);
  assert.equal(aloneRun.stdout, '');
  const alone = errorLines(aloneRun.stderr)[0];
  assert.ok(alone !== undefined);
  const hex = serialHex(message(bad));
  const item = parseHex(hex);
  const r = riodp(['decode', '--smp', hex]);
  const [e] = errorLines(r.stderr);
  assert.ok(e !== undefined, r.stderr);
  assert.deepEqual([e.field, e.clause], [`smp.${alone.field}`, alone.clause]);
  // The Type 11 header is 8 bytes (Dev16); past logical byte 80 sits the 2-byte early CRC.
  const logical = 8 + alone.offset;
  assert.ok(logical >= 80);
  assert.equal(e.offset, logical + 2);
  assert.equal(item[e.offset], bad[alone.offset]);
  const lenient = riodp(['decode', '--smp', '--lenient', '--json', hex]);
  assert.equal(lenient.status, 0, lenient.stderr);
  assert.equal((jsonLines(lenient.stdout)[0]?.['smp'] as Record<string, unknown>)['command'], 'OPEN');
});

test('docs/cli.md decode --smp: with --layer symbol or smp it is a usage error (exit 2)', () => {
  const r = riodp(['decode', '--smp', '--layer', 'smp', Buffer.from(OPEN).toString('hex')]);
  assert.deepEqual([r.status, r.stdout], [2, '']);
  assert.equal(r.stderr, 'riodp: --smp decodes the message inside a packet: it needs --layer serial or transport, not smp (--layer smp decodes a message alone)\n');
});
