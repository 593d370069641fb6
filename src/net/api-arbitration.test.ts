import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFileTransfer, receiveFile, sendFile } from './api-file.ts';
import { EndpointConfigError, endpointConfig } from './endpoint-config.ts';
import { startEndpoint } from './endpoint-start.ts';
import { makeLogger } from './log.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';
import { bytes, testEndpointConfig } from '../../test/support/net-endpoint.ts';

test('Part 9 §2.4.7, issue 15: flow arbitration end to end over TCP: through a riodp switch, a 256 KiB file crosses a conduit whose every DATA3 PDU was granted by the receiver, one at a time, and its SHA-256 matches', async () => {
  const sw = await startSwitch(parseSwitchConfig({
    deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 }, accept: [1] }, { port: 1, listen: { port: 0 }, accept: [2] }], routes: { 1: 0, 2: 1 }, log: 'silent',
  }), { logger: makeLogger({ level: 'silent' }) });
  const port = (p: number): number => sw.addresses.find((x) => x.port === p)?.tcpPort ?? -1;
  const arbitration = { resources: 1 };
  const a = await startEndpoint(testEndpointConfig(1, port(0), { arbitration }));
  const b = await startEndpoint(testEndpointConfig(2, port(1), { arbitration }));
  const dir = await mkdtemp(join(tmpdir(), 'riodp-arb-'));
  try {
    const data = bytes(256 * 1024, 5);
    await writeFile(join(dir, 'in.bin'), data);
    const receiving = (async () => {
      for await (const s of b.incoming()) if (isFileTransfer(s)) return receiveFile(s, join(dir));
      return undefined;
    })();
    const sent = await sendFile(a, 2, join(dir, 'in.bin'), { name: 'out.bin' });
    const got = await receiving;
    const sha = createHash('sha256').update(data).digest('hex');
    assert.deepEqual([sent.result.status, sent.sha256, got?.status, got?.sha256], ['ok', sha, 'ok', sha]);
    assert.deepEqual(new Uint8Array(await readFile(join(dir, 'out.bin'))), data);
    const arbA = a.status().counters.engine.arbitration ?? {};
    const arbB = b.status().counters.engine.arbitration ?? {};
    // Every PDU of A's 0A flow (four of 64 KiB at least) asked for a grant and got one, never two at
    // once; B allocated its one resource for each and freed it at the PDU's end, queueing the
    // pipelined REQUESTs meanwhile (whenBusy queue), which the 1 s default timeout waits for.
    assert.ok((arbA['requests'] ?? 0) >= 4 && arbA['granted'] === arbA['requests'], JSON.stringify(arbA));
    assert.deepEqual([arbA['refused'], arbA['reissued'], arbB['allocated'], arbB['freed'], arbB['maxAllocated']], [0, 0, arbA['requests'], arbA['requests'], 1]);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await sw.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('issue 15 configuration (decision FE17): the arbitration section maps onto the end point with times in ns; a bad field names its path', () => {
  const c = endpointConfig({ nodeId: 1, switch: { port: 4000 }, arbitration: { mode: 'multi', resources: 2, requestTimeout: 5_000_000, flows: ['0A', '0B'] } });
  assert.deepEqual(c.engine.arbitration, { mode: 'multi', resources: 2, requestTimeout: 5_000_000, flows: ['0A', '0B'] });
  assert.equal(endpointConfig({ nodeId: 1, switch: { port: 4000 } }).engine.arbitration, undefined);
  assert.throws(
    () => endpointConfig({ nodeId: 1, switch: { port: 4000 }, arbitration: { mode: 'many', idleTimeout: 0, flows: ['9Z'] } }),
    (e: unknown) => e instanceof EndpointConfigError && /arbitration\.mode: expected one of single, multi/.test(e.message)
      && /arbitration\.idleTimeout: expected an integer >= 1/.test(e.message) && /arbitration\.flows\.0: expected a flowID/.test(e.message),
  );
});
