import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';
import { FILE_TRANSFER_SUPPORT } from './api-file-format.ts';
import { DEFAULT_API, DEFAULT_DISCOVERY_READ_NS, DEFAULT_REASSEMBLY_IDLE_NS, EndpointConfigError, endpointConfig, loadEndpointConfig } from './endpoint-config.ts';
import { EndpointEngine } from './endpoint-engine.ts';

function issues(input: unknown): string[] {
  try {
    endpointConfig(input);
  } catch (e) {
    if (e instanceof EndpointConfigError) return e.message.split('\n');
    throw e;
  }
  return [];
}

test('issue 8 §1: the smallest configuration is nodeId and the switch port; the defaults advertise Type 9 management stream 0xFFF0 (Annex 2 Table 3-1) and the file-transfer protocol, and discovery reads wait 1 s (decision EA17)', () => {
  const c = endpointConfig({ nodeId: 5, switch: { port: 4000 } });
  assert.deepEqual(c.switch, { host: '127.0.0.1', port: 4000, keepaliveMs: 100 });
  assert.equal(c.silenceMs, 500);
  assert.deepEqual(c.engine.advertisement, { blocks: [{ contact: { conveyance: 'type9', streamID: 0xfff0, cos: 0 } }] });
  assert.deepEqual(c.engine.conveyances, ['type9', 'type11']);
  assert.deepEqual(c.engine.session.protocols, [FILE_TRANSFER_SUPPORT]);
  assert.equal(c.engine.type9?.idleTimeout, DEFAULT_REASSEMBLY_IDLE_NS);
  // Decision EA17: discovery reads wait 1 s in a process, not the engine's 100 ms.
  assert.equal(c.engine.discovery?.readTimeout, DEFAULT_DISCOVERY_READ_NS);
  assert.equal(endpointConfig({ nodeId: 5, switch: { port: 4000 }, discovery: { readTimeout: 5 } }).engine.discovery?.readTimeout, 5);
  assert.deepEqual([c.control, c.log, c.api, c.retry], [null, 'info', DEFAULT_API, { timeoutMs: 10_000, firstMs: 100, maxMs: 5_000 }]);
  assert.doesNotThrow(() => new EndpointEngine(c.engine));
});

test('issue 8 §1: protocols, management over Type 11, discovery, session periods (ns) and TLS-PSK map onto the end point\'s configuration', () => {
  const c = endpointConfig({
    nodeId: 2,
    tt: 0,
    switch: { host: '10.0.0.1', port: 4001, tls: { psk: { identity: 'lab', key: '00112233445566778899aabbccddeeff' } } },
    management: { conveyance: 'type11', mailbox: 3 },
    protocols: [{ protoID: 0x0101, vendor: 0x123456, name: 'DEMO', dataHeaderFormat: 'DATA3' }],
    fileTransfer: false,
    discovery: { targets: [{ node: 1, hop: 3 }], scan: { first: 1, last: 4 } },
    session: { retryPeriod: 5, conduitRole: 'master' },
    link: { maxFrameSize: 2048 },
  });
  assert.deepEqual(c.engine.advertisement, { blocks: [{ contact: { conveyance: 'type11', mailbox: 3 } }] });
  assert.deepEqual(c.engine.conveyances, ['type11', 'type9']);
  assert.deepEqual(c.engine.session.protocols.map((p) => [p.protoID, p.attributes.map((a) => a.id), p.dataHeaderFormat]), [[0x0101, [ATTRIBUTE_ID.VENDOR, ATTRIBUTE_ID.PROTOCOL_NAME], 'DATA3']]);
  assert.deepEqual(c.engine.discovery, { readTimeout: DEFAULT_DISCOVERY_READ_NS, targets: [{ node: 1, hop: 3 }], scan: { first: 1, last: 4 } });
  assert.deepEqual([c.engine.session.retryPeriod, c.engine.session.conduitRole, c.engine.tt], [5, 'master', 0]);
  assert.deepEqual(c.switch.tls, { psk: { identity: 'lab', key: Uint8Array.from(Buffer.from('00112233445566778899aabbccddeeff', 'hex')) } });
  assert.equal(c.switch.maxFrameSize, 2048);
});

test('issue 8 §1: every bad field is one "path: expectation" line, unknown fields included', () => {
  assert.deepEqual(issues({ nodeId: -1, switch: { port: 70000 }, extra: true, protocols: [{ protoID: 1, name: 'TOO-LONG-NAME' }] }).sort(), [
    'extra: unknown field',
    'nodeId: expected an integer 0..65535',
    'protocols.0.name: expected 1 to 7 Latin-1 characters',
    'switch.port: expected an integer 1..65535',
  ]);
  assert.deepEqual(issues({ nodeId: 1 }), ['switch: missing, expected object']);
  assert.deepEqual(issues({ nodeId: 1, switch: { port: 1 }, api: { rxHigh: 4, rxLow: 4, rxLimit: 2 } }), ['api.rxLow: expected less than api.rxHigh (4)', 'api.rxLimit: expected at least api.rxHigh (4)']);
  assert.deepEqual(issues({ nodeId: 1, switch: { port: 1, tls: { psk: { identity: 'x', key: 'abc' } } } }), ['switch.tls.psk.key: expected 16 to 64 bytes in hex']);
});

test('issue 8 §3 "Any other address requires TLS" (issue 16 item 6): a switch host that is not loopback, without switch.tls, is a configuration error naming switch.host', () => {
  const refused = (host: string): string => `switch.host: host must be a loopback address (127.0.0.0/8 or ::1) to connect to ${host} without tls; configure tls.psk or tls.cert`;
  assert.deepEqual(issues({ nodeId: 1, switch: { host: '10.0.0.5', port: 4000 } }), [refused('10.0.0.5')]);
  assert.deepEqual(issues({ nodeId: 1, switch: { host: 'localhost', port: 4000 } }), [refused('localhost')]);
  // Reported with the other problems of the file, not instead of them.
  assert.deepEqual(issues({ nodeId: 1, switch: { host: '0.0.0.0', port: 4000 }, connect: { retryMs: 10, maxRetryMs: 5 } }).sort(), [
    'connect.maxRetryMs: expected at least connect.retryMs (10)',
    refused('0.0.0.0'),
  ]);
  assert.deepEqual(issues({ nodeId: 1, switch: { host: '::1', port: 4000 } }), []);
  assert.deepEqual(issues({ nodeId: 1, switch: { host: '10.0.0.5', port: 4000, tls: { psk: { identity: 'lab', key: '00112233445566778899aabbccddeeff' } } } }), []);
});

test('decision (api.rxStallMs): how long a stream at api.rxLimit may hold the link without a read is 2000 ms by default, set in ms, at least 1', () => {
  assert.equal(DEFAULT_API.rxStallMs, 2000);
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 1 }, api: { rxStallMs: 250 } }).api.rxStallMs, 250);
  assert.equal(issues({ nodeId: 1, switch: { port: 1 }, api: { rxStallMs: 0 } }).length, 1);
  assert.match(issues({ nodeId: 1, switch: { port: 1 }, api: { rxStallMs: 0 } })[0] ?? '', /^api\.rxStallMs: /);
});

test('decision FF4 (api.peerCheckMs): the port check runs every 1000 ms by default, set in ms (at least 1) or null for none', () => {
  assert.equal(DEFAULT_API.peerCheckMs, 1000);
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 1 } }).api.peerCheckMs, 1000);
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 1 }, api: { peerCheckMs: 250 } }).api.peerCheckMs, 250);
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 1 }, api: { peerCheckMs: null } }).api.peerCheckMs, null);
  assert.match(issues({ nodeId: 1, switch: { port: 1 }, api: { peerCheckMs: 0 } })[0] ?? '', /^api\.peerCheckMs: /);
});

test('issue 8 §3: certificates are read from files beside the configuration; a missing file is a configuration error naming the field', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-config-'));
  try {
    await writeFile(join(dir, 'a.pem'), 'CERT');
    const yaml = 'nodeId: 1\nswitch: { port: 4000, host: 10.1.1.1, tls: { cert: { cert: a.pem, key: a.pem, ca: missing.pem } } }\n';
    await writeFile(join(dir, 'e.yaml'), yaml);
    assert.throws(() => loadEndpointConfig(join(dir, 'e.yaml')), /^EndpointConfigError: switch\.tls\.cert\.ca: cannot read missing\.pem \(ENOENT\)$/);
    await writeFile(join(dir, 'missing.pem'), 'CA');
    const c = loadEndpointConfig(join(dir, 'e.yaml'));
    assert.deepEqual(c.switch.tls, { cert: { cert: 'CERT', key: 'CERT', ca: 'CA' } });
    await writeFile(join(dir, 'bad.yaml'), 'nodeId: [1\n');
    assert.throws(() => loadEndpointConfig(join(dir, 'bad.yaml')), /^EndpointConfigError: not YAML: /);
    assert.throws(() => loadEndpointConfig(join(dir, 'none.yaml')), /cannot read .*none\.yaml \(ENOENT\)/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('issue 8 §1: a value only the engine can judge is refused when the end point is built, naming the field (RangeError)', () => {
  const c = endpointConfig({ nodeId: 300, tt: 0, switch: { port: 4000 } });
  assert.throws(() => new EndpointEngine(c.engine), /^RangeError: nodeId must be an integer from 0 to 255$/);
});

test('docs/fabric-api.md §3: the example end point configurations of examples/fabric/ load, each with its node ID; with each commented tm line the end point builds too', async () => {
  const dir = fileURLToPath(new URL('../../examples/fabric/', import.meta.url));
  for (const n of [1, 2, 3]) {
    const c = loadEndpointConfig(join(dir, `endpoint-${n}.yaml`));
    assert.equal(c.engine.nodeId, n);
    assert.equal(c.api.verifyIdleMs, 10_000);
  }
  const text = await readFile(join(dir, 'endpoint-2.yaml'), 'utf8');
  const tmp = await mkdtemp(join(tmpdir(), 'riodp-tm-'));
  try {
    for (const line of text.split('\n').filter((l) => l.startsWith('# tm: '))) {
      const file = join(tmp, 'ep.yaml');
      await writeFile(file, `${text}\n${line.slice(2).replace(/\s+#.*$/, '')}\n`);
      const c = loadEndpointConfig(file);
      assert.notEqual(c.engine.tm, undefined, line);
      assert.doesNotThrow(() => new EndpointEngine(c.engine), line);
    }
  } finally {
    await rm(tmp, { recursive: true });
  }
});

test('issue 17 (decisions FL2, FL3): link.fastLane is on by default; false turns off both halves of the fast lane, the transmit pull and the receive batch (the link\'s batch option)', () => {
  const on = endpointConfig({ nodeId: 5, switch: { port: 4000 } });
  assert.equal(on.fastLane, true);
  assert.equal(on.switch.batch, undefined);
  const off = endpointConfig({ nodeId: 5, switch: { port: 4000 }, link: { fastLane: false } });
  assert.equal(off.fastLane, false);
  assert.equal(off.switch.batch, false);
});
