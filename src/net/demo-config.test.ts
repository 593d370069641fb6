import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { DEMO_SWITCH_ID, demoEndpointConfig, demoSwitchConfig, parseLinkUp, parseListening, toYaml } from './demo-config.ts';
import { DEMO_NODES } from './demo-fabric.ts';
import { endpointConfig } from './endpoint-config.ts';
import { LogCapture, makeLogger } from './log.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';

const sw = demoSwitchConfig({ nodes: DEMO_NODES, highWatermark: 8, lowWatermark: 4 });

test('issue 8 §3 "a switch port accepts only the source IDs configured for it": each demo port accepts its end point alone and routes to it', () => {
  const c = parseSwitchConfig(parse(toYaml(sw)));
  assert.equal(c.element.deviceId, DEMO_SWITCH_ID);
  assert.deepEqual(c.ports.map((p) => [p.port, p.listen.host, p.listen.port]), [[0, '127.0.0.1', 0], [1, '127.0.0.1', 0], [2, '127.0.0.1', 0]]);
  assert.deepEqual((sw['ports'] as { accept: number[] }[]).map((p) => p.accept), [[1], [2], [3]]);
  assert.deepEqual(sw['routes'], { 1: 0, 2: 1, 3: 2 });
});

test('decision (Part 9 A.1 method 2): the congestion point of every output uses the threshold policy with the watermarks given', () => {
  assert.deepEqual(sw['congestion'], { highWatermark: 8, lowWatermark: 4, policy: { kind: 'threshold' } });
  assert.doesNotThrow(() => parseSwitchConfig(parse(toYaml(sw))));
});

test('decision: the switch listens on TCP port 0, so the system picks free ports and the switch reports them', async () => {
  const log = new LogCapture();
  const running = await startSwitch(parseSwitchConfig(parse(toYaml(sw))), { logger: makeLogger({ level: 'info', destination: log }) });
  try {
    assert.equal(running.addresses.length, 3);
    for (const a of running.addresses) assert.ok(a.tcpPort > 0, `port ${a.port} bound to ${a.tcpPort}`);
    assert.equal(new Set(running.addresses.map((a) => a.tcpPort)).size, 3);
    // What riodp switch prints for each address reads back as that address.
    for (const a of running.addresses) assert.deepEqual(parseListening(`port ${a.port} listening on ${a.host}:${a.tcpPort}`), a);
  } finally {
    await running.close();
  }
});

test('decision: end point timeouts of the demo (discovery read 2 s, reassembly idle 5 s, orphaned XOFF 5 s, rxHigh/rxLow/rxLimit 64/16/128, liveness 5 s) are valid configuration', () => {
  const y = demoEndpointConfig({ id: 2, switchPort: 40001, control: '/tmp/x/B.sock', peers: [1, 3] });
  const c = endpointConfig(parse(toYaml(y)));
  assert.equal(c.engine.nodeId, 2);
  assert.deepEqual(c.switch, { host: '127.0.0.1', port: 40001, keepaliveMs: 100 });
  assert.equal(c.control, '/tmp/x/B.sock');
  const discovery = c.engine.discovery ?? {};
  assert.deepEqual(discovery.targets, [{ node: 1 }, { node: 3 }]);
  assert.equal(discovery.readTimeout, 2_000_000_000);
  assert.equal(c.engine.type9?.idleTimeout, 5_000_000_000);
  assert.equal(c.engine.ccp?.orphanPeriod, 5_000_000_000);
  assert.deepEqual([c.api.rxHigh, c.api.rxLow, c.api.rxLimit, c.api.verifyIdleMs], [64, 16, 128, 5_000]);
});

test('issue 8 §1: the lines riodp switch and riodp endpoint print once they run are read back, other lines are not', () => {
  assert.deepEqual(parseListening('port 1 listening on 127.0.0.1:4001'), { port: 1, host: '127.0.0.1', tcpPort: 4001 });
  assert.deepEqual(parseListening('port 3 listening on [::1]:4003 (tls)'), { port: 3, host: '::1', tcpPort: 4003 });
  assert.equal(parseListening('{"msg":"listening"}'), null);
  assert.equal(parseLinkUp('riodp endpoint 2: link up to 127.0.0.1:4001; control /tmp/riodp-2.sock'), 2);
  assert.equal(parseLinkUp('riodp endpoint 2: starting'), null);
});
