/**
 * A live capture of a running riodp switch's TCP link (`tshark -i lo`), read with the dissector
 * (issue 19: "registered … for the software fabric's TCP link framing (so a live loopback capture
 * of riodp switch decodes too)"), against the switch's own capture of the same link (`--pcap`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEndpoint } from '../../src/net/endpoint-start.ts';
import { makeLogger } from '../../src/net/log.ts';
import { parseSwitchConfig } from '../../src/net/switch-config.ts';
import { startSwitch } from '../../src/net/switch-process.ts';
import { decodePcapng } from '../../src/wire/pcapng/decode.ts';
import { testEndpointConfig, until } from '../support/net-endpoint.ts';
import { SEED_PREFS, tsharkPath } from './run.ts';
import { reference } from './reference.ts';
import { dissect, scratch } from './tshark.ts';

/** A value as text: numbers in decimal (tshark shows some in hex, `0x01`), byte strings in hex without colons (as compare.ts:sameValue reads them). */
function norm(v: unknown): string {
  const t = String(v);
  return /^0x[0-9a-f]+$/i.test(t) ? BigInt(t).toString() : t.replace(/:/g, '');
}

/** Field name → its values as text, sorted. */
function multiset(pairs: Iterable<readonly [string, readonly unknown[]]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, values] of pairs) out.set(name, [...(out.get(name) ?? []), ...values.map(norm)]);
  for (const v of out.values()) v.sort();
  return out;
}

test('riodp link §2, riodp capture §3.1 (issue 19): tshark -i lo captures a running switch\'s link and the dissector shows every frame of it, field for field as riodp decodes the switch\'s own --pcap capture of that link', { timeout: 120_000 }, async () => {
  const tshark = tsharkPath();
  const dir = scratch();
  try {
    const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], routes: { 1: 0 }, log: 'silent' }), {
      logger: makeLogger({ level: 'silent' }),
      capture: { path: join(dir.dir, 'sw.pcapng') },
    });
    const port = sw.addresses[0]?.tcpPort ?? -1;
    const live = join(dir.dir, 'live.pcapng');
    // UDP probes to a port nobody reads, until tshark prints one (-P): then the capture is running.
    const probe = createSocket('udp4');
    const cap = spawn(tshark, ['-i', 'lo', '-f', `tcp port ${port} or udp port ${port}`, '-w', live, '-P'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    cap.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    cap.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    const exited = new Promise<number | null>((resolve) => cap.on('close', resolve));
    try {
      const deadline = Date.now() + 30_000;
      while (out === '' && cap.exitCode === null && Date.now() < deadline) {
        probe.send('probe', port, '127.0.0.1');
        await new Promise((r) => setTimeout(r, 100));
      }
      probe.close();
      assert.notEqual(out, '', `tshark -i lo: ${err}`);
      const ep = await startEndpoint(testEndpointConfig(1, port));
      for (let i = 0; i < 3; i++) await ep.readRegister(0x50, 0, 0x60 + 0);
      await ep.close();
      await until(() => sw.ports()[0]?.link === 'none');
      await sw.close();
      // What the kernel has handed to the capture is written when tshark stops.
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      cap.kill('SIGINT');
      await exited;
    }
    const own = decodePcapng(readFileSync(join(dir.dir, 'sw.pcapng'))).packets.map((p) => p.data);
    const want = multiset(own.flatMap((r) => [...reference(r, SEED_PREFS).fields]));
    const frames = await dissect(tshark, live, {}, ['-Y', 'tcp']);
    const shown = multiset(frames.flatMap((f) => [...f]).filter(([name]) => !name.startsWith('riodp.expert')));
    assert.ok((want.get('riodp.kind')?.length ?? 0) >= 8, 'HELLO, reads, responses, CLOSE');
    assert.equal(shown.get('riodp.kind')?.length, own.length, 'tshark shows every frame the switch recorded, once');
    for (const [name, values] of want) assert.deepEqual(shown.get(name), values, name);
    assert.deepEqual([...shown.keys()].filter((k) => !want.has(k) && k !== 'riodp.length'), [], 'no field riodp does not print');
  } finally {
    dir.done();
  }
});
