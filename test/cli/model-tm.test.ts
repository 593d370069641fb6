import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEngine } from '../../src/cli/model/describe.ts';
import { loadEngine } from '../../src/cli/model/engines.ts';
import type { EngineName } from '../../src/cli/model/names.ts';
import { renderPacket } from '../../src/cli/model/packets.ts';
import { TM_OP } from '../../src/wire/type9-tm.ts';
import type { TmMessage } from '../../src/wire/type9-tm.ts';
import type { Type9TmPacket } from '../../src/wire/type9-types.ts';
import { cont } from '../support/type9-segments.ts';
import { EGRESS, INGRESS, describe, fromEgress, fromIngress, rawFrom } from '../support/tm.ts';
import { riodp } from '../support/spawn.ts';
import { configure, drive } from './model-drive.ts';
import { jsonLines, lines } from './output.ts';
import type { JsonLine as Line } from './output.ts';
import { serialHex } from './vectors.ts';
import { tempFiles, trace } from './traces.ts';

/**
 * `riodp model tm-ingress` and `riodp model tm-egress` (docs/model.md, Part 10 §3.4): the CLI run
 * from source where its own behaviour is under test (exit codes, stderr, both packet forms), the
 * driver in process elsewhere. The ingress is device 0x06, the egress 0x21 (test/support/tm.ts);
 * the stream is class 0x40, streamID 7, flow 0D (prio 1, CRF 1, Part 6 Table 6-7).
 */

const newFile = tempFiles('riodp-model-tm-');
const file = (text: string): string => newFile(text, 'json');

async function configErrors(name: EngineName, config: unknown): Promise<readonly string[]> {
  const c = await configure(name, config);
  if (c.ok) assert.fail('the config is accepted');
  return c.errors;
}

/** A TM line as `<from>><to> <OP> <message>`, e.g. `6>33 CREDIT CREDIT_STATUS 0 4`. */
function said(o: Line): string {
  const p = o['packet'] as Type9TmPacket;
  return `${p.sourceID}>${p.destinationID} ${describe(p)}`;
}

/** What a run printed between its header and end line, TM packets as `said` text and the rest by kind and name. */
function story(out: readonly Line[]): string[] {
  return out.slice(1, -1).map((line) => {
    const o = line as { t: number; kind: string; name?: string; queue?: string; open?: boolean; reason?: string; allocationUnit?: number };
    if (o.kind === 'tm') return `${o.t} ${said(line)}`;
    if (o.kind === 'gate') return `${o.t} gate ${o.queue ?? ''} ${o.open === true ? 'open' : 'closed'} ${o.reason ?? ''}`;
    if (o.kind === 'event') return `${o.t} event ${o.name ?? ''}${o.allocationUnit === undefined ? '' : ` ${o.allocationUnit}`}`;
    return `${o.t} ${o.kind}${o.name === undefined ? '' : ` ${o.name}`}`;
  });
}

/** Class 0x40 with the streamID of its data (§4.3.1 wc = 001; §3.4.5 rule 1 "the don't care fields shall be set to values that put the message in the same flow"). */
const CLASS = { cos: 0x40, streamID: 7, wildcard: 1, mask: 0 } as const;
const FLOW_0D = { prio: 1, crf: 1, vc: 0 } as const;
const VIDEO = { destinationID: EGRESS, cos: 0x40, streamID: 7, flowID: '0D' } as const;
const E = (m: TmMessage, op: number = TM_OP.credit): Type9TmPacket => fromEgress(op, m, CLASS, FLOW_0D);
const I = (m: TmMessage, op: number = TM_OP.credit): Type9TmPacket => fromIngress(op, m, CLASS, FLOW_0D);
const hex = (p: Type9TmPacket): string => serialHex(p);
/** The header fields of the Figure 3-6 packets from the egress, for a JSON packet given by labels. */
const VIDEO_LABELS = { ackID: 0, vc: 0, crf: 1, prio: 1, tt: 0, ftype: 9, destinationID: INGRESS, sourceID: EGRESS, cos: 0x40, segment: 'tm', streamID: 7 } as const;

/** The object `riodp decode --json` prints for a packet. */
const decoded = (p: Type9TmPacket): unknown => renderPacket(p).packet;

test('docs/model.md: riodp model --help lists tm-ingress and tm-egress; --describe lists their config fields and input kinds', async () => {
  const help = riodp(['model', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /"tm-ingress", "tm-egress",/);
  const ingress = describeEngine(await loadEngine('tm-ingress'));
  assert.match(ingress, /^riodp model tm-ingress: traffic management, data source: /);
  assert.match(ingress, /^ {2}lowCredits +integer 0\.\.255; default 2$/m);
  assert.match(ingress, /^ {2}pdu-ready +stream \(\{app\} or \{target\}\), bytes \(1\.\.65536\): /m);
  const egress = describeEngine(await loadEngine('tm-egress'));
  assert.match(egress, /^ {2}levelBits +integer 1\.\.8; default 8$/m);
  assert.match(egress, /^ {2}queue-level +sourceID, cos, streamID, level \(0\.\.255\): /m);
});

test('Part 10 §3.4.4 Figure 3-6, §3.4.5 rule 6 (tm-ingress): credit status around each AU, XOFF/XON without touching credits; hex and decode --json packets reach the engine alike', () => {
  const cfg = file(JSON.stringify({ localID: INGRESS, mode: 'CREDIT', lowCredits: 2, queues: [VIDEO] }));
  const target = { target: VIDEO };
  const tms = [E({ message: 'ALLOCATE', allocationUnit: 0, credits: 3 }), E({ message: 'XOFF' }), E({ message: 'XOFF' }), E({ message: 'XON' }), E({ message: 'ALLOCATE', allocationUnit: 1, credits: 3 })];
  const run = (form: (p: Type9TmPacket, i: number) => unknown): string => {
    let k = 0;
    const tm = (t: number): Line => ({ t, kind: 'tm', packet: form(tms[k] as Type9TmPacket, k++) });
    const r = riodp(['model', 'tm-ingress', '--config', cfg], trace([
      { t: 0, kind: 'pdu-ready', stream: target, bytes: 64 }, { t: 0, kind: 'pdu-ready', stream: target, bytes: 64 },
      { t: 0, kind: 'pdu-ready', stream: target, bytes: 64 }, { t: 0, kind: 'pdu-ready', stream: target, bytes: 64 },
      tm(10), { t: 20, kind: 'pdu-sent', stream: target, bytes: 64 }, tm(30), tm(40), tm(50),
      { t: 60, kind: 'pdu-sent', stream: target, bytes: 64 }, tm(70), { t: 80, kind: 'pdu-sent', stream: target, bytes: 64 },
      { t: 90, kind: 'pdu-sent', stream: target, bytes: 64 },
    ]));
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    return r.stdout;
  };
  const asHex = run(hex);
  // decode --json objects, and one given by its labels only (TM OP name, message, operand scope).
  const asJson = run((p, i) => (i === 0 ? { ...VIDEO_LABELS, tmOpName: 'CREDIT', tm: { message: 'ALLOCATE', allocationUnit: 0, credits: 3 }, operand: { scope: 'class' } } : decoded(p)));
  assert.equal(asJson, asHex, 'docs/model.md Packets: both forms reach the engine as the same packet');
  const out = jsonLines(asHex);
  assert.deepEqual(story(out), [
    // §3.4.4 Queue Status "to get attention for a queue that has become active, needing credits".
    '0 6>33 CREDIT Q_STATUS 1',
    // "CREDIT STATUS <AU> <nn> … is sent ahead of the first packet"; the gate opens on the credit.
    '10 6>33 CREDIT CREDIT_STATUS 0 3',
    '10 gate 33/64 open credit',
    // lowCredits 2: 2 credits left after the first PDU, "a low level of credit allocation as a trigger to request more credits".
    '20 6>33 CREDIT CREDIT_STATUS 0 2',
    // "XOFF and XON are used to pause / resume transmission without changing the state of credit allocation"; rule 6 duplicates.
    '30 gate 33/64 closed on-off',
    '40 event duplicate-xoff',
    '50 gate 33/64 open on-off',
    // "<AU> <00> is always sent after the last packet", then the next AU ahead of its first PDU.
    '80 6>33 CREDIT CREDIT_STATUS 0 0',
    '80 6>33 CREDIT CREDIT_STATUS 1 3',
    '90 6>33 CREDIT CREDIT_STATUS 1 2',
  ]);
  // Hand-derived (Figure 4-5, DECISIONS §4): 01 ackID 0 VC 0 CRF 1 | 49 prio 01 tt 00 ftype 1001 | 21 dest | 06 src | 40 cos |
  // 04 S 0 E 0 xtype 000 xh 1 O 0 P 0 | 0007 streamID | 21 TM OP 0010, rsrv 0, wc 001 | 00 mask | 30 Queue Status (Table 4-6) | 01 level | CRC | pad.
  assert.equal(out[1]?.['hex'], '014921064004000721003001b1d20000');
  const last = out.at(-1) as { counters: Record<string, number> };
  assert.deepEqual([last.counters['allocations'], last.counters['creditStatusSent'], last.counters['duplicateXoff'], last.counters['gateViolations']], [2, 5, 1, 0]);
});

test('Part 10 §3.4.4, §3.4.5 rule 7 (tm-egress): Q_STATUS and a low CREDIT STATUS are answered with ALLOCATE; a lost <AU> <0> is assumed at <AU+1> <N>; hex and JSON agree', () => {
  const cfg = file(JSON.stringify({ localID: EGRESS, mode: 'CREDIT' }));
  const tms = [I({ message: 'Q_STATUS', level: 5, fullness: 5 / 255 }), I({ message: 'CREDIT_STATUS', allocationUnit: 0, credits: 16 }), I({ message: 'CREDIT_STATUS', allocationUnit: 0, credits: 2 }), I({ message: 'CREDIT_STATUS', allocationUnit: 1, credits: 16 })];
  const pdu = (t: number): Line => ({ t, kind: 'pdu', sourceID: INGRESS, cos: 0x40, streamID: 7, flow: FLOW_0D });
  const level = (t: number, l: number): Line => ({ t, kind: 'queue-level', sourceID: INGRESS, cos: 0x40, streamID: 7, level: l });
  const run = (form: (p: Type9TmPacket) => unknown): string => {
    const r = riodp(['model', 'tm-egress', '--config', cfg], trace([
      { t: 0, kind: 'tm', packet: form(tms[0] as Type9TmPacket) }, { t: 10, kind: 'tm', packet: form(tms[1] as Type9TmPacket) }, pdu(20),
      { t: 30, kind: 'tm', packet: form(tms[2] as Type9TmPacket) },
      // The CREDIT STATUS <0> <0> is lost: AU 1 opens.
      { t: 40, kind: 'tm', packet: form(tms[3] as Type9TmPacket) },
      level(50, 250), level(60, 100),
      { t: 70, kind: 'command', to: { peer: INGRESS, ...CLASS }, command: { message: 'RETIRE', allocationUnit: 1 } },
    ]));
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    return r.stdout;
  };
  const asHex = run(hex);
  assert.equal(run(decoded), asHex, 'docs/model.md Packets: both forms reach the engine as the same packet');
  const out = jsonLines(asHex);
  assert.deepEqual(out[0], {
    schema: 'riodp-model/1', engine: 'tm-egress', config: {
      localID: 33, tt: 0, mode: 'CREDIT', types: 'BASIC_CREDIT', granularity: { mode: 'class', cosBits: 8 }, levelBits: 8, defaultFlow: '0A', crfSupported: true,
      policy: { onOff: { high: 240, low: 128 }, rate: { high: 160, low: 64, reduce: 32, increase: 16, rate: 'average' }, credit: { credits: 16, auCount: 16, maxOutstanding: 2, lowCredits: 2 } },
    },
  });
  assert.deepEqual(story(out), [
    '0 event q-status',
    '0 33>6 CREDIT ALLOCATE 0 16',
    '30 33>6 CREDIT ALLOCATE 1 16',
    '40 event au-assumed-closed 0',
    // onOff policy: XOFF at or above 240/255, XON at or below 128/255, in the credit table (Table 4-6 parameter 1 = 0).
    '50 33>6 CREDIT XOFF',
    '60 33>6 CREDIT XON',
    // §3.4.4 "<Q> ALLOCATE <AU> <0> is used to retire an allocation".
    '70 33>6 CREDIT ALLOCATE 1 0',
  ]);
  assert.deepEqual(out[1], { t: 0, kind: 'event', name: 'q-status', designation: '6|class|64', level: 5 });
  // §3.4.5 rule 1: every message in the flow of the data (0D) and about the same <Q>.
  for (const o of out.filter((x) => x['kind'] === 'tm')) {
    const p = o['packet'] as Type9TmPacket;
    assert.deepEqual([p.prio, p.crf, p.vc, p.cos, p.streamID, p.wildcard, p.mask], [1, 1, 0, 0x40, 7, 1, 0]);
  }
});

test('docs/model.md config errors (tm-ingress, tm-egress): exit 2, nothing on stdout, one line per bad field with its path', async () => {
  const r = riodp(['model', 'tm-ingress', '--config', file(JSON.stringify({
    localID: 300, mode: 'CREDIT', types: 'BASIC_RATE', queues: [{ destinationID: 256, cos: 1, streamID: 1, flowID: '0A' }], rate: { minRate: 10, average: 5 },
  }))], '');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(lines(r.stderr), [
    'riodp: config.localID: expected a device ID 0..255 (tt 0)',
    'riodp: config.types: expected TM types that support mode CREDIT (BASIC_CREDIT, BASIC_RATE_CREDIT)',
    'riodp: config.queues.0.destinationID: expected a device ID 0..255 (tt 0)',
    'riodp: config.rate.average: expected an integer 10..1099511627776 (minRate..maxRate)',
  ]);
  assert.deepEqual(await configErrors('tm-ingress', {
    classifier: { rules: [{ match: { port: [1] }, target: { destinationID: 1, cos: 256, streamID: 1, flowID: '0A' } }], granularity: { mode: 'class', cosBits: 9 } },
    amountBits: 0, lowCredits: 256, discard: { mode: 'bound' }, rate: { unit: 0 }, mode: 'FAST', extra: 1,
  }), [
    'config.mode: expected one of DISABLED, BASIC, RATE, CREDIT, CREDIT_RATE',
    'config.classifier.rules.0.match.port: expected a string, number or boolean',
    'config.classifier.rules.0.target.cos: expected an integer 0..255',
    'config.classifier.granularity.cosBits: expected an integer 0..8',
    'config.amountBits: expected an integer 1..8',
    'config.rate.unit: expected an integer >= 1',
    'config.lowCredits: expected an integer 0..255',
    'config.discard.maxQueued: missing, expected an integer >= 1',
    'config.extra: unknown field',
  ]);
  assert.deepEqual(await configErrors('tm-egress', { tt: 1, localID: 70000, mode: 'RATE', types: 'BASIC_CREDIT', policy: { onOff: { high: 100, low: 100 }, rate: { low: 200 }, credit: { auCount: 4, maxOutstanding: 5 } } }), [
    'config.localID: expected a device ID 0..65535 (tt 1)',
    'config.types: expected TM types that support mode RATE (BASIC_RATE, BASIC_RATE_CREDIT)',
    'config.policy.onOff.low: expected a level below high (100)',
    'config.policy.rate.low: expected a level below high (160)',
    'config.policy.credit.maxOutstanding: expected at most auCount (4)',
  ]);
  assert.deepEqual(await configErrors('tm-egress', { granularity: { mode: 'stream', cosBits: 2 }, levelBits: 9, defaultFlow: '0Z', policy: { rate: { reduce: 0, increase: 255, rate: 'fast' }, extra: null } }), [
    'config.granularity.cosBits: unknown field',
    'config.levelBits: expected an integer 1..8',
    'config.defaultFlow: expected one of 0A, 0B, 0C, 0D, 0E, 0F, 1A, 2A, 3A, 4A, 5A, 6A, 7A, 8A',
    'config.policy.rate.reduce: expected an integer 1..255',
    'config.policy.rate.increase: expected an integer 1..254',
    'config.policy.rate.rate: expected one of average, peak',
    'config.policy.extra: unknown field',
  ]);
  // The engine's own check (RangeError naming the field) is a config error too.
  assert.deepEqual(await configErrors('tm-ingress', { rate: { burst: 100_000_000 } }), ['config: rate.burst must be small enough that (rate.burst + 65536) × rate.unit stays below 2^51']);
});

test('Part 10 §5.5.1 TM Types Supported, §3.4.5 rule 4 (tm-ingress, tm-egress): the header fills every tm-types.ts default; types is the fewest that support the mode; a policy given in part keeps its other defaults, null is off', async () => {
  const ing = (await loadEngine('tm-ingress')).configure({ mode: 'CREDIT_RATE', rate: { average: 1000 } }, false);
  assert.ok(ing.ok);
  assert.deepEqual(ing.effective, {
    localID: 0, tt: 0, mode: 'CREDIT_RATE', types: 'BASIC_RATE_CREDIT', classifier: { rules: [], default: null, granularity: { mode: 'class', cosBits: 8 }, crfSupported: true },
    queues: [], amountBits: 8, rate: { unit: 1_000_000_000, average: 1000, peak: 250_000_000, burst: 65536, peakBurst: 4096, minRate: 1, maxRate: 2 ** 40 }, lowCredits: 2, discard: { mode: 'none' },
  });
  const modes = { DISABLED: 'NONE', BASIC: 'BASIC', RATE: 'BASIC_RATE', CREDIT: 'BASIC_CREDIT' } as const;
  for (const [mode, types] of Object.entries(modes)) {
    const c = (await loadEngine('tm-egress')).configure({ mode }, false);
    assert.ok(c.ok);
    assert.equal((c.effective as { types: string }).types, types, mode);
  }
  const eg = (await loadEngine('tm-egress')).configure({ policy: { onOff: null, credit: { credits: 8 } } }, false);
  assert.ok(eg.ok);
  assert.deepEqual((eg.effective as { policy: unknown }).policy, {
    onOff: null, rate: { high: 160, low: 64, reduce: 32, increase: 16, rate: 'average' }, credit: { credits: 8, auCount: 16, maxOutstanding: 2, lowCredits: 2 },
  });
});

test('docs/model.md bad lines (tm-ingress): fields out of their Part 10 ranges name their path, the run goes on; what the mode forbids reaches the engine as bad-command', () => {
  const cfg = file(JSON.stringify({ localID: INGRESS, mode: 'CREDIT', classifier: { rules: [{ match: { camera: 1 }, target: VIDEO }] } }));
  const r = riodp(['model', 'tm-ingress', '--config', cfg], trace([
    { t: 0, kind: 'pdu-ready', stream: {}, bytes: 10 },
    { t: 0, kind: 'pdu-ready', stream: { app: { camera: 1 }, target: VIDEO }, bytes: 10 },
    { t: 0, kind: 'pdu-ready', stream: { target: { ...VIDEO, destinationID: 300 } }, bytes: 10 },
    { t: 0, kind: 'pdu-sent', stream: { app: { camera: 1 } }, bytes: 0 },
    { t: 0, kind: 'queue-level', stream: { app: { camera: 1 } }, level: 256 },
    { t: 0, kind: 'command', stream: { app: { camera: 1 } }, command: { message: 'XOFF' } },
    { t: 0, kind: 'command', stream: { app: { camera: 1 } }, command: { message: 'USER_DEFINED', tmOp: 2, value: 0xff } },
    { t: 0, kind: 'tm', packet: '01c712340004b0f2' },
    { t: 0, kind: 'timer', name: 'rate:33/64' },
    { t: 0, kind: 'flush' },
    // Good lines: a key no rule maps, and a user message under a TM OP the mode does not use.
    { t: 5, kind: 'pdu-ready', stream: { app: { camera: 2 } }, bytes: 10 },
    { t: 6, kind: 'command', stream: { app: { camera: 1 } }, command: { message: 'USER_DEFINED', tmOp: 1, value: 5 } },
  ]));
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stderr), [
    'riodp: line 1: expected a stream {app: {...}} or {target: {...}}, one of the two (stream)',
    'riodp: line 2: expected a stream {app: {...}} or {target: {...}}, one of the two (stream)',
    'riodp: line 3: expected a device ID 0..255 (tt 0) (stream.target.destinationID)',
    'riodp: line 4: expected an integer 1..65536 (bytes)',
    'riodp: line 5: expected an integer 0..255 (level)',
    'riodp: line 6: expected one of Q_STATUS, RELINQUISH, USER_DEFINED, APPLICATION_DEFINED (command.message)',
    'riodp: line 7: expected an integer 1..254 (command.value)',
    'riodp: line 8: expected a Type 9 packet, not ftype 7 (packet.ftype)',
    'riodp: line 9: timers are fired by the driver, not given as input (kind)',
    'riodp: line 10: expected one of tm, pdu-ready, pdu-sent, queue-level, command, query (kind)',
  ]);
  const good = jsonLines(r.stdout).slice(1, -1).filter((o) => o['kind'] !== 'error');
  assert.deepEqual(good, [
    { t: 5, kind: 'event', name: 'unclassified', detail: '{"camera":2}' },
    { t: 6, kind: 'event', name: 'bad-command', detail: 'TM OP 1 is not used in mode CREDIT' },
  ]);
});

test('docs/model.md bad lines (tm-egress): designations, VSIDs, amounts and AUs are checked by their Table 4-3..4-6 widths; a command the mode cannot carry is bad-command', async () => {
  const to = { peer: INGRESS, ...CLASS };
  const r = await drive('tm-egress', { localID: EGRESS, mode: 'BASIC' }, [
    { t: 0, kind: 'command', to: { ...to, wildcard: 8 }, command: { message: 'XOFF' } },
    { t: 0, kind: 'command', to: { ...to, peer: 256 }, command: { message: 'XOFF' } },
    { t: 0, kind: 'command', to, command: { message: 'REDUCE', rate: 'average', amount: 0 } },
    { t: 0, kind: 'command', to, command: { message: 'INCREASE', rate: 'peak', amount: 255 } },
    { t: 0, kind: 'command', to, command: { message: 'RETIRE', allocationUnit: 16 } },
    { t: 0, kind: 'command', to, command: { message: 'DECREASE', rate: 'average', amount: 1 } },
    { t: 0, kind: 'pdu', sourceID: INGRESS, cos: 0x40, streamID: 7, flow: { prio: 1, crf: 1, vc: 2 } },
    { t: 0, kind: 'queue-level', sourceID: INGRESS, cos: 0x40, streamID: 70000, level: 1 },
    // Good lines: ALLOCATE in BASIC mode, and an operand §4.3.1 does not permit (wildcard 010).
    { t: 1, kind: 'command', to, command: { message: 'ALLOCATE', credits: 4 } },
    { t: 2, kind: 'command', to: { ...to, wildcard: 2 }, command: { message: 'XOFF' } },
  ]);
  assert.deepEqual(r.err, [
    'line 1: expected an integer 0..7 (to.wildcard)',
    'line 2: expected a device ID 0..255 (tt 0) (to.peer)',
    'line 3: expected an integer 1..255 (command.amount)',
    'line 4: expected an integer 1..254 (command.amount)',
    'line 5: expected an integer 0..15 (command.allocationUnit)',
    'line 6: expected one of XOFF, XON, REDUCE, INCREASE, DOUBLE, MAINTAIN, ALLOCATE, RETIRE, USER_DEFINED, APPLICATION_DEFINED (command.message)',
    'line 7: expected an integer 0..1 (flow.vc)',
    'line 8: expected an integer 0..65535 (streamID)',
  ]);
  assert.deepEqual(r.out.slice(1, -1).filter((o) => o['kind'] !== 'error'), [
    { t: 1, kind: 'event', name: 'bad-command', detail: 'ALLOCATE needs a credit mode, not BASIC' },
    { t: 2, kind: 'event', name: 'bad-command', detail: 'the command target is not a valid designation' },
  ]);
});

test('Part 10 §4.3.1 "No other combinations of these fields is permitted" (tm-ingress, tm-egress): a bad operand is a bad line unless --lenient, then the engine ignores it; a data segment is not-tm', async () => {
  // wildcard 010: not among 000, 001, 011, 111.
  const bad = hex(rawFrom(EGRESS, INGRESS, TM_OP.basic, 0, 0, { ...CLASS, wildcard: 2 }));
  const data = serialHex(cont(new Uint8Array(32), { sourceID: EGRESS, destinationID: INGRESS, cos: 0x40 }));
  const input = [{ t: 0, kind: 'tm', packet: bad }, { t: 1, kind: 'tm', packet: data }];
  const strict = await drive('tm-ingress', { localID: INGRESS, queues: [VIDEO] }, input);
  assert.equal(strict.err.length, 1);
  assert.match(strict.err[0] ?? '', /^line 1: .*Part 10 §4\.3\.1, byte 8 \(packet\.wildcard\)$/);
  assert.deepEqual(story(strict.out), ['0 error', '1 event not-tm']);
  const lenient = await drive('tm-ingress', { localID: INGRESS, queues: [VIDEO] }, input, { lenient: true });
  assert.deepEqual([lenient.err, story(lenient.out)], [[], ['0 event invalid-operand', '1 event not-tm']]);
  const egress = await drive('tm-egress', { localID: EGRESS }, [{ t: 0, kind: 'tm', packet: hex(rawFrom(INGRESS, EGRESS, TM_OP.basic, 3, 1, { ...CLASS, wildcard: 2 })) }], { lenient: true });
  assert.deepEqual(story(egress.out), ['0 event invalid-operand']);
});

test('Part 10 §3.4.3 (tm-ingress): the rate gate asks for timer rate:<queue>, the driver fires it (--until), and a REDUCE moves it later', async () => {
  const target = { target: VIDEO };
  // 2 bytes per 1000 ns, buckets of 100 bytes: a second 100-byte PDU waits 50 000 ns for its tokens.
  const r = await drive('tm-ingress', { localID: INGRESS, mode: 'RATE', rate: { unit: 1000, average: 2, peak: 4, burst: 100, peakBurst: 100 } }, [
    { t: 0, kind: 'pdu-ready', stream: target, bytes: 100 },
    { t: 0, kind: 'pdu-ready', stream: target, bytes: 100 },
    { t: 0, kind: 'pdu-sent', stream: target, bytes: 100 },
    // REDUCE 128: "CurrentRate x (1-n/256)", half the average rate.
    { t: 10, kind: 'tm', packet: hex(E({ message: 'REDUCE', rate: 'average', amount: 128, factor: 0.5 }, TM_OP.rate)) },
  ], { until: 200_000 });
  const timers = r.out.filter((o) => o['kind'] === 'timer' || o['kind'] === 'expired' || o['kind'] === 'gate');
  assert.deepEqual(timers, [
    { t: 0, kind: 'gate', queue: '33/64', open: false, reason: 'rate' },
    { t: 0, kind: 'timer', name: 'rate:33/64', at: 50_000 },
    // The 0.02 bytes earned at the old rate by t = 10 count: 10 + (100 − 0.02) × 1000 = 99 990.
    { t: 10, kind: 'timer', name: 'rate:33/64', at: 99_990 },
    { t: 99_990, kind: 'expired', name: 'rate:33/64' },
    { t: 99_990, kind: 'gate', queue: '33/64', open: true, reason: 'rate' },
  ]);
  assert.deepEqual(r.out.at(-1)?.['pending'], []);
});

test('Part 10 §3.4.5 protocol rule 1 (tm-egress): a message about traffic not seen yet goes in defaultFlow; once a PDU came in flow 0D, in 0D', async () => {
  const to = { peer: INGRESS, cos: 0x40, streamID: 7, wildcard: 0, mask: 0 };
  const r = await drive('tm-egress', { localID: EGRESS, defaultFlow: '0B' }, [
    { t: 0, kind: 'command', to, command: { message: 'XOFF' } },
    { t: 1, kind: 'pdu', sourceID: INGRESS, cos: 0x40, streamID: 7, flow: FLOW_0D },
    { t: 2, kind: 'command', to, command: { message: 'XON' } },
  ]);
  // Flow 0B is prio 0, CRF 1 (Part 6 Table 6-7); 0D prio 1, CRF 1.
  const flows = r.out.filter((o) => o['kind'] === 'tm').map((o) => {
    const p = o['packet'] as Type9TmPacket;
    return [said(o), p.prio, p.crf, p.vc];
  });
  assert.deepEqual(flows, [['33>6 BASIC XOFF', 0, 1, 0], ['33>6 BASIC XON', 1, 1, 0]]);
});

test('docs/model.md Packets, Part 10 §3.4.1 (tm-ingress): a received TM packet acts whatever its destinationID (the testbench feeds what the device received)', async () => {
  const other = tmPacketTo(0x07);
  const r = await drive('tm-ingress', { localID: INGRESS, queues: [VIDEO] }, [{ t: 0, kind: 'tm', packet: hex(other) }, { t: 1, kind: 'query' }]);
  assert.deepEqual(story(r.out).slice(0, 1), ['0 gate 33/64 closed on-off']);
  const state = r.out.find((o) => o['kind'] === 'state') as { state: { localID: number; queues: { on: boolean }[] } };
  assert.deepEqual([state.state.localID, state.state.queues[0]?.on], [INGRESS, false]);
});

/** A basic XOFF from the egress about class 0x40, sent to device `to`. */
function tmPacketTo(to: number): Type9TmPacket {
  return { ...E({ message: 'XOFF' }, TM_OP.basic), destinationID: to };
}
