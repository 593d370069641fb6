import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, EndpointConfigError, SwitchConfigError, endpointConfig, parseSwitchConfig } from './index.ts';
import { sim } from '../index.ts';

test('riodp/net exports ConfigError: EndpointConfigError and SwitchConfigError, what its config loaders throw, are instances of it (the same class riodp/sim exports)', () => {
  assert.throws(() => endpointConfig({ nodeId: 70000, switch: { port: 4000 } }), (e: unknown) => e instanceof EndpointConfigError && e instanceof ConfigError && e.issues[0]?.path === 'nodeId');
  assert.throws(() => parseSwitchConfig({ deviceId: -1 }), (e: unknown) => e instanceof SwitchConfigError && e instanceof ConfigError);
  assert.equal(ConfigError, sim.ConfigError);
});
