import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PE_FEATURES_OFFSET } from '../registers/pe-features.ts';
import { isFileTransfer, receiveFile, sendFile } from './api-file.ts';
import { startEndpoint } from './endpoint-start.ts';
import { makeLogger } from './log.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';
import type { RunningSwitch } from './switch-process.ts';
import { bytes, testEndpointConfig } from '../../test/support/net-endpoint.ts';

/** A 3-port switch (ID 0x50): end point 1 on port 0, 2 on port 1, port 2 accepting source ID 3 only. */
async function fabric(): Promise<{ sw: RunningSwitch; port(p: number): number }> {
  const sw = await startSwitch(
    parseSwitchConfig({
      deviceId: 0x50,
      ports: [{ port: 0, listen: { port: 0 }, accept: [1] }, { port: 1, listen: { port: 0 }, accept: [2] }, { port: 2, listen: { port: 0 }, accept: [3] }],
      routes: { 1: 0, 2: 1, 3: 2 },
      log: 'silent',
    }),
    { logger: makeLogger({ level: 'silent' }) },
  );
  return {
    sw,
    port: (p) => {
      const a = sw.addresses.find((x) => x.port === p);
      if (a === undefined) throw new Error(`no port ${p}`);
      return a.tcpPort;
    },
  };
}

/** Processing Element Features CAR (src/registers/pe-features.ts) bit 3: Switch. */
const SWITCH_BIT = 1 << (31 - 3);

test('Part 3 §2.5: through the switch, read-reg at hop_count 0 reads the switch\'s own registers, at 255 the end point\'s', async () => {
  const f = await fabric();
  const a = await startEndpoint(testEndpointConfig(1, f.port(0)));
  const b = await startEndpoint(testEndpointConfig(2, f.port(1)));
  try {
    assert.equal((await a.readRegister(2, 0, PE_FEATURES_OFFSET)) & SWITCH_BIT, SWITCH_BIT);
    assert.equal((await a.readRegister(2, 0xff, PE_FEATURES_OFFSET)) & SWITCH_BIT, 0);
    assert.equal((await a.readRegister(2, 0xff, 0x60)) & 0xffff, 2);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await f.sw.close();
  }
});

test('Annex 2 §3.4, §6.2, issue 8 §2: through the switch, a 256 KiB file crosses a file-transfer conduit and its SHA-256 matches', async () => {
  const f = await fabric();
  const a = await startEndpoint(testEndpointConfig(1, f.port(0)));
  const b = await startEndpoint(testEndpointConfig(2, f.port(1)));
  const dir = await mkdtemp(join(tmpdir(), 'riodp-switch-'));
  try {
    const data = bytes(256 * 1024, 3);
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
    assert.equal(f.sw.counters().sourceRejected, 0);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await f.sw.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('issue 8 §3 "no endpoint can pose as another": an end point whose ID its switch port does not accept reaches nobody (its reads are dropped)', async () => {
  const f = await fabric();
  const a = await startEndpoint(testEndpointConfig(1, f.port(0)));
  const impostor = await startEndpoint(testEndpointConfig(1, f.port(2)));
  try {
    assert.deepEqual(await impostor.discover(1), []);
    assert.ok(f.sw.counters().sourceRejected > 0);
    await assert.rejects(impostor.readRegister(1, 0xff, 0x60), /no MAINTENANCE response/);
  } finally {
    await Promise.all([a.close(), impostor.close()]);
    await f.sw.close();
  }
});

test('issue 17 (decisions FL1–FL3): a sender on the fast lane and a receiver with link.fastLane false (and the reverse) move the same PDUs through the switch, byte for byte', async () => {
  for (const [fastA, fastB] of [[true, false], [false, true]] as const) {
    const f = await fabric();
    const lane = (on: boolean): Parameters<typeof testEndpointConfig>[2] => ({ protocols: [{ protoID: 0x1234, dataHeaderFormat: 'DATA3' }], ...(on ? {} : { link: { fastLane: false } }) });
    const a = await startEndpoint(testEndpointConfig(1, f.port(0), lane(fastA)));
    const b = await startEndpoint(testEndpointConfig(2, f.port(1), lane(fastB)));
    try {
      const pdus = [bytes(65536, 1), bytes(1, 2), bytes(300, 3), bytes(65536, 4), bytes(4097, 5)];
      const got = (async () => {
        const out: Uint8Array[] = [];
        for await (const s of b.incoming()) {
          for await (const pdu of s) {
            out.push(new Uint8Array(pdu));
            if (out.length === pdus.length) return out;
          }
        }
        return out;
      })();
      const s = await a.openStream({ to: 2, protoID: 0x1234 });
      for (const p of pdus) await s.send(p);
      assert.deepEqual(await got, pdus);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await f.sw.close();
    }
  }
});
