import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCcp } from '../../src/wire/type7.ts';
import type { CcpFields } from '../../src/wire/type7.ts';
import { riodp } from '../support/spawn.ts';
import { jsonLines, lines } from './output.ts';
import { serialHex } from './vectors.ts';
import { tempFiles, trace } from './traces.ts';
import { RIODP_ARGS } from '../support/riodp-entry.ts';

const file = tempFiles('riodp-model-test-');


/** The output lines between the header and the end line. */
function body(stdout: string): Record<string, unknown>[] {
  return jsonLines(stdout).slice(1, -1);
}

function ccp(f: Partial<CcpFields> & Pick<CcpFields, 'command' | 'flowID'>): string {
  return serialHex(makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, soc: 0, ...f }));
}

test('riodp --help lists model; riodp model --help lists the four engines', () => {
  const top = riodp(['--help']);
  assert.match(top.stdout, /^ {2}model \[options\] <engine>/m);
  const r = riodp(['model', '--help']);
  assert.equal(r.status, 0);
  for (const name of ['ccp-endpoint', 'congestion-point', 'arb-tx', 'arb-rx']) assert.match(r.stdout, new RegExp(`^ {2}${name} {2,}\\S`, 'm'));
});

test('riodp model <engine> --describe prints the config fields with defaults and the input kinds, without reading stdin', () => {
  const r = riodp(['model', 'arb-rx', '--describe'], 'not read');
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^ {2}idleTimeout +integer ns > 0 \| null; default 1000000$/m);
  assert.match(r.stdout, /^ {2}resources +integer >= 0; default required$/m);
  assert.match(r.stdout, /^ {2}reclaim +sourceID, flowID: /m);
});

test('usage errors exit 2 with nothing on stdout: unknown engine, missing engine, bad --until, unreadable --input', () => {
  for (const [args, message] of [
    [['model', 'router'], /value 'router' is invalid for argument 'engine'/],
    [['model'], /missing required argument 'engine'/],
    [['model', 'ccp-endpoint', '--until', '-5'], /'-5' is not a time in nanoseconds/],
    [['model', 'ccp-endpoint', '--input', join(tmpdir(), 'riodp-no-such-dir', 'nope.jsonl')], /^riodp: --input .*nope\.jsonl: cannot read it \(ENOENT\)$/m],
  ] as const) {
    const r = riodp([...args], '');
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
});

test('docs/model.md config errors: exit 2, one stderr line per bad field naming its path and what was expected', () => {
  const cfg = file('role: switch\nhighWatermark: 4\nlowWatermark: 1\npolicy: {kind: histogram, flows: 9}\nccpFlow: {prio: 5, crf: 0}\nwatermark: 3\n');
  const r = riodp(['model', 'congestion-point', '--config', cfg], '{"t":0}\n');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(lines(r.stderr), [
    'riodp: config.policy.flows: expected an integer 1..5',
    'riodp: config.ccpFlow.prio: expected an integer 0..3',
    'riodp: config.watermark: unknown field',
  ]);
});

test('docs/model.md schema: a trace for another major version is refused whole (exit 2, one line, nothing on stdout)', () => {
  const r = riodp(['model', 'ccp-endpoint'], trace([{ schema: 'riodp-model/2' }, { t: 0, kind: 'query' }]));
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(lines(r.stderr), ['riodp: line 1: schema riodp-model/2 is not supported: this riodp reads riodp-model/1 (schema)']);
});

test('docs/model.md header: the first line names the schema, the engine and the effective config; the last line is end', () => {
  const r = riodp(['model', 'ccp-endpoint', '--config', file('{"orphanPeriod": 5000}', 'json')], trace([{ schema: 'riodp-model/1', engine: 'ccp-endpoint' }, { t: 42 }]));
  assert.equal(r.status, 0);
  assert.deepEqual(jsonLines(r.stdout), [
    { schema: 'riodp-model/1', engine: 'ccp-endpoint', config: { orphanPeriod: 5000, counterBits: 8, counters: { mode: 'per-flow' }, critical: [], flowArbitration: false } },
    { t: 42, kind: 'end', pending: [], counters: { xoff: 0, xon: 0, reservedFlowId: 0, criticalIgnored: 0, saturated: 0, xonAtZero: 0, orphanRestarts: 0, arbitrationIgnored: 0, undefinedIgnored: 0 } },
  ]);
});

test('docs/model.md errors: bad lines are reported on stderr and as error lines, the run goes on, exit 1', () => {
  const r = riodp(['model', 'ccp-endpoint'], trace([
    { t: 10, kind: 'ccp', packet: ccp({ command: 'XOFF', flowID: '0A' }) },
    { t: 5, kind: 'query' },
    { t: 20, kind: 'ccp', packet: '01c712340000f077' },
    { t: 30, kind: 'reset-destination', destinationID: 'x' },
    'garbage',
    { t: 40, kind: 'ccp', packet: ccp({ command: 'XON', flowID: '0A' }) },
  ]));
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.deepEqual(lines(r.stderr), [
    'riodp: line 2: time 5 is before the current time 10: time must not decrease (t)',
    'riodp: line 3: CRC 0xf077, computed 0xf076, Part 6 §2.4.1, byte 6 (packet.crc)',
    'riodp: line 4: expected an integer 0..4294967295 (destinationID)',
    `riodp: line 5: not JSON: Unexpected token 'g', "garbage" is not valid JSON`,
  ]);
  const errors = jsonLines(r.stdout).filter((o) => o['kind'] === 'error');
  // t is the current time; lineT the time of the line that caused the error (line 5 gave none).
  assert.deepEqual(errors.map((e) => [e['t'], e['line'], e['lineT']]), [[10, 2, 5], [10, 3, 20], [10, 4, 30], [10, 5, undefined]]);
  // The good line after the bad ones still ran: §2.4.5 rule 2, the XON restarts flow 0A.
  assert.deepEqual(jsonLines(r.stdout).filter((o) => o['kind'] === 'flow' && o['t'] === 40), [{ t: 40, kind: 'flow', destinationID: 0x34, flowID: '0A', enabled: true, cause: 'xon' }]);
});

test('docs/model.md Packets: a CCP given as hex and as its decode --json object give the same output', () => {
  const hex = ccp({ command: 'XOFF', flowID: '0B' });
  const object = JSON.parse(lines(riodp(['decode', '--json', hex]).stdout)[0] ?? '{}') as unknown;
  const a = riodp(['model', 'ccp-endpoint'], trace([{ t: 1, kind: 'ccp', packet: hex }, { t: 2, kind: 'query' }]));
  const b = riodp(['model', 'ccp-endpoint'], trace([{ t: 1, kind: 'ccp', packet: object }, { t: 2, kind: 'query' }]));
  assert.equal(a.status, 0);
  assert.equal(a.stdout, b.stdout);
  assert.equal(jsonLines(a.stdout).filter((o) => o['kind'] === 'flow').length, 2, 'XOFF 0B stops 0A and 0B');
});

test('docs/model.md --lenient: a reserved flowID reaches the engine, which takes no action (Part 9 §3.4)', () => {
  const reserved = serialHex({ ...makeCcp({ destinationID: 0x12, tgtdestinationID: 0x34, tt: 0, command: 'XOFF', flowID: '0A', soc: 0 }), flowIDCode: 0x10, flowID: 'RESERVED' });
  const strict = riodp(['model', 'ccp-endpoint'], trace([{ t: 1, kind: 'ccp', packet: reserved }]));
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /flowID 0b0010000 is reserved, Part 9 §3\.2 Table 3-1, byte 5 \(packet\.flowID\)/);
  const lenient = riodp(['model', 'ccp-endpoint', '--lenient'], trace([{ t: 1, kind: 'ccp', packet: reserved }]));
  assert.equal(lenient.status, 0);
  assert.deepEqual(body(lenient.stdout), [{ t: 1, kind: 'event', name: 'reserved-flow-id', flowID: '0b0010000' }]);
});

test('Part 9 §2.4.5 rule 2 (ccp-endpoint): the XON that brings the counter to zero restarts the flows and cancels the orphan timer', () => {
  const r = riodp(['model', 'ccp-endpoint', '--input', file(trace([
    { t: 0, kind: 'ccp', packet: ccp({ command: 'XOFF', flowID: '0B' }) },
    { t: 10, kind: 'ccp', packet: ccp({ command: 'XON', flowID: '0B' }) },
  ]), 'jsonl')]);
  assert.equal(r.status, 0);
  assert.deepEqual(body(r.stdout), [
    { t: 0, kind: 'flow', destinationID: 0x34, flowID: '0A', enabled: false, cause: 'xoff' },
    { t: 0, kind: 'flow', destinationID: 0x34, flowID: '0B', enabled: false, cause: 'xoff' },
    { t: 0, kind: 'timer', name: 'orphan', at: 1_000_000 },
    { t: 10, kind: 'flow', destinationID: 0x34, flowID: '0A', enabled: true, cause: 'xon' },
    { t: 10, kind: 'flow', destinationID: 0x34, flowID: '0B', enabled: true, cause: 'xon' },
    { t: 10, kind: 'timer', name: 'orphan', at: null },
  ]);
});

test('Part 9 A.1 method 2 (congestion-point, end point): every new flow arriving above the watermark is XOFF\'d, SOC 1', () => {
  const cfg = file('role: endpoint\nhighWatermark: 1\nlowWatermark: 0\npolicy: {kind: threshold}\n');
  const pkt = (sourceID: number): unknown => ({ sourceID, destinationID: 0x20, tt: 0, prio: 0, crf: 0, ftype: 6 });
  const r = riodp(['model', 'congestion-point', '--config', cfg], trace([
    { t: 0, kind: 'enqueue', packet: pkt(1) },
    { t: 1, kind: 'enqueue', packet: pkt(2) },
    { t: 2, kind: 'enqueue', packet: pkt(3) },
  ]));
  assert.equal(r.status, 0);
  const sends = jsonLines(r.stdout).filter((o) => o['kind'] === 'send');
  assert.deepEqual(sends.map((s) => [s['t'], (s['packet'] as { destinationID: number }).destinationID, (s['packet'] as { command: string }).command, (s['packet'] as { soc: number }).soc]),
    [[1, 2, 'XOFF', 1], [2, 3, 'XOFF', 1]]);
  for (const s of sends) assert.equal(s['hex'], serialHex(makeCcp({ ...(s['packet'] as CcpFields), command: 'XOFF' })));
});

test('Part 9 §2.4.7 rules 3-4 (arb-tx): XOFF(ARB) rejects; after retryDelay a new REQUEST goes out with the next sequence bit (--until)', () => {
  const xoffArb = serialHex(makeCcp({ destinationID: 0x10, tgtdestinationID: 0x20, tt: 0, command: 'XOFF_ARB', seq: 0, flowID: '0A', soc: 1 }));
  const r = riodp(['model', 'arb-tx', '--config', file('localID: 16\nrequestTimeout: null\nretryDelay: 500\n'), '--until', '10000'], trace([
    { t: 0, kind: 'request', destinationID: 0x20, flowID: '0A', mode: 'single' },
    { t: 100, kind: 'ccp', packet: xoffArb },
  ]));
  assert.equal(r.status, 0);
  const out = jsonLines(r.stdout);
  const requests = out.filter((o) => o['kind'] === 'send').map((o) => [o['t'], (o['packet'] as { command: string; seq: number }).command, (o['packet'] as { seq: number }).seq]);
  assert.deepEqual(requests, [[0, 'REQUEST_SINGLE_PDU', 0], [600, 'REQUEST_SINGLE_PDU', 1]]);
  assert.ok(out.some((o) => o['kind'] === 'event' && o['name'] === 'rejected' && o['t'] === 100));
  assert.deepEqual(out.find((o) => o['kind'] === 'expired'), { t: 600, kind: 'expired', name: 'retry:32/0A' });
  assert.equal(out.at(-1)?.['t'], 10000, 'the end line is at --until');
});

test('Part 9 §2.4.7 rule 7 and §2.2.1 (arb-rx): a multi-PDU resource outlives its PDUs and is freed only by RELEASE', () => {
  const req = serialHex(makeCcp({ destinationID: 0x20, tgtdestinationID: 0x10, tt: 0, command: 'REQUEST_MULTI_PDU', seq: 1, flowID: '0C', soc: 1 }));
  const release = serialHex(makeCcp({ destinationID: 0x20, tgtdestinationID: 0x10, tt: 0, command: 'RELEASE', seq: 1, flowID: '0C', soc: 1, prio: 1, crf: 0 }));
  const r = riodp(['model', 'arb-rx', '--config', file('localID: 32\nresources: 1\nidleTimeout: null\n')], trace([
    { t: 0, kind: 'ccp', packet: req },
    { t: 10, kind: 'segment', sourceID: 0x10, flowID: '0C', segment: 'single' },
    { t: 20, kind: 'segment', sourceID: 0x10, flowID: '0C', segment: 'single' },
    { t: 30, kind: 'ccp', packet: release },
  ]));
  assert.equal(r.status, 0);
  const out = body(r.stdout).filter((o) => o['kind'] !== 'send');
  assert.deepEqual(out, [
    { t: 0, kind: 'allocated', sourceID: 0x10, flowID: '0C', mode: 'multi', seq: 1 },
    { t: 30, kind: 'freed', sourceID: 0x10, flowID: '0C', reason: 'release' },
  ]);
  const grant = body(r.stdout).find((o) => o['kind'] === 'send')?.['packet'] as { command: string; seq: number; destinationID: number; tgtdestinationID: number };
  assert.deepEqual([grant.command, grant.seq, grant.destinationID, grant.tgtdestinationID], ['XON_ARB', 1, 0x10, 0x20]);
});

test('Part 9 §2.4.8 (arb-rx): --until fires the idle timeout that frees a silent single-PDU resource', () => {
  const req = serialHex(makeCcp({ destinationID: 0x20, tgtdestinationID: 0x10, tt: 0, command: 'REQUEST_SINGLE_PDU', seq: 0, flowID: '0A', soc: 1 }));
  const r = riodp(['model', 'arb-rx', '--config', file('localID: 32\nresources: 1\nidleTimeout: 1000\n'), '--until', '5000'], trace([{ t: 0, kind: 'ccp', packet: req }]));
  assert.equal(r.status, 0);
  const out = jsonLines(r.stdout);
  assert.deepEqual(out.slice(-3), [
    { t: 1000, kind: 'expired', name: 'idle:16/0A' },
    { t: 1000, kind: 'freed', sourceID: 0x10, flowID: '0A', reason: 'idle-timeout' },
    { t: 5000, kind: 'end', pending: [], counters: (out.at(-1) as { counters: unknown }).counters },
  ]);
});

test('docs/model.md timer loop guard: --max-expiries stops a run whose timers keep firing (exit 1, error and end lines)', () => {
  const r = riodp(['model', 'arb-tx', '--config', file('localID: 16\nrequestTimeout: 1\n'), '--max-expiries', '3'], trace([
    { t: 0, kind: 'request', destinationID: 0x20, flowID: '0A', mode: 'single' },
    { t: 100 },
    { t: 200 },
  ]));
  assert.equal(r.status, 1);
  assert.deepEqual(lines(r.stderr), ['riodp: line 2: more than 3 timer expiries: stopped (a timer that keeps re-arming itself?)']);
  const out = jsonLines(r.stdout);
  assert.equal(out.filter((o) => o['kind'] === 'expired').length, 3);
  assert.deepEqual(out.at(-1)?.['pending'], [{ name: 'request:32/0A', at: 4 }]);
});

test('docs/model.md query: prints the engine snapshot and counters at t', () => {
  const r = riodp(['model', 'ccp-endpoint'], trace([{ t: 0, kind: 'ccp', packet: ccp({ command: 'XOFF', flowID: '0A' }) }, { t: 7, kind: 'query' }]));
  const state = jsonLines(r.stdout).find((o) => o['kind'] === 'state') as { t: number; state: { orphanQueue: unknown }; counters: { xoff: number } };
  assert.equal(state.t, 7);
  assert.deepEqual(state.state.orphanQueue, [{ destinationID: 0x34, flowID: '0A', counter: 1 }]);
  assert.equal(state.counters.xoff, 1);
});


test('docs/model.md streaming: each input line is answered before stdin ends (co-simulation)', async () => {
  const child = spawn(process.execPath, [...RIODP_ARGS, 'model', 'ccp-endpoint'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  const answered = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('"kind":"timer"')) resolve();
    });
  });
  child.stdin.write(`${JSON.stringify({ t: 0, kind: 'ccp', packet: ccp({ command: 'XOFF', flowID: '0A' }) })}\n`);
  await answered;
  assert.equal(child.exitCode, null, 'still running: stdin is open');
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
  assert.match(stdout, /"kind":"end"/);
});

test('a reader that closes the pipe early (riodp model … | head -1) ends riodp quietly', async () => {
  const input = trace(Array.from({ length: 20000 }, (_, i) => ({ t: i, kind: 'query' })));
  const child = spawn(process.execPath, [...RIODP_ARGS, 'model', 'ccp-endpoint'], { stdio: ['pipe', 'pipe', 'pipe'] });
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

test('riodp model arb-rx: the grant policy is configurable (Part 9 §2.4.7 rule 9 "to consider which REQUESTs to grant")', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-policy-'));
  const cfg = join(dir, 'rx.yaml');
  writeFileSync(cfg, 'localID: 2\nresources: 1\npolicy: single-before-multi\nidleTimeout: null\n');
  const req = (src: number, flowID: string, command: string, t: number): string =>
    JSON.stringify({ t, kind: 'ccp', packet: { ftype: 7, tt: 0, prio: 3, crf: 1, vc: 0, ackID: 0, destinationID: 2, tgtdestinationID: src, command, seq: 0, flowID, soc: 1 } });
  const trace = [
    req(1, '0A', 'REQUEST_SINGLE_PDU', 0),
    req(3, '0A', 'REQUEST_MULTI_PDU', 1),
    req(4, '0A', 'REQUEST_SINGLE_PDU', 2),
    JSON.stringify({ t: 3, kind: 'segment', sourceID: 1, flowID: '0A', segment: 'single' }),
  ].join('\n');
  const r = riodp(['model', 'arb-rx', '--config', cfg], trace);
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; sourceID?: number; t?: number; config?: { policy?: unknown } });
  assert.equal(out[0]?.config?.policy, 'single-before-multi');
  const allocated = out.filter((l) => l.kind === 'allocated').map((l) => l.sourceID);
  assert.deepEqual(allocated, [1, 4], 'the single-PDU request of source 4 overtakes the older multi-PDU request of source 3');
});
