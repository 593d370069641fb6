import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEngine } from '../../src/cli/model/describe.ts';
import { loadEngine } from '../../src/cli/model/engines.ts';
import { riodp } from '../support/spawn.ts';
import { configure, drive } from './model-drive.ts';
import { GEN, PA, PA_HEX, RX, STATUS, body, cs48, file } from './model-voq-support.ts';
import { jsonLines, lines } from './output.ts';
import { trace } from './traces.ts';

/**
 * `riodp model voq-gen` and `riodp model voq-rx` (docs/model.md; VoQ Backpressure §4.2, §4.3;
 * Part 12 §3.1, §3.2): the CLI run from source where its own behaviour is under test (exit codes,
 * stderr, every symbol form), the driver in process elsewhere.
 */

test('docs/model.md: riodp model --help lists voq-gen and voq-rx; --describe lists their config fields and input kinds with defaults', async () => {
  const help = riodp(['model', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout.replace(/\s+/g, ' '), /\brun a Part 9, Part 10 or VoQ backpressure engine as a golden model\b/);
  assert.match(help.stdout, /^ {2}voq-gen {2,}VoQ backpressure, downstream device: .*§4\.2/m);
  assert.match(help.stdout, /^ {2}voq-rx {2,}VoQ backpressure, upstream device: .*§4\.3/m);
  const gen = describeEngine(await loadEngine('voq-gen'));
  assert.match(gen, /^ {2}detector +\{kind\?: 'output-queue' \| 'input-voq', high\?, low\?\}; default \{"kind":"output-queue","high":1,"low":0\}$/m);
  assert.match(gen, /^ {2}fill +port, symbol \(CS48 hex or decode --layer symbol --json object, stype2 0\): /m);
  const rx = describeEngine(await loadEngine('voq-rx'));
  assert.match(rx, /^ {2}routes +list of \{destID, localPort, downstreamPort \(0\.\.447; 0\.\.895 with symbol cs64\)\}; default required$/m);
  assert.match(gen, /^ {2}symbol +'cs48' \| 'cs64'; default cs48$/m);
  assert.match(gen, /^ {2}next-cs64 +port, stype1\? /m);
  assert.match(rx, /^ {2}cs64 +port, symbol \(CS64 hex or decode --layer symbol --link cs64 --json object\): /m);
  assert.match(rx, /^ {2}transmit-opportunity +port: /m);
});

test('riodp model voq-gen: VoQ Backpressure Table 5-3 — the header fills every reset value; a Port n VoQ Control CSR value stands for its fields in either layout', async () => {
  const seed = await configure('voq-gen', { ports: 2, portSettings: [{ generation: true }] });
  assert.deepEqual(seed, { ok: true, effective: {
    format: 'seed', symbol: 'cs48', ports: 2, portSettings: [{ generation: true, participation: false, portXoff: false, vcLinking: false }],
    detector: { kind: 'output-queue', high: 1, low: 0 }, refreshPeriod: null, resendOnLinkRecovery: true, activeVcs: 0,
  } });
  // Seed Table 5-3, bit 0 the most significant: bits 0-2 supported (0xe0000000), 8 generation (0x00800000),
  // 9 participation (0x00400000), 10 Port XOFF (0x00200000), 11 VC linking (0x00100000).
  const csr = await configure('voq-gen', { ports: 1, portSettings: { csr: (0xe0000000 | 0x00800000 | 0x00200000) >>> 0 } });
  assert.ok(csr.ok);
  assert.deepEqual((csr.effective as { portSettings: unknown }).portSettings, { generation: true, participation: false, portXoff: true, vcLinking: false });
  // Part 12: bits 26-28 TX Port Group Size 3 (0b011 << 3 = 0x18), bits 12 and 16 size 0 and 4 supported (0x00088000), bit 13+3=15 size 3 (0x00010000).
  const p12 = await configure('voq-gen', { format: 'part12-rev4.1', ports: 20, portSettings: { csr: (0xe0000000 | 0x00c00000 | 0x00098000 | 0x18) >>> 0 } });
  assert.ok(p12.ok);
  assert.deepEqual((p12.effective as { portSettings: unknown }).portSettings, { generation: true, participation: true, portXoff: false, vcLinking: false, txPortGroupSize: 3 });
});

test('riodp model voq-gen, voq-rx: config errors exit 2 with nothing on stdout, one line per bad field with its path and what was expected', async () => {
  const r = riodp(['model', 'voq-gen', '--config', file({ ports: 3, portSettings: [{ txPortGroupSize: 3 }, { csr: 1, generation: true }, { csr: 0xffffffff }], detector: { high: 2, low: 2 } })], '{"t":0}\n');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(lines(r.stderr), [
    'riodp: config.detector.low: expected an integer below high (2)',
    'riodp: config.portSettings.0.txPortGroupSize: expected no txPortGroupSize in the seed format (Part 12 only; the seed port group is 5 bits)',
    'riodp: config.portSettings.1.generation: expected csr alone: the register value holds every field',
    'riodp: config.portSettings.2.csr: reserved bits 0x1f0fffff are not 0, VoQ Backpressure §5.1.2.2 Table 5-3',
  ]);
  const gen = await configure('voq-gen', { ports: 193, portSettings: [{}, {}] });
  assert.deepEqual(gen, { ok: false, errors: ['config.ports: expected an integer 1..192 (format seed)'] });
  assert.deepEqual(await configure('voq-gen', { ports: 1, portSettings: [{}, {}], detector: { kind: 'router' }, activeVcs: 3, refreshPeriod: 0, extra: 1 }), { ok: false, errors: [
    'config.detector.kind: expected one of output-queue, input-voq',
    'config.refreshPeriod: expected an integer >= 1',
    'config.activeVcs: expected one of 0, 1, 2, 4, 8',
    'config.extra: unknown field',
  ] });
  assert.deepEqual(await configure('voq-gen', { ports: 1, portSettings: [{}, {}] }), { ok: false, errors: ['config.portSettings: expected at most 1 entries, one per port'] });
  assert.deepEqual(await configure('voq-gen', { ports: 1, portSettings: { generation: 1 } }), { ok: false, errors: ['config.portSettings.generation: expected true or false'] });
  const rx = riodp(['model', 'voq-rx', '--config', file({
    ports: [{ enableVcLinking: true, rxPortGroupSize: 2, reverseMap: { mode: 'table', table: [0, 5] } }],
    routes: [{ destID: 1, localPort: 0, downstreamPort: 7 }, { destID: 1, localPort: 1, downstreamPort: 0 }],
  })], '');
  assert.equal(rx.status, 2);
  assert.equal(rx.stdout, '');
  assert.deepEqual(lines(rx.stderr), [
    'riodp: config.ports.0.enableVcLinking: expected false without perVcStaging: linking needs staging queues per VC (§3.2)',
    'riodp: config.ports.0.rxPortGroupSize: expected no rxPortGroupSize in the seed format (Part 12 only; the seed port group is 5 bits)',
    'riodp: config.ports.0.reverseMap.table.1: expected a queue 0..3 (queues)',
    'riodp: config.routes.0.downstreamPort: expected a downstream port that ports.0.reverseMap.table maps to a queue (0..1)',
    'riodp: config.routes.1.destID: expected a destination ID not routed already (routes.0)',
    'riodp: config.routes.1.localPort: expected a local port 0..0 (ports)',
  ]);
  assert.deepEqual(await configure('voq-rx', {}), { ok: false, errors: ['config.routes: missing, expected a list of routes {destID, localPort, downstreamPort}'] });
  assert.deepEqual(await configure('voq-rx', { ports: [], routes: [] }), { ok: false, errors: ['config.ports: expected at least one local port'] });
  assert.deepEqual(await configure('voq-rx', { format: 'part12-rev4.1', routes: [] }), { ok: true, effective: {
    format: 'part12-rev4.1', symbol: 'cs48', ports: [{ queues: 4, reverseMap: { mode: 'decoder' }, reception: true, perVcStaging: false, enableVcLinking: false, rxPortGroupSize: 0 }], routes: [], vcs: 0, clearOnLinkUp: true,
  } });
});

test('riodp model voq-gen: VoQ Backpressure §4.2 b, §3.1 — a fill carrier given as hex and as its decode --json object gives the same output, and the filled symbol is what riodp decode prints', () => {
  const cfg = file(GEN);
  const object = JSON.parse(lines(riodp(['decode', '--layer', 'symbol', '--link', 'cs48', '--json', PA_HEX]).stdout)[0] ?? '{}') as unknown;
  const run = (symbol: unknown): string => {
    const r = riodp(['model', 'voq-gen', '--config', cfg], trace([{ t: 0, kind: 'queue-depth', port: 4, depth: 1 }, { t: 10, kind: 'fill', port: 1, symbol }, { t: 20, kind: 'query' }]));
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    return r.stdout;
  };
  const asHex = run(PA_HEX);
  assert.equal(run(object), asHex, 'docs/model.md Control symbols: both forms reach the engine as the same carrier');
  assert.equal(run({ stype0Name: 'packet-accepted', packetAckID: 3, bufStatus: 10, stype1Name: 'NOP', cmdName: 'NOP' }), asHex, 'labels stand for the raw fields');
  const filled = jsonLines(asHex).find((o) => o['kind'] === 'stype2') as { stype2: number; hex: string; symbol: unknown; voq: unknown; message: unknown };
  // Hand-derived (Table 3-1/3-2/3-3): CMD 0b001 || status 0b010000 (port 4 = offset 4, bit 4) || group 0b00000.
  assert.equal(filled.stype2, 0b001_010000_00000);
  assert.deepEqual(filled.message, { group: 0, vc: null, portStatus: 16, congestedPorts: [4], reason: 'change' });
  assert.deepEqual(filled.voq, { format: 'seed', cmd: 1, cmdName: 'VOQ_BACKPRESSURE', portGroup: 0, portStatus: 16, congestedPorts: [4] });
  assert.equal(filled.hex, cs48({ ...PA, stype2: 0b001_010000_00000 }));
  const decoded = JSON.parse(lines(riodp(['decode', '--layer', 'symbol', '--link', 'cs48', '--json', filled.hex]).stdout)[0] ?? '{}') as unknown;
  assert.deepEqual(filled.symbol, decoded);
});

test('riodp model voq-rx: VoQ Backpressure §4.3 e — a received symbol as hex and as its decode --json object (or labels only) stops the same co-mingled queue', () => {
  const cfg = file(RX);
  // Seed stype2 CMD 0b001 || status 0b000101 (ports 0 and 2) || group 0.
  const hex = cs48({ ...STATUS, stype2: 0b001_000101_00000 });
  const object = JSON.parse(lines(riodp(['decode', '--layer', 'symbol', '--link', 'cs48', '--json', hex]).stdout)[0] ?? '{}') as unknown;
  const labels = { stype0Name: 'status', ackIDStatus: 4, bufStatus: 20, stype1Name: 'NOP', cmdName: 'NOP', voq: { cmdName: 'VOQ_BACKPRESSURE', congestedPorts: [2, 0] } };
  const run = (symbol: unknown): string => {
    const r = riodp(['model', 'voq-rx', '--config', cfg], trace([
      { t: 0, kind: 'packet', destID: 16, packetId: 'a' }, { t: 1, kind: 'packet', destID: 18, packetId: 'b' },
      { t: 10, kind: 'symbol', port: 0, symbol }, { t: 20, kind: 'transmit-opportunity', port: 0 }, { t: 30, kind: 'transmit-opportunity', port: 0 },
    ]));
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    return r.stdout;
  };
  const asHex = run(hex);
  assert.equal(run(object), asHex);
  assert.equal(run(labels), asHex);
  assert.deepEqual(body(jsonLines(asHex)), [
    { t: 10, kind: 'blocked', port: 0, vc: null, queue: 0, cause: 'backpressure' },
    { t: 20, kind: 'transmit', port: 0, packetId: 'b', destID: 18, vc: 0, queue: 1, downstreamPort: 1 },
    { t: 30, kind: 'event', name: 'idle', port: 0, detail: '1 staged' },
  ]);
});

test('riodp model voq-gen: docs/model.md bad lines — a field out of its range or a symbol that is not a stype2-free CS48 is one stderr line, and the run goes on (exit 1)', () => {
  const r = riodp(['model', 'voq-gen', '--config', file(GEN)], trace([
    { t: 0, kind: 'fill', port: 1, symbol: cs48({ ...PA, stype2: 2048 }) },
    { t: 0, kind: 'fill', port: 1, symbol: '0195c0000451' },
    { t: 0, kind: 'fill', port: 1, symbol: '0195c000' },
    { t: 0, kind: 'fill', port: 1, symbol: { link: 'cs24', stype0: 0, parameter0: 3, parameter1: 7, stype1: 7, cmd: 0 } },
    { t: 0, kind: 'fill', port: 1, symbol: { ...PA, stype1: 6 } },
    { t: 0, kind: 'next-stype2', port: 1, stype0: 'VC-status' },
    { t: 0, kind: 'queue-depth', port: 1, depth: -1 },
    { t: 0, kind: 'port-control', port: 1, settings: { csr: 0x00800000, portXoff: true } },
    { t: 0, kind: 'timer', name: 'refresh' },
    'not json',
    // Good lines: what the engine judges (a port the device does not have, a VC_status without VCID) comes back as events.
    { t: 5, kind: 'queue-depth', port: 12, depth: 1 },
    { t: 6, kind: 'next-stype2', port: 1, stype0: 'VC_status' },
  ]));
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.deepEqual(lines(r.stderr), [
    'riodp: line 1: expected stype2 0: the generator fills it, got 2048 (symbol.stype2)',
    'riodp: line 2: CRC-13 0x0451, computed 0x0450, Part 6 §3.6.3, byte 4 (symbol.crc)',
    'riodp: line 3: expected a control symbol of 6 bytes (CS48) or 3 bytes (CS24), got 4 (symbol)',
    'riodp: line 4: expected a Control Symbol 48 (6 bytes, Part 6 Figure 3-2): only it has the stype2 field the generator fills (symbol.link)',
    'riodp: line 5: stype1 0b110 is reserved, Part 6 §3.5 Table 3-17 (symbol.stype1)',
    'riodp: line 6: expected an stype0 0..7 or its name (packet-accepted, packet-retry, packet-not-accepted, timestamp, status, VC_status, link-response, implementation-defined) (stype0)',
    'riodp: line 7: expected a non-negative integer (depth)',
    'riodp: line 8: expected csr alone: the register value holds every field (settings.portXoff)',
    'riodp: line 9: timers are fired by the driver, not given as input (kind)',
    `riodp: line 10: not JSON: Unexpected token 'o', "not json" is not valid JSON`,
  ]);
  assert.deepEqual(body(jsonLines(r.stdout)), [
    { t: 5, kind: 'event', name: 'unknown-port', detail: 'port 12 is not 0–11' },
    { t: 6, kind: 'event', name: 'invalid-symbol', port: 1, detail: 'a VC_Status carrier needs a 3-bit vcid, got undefined' },
  ]);
});

test('riodp model voq-rx: docs/model.md bad lines — ranges and symbols are checked, what the engine judges (no route, a CS24, a seed group size) comes back as events', async () => {
  const r = await drive('voq-rx', RX, [
    { t: 0, kind: 'symbol', port: 0, symbol: 'zz' },
    { t: 0, kind: 'symbol', port: 0, symbol: 7 },
    { t: 0, kind: 'stype2', port: 0, stype2: 16384 },
    { t: 0, kind: 'packet', destID: 16, packetId: { id: 1 } },
    { t: 0, kind: 'control', port: 0, rxPortGroupSize: 7 },
    { t: 0, kind: 'link-up' },
    { t: 0, kind: 'flush', port: 0 },
    { t: 1, kind: 'packet', destID: 99, packetId: 7 },
    // Part 6 Figure 3-1 CS24: packet-accepted ackID 3, buf_status 5, stype1 NOP (docs/cli.md's example).
    { t: 2, kind: 'symbol', port: 0, symbol: '032f14' },
    { t: 3, kind: 'control', port: 0, rxPortGroupSize: 3 },
    { t: 4, kind: 'stype2', port: 0, stype2: 0 },
  ]);
  assert.deepEqual(r.err, [
    "line 1: 'z' is not a hex digit, byte 0 (symbol)",
    'line 2: expected a hex string or a control symbol object as riodp decode --layer symbol --json prints it (symbol)',
    'line 3: expected an integer 0..16383 (stype2)',
    'line 4: expected a packet ID, a non-negative integer or a string (packetId)',
    'line 5: expected an integer 0..6 (rxPortGroupSize)',
    'line 6: missing, expected a non-negative integer (port)',
    'line 7: expected one of symbol, stype2, cs64, packet, transmit-opportunity, link-down, link-up, control, query (kind)',
  ]);
  assert.deepEqual(body(r.out), [
    { t: 1, kind: 'event', name: 'no-route', packetId: 7, detail: 'destID 99' },
    { t: 2, kind: 'event', name: 'not-extended-symbol', port: 0 },
    { t: 3, kind: 'event', name: 'control-rejected', port: 0, detail: 'rxPortGroupSize exists only in the part12-rev4.1 format' },
    { t: 4, kind: 'event', name: 'nop', port: 0 },
  ]);
});

test('riodp model voq-rx: VoQ Backpressure §3.1 Table 3-1 "Reserved", docs/model.md --lenient — a reserved CMD is a bad line, and with --lenient reaches the engine as reserved-cmd', async () => {
  // Seed stype2 CMD 0b010 (reserved) with a zero parameter: 0b010_000000_00000.
  const reserved = cs48({ ...STATUS, stype2: 0b010_000000_00000 });
  const strict = await drive('voq-rx', RX, [{ t: 0, kind: 'symbol', port: 0, symbol: reserved }]);
  assert.deepEqual(strict.err, ['line 1: CMD 0b010 is reserved, VoQ Backpressure §3.1 Table 3-1, byte 2 (symbol.stype2)']);
  const lenient = await drive('voq-rx', RX, [{ t: 0, kind: 'symbol', port: 0, symbol: reserved }], { lenient: true });
  assert.deepEqual([lenient.err, body(lenient.out)], [[], [{ t: 0, kind: 'event', name: 'reserved-cmd', port: 0, detail: 'cmd 2' }]]);
  // The bare stype2 field is raw input: the engine judges it without --lenient.
  const bare = await drive('voq-rx', RX, [{ t: 0, kind: 'stype2', port: 0, stype2: 0b010_000000_00000 }]);
  assert.deepEqual(body(bare.out), [{ t: 0, kind: 'event', name: 'reserved-cmd', port: 0, detail: 'cmd 2' }]);
});

test('riodp model voq-gen → voq-rx: Part 12 §3.1, §4.2 d — with group size 3 (10 ports a group) port 13 is group 1 offset 3 on both sides; the filled hex stops its queue upstream', async () => {
  const gen = await drive('voq-gen', { format: 'part12-rev4.1', ports: 20, portSettings: { generation: true, participation: true, txPortGroupSize: 3 } }, [
    { t: 0, kind: 'queue-depth', port: 13, depth: 1 },
    { t: 10, kind: 'fill', port: 0, symbol: cs48(STATUS) },
    { t: 20, kind: 'next-stype2', port: 1, stype0: 'status' },
  ]);
  assert.deepEqual(gen.err, []);
  const [filled, bare] = gen.out.filter((o) => o['kind'] === 'stype2') as { stype2: number; hex: string; voq: unknown; symbol?: { voq: unknown } }[];
  // Hand-derived (Part 12 Table 3-1, Table 3-2 shape): CMD 0b1 || status 10 bits 0b0000001000 (offset 3) || group 3 bits 0b001.
  assert.equal(filled?.stype2, 0b1_0000001000_001);
  const voq = { format: 'part12-rev4.1', portGroupSize: 3, cmd: 1, cmdName: 'VOQ_BACKPRESSURE', portGroup: 1, portStatus: 8, congestedPorts: [13] };
  assert.deepEqual([filled.voq, filled.symbol?.voq, bare?.voq, bare?.stype2], [voq, voq, voq, 0b1_0000001000_001]);
  // The upstream device routes destID 1 to downstream port 13 (queue 13 mod 4 = 1) and destID 2 to port 3 (queue 3).
  const rxConfig = { format: 'part12-rev4.1', ports: [{ rxPortGroupSize: 3 }], routes: [{ destID: 1, localPort: 0, downstreamPort: 13 }, { destID: 2, localPort: 0, downstreamPort: 3 }] };
  const labels = { ...STATUS, voq: { cmdName: 'VOQ_BACKPRESSURE', congestedPorts: [13] } };
  for (const symbol of [filled.hex, labels]) {
    const rx = await drive('voq-rx', rxConfig, [
      { t: 0, kind: 'packet', destID: 1, packetId: 1 }, { t: 1, kind: 'packet', destID: 2, packetId: 2 },
      { t: 10, kind: 'symbol', port: 0, symbol }, { t: 20, kind: 'transmit-opportunity', port: 0 },
    ]);
    assert.deepEqual(rx.err, []);
    assert.deepEqual(body(rx.out), [
      { t: 10, kind: 'blocked', port: 0, vc: null, queue: 1, cause: 'backpressure' },
      { t: 20, kind: 'transmit', port: 0, packetId: 2, destID: 2, vc: 0, queue: 3, downstreamPort: 3 },
    ], 'the voq labels are read with the port\'s RX Port Group Size');
  }
});

test('riodp model voq-gen: VoQ Backpressure §4.2 f — refreshPeriod asks for timer refresh, the driver fires it (--until) and every group is due again', () => {
  const r = riodp(['model', 'voq-gen', '--config', file({ ports: 8, portSettings: { generation: true, participation: true }, refreshPeriod: 1000 }), '--until', '1500'], trace([
    { t: 0, kind: 'link-recovered', port: 0 },
    { t: 10, kind: 'next-stype2', port: 0, stype0: 0 },
  ]));
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const out = jsonLines(r.stdout);
  const story = body(out).map((o) => (o['kind'] === 'symbol-wanted' ? `${o['t'] as number} wanted ${o['port'] as number}:g${o['group'] as number}` : `${o['t'] as number} ${o['kind'] as string}${o['kind'] === 'stype2' ? ` ${JSON.stringify(o['message'])}` : ''}`));
  assert.deepEqual(story.slice(0, 4), [
    // §4.2 g: link 0's groups 0 (ports 0-5) and 1 (ports 6-7) after its recovery.
    '0 timer', '0 wanted 0:g0', '0 wanted 0:g1',
    '10 stype2 {"group":0,"vc":null,"portStatus":0,"congestedPorts":[],"reason":"link-recovery"}',
  ]);
  assert.deepEqual(out.filter((o) => o['kind'] === 'timer' || o['kind'] === 'expired'), [
    { t: 0, kind: 'timer', name: 'refresh', at: 1000 },
    { t: 1000, kind: 'expired', name: 'refresh' },
    { t: 1000, kind: 'timer', name: 'refresh', at: 2000 },
  ]);
  // At the expiry every link's groups are due (group 1 of link 0 was still due from the recovery).
  assert.equal(out.filter((o) => o['kind'] === 'symbol-wanted' && o['t'] === 1000).length, 15);
  assert.deepEqual(out.at(-1)?.['pending'], [{ name: 'refresh', at: 2000 }]);
});

test('riodp model voq-gen, voq-rx: docs/model.md query — the state line is the engine snapshot with its counters', async () => {
  const gen = await drive('voq-gen', GEN, [{ t: 0, kind: 'queue-depth', port: 2, depth: 1 }, { t: 5, kind: 'query' }]);
  const gs = gen.out.find((o) => o['kind'] === 'state') as { t: number; state: { links: { port: number; pending: unknown[] }[]; detector: unknown }; counters: { changeTriggers: number } };
  assert.equal(gs.t, 5);
  assert.deepEqual(gs.state.links[1]?.pending, [{ group: 0, vc: null, reason: 'change' }]);
  assert.deepEqual(gs.state.detector, { kind: 'output-queue', high: 1, low: 0, congested: [{ port: 2, vc: 0 }] });
  assert.equal(gs.counters.changeTriggers, 1);
  const rx = await drive('voq-rx', RX, [{ t: 3, kind: 'packet', destID: 17, packetId: 'c' }, { t: 4, kind: 'stype2', port: 0, stype2: 0b001_000100_00000 }, { t: 5, kind: 'query' }]);
  const rs = rx.out.find((o) => o['kind'] === 'state') as { state: { ports: { lanes: { congested: number[]; queues: { queue: number; blocked: boolean; packets: unknown[] }[] }[] }[] }; counters: { staged: number } };
  const lane = rs.state.ports[0]?.lanes[0];
  assert.deepEqual(lane?.congested, [2]);
  assert.deepEqual(lane.queues[0], { queue: 0, blocked: true, packets: [{ packetId: 'c', destID: 17, vc: 0, downstreamPort: 2, stagedAt: 3 }] });
  assert.equal(rs.counters.staged, 1);
});

test('riodp model voq-gen, voq-rx: VoQ Backpressure §3.2, Part 6 Table 3-12 — on linked links the VC rides in the carrier: a VC_status VCID names the same VC at both ends', async () => {
  // Two optional VCs: "bits in the VCID are ignored starting from the LSB", so they are VC1 (0b0xx) and VC5 (0b1xx).
  const gen = await drive('voq-gen', { ports: 6, activeVcs: 2, portSettings: { generation: true, participation: true, vcLinking: true } }, [
    { t: 0, kind: 'queue-depth', port: 3, depth: 1, vc: 5 },
    { t: 1, kind: 'queue-depth', port: 3, depth: 1, vc: 2 },
    { t: 10, kind: 'next-stype2', port: 0, stype0: 'VC_status', vcid: 0b001 },
    { t: 20, kind: 'fill', port: 0, symbol: { stype0Name: 'VC_status', vcid: 0b110, bufStatus: 5, stype1Name: 'NOP', cmdName: 'NOP' } },
  ]);
  assert.deepEqual(gen.err, []);
  assert.deepEqual(body(gen.out).filter((o) => o['port'] !== undefined && o['port'] !== 0 && o['kind'] === 'symbol-wanted').length, 5, 'every generating link owes VC5 the group');
  assert.deepEqual(body(gen.out).filter((o) => o['kind'] === 'event'), [{ t: 1, kind: 'event', name: 'unknown-vc', port: 3, detail: 'vc 2 is not an active VC (0, 1, 5)' }]);
  const [vc1, vc5] = gen.out.filter((o) => o['kind'] === 'stype2' && o['port'] === 0) as { stype2: number; message: { vc: number } | null; hex?: string }[];
  assert.deepEqual([vc1?.stype2, vc1?.message], [0, null], 'VC1 has nothing to say');
  // Seed CMD 0b001 || status 0b001000 (port 3 = offset 3) || group 0.
  assert.deepEqual([vc5?.stype2, vc5?.message?.vc], [0b001_001000_00000, 5]);
  // Upstream, staging per VC with linking on: only VC5's queue of port 3 stops (§3.2 "flow control just the queue within the corresponding VC").
  const rx = await drive('voq-rx', { vcs: 2, ports: [{ queues: 6, perVcStaging: true, enableVcLinking: true }], routes: [{ destID: 3, localPort: 0, downstreamPort: 3 }] }, [
    { t: 0, kind: 'symbol', port: 0, symbol: vc5?.hex },
    // §4.2 c: a bare stype2 with no Status or VC_status carrier has no VC.
    { t: 1, kind: 'stype2', port: 0, stype2: 0b001_001000_00000 },
    { t: 2, kind: 'stype2', port: 0, stype2: 0b001_000000_00000, vc: 5 },
  ]);
  assert.deepEqual(rx.err, []);
  assert.deepEqual(body(rx.out), [
    { t: 0, kind: 'blocked', port: 0, vc: 5, queue: 3, cause: 'backpressure' },
    { t: 1, kind: 'event', name: 'unlinked-backpressure', port: 0 },
    { t: 2, kind: 'unblocked', port: 0, vc: 5, queue: 3, cause: 'backpressure' },
  ]);
});

test('riodp model voq-gen: Part 12 Table 5-3 TX Port Group Size "shall be changed only when Enable VoQ Symbol Generation is cleared" — a port-control line (fields or csr) reaches the engine, which refuses the change', async () => {
  const r = await drive('voq-gen', { format: 'part12-rev4.1', ports: 4, portSettings: { generation: true, participation: true } }, [
    { t: 0, kind: 'port-control', port: 1, settings: { txPortGroupSize: 2 } },
    // The register value with generation (bit 8) and participation (bit 9) set and TX Port Group Size 2 (bits 26-28: 0b010 << 3).
    { t: 1, kind: 'port-control', port: 1, settings: { csr: (0x00c00000 | 0x10) >>> 0 } },
    { t: 2, kind: 'port-control', port: 1, settings: { generation: false, txPortGroupSize: 2 } },
    { t: 3, kind: 'query' },
  ]);
  assert.deepEqual(r.err, []);
  assert.deepEqual(r.out.filter((o) => o['kind'] === 'event').map((o) => [o['t'], o['name']]), [[0, 'group-size-change-refused'], [1, 'group-size-change-refused']]);
  const state = r.out.find((o) => o['kind'] === 'state') as { state: { portSettings: unknown[] } };
  assert.deepEqual(state.state.portSettings[1], { generation: false, participation: true, portXoff: false, vcLinking: false, txPortGroupSize: 2 });
});

test('riodp model voq-gen: VoQ Backpressure §2.5 input-voq detector — a voq-depth congests its egress port on its own link only', async () => {
  const r = await drive('voq-gen', { ports: 3, portSettings: { generation: true, participation: true }, detector: { kind: 'input-voq', high: 4, low: 1 } }, [
    { t: 0, kind: 'voq-depth', input: 2, output: 0, depth: 4 },
    { t: 1, kind: 'queue-depth', port: 0, depth: 4 },
  ]);
  assert.deepEqual(body(r.out), [
    { t: 0, kind: 'symbol-wanted', port: 2, group: 0, vc: null },
    { t: 1, kind: 'event', name: 'detector-input-ignored', port: 0, detail: 'the detector takes voq-depth' },
  ]);
});
