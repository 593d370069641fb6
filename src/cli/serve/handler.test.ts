import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { modelExamples } from '../../../test/support/model-examples.ts';
import { ServeHandler } from './handler.ts';

/**
 * The request handler of `riodp serve`, in process (issue 18 item 3): the engines answer as
 * `riodp model` does, the codecs as `riodp decode --json` and `riodp encode` do, and every bad
 * request is an error response naming what is wrong.
 */
type Json = Record<string, unknown>;

async function ask(h: ServeHandler, req: unknown): Promise<Json> {
  return JSON.parse(JSON.stringify(await h.request(req))) as Json;
}

function handler(): ServeHandler {
  return new ServeHandler({ version: '9.9.9' });
}

const CCP_XOFF_0C = '01c712340004b0f2';

test('issue 18 item 3: ping answers the protocol, the version, the engines of riodp model and the decode layers', async () => {
  const r = await ask(handler(), { id: 'a', op: 'ping' });
  assert.equal(r['id'], 'a');
  assert.equal(r['ok'], true);
  assert.equal(r['protocol'], 'riodp-serve/1');
  assert.equal(r['version'], '9.9.9');
  assert.ok((r['engines'] as string[]).includes('congestion-point'));
  assert.deepEqual(r['layers'], ['serial', 'transport', 'symbol', 'smp']);
});

for (const [name, e] of modelExamples()) {
  test(`issue 18 item 3 "same JSON shapes as riodp model prints": the docs/model.md example for ${name}, request by request, answers exactly its documented output`, async () => {
    const h = handler();
    const created = await ask(h, { id: 0, op: 'create', instance: 'm', engine: e.engine, config: (parseYaml(e.config ?? '') as unknown) ?? {} });
    assert.equal(created['ok'], true, JSON.stringify(created));
    const lines: unknown[] = [created['header']];
    let id = 1;
    for (const text of (e.input ?? '').split('\n')) {
      if (text.trim() === '' || text.startsWith('#')) continue;
      const { t, schema, ...input } = JSON.parse(text) as Json;
      if (schema !== undefined) continue;
      const r = await ask(h, { id: id++, op: 'input', instance: 'm', t, input });
      assert.equal(r['ok'], true, `${text}: ${JSON.stringify(r)}`);
      lines.push(...(r['outputs'] as unknown[]));
    }
    const end = await ask(h, { id: id, op: 'delete', instance: 'm' });
    lines.push(...(end['outputs'] as unknown[]));
    assert.equal(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', e.output);
  });
}

test('issue 18 item 3: an input without input only advances time, firing the timers due; snapshot and counters change nothing; delete with until fires up to until and ends', async () => {
  const h = handler();
  await ask(h, { id: 1, op: 'create', instance: 'ep', engine: 'ccp-endpoint', config: { orphanPeriod: 5000 } });
  const xoff = await ask(h, { id: 2, op: 'input', instance: 'ep', t: 0, input: { kind: 'ccp', packet: CCP_XOFF_0C } });
  assert.deepEqual((xoff['outputs'] as Json[]).at(-1), { t: 0, kind: 'timer', name: 'orphan', at: 5000 });
  const snap = await ask(h, { id: 3, op: 'snapshot', instance: 'ep' });
  assert.equal(snap['t'], 0);
  assert.deepEqual(snap['pending'], [{ name: 'orphan', at: 5000 }]);
  assert.equal((snap['counters'] as Json)['xoff'], 1);
  assert.deepEqual(await ask(h, { id: 4, op: 'counters', instance: 'ep' }), { id: 4, ok: true, t: 0, counters: snap['counters'] });
  const idle = await ask(h, { id: 5, op: 'input', instance: 'ep', t: 4999 });
  assert.deepEqual(idle['outputs'], []);
  const fired = await ask(h, { id: 6, op: 'input', instance: 'ep', t: 6000 });
  assert.deepEqual((fired['outputs'] as Json[])[0], { t: 5000, kind: 'expired', name: 'orphan' });
  assert.deepEqual(await ask(h, { id: 7, op: 'list' }), { id: 7, ok: true, instances: [{ instance: 'ep', engine: 'ccp-endpoint', t: 6000 }] });
  const end = await ask(h, { id: 8, op: 'delete', instance: 'ep', until: 9000 });
  assert.deepEqual((end['outputs'] as Json[]).map((o) => [o['t'], o['kind']]), [[9000, 'end']]);
  assert.deepEqual(await ask(h, { id: 9, op: 'list' }), { id: 9, ok: true, instances: [] });
});

test('issue 18 item 3: decode and encode answer what riodp decode --json and riodp encode print, with their options as fields', async () => {
  const h = handler();
  const doorbell = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 1, sourceID: 65535, rsrv: 0, srcTID: 0, info: 57007, crc: 39171 };
  assert.deepEqual(await ask(h, { id: 1, op: 'decode', layer: 'serial', hex: '001a0001 ffff0000 deaf9903' }), { id: 1, ok: true, value: doorbell });
  assert.deepEqual(await ask(h, { id: 2, op: 'encode', value: doorbell }), { id: 2, ok: true, hex: '001a0001ffff0000deaf9903' });
  const sym = await ask(h, { id: 3, op: 'decode', layer: 'symbol', link: 'cs24', hex: '020203' });
  assert.equal(sym['ok'], false);
  assert.equal(sym['code'], 'wire');
  const cs48 = await ask(h, { id: 4, op: 'decode', layer: 'symbol', hex: '8229c1140779' });
  assert.equal(cs48['ok'], true, JSON.stringify(cs48));
  assert.deepEqual(await ask(h, { id: 5, op: 'encode', layer: 'symbol', value: cs48['value'] }), { id: 5, ok: true, hex: '8229c1140779' });
});

test('issue 18 item 3: a decoder or encoder error is an error response with the message riodp decode prints and its field, byte and clause', async () => {
  const h = handler();
  assert.deepEqual(await ask(h, { id: 1, op: 'decode', hex: '001a0001ffff0000deaf9904' }), {
    id: 1, ok: false, code: 'wire', error: 'crc at byte 10: CRC 0x9904, computed 0x9903 (Part 6 §2.4.1)',
    wire: { code: 'crc', field: 'crc', offset: 10, clause: 'Part 6 §2.4.1' },
  });
  const notHex = await ask(h, { id: 2, op: 'decode', hex: 'zz' });
  assert.equal(notHex['code'], 'wire');
  assert.match(notHex['error'] as string, /'z' is not a hex digit/);
  const badJson = await ask(h, { id: 3, op: 'encode', value: { ftype: 10 } });
  assert.equal(badJson['code'], 'wire');
  assert.equal(badJson['ok'], false);
});

test('issue 18 item 3 "bad requests get an error response with the id (null when the id could not be read)": one code per kind of problem', async () => {
  const h = handler();
  const cases: [unknown, unknown, string, RegExp][] = [
    ['not json', null, 'json', /^not JSON: /],
    ['[1,2]', null, 'json', /expected a JSON object/],
    ['{"op":"ping"}', null, 'request', /^missing, expected the request id, a string or a number \(id\)$/],
    ['{"id":{"x":1},"op":"ping"}', null, 'request', /^expected the request id/],
    ['{"id":1}', 1, 'request', /^missing, expected the op, a string \(op\)$/],
    ['{"id":2,"op":"fly"}', 2, 'op', /^unknown op "fly": expected one of ping, describe, create, input, snapshot, counters, delete, list, decode, encode \(op\)$/],
    ['{"id":3,"op":"toString"}', 3, 'op', /unknown op "toString"/],
    ['{"id":4,"op":"ping","extra":1}', 4, 'request', /^unknown field \(extra\)$/],
    ['{"id":5,"op":"input","instance":"nope","t":0}', 5, 'instance', /^no instance "nope" \(instance\)$/],
    ['{"id":6,"op":"create","instance":"x","engine":"router"}', 6, 'request', /^expected one of ccp-endpoint, .* \(engine\)$/],
    ['{"id":7,"op":"create","instance":"x","engine":"arb-rx","config":{"localID":1,"resources":-1}}', 7, 'config', /^config\.resources: expected a non-negative integer$/],
    ['{"id":8,"op":"create","engine":"arb-rx"}', 8, 'request', /^missing, expected a non-empty string \(instance\)$/],
    ['{"id":9,"op":"decode","hex":"00","layer":"phy"}', 9, 'request', /^expected one of serial, transport, symbol, smp \(layer\)$/],
    ['{"id":10,"op":"decode","hex":"00","voqGroupSize":7}', 10, 'request', /^expected a bit count 0\.\.6 \(voqGroupSize\)$/],
  ];
  for (const [line, id, code, message] of cases) {
    const r = JSON.parse(JSON.stringify(await h.line(line as string))) as Json;
    assert.equal(r['id'], id, line as string);
    assert.equal(r['ok'], false, line as string);
    assert.equal(r['code'], code, line as string);
    assert.match(r['error'] as string, message, line as string);
  }
});

test('issue 18 item 3: a bad engine input (schema error, time going backwards, t inside input) is an error response and changes nothing', async () => {
  const h = handler();
  await ask(h, { id: 1, op: 'create', instance: 'ep', engine: 'ccp-endpoint' });
  await ask(h, { id: 2, op: 'input', instance: 'ep', t: 100 });
  const before = await ask(h, { id: 3, op: 'snapshot', instance: 'ep' });
  for (const [req, code, message] of [
    [{ t: 50 }, 'input', 'time 50 is before the current time 100: time must not decrease (t)'],
    [{ t: 200, input: { kind: 'ccp', packet: '01c712340004b0f3' } }, 'input', 'CRC 0xb0f3, computed 0xb0f2, Part 6 §2.4.1, byte 6 (input.packet.crc)'],
    [{ t: 200, input: { kind: 'fly' } }, 'input', 'expected one of ccp, reset-destination, set-orphan-period, query (input.kind)'],
    [{ input: { kind: 'query' } }, 'input', 'missing, expected the time in nanoseconds, a non-negative integer (t)'],
    [{ t: 200, input: { t: 5, kind: 'query' } }, 'request', "the time is the request's t, not a field of input (input.t)"],
    [{ t: 200, input: 'query' }, 'request', 'expected a JSON object (input)'],
  ] as const) {
    assert.deepEqual(await ask(h, { id: 'x', op: 'input', instance: 'ep', ...req }), { id: 'x', ok: false, code, error: message });
  }
  assert.deepEqual(await ask(h, { id: 3, op: 'snapshot', instance: 'ep' }), before);
});

test('issue 18 item 3: an instance name is taken until deleted; instances belong to their handler (client)', async () => {
  const a = handler();
  const b = handler();
  assert.equal((await ask(a, { id: 1, op: 'create', instance: 'x', engine: 'segmenter' }))['ok'], true);
  assert.deepEqual(await ask(a, { id: 2, op: 'create', instance: 'x', engine: 'segmenter' }), { id: 2, ok: false, code: 'exists', error: 'instance "x" exists: delete it first (instance)' });
  assert.equal((await ask(b, { id: 3, op: 'snapshot', instance: 'x' }))['code'], 'instance');
  assert.equal((await ask(a, { id: 4, op: 'delete', instance: 'x' }))['ok'], true);
  assert.equal((await ask(a, { id: 5, op: 'create', instance: 'x', engine: 'segmenter' }))['ok'], true);
  a.close();
  assert.deepEqual(await ask(a, { id: 6, op: 'list' }), { id: 6, ok: true, instances: [] });
});

test('issue 18 item 3: the timer loop guard (maxExpiries) answers its error line among the outputs; the instance then refuses input as stopped', async () => {
  const h = handler();
  await ask(h, { id: 1, op: 'create', instance: 'ep', engine: 'ccp-endpoint', config: { orphanPeriod: 1 }, maxExpiries: 1 });
  await ask(h, { id: 2, op: 'input', instance: 'ep', t: 0, input: { kind: 'ccp', packet: CCP_XOFF_0C } });
  // A second stopped flow, towards device 0x35: the orphan timer re-arms for it after the first expiry.
  const xoff35 = { ackID: 0, vc: 0, crf: 1, prio: 3, tt: 0, ftype: 7, destinationID: 18, tgtdestinationID: 0x35, command: 'XOFF', flowID: '0C', soc: 0 };
  await ask(h, { id: 3, op: 'input', instance: 'ep', t: 0, input: { kind: 'ccp', packet: xoff35 } });
  const r = await ask(h, { id: 4, op: 'input', instance: 'ep', t: 100 });
  assert.equal(r['ok'], true);
  assert.match(JSON.stringify(r['outputs']), /"kind":"error","message":"more than 1 timer expiries: stopped/);
  assert.equal((await ask(h, { id: 5, op: 'input', instance: 'ep', t: 200 }))['code'], 'stopped');
  assert.equal((await ask(h, { id: 6, op: 'delete', instance: 'ep' }))['ok'], true);
});

test('issue 18 item 3: describe answers riodp model --describe as data', async () => {
  const r = await ask(handler(), { id: 1, op: 'describe', engine: 'arb-rx' });
  assert.equal(r['ok'], true);
  assert.ok((r['fields'] as Json[]).some((f) => f['name'] === 'resources' && f['default'] === 'required'));
  assert.ok((r['kinds'] as Json[]).some((k) => k['kind'] === 'reclaim'));
});
