import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointConfig } from './endpoint-config.ts';
import { ENGINE_NAME, EndpointEngine } from './endpoint-engine.ts';

const config = endpointConfig({ nodeId: 1, switch: { port: 4000 } }).engine;

test('issue 8 §1: the process\'s end point takes link state, pulls and commands as FabricEndpoint does, and reports counters in its shape', () => {
  const e = new EndpointEngine(config);
  assert.deepEqual(e.handle({ kind: 'link-up' }, 0), []);
  assert.deepEqual(e.handle({ kind: 'pull' }, 1), [{ kind: 'idle' }]);
  const c = e.counters();
  assert.deepEqual(Object.keys(c), ['fabric', 'endpoint', 'engines', 'ccp']);
  assert.equal(c.endpoint.pulls, 1);
  assert.deepEqual(e.flows(), []);
  const s = e.snapshot();
  assert.equal(typeof s['endpoint'], 'object');
  assert.equal(ENGINE_NAME.length > 0, true);
});

test('Annex 2 §3.3: a discover command with no targets reports done at once', () => {
  const e = new EndpointEngine(config);
  const out = e.handle({ kind: 'discover' }, 0);
  assert.ok(out.some((o) => o.kind === 'event' && o.source === 'discovery' && o.detail.event === 'done'));
});
