import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcapng } from '../../wire/pcapng/decode.ts';
import type { PcapngFile } from '../../wire/pcapng/decode.ts';
import { decodeCaptureRecord } from '../../wire/pcapng/record.ts';
import type { DecodedCaptureRecord } from '../../wire/pcapng/record.ts';
import { parseScenario } from '../scenario/load.ts';
import { runScenario, runVariant } from '../scenario/run.ts';
import { captureScenarioYaml } from '../../../test/support/sim-capture-scenario.ts';

const SCENARIO = parseScenario(captureScenarioYaml('30us'));

const root = mkdtempSync(join(tmpdir(), 'riodp-simcap-'));
after(() => { rmSync(root, { recursive: true, force: true }); });
const run = runScenario(SCENARIO, { pcap: { dir: join(root, 'all') } });

function records(f: PcapngFile): DecodedCaptureRecord[] {
  return f.packets.map((p) => decodeCaptureRecord(p.data, 0, p.data.length, { strict: true }));
}

test('riodp capture §3 (simulator): one file per link in a folder per variant, with the link\'s four interfaces <element>.p<port>.<tx|rx>', () => {
  assert.deepEqual(readdirSync(join(root, 'all')).sort(), ['part9', 'voq']);
  const want = ['h0.p0-m0.0.p0.pcapng', 'h1.p0-m0.0.p1.pcapng', 'h2.p0-m1.0.p0.pcapng', 'h3.p0-m1.0.p1.pcapng', 'm0.0.p2-m1.0.p3.pcapng'];
  for (const v of run.variants) {
    assert.deepEqual(readdirSync(join(root, 'all', v.name)).sort(), want);
    assert.deepEqual(v.captures?.map((c) => [c.link, c.path]), ['h0', 'h1', 'h2', 'h3', 'm0.0:2-m1.0:3'].map((l, i) => [l, join(root, 'all', v.name, want[i]!)]));
    const f = decodePcapng(readFileSync(join(root, 'all', v.name, 'm0.0.p2-m1.0.p3.pcapng')));
    assert.deepEqual(f.interfaces.map((i) => i.name), ['m0.0.p2.tx', 'm0.0.p2.rx', 'm1.0.p3.tx', 'm1.0.p3.rx']);
    assert.equal(f.interfaces[0]!.description, 'm0.0.p2 to m1.0.p3: 4x 3.125 Gbaud 8b10b, CS48, propagation 20ns');
  }
});

test('riodp capture §2, §4 (simulator): every record decodes strictly; per interface the times never go back; what one end sends the other receives, in order', () => {
  for (const v of run.variants) {
    for (const c of v.captures ?? []) {
      const f = decodePcapng(readFileSync(c.path));
      assert.equal(f.packets.length, c.records);
      assert.equal(statSync(c.path).size, c.bytes);
      records(f);
      const on = (i: number) => f.packets.filter((p) => p.interface === i);
      for (let i = 0; i < 4; i++) on(i).forEach((p, k, all) => { assert.ok(k === 0 || p.timestampNs >= all[k - 1]!.timestampNs, `${c.path} interface ${i} record ${k}`); });
      for (const [tx, rx] of [[0, 3], [2, 1]] as const) {
        const sent = on(tx).map((p) => Buffer.from(p.data).toString('hex'));
        const got = on(rx).map((p) => Buffer.from(p.data).toString('hex'));
        assert.ok(got.length > 0 && got.length <= sent.length && sent.length - got.length <= 2, `${c.path}: ${sent.length} sent, ${got.length} arrived`);
        assert.deepEqual(got, sent.slice(0, got.length));
        on(rx).forEach((p, k) => { assert.ok(p.timestampNs >= on(tx)[k]!.timestampNs); });
      }
    }
  }
});

test('riodp capture §2 (simulator\'s records): plain data as Type 9 single segments, CCPs as Type 7, credits as Status symbols, VoQ backpressure in stype2', () => {
  const kinds = (variant: string, file: string): Set<string> => {
    const out = new Set<string>();
    for (const r of records(decodePcapng(readFileSync(join(root, 'all', variant, file))))) {
      if (r.kindName === 'packet') out.add(`type${r.packet.ftype}${r.packet.ftype === 9 ? ` ${r.packet.segment}` : ''}`);
      else if (r.kindName === 'cs48') out.add(`cs48 ${r.symbol.stype0Name}${r.symbol.voq?.cmdName === 'VOQ_BACKPRESSURE' ? ' voq' : ''}`);
      else out.add(r.kindName);
    }
    return out;
  };
  assert.deepEqual(kinds('part9', 'h0.p0-m0.0.p0.pcapng'), new Set(['type9 single', 'type7', 'cs48 status']));
  assert.deepEqual(kinds('voq', 'm0.0.p2-m1.0.p3.pcapng'), new Set(['type9 single', 'cs48 status', 'cs48 status voq']));
});

test('riodp capture: capturing does not change the run (the taps only observe)', () => {
  const plain = runVariant(SCENARIO.variants[1]!);
  const captured = run.variants[1]!;
  assert.equal(captured.events, plain.events);
  assert.deepEqual(JSON.stringify(captured.results), JSON.stringify(plain.results));
});

test('riodp capture limits: past maxBytes a file records nothing more and counts it; after until nothing is recorded', () => {
  const v = SCENARIO.variants[0]!;
  const small = runVariant(v, { pcap: { dir: join(root, 'small'), maxBytes: 4096 } });
  for (const c of small.captures ?? []) {
    assert.ok(statSync(c.path).size <= 4096);
    assert.equal(statSync(c.path).size, c.bytes);
    assert.ok(c.notRecorded > 0, c.path);
    assert.equal(decodePcapng(readFileSync(c.path)).packets.length, c.records);
  }
  const until = 5_500_500;
  const early = runVariant(v, { pcap: { dir: join(root, 'early'), until } });
  const full = run.variants[0]!.captures ?? [];
  (early.captures ?? []).forEach((c, i) => {
    const times = decodePcapng(readFileSync(c.path)).packets.map((p) => p.timestampNs);
    assert.ok(times.length > 0 && times.every((t) => t <= 5500n), c.path);
    assert.ok(c.afterUntil > 0);
    assert.equal(c.records + c.afterUntil, full[i]!.records, 'every record is written or counted');
  });
});
