/**
 * Captures written by the software fabric's processes (`riodp switch --pcap`, `riodp endpoint
 * --pcap`: src/net/link-capture.ts), read by the real tshark with the dissector: every field of
 * every record as riodp decodes it (issue 19 "captures from the switch, end point and simulator
 * open in tshark with every field decoded as riodp decodes it").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFileTransfer, receiveFile, sendFile } from '../../src/net/api-file.ts';
import { startEndpoint } from '../../src/net/endpoint-start.ts';
import { makeLogger } from '../../src/net/log.ts';
import { parseSwitchConfig } from '../../src/net/switch-config.ts';
import { startSwitch } from '../../src/net/switch-process.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { bytes, closeInOrder, testEndpointConfig } from '../support/net-endpoint.ts';
import { count, runFile, seen } from './run.ts';

test('riodp capture §2, §7 (issue 19): the captures of a switch and two end points moving a file open in tshark, every field of every record as riodp decodes it, the transfer as Type 9 streams and the discovery as MAINTENANCE', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-fabric-capture-'));
  try {
    const sw = await startSwitch(
      parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }, { port: 1, listen: { port: 0 } }], routes: { 1: 0, 2: 1 }, log: 'silent' }),
      { logger: makeLogger({ level: 'silent' }), capture: { path: join(dir, 'sw.pcapng') } },
    );
    const port = (p: number): number => sw.addresses.find((a) => a.port === p)?.tcpPort ?? -1;
    const a = await startEndpoint(testEndpointConfig(1, port(0)), { capture: { path: join(dir, 'ep1.pcapng') } });
    const b = await startEndpoint(testEndpointConfig(2, port(1)), { capture: { path: join(dir, 'ep2.pcapng') } });
    try {
      await writeFile(join(dir, 'in.bin'), bytes(20_000, 9));
      const receiving = (async () => {
        for await (const s of b.incoming()) if (isFileTransfer(s)) return receiveFile(s, dir);
        return undefined;
      })();
      assert.equal((await sendFile(a, 2, join(dir, 'in.bin'), { name: 'out.bin' })).result.status, 'ok');
      assert.equal((await receiving)?.status, 'ok');
      await a.readRegister(0x50, 0, 0x60);
    } finally {
      await closeInOrder(sw, [a, b]);
    }
    for (const name of ['sw', 'ep1', 'ep2']) {
      const file = join(dir, `${name}.pcapng`);
      const records = decodePcapng(new Uint8Array(await readFile(file))).packets.map((p) => p.data);
      const r = await runFile(file, records);
      assert.equal(r.bad, 0, `${name}: ${r.bad} of ${records.length} records differ:\n${r.mismatches.join('\n')}`);
      assert.ok(count(r.refs, 'riodp.type9.segment') >= 20_000 / 256, `${name}: the file's Type 9 segments`);
      assert.ok(seen(r.refs, 'riodp.type9.streamid').size >= 2, `${name}: the conduit's two directions`);
      assert.ok(count(r.refs, 'riodp.type8.transaction') >= 1, `${name}: MAINTENANCE`);
      assert.ok(count(r.refs, 'riodp.kindname') >= records.length, `${name}: every record is a link frame`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
