import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from './config.ts';
import { loadEngine, wrap } from './engines.ts';
import type { Configured } from './engines.ts';
import { ccpEndpointAdapter } from './ccp-endpoint.ts';
import { ENGINE_NAMES } from './names.ts';
import type { EngineName } from './names.ts';

async function configure(name: EngineName, raw: unknown): Promise<Configured> {
  return (await loadEngine(name)).configure(raw, false);
}

async function errors(name: EngineName, raw: unknown): Promise<readonly string[]> {
  const r = await configure(name, raw);
  if (r.ok) assert.fail('the config is accepted');
  return r.errors;
}

async function effective(name: EngineName, raw: unknown): Promise<unknown> {
  const r = await configure(name, raw);
  assert.ok(r.ok, r.ok ? '' : r.errors.join('; '));
  return r.effective;
}

test('ccp-endpoint-types.ts defaults: an empty config is orphanPeriod 1 ms, 8-bit per-flow counters, nothing critical, no arbitration', async () => {
  assert.deepEqual(await effective('ccp-endpoint', {}), { orphanPeriod: 1_000_000, counterBits: 8, counters: { mode: 'per-flow' }, critical: [], flowArbitration: false });
});

test('congestion-point-types.ts defaults: the header config fills every documented default, ccpFlow from §2.4.2', async () => {
  assert.deepEqual(await effective('congestion-point', { role: 'switch', highWatermark: 8, lowWatermark: 4 }), {
    role: 'switch', highWatermark: 8, lowWatermark: 4, unit: 'packets', policy: { kind: 'histogram', flows: 1 }, responses: 'fallback',
    listCapacity: 16, restartOrder: 'fifo', restartStagger: 0, crfSupported: true, vcCount: 0, ccpFlow: { prio: 3, crf: 1 },
  });
});

test('Part 9 §2.4.2 "a CRF bit value of 0b1, if supported": without CRF support ccpFlow defaults to CRF 0 and CRF 1 is refused', async () => {
  const c = await effective('congestion-point', { role: 'endpoint', highWatermark: 8, lowWatermark: 4, crfSupported: false });
  assert.deepEqual((c as { ccpFlow: unknown }).ccpFlow, { prio: 3, crf: 0 });
  assert.deepEqual(await errors('congestion-point', { role: 'endpoint', highWatermark: 8, lowWatermark: 4, crfSupported: false, ccpFlow: { prio: 3, crf: 1 } }),
    ['config.ccpFlow.crf: expected 0 when crfSupported is false']);
});

test('Part 9 A.1 a) hysteresis: lowWatermark must sit below highWatermark', async () => {
  assert.deepEqual(await errors('congestion-point', { role: 'switch', highWatermark: 4, lowWatermark: 4 }), ['config.lowWatermark: expected an integer below highWatermark (4)']);
});

test('Part 9 A.1 method 1 "the 1 to 5 transaction request flows": policy.flows outside 1..5 is refused with its path', async () => {
  assert.deepEqual(await errors('congestion-point', { role: 'switch', highWatermark: 4, lowWatermark: 1, policy: { kind: 'histogram', flows: 6 } }),
    ['config.policy.flows: expected an integer 1..5']);
});

test('docs/model.md config errors: one line per bad field, with its path; unknown and missing fields too', async () => {
  assert.deepEqual(await errors('congestion-point', { role: 'router', highWatermark: -1, typo: 1, routes: { table: { x: 1 } } }), [
    'config.role: expected one of switch, endpoint',
    'config.highWatermark: expected a non-negative integer',
    'config.lowWatermark: missing, expected a non-negative integer',
    'config.routes.table.x: expected a device ID in decimal digits as the key',
    'config.typo: unknown field',
  ]);
  assert.deepEqual(await errors('ccp-endpoint', { counters: { mode: 'bounded' }, critical: [{ flowID: '9A' }] }), [
    'config.counters.count: missing, expected an integer >= 1',
    'config.critical.0.flowID: expected one of 0A, 0B, 0C, 0D, 0E, 0F, 1A, 2A, 3A, 4A, 5A, 6A, 7A, 8A',
  ]);
  assert.deepEqual(await errors('ccp-endpoint', []), ['config: expected a mapping of config fields']);
});

test('Part 3 §2.4: localID must fit the configured tt', async () => {
  assert.deepEqual(await errors('arb-tx', { localID: 256 }), ['config.localID: expected a device ID 0..255 (tt 0)']);
  assert.equal((await effective('arb-tx', { localID: 256, tt: 1 }) as { localID: number }).localID, 256);
  assert.deepEqual(await errors('arb-rx', { localID: 70000, tt: 1, resources: 1 }), ['config.localID: expected a device ID 0..65535 (tt 1)']);
  assert.deepEqual(await errors('arb-tx', { localID: 1, unsupportedPeers: [300] }), ['config.unsupportedPeers.0: expected a device ID 0..255 (tt 0)']);
});

test('arbitration-types.ts defaults: arb-tx and arb-rx fill theirs; null switches the optional timers off (§2.4.8 NOTE)', async () => {
  assert.deepEqual(await effective('arb-tx', { localID: 1 }), {
    localID: 1, tt: 0, enabled: true, unsupportedPeers: [], requestTimeout: 100_000, retryDelay: 10_000, pipelining: true, requestFlow: { prio: 3, crf: 1 }, crfSupported: true,
  });
  assert.deepEqual(await effective('arb-rx', { localID: 2, resources: 0, idleTimeout: null }), {
    localID: 2, tt: 0, resources: 0, enabled: true, whenBusy: 'queue', idleTimeout: null, responseFlow: { prio: 3, crf: 1 }, policy: 'fifo',
  });
  assert.deepEqual(await errors('arb-rx', { localID: 2 }), ['config.resources: missing, expected a non-negative integer']);
});

test('riodp model --describe lists exactly the fields the config schema accepts', async () => {
  for (const name of ENGINE_NAMES) {
    const engine = await loadEngine(name);
    for (const f of engine.fields) {
      // A value no field accepts: the error must name the field, not call it unknown.
      const r = engine.configure({ [f.name]: Symbol.for('bad') }, false);
      if (r.ok) assert.fail(`${name}.${f.name} accepts a symbol`);
      const lines = r.errors;
      assert.ok(lines.some((l) => l.startsWith(`config.${f.name}: `) && !l.endsWith('unknown field')), `${name}.${f.name}: ${lines.join('; ')}`);
    }
    const r = engine.configure({ notAField: 1 }, false);
    assert.ok(!r.ok && r.errors.includes('config.notAField: unknown field'));
  }
});

test('docs/model.md --config: JSON and YAML files both load; an empty file is an empty mapping; bad files are one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-model-'));
  const write = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  assert.deepEqual(readConfig(write('a.json', '{"orphanPeriod": 5}')), { ok: true, value: { orphanPeriod: 5 } });
  assert.deepEqual(readConfig(write('a.yaml', 'orphanPeriod: 5\ncounters: {mode: per-flow}\n')), { ok: true, value: { orphanPeriod: 5, counters: { mode: 'per-flow' } } });
  assert.deepEqual(readConfig(write('empty.yaml', '')), { ok: true, value: {} });
  assert.deepEqual(readConfig(undefined), { ok: true, value: {} });
  const bad = readConfig(write('bad.json', '{"a":'));
  if (bad.ok) assert.fail('a truncated JSON file is read');
  assert.equal(bad.errors.length, 1);
  assert.match(bad.errors[0] ?? '', /^config .*bad\.json: not JSON or YAML: /);
  assert.deepEqual(readConfig(join(dir, 'missing.yaml')), { ok: false, errors: [`config ${join(dir, 'missing.yaml')}: cannot read it (ENOENT)`] });
});

test('docs/model.md config errors: a RangeError from the engine constructor is a config error too (exit 2), not a crash', () => {
  const strict = wrap({ ...ccpEndpointAdapter, create: () => { throw new RangeError('orphanPeriod must be a positive integer'); } });
  assert.deepEqual(strict.configure({}, false), { ok: false, errors: ['config: orphanPeriod must be a positive integer'] });
});

test('Part 9 §2.4.2 "if supported" (arb-tx): without CRF support requestFlow defaults to prio 3, CRF 0', async () => {
  const c = await effective('arb-tx', { localID: 1, crfSupported: false });
  assert.deepEqual((c as { requestFlow: unknown }).requestFlow, { prio: 3, crf: 0 });
});

test('congestion-point routes.table: keys are 32-bit device IDs in decimal', async () => {
  assert.deepEqual(await errors('congestion-point', { role: 'switch', highWatermark: 4, lowWatermark: 1, routes: { table: { '4294967296': 1 } } }),
    ['config.routes.table.4294967296: expected a device ID 0..4294967295 as the key']);
  const c = await effective('congestion-point', { role: 'switch', highWatermark: 4, lowWatermark: 1, routes: { table: { '18': 3 }, default: 0 } });
  assert.deepEqual((c as { routes: unknown }).routes, { table: { '18': 3 }, default: 0 });
});
