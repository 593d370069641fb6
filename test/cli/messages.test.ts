import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { runMessages } from '../../src/cli/messages.ts';
import type { MessagesFlags } from '../../src/cli/messages.ts';
import { parseHex, toHex } from '../../src/wire/hex.ts';
import { decodeSerialPacket } from '../../src/wire/packet.ts';
import { smpBytes, smpOpen, smpUserDefined } from '../../src/wire/smp/index.ts';
import type { Type11Packet } from '../../src/wire/type11.ts';
import { RESPONSE_STATUS, messageResponseTo } from '../../src/wire/type13.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import { drain, end, feed, send, wire } from '../support/type11-link.ts';
import { riodp } from '../support/spawn.ts';
import { jsonLines, lines } from './output.ts';
import { serialHex } from './vectors.ts';

/** The serial packet hex lines node `from` sends for `bytes` to node `to`'s mailbox. */
function trace(from: number, to: number, mailbox: number, bytes: Uint8Array): string[] {
  const e = end(from);
  feed(e, send(to, mailbox, bytes), 0);
  return drain(e, 0).map((p) => serialHex(wire(p) as Type11Packet));
}

const OPEN = smpBytes(smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 7 }));
/** A USERDEFINED message of 608 octets (8 of header, 600 of data): segments of 256, 256 and 96. */
const BIG = smpBytes(smpUserDefined({ cmd: 0xf3, sourceID: 1, streamID: 0x42, userDefinedData: Uint8Array.from({ length: 600 }, (_, i) => i & 0xff) }));

interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string[];
}

async function messages(flags: Partial<MessagesFlags>, input: string[]): Promise<Ran> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const status = await runMessages(undefined, { json: false, smp: false, lenient: false, ...flags }, { stdin: Readable.from([`${input.join('\n')}\n`]), stdout, stderr });
  await new Promise((resolve) => setImmediate(resolve));
  return { status, stdout: Buffer.concat(out).toString('utf8'), stderr: lines(Buffer.concat(err).toString('utf8')) };
}

test('Part 2 §3.3.2, Annex 2 §4.3.1: riodp messages puts a 3-segment Type 11 message together from a trace holding it out of order among other traffic, and prints each message as hex', async () => {
  const big = trace(1, 2, 0, BIG);
  const [open] = trace(1, 2, 1, OPEN);
  assert.equal(big.length, 3);
  // What a capture holds beside the messages: a MESSAGE RESPONSE and a CCP, passed over.
  const openBytes = parseHex(open ?? '');
  const response = serialHex(messageResponseTo(decodeSerialPacket(openBytes, 0, openBytes.length, { strict: true }) as Type11Packet, RESPONSE_STATUS.done));
  const ccp = serialHex(makeCcp({ destinationID: 2, tgtdestinationID: 1, tt: 0, command: 'XOFF', flowID: '0A', soc: 1 }));
  const r = await messages({}, ['# capture', big[2] ?? '', open ?? '', response, big[0] ?? '', '', ccp, big[1] ?? '']);
  assert.deepEqual(r.stderr, []);
  assert.equal(r.status, 0);
  // The OPEN completes on line 3, the big one on line 8; the sender padded each to double-words.
  assert.deepEqual(lines(r.stdout), [toHex(OPEN), toHex(BIG)]);
});

test('Annex 2 §3.3, §4.3.1: riodp messages --json --smp gives each message with its addresses, mailbox and completing line, and the session management message decoded', async () => {
  const big = trace(1, 2, 0, BIG);
  const [open] = trace(1, 2, 1, OPEN);
  const r = await messages({ json: true, smp: true }, [open ?? '', ...big]);
  assert.equal(r.status, 0);
  const [o, u] = jsonLines(r.stdout);
  assert.deepEqual({ ...o, smp: undefined }, { line: 1, tt: 1, sourceID: 1, destinationID: 2, mailbox: 1, length: OPEN.length, message: toHex(OPEN), smp: undefined });
  assert.deepEqual([(o?.['smp'] as Record<string, unknown>)['command'], (o?.['smp'] as { attributes: { openMessageNumber?: number }[] }).attributes[0]?.openMessageNumber], ['OPEN', 7]);
  assert.deepEqual([u?.['line'], u?.['length'], (u?.['smp'] as Record<string, unknown>)['command'], (u?.['smp'] as Record<string, unknown>)['cmd']], [4, 608, 'USERDEFINED', 0xf3]);
  // Without --json the message is a field tree.
  const tree = await messages({ smp: true }, [open ?? '']);
  assert.equal(lines(tree.stdout)[0], `line 1: message from 1 to 2, mailbox 1 (${OPEN.length} bytes)`);
  assert.ok(tree.stdout.includes('  command     OPEN'));
});

test('Part 2 §3.3.2 lost segment, Part 6 §2.4.1: a bad line and a message left incomplete are one stderr line each, the others still come out, exit 1', async () => {
  const big = trace(1, 2, 0, BIG);
  const [open] = trace(1, 2, 1, OPEN);
  const badCrc = `${(open ?? '').slice(0, -6)}${(open ?? '').slice(-6, -4) === '00' ? '01' : '00'}${(open ?? '').slice(-4)}`;
  const r = await messages({}, [big[0] ?? '', badCrc, big[2] ?? '', open ?? '']);
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stdout), [toHex(OPEN)]);
  assert.equal(r.stderr.length, 2);
  assert.match(r.stderr[0] ?? '', /^riodp: line 2: crc at byte \d+: CRC 0x[0-9a-f]+, computed 0x[0-9a-f]+ \(Part 6 §2\.4\.1\)$/);
  assert.equal(r.stderr[1], 'riodp: line 1: Part 2 §3.3.2: the message from 1 to 2, letter 0, mailbox 0 has 2 of its 3 segments (msgseg 0, 2) at the end of the input: 352 octets dropped (lost segment)');
});

test('Annex 2 §4.2 (--smp): a message that is no well-formed session management message is reported at its line; the run goes on', async () => {
  const [junk] = trace(3, 2, 1, Uint8Array.of(0x03, 0x01, 0x00, 0x03, 0x12, 0x34, 0x00, 0x09));
  const [open] = trace(1, 2, 1, OPEN);
  const r = await messages({ json: true, smp: true }, [junk ?? '', open ?? '']);
  assert.equal(r.status, 1);
  assert.deepEqual(jsonLines(r.stdout).map((m) => [m['line'], m['smp'] === undefined]), [[1, true], [2, false]]);
  assert.match(r.stderr[0] ?? '', /^riodp: line 1: the message from 3 to 2, mailbox 1: smp\.\S+ at byte \d+: .*\(Annex 2 §4\.2\.3.*\)$/);
});

test('docs/cli.md riodp messages: the command runs as users run it, from a file, and riodp --help lists it', () => {
  const [open] = trace(1, 2, 1, OPEN);
  const r = riodp(['messages', '--json'], `${open ?? ''}\n`);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(jsonLines(r.stdout)[0]?.['message'], toHex(OPEN));
  assert.match(riodp(['--help']).stdout, /messages \[options\] \[file\]/);
  const missing = riodp(['messages', '/nonexistent/trace.txt']);
  assert.deepEqual([missing.status, missing.stderr], [1, 'riodp: /nonexistent/trace.txt: cannot read it (ENOENT)\n']);
});
