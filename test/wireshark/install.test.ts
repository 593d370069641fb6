/**
 * The dissector as README.md "Wireshark" installs it, with the real tshark: copied into the
 * personal Lua plugins folder (Wireshark runs every *.lua there, the riodp/*.luainc modules only
 * through riodp.lua), loaded once even when also given with -X lua_script, display filters by
 * field name and the Info column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { encodeSerialPacket, serialPacketLength } from '../../src/wire/index.ts';
import type { Type9Packet } from '../../src/wire/index.ts';
import { KIND, record } from './records.ts';
import { tsharkPath } from './run.ts';
import { DISSECTOR, scratch, writeCapture } from './tshark.ts';

const exec = promisify(execFile);

function start(streamID: number, destinationID: number, sourceID: number, cos: number): Uint8Array {
  const p: Type9Packet = {
    ackID: 1, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 9, destinationID, sourceID, cos, start: 1, end: 0, rsrv: 0, xh: 0,
    segment: 'start', streamID, payload: new Uint8Array(32).fill(7),
  };
  const out = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, out, 0);
  return record(KIND.packet, out);
}

test('docs/pcapng.md "Wireshark dissector", README.md "Wireshark": installed in the personal Lua plugins folder it decodes captures; `riodp.type9.streamid == 18` selects the stream; the Info column summarises; -X lua_script beside it loads nothing twice', async () => {
  const tshark = tsharkPath();
  const dir = scratch();
  try {
    const home = join(dir.dir, 'home');
    const plugins = join(home, '.local', 'lib', 'wireshark', 'plugins');
    mkdirSync(plugins, { recursive: true });
    cpSync(dirname(DISSECTOR), plugins, { recursive: true });
    const file = join(dir.dir, 'streams.pcapng');
    writeCapture(file, [start(17, 1, 5, 3), start(18, 1, 5, 3), start(0x1218, 2, 6, 4), start(18, 9, 8, 1)]);
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const args = ['-r', file, '-Y', 'riodp.type9.streamid == 18', '-T', 'fields', '-e', 'frame.number', '-e', '_ws.col.Protocol', '-e', '_ws.col.Info'];
    const plugin = await exec(tshark, args, { env, encoding: 'utf8' });
    assert.deepEqual(plugin.stdout.trim().split('\n'), [
      '2\tRapidIO\tType 9 start stream 0x12 5→1 cos 3, 32 bytes',
      '4\tRapidIO\tType 9 start stream 0x12 8→9 cos 1, 32 bytes',
    ]);
    assert.doesNotMatch(plugin.stderr, /lua|error/i);
    const twice = await exec(tshark, ['-X', `lua_script:${DISSECTOR}`, ...args], { env, encoding: 'utf8' });
    assert.equal(twice.stdout, plugin.stdout);
    assert.doesNotMatch(twice.stderr, /lua|error|duplicate/i);
  } finally {
    dir.done();
  }
});
