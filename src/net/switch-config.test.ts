import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SwitchConfigError, loadSwitchConfig, parseSwitchConfig } from './switch-config.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/fabric/switch.yaml', import.meta.url));

const BASE = {
  deviceId: 0x50,
  ports: [
    { port: 0, listen: { port: 0 }, accept: [1] },
    { port: 1, listen: { port: 0 } },
  ],
  routes: { 1: 0, 2: 1 },
};

/** The "path: message" lines a configuration is refused with. */
function refusal(value: unknown, baseDir?: string): string[] {
  try {
    parseSwitchConfig(value, baseDir === undefined ? {} : { baseDir });
  } catch (e) {
    assert.ok(e instanceof SwitchConfigError, String(e));
    return e.message.split('\n');
  }
  assert.fail('the configuration was accepted');
}

function tmp(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-switch-config-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('riodp switch config: the example file maps to the element\'s configuration and one listener per port', () => {
  const c = loadSwitchConfig(EXAMPLE);
  assert.deepEqual(c.ports.map((p) => [p.port, p.listen.host, p.listen.port]), [[0, '127.0.0.1', 4000], [1, '127.0.0.1', 4001], [2, '127.0.0.1', 4002], [3, '127.0.0.1', 4003]]);
  assert.deepEqual(
    { deviceId: c.element.deviceId, ports: c.element.ports, routes: c.element.routes, defaultPort: c.element.defaultPort, portConfig: c.element.portConfig },
    { deviceId: 0x50, ports: 4, routes: { 1: 0, 2: 1, 3: 2 }, defaultPort: 3, portConfig: [{ accept: [1] }, { accept: [2] }, { accept: [3] }, { accept: 'any' }] },
  );
  assert.deepEqual(c.element.congestion, { highWatermark: 16, lowWatermark: 8 });
  assert.deepEqual([c.log, c.maxFrameSize, c.tls], ['info', 1024, undefined]);
});

test('riodp switch config: zod problems are reported one per line with their paths', () => {
  assert.deepEqual(refusal({ ...BASE, deviceId: undefined, ports: [{ port: 0, lisen: { port: 1 } }, { port: 1, listen: { port: 70000 } }] }), [
    'deviceId: missing, expected an integer 0..65535',
    'ports.0.listen: missing, expected a mapping {host?, port}',
    'ports.0.lisen: unknown field',
    'ports.1.listen.port: expected an integer 0..65535',
  ]);
  assert.deepEqual(refusal({ ...BASE, ports: [{ port: 0, listen: { port: 1 }, accept: 'all' }] }), ["ports.0.accept: expected 'any' or a list of device IDs"]);
  assert.deepEqual(refusal({ ...BASE, routes: { x: 0 } }), ['routes.x: expected a destination ID in decimal digits as the key']);
  assert.deepEqual(refusal({ ...BASE, congestion: [{ highWatermark: 8, lowWatermark: 'x' }, null] }), ['congestion.0.lowWatermark: expected a non-negative integer']);
});

test('riodp switch config: routes, the default port and VoQ generation must name a listed port; port numbers and addresses are unique', () => {
  assert.deepEqual(refusal({ ...BASE, routes: { 1: 0, 7: 5 }, defaultPort: 4, voq: { high: 4, low: 2, generate: [1, 3] } }), [
    'routes.7: expected a listed port (0, 1)',
    'defaultPort: expected a listed port (0, 1)',
    'voq.generate.1: expected a listed port (0, 1)',
  ]);
  assert.deepEqual(refusal({ ...BASE, ports: [{ port: 0, listen: { port: 4000 } }, { port: 0, listen: { port: 4000 } }], routes: { 1: 0 } }), [
    'ports.1.port: port 0 is already ports.0',
    'ports.1.listen: 127.0.0.1:4000 is already the address of ports.0',
  ]);
});

test('Part 3 §2.4: device IDs must fit the transport type (tt 0: 8 bits)', () => {
  assert.deepEqual(refusal({ ...BASE, tt: 0, deviceId: 0x150, ports: [{ port: 0, listen: { port: 0 }, accept: [0x100] }, { port: 1, listen: { port: 0 } }], routes: { 300: 1 } }), [
    'deviceId: expected a device ID 0..255 (tt 0)',
    'ports.0.accept.0: expected a device ID 0..255 (tt 0)',
    'routes.300: expected a device ID 0..255 (tt 0)',
  ]);
});

test('issue 8 §3 "Any other address requires TLS": a non-loopback listener without tls is refused with security.ts\'s message', () => {
  const [line] = refusal({ ...BASE, ports: [{ port: 0, listen: { host: '0.0.0.0', port: 4000 } }, { port: 1, listen: { port: 0 } }] });
  assert.match(line ?? '', /^ports\.0\.listen\.host: host must be a loopback address \(127\.0\.0\.0\/8 or ::1\) to listen on 0\.0\.0\.0 without tls/);
  const key = '00112233445566778899aabbccddeeff';
  const c = parseSwitchConfig({ ...BASE, ports: [{ port: 0, listen: { host: '0.0.0.0', port: 4000 } }, { port: 1, listen: { port: 0 } }], tls: { psk: { identity: 'lab', key } } });
  assert.deepEqual(c.tls, { psk: { identity: 'lab', key: Uint8Array.from(Buffer.from(key, 'hex')) } });
});

test('riodp switch config: tls.psk.keyFile holds the key in hex and is named relative to the configuration file', () => {
  const dir = tmp({ 'lab.key': '00112233445566778899aabbccddeeff\n', 'short.key': 'abcd\n' });
  const c = parseSwitchConfig({ ...BASE, tls: { psk: { identity: 'lab', keyFile: 'lab.key' } } }, { baseDir: dir });
  assert.ok(c.tls !== undefined && 'psk' in c.tls);
  assert.equal(Buffer.from(c.tls.psk.key).toString('hex'), '00112233445566778899aabbccddeeff');
  assert.deepEqual(refusal({ ...BASE, tls: { psk: { identity: 'lab', keyFile: 'nope.key' } } }, dir), ['tls.psk.keyFile: cannot read nope.key (ENOENT)']);
  assert.deepEqual(refusal({ ...BASE, tls: { psk: { identity: 'lab', keyFile: 'short.key' } } }, dir), ['tls.psk.keyFile: short.key: expected 16 to 64 bytes in hex']);
  assert.deepEqual(refusal({ ...BASE, tls: { psk: { identity: 'lab' } } }), ['tls.psk: expected exactly one of key (hex), keyFile']);
  // YAML reads an unquoted key of digits as a number.
  assert.deepEqual(refusal({ ...BASE, tls: { psk: { identity: 'lab', key: 1122334455 } } }), ['tls.psk.key: expected the key in hex, quoted']);
  assert.deepEqual(refusal({ ...BASE, tls: {} }), ['tls: expected exactly one of psk, cert']);
});

test('riodp switch config: a port left out of the list exists in the element (PortTotal) but has no listener; accept defaults to any', () => {
  const c = parseSwitchConfig({ ...BASE, ports: [{ port: 0, listen: { port: 0 } }, { port: 3, listen: { port: 0 } }], routes: { 1: 0, 2: 3 } });
  assert.equal(c.element.ports, 4);
  assert.deepEqual(c.ports.map((p) => p.port), [0, 3]);
  // Without `accept` a port takes any source ID (the element's default, a port to another switch).
  assert.deepEqual(c.element.portConfig, [{}, {}, {}, {}]);
  // At least 2 ports (Part 1 Table 5-8: PortTotal 1 is reserved).
  assert.equal(parseSwitchConfig({ deviceId: 1, ports: [{ port: 0, listen: { port: 0 } }] }).element.ports, 2);
});

test('riodp switch config, issue 15: the switch element\'s settings are checked as in a scenario file, with the field they name', () => {
  assert.deepEqual(refusal({ ...BASE, congestion: { highWatermark: 4, lowWatermark: 4 } }), ['congestion.lowWatermark: expected less than highWatermark (Annex A.1 hysteresis)']);
  assert.deepEqual(refusal({ ...BASE, outputBuffer: { packets: 3, reservePerPriority: 1 } }), ["outputBuffer.reservePerPriority: expected fewer than packets / 3 (Part 6 §6.12 rule 4: priority 0 keeps a place after the three higher priorities' reserves)"]);
  assert.deepEqual(refusal({ ...BASE, queueing: 'cioq-voq-backpressure' }), ['voq: missing, expected VoQ settings {high, low} with queueing cioq-voq-backpressure']);
  assert.deepEqual(refusal({ ...BASE, arbitration: { policy: 'round-robin', weights: [2, 1] } }), ['arbitration.weights: expected only with policy weighted']);
  assert.deepEqual(refusal({ ...BASE, queueing: 'input-voq', arbitration: 'random' }), ["arbitration: random does not act with queueing input-voq and matcher islip (iSLIP's grant and accept pointers are round robin): matcher: pim is the random matcher"]);
  assert.deepEqual(refusal({ ...BASE, matcher: 'wavefront' }), ['matcher: expected only with queueing input-voq (a matcher pairs virtual output queues)']);
  assert.deepEqual(refusal({ ...BASE, queueing: 'input-voq', arbitration: { byClass: true } }), ['arbitration.byClass: expected no byClass with queueing input-voq: the islip matcher always serves priority levels 3 … 0 first']);
});

test('riodp switch config, issue 15: queueing, arbitration and buffers reach the element; the output buffer keeps 1 place per priority unless the file says', () => {
  const c = parseSwitchConfig({ ...BASE, queueing: 'input-voq', iterations: 2, matcher: 'pim', arbitration: { policy: 'random', seed: 9 }, inputBuffer: { packets: 16 } });
  assert.deepEqual([c.element.queueing, c.element.iterations, c.element.matcher, c.element.arbitration, c.element.inputBuffer], ['input-voq', 2, 'pim', { policy: 'random', seed: 9 }, { packets: 16 }]);
  const w = parseSwitchConfig({ ...BASE, queueing: 'input-fifo', arbitration: { policy: 'weighted', weights: [3, 1], byClass: false } });
  assert.deepEqual(w.element.arbitration, { policy: 'weighted', weights: [3, 1], byClass: false });
  assert.equal(c.element.outputBuffer, undefined);
  assert.deepEqual(parseSwitchConfig(BASE).element.outputBuffer, { packets: 32, reservePerPriority: 1 });
  assert.deepEqual(parseSwitchConfig({ ...BASE, outputBuffer: { packets: 8, reservePerPriority: 0 } }).element.outputBuffer, { packets: 8, reservePerPriority: 0 });
});

test('riodp switch config: a file that is missing or not YAML is refused in one line', () => {
  const dir = tmp({ 'bad.yaml': 'ports: [\n' });
  assert.throws(() => loadSwitchConfig(join(dir, 'none.yaml')), (e: unknown) => e instanceof SwitchConfigError && /^cannot read .*none\.yaml \(ENOENT\)$/.test(e.message));
  assert.throws(() => loadSwitchConfig(join(dir, 'bad.yaml')), (e: unknown) => e instanceof SwitchConfigError && /^not YAML: /.test(e.message) && !e.message.includes('\n'));
});

test('riodp switch config, issue 16 item 3 (decisions SW9, SP16): each port gets a maintenance budget (64 at once, one every 100 000 ns) and a fair share of 64 frames a round unless the file says; null turns either off', () => {
  const d = parseSwitchConfig(BASE);
  assert.deepEqual([d.element.maintenanceBudget, d.fairShare], [{ burst: 64, interval: 100_000 }, { quantum: 64 }]);
  const set = parseSwitchConfig({ ...BASE, maintenanceBudget: { burst: 8, interval: 1_000_000 }, fairShare: { quantum: 16 } });
  assert.deepEqual([set.element.maintenanceBudget, set.fairShare], [{ burst: 8, interval: 1_000_000 }, { quantum: 16 }]);
  const off = parseSwitchConfig({ ...BASE, maintenanceBudget: null, fairShare: null });
  assert.deepEqual([off.element.maintenanceBudget, off.fairShare], [null, null]);
  assert.deepEqual(refusal({ ...BASE, maintenanceBudget: { burst: 0, interval: 0 }, fairShare: { quantum: 0 } }), [
    'maintenanceBudget.burst: expected an integer 1..1048576',
    'maintenanceBudget.interval: expected an integer >= 1',
    'fairShare.quantum: expected an integer 1..65536',
  ]);
  assert.deepEqual(refusal({ ...BASE, maintenanceBudget: 5, fairShare: 64 }), ['maintenanceBudget: expected a maintenance budget {burst, interval} or null', 'fairShare: expected fair share settings {quantum} or null']);
});
