import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { riodp } from '../support/spawn.ts';
import { errorLines, lines } from './output.ts';
import { toJsonValue } from '../../src/cli/json/common.ts';
import { decodeSerialPacket } from '../../src/wire/packet.ts';
import { parseHex } from '../../src/wire/hex.ts';
import { DOORBELL, DOORBELL_JSON, PACKETS, serialHex } from './vectors.ts';
import { RIODP_ARGS } from '../support/riodp-entry.ts';

test('encode: invalid JSON, a non-object, an unknown ftype and an out-of-range field are each one stderr line; the batch goes on', () => {
  const good = DOORBELL_JSON;
  const input = [
    good,
    '{"ftype":10,', // not JSON
    '[10]', // JSON, not a packet object
    '# a comment line is skipped here too',
    good.replace('"ftype":10', '"ftype":12'), // no Type 12 codec
    good.replace('"info":57007', '"info":65536'), // info is 16 bits
    good,
  ].join('\n');
  const r = riodp(['encode'], `${input}\n`);
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stdout), [DOORBELL, DOORBELL]);
  const errs = errorLines(r.stderr);
  assert.deepEqual(
    errs.map((e) => [e.where, e.index, e.field, e.clause]),
    [
      ['line', 2, 'json', 'docs/cli.md'],
      ['line', 3, 'json', 'docs/cli.md'],
      ['line', 5, 'ftype', 'docs/cli.md'],
      ['line', 6, 'info', 'docs/cli.md'],
    ],
  );
  assert.match(errs[0]?.detail ?? '', /^not JSON: /);
  assert.match(errs[2]?.detail ?? '', /ftype 12/);
});

test('encode: each argument is one item, numbered by position; invalid JSON on the symbol layer too', () => {
  const r = riodp(['encode', '--layer', 'symbol', '--link', 'cs24', '{"stype0":0,"parameter0":3,"parameter1":5,"stype1":7,"cmd":0}', 'stype0=0']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '032f14\n');
  assert.deepEqual(errorLines(r.stderr).map((e) => [e.where, e.index, e.field]), [['argument', 2, 'json']]);
});

test('README, docs/cli.md: crc and earlyCrc in the JSON are informational; encode computes them (packets and symbols alike)', () => {
  const packets = riodp(['encode'], `${DOORBELL_JSON.replace('"crc":39171', '"crc":0')}\n${DOORBELL_JSON.replace('"crc":39171', '"crc":1,"earlyCrc":2')}\n`);
  assert.equal(packets.stderr, '');
  assert.deepEqual(lines(packets.stdout), [DOORBELL, DOORBELL]);
  // Golden CS24 packet-accepted 032f14 carries CRC-5 0x14; a stale crc is ignored, not an error.
  const sym = '{"link":"cs24","stype0":0,"parameter0":3,"parameter1":5,"stype1":7,"cmd":0,"crc":21}';
  const symbols = riodp(['encode', '--layer', 'symbol', '--link', 'cs24'], `${sym}\n`);
  assert.equal(symbols.stderr, '');
  assert.equal(symbols.status, 0);
  assert.equal(symbols.stdout, '032f14\n');
});

test('docs/cli.md: every packet format rejects an unknown field on encode (a typo is an error) and ignores stale crc/earlyCrc', () => {
  const hex = PACKETS.map((p) => serialHex(p.packet));
  const json = hex.map((h) => {
    const b = parseHex(h);
    return toJsonValue(decodeSerialPacket(b, 0, b.length)) as Record<string, unknown>;
  });
  const typos = riodp(['encode'], json.map((j) => JSON.stringify({ ...j, destinationId: 1 })).join('\n'));
  assert.equal(typos.status, 1);
  assert.equal(typos.stdout, '');
  const errs = errorLines(typos.stderr);
  assert.deepEqual(errs.map((e) => [e.index, e.field]), json.map((_, i) => [i + 1, 'json']));
  assert.ok(errs.every((e) => e.detail.includes('destinationId')), typos.stderr);
  const stale = riodp(['encode'], json.map((j) => JSON.stringify({ ...j, crc: 0, ...('earlyCrc' in j ? { earlyCrc: 0 } : {}) })).join('\n'));
  assert.equal(stale.stderr, '');
  assert.deepEqual(lines(stale.stdout), hex);
});

test('a reader that closes the pipe early (riodp decode … | head -1) ends riodp quietly: no EPIPE stack trace', async () => {
  // Far more output than a pipe buffers, so riodp is still writing when the pipe closes.
  const input = `${Array.from({ length: 5000 }, () => DOORBELL).join('\n')}\n`;
  const child = spawn(process.execPath, [...RIODP_ARGS, 'decode', '--json'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.once('data', () => child.stdout.destroy());
  child.stdin.on('error', () => undefined).end(input);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.on('close', (c, s) => {
      resolve([c, s]);
    });
  });
  assert.equal(stderr, '');
  assert.equal(signal, null);
  assert.equal(code, 0);
});
