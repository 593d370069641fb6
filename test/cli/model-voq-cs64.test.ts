import { test } from 'node:test';
import assert from 'node:assert/strict';
import { riodp } from '../support/spawn.ts';
import { configure, drive } from './model-drive.ts';
import { GEN64, RX, RX64, STATUS, body, cs48, cs64, decode64, file } from './model-voq-support.ts';
import { lines } from './output.ts';

/**
 * `riodp model voq-gen` and `riodp model voq-rx` with the Control Symbol 64 VoQ form (docs/model.md;
 * Part 12 §3.2, §3.3): the `symbol: cs64` configuration, `next-cs64` lines and the `cs64` symbols
 * `voq-rx` reads. The Control Symbol 48 form is in model-voq.test.ts.
 */

test('riodp model voq-gen, voq-rx: Part 12 §3.2, DECISIONS §5 — symbol cs64 needs format part12-rev4.1 (a config error otherwise); with cs64 routes reach downstream port 895', async () => {
  const r = riodp(['model', 'voq-gen', '--config', file({ ports: 2, symbol: 'cs64' })], '');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(lines(r.stderr), ["riodp: config.symbol: expected 'cs48' in the seed format (the Control Symbol 64 VoQ form is Part 12 §3.2 only)"]);
  assert.deepEqual(await configure('voq-rx', { symbol: 'cs64', routes: [] }), { ok: false, errors: ["config.symbol: expected 'cs48' in the seed format (the Control Symbol 64 VoQ form is Part 12 §3.2 only)"] });
  assert.deepEqual(await configure('voq-gen', { ports: 1, symbol: 'cs96' }), { ok: false, errors: ['config.symbol: expected one of cs48, cs64'] });
  const route = (symbol: string, downstreamPort: number) => configure('voq-rx', { format: 'part12-rev4.1', symbol, routes: [{ destID: 1, localPort: 0, downstreamPort }] });
  // 14 status bits × 64 groups with group size 6 in a CS64 (§3.2), 7 × 64 in a CS48 (§3.1).
  assert.equal((await route('cs64', 895)).ok, true);
  assert.deepEqual(await route('cs64', 896), { ok: false, errors: ['config.routes.0.downstreamPort: expected an integer 0..895'] });
  assert.deepEqual(await route('cs48', 448), { ok: false, errors: ['config.routes.0.downstreamPort: expected an integer 0..447 (0..895 with symbol cs64)'] });
});

test('riodp model voq-gen: Part 12 §3.2 Figure 3-4, Table 3-3/3-4 — next-cs64 prints the symbol as riodp decode --link cs64 does, with its hex and VoQ message; stype1 by name or value; nothing due is a null symbol', async () => {
  const r = await drive('voq-gen', GEN64, [
    { t: 0, kind: 'queue-depth', port: 17, depth: 1 },
    { t: 10, kind: 'next-cs64', port: 0, stype1: 'end-of-packet-unpadded' },
    { t: 20, kind: 'next-cs64', port: 1, stype1: 0x10 },
    { t: 30, kind: 'next-cs64', port: 0 },
  ]);
  assert.deepEqual(r.err, []);
  const [a, b, none] = r.out.filter((o) => o['kind'] === 'cs64') as { hex: string; symbol: unknown; voq: unknown; message: unknown }[];
  // Hand-derived: VC_IND 0b1111 (all VCs, Table 3-3) || 16 status bits 0b0000000000000010 (Table 3-4:
  // status bit 14 of group 1 is port 17) || group 0b0001: parameter0 0xF00, parameter1 0x021, stype1 0x10.
  assert.equal(a?.hex, cs64({ stype0: 0b1101, parameter0: 0xf00, parameter1: 0x021, stype1: 0x10 }));
  assert.equal(b?.hex, a.hex, 'the stype1 name and its value give the same symbol');
  assert.deepEqual(a.symbol, decode64(a.hex));
  assert.deepEqual(a.voq, { format: 'part12-rev4.1', portGroupSize: 4, vcInd: 15, vcIndName: 'ALL_VCS', portGroup: 1, portStatus: 2, congestedPorts: [17] });
  assert.deepEqual(a.message, { group: 1, vc: null, portStatus: 2, congestedPorts: [17], reason: 'change' });
  assert.deepEqual(none, { t: 30, kind: 'cs64', port: 0, message: null, symbol: null });
  assert.equal(lines(riodp(['encode', '--layer', 'symbol', '--link', 'cs64', '--voq-group-size', '4', JSON.stringify(a.symbol)]).stdout)[0], a.hex);
});

test('riodp model voq-gen: docs/model.md bad lines, --lenient — a next-cs64 stype1 out of range, by an unknown name or reserved is a bad line; with --lenient a reserved stype1 reaches the engine; CS48 requests to a CS64 generator are symbol-form-mismatch', async () => {
  const strict = await drive('voq-gen', GEN64, [
    { t: 0, kind: 'next-cs64', port: 0, stype1: 256 },
    { t: 0, kind: 'next-cs64', port: 0, stype1: 'start-of-packet-unpadded' },
    { t: 0, kind: 'next-cs64', port: 0, stype1: 0x39 },
    { t: 1, kind: 'next-stype2', port: 0, stype0: 'status' },
  ]);
  assert.equal(strict.err.length, 3);
  assert.equal(strict.err[0], 'line 1: expected an integer 0..255 (stype1)');
  // Start-of-packet carries ackID bits (Part 6 §3.5.1): given by value only.
  assert.match(strict.err[1] ?? '', /^line 2: expected an stype1 0\.\.255 or its name \(stomp, .*, loop-timing-request, NOP\) \(stype1\)$/);
  assert.equal(strict.err[2], 'line 3: stype1 0x39 is reserved, Part 6 §3.5 Table 3-18 (stype1)');
  assert.deepEqual(body(strict.out), [{ t: 1, kind: 'event', name: 'symbol-form-mismatch', port: 0, detail: 'a CS48 input to a CS64 generator' }]);
  const lenient = await drive('voq-gen', GEN64, [{ t: 0, kind: 'queue-depth', port: 3, depth: 1 }, { t: 1, kind: 'next-cs64', port: 0, stype1: 0x39 }], { lenient: true });
  const sent = lenient.out.find((o) => o['kind'] === 'cs64') as { symbol: { stype1: number; stype1Name: string } };
  assert.deepEqual([lenient.err, sent.symbol.stype1, sent.symbol.stype1Name], [[], 0x39, 'RESERVED']);
});

test('riodp model voq-gen → voq-rx: Part 12 §3.2, §3.3 — a CS64 as hex, as its decode --json object or as labels stops the one per-VC queue its VC_IND names; a reserved VC_IND is ignored without error (event reserved-vc-ind), by default and with --lenient', async () => {
  const gen = await drive('voq-gen', { ...GEN64, portSettings: { ...GEN64.portSettings, vcLinking: true } }, [
    { t: 0, kind: 'queue-depth', port: 3, vc: 5, depth: 1 },
    { t: 10, kind: 'next-cs64', port: 0 },
  ]);
  const sent = gen.out.find((o) => o['kind'] === 'cs64') as { hex: string };
  // VC_IND 0b0100 (VC5) || status 0b0000000000001000 (Table 3-4: bit 12 of group 0 is port 3) || group 0b0000.
  assert.equal(sent.hex, cs64({ stype0: 0b1101, parameter0: 0x400, parameter1: 0x080, stype1: 0x38 }));
  const labels = { stype0Name: 'VoQ-backpressure', voq: { vcIndName: 'VC5', congestedPorts: [3] }, stype1Name: 'NOP' };
  for (const symbol of [sent.hex, decode64(sent.hex), labels]) {
    const rx = await drive('voq-rx', RX64, [{ t: 0, kind: 'cs64', port: 0, symbol }]);
    assert.deepEqual([rx.err, body(rx.out)], [[], [{ t: 0, kind: 'blocked', port: 0, vc: 5, queue: 3, cause: 'backpressure' }]], JSON.stringify(symbol));
  }
  // VC_IND 0b1001: "Reserved" (Table 3-3).
  const reserved = cs64({ stype0: 0b1101, parameter0: 0x900, parameter1: 0x080, stype1: 0x38 });
  const bad = await drive('voq-rx', RX64, [
    { t: 0, kind: 'cs64', port: 0, symbol: reserved },
    { t: 0, kind: 'cs64', port: 0, symbol: sent.hex.slice(0, 8) },
    // The last bit of byte 5 is symbol bit 47, CRC-24 bit c9 (c0 is bit 38): 0x03bd7d reads as 0x03fd7d.
    { t: 0, kind: 'cs64', port: 0, symbol: `${sent.hex.slice(0, 10)}${(Number.parseInt(sent.hex.slice(10, 12), 16) ^ 1).toString(16).padStart(2, '0')}${sent.hex.slice(12)}` },
    { t: 1, kind: 'symbol', port: 0, symbol: cs48(STATUS) },
  ]);
  assert.deepEqual(bad.err, [
    'line 2: expected a Control Symbol 64 of 8 bytes, got 4 (symbol)',
    'line 3: CRC-24 0x03fd7d, computed 0x03bd7d, Part 6 §3.6.5, byte 4 (symbol.crc)',
  ]);
  assert.deepEqual(body(bad.out), [
    // "Reception of a reserved value in the VC_IND field shall cause the receiving endpoint to ignore the VoQ Backpressure control symbol without error."
    { t: 0, kind: 'event', name: 'reserved-vc-ind', port: 0, detail: 'VC_IND 0b1001' },
    { t: 1, kind: 'event', name: 'symbol-form-mismatch', port: 0, detail: 'a CS48 input to a CS64 receiver' },
  ]);
  for (const symbol of [reserved, decode64(reserved)]) {
    for (const lenient of [false, true]) {
      const rx = await drive('voq-rx', RX64, [{ t: 0, kind: 'cs64', port: 0, symbol }], { lenient });
      assert.deepEqual([rx.err, body(rx.out)], [[], [{ t: 0, kind: 'event', name: 'reserved-vc-ind', port: 0, detail: 'VC_IND 0b1001' }]], `lenient ${String(lenient)}`);
    }
  }
  const cs48rx = await drive('voq-rx', RX, [{ t: 0, kind: 'cs64', port: 0, symbol: sent.hex }]);
  assert.deepEqual(body(cs48rx.out), [{ t: 0, kind: 'event', name: 'symbol-form-mismatch', port: 0, detail: 'a CS64 input to a CS48 receiver' }]);
});
