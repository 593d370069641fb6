/**
 * The Wireshark dissector (contrib/wireshark/riodp.lua) against riodp's own decoding, with the real
 * tshark: thousands of random packets of every format, written as a riodp capture (docs/pcapng.md
 * §2), read once by tshark; every field `riodp decode --json` prints must be the field tshark shows
 * under the name the naming rule gives (docs/pcapng.md "Wireshark dissector"), and the expert
 * infos must say what riodp's strict and lenient decoding say.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND, draw, linkFrameArb, record, serialPacketArb, smpPacketArb, vectorPackets, cs24Arb } from './records.ts';
import { count, run, seen } from './run.ts';
import type { RunResult } from './run.ts';

const FTYPES = [7, 8, 9, 10, 11, 13];
const PER_FTYPE = 500;

function packets(ackIdBits: 5 | 6, perFtype: number, salt: number): Uint8Array[] {
  const kind = ackIdBits === 5 ? KIND.packetCs24 : KIND.packet;
  const bodies = [...vectorPackets(ackIdBits), ...FTYPES.flatMap((ftype) => draw(serialPacketArb(ftype, ackIdBits), perFtype, salt + ftype))];
  return [...bodies, ...draw(smpPacketArb(ackIdBits), perFtype, salt)].map((b) => record(kind, b));
}

/** Started at once: the tshark runs overlap (each test awaits its own). */
function start(p: Promise<RunResult>): Promise<RunResult> {
  p.catch(() => undefined);
  return p;
}

const wide = start(run('packets-cs48', packets(6, PER_FTYPE, 0)));
const narrow = start(run('packets-cs24', [
  ...packets(5, 150, 100),
  ...draw(cs24Arb, 800, 200).map((b) => record(KIND.cs24, b)),
  ...draw(linkFrameArb, 400, 300),
]));

function agree(r: RunResult): void {
  assert.equal(r.bad, 0, `${r.bad} of ${r.refs.length} records disagree:\n  ${r.mismatches.join('\n  ')}`);
}

test(`riodp capture §2 / Part 6 §2.3–§2.5, Part 3 §2: tshark shows every field riodp decodes of ${FTYPES.length * PER_FTYPE} random packets (Types 7, 8, 9, 10, 11, 13, 6-bit ackIDs), CRC-16 and early CRC included`, async () => {
  const r = await wide;
  agree(r);
  assert.deepEqual(seen(r.refs, 'riodp.ftype'), new Set(FTYPES));
  assert.deepEqual(seen(r.refs, 'riodp.tt'), new Set([0, 1, 2]));
  assert.ok(count(r.refs, 'riodp.earlycrc') > 200, 'packets longer than 80 bytes carry the early CRC');
  assert.deepEqual(seen(r.refs, 'riodp.type9.segment'), new Set(['single', 'start', 'continuation', 'end', 'abort', 'tm', 'extended']));
  assert.equal(seen(r.refs, 'riodp.type8.transactionname').size, 6, 'every Type 8 transaction, RESERVED included');
  assert.equal(seen(r.refs, 'riodp.type13.transactionname').size, 4);
  assert.equal(seen(r.refs, 'riodp.type7.command').size, 8);
  assert.equal(seen(r.refs, 'riodp.type9.tm.message').size, 12, 'every Part 10 TM message');
  assert.equal(seen(r.refs, 'riodp.type9.operand.scope').size, 6);
});

test('Part 10 §4.2–§4.3, Part 1 §4.1.10, Part 2 §4.2.5: reserved values and broken rules raise riodp.expert.reserved exactly where strict decoding refuses the packet', async () => {
  const r = await wide;
  agree(r);
  const strictOk = r.refs.filter((ref) => ref.error === undefined && ref.strictError === undefined).length;
  const refused = r.refs.filter((ref) => ref.error === undefined && ref.strictError !== undefined).length;
  assert.ok(strictOk > 150 && refused > 1500, `both kinds present: ${strictOk} conforming, ${refused} refused by strict decoding`);
});

test('Annex 2 §3.3, Chapter 4: the session management message of a single-segment Type 11 or Type 9 packet, its attributes and a STATUS\'s quoted command, as `riodp decode --smp` prints them', async () => {
  const r = await wide;
  agree(r);
  const commands = seen(r.refs, 'riodp.smp.command');
  for (const c of ['REQUEST', 'ADVERTISE', 'OPEN', 'ACCEPT', 'REFUSE', 'FLOW_CONTROL', 'CLOSE', 'STATUS', 'USERDEFINED', 'DATA', 'DATA1', 'DATA2']) assert.ok(commands.has(c), c);
  assert.ok(count(r.refs, 'riodp.smp.quotedcommand.command') > 20, 'STATUS quoting a command');
  assert.ok(count(r.refs, 'riodp.smp.streamprotocol.protoid') > 20, 'STATUS with a stream\'s protocol');
  assert.ok(seen(r.refs, 'riodp.smp.attributes.name').size >= 14, 'attributes of every name');
  assert.ok(r.refs.filter((ref) => ref.smpStrictError !== undefined).length > 100, 'messages strict decoding refuses raise riodp.expert.smp');
});

test('riodp capture §2.1–§2.2, riodp link §3.4–§3.6: 5-bit ackIDs (PACKET-CS24), CS24 symbols with CRC-5, HELLO, CLOSE and reserved kinds', async () => {
  const r = await narrow;
  agree(r);
  assert.deepEqual(seen(r.refs, 'riodp.kindname'), new Set(['packetCs24', 'cs24', 'hello', 'close', 'RESERVED']));
  assert.ok(count(r.refs, 'riodp.rsrvackid') > 50, 'ackID[5] set on a CS24 link: kept and flagged');
  assert.equal(seen(r.refs, 'riodp.cs24.stype0name').size, 8);
  assert.ok(count(r.refs, 'riodp.close.text') > 100 && count(r.refs, 'riodp.hello.version') > 100);
});
